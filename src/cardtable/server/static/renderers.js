// Which module shows a game: static/games/<name>.js when the game has one, else
// games/generic.js; the exports a game's module leaves out come from the generic one (the
// list is at the top of games/generic.js). No page names a game: the name comes from the
// server, and the module is loaded when first needed.
import * as generic from "./games/generic.js";

const loaded = new Map();

export function rendererFor(name) {
  if (!loaded.has(name)) loaded.set(name, load(name));
  return loaded.get(name);
}

async function load(name) {
  // a game's name becomes a path: only the characters game names use
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(name)) return generic;
  let module;
  try {
    module = await import(`./games/${name}.js`);
  } catch (e) {
    // no module for this game (a 404, which the console shows) or one that does not load:
    // the generic renderer still makes the game playable
    console.info(`cardtable: no renderer of its own for ${name}: ${e.message}`);
    return generic;
  }
  if (module.stylesheet) await addStylesheet(new URL(`./games/${name}.css`, import.meta.url));
  return Object.fromEntries(generic.HOOKS.map((k) => [k, k in module ? module[k] : generic[k]]));
}

// the game's styles before its first board is drawn (node's tests have no document)
function addStylesheet(url) {
  if (typeof document === "undefined") return Promise.resolve();
  return new Promise((resolve) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = url.pathname;
    link.addEventListener("load", resolve);
    link.addEventListener("error", resolve); // unstyled beats unplayable
    document.head.append(link);
  });
}
