"""The Game's expert and team bots: legal, view-only, cooperative through signals, and strong."""

from __future__ import annotations

import random

import pytest

from cardtable import games
from cardtable.bots import make_bot
from cardtable.bots.the_game.expert import ExpertBot
from cardtable.core.errors import BadOptions
from cardtable.sim import play_one

RULES = games.get("the-game")


def _play_checked(players: int, seed: int, bot: str) -> list:
    """Play a game asking each bot in turn, checking every answer is legal."""
    state = RULES.deal(seed, players)
    seat_bots = [make_bot(bot, "the-game", seed * 16 + s) for s in range(players)]
    talk = RULES.is_talk
    while not state.over:
        seat = state.to_act()[0]
        legal = state.legal(seat)
        action = seat_bots[seat].choose(state.view(seat), legal)
        assert action in legal
        state.act(seat, action)
        for other, b in enumerate(seat_bots):
            if other == seat or state.over or not hasattr(b, "react"):
                continue
            options = [a for a in state.legal(other) if talk(a)]
            said = b.react(state.view(other), options)
            assert said is None or said in options
            if said:
                state.act(other, said)
    return state.actions


@pytest.mark.parametrize("bot", ["expert", "team"])
@pytest.mark.parametrize("players", [1, 2, 3, 5])
def test_bots_choose_only_legal_actions(bot, players):
    for seed in (1, 2):
        _play_checked(players, seed, bot)


def test_expert_never_signals():
    actions = _play_checked(3, 4, "expert")
    assert not any(a.startswith("signal") for _, a in actions)


@pytest.mark.parametrize("bot", ["expert", "team"])
def test_bots_decide_from_views_alone(bot):
    # Two bots fed the same views answer the same; the bot never sees the state, so a state
    # with a different deck behind the same views cannot change what it does.
    state = RULES.deal(7, 3)
    twin_a = make_bot(bot, "the-game", 5)
    twin_b = make_bot(bot, "the-game", 99)  # its seed must not matter either
    others = [make_bot(bot, "the-game", s) for s in range(3)]
    while not state.over:
        seat = state.to_act()[0]
        view, legal = state.view(seat), state.legal(seat)
        if seat == 0:
            a = twin_a.choose(view, legal)
            assert twin_b.choose(view, legal) == a
        else:
            a = others[seat].choose(view, legal)
            for bot_ in (twin_a, twin_b):
                if hasattr(bot_, "react"):
                    opts = [x for x in state.legal(0) if RULES.is_talk(x)]
                    assert bot_.react(state.view(0), opts) == bot_.react(state.view(0), opts)
        state.act(seat, a)


def test_views_never_leak_the_deck():
    # the decision inputs are the view's fields; a deep copy changes nothing
    import copy

    state = RULES.deal(11, 2)
    bot = make_bot("expert", "the-game", 1)
    view = state.view(0)
    assert bot.choose(copy.deepcopy(view), state.legal(0)) == make_bot(
        "expert", "the-game", 1
    ).choose(view, state.legal(0))


def _table(piles: dict[str, int], hand: list[int], signals: list[dict], draw: int = 40) -> dict:
    return {
        "game": "the-game",
        "seat": 0,
        "players": 2,
        "to_act": [0],
        "piles": piles,
        "hand": hand,
        "hand_sizes": [len(hand), 7],
        "draw_pile": draw,
        "turn": 0,
        "played_this_turn": 0,
        "minimum": 2,
        "signals": signals,
        "cards_left": 60,
        "over": False,
    }


def _legal(view: dict) -> list[str]:
    from cardtable.games.the_game import PILES, fits

    out = [
        f"play {c} {p}"
        for c in view["hand"]
        for i, p in enumerate(PILES)
        if fits(c, i, view["piles"][p])
    ]
    return out + [f"signal {p} {s}" for p in PILES for s in ("avoid", "small", "good")]


