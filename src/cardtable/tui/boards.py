"""Pure functions from a view (the dict ``State.view`` returns) to Rich text.

Nothing here touches a state: a board can only show what the view holds, so a seat's screen can
never show a card its view hides. Every function is deterministic, which keeps them easy to test.

With ``links=True`` the cards carry ``@click`` metadata naming the card (see ``CardRef`` below);
the Textual apps turn a click on a card into ``action_card(ref)``.

Card references (the argument of a click), by game:

- Slide: ``cell SEAT NAME`` (a grid cell, e.g. ``cell 0 b3``) and ``centre VALUE``.
- Doublets: ``stock``, ``waste``, ``foundation`` and ``reserve rN``.
- The Game: ``hand CARD`` and ``pile NAME``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.style import Style
from rich.text import Text

# -- shared -------------------------------------------------------------------------------------

COLUMNS = "abcd"  # Slide's cell notation: column letter, row number (RULES.md)
PILES = ("up1", "up2", "down1", "down2")  # The Game's piles in notation order
DOUBLING_CYCLE = (1, 2, 4, 8, 3, 6, 12, 11, 9, 5, 10, 7)
RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

DIM = Style(dim=True)
BOLD = Style(bold=True)
TITLE = Style(bold=True, color="cyan")
TURN = Style(bold=True, color="yellow")
GOOD = Style(bold=True, color="green")
BAD = Style(color="red")
SELECTED = Style(reverse=True, bold=True)
HOLE = Style(bgcolor="grey23")
HIDDEN = Style(color="bright_black")


def seat_label(seat: int, names: Sequence[str] | None) -> str:
    """``'you (seat 0)'`` for the person at the keyboard, ``'seat 1 (greedy)'`` for a bot."""
    name = names[seat] if names is not None and 0 <= seat < len(names) else ""
    if name == "you":
        return "you" if len(names or ()) == 1 else f"you (seat {seat})"  # alone: no seat talk
    return f"seat {seat} ({name})" if name else f"seat {seat}"


def _link(style: Style, ref: str, links: bool) -> Style:
    return style + Style(meta={"@click": f"app.card({ref!r})"}) if links else style


def plain(renderable: Any, width: int = 100) -> str:
    """The text a renderable shows on a plain terminal ``width`` columns wide (for tests)."""
    if isinstance(renderable, Text):
        return renderable.plain
    console = Console(width=width, record=True, color_system=None, force_terminal=False)
    with console.capture():
        console.print(renderable)
    return console.export_text()


def render_board(
    view: dict[str, Any],
    names: Sequence[str] | None = None,
    *,
    width: int = 80,
    links: bool = False,
    selected: str | None = None,
    show_result: bool = True,
) -> Text:
    """The board of any game's view. ``selected`` is a card reference to highlight;
    ``show_result=False`` leaves out the result of a finished game (shown elsewhere)."""
    game = view.get("game")
    if game == "slide":
        return slide_board(view, names, width=width, links=links, selected=selected,
                           show_result=show_result)
    if game == "doublets":
        return doublets_board(view, links=links, show_result=show_result)
    if game == "the-game":
        return the_game_board(view, names, links=links, selected=selected,
                              show_result=show_result)
    raise ValueError(f"no board for the game {game!r}")


# -- Slide --------------------------------------------------------------------------------------

BLOCK = 21  # columns a Slide grid block takes, gap included


def slide_board(
    view: dict[str, Any],
    names: Sequence[str] | None = None,
    *,
    width: int = 80,
    links: bool = False,
    selected: str | None = None,
    show_result: bool = True,
) -> Text:
    """Every grid as 4x4 (face-down ``?``, the hole empty), the centre, who chose, whose turn."""
    me = view.get("seat")
    players = view["players"]
    phase = view["phase"]
    over = "result" in view
    out = Text()
    target = view.get("target")
    out.append("Slide", TITLE)
    if over:
        deals = view["deal"]
        played = f"{deals} deal{'s' if deals > 1 else ''}, target {target}" if target else ""
        out.append(f" · game over{' after ' + played if played else ''}\n")
    else:
        deal = f" · deal {view['deal']}, target {target}" if target else ""
        out.append(f" · round {view['round']} of 16{deal}\n")
    if not over:
        if phase == "reveal":
            waiting = [seat_label(s, names) for s in view["to_act"]]
            out.append("Reveal: ", TURN)
            out.append("each seat secretly picks a face-down card; waiting for ")
            out.append(", ".join(waiting) or "nobody")
            out.append("\n")
        else:
            out.append("Take: ", TURN)
            out.append(f"{seat_label(view['turn'], names)} takes a centre card and slides it in\n")
    out.append("Centre: ")
    if view["centre"]:
        for value in view["centre"]:
            ref = f"centre {value}"
            style = SELECTED if selected == ref else BOLD
            out.append(f"[{value:>2}]", _link(style, ref, links))
            out.append(" ")
    else:
        out.append("empty" if phase == "reveal" else "-", DIM)
    out.append("\n")
    if view.get("target") and any(view.get("totals", [])):
        totals = ", ".join(f"{seat_label(s, names)} {t}" for s, t in enumerate(view["totals"]))
        out.append(f"Totals: {totals}\n")
    removed = _slide_removed(view)
    blocks = [
        _slide_block(view, s, names, me, links, selected, removed.get(s, set()))
        for s in range(players)
    ]
    # the person's own grid first, then the others in seat order
    if me is not None and 0 <= me < players:
        blocks.insert(0, blocks.pop(me))
    per_row = max(1, min(players, width // BLOCK))
    for start in range(0, len(blocks), per_row):
        row = blocks[start:start + per_row]
        out.append("\n")
        for line in range(len(row[0])):
            joined = Text()
            for block in row:
                piece = block[line]
                joined.append_text(piece)
                joined.append(" " * max(1, BLOCK - piece.cell_len))
            joined.rstrip()
            out.append_text(joined)
            out.append("\n")
    if over and show_result:
        out.append("\n")
        out.append_text(result_text(view, names))
    out.rstrip()
    return out


def _slide_removed(view: dict[str, Any]) -> dict[int, set[str]]:
    """The cells each seat lost to pairs in the last deal (known only at the end)."""
    result = view.get("result")
    if not result or not result.get("deals"):
        return {}
    last = result["deals"][-1]
    return {s: set(info["removed"]) for s, info in enumerate(last["seats"])}


def _slide_block(
    view: dict[str, Any],
    seat: int,
    names: Sequence[str] | None,
    me: int | None,
    links: bool,
    selected: str | None,
    removed: set[str],
) -> list[Text]:
    phase = view["phase"]
    over = "result" in view
    title = Text(seat_label(seat, names), BOLD if seat == me else Style())
    status = Text()
    if over:
        info = view["result"]
        won = GOOD if seat in info["winners"] else Style()
        status.append(f"#{info['ranks'][seat]} · {info['scores'][seat]} pts, "
                      f"{info['remaining'][seat]} left", won)
    elif phase == "reveal":
        if view["chosen"][seat]:
            status.append("✓ chosen", GOOD)
            if seat == me and view.get("choice"):
                status.append(f" {view['choice']}")
        else:
            status.append("… choosing", DIM)
    elif view["turn"] == seat:
        status.append("▶ to take", TURN)
    if not over and view.get("first") == seat:
        status.append(" ★" if status.plain else "★", TURN)  # the first-player token
    lines = [title, status, Text("    a  b  c  d", DIM)]
    hole = view["holes"][seat]
    for r, row in enumerate(view["grids"][seat]):
        line = Text(f"{r + 1} ", DIM)
        for c, cell in enumerate(row):
            name = f"{COLUMNS[c]}{r + 1}"
            ref = f"cell {seat} {name}"
            if cell is None:  # the hole
                style = HOLE
                shown = "   "
            elif cell == "?":
                chosen = seat == me and view.get("choice") == name
                style = SELECTED if chosen else HIDDEN
                shown = "  ?"
            else:
                style = BOLD
                shown = f"{cell:>3}"
                if name in removed:
                    style = Style(strike=True, dim=True)
            if selected == ref:
                style = style + SELECTED
            line.append(shown, _link(style, ref, links and seat == me))
        if hole and hole[1] == str(r + 1):
            line.append(" ←", DIM)  # points at the hole's row
        lines.append(line)
    return lines


def slide_direction(hole: str, cell: str) -> str | None:
    """The push that a click on ``cell`` means, with the hole at ``hole`` (both like ``b3``).

    A cell left of the hole in its row means "push in from the left", and so on: the card
    enters at that end and the cells between slide toward the hole.
    """
    hc, hr = COLUMNS.index(hole[0]), int(hole[1])
    cc, cr = COLUMNS.index(cell[0]), int(cell[1])
    if cr == hr and cc != hc:
        return "left" if cc < hc else "right"
    if cc == hc and cr != hr:
        return "top" if cr < hr else "bottom"
    return None


# -- Doublets -----------------------------------------------------------------------------------


def card_text(name: str | None) -> Text:
    """A Doublets card like ``QH`` as ``Q♥`` (red for hearts and diamonds)."""
    if not name:
        return Text("  ")
    rank, suit = name[:-1], name[-1]
    red = suit in "DH"
    return Text(f"{rank}{SUIT_SYMBOLS.get(suit, suit)}", Style(color="red" if red else None))


def rank_of(value: int) -> str:
    return RANKS.get(value, str(value))


def _value(name: str) -> int:
    rank = name[:-1]
    return {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank) or int(rank)


def doublets_board(
    view: dict[str, Any], *, links: bool = False, show_result: bool = True
) -> Text:
    """Stock, waste (top and recent), the arch of reserves around F, what F needs, redeals."""
    need = view["needed"]
    over = "result" in view
    out = Text()
    out.append("Doublets", TITLE)
    out.append(f" · score {view['score']} of 48\n")
    out.append("\n")
    out.append("Stock ")
    stock = Text(f"[{view['stock']:>2} ▒]" if view["stock"] else "[ empty ]", BOLD)
    stock.stylize(_link(Style(), "stock", links))
    out.append_text(stock)
    out.append(f"  redeals left {view['redeals_left']}\n")
    out.append("Waste ")
    waste = view["waste"]
    if waste:
        if len(waste) > 6:
            out.append("… ", DIM)
        for name in waste[-6:-1]:
            piece = card_text(name)
            piece.stylize(DIM)
            out.append_text(piece)
            out.append(" ")
        top = _card_box(waste[-1], need, over)
        top.stylize(_link(Style(), "waste", links))
        out.append_text(top)
        out.append(f"  ({len(waste)} card{'s' if len(waste) != 1 else ''})", DIM)
    else:
        out.append("[ empty ]", DIM)
    out.append("\n\n")
    reserves = view["reserves"]
    foundation = view["foundation"]
    # the arch: r1 r2 r3 / r4 _ r5 / r6 F r7
    layout = (("r1", "r2", "r3"), ("r4", None, "r5"), ("r6", "F", "r7"))
    for row in layout:
        labels = Text("   ")
        cards = Text("   ")
        for slot in row:
            if slot is None:
                labels.append(" " * 8)
                cards.append(" " * 8)
                continue
            labels.append(f" {slot:<7}", DIM)
            if slot == "F":
                box = _card_box(foundation[-1], None, True)
                box.stylize(_link(GOOD, "foundation", links))
            else:
                name = reserves[int(slot[1]) - 1]
                box = _card_box(name, need, over)
                box.stylize(_link(Style(), f"reserve {slot}", links))
            cards.append_text(box)
            cards.append(" " * max(1, 8 - box.cell_len))
        labels.rstrip()
        out.append_text(labels)
        out.append("\n")
        cards.rstrip()
        out.append_text(cards)
        out.append("\n")
    out.append("\n")
    top = foundation[-1]
    count = len(foundation)
    out.append(f"F: {count} card{'s' if count != 1 else ''}, top ")
    out.append_text(card_text(top))
    if not over:
        out.append(", needs ")
        out.append(rank_of(need), GOOD)
        out.append(f" = 2×{rank_of(_value(top))} mod 13")
    out.append("\nCycle ")
    for value in DOUBLING_CYCLE:
        out.append(rank_of(value), GOOD if value == need and not over else DIM)
        out.append(" ")
    out.rstrip()
    if over and show_result:
        out.append("\n\n")
        out.append_text(result_text(view))
    return out


def _card_box(name: str | None, need: int | None, quiet: bool) -> Text:
    """``[8♥]``: green when it can go on the foundation now, red for a king (never playable)."""
    if name is None:
        return Text("[   ]", DIM)
    box = Text("[")
    box.append_text(card_text(name))
    box.append("]")
    value = _value(name)
    if not quiet and value == need:
        box.stylize(GOOD)
    elif value == 13:
        box.stylize(Style(dim=True))
    return box


# -- The Game -----------------------------------------------------------------------------------


def the_game_board(
    view: dict[str, Any],
    names: Sequence[str] | None = None,
    *,
    links: bool = False,
    selected: str | None = None,
    show_result: bool = True,
) -> Text:
    """Piles and tops, signals, my hand, the others' hand sizes, draw pile, turn and minimum."""
    me = view.get("seat")
    over = "result" in view
    out = Text()
    out.append("The Game", TITLE)
    out.append(f" · draw pile {view['draw_pile']} · cards left {view['cards_left']}\n")
    if not over and view["turn"] is not None:
        out.append("Turn: ", TURN)
        out.append(f"{seat_label(view['turn'], names)} · played {view['played_this_turn']}, "
                   f"min {view['minimum']}\n")
    out.append("\n")
    signals = view["signals"]
    for pile in PILES:
        up = pile.startswith("up")
        ref = f"pile {pile}"
        label = Text(f" {'▲' if up else '▼'} {pile:<6}", _link(Style(), ref, links))
        out.append_text(label)
        top = Text(f"[{view['piles'][pile]:>3}]", _link(BOLD, ref, links))
        if selected == ref:
            top.stylize(SELECTED)
        out.append_text(top)
        said = [
            (s, seat_signals[pile]) for s, seat_signals in enumerate(signals)
            if pile in seat_signals
        ]
        if said:
            out.append("  ")
            out.append(
                "; ".join(f"{_short(s, names)} {word}" for s, word in said),
                Style(color="magenta", bold=True),
            )
        out.append("\n")
    out.append(" ▲ higher or -10 · ▼ lower or +10 (10 back)\n", DIM)
    out.append("\n")
    hand = view.get("hand")
    if me is not None and hand is not None:
        out.append(f"Your hand (seat {me}): ", BOLD)
        if hand:
            for card in hand:
                ref = f"hand {card}"
                out.append(f"{card:>2}", _link(SELECTED if selected == ref else BOLD, ref, links))
                out.append(" ")
        else:
            out.append("empty", DIM)
        out.append("\n")
    for s, size in enumerate(view["hand_sizes"]):
        if s == me:
            continue
        marker = "▶ " if s == view.get("turn") and not over else "  "
        out.append(f"{marker}{seat_label(s, names)}: {size} card{'s' if size != 1 else ''}\n")
    if over and show_result:
        out.append("\n")
        out.append_text(result_text(view, names))
    out.rstrip()
    return out


