"""External bots: real programs speaking JSON lines play whole games, and every way a program
can fail ends in a ``BotError`` naming it and its answer, with the process gone afterwards."""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import time
from pathlib import Path

import pytest

from cardtable import games
from cardtable.bots import make_bot
from cardtable.bots.external import MAX_LINE, MAX_TALK, STDERR_KEEP, ExternalBot, check_command
from cardtable.core.errors import BadOptions, BotError
from cardtable.sim import play_one

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bots" / "random_bot.py"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
#: one table size per game; the external bot takes the last seat
TABLES = [("slide", 3), ("doublets", 1), ("the-game", 3)]
#: generous for whole games on a loaded machine; the timeout tests use short limits
SLOW_OK = 20.0

pytestmark = pytest.mark.skipif(os.name != "posix", reason="process checks use /proc and POSIX")


def command(script: Path | str, *args: str) -> str:
    """A cmd: command running ``script`` with this Python, quoted for shlex."""
    return shlex.join([sys.executable, str(script), *args])


def fixture(name: str, *args: str) -> str:
    return command(FIXTURES / name, *args)


def python_c(code: str) -> str:
    return shlex.join([sys.executable, "-c", code])


def assert_gone(bot: ExternalBot) -> None:
    """The program has exited and was reaped: no zombie left behind."""
    assert bot.proc.returncode is not None
    assert not Path(f"/proc/{bot.proc.pid}").exists()  # a zombie still has its /proc entry
    with pytest.raises(ChildProcessError):
        os.waitpid(bot.proc.pid, os.WNOHANG)


def first_decision(game: str = "slide", players: int = 2) -> tuple[dict, list[str]]:
    state = games.get(game).deal(5, players)
    seat = state.to_act()[0]
    return state.view(seat), state.legal(seat)


def table(game: str, players: int, bot: ExternalBot) -> list:
    return [make_bot("greedy", game) for _ in range(players - 1)] + [bot]


# -- whole games ---------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_the_example_bot_plays_a_whole_game(game, players):
    state = games.get(game).deal(11, players)
    # without a pool: the example says newgame, so a pool would keep it for the next game
    bot = make_bot(
        "cmd:" + command(EXAMPLE, "7"), game, seat=players - 1, timeout=SLOW_OK, pool=None
    )
    play_one(state, table(game, players, bot))
    assert state.over
    assert any(seat == players - 1 for seat, _ in state.actions)
    assert bot.about == {"name": "random_bot", "version": "2", "newgame": True}
    assert_gone(bot)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_the_program_gets_hello_every_event_every_decision_and_the_result(game, players, tmp_path):
    log = tmp_path / "received.jsonl"
    bot = ExternalBot(
        fixture("log_bot.py", str(log)),
        game,
        timeout=SLOW_OK,
        seed=99,
        bot_options={"level": "hard"},
    )  # seat and players from the first view
    state = games.get(game).deal(3, players)
    play_one(state, table(game, players, bot))
    assert_gone(bot)
    hello, *messages, over = [json.loads(line) for line in log.read_text().splitlines()]
    me = players - 1
    assert hello == {
        "type": "hello",
        "protocol": 2,
        "game": game,
        "seat": me,
        "players": players,
        "options": {},
        "time_limit": SLOW_OK,
        "seed": 99,
        "bot_options": {"level": "hard"},
    }
    assert over == {"type": "over", "result": json.loads(json.dumps(state.result()))}
    acts = [m for m in messages if m["type"] == "act"]
    events = [m for m in messages if m["type"] == "event"]
    assert len(acts) + len(events) == len(messages)
    mine = [action for seat, action in state.actions if seat == me]
    assert len(acts) == len(mine) > 0
    for message, action in zip(acts, mine, strict=True):
        assert set(message) == {"type", "game", "seat", "view", "legal", "time_left"}
        assert message["game"] == game
        assert message["seat"] == message["view"]["seat"] == me
        assert message["time_left"] == SLOW_OK
        assert action in message["legal"]
    # one event per action at the table, in order: its own in full, another's as public
    rules = games.get(game)
    assert [(e["seat"], e["action"]) for e in events] == [
        (seat, action if seat == me else rules.public_action(action))
        for seat, action in state.actions
    ]
    replay = rules.deal(3, players)
    for event, (seat, action) in zip(events, state.actions, strict=True):
        replay.act(seat, action)
        assert event["view"] == json.loads(json.dumps(replay.view(me)))


