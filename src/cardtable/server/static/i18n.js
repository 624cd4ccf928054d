// Words in the reader's language: the page's catalog (its address in <meta
// name="cardtable-catalog">, the language in <html lang>, both set by the server), gettext's
// way: the English source is the key, a missing translation reads in English.
//
//   t("New table")                          the page's own words (the "web" catalog)
//   t("Wait {s} s", {s: 3})                 with arguments ({name} placeholders)
//   tn("{n} card", "{n} cards", n)          a count: the form by Intl.PluralRules (CLDR)
//   say(entry.msg)                          words the server sent as a message id with
//                                           arguments ({msg, domain, args, plural?, n?})
// Extraction (python -m cardtable.i18n extract) finds t("…") and tn("…", "…") calls with
// string literals: never build the English passed to them.

/** @typedef {{msg: string, domain?: string, args?: Record<string, unknown>, plural?: string, n?: number}} Words */
/** @typedef {{lang: string, plural: Record<string, number>, messages: Record<string, Record<string, string | string[]>>}} Catalog */

const hasDocument = typeof document !== "undefined";

/** The reader's language (a BCP 47 tag: "cs", "nb"). */
export const lang = (hasDocument && document.documentElement.lang) || "en";

/** @returns {Promise<Catalog>} */
async function load() {
  const empty = { lang, plural: {}, messages: {} };
  const meta = hasDocument ? document.querySelector('meta[name="cardtable-catalog"]') : null;
  const url = meta && meta.getAttribute("content");
  if (!url || lang === "en") return empty;
  try {
    const res = await fetch(url, { credentials: "same-origin" });
    return res.ok ? await res.json() : empty;
  } catch {
    return empty;  // offline or refused: the pages read in English
  }
}

const catalog = await load();
// the pseudo-language of the tests (en-XA) counts in English
const plurals = new Intl.PluralRules(lang === "en-XA" ? "en" : lang);
const numbers = new Intl.NumberFormat(lang === "en-XA" ? "en" : lang);

/**
 * @param {string} domain
 * @param {string} msgid
 * @returns {string | string[] | undefined}
 */
function lookup(domain, msgid) {
  const messages = catalog.messages[domain];
  return messages ? messages[msgid] : undefined;
}

/**
 * `template` with each {name} replaced by its argument in words.
 * @param {string} template
 * @param {Record<string, unknown>} args
 */
function fill(template, args) {
  return template.replace(/\{([a-z_][a-z0-9_]*)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(args, name) ? say(args[name]) : whole);
}

/**
 * The page's own words in the reader's language.
 * @param {string} msgid the English, with {name} placeholders
 * @param {Record<string, unknown>} [args]
 * @param {string} [domain]
 */
export function t(msgid, args = {}, domain = "web") {
  const found = lookup(domain, msgid);
  return fill(typeof found === "string" ? found : msgid, args);
}

/**
 * A count's words: the singular and plural English, the count (also the argument {n}).
 * @param {string} singular
 * @param {string} plural
 * @param {number} n
 * @param {Record<string, unknown>} [args]
 * @param {string} [domain]
 */
export function tn(singular, plural, n, args = {}, domain = "web") {
  const found = lookup(domain, singular);
  let template = n === 1 ? singular : plural;
  if (Array.isArray(found)) {
    const form = catalog.plural[plurals.select(n)];
    template = found[form ?? found.length - 1] ?? template;
  }
  return fill(template, { n, ...args });
}

/**
 * Anything the server sent to be read: a message id with arguments (see the top), a number,
 * or plain text (a name, a cell) as it is.
 * @param {unknown} value
 * @returns {string}
 */
export function say(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return number(value);
  if (typeof value !== "object") return String(value);
  const words = /** @type {Words} */ (value);
  if (typeof words.msg !== "string") return String(value);
  const domain = words.domain || "web";
  const args = words.args || {};
  if (typeof words.plural === "string") return tn(words.msg, words.plural, words.n ?? 0, args, domain);
  return t(words.msg, args, domain);
}

/**
 * A number in the reader's digits (a card's number as printed: no grouping below 10,000).
 * @param {number} n
 */
export function number(n) {
  return Number.isInteger(n) && Math.abs(n) < 10000 ? String(n) : numbers.format(n);
}

/**
 * A moment as the reader writes a date and time.
 * @param {Date | string | number} moment
 * @param {Intl.DateTimeFormatOptions} [style]
 */
export function date(moment, style = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(lang === "en-XA" ? "en" : lang, style).format(new Date(moment));
}

// the name of a person who deleted their identity, as the server sends it where a plain name
// goes (server/api/names.py, FORMER_PLAYER: nobody may take it), in the reader's language
const FORMER_PLAYER = "a former player";

/**
 * A person's name as a page shows it: a former player's in the reader's language.
 * @param {string | null | undefined} name
 * @returns {string}
 */
export function personName(name) {
  return name === FORMER_PLAYER ? t(FORMER_PLAYER, {}, "cardtable") : name ?? "";
}
