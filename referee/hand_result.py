"""A finished hand as the score sheet shows it: :class:`HandResult`.

Apart from :mod:`referee.game`, which makes them as it replays a record,
because it is what everything downstream reads (``referee check --json``, the
score sheets, the table referee's rescoring, the dashboard): a value, not the
engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from .auction import Contract
from .seats import SEAT_NAMES, Seat
from .violations import Violation


@dataclass
class HandResult:
    """A finished hand as the score sheet shows it. Pairs are (NS, EW)."""

    number: int
    dealer: Seat
    contract: Optional[Contract]
    result: str                                  # made | failed | litige | all-pass
    score: tuple[int, int] = (0, 0)              # written on the sheet (released litige included)
    card_points: tuple[int, int] = (0, 0)        # capot bonus included
    capot: bool = False
    belote: tuple[int, int] = (0, 0)
    declarations: tuple[int, int] = (0, 0)
    tricks: tuple[int, int] = (0, 0)
    held: tuple[int, int] = (0, 0)               # litige points kept for the next hand
    violations: list[Violation] = field(default_factory=list)    # "to confirm" ones included
    penalty: Optional[Seat] = None
    trick_plays: tuple = ()                      # (winner, the record events of its plays) per trick

    @property
    def confirmed(self) -> list[Violation]:
        """The hand's violations, those still to confirm left out (not yet violations)."""
        return [v for v in self.violations if not v.to_confirm]

    def as_dict(self) -> dict[str, Any]:
        """DESIGN's per-hand object of ``check --json``; ``to_confirm`` (only when there are
        some) lists the violations that rest on one read of one sensor."""
        out = {"number": self.number, "dealer": SEAT_NAMES[self.dealer],
               "contract": self.contract.as_dict() if self.contract else None,
               "card_points": teams(self.card_points), "score": teams(self.score),
               "result": self.result, "capot": self.capot,
               "violations": [v.as_dict() for v in self.confirmed]}
        pending = [v.as_dict() for v in self.violations if v.to_confirm]
        if pending:
            out["to_confirm"] = pending
        return out

    def details(self) -> dict[str, Any]:
        """Everything a score sheet shows, beyond DESIGN's object."""
        out = self.as_dict()
        out.update(belote=teams(self.belote), declarations=teams(self.declarations),
                   tricks=teams(self.tricks), held=teams(self.held),
                   penalty=SEAT_NAMES[self.penalty] if self.penalty is not None else None)
        return out


def teams(pair: tuple[int, int]) -> dict[str, int]:
    """A pair of figures (NS, EW) as the record writes them."""
    return {"NS": pair[0], "EW": pair[1]}