def test_the_docs_show_the_example_bot_as_it_is():
    code = EXAMPLE.read_text().split('"""\n\n', 1)[1]  # without its docstring
    assert code.strip() in (ROOT / "docs" / "bot-protocol.md").read_text()


def test_make_bot_passes_seat_and_time_limit():
    bot = make_bot("cmd:" + command(EXAMPLE), "slide", 4, seat=1, timeout=2.5)
    try:
        assert isinstance(bot, ExternalBot)
        assert (bot.name, bot.seat, bot.timeout) == ("cmd:" + command(EXAMPLE), 1, 2.5)
    finally:
        bot.close()
    assert_gone(bot)


# -- bad answers ---------------------------------------------------------------------------

BAD = [
    (fixture("nonsense_bot.py"), "not JSON", "I'll take the seven, thanks"),
    (
        fixture("illegal_bot.py"),
        r"'take 11 left' is not legal here; legal: reveal a1, reveal b1, .*, \.\.\.",
        '{"action": "take 11 left"}',
    ),
    (
        fixture("answer_bot.py", '{"move": "reveal a1"}'),
        "no 'action' field",
        '{"move": "reveal a1"}',
    ),
    (fixture("answer_bot.py", '["reveal a1"]'), "not a JSON object", '["reveal a1"]'),
    (
        fixture("answer_bot.py", '{"action": 7}'),
        "the 'action' is not a text but 7",
        '{"action": 7}',
    ),
    (
        fixture("answer_bot.py", '{"action": null}'),
        "the 'action' is not a text but null",
        '{"action": null}',
    ),
    (fixture("answer_bot.py", ""), "not JSON", ""),
    (
        fixture("crash_bot.py"),
        r"the program exited with code 1: .*RuntimeError: crashed on purpose",
        None,
    ),
    (
        python_c("import sys; sys.stdin.readline(); sys.exit(3)"),
        "the program exited with code 3$",
        None,
    ),
]


@pytest.mark.parametrize(
    ("cmd", "reason", "answer"),
    BAD,
    ids=["nonsense", "illegal", "no-action", "list", "number", "null", "empty", "crash", "exit-3"],
)
def test_a_bad_answer_is_a_bot_error_naming_the_bot_and_its_answer(cmd, reason, answer):
    view, legal = first_decision()
    with ExternalBot(cmd, "slide", timeout=SLOW_OK) as bot, pytest.raises(BotError) as caught:
        bot.choose(view, legal)
    error = caught.value
    assert error.bot == f"cmd:{cmd}"
    assert error.answer == answer
    assert error.code == "bot_error"
    assert re.search(reason, error.bot_reason, re.S), error.bot_reason
    assert str(error).startswith(f"bot cmd:{cmd} failed: ")
    assert ("nothing" if answer is None else repr(answer)) in str(error)
    assert_gone(bot)


def test_a_bad_bot_ends_the_game_in_play_one_and_is_closed():
    state = games.get("slide").deal(2, 3)
    bot = ExternalBot(fixture("illegal_bot.py"), "slide", timeout=SLOW_OK)
    with pytest.raises(BotError, match="'take 11 left' is not legal here"):
        play_one(state, table("slide", 3, bot))
    assert not state.over
    assert_gone(bot)


def test_the_illegal_message_lists_only_the_first_few_legal_actions():
    view, legal = first_decision()
    assert len(legal) > 8
    with ExternalBot(fixture("illegal_bot.py"), "slide") as bot, pytest.raises(BotError) as e:
        bot.choose(view, legal)
    assert e.value.bot_reason.endswith(", ".join(legal[:8]) + ", ...")


