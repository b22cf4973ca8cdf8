"""The hall's copy of every table's record, held in memory in sequence order,
and what the tournament reads from it.

Rows arrive from the database (``hall.db``) in sequence order per table;
:meth:`Records.add` takes only the next sequence number of each table, so a
gap (an event the hall does not hold yet) stops that table's replay there
instead of being skipped: the hall never shows a state the table never had.

A game played for a round carries the round in its header
(``{"type": "game", ..., "hall": {"event": "e1", "round": 2, "table": "t3",
"teams": {"NS": "A", "EW": "B"}}}``); :meth:`Records.scores` scores each such
game under the tournament's format.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

from referee.game import Game
from referee.record import RecordError

from .matches import Format, Score, match_score


@dataclass
class GameCopy:
    number: int
    header: dict
    events: list = field(default_factory=list)      # (seq, event), header first
    game: Optional[Game] = None
    error: Optional[str] = None

    def apply(self, seq: int, event: dict) -> None:
        self.events.append((seq, event))
        if self.error:
            return
        try:
            if self.game is None:
                self.game = Game(event)
            else:
                self.game.apply(event)
        except RecordError as exc:          # said on the hall view; the copy itself stays whole
            self.error = str(exc)


@dataclass
class TableCopy:
    table: str
    seq: int = 0                            # the last contiguous seq held
    games: dict = field(default_factory=dict)

    @property
    def current(self) -> Optional[GameCopy]:
        return self.games[max(self.games)] if self.games else None


class Records:
    def __init__(self) -> None:
        self.tables: dict[str, TableCopy] = {}

    def last_seq(self, table: str) -> int:
        return self.tables[table].seq if table in self.tables else 0

    def add(self, table: str, rows: list[tuple[int, int, int, str]]) -> int:
        """Apply ``(seq, game, n, event JSON)`` rows in order; returns how many were taken."""
        copy = self.tables.setdefault(table, TableCopy(table))
        taken = 0
        for seq, game, n, text in rows:
            if seq != copy.seq + 1:
                if seq <= copy.seq:
                    continue
                break                         # a gap: wait for the missing event
            event = json.loads(text) if isinstance(text, str) else text
            if n == 1:
                copy.games[game] = GameCopy(game, event)
            if game in copy.games:
                copy.games[game].apply(seq, event)
            copy.seq = seq
            taken += 1
        return taken

    def round_games(self, event: str) -> dict[tuple[int, str], GameCopy]:
        """The game each table played for each round of ``event`` (the latest, if it started two)."""
        out = {}
        for table in self.tables.values():
            for g in table.games.values():
                tag = g.header.get("hall") or {}
                if tag.get("event") == event and isinstance(tag.get("round"), int):
                    out[(tag["round"], table.table)] = g
        return out

    def scores(self, event: str, fmt: Format, cutoffs: dict[int, dict[str, int]]) -> dict[tuple[int, str], Score]:
        """Each match's score: ``(round, table) -> Score``; ``cutoffs[round][table]`` is the
        sequence at which that round's time ran out."""
        return {key: match_score(g.events, fmt, (cutoffs.get(key[0]) or {}).get(key[1]))
                for key, g in self.round_games(event).items()}

    def export(self, table: str) -> list[dict[str, Any]]:
        copy = self.tables.get(table)
        return [e for g in (copy.games.values() if copy else ()) for _, e in g.events]
