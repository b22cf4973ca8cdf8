"""The console desk: what the human referee enters, checked and carried out.

Part of the table referee (:mod:`referee.table_referee`), which writes what it
proposes (:mod:`referee.proposals`). Each console action is one observation
(so it is stored and replayed like a sensor's): ``start`` (who deals),
``call``, ``declare``, ``belote``, ``penalty``, ``tally`` (a hand's result
without its cards), ``turned`` (classic belote's turned card, when the
dealing area did not read it), ``replace`` (a misread play), ``undo``,
``redeal``, and the answers to conflicts: ``confirm``, ``dismiss``,
``resolve``. An answer is carried out by the part that asked the question:
the deal watcher for its kinds (:data:`referee.deal_watch.KINDS`), the play
watcher for the others.

Calls, declarations, penalties and tallies wait in a queue until the deal is
in the record and no blocking conflict or trick awaiting its pickup is in
the way, so that the record keeps the table's order.
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

from .auction import CallError, parse_call
from .cards import card_name
from .deal_watch import KINDS as DEAL_KINDS, DealWatch
from .game import Game
from .observations import ConsoleAction
from .play_watch import PlayWatch
from .proposals import Conflict, Proposal, Write, correction
from .record import RecordError
from .seats import SEAT_NAMES


class Desk:
    """The console's actions, and the events waiting for the deal."""

    def __init__(self, game: Game, conflicts: list[Conflict], deal: DealWatch, play: PlayWatch,
                 blocking: set[int]):
        self.game = game                      # read only: the referee writes
        self.conflicts = conflicts            # read only: the referee files them
        self.deal = deal
        self.play = play
        self.blocking = blocking              # the open blocking conflicts' ids (read only)
        self.queue: list[dict[str, Any]] = []

    def check(self, a: ConsoleAction) -> Optional[str]:
        """Why ``a`` cannot be acted on, or None (pure: changes nothing)."""
        if a.action in ("start", "call", "belote", "declare", "penalty") and a.seat is None:
            return f"console {a.action}: say which seat (N, E, S or W)"
        if a.action == "call" and not a.call:
            return "console call: give the call (pass, 80h, counter...)"
        if a.action == "call":
            try:
                parse_call(a.call)        # a word that is no call is refused before anything is written
            except CallError as exc:
                return f"console call: {exc}"
        if a.action in ("confirm", "dismiss", "resolve"):
            if a.ref is None or not 1 <= a.ref <= len(self.conflicts):
                return f"console {a.action}: conflict {a.ref} does not exist"
            if self.conflicts[a.ref - 1].status != "open":
                return f"console {a.action}: conflict {a.ref} is already {self.conflicts[a.ref - 1].status}"
        if a.action in ("resolve", "replace", "turned") and len(a.cards) != 1:
            return f"console {a.action}: give the one card that was really played"
        if a.action == "replace":
            if a.ref is None or not 2 <= a.ref <= len(self.game.events) or \
                    self.game.events[a.ref - 1]["type"] != "play":
                return f"console replace: event {a.ref} is not a play of this game"
        if a.action == "undo" and len(self.game.events) < 2:
            return "console undo: there is no game event to undo"
        return None

    def act(self, a: ConsoleAction, oid: int) -> Iterator[Proposal]:
        """Carry out a checked console action (observation ``oid``)."""
        why = {"by": a.by} if a.by else {}
        if a.reason:
            why["reason_text"] = a.reason
        if a.action == "start":
            self.deal.dealer = a.seat
        elif a.action == "call":
            yield from self.deal.close(a.t)
            self.queue.append({"type": "call", "seat": SEAT_NAMES[a.seat], "call": a.call, "obs": oid})
        elif a.action == "declare":
            self.queue.append({"type": "declare", "seat": SEAT_NAMES[a.seat],
                               "cards": [card_name(c) for c in a.cards], "obs": oid})
        elif a.action == "belote":
            yield from self.play.belote(a.seat, a.t)
        elif a.action == "turned":
            self.deal.turned_at_console(a.cards[0], oid)
        elif a.action in ("confirm", "dismiss", "resolve"):
            c = self.conflicts[a.ref - 1]
            card = a.cards[0] if a.cards else None
            if c.kind in DEAL_KINDS:
                yield from self.deal.answer(c, a.action, card)
            else:
                yield from self.play.answer(c, a.action, card, why)
        elif a.action == "replace":
            yield from self.play.name_card(a.ref, a.cards[0], why)
        elif a.action == "undo":
            events = self.game.events
            undone = {e["ref"] for e in events if e["type"] == "correction" and e.get("replace") is None}
            ref = next((n for n in range(len(events), 1, -1)
                        if events[n - 1]["type"] != "correction" and n not in undone), None)
            if ref is None:
                raise RecordError("console undo: every game event is already undone")
            yield Write(correction(ref, None, a.reason or "undo", why))
        elif a.action == "penalty":
            # DESIGN's penalty shape: ``reason`` is the sheet's text (the console's, else the rule).
            self.queue.append({"type": "penalty", "seat": SEAT_NAMES[a.seat], "rule": a.rule or "",
                               "reason": a.reason or a.rule or "penalty", "obs": oid,
                               **({"by": a.by} if a.by else {})})
        elif a.action == "tally":
            # Only the tally's own fields go into the record (the engine checks them).
            fields = {k: a.result[k] for k in ("card_points", "belote", "capot") if k in a.result}
            self.queue.append({"type": "tally", **fields, "obs": oid})
        elif a.action == "redeal":
            yield from self.deal.misdeal(f"the referee called a redeal{': ' + a.reason if a.reason else ''}",
                                         (oid,), "redeal")

    def flush(self) -> Iterator[Proposal]:
        """Write the console's calls, declarations and penalties that waited for the deal."""
        while self.queue and not self.blocking and self.deal.mode != "deal" and self.play.trick_done is None:
            event = self.queue.pop(0)
            if event["type"] == "call" and self.deal.mode == "idle":
                yield from self.deal.write(None, ())
                if self.deal.mode == "turned":        # the turned card is asked first
                    self.queue.insert(0, event)
                    return
            if (yield Write(event, refused_as=event["obs"])) is None:
                continue
            if event["type"] == "call" and self.game.phase == "play":
                self.deal.auction_over()