def test_an_overlong_line_is_an_error():
    view, legal = first_decision()
    bot = ExternalBot(fixture("long_line_bot.py"), "slide", timeout=SLOW_OK)
    with bot, pytest.raises(BotError, match=f"longer than {MAX_LINE} characters") as e:
        bot.choose(view, legal)
    assert e.value.answer == "x" * 200
    assert_gone(bot)


def test_a_line_nobody_asked_for_is_an_error():
    state = games.get("doublets").deal(1)
    two = '{"action": "flip"}\n{"action": "flip"}'
    with ExternalBot(fixture("answer_bot.py", two), "doublets", timeout=SLOW_OK) as bot:
        assert bot.choose(state.view(0), state.legal(0)) == "flip"
        state.act(0, "flip")
        time.sleep(0.3)  # let the second line arrive
        with pytest.raises(BotError, match="before it was asked") as e:
            bot.choose(state.view(0), state.legal(0))
    assert e.value.answer == '{"action": "flip"}'


def test_stderr_is_kept_bounded_and_its_tail_explains_a_crash():
    code = (
        "import sys; sys.stdin.readline(); sys.stderr.write('noise ' * 50000);"
        " sys.exit('the real reason')"
    )
    view, legal = first_decision()
    with ExternalBot(python_c(code), "slide", timeout=SLOW_OK) as bot:
        with pytest.raises(BotError) as e:
            bot.choose(view, legal)
        assert len(bot.stderr_tail()) <= STDERR_KEEP
    assert e.value.bot_reason.endswith("noise the real reason")


def test_a_program_killed_by_a_signal_says_so():
    code = "import os, signal, sys; sys.stdin.readline(); os.kill(os.getpid(), signal.SIGKILL)"
    view, legal = first_decision()
    bot = ExternalBot(python_c(code), "slide", timeout=SLOW_OK)
    with bot, pytest.raises(BotError, match="the program was killed by SIGKILL"):
        bot.choose(view, legal)
    assert_gone(bot)


def test_a_program_that_exits_before_it_is_asked():
    view, legal = first_decision()
    with ExternalBot(python_c("print('bye', file=__import__('sys').stderr)"), "slide") as bot:
        bot.proc.wait(timeout=SLOW_OK)
        with pytest.raises(BotError, match="exited with code 0: bye"):
            bot.choose(view, legal)
        bot.finish({"over": True})  # a dead pipe is no error at the end


def test_signals_are_fine_but_a_program_that_only_talks_is_stopped():
    code = (
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    if json.loads(line)['type'] != 'act': continue\n"
        "    legal = json.loads(line)['legal']\n"
        "    print(json.dumps({'action': [a for a in legal if a.startswith('signal')][0]}),"
        " flush=True)"
    )
    state = games.get("the-game").deal(4, 2)
    with ExternalBot(python_c(code), "the-game", timeout=SLOW_OK) as bot:
        for _ in range(MAX_TALK):
            action = bot.choose(state.view(0), state.legal(0))
            assert action.startswith("signal ")
            state.act(0, action)
        with pytest.raises(BotError, match=f"{MAX_TALK} signals in a row without a move"):
            bot.choose(state.view(0), state.legal(0))


# -- time limits and closing ---------------------------------------------------------------


@pytest.mark.perf
def test_a_late_answer_is_an_error_and_it_is_fast():
    view, legal = first_decision()
    start = time.monotonic()
    bot = ExternalBot(fixture("slow_bot.py"), "slide", timeout=0.5)
    with pytest.raises(BotError, match=r"no answer within 0\.5 s") as e:
        bot.choose(view, legal)
    asked = time.monotonic() - start
    bot.close()
    assert e.value.answer is None
    assert 0.5 <= asked < 3.0
    assert time.monotonic() - start < 5.0  # SIGTERM stops the sleeper at once
    assert_gone(bot)


