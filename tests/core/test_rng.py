"""Deals must not change across machines or Python releases: the shuffle is pinned."""

from cardtable.core.rng import deal_key, random_words, shuffled


def test_random_words_are_pinned():
    # SHAKE-256 of a fixed key is a fixed standard: these values never change
    assert random_words("cardtable/test", 2) == PINNED_WORDS


def test_shuffle_is_pinned_and_a_permutation():
    order = shuffled(list(range(20)), "cardtable/test")
    assert order == PINNED_ORDER
    assert sorted(order) == list(range(20))


def test_shuffle_depends_on_the_key():
    assert shuffled(list(range(20)), "a") != shuffled(list(range(20)), "b")


def test_deal_key_names_game_seed_and_parts():
    assert deal_key("slide", 7) == "cardtable/slide/7"
    assert deal_key("slide", 7, 2) == "cardtable/slide/7/2"


PINNED_WORDS = (5874800852367553838, 18052764714875075577)
PINNED_ORDER = [11, 5, 2, 3, 0, 10, 8, 9, 13, 14, 17, 7, 16, 19, 18, 6, 4, 12, 15, 1]
