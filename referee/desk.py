"""The console desk: what the human referee enters, checked and carried out.

Part of the table referee (:mod:`referee.table_referee`), which writes what it
proposes (:mod:`referee.proposals`). Each console action is one observation
(so it is stored and replayed like a sensor's): ``start`` (who deals),
``call``, ``declare``, ``belote``, ``penalty``, ``tally`` (a hand's result
without its cards), ``turned`` (classic belote's turned card, when the
dealing area did not read it), ``replace`` (a misread play), ``undo``,
``redeal``, and the answers to conflicts: ``confirm``, ``dismiss``,
``resolve``. An answer is carried out by the part that asked the question:
the deal watcher for its kinds (:data:`referee.deal_watch.KINDS`), the hands
in doubt (:mod:`referee.doubt`) for ``in-doubt``, the play watcher for the others.

Calls, declarations, penalties and tallies wait in a queue until the deal is
in the record and no blocking conflict or trick awaiting its pickup is in
the way, so that the record keeps the table's order. A call for a seat whose
turn it is not is then a question, ``call-order``: the player spoke out of
turn (confirm: written, a violation) or the referee typed the calls in the
wrong order (dismiss: nothing is written); only the referee knows which.

``undo`` takes back the referee's own last entry (a call, a card typed in, a
fix...), never a sensor's reading that came after it; ``undo`` with ``ref``
takes back any event. What is refused is said in a referee's words
(:func:`refusal`): which later event would no longer fit and why, and that
nothing changed; a card typed that was already played says who played it.
"""

from __future__ import annotations

import re
from typing import Any, Iterator, Optional

from .auction import CallError, parse_call
from .cards import CardError, card_name, parse_card, pretty
from .deal_watch import KINDS as DEAL_KINDS, DealWatch
from .doubt import Doubt
from .game import Game
from .observations import CardSeen, ConsoleAction, Observation, SensorState
from .play_watch import PlayWatch
from .proposals import Ask, Conflict, Notice, Proposal, Settle, Write, correction
from .record import RecordError
from .seats import SEAT_NAMES
from .table_cards import CardOnTable