def test_team_bot_keeps_off_a_pile_a_partner_asked_to_avoid():
    # up1 and up2 both at 30, 31 and 32 in hand: without talk either up pile is as good.
    piles = {"up1": 30, "up2": 30, "down1": 100, "down2": 100}
    hand = [31, 32, 47, 58, 66, 75, 89]
    for marked in ("up1", "up2"):
        bot = make_bot("team", "the-game", 1)
        view = _table(piles, hand, [{}, {marked: "avoid"}])
        plays = []
        for _ in range(2):
            action = bot.choose(view, _legal(view))
            assert action.startswith("play")
            _, card, pile = action.split()
            plays.append(pile)
            view = dict(
                view,
                piles=dict(view["piles"], **{pile: int(card)}),
                hand=[c for c in view["hand"] if c != int(card)],
                played_this_turn=view["played_this_turn"] + 1,
            )
        assert marked not in plays


def test_team_bot_signals_a_backwards_trick_and_clears_it():
    bot = make_bot("team", "the-game", 1)
    piles = {"up1": 40, "up2": 10, "down1": 95, "down2": 95}
    view = _table(piles, [30, 60, 62, 64, 66, 68, 70], [{}, {}])
    view["seat"], view["to_act"], view["turn"] = 0, [1], 1
    said = bot.react(view, _legal(view) + ["signal up1 clear"])
    assert said == "signal up1 avoid"
    view["signals"] = [{"up1": "avoid"}, {}]
    view["piles"] = dict(piles, up1=45)  # a partner played over it anyway: the need is gone
    legal = [a for a in _legal(view) if a != "signal up1 avoid"] + ["signal up1 clear"]
    assert bot.react(view, legal) == "signal up1 clear"


def test_team_bot_reacts_with_legal_signals_in_a_whole_game():
    state = RULES.deal(3, 4)
    seat_bots = [make_bot("team", "the-game", s) for s in range(4)]
    play_one(state, seat_bots)
    assert any(a.startswith("signal") for _, a in state.actions)


def test_expert_beats_greedy_on_a_small_run():
    def wins(bot: str) -> int:
        won = 0
        for seed in range(1, 41):
            state = RULES.deal(seed, 3)
            if bot == "greedy":
                state.playout(["greedy"] * 3, random.Random(seed))
            else:
                play_one(state, [make_bot(bot, "the-game", seed * 16 + s) for s in range(3)])
            won += state.result()["won"]
        return won

    assert wins("expert") > wins("greedy") + 5