def _short(seat: int, names: Sequence[str] | None) -> str:
    if names is not None and 0 <= seat < len(names) and names[seat] == "you":
        return "you"
    return f"s{seat}"


# -- results ------------------------------------------------------------------------------------


def result_text(view: dict[str, Any], names: Sequence[str] | None = None) -> Text:
    """The end of a game: scores and winners; The Game also its cards left and whether it won."""
    result = view.get("result")
    out = Text()
    if not result:
        return out
    game = view["game"]
    out.append("Game over. ", TITLE)
    if game == "doublets":
        score = result["scores"][0]
        if result["won"]:
            out.append("You won: all 48 cards are on the foundation!", GOOD)
        else:
            out.append(f"Score {score} of 48 cards on the foundation.")
        return out
    if game == "the-game":
        left = result["cards_left"]
        if result["won"]:
            out.append("The team won: all 98 cards are played!", GOOD)
        else:
            out.append("The team did not win. ", BAD)
            out.append(f"Cards left: {left} (played {98 - left}).")
            if result.get("good"):
                out.append(" 10 or fewer left counts as a good result.", GOOD)
        out.append(f"\nWon: {'yes' if result['won'] else 'no'} · cards left {left}")
        return out
    # Slide: lowest wins; ties on fewest cards; still tied: shared
    winners = result["winners"]
    who = ", ".join(seat_label(s, names) for s in winners)
    out.append(("Shared win: " if len(winners) > 1 else "Winner: ") + who, GOOD)
    total = " total" if view.get("target") else ""
    for s, score in enumerate(result["scores"]):
        out.append(f"\n#{result['ranks'][s]} {seat_label(s, names)}:{total} {score} "
                   f"({result['remaining'][s]} cards)")
    return out