class Desk:
    """The console's actions, and the events waiting for the deal."""

    def __init__(self, game: Game, conflicts: list[Conflict], deal: DealWatch, play: PlayWatch,
                 blocking: set[int], doubt: Doubt):
        self.game = game                      # read only: the referee writes
        self.conflicts = conflicts            # read only: the referee files them
        self.deal = deal
        self.play = play
        self.doubt = doubt                    # the hands whose record proved impossible
        self.blocking = blocking              # the open blocking conflicts' ids (read only)
        self.console_obs: set[int] = set()    # the ids of what the console entered (its own entries)
        self.queue: list[dict[str, Any]] = []
        self.fixes: dict[int, int] = {}       # the corrections the console's actions wrote: event number -> obs id

    # -- the referee's own entries ------------------------------------------------------
    def heard(self, obs: Observation, oid: int) -> None:
        """Every observation the table acts on (``oid``): the console's are the referee's entries."""
        if obs.source == "console" and not isinstance(obs, SensorState):
            self.console_obs.add(oid)

    def _in_force(self, n: int) -> bool:
        """Whether event ``n`` still counts: not undone, and for a fix, the last word on its event."""
        event, replaced = self.game.events[n - 1], self.game.replaced
        if event["type"] == "correction":
            return event["replace"] is not None and replaced.get(event["ref"], 0) is event["replace"]
        return n not in replaced or replaced[n] is not None

    def _entered(self, n: int) -> bool:
        """Whether the referee entered event ``n`` at the console: a call, declaration, penalty or
        tally (they carry the console observation's id), a card typed in, or a fix."""
        event = self.game.events[n - 1]
        if "obs" in event or n in self.fixes:
            return True
        evidence = event.get("evidence") or ()
        return event["type"] == "play" and bool(evidence) and evidence[0] in self.console_obs

    def last_entry(self) -> Optional[int]:
        """The number of the referee's own last entry still in force, if any."""
        return next((n for n in range(len(self.game.events), 1, -1) if self._entered(n) and self._in_force(n)), None)

    def _typed_last(self) -> Optional[CardOnTable]:
        """The card the referee typed in last, if it is still on the table, undecided (a card typed
        in waits for the next one), and entered after the last entry in the record."""
        typed = [i for i in self.play.cards.items if i.by_console and i.conflict is None and i.oids]
        item = max(typed, key=lambda i: i.oids[-1], default=None)
        n = self.last_entry()
        if item is None or n is None:
            return item
        event = self.game.events[n - 1]
        oid = event.get("obs") or self.fixes.get(n) or (event.get("evidence") or [0])[0]
        return item if not isinstance(oid, int) or item.oids[-1] > oid else None

    def _undoing(self, n: int) -> dict[str, Any]:
        """The correction that takes event ``n`` back: a fix gives its event back what it held
        before the fix; any other event is undone."""
        events = self.game.events
        event = events[n - 1]
        if event["type"] != "correction":
            return correction(n, None, "undo", {})
        ref = event["ref"]
        before = next((e["replace"] for e in reversed(events[:n - 1])
                       if e["type"] == "correction" and e["ref"] == ref), events[ref - 1])
        return correction(ref, before, "undo", {})

    def _undo_refusal(self, n: int) -> Optional[str]:
        """Why undoing event ``n`` cannot be done, in a referee's words (a dry run on a copy)."""
        events = self.game.events
        if not 2 <= n <= len(events):
            return f"there is no event #{n} to undo: the events are numbered in the Events list (#2 to #{len(events)})"
        if not self._in_force(n):
            return f"#{n} ({describe(events[n - 1])}) is already undone or corrected again"
        try:
            Game.from_events(events + [self._undoing(n)])
        except RecordError as exc:
            return refusal(f"undoing #{n} ({describe(events[n - 1])})", exc.message, self.game)
        return None

    def check_card(self, obs: CardSeen) -> Optional[str]:
        """Why a card the referee typed in (a console sighting in a play zone) cannot be played:
        it was played already in this hand. Said with who played it, in which trick, and how to
        fix a misread play, instead of being taken silently as a late read."""
        hand, events = self.game.play, self.game.events
        if self.game.phase != "play" or hand is None or obs.card is None:
            return None
        name = obs.zone[len("play:"):]
        zone = SEAT_NAMES.index(name) if len(name) == 1 and name in SEAT_NAMES else None
        typed = next((i for i in self.play.cards.items if i.by_console and i.card == obs.card and i.zone != zone), None)
        if typed is not None:
            return (f"{pretty(obs.card)} is already on the table in front of {SEAT_NAMES[typed.zone]} (typed in "
                    f"before). Nothing was entered: type the card this player put down")
        tricks = [list(t.cards) for t in hand.tricks] + [list(hand.trick)]
        trick = next((i for i, cards in enumerate(tricks, 1) if obs.card in cards), None)
        if trick is None:
            return None
        replaced, name = self.game.replaced, card_name(obs.card)
        n = next((n for n in range(len(events), 1, -1) if events[n - 1]["type"] == "play"
                  and (replaced.get(n, events[n - 1]) or {}).get("card") == name), None)
        seat = (replaced.get(n, events[n - 1]) or {}).get("seat") if n else None
        where = f"{seat} played it in trick {trick}" + (f" (#{n} in the Events list)" if n else "")
        fix = f"fix {n} <the card it really was>" if n else "fix <event number> <card>"
        return (f"{pretty(obs.card)} was already played in this hand: {where}. Nothing was entered. If that "
                f"play was misread, correct it ({fix}); otherwise type the card this player put down")

    def check(self, a: Observation) -> Optional[str]:
        """Why the console's ``a`` cannot be acted on, or None (pure: changes nothing)."""
        if isinstance(a, CardSeen):
            return self.check_card(a) if (a.zone or "").startswith("play:") else None
        if not isinstance(a, ConsoleAction):
            return None
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
                return (f"console {a.action}: there is no conflict #{a.ref}; the open ones are numbered "
                        f"in the conflicts and to-confirm lists")
            if self.conflicts[a.ref - 1].status != "open":
                return f"console {a.action}: conflict #{a.ref} is already answered ({self.conflicts[a.ref - 1].status})"
        if a.action in ("resolve", "replace", "turned") and len(a.cards) != 1:
            return f"console {a.action}: give the one card that was really played"
        if a.action == "replace":
            if a.ref is None or not 2 <= a.ref <= len(self.game.events):
                return f"console fix: there is no event #{a.ref}; fix takes the number of a card in the Events list"
            if self.game.events[a.ref - 1]["type"] != "play":
                return (f"console fix: #{a.ref} is {describe(self.game.events[a.ref - 1])}, not a card played; "
                        f"fix takes the number of a card in the Events list")
        if a.action == "undo" and a.ref is None and self._typed_last() is not None:
            return None                               # the card just typed in is taken off the table
        if a.action == "undo":
            if len(self.game.events) < 2:
                return "console undo: there is no game event to undo"
            ref = a.ref if a.ref is not None else self.last_entry()
            if ref is None:
                return ("console undo: nothing you entered at the console is left to undo; to take back what "
                        "the table recorded, undo event N (N: its number in the Events list)")
            why = self._undo_refusal(ref)
            if why:
                return f"console undo: {why}"
        if a.action == "replace":
            try:
                old = self.game.events[a.ref - 1]
                Game.from_events(self.game.events + [correction(a.ref, {**old, "card": card_name(a.cards[0])},
                                                                "misread", {})])
            except RecordError as exc:
                return f"console fix: {refusal(f'fixing #{a.ref} ({describe(old)})', exc.message, self.game)}"
        return None

    def act(self, a: ConsoleAction, oid: int) -> Iterator[Proposal]:
        """Carry out a checked console action (observation ``oid``). The corrections it writes (a
        fix, an answer that names a card, a belote said late) are the referee's entries too: an
        undo gives their event back what it held before."""
        start = len(self.game.events)
        yield from self._act(a, oid)
        if a.action != "undo":
            events = self.game.events
            self.fixes.update({n: oid for n in range(start + 1, len(events) + 1)
                               if events[n - 1]["type"] == "correction" and events[n - 1]["replace"] is not None})

    def _act(self, a: ConsoleAction, oid: int) -> Iterator[Proposal]:
        why = {"by": a.by} if a.by else {}
        if a.reason:
            why["reason_text"] = a.reason
        if a.action == "start":
            self.deal.dealer = a.seat
        elif a.action == "call":
            if self.deal.mode == "play":
                yield from self.play.moved_on(a.t)    # a call while the hand is played: it is over
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
            if c.kind == "call-order":
                yield from self._answer_call_order(c, a.action)
            elif c.kind in DEAL_KINDS:
                yield from self.deal.answer(c, a.action, card)
            elif c.kind == "in-doubt":
                yield from self.doubt.answer(c, a.action)
            else:
                yield from self.play.answer(c, a.action, card, why, oid)
        elif a.action == "replace":
            yield from self.play.name_card(a.ref, a.cards[0], why)
        elif a.action == "undo":
            # The referee's own last entry (not the table's last event: a sensor's card), or the event named.
            typed = self._typed_last() if a.ref is None else None
            if typed is not None:
                # Only the console's word, not yet a play: taking it back takes it off the table.
                self.play.cards.items.remove(typed)
                yield Notice(f"undone: {SEAT_NAMES[typed.zone]}'s card {pretty(typed.card)} (typed in, not yet written)")
                return
            ref = a.ref if a.ref is not None else self.last_entry()
            if ref is None:
                raise RecordError("console undo: nothing you entered at the console is left to undo")
            what = describe(self.game.events[ref - 1])
            yield Write({**self._undoing(ref), "reason": a.reason or "undo", **why})
            yield Notice(f"undone: #{ref} {what}")
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
            if self.queue[0]["type"] == "call" and self.game.phase == "play" and self.play.moved_t is not None:
                # The table moved on with the hand unfinished in the record: its last cards (asked
                # for, trick by trick) come first; the call waits, unless nothing is left to ask.
                if self.play.cards.items or self.play.trick_done is not None:
                    return
                yield from self.play.moved_on(self.play.moved_t)
                if self.play.cards.items:
                    return
            event = self.queue.pop(0)
            if event["type"] == "call" and self.deal.mode == "idle":
                yield from self.deal.write(None, ())
                if self.deal.mode == "turned":        # the turned card is asked first
                    self.queue.insert(0, event)
                    return
            auction = self.game.auction if self.game.phase == "auction" else None
            if event["type"] == "call" and auction is not None and auction.to_speak is not None \
                    and SEAT_NAMES[auction.to_speak] != event["seat"]:
                yield from self._ask_call_order(event, SEAT_NAMES[auction.to_speak])
                return
            if (yield Write(event, refused_as=event["obs"])) is None:
                continue
            if event["type"] == "call" and self.game.phase == "play":
                self.deal.auction_over()


    # -- a call typed out of the table's order ---------------------------------------------
    def _ask_call_order(self, event: dict[str, Any], turn: str) -> Iterator[Proposal]:
        """A call entered for a seat whose turn it is not: the player spoke out of turn (a
        violation), or the referee typed the calls in the wrong order. Only the referee knows:
        nothing is written, and the calls entered after it wait, until the answer."""
        seat, call = event["seat"], event["call"]
        yield Ask(Conflict("call-order", f"{seat} {call} was entered, but it is {turn}'s turn to speak. Did {seat} "
                           f"speak out of turn? Confirm: it is written as {seat}'s out-of-turn call (a violation). "
                           f"Dismiss: it was entered in the wrong order; nothing is written, enter {turn}'s call "
                           f"first, then {seat}'s again", seat=SEAT_NAMES.index(seat), blocking=True,
                           evidence=(event["obs"],), item=event))

    def _answer_call_order(self, c: Conflict, action: str) -> Iterator[Proposal]:
        event = c.item
        if action == "resolve":
            raise RecordError(f"conflict {c.id}: confirm (the player spoke out of turn) or dismiss (entered "
                              f"in the wrong order)")
        yield Settle(c, "confirmed" if action == "confirm" else "dismissed", action)
        if action == "confirm":
            yield Write(event, refused_as=event["obs"])
        else:
            yield Notice(f"{event['seat']} {event['call']} was not written: enter the calls in the table's order")


