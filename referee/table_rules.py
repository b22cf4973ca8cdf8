"""The table's own violations: misdeals and wrong pickups, found in the events the referee writes.

Why apart from the rules engine: a misdeal and a pickup are what the table's
sensors saw (the cards arriving in the hands, a trick going to a pile), not
the cards played, so the engine (:class:`referee.game.Game`) does not judge
them; they are fields of the record's events (a ``misdeal`` on the
correction that voids a deal, ``misdeals`` on a redeal's ``deal``, a
``pickup`` on a trick's last play), so that a replayed or imported record
gives them back.

A wrong pickup rests on its trick's winner, and that on the cards recorded:
when a play of the trick was read once by one sensor, a misread of it may
have made another seat the winner (game 300994: W's ♦10, read by the camera
alone as the ♥10, made W the winner of a trick that S won, and NS were
accused of taking EW's trick). So it does on the trick's cards being there
at the pickup: on a table with RFID, a play whose card no antenna read going
with the trick may have been shown and taken back, its return unread (game
3100367). Such a wrong pickup is *to confirm*: its
``to_confirm`` names those plays, which are asked about
(:mod:`referee.to_confirm`). Every correction, of the hand being played or
of the one just over, checks the pickups again: one the trick's new
winner's side made is withdrawn, one the corrected winner makes is
reported, one whose plays were confirmed stands.

Part of the table referee (:mod:`referee.table_referee`); it proposes the
way every part does (:mod:`referee.proposals`).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from .doubt import Doubt
from .game import Game
from .proposals import Flag, Notice, Proposal
from .seats import SEAT_NAMES, TEAM_NAMES, Seat, parse_seat, team_of
from .to_confirm import ToConfirm
from .violations import Violation


class TableRules:
    """The misdeals and wrong pickups found so far, as ``(hand, violation)``."""

    def __init__(self, game: Game, confirming: ToConfirm, doubt: Doubt,
                 standing: Callable[[int, list[Violation]], list[Violation]],
                 note_unseen_going: Callable[[int, int], None]):
        self.game = game                      # read only: the referee writes
        self.note_unseen_going = note_unseen_going   # (hand, play n): to confirm, if no antenna read it go
        self.confirming = confirming
        self.doubt = doubt
        self.standing = standing              # the violations of a hand reported so far (the doubt asks)
        self.found: list[tuple[int, Violation]] = []

    def report(self, hand: int, v: Violation) -> Iterator[Proposal]:
        """``v`` (of ``hand``) was found: to confirm, put to the console (a hand in doubt), or reported."""
        self.found.append((hand, v))
        if v.to_confirm:
            self.confirming.rests_on(v)           # asked about once the observation is done
        elif self.doubt.holds(hand, v):
            yield from self.doubt.ask(hand, v, self.standing(hand, [v]))
        else:
            yield Flag(v, hand=hand)

    def redealt(self, hand: int, data: dict[str, Any]) -> None:
        """A redeal's ``deal`` event names a misdeal, reported when it happened."""
        self.found.append((hand, misdeal(data)))

    def check_pickups(self, hand: int) -> Iterator[Proposal]:
        """Check every pickup of ``hand`` against its trick's winner as the record has it now."""
        standing = {v.trick: (h, v) for h, v in self.found if h == hand and v.rule == "wrong-pickup"}
        for trick, (winner, refs) in enumerate(self.game.tricks_of(hand), 1):
            pickup = next((e["pickup"] for e in map(self.game.current, refs) if e and e.get("pickup")), None)
            old = standing.get(trick)
            if pickup is None or pickup["pile"] == TEAM_NAMES[team_of(winner)]:
                if old is not None:
                    self.found.remove(old)
                    yield Notice(f"trick {trick} went to the pile of its winner's side after all: no wrong pickup")
                continue
            for n in refs:
                self.note_unseen_going(hand, n)
            new = wrong_pickup(trick, pickup, winner, tuple(n for n in refs if self._in_doubt(n)))
            if old is None:
                yield from self.report(hand, new)
            elif old[1] != new:
                self.found[self.found.index(old)] = (hand, new)
                if new.to_confirm:
                    self.confirming.rests_on(new)
                elif old[1].to_confirm:           # its plays are confirmed: now it is one
                    self.found.remove((hand, new))
                    yield from self.report(hand, new)

    def _in_doubt(self, n: int) -> bool:
        """Does a wrong pickup resting on play ``n`` have to wait: the play rests on one read, or no
        antenna has read its card going with the trick yet (noted by ``note_unseen_going``)?"""
        if self.game.read_once(n):
            return True
        one = self.confirming.plays.get(n)
        return one is not None and one.going


def wrong_pickup(trick: int, pickup: dict[str, Any], winner: Seat, to_confirm: tuple[int, ...] = ()) -> Violation:
    """Trick ``trick`` went to ``pickup``'s pile, not that of ``winner``'s side (``to_confirm``: the
    plays of the trick read once by one sensor)."""
    pile = pickup["pile"]
    return Violation("wrong-pickup", TEAM_NAMES.index(pile),
                     f"trick {trick} went to {pile}'s pile, but {SEAT_NAMES[winner]} ({TEAM_NAMES[team_of(winner)]}) "
                     f"won it", trick=trick, evidence=tuple(pickup.get("evidence", ())),
                     params=(("pile", pile), ("winner", SEAT_NAMES[winner])), to_confirm=to_confirm)


def misdeal(data: dict[str, Any]) -> Violation:
    """The misdeal a ``misdeal`` (or ``misdeals``) field of the record names."""
    return Violation("misdeal", parse_seat(data["seat"]), data["message"], evidence=tuple(data.get("evidence", ())),
                     params=tuple(data.get("params", {}).items()))
