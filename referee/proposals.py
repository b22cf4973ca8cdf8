"""What the table referee's parts propose, and the one way they propose it.

Why proposals: the table referee (:mod:`referee.table_referee`) is made of
parts (the deal watcher, the play watcher, the console desk), and only the
referee writes: the game record, the conflicts and the outputs the screens
get. A part never appends to any of them. Each of its methods that may
change the game is a *generator of proposals*: it yields each thing it wants
written, in order, and the referee writes it and sends back what it became,
before the part goes on:

- :class:`Write`: a game event for the record; the reply is its number ``n``
  in the record (or None when the event was refused and ``refused_as`` says
  whose rejection that is);
- :class:`Ask`: a :class:`Conflict` for the console; the reply is the same
  conflict, now numbered and filed;
- :class:`Press`: a question that waited for a sensor must now be answered (blocking);
- :class:`Settle`: an answer to an open conflict;
- :class:`Notice`: a sentence for the screens (a card shown and taken back);
- :class:`Flag`: a violation found before its deal is in the record (a
  misdeal, named on the redeal's ``deal`` event);
- :class:`Redeal`: the deal is void; every part forgets the hand's cards.

So a part's bookkeeping after a write happens only once the write is done,
and when the record refuses an event (a :class:`~referee.record.RecordError`)
the part's method simply stops there, as an exception would have stopped it.
A method that most often finds nothing to propose (a reading that decides
nothing) may return None instead of a generator: the referee reads that as
"nothing", without the cost of running a generator for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Optional

from .cards import Card, card_name
from .seats import SEAT_NAMES, Seat
from .violations import Violation


@dataclass
class Conflict:
    """An open question for the console (never an accusation).

    A part proposes it with ``id`` 0 (and ``hand`` None for the hand being
    played); the referee numbers it when it files it."""

    kind: str
    message: str
    hand: Optional[int] = None
    trick: Optional[int] = None
    seat: Optional[Seat] = None
    proposal: Optional[Card] = None          # the card (or None) a confirm would keep
    alternative: Optional[Card] = None       # what dismiss gives, for card conflicts
    ref: Optional[int] = None                # the record event concerned, once written
    rule: Optional[str] = None               # the violation an ``in-doubt`` question is about
    blocking: bool = False
    waiting: bool = False                    # the referee still waits for a sensor to settle it
    evidence: tuple = ()
    status: str = "open"                     # open | confirmed | dismissed | resolved
    item: Any = None                         # what the part that asked needs to act on the answer
    id: int = 0

    def as_dict(self) -> dict[str, Any]:
        choices = {"card-unknown": ["resolve"], "turned": ["resolve"], "deal": ["confirm", "dismiss"], "gathered": ["confirm", "dismiss"],
                   "call-order": ["confirm", "dismiss"], "in-doubt": ["confirm", "dismiss"]}.get(self.kind, ["confirm", "dismiss", "resolve"])
        out = {"id": self.id, "kind": self.kind, "message": self.message, "hand": self.hand,
               "status": self.status, "blocking": self.blocking, "choices": choices,
               "evidence": list(self.evidence)}
        if self.waiting:
            out["waiting"] = True
        if self.trick is not None:
            out["trick"] = self.trick
        if self.seat is not None:
            out["seat"] = SEAT_NAMES[self.seat]
        if self.proposal is not None:
            out["proposal"] = card_name(self.proposal)
        if self.alternative is not None:
            out["alternative"] = card_name(self.alternative)
        if self.ref is not None:
            out["ref"] = self.ref
        if self.rule is not None:
            out["rule"] = self.rule
        return out


@dataclass(frozen=True)
class Write:
    """A game event for the record. ``refused_as``: the observation whose rejection a refused
    event is (the part then goes on, told None); without it a refusal stops the observation."""

    event: dict[str, Any]
    refused_as: Optional[int] = None


@dataclass(frozen=True)
class Ask:
    """A conflict for the console."""

    conflict: Conflict


@dataclass(frozen=True)
class Settle:
    """The console's answer to ``conflict``: its new ``status``, and ``how`` it was answered."""

    conflict: Conflict
    status: str
    how: str


@dataclass(frozen=True)
class Press:
    """A question that waited for a sensor can wait no longer: the console must answer it
    (it becomes blocking)."""

    conflict: Conflict


@dataclass(frozen=True)
class Notice:
    """A sentence for the screens."""

    message: str


@dataclass(frozen=True)
class Flag:
    """A violation reported now: of the hand being dealt (recorded with the redeal), or of
    ``hand``, an earlier one the console has just confirmed."""

    violation: Violation
    hand: Optional[int] = None


@dataclass(frozen=True)
class Redeal:
    """The deal is void: every part forgets the hand's cards (the same dealer deals again)."""


@dataclass(frozen=True)
class Impossible:
    """The hand's record proved impossible (``why``): it is in doubt (:mod:`referee.doubt`)."""

    why: str


Proposal = Write | Ask | Press | Settle | Notice | Flag | Redeal | Impossible


def correction(ref: int, replace: Optional[dict[str, Any]], reason: str, why: dict[str, Any]) -> dict[str, Any]:
    """The record's correction of event ``ref``: replaced by ``replace``, or undone (None)."""
    return {"type": "correction", "ref": ref, "reason": reason, "replace": replace, **why}


def one(proposal: "Proposal") -> Iterator["Proposal"]:
    """One proposal, as a step of its own (the referee sends the answer back into it)."""
    yield proposal


def chain(*parts: Optional[Iterator["Proposal"]]) -> Iterator["Proposal"]:
    """The proposals of several steps, in turn (a step may have none: None)."""
    for part in parts:
        if part is not None:
            yield from part
