"""Words for people (``core/words.py``): a ``Text`` is its English, and carries its message
id, domain and arguments to whoever puts it into another language."""

from __future__ import annotations

import pickle

from hypothesis import given
from hypothesis import strategies as st

from cardtable.core.words import PLACEHOLDER, Text, fill, translatable, unwire, wire

_, _n = translatable("slide")


def test_a_text_is_its_english_and_knows_its_source():
    text = _("{who} revealed a {card} from {cell}", who="Ann", card=7, cell="b2")
    assert text == "Ann revealed a 7 from b2"
    assert isinstance(text, str)
    assert (text.domain, text.msgid) == ("slide", "{who} revealed a {card} from {cell}")
    assert text.args == {"who": "Ann", "card": 7, "cell": "b2"}


def test_a_count_reads_in_the_english_form_of_its_number():
    assert _n("{n} card", "{n} cards", 1) == "1 card"
    assert _n("{n} card", "{n} cards", 5) == "5 cards"
    assert _n("{n} card left", "{n} cards left", 0) == "0 cards left"


def test_words_travel_as_a_message_id_with_arguments_and_come_back():
    pile = _("the rising pile {p}", p=2)
    text = _n(
        "{who} played {n} card on {pile}",
        "{who} played {n} cards on {pile}",
        3,
        who="Bob",
        pile=pile,
    )
    data = wire(text)
    assert data == {
        "msg": "{who} played {n} card on {pile}",
        "domain": "slide",
        "args": {
            "n": 3,
            "who": "Bob",
            "pile": {"msg": "the rising pile {p}", "domain": "slide", "args": {"p": 2}},
        },
        "plural": "{who} played {n} cards on {pile}",
        "n": 3,
    }
    back = unwire(data)
    assert back == text == "Bob played 3 cards on the rising pile 2"
    assert isinstance(back, Text) and back.args["pile"].msgid == "the rising pile {p}"
    assert wire("plain") == "plain" and unwire(7) == 7


def test_a_copy_through_pickle_keeps_the_source():
    text = pickle.loads(pickle.dumps(_("{who} passed", who="Ann")))
    assert isinstance(text, Text) and text.msgid == "{who} passed" and text == "Ann passed"


def test_a_missing_argument_shows_its_placeholder():
    assert fill("{who} took {card}", {"who": "Ann"}, str) == "Ann took {card}"


def _fill_by_pattern(template: str, args: dict[str, object]) -> str:
    """What ``fill`` does, as its definition says: every placeholder by the pattern."""
    return PLACEHOLDER.sub(
        lambda m: str(args[m.group(1)]) if m.group(1) in args else m.group(0), template
    )


@given(
    st.text(alphabet="{}ab_1 ·:", max_size=24),
    st.dictionaries(st.sampled_from(["a", "b", "a_1", "ab"]), st.integers(), max_size=3),
)
def test_fill_replaces_exactly_what_the_placeholder_pattern_finds(template, args):
    # (fill splits a template once and fills its slots from the cache after)
    assert fill(template, args, str) == _fill_by_pattern(template, args)
    assert fill(template, args, str) == _fill_by_pattern(template, args)  # parsed, again


def test_a_text_is_wired_once_and_its_words_stay_its_own():
    text = _("{who} took {card}", who="Ann", card=7)
    assert wire(text) is wire(text)
    assert wire(text) == {
        "msg": "{who} took {card}",
        "domain": "slide",
        "args": {"who": "Ann", "card": 7},
    }