def test_a_program_ignoring_sigterm_is_killed():
    view, legal = first_decision()
    bot = ExternalBot(fixture("stubborn_bot.py"), "slide", timeout=0.5)
    with pytest.raises(BotError, match="no answer within"):
        bot.choose(view, legal)
    start = time.monotonic()
    bot.close()
    assert time.monotonic() - start < 5.0
    assert bot.proc.returncode == -9
    assert_gone(bot)


def test_close_stops_a_wrapper_and_what_it_started():
    # sh starts python as its child; closing the bot must not leave the child running
    inner = shlex.join([sys.executable, str(FIXTURES / "stubborn_bot.py")])
    bot = ExternalBot(shlex.join(["sh", "-c", f"{inner}; echo never"]), "slide", timeout=0.5)
    view, legal = first_decision()
    with pytest.raises(BotError, match="no answer within"):
        bot.choose(view, legal)
    bot.close()
    assert_gone(bot)
    # a process killed a moment ago still shows until the kernel has run its exit, which
    # can take a while on a busy machine: it must be gone soon, not at this very instant
    deadline = time.monotonic() + 5.0
    while (alive := group_members(bot.proc.pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive, f"processes {alive} of the bot's group live"


def group_members(group: int) -> list[str]:
    """The processes of a process group that are not zombies (an orphan's zombie is init's
    to reap, not ours)."""
    members = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[2]) == group:
            members.append(proc.name)
    return members


def test_close_is_idempotent_and_choose_after_close_is_an_error():
    view, legal = first_decision()
    bot = ExternalBot(command(EXAMPLE), "slide", pool=None)
    assert bot.choose(view, legal) in legal
    bot.close()
    bot.close()
    assert_gone(bot)
    bot.finish({"over": True})
    with pytest.raises(BotError, match="closed"):
        bot.choose(view, legal)


# -- bad commands --------------------------------------------------------------------------


def test_a_program_that_cannot_start():
    with pytest.raises(BotError, match="could not be started") as e:
        ExternalBot("/no/such/bot --fast", "slide")
    assert e.value.bot == "cmd:/no/such/bot --fast"


def test_check_command_refuses_a_missing_program_before_a_run():
    assert check_command(command(EXAMPLE)) == [sys.executable, str(EXAMPLE)]
    with pytest.raises(BadOptions, match="no program 'no-such-bot-program'"):
        check_command("no-such-bot-program --fast")
    assert check_command("no-such-bot-program", find=False) == ["no-such-bot-program"]


@pytest.mark.parametrize(
    ("cmd", "timeout", "match"),
    [
        ("", 5.0, "needs a command"),
        ("   ", 5.0, "needs a command"),
        ("python 'bot.py", 5.0, "cannot read the bot command"),
        ("python bot.py", 0, "above 0"),
        ("python bot.py", -1.0, "above 0"),
        ("python bot.py", True, "above 0"),
        ("python bot.py", "5", "above 0"),
    ],
)
def test_bad_commands_and_limits(cmd, timeout, match):
    with pytest.raises(BadOptions, match=match):
        ExternalBot(cmd, "slide", timeout=timeout)


# -- protocol 2: hello, newgame, bot options -------------------------------------------------


def pids_and_types(log: Path) -> list[tuple[int, str]]:
    return [
        (int(pid), kind) for pid, kind in (line.split() for line in log.read_text().splitlines())
    ]


def simulate(game: str, players: int, specs: list[str], count: int, bot_key: int = 7) -> list:
    from cardtable.sim import make_tasks, run_tasks

    return list(
        run_tasks(
            make_tasks(
                game, players, specs, count, seed=1, fast=False, timeout=SLOW_OK, bot_key=bot_key
            )
        )
    )


def test_a_program_that_says_newgame_plays_every_game_in_one_process_per_seat(tmp_path):
    log = tmp_path / "pids.log"
    spec = "cmd:" + fixture("pid_bot.py", str(log), "newgame")
    outcomes = simulate("slide", 2, [spec], 12)
    assert all(o.error is None for o in outcomes)
    from cardtable.bots.external import POOL

    POOL.close()  # the kept programs read to the end of their input and exit
    seen = pids_and_types(log)
    assert len({pid for pid, _ in seen}) == 2  # two seats, twelve games
    for pid in {pid for pid, _ in seen}:
        kinds = [kind for p, kind in seen if p == pid]
        # every game opens with hello (a kept program hears newgame first) and ends with over
        assert kinds.count("hello") == kinds.count("over") == 12
        assert kinds.count("newgame") == 11
        assert kinds[0] == "hello"
        assert all(kinds[i + 1] == "hello" for i, k in enumerate(kinds) if k == "newgame")


def test_a_protocol_1_program_is_started_for_every_game(tmp_path):
    log = tmp_path / "pids.log"
    outcomes = simulate("doublets", 1, ["cmd:" + fixture("pid_bot.py", str(log))], 4)
    assert all(o.error is None for o in outcomes)
    assert len({pid for pid, _ in pids_and_types(log)}) == 4


def test_a_program_that_failed_is_not_kept(tmp_path):
    from cardtable.bots.external import POOL

    log = tmp_path / "pids.log"
    command = fixture("pid_bot.py", str(log), "newgame")
    state = games.get("doublets").deal(1)
    bot = ExternalBot(command, "doublets", seat=0, players=1, timeout=SLOW_OK)
    bot.choose(state.view(0), state.legal(0))
    with pytest.raises(BotError):  # the table asks it something that has no legal answer
        bot._check('{"action": "nonsense"}', ["flip"])
    bot.close()
    assert_gone(bot)
    started = POOL.started
    again = ExternalBot(command, "doublets", seat=0, players=1, timeout=SLOW_OK)
    try:
        assert not again.reused and POOL.started == started + 1
    finally:
        again.close()


def test_bot_options_reach_the_program_and_unknown_ones_are_refused(tmp_path):
    from cardtable.bots.external import parse_spec

    command = fixture("pid_bot.py", str(tmp_path / "pids.log"), "newgame")
    assert parse_spec(f"cmd(level=hard depth=3):{command}") == (
        command,
        {"level": "hard", "depth": "3"},
    )
    assert parse_spec(f"cmd:{command}") == (command, {})
    for bad in ("cmd(level):x", "cmd(level=a level=b):x", "cmd(=3):x", "cmd(a=(b)):x"):
        with pytest.raises(BadOptions):
            parse_spec(bad)
    state = games.get("doublets").deal(1)
    good = make_bot(f"cmd(level=hard):{command}", "doublets", seat=0, players=1, timeout=SLOW_OK)
    with good:
        assert good.choose(state.view(0), state.legal(0)) in state.legal(0)
        assert good.about == {"name": "pid bot", "version": "1", "newgame": True}
    bad = make_bot(f"cmd(depth=3):{command}", "doublets", seat=0, players=1, timeout=SLOW_OK)
    with bad, pytest.raises(BotError, match=r"has no option depth \(it offers: level\)"):
        bad.choose(state.view(0), state.legal(0))


@pytest.mark.parametrize(
    ("game", "players", "bot"),
    [("the-game", 3, "expert"), ("doublets", 1, "fair"), ("slide", 2, "search:easy")],
)
def test_a_built_in_bot_run_as_a_program_plays_exactly_as_itself(game, players, bot):
    """``cardtable bot run BOT`` gets the bot's seed in hello and the other seats' actions as
    events, so over the same seeds it makes the same moves as the built-in bot."""
    program = "cmd:" + shlex.join([sys.executable, "-m", "cardtable", "bot", "run", bot])
    inside = simulate(game, players, [bot], 6)
    outside = simulate(game, players, [program] + [bot] * (players - 1), 6)
    assert [o.error for o in outside] == [None] * 6
    assert [(o.scores, o.moves) for o in outside] == [(o.scores, o.moves) for o in inside]
