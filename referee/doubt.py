"""Hands whose record proved impossible: no accusation stands in them without the console.

Why: the table referee records what its sensors saw, and where they saw
nothing (a card no antenna read, a pickup nobody saw) it infers: whose card,
in which trick, in which order. When that inference goes wrong the record of
the hand turns impossible, and the first sign is a card played twice
(``already-played``: a physical card cannot be). Every accusation of that
hand may then rest on the wrong inference (the same card counted in two
tricks makes a revoke, a trick given to the wrong winner makes the next
cards "out of turn"), so none stands on the referee's word alone:

- the card played twice is never an accusation: it is what puts the hand in
  doubt;
- nor is a belote said with a card that does not make one, in any hand: the
  console enters the word, and which card it went with the referee inferred
  from when it was said (it is asked about, like the violations of a hand in
  doubt);
- each violation of the hand standing so far is put to the console
  (``in-doubt``: confirm, it stands; dismiss, it is withdrawn), and so is
  each one found later in the hand, before anyone is accused;
- the violations of a hand in doubt are not violations (for the score sheet,
  ``referee check`` or anyone) until the console confirms them.

The question does not hold the record (it is not *blocking*): it asks whether
a violation stands, not which card was played or in what order, so nothing
the table records next depends on the answer, and a live table must not stop
while the referee walks over. Until the console answers, the violation is no
accusation (it is on no screen as one); the answer, whenever it comes, adds it
(confirm) or withdraws what was shown of it (dismiss).

A misdeal (the deal's own evidence) and the auction's violations (the
console's own entries) are not in doubt: only what rests on the plays is.

Part of the table referee (:mod:`referee.table_referee`); it proposes the way
every part does (:mod:`referee.proposals`).
"""

from __future__ import annotations

from typing import Iterator

from .proposals import Ask, Conflict, Flag, Notice, Proposal, Settle
from .seats import SEAT_NAMES
from .violations import Violation

#: A violation's identity across the replays of the record: (hand, rule, seat, trick, card).
Key = tuple


#: Violations that rest on the referee's inference wherever they are found, never on a sensor's read
#: alone: a card played twice (a physical card cannot be: the record is wrong, and the hand is in
#: doubt), and a belote said with a card that does not make one (the console enters the word "belote";
#: which card it went with, the referee inferred from when it was said).
INFERRED = ("already-played", "belote-not-held")


def key(hand: int, v: Violation) -> Key:
    return hand, v.rule, v.seat, v.trick, v.card


def on_plays(v: Violation) -> bool:
    """Does ``v`` rest on the recorded plays (not on the deal, nor on the console's calls)?"""
    return v.rule != "misdeal" and (v.trick is not None or v.rule.startswith("belote"))


class Doubt:
    """The hands in doubt, the console's verdicts on their violations, and the questions open."""

    def __init__(self) -> None:
        self.why: dict[int, str] = {}             # hand -> what made its record impossible
        self.verdicts: dict[Key, str] = {}        # violation -> "confirmed" | "dismissed"
        self.asked: set[Key] = set()
        self.shown: set[Key] = set()              # reported as violations before the hand was in doubt
        self.withdrawn: list[tuple[int, Violation]] = []   # ... that the console then dismissed

    def stands(self, hand: int, v: Violation) -> bool:
        """Is ``v`` (of ``hand``) a violation: its hand is not in doubt, or the console confirmed it?"""
        if not on_plays(v):
            return True
        if v.rule in INFERRED or hand in self.why:
            return self.verdicts.get(key(hand, v)) == "confirmed"
        return True

    def dismissed(self, hand: int, v: Violation) -> bool:
        """Did the console dismiss ``v`` (of ``hand``), asked about it in a hand in doubt? A wrong pickup
        found again on the corrected record is the same violation: withdrawn, not to confirm."""
        return self.verdicts.get(key(hand, v)) == "dismissed"

    def holds(self, hand: int, v: Violation) -> bool:
        """Must ``v``, just found, wait for the console instead of being reported?"""
        return on_plays(v) and (v.rule in INFERRED or hand in self.why)

    def ask(self, hand: int, v: Violation, standing: list[Violation]) -> Iterator[Proposal]:
        """``v`` was found in ``hand`` and must wait (:meth:`holds`): put the hand in doubt if it
        is not (asking about the violations standing in it), then ask about ``v``."""
        if hand not in self.why and v.rule == "already-played":
            self.why[hand] = v.message
            for s in standing:
                if on_plays(s) and s.rule != "already-played":
                    self.shown.add(key(hand, s))
                    yield from self._ask(hand, s)
        yield from self._ask(hand, v)

    def impossible(self, hand: int, why: str, standing: list[Violation]) -> Iterator[Proposal]:
        """``hand``'s record proved impossible without a card played twice in it: the console named,
        for a card on the table, a card recorded as another play of the hand (the play watcher asks
        which card that other play was). The violations standing in it are put to the console, as
        a card played twice would have them (game 301028 before round 9: an out-of-turn written on the sensors'
        times, the card it jumped being the next trick's: its seat's real card went unseen)."""
        if hand in self.why:
            return
        self.why[hand] = why
        for s in standing:
            if on_plays(s) and s.rule != "already-played":
                self.shown.add(key(hand, s))
                yield from self._ask(hand, s)

    def _ask(self, hand: int, v: Violation) -> Iterator[Proposal]:
        k = key(hand, v)
        if k in self.asked or k in self.verdicts:
            return
        self.asked.add(k)
        where = f" at trick {v.trick}" if v.trick is not None else ""
        why = f"hand {hand}'s record is in doubt ({self.why[hand]})" if hand in self.why else \
            "which card the belote was said with is the referee's inference"
        yield Ask(Conflict("in-doubt", f"{why}: the record says {SEAT_NAMES[v.seat]}{where}: {v.message}. "
                           f"Confirm if it is a violation; dismiss if it is not", hand=hand, trick=v.trick, seat=v.seat, proposal=v.card,
                           rule=v.rule, blocking=False, evidence=tuple(v.evidence), item=(k, v)))

    def answer(self, c: Conflict, action: str) -> Iterator[Proposal]:
        """The console's verdict on a violation of a hand in doubt."""
        k, v = c.item
        verdict = "confirmed" if action == "confirm" else "dismissed"
        self.verdicts[k] = verdict
        yield Settle(c, verdict, action)
        if verdict == "confirmed":
            if k not in self.shown:
                yield Flag(v, hand=k[0])
        elif k in self.shown:
            self.withdrawn.append((k[0], v))
            yield Notice(f"withdrawn: {v.message} (hand {k[0]}'s record was in doubt; the console dismissed it)")