def _calls(monkeypatch, name: str = "sampled_choice") -> list:
    """Count the calls of a search the expert imports by name: the sampled endgame's
    decisions, or the searches of the last draws (``winnable_after``)."""
    import cardtable.bots.the_game.expert as expert

    calls: list = []
    real = getattr(expert, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(expert, name, counted)
    return calls


@pytest.mark.parametrize("bot", ["expert", "team"])
def test_sampled_endgame_is_reproducible_and_legal(bot, monkeypatch):
    # Four players: the draw pile runs out while several seats hold cards, so the sampled
    # endgame decides; the same seeds play the same game twice, every action legal.
    calls = _calls(monkeypatch)
    first = _play_checked(4, 3, bot)
    assert calls, "the sampled endgame never ran"
    assert _play_checked(4, 3, bot) == first


def _play_redealing(
    state, bots: list, rng: random.Random, calls: list, redeal, limit: int = 1 << 30
) -> int:
    """Play a whole game; at each decision where ``redeal(state, seat)`` holds, redeal the
    cards hidden from the seat (same sizes) and check that a copy of its bot, shown the
    other state's view, answers the same (at most ``limit`` times). Returns how many of
    those decisions ran the counted search and had hidden cards to move."""
    import copy

    compared = 0
    while not state.over:
        seat = state.to_act()[0]
        legal = state.legal(seat)
        if compared < limit and redeal(state, seat):
            other = state.redraw_hidden(seat, rng)
            twin = copy.deepcopy(bots[seat])
            before = len(calls)
            a = bots[seat].choose(state.view(seat), legal)
            assert twin.choose(other.view(seat), other.legal(seat)) == a
            moved = other.hands != state.hands or other.draw != state.draw
            compared += len(calls) > before and moved
        else:
            a = bots[seat].choose(state.view(seat), legal)
        assert a in legal
        state.act(seat, a)
        for s, b in enumerate(bots):
            if s != seat and not state.over:
                said = b.react(state.view(s), [x for x in state.legal(s) if RULES.is_talk(x)])
                if said:
                    state.act(s, said)
    return compared


@pytest.mark.parametrize("bot", ["expert", "team"])
def test_sampled_endgame_ignores_who_really_holds_the_unseen_cards(bot, monkeypatch):
    # At a turn of the sampled endgame, the other seats' hands are redealt among them (same
    # sizes): the view is the same, and so is the choice of a bot with the same history.
    calls = _calls(monkeypatch)
    compared = 0
    for seed in range(1, 6):
        state = RULES.deal(seed, 4)
        bots = [make_bot(bot, "the-game", seed * 16 + s) for s in range(4)]

        def endgame(state, seat):
            holders = [s for s in range(4) if s != seat and state.hands[s]]
            return not state.draw and len(holders) >= 2

        compared += _play_redealing(state, bots, random.Random(seed), calls, endgame, 40 - compared)
    assert compared >= 5


@pytest.mark.parametrize("bot", ["expert", "team"])
def test_settings_follow_the_player_count_and_given_ones_win(bot):
    # The bot takes the settings of the table's player count at its first move; a setting
    # given to the bot itself wins over them.
    from cardtable.bots.the_game.expert import ExpertBot
    from cardtable.bots.the_game.team import TeamBot

    cls = ExpertBot if bot == "expert" else TeamBot
    for players in (1, 2, 3):
        state = RULES.deal(3, players)
        plain, given = cls("the-game", 1), cls("the-game", 1, params={"extra": 0.25})
        for b in (plain, given):
            b.choose(state.view(0), state.legal(0))
        expected = {**cls.defaults, **cls.by_players.get(players, {})}
        assert plain.params == expected
        assert given.params == {**expected, "extra": 0.25}
    assert cls.by_players[1]["extra"] != cls.defaults["extra"]  # alone is tuned apart


@pytest.mark.parametrize("bot", ["expert", "team"])
@pytest.mark.parametrize("players", [1, 2])
def test_last_draws_search_decides_from_the_view_alone(bot, players, monkeypatch):
    # In the last draws the bot searches sampled deals of the cards it has not seen. Redeal
    # the hidden cards (the other hands and the draw order, same sizes): the view is the
    # same, and so is the choice of a bot with the same history; every action is legal.
    import cardtable.bots.the_game.expert as expert
    from cardtable.bots.the_game.team import TeamBot

    calls = _calls(monkeypatch, "winnable_after")
    cls = expert.ExpertBot if bot == "expert" else TeamBot
    compared = 0
    for seed in range(1, 5):
        state = RULES.deal(seed, players)
        bots = [cls("the-game", seed * 16 + s, params={"draw_search": 10}) for s in range(players)]
        compared += _play_redealing(
            state, bots, random.Random(seed), calls, lambda state, seat: 0 < len(state.draw) <= 10
        )
    assert compared >= 10


def test_a_level_is_refused_under_the_bots_own_name():
    for name in ("expert", "team"):
        with pytest.raises(BadOptions, match=f"the {name} bot's levels are quick, not 'hard'"):
            make_bot(f"{name}:hard", "the-game")


def test_the_quick_level_leaves_out_the_sampled_searches():
    bot = make_bot("expert:quick", "the-game")
    assert isinstance(bot, ExpertBot)
    bot.tune_for(3)
    assert bot.params["samples"] == 0 and bot.params["draw_search"] == 0
    # a setting given to the bot still wins over its level
    assert ExpertBot("the-game", level="quick", params={"samples": 3}).given["samples"] == 3
