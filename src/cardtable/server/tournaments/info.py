"""What the API and the tournament's page show of a tournament, built from its rows.

Entrants are shown by name, never by player id (a player id is half a credential's worth of
identity: table infos do not show them either); "you" marks the viewer's own line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from cardtable import games
from cardtable.server.storage.tournaments import (
    EntrantRow,
    RoundRow,
    RoundTableRow,
    TournamentRow,
    ends_at,
)
from cardtable.server.tables.live import iso
from cardtable.server.tournaments.runner import core_rounds, entries_of
from cardtable.tournaments import (
    Entry,
    Round,
    Standing,
    arena_standings,
    on_streak,
    rank_entries,
    standings,
)


def _number(points: Fraction) -> float:
    return round(float(points), 3)


def summary(row: TournamentRow, entrants: int) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "game": row.game,
        "title": games.get(row.game).title,
        "format": row.format,
        "status": row.status,
        "ended": row.ended,
        "starts_at": iso(row.starts_at),
        "rounds": row.rounds,
        "round": row.round,
        "ends_at": iso(ends_at(row)) if row.minutes else None,
        "entrants": entrants,
        "invite_only": row.invite is not None,
        "daily": row.daily,
    }


def challenge_lines(
    row: TournamentRow,
    entrants: Sequence[EntrantRow],
    tables: Sequence[RoundTableRow],
    name: Callable[[str], str],
    bot_accounts: set[str],
    viewer: str | None,
    days_in_a_row: Mapping[str, int],
) -> list[dict[str, Any]]:
    """A duplicate challenge's standings: one line per entry (before its start: per
    entrant), ranked by the games' own scores over the deals, ties by time; a deal of the
    day's entrant with the days in a row they played it."""
    teams = entries_of(tables) or {(e.player_id,): [] for e in entrants if not e.withdrawn_at}
    deals = row.deals or 1
    listed = []
    for team, mine in teams.items():
        scores = [t.score if t.ranks is not None else None for t in mine]
        scores += [None] * (deals - len(scores))
        seconds = sum(t.seconds or 0.0 for t in mine if t.ranks is not None)
        listed.append(Entry("|".join(team), tuple(scores), seconds))
    lines = []
    for place, entry in rank_entries(listed, games.get(row.game).better):
        members = entry.id.split("|")
        lines.append(
            {
                "place": place,
                "name": " & ".join(name(p) for p in members),
                "you": viewer in members,
                "bot_account": any(p in bot_accounts for p in members),
                "withdrawn": False,
                "points": float(entry.total),
                "buchholz": 0.0,
                "wins": 0,
                "games": entry.finished,
                "byes": 0,
                "by_round": [None if s is None else float(s) for s in entry.scores],
                "on_streak": False,
                "deals_done": entry.finished,
                "days_in_a_row": days_in_a_row.get(members[0]) if row.daily else None,
            }
        )
    return lines


def ranked_lines(
    row: TournamentRow,
    entrants: Sequence[EntrantRow],
    played: list[Round],
    name: Callable[[str], str],
    bot_accounts: set[str],
    viewer: str | None,
) -> list[dict[str, Any]]:
    """A Swiss tournament's or an arena's standings, one line per entrant."""
    withdrawn = {e.player_id for e in entrants if e.withdrawn_at is not None}
    return [
        {
            "place": s.place,
            "name": name(s.entrant),
            "you": s.entrant == viewer,
            "bot_account": s.entrant in bot_accounts,
            "withdrawn": s.entrant in withdrawn,
            "points": _number(s.points),
            "buchholz": _number(s.buchholz),
            "wins": s.wins,
            "games": s.games,
            "byes": s.byes,
            "by_round": [None if p is None else _number(p) for p in s.by_round],
            "on_streak": bool(row.streaks) and on_streak(s.entrant, played),
        }
        for s in ranked(row, [e.player_id for e in entrants], played)
    ]


def ranked(row: TournamentRow, entrants: list[str], played: list[Round]) -> list[Standing]:
    """The standings as the tournament's format ranks them."""
    if row.format == "arena":
        return arena_standings(entrants, played, bool(row.streaks))
    return standings(entrants, played)


def tournament_info(
    row: TournamentRow,
    entrants: Sequence[EntrantRow],
    rounds: Sequence[RoundRow],
    tables: Sequence[RoundTableRow],
    names: Mapping[str, str],
    bot_accounts: set[str],
    statuses: Mapping[str, str],
    viewer: str | None,
    days_in_a_row: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """The tournament as ``viewer`` (a player id, or None) sees it; ``statuses``: each
    round table's table status (a table not created yet is ``waiting``); a deal of the
    day's ``days_in_a_row`` per entrant."""
    active = [e for e in entrants if e.withdrawn_at is None]

    def name(player_id: str) -> str:
        return names.get(player_id, "?")  # (every entrant has a row)

    if row.format == "duplicate":
        lines = challenge_lines(
            row, entrants, tables, name, bot_accounts, viewer, days_in_a_row or {}
        )
    else:
        lines = ranked_lines(row, entrants, core_rounds(rounds, tables), name, bot_accounts, viewer)
    # a challenge's entries play their deals each at its own pace: any deal of theirs
    current = tables if row.format == "duplicate" else [t for t in tables if t.round == row.round]
    mine = [
        t.table_id
        for t in current
        if viewer in t.players and t.ranks is None and statuses.get(t.table_id) != "over"
    ]
    return {
        **summary(row, len(active)),
        "version": row.version,
        "finished_at": iso(row.finished_at) if row.finished_at else None,
        "table_size": row.table_size,
        "clock": {"mode": row.clock["mode"], "seconds": row.clock["seconds"]}
        if row.clock
        else None,
        "options": dict(row.options or {}),
        "rated": row.rated,
        "min_games": row.min_games,
        "bots": row.bots,
        "minutes": row.minutes,
        "deals": row.deals,
        "streaks": row.streaks,
        "creator": viewer is not None and row.created_by == viewer,
        "invite": row.invite if viewer is not None and row.created_by == viewer else None,
        "entered": viewer is not None and any(e.player_id == viewer for e in active),
        "next_table": mine[0] if mine else None,
        "standings": lines,
        "round_list": [
            {
                "number": r.round,
                "started_at": iso(r.started_at),
                "byes": [name(b) for b in r.byes],
                "tables": [
                    {
                        "table_id": t.table_id,
                        "players": [name(p) for p in t.players],
                        "places": list(t.ranks) if t.ranks is not None else None,
                        "score": t.score,
                        "status": statuses.get(t.table_id, "waiting"),
                    }
                    for t in tables
                    if t.round == r.round
                ],
            }
            for r in rounds
        ],
    }