def describe(event: dict[str, Any]) -> str:
    """A game event in a referee's words: "W's call 80h", "S's card ♥J", "the deal by N"."""
    kind, seat = event.get("type"), event.get("seat")
    if kind == "call":
        return f"{seat}'s call {event.get('call')}"
    if kind == "play":
        try:
            return f"{seat}'s card {pretty(parse_card(event['card']))}"
        except (CardError, KeyError, TypeError):
            return f"{seat}'s card {event.get('card')}"
    if kind == "deal":
        return f"the deal by {event.get('dealer')}"
    if kind == "correction":
        replace = event.get("replace")
        return f"the fix of #{event.get('ref')}" + (f" to {describe(replace)}" if isinstance(replace, dict) else "")
    if kind == "tally":
        return "the hand's tally"
    if kind in ("declare", "penalty", "stop"):
        return f"{seat}'s {kind}"
    return str(kind)


#: The engine's reasons, as a referee would say them when a change makes a later event impossible.
_REASONS = (
    (re.compile(r"a deal while hand (\d+) is still at (.+?): finish it.*"),
     r"hand \1 would not be finished (it would still be at \2) when that deal comes"),
    (re.compile(r"a (\w+) during the auction: the auction is not over.*"),
     r"the auction would not be over yet, so a \1 cannot come there"),
    (re.compile(r"a (\w+) (after hand \d+ ended|before the first deal): .*"),
     r"it would come \2, with no hand being played"),
)


