"""Doublets in the terminal: stock, waste, the arch of reserves around F, and its keys.

Card references (the argument of a click): ``stock``, ``waste``, ``foundation`` and
``reserve rN``. Keys: 1-7 play a reserve, w the waste, f flips (or redeals).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from cardtable.core.protocol import View
from cardtable.core.words import translatable
from cardtable.tui.boards import BOLD, DIM, GOOD, TITLE, link
from cardtable.tui.games.base import LIST_KEYS, GameBoard, GameKey, Play

_, _n = translatable("tui")

DOUBLING_CYCLE = (1, 2, 4, 8, 3, 6, 12, 11, 9, 5, 10, 7)
RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RESERVES = 7


def card_text(name: str | None) -> Text:
    """A card like ``QH`` as ``Q♥`` (red for hearts and diamonds)."""
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


def flip(play: Play) -> None:
    """The stock: a flip, or once it is empty a redeal."""
    play.try_act("redeal" if "redeal" in play.legal() else "flip")


def play_reserve(n: int) -> GameKey:
    return GameKey(
        str(n),
        _("Play {reserve}", reserve="r" + str(n)),
        lambda play: play.try_act(f"play r{n}"),
        show=False,
    )


class DoubletsBoard(GameBoard):
    example = "play r3"
    keys = (
        GameKey("f", _("Flip/redeal"), flip),
        GameKey("w", _("Play waste"), lambda play: play.try_act("play waste")),
        *(play_reserve(n) for n in range(1, RESERVES + 1)),
    )
    peek_words = _("Peeking at the stock")

    def render(
        self,
        view: View,
        names: Sequence[str] | None = None,
        *,
        width: int = 80,
        links: bool = False,
        selected: str | None = None,
        show_result: bool = True,
    ) -> Text:
        """Stock, waste (top and recent), the arch of reserves around F, what F needs,
        redeals."""
        read = self.read
        need = view["needed"]
        over = "result" in view
        # TRANSLATORS: an empty stock, waste, centre or hand
        empty = "[ " + read(_("empty")) + " ]"
        out = Text()
        out.append(read(self.rules.title), TITLE)
        score = _("score {score} of {total}", score=view["score"], total=48)
        out.append(f" · {read(score)}\n")
        out.append("\n")
        out.append(read(_("Stock")) + " ")
        stock = Text(f"[{view['stock']:>2} ▒]" if view["stock"] else empty, BOLD)
        stock.stylize(link(Style(), "stock", links))
        out.append_text(stock)
        redeals = _("redeals left {n}", n=view["redeals_left"])
        out.append(f"  {read(redeals)}\n")
        out.append(read(_("Waste")) + " ")
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
            top.stylize(link(Style(), "waste", links))
            out.append_text(top)
            many = _n("{n} card", "{n} cards", len(waste))
            out.append(f"  ({read(many)})", DIM)
        else:
            out.append(empty, DIM)
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
                    box.stylize(link(GOOD, "foundation", links))
                else:
                    name = reserves[int(slot[1]) - 1]
                    box = _card_box(name, need, over)
                    box.stylize(link(Style(), f"reserve {slot}", links))
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
        out.append(read(_n("F: {n} card, top", "F: {n} cards, top", count)) + " ")
        out.append_text(card_text(top))
        if not over:
            # TRANSLATORS: "F: 1 card, top Q♦, needs J = 2×Q mod 13": the next card to play
            out.append(", " + read(_("needs")) + " ")
            out.append(rank_of(need), GOOD)
            out.append(f" = 2×{rank_of(_value(top))} mod 13")
        # TRANSLATORS: the doubling cycle of ranks the foundation follows: A 2 4 8 3 6 Q J …
        out.append("\n" + read(_("Cycle")) + " ")
        for value in DOUBLING_CYCLE:
            out.append(rank_of(value), GOOD if value == need and not over else DIM)
            out.append(" ")
        out.rstrip()
        if over and show_result:
            out.append("\n\n")
            out.append_text(self.result_text(view, names))
        return out

    def status(
        self, view: View, viewer: int | None, acting: tuple[int, ...], names: Sequence[str]
    ) -> Text:
        text = Text(
            self.read(
                _(
                    "Needs {rank}: a green card fits. Keys: 1-7 reserves, w waste, f flip, "
                    "u undo; or {keys}.",
                    rank=rank_of(view["needed"]),
                    keys=LIST_KEYS,
                )
            )
            + " "
        )
        text.append_text(super().status(view, viewer, acting, names))
        return text

    def click(self, play: Play, ref: str) -> None:
        words = ref.split(" ")
        if words[0] == "stock":
            flip(play)
        elif words[0] == "waste":
            play.try_act("play waste")
        elif words[0] == "reserve":
            play.try_act(f"play {words[1]}")
        else:
            need = rank_of(play.current_view()["needed"])
            play.say(_("The foundation needs a {rank}.", rank=need))


ADAPTER = DoubletsBoard
