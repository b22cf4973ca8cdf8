"""The organiser's desk on the hall's database: load the tournament, apply
one action (``hall.tournament.apply_action``), save it with its audit line
(who, when, what, why) in one transaction. Two desks acting at once: the
second is told to reload (the document carries a version)."""

from __future__ import annotations

import time
from typing import Any, Callable, Optional

from .db import HallDB
from .matches import Format
from .tournament import DeskError, Tournament, apply_action


class Desk:
    def __init__(self, db: HallDB, event: str, scores: Callable[[Tournament], dict] = lambda t: {},
                 clock: Callable[[], float] = time.time):
        self.db, self.event, self.scores, self.clock = db, event, scores, clock

    def load(self) -> tuple[Tournament, int]:
        doc, version = self.db.load_tournament(self.event)
        return (Tournament.from_dict(doc) if doc else Tournament(self.event)), version

    def create(self, who: str, name: str = "", rules: str = "ffb-contree", fmt: Optional[Format] = None,
               method: str = "match-points", tiebreaks: tuple = ("opponents", "difference", "head-to-head"),
               first_round: str = "random", tables: tuple = ()) -> Tournament:
        t, version = self.load()
        if version:
            return t
        t = Tournament(self.event, name or self.event, rules, fmt or Format(), method, tiebreaks,
                       first_round=first_round)
        for table in tables:
            t.registry.add_table(table)
        self.db.save_tournament(self.event, t.to_dict(), 0, who, "create", None, t.to_dict())
        return t

    def act(self, action: str, args: dict[str, Any], who: str, reason: Optional[str] = None) -> Tournament:
        t, version = self.load()
        if not version:
            raise DeskError(f"no event {self.event!r}: create it first")
        apply_action(t, action, args, who, self.clock(), self.scores(t))
        self.db.save_tournament(self.event, t.to_dict(), version, who, action, reason or args.get("reason"), args)
        return t

    def add_table(self, table: str, who: str) -> None:
        t, version = self.load()
        if version and table not in t.registry.tables:
            t.registry.add_table(table)
            self.db.save_tournament(self.event, t.to_dict(), version, who, "add-table", None, {"table": table})
