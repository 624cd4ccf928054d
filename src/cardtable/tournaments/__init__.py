"""Tournaments' rules: who sits with whom, what a place is worth, how the standings rank.

Pure, like the games: no I/O, no clock, no random state. An entrant is an opaque id; a table
of a round is the ids seated at it and, once it is over, their places. ``points`` turns places
into points; ``standings`` ranks entrants over the rounds played (points, then the tie-breaks);
``swiss`` pairs a Swiss round (tables by points, no rematch while one can be avoided, a bye to
the lowest when the count does not divide); ``arena`` seats whoever is free at once, near in
score; ``duplicate`` ranks entries that all played the same deals by the games' own scores.

Below the server that runs tournaments (it imports this; this imports only ``core``).
``docs/tournaments.md`` is the players' account of the same rules.
"""

from cardtable.tournaments.arena import arena_points, arena_standings, on_streak, seat_waiting
from cardtable.tournaments.duplicate import Entry, rank_entries
from cardtable.tournaments.points import BYE_POINTS, absent_last, place_points
from cardtable.tournaments.standings import Round, Standing, Table, standings
from cardtable.tournaments.swiss import Pairing, pair_round, table_sizes

__all__ = [
    "BYE_POINTS",
    "Entry",
    "Pairing",
    "Round",
    "Standing",
    "Table",
    "absent_last",
    "arena_points",
    "arena_standings",
    "on_streak",
    "pair_round",
    "place_points",
    "rank_entries",
    "seat_waiting",
    "standings",
    "table_sizes",
]