# -- moves --------------------------------------------------------------------------------------


def move_label(view: dict[str, Any], action: str) -> str:
    """An action with a hint from the view: ``play r3 · 8♥``, ``play 34 up1 · on 30 (+4)``."""
    game = view.get("game")
    words = action.split(" ")
    if game == "doublets":
        if action == "flip":
            return f"flip · stock {view['stock']}"
        if action == "redeal":
            return f"redeal · {view['redeals_left']} left"
        if words[0] == "play" and len(words) == 2:
            if words[1] == "waste" and view["waste"]:
                return f"play waste · {card_text(view['waste'][-1]).plain}"
            if words[1].startswith("r") and words[1][1:].isdigit():
                name = view["reserves"][int(words[1][1:]) - 1]
                return f"{action} · {card_text(name).plain}" if name else action
        return action
    if game == "the-game":
        if action == "end":
            return "end the turn"
        if words[0] == "play" and len(words) == 3 and words[2] in view["piles"]:
            card, top = int(words[1]), view["piles"][words[2]]
            gap = card - top if words[2].startswith("up") else top - card
            hint = "10 back" if gap == -10 else f"+{gap}"
            return f"{action} · on {top} ({hint})"
    return action


def public_action(game: str, who: str, action: str) -> str:
    """What everyone may learn of an action: a Slide reveal keeps its cell secret."""
    if game == "slide" and action.startswith("reveal "):
        return f"{who} chose a card to reveal"
    return f"{who}: {action}"