def worded(message: str, game: Game) -> str:
    """The engine's refusal of a correction (an answer to a question, a fix) in a referee's words
    (:func:`refusal`); any other message as it is."""
    m = re.match(r"correction of event (\d+): (event \d+ no longer fits: .*)", message)
    if not m or not 2 <= int(m[1]) <= len(game.events):
        return message
    n = int(m[1])
    return refusal(f"changing #{n} ({describe(game.replaced.get(n) or game.events[n - 1])})", m[2], game,
                   "it stays as recorded; to change it, take back the later events first (newest first)")


def refusal(doing: str, message: str, game: Game,
            instead: str = "take back the later events first (newest first), or fix the event instead of undoing it") -> str:
    """A refused correction in a referee's words: what was tried, which later event would no
    longer fit and why, that nothing changed, and what to do instead."""
    m = re.match(r"(?:correction of event \d+: )?event (\d+) no longer fits: (.*)", message)
    if not m:
        return f"{doing} is refused: {message}; nothing changed"
    n, reason = int(m[1]), m[2]
    for pattern, words in _REASONS:
        if pattern.match(reason):
            reason = pattern.sub(words, reason)
            break
    events = game.events
    later = describe(game.replaced.get(n) or events[n - 1]) if 2 <= n <= len(events) else f"event {n}"
    return f"{doing} is refused: #{n} ({later}) would no longer fit, because {reason}. Nothing changed: {instead}"
