"""Every relative link of the documentation leads somewhere.

A link ``[text](path)`` or ``[text](path#anchor)`` in ``docs/*.md``, the rules pages
(``docs/rules/**.md``, every language), ``README.md`` or ``CONTRIBUTING.md`` must name a file
or folder that exists (relative to the page), and an anchor into a Markdown page must name one
of its headings, slugged as GitHub slugs them. A page moved or a heading renamed then fails
here instead of leaving a reader at a dead end. Links to other sites (``https:``,
``mailto:``) are not followed. Code (fenced blocks and inline code) holds no links, and its
``#`` lines are no headings.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted(
    [
        *ROOT.joinpath("docs").glob("*.md"),
        *ROOT.joinpath("docs", "rules").rglob("*.md"),  # the rules pages in every language
        ROOT / "README.md",
        ROOT / "CONTRIBUTING.md",
    ]
)

FENCE = re.compile(r"^\s*(```|~~~)")
# inline code, which may wrap onto the next line but not across a blank one
INLINE_CODE = re.compile(r"`(?:[^`\n]|\n(?![ \t]*\n))*`")
# [text](target) or ![alt](target), the text maybe wrapped over lines; the target ends at
# whitespace (a title may follow)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


def prose(path: Path) -> str:
    """The page with fenced code blanked out and inline code spaced out (lines kept, so a
    position still has its line number)."""
    lines, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            lines.append("")
        else:
            lines.append("" if fenced else line)
    return INLINE_CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), "\n".join(lines))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    """Every anchor of a Markdown page: its headings' slugs (a repeated one gets -1, -2, ...)
    and explicit ``<a name=..>`` / ``<a id=..>`` anchors."""
    seen: dict[str, int] = {}
    out = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else HEADING.match(line)
        out.update([] if fenced else HTML_ANCHOR.findall(line))
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return frozenset(out)


def broken_links(page: Path) -> list[str]:
    """The relative links of ``page`` that lead nowhere, as ``line: target (why)``."""
    text = prose(page)
    out = []
    for match in LINK.finditer(text):
        target = match.group(1)
        if EXTERNAL.match(target):
            continue
        number = text.count("\n", 0, match.start(1)) + 1
        path_part, _, anchor = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        if not dest.exists():
            out.append(f"{number}: {target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            out.append(f"{number}: {target} (no heading #{anchor} in {dest.name})")
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(page: Path) -> None:
    assert broken_links(page) == []


def test_slugs_are_githubs() -> None:
    assert slug("The Game: the sampled endgame, measured (#12)") == (
        "the-game-the-sampled-endgame-measured-12"
    )
    assert slug("The search bot (`search`, `search:easy`)") == "the-search-bot-search-searcheasy"
    assert slug("Today's `hard` against the frozen baseline") == (
        "todays-hard-against-the-frozen-baseline"
    )
    assert slug("Add a game") == "add-a-game"


def test_a_dead_link_and_a_dead_anchor_are_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    (tmp_path / "other.md").write_text("# Other page\n\n## A part\n", encoding="utf-8")
    page.write_text(
        "# Title\n\n"
        "[fine](other.md#a-part), [fine too](#title), [web](https://example.org/x#y)\n"
        "[gone](missing.md) and [no part](other.md#no-part) and [here](#nowhere)\n"
        "`[in code](missing.md)`, [a link over\ntwo lines](other.md#gone)\n\n"
        "```\n# not a heading\n[in a block](missing.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "4: missing.md (no such file)",
        "4: other.md#no-part (no heading #no-part in other.md)",
        "4: #nowhere (no heading #nowhere in page.md)",
        "6: other.md#gone (no heading #gone in other.md)",
    ]
