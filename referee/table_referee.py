"""The table referee: what the sensors saw and the console said, turned into a refereed game.

Why a layer between sensors and rules: a camera misreads, an antenna misses a
tag or reads it late, a card gets bumped into the wrong zone, a player shows
a card and takes it back. The rules engine (:class:`referee.game.Game`) must
only ever see *facts*; the table referee decides which observations are
facts, and when the evidence is not good enough it raises a **conflict** for
the referee's console instead of accusing anyone.

It is pure and deterministic (no clock: observation times are the only time),
so the same observations always give the same game; ``referee/store.py`` adds
the SQLite store and crash recovery around it.

It is made of parts, each one concept, each proposing what it found
(:mod:`referee.proposals`); :class:`TableReferee` routes each observation to
its part and is the only one to write the record, the conflicts and the
outputs:

- the deal watcher (:mod:`referee.deal_watch`): the cards arriving in the
  hands, the deal rounds, misdeals;
- the play watcher (:mod:`referee.play_watch`): the cards on the table
  (:mod:`referee.table_cards`) turned into plays, tricks and pickups;
- the plays read once by one sensor (:mod:`referee.to_confirm`): a violation
  resting on one is "to confirm" until a second read or the console confirms it;
- the hands in doubt (:mod:`referee.doubt`): a hand whose record proved
  impossible (a card played twice) accuses no one without the console;
- the order of the tricks (:mod:`referee.trick_order`): put back in turn after
  a correction changed who won a trick;
- the table's own violations (:mod:`referee.table_rules`): misdeals and
  wrong pickups, checked again after every correction;
- the console desk (:mod:`referee.desk`): the console's actions, the answers
  to conflicts, corrections;
- the screen (:mod:`referee.screen`): the state as the screens get it.

Why one module over 500 lines: most of it is this API's documentation, and
the writer that applies every part's proposals (events, conflicts,
violations) in one place.

API (the dashboard and the demo build on it)
--------------------------------------------

``TableReferee(rules="ffb-contree", options=None, seats=None, dealer=None)``
(or ``header=`` a record's game line); ``StoredReferee`` in
:mod:`referee.store` is the same with a store path.

- ``ingest(observation) -> list[Output]``: one observation
  (:mod:`referee.observations`: ``CardSeen``, ``CardGone``, ``ZoneCleared``,
  ``SensorState`` or a ``ConsoleAction``), in time order. Each observation gets
  an id (1, 2, ...: the evidence that violations cite). Garbage (time going
  back for a source, a seat or card that is not one) is an ``Output("rejected")``
  with the reason; the game goes on.
- Console actions, each one observation (so they are stored and replayed):
  ``start(dealer, t)``, ``call(seat, call, t)``, ``belote(seat, t)``,
  ``declare(seat, cards, t)``, ``replace(ref, card, t, by, reason)``,
  ``undo(t, by, reason)``, ``confirm(conflict, t, by)``, ``dismiss(conflict, t, by)``,
  ``resolve(conflict, card, t, by)``, ``penalty(seat, rule, t, by)``,
  ``redeal(t, by, reason)``, ``turned(card, t, by)`` (classic belote's turned
  card, when the dealing area did not read it). ``t`` is the console's time on
  the table's clock.
- ``snapshot()``: the whole state as a JSON-able dict: ``phase``, ``dealer``,
  ``auction``, ``contract``, ``trick``, ``tricks``, ``hands`` (results),
  ``totals``, ``violations``, ``to_confirm`` (the violations resting on one
  read), ``conflicts``, ``zones`` (cards on the table not yet decided),
  ``sensors``, and ``private`` (the cards held: filter it out of public feeds).
- ``record`` (the game record: header then events, DESIGN's JSON Lines form),
  ``violations()`` (every violation, the table's included), ``to_confirm()``
  (those not yet violations: they rest on one read of one sensor), ``results``.

Outputs (:class:`Output`, ``kind`` then fields; ``as_dict()`` for JSON):
``event`` (``n``, ``event``: a line appended to the game record),
``violation`` (``hand``, and DESIGN's violation fields with ``evidence``:
observation ids and the camera frame reference), ``conflict`` (an open
question for the console: ``id``, ``kind``, ``message``, ``hand``, ``trick``,
``seat``, ``proposal``, ``choices``, ``blocking``, ``waiting``; a question
that waited for a sensor comes again, blocking, when the console must
answer it), ``resolved``, ``score`` (a
finished hand and the totals), ``rescored`` (every hand again, after a
correction), ``rejected`` (with the reason), ``notice`` (a card taken back).

Conflicts: ``card-mismatch`` (camera and RFID disagree: the RFID card is
recorded; confirm keeps it, dismiss takes the camera's, resolve names the
card), ``card-unknown`` (no trustworthy reading: resolve names the card),
``camera-only`` (a camera-only table's reading that is not sure: confirm
the card or resolve with the right one), ``to-confirm`` (a violation rests
on a play read once by one sensor: confirm the card, resolve with the right
one, or dismiss: it stays unconfirmed, never a violation), ``out-of-turn`` (a card early in a
zone, nobody saw which hand it left: confirm records the out-of-turn play,
resolve records it with the card named, dismiss lets it wait for its turn),
``in-doubt`` (a violation of a hand in doubt, or a belote said with a card
that does not make one: confirm, it stands; dismiss, it is no violation),
``turned`` (classic belote: the dealing area did not read the turned card:
resolve names it; the calls wait for it), ``deal`` (the deal was not fully seen and looks wrong: confirm declares a
misdeal, dismiss accepts the deal), ``gathered`` (the cards leave the hands
before the auction: confirm declares a misdeal), ``call-order`` (:mod:`referee.desk`). A *blocking* conflict holds
the game events behind it until the console answers (the cards stay on the
table, and are decided in order once it is answered).

Either sensor may be missing. Without hand antennas the deal is not seen
(no ``hands`` in the record: each hand is audited when it ends) and misdeals
and pickups cannot be checked; without a camera RFID alone decides; a
camera-only table cannot see misdeals or pickups.

Table rules checked here (the rest is the engine's; :mod:`referee.table_rules`):
``misdeal`` (by the deal watcher) and ``wrong-pickup`` (to confirm while its
trick's winner rests on a play read once). In the record a misdeal is a
``misdeals`` field on the redeal's ``deal`` event (or, for a deal already
recorded, the correction that undoes it, with a ``misdeal`` field), and a
pickup a ``pickup`` field on the trick's last play: the referee finds both
table violations in the events it writes, so that a replayed or imported
record gives them back.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Iterator, Optional

from .cards import Card, parse_card
from .deal_watch import DealWatch
from .desk import Desk, worded
from .doubt import Doubt, key as doubt_key
from .game import Game
from .observations import CardGone, CardSeen, ConsoleAction, Observation, SensorState, ZoneCleared
from .play_watch import PlayWatch
from .proposals import Ask, Conflict, Flag, Impossible, Notice, Press, Proposal, Redeal, Settle, Write, correction
from .record import RecordError
from .screen import snapshot
from .seats import SEAT_NAMES, TEAM_NAMES, Seat, next_seat
from .table_rules import TableRules, misdeal
from .to_confirm import ToConfirm
from .trick_order import reordered
from .violations import Violation

#: zone name -> (kind, seat or team index)
_ZONES = {**{f"{k}:{n}": (k, i) for k in ("play", "hand") for i, n in enumerate(SEAT_NAMES)},
          "deal": ("deal", None), "pile:NS": ("pile", 0), "pile:EW": ("pile", 1)}


@dataclass(frozen=True)
class Output:
    """Something the referee decided, for screens and logs."""

    kind: str
    data: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}


class TableReferee:
    """Observations and console input in, game events, violations, conflicts and scores out."""

    def __init__(self, rules: str = "ffb-contree", options: Optional[dict] = None,
                 seats: Optional[dict[str, str]] = None, dealer: Optional[Seat] = None,
                 header: Optional[dict[str, Any]] = None):
        self.game = Game(header or self.make_header(rules, options, seats))
        self.options = self.game.options
        self.n_obs = 0
        self.last_t: dict[str, float] = {}
        self.conflicts: list[Conflict] = []
        self._blocking: set[int] = set()          # open blocking conflicts
        self.sensors: dict[str, str] = {}
        self.seen_sources: set[str] = set()
        self._out: list[Output] = []
        self._evidence: dict[tuple[int, Card], tuple] = {}     # (hand, card) -> the evidence of its play
        self.deal_watch = DealWatch(self.game, self._blocking, dealer)
        self.confirming = ToConfirm(self.game, self.conflicts)
        self.play_watch = PlayWatch(self.game, self.deal_watch, self.confirming, self.seen_sources, self._blocking)
        self.doubt = Doubt()
        self.table_rules = TableRules(self.game, self.confirming, self.doubt, self._standing,
                                      self.play_watch.note_unseen_going)
        self.desk = Desk(self.game, self.conflicts, self.deal_watch, self.play_watch, self._blocking, self.doubt)
        self._writers = {Write: self._write_proposed, Ask: self._file_conflict, Press: self._press_conflict,
                         Settle: self._settle_conflict, Notice: self._notice, Flag: self._flag,
                         Redeal: lambda _: self._new_hand(), Impossible: self._impossible}

    @staticmethod
    def make_header(rules: str = "ffb-contree", options: Optional[dict] = None,
                    seats: Optional[dict[str, str]] = None) -> dict[str, Any]:
        return {"type": "game", "version": 1, "rules": rules, "options": dict(options or {}),
                "seats": dict(seats or {})}

    # -- the record ---------------------------------------------------------------
    @property
    def record(self) -> list[dict[str, Any]]:
        return self.game.events

    @property
    def events(self) -> list[dict[str, Any]]:
        """The game events after the header (event ``n`` of the record is ``events[n - 2]``)."""
        return self.game.events[1:]

    @property
    def results(self):
        return self.game.results

    @property
    def mode(self) -> str:
        """Where the table is in the hand: idle, deal, turned, auction, deal2 or play."""
        return self.deal_watch.mode

    @property
    def dealer(self) -> Optional[Seat]:
        """Who deals (or deals next)."""
        return self.deal_watch.dealer

    @property
    def hand_number(self) -> int:
        return self.game.hand_number

    @property
    def table_violations(self) -> list[tuple[int, Violation]]:
        """The table's own violations (misdeals, wrong pickups: :mod:`referee.table_rules`), to
        confirm ones included."""
        return self.table_rules.found

    def load_events(self, events: list[dict[str, Any]]) -> None:
        """Apply record events directly (an imported game): no observations behind them."""
        for event in events:
            self._write(event)
        self._out = []
        self.confirming.waiting = []              # an imported record's plays read once stay to confirm
        self.deal_watch.mode = {"deal": "idle", "auction": "auction", "play": "play"}.get(self.game.phase, "idle")
        self.deal_watch.dealer = self.game.dealer if self.game.dealer is not None else self.game.next_dealer

    @classmethod
    def from_record(cls, lines: list[dict[str, Any]]) -> "TableReferee":
        referee = cls(header=lines[0])
        referee.load_events(lines[1:])
        return referee

    # -- violations -------------------------------------------------------------------
    def violations(self) -> list[tuple[int, Violation]]:
        """Every violation of the game as ``(hand number, violation)``, with its evidence; those
        still to confirm are not violations yet (:meth:`to_confirm`)."""
        found = [(h, v) for h, v in self._all_violations() + self.table_violations if not v.to_confirm]
        pending = [(self.game.hand_number, v) for v in self.deal_watch.misdeals_pending]
        return sorted([(h, v) for h, v in found + pending if self.doubt.stands(h, v)],
                      key=lambda hv: (hv[0], hv[1].trick or 0))

    def to_confirm(self) -> list[tuple[int, Violation]]:
        """The violations that rest on a play read once by one sensor, not yet confirmed (nor
        dismissed by the console in a hand in doubt: game 2101209, round 18)."""
        return [(h, v) for h, v in self._all_violations() + self.table_violations
                if v.to_confirm and not self.doubt.dismissed(h, v)]

    def _all_violations(self) -> list[tuple[int, Violation]]:
        found = [(r.number, v) for r in self.game.results for v in r.violations]
        found += [(self.game.hand_number, v) for v in self.game.hand_violations]
        return [(h, self._with_evidence(h, v)) for h, v in found]

    def _with_evidence(self, hand: int, v: Violation) -> Violation:
        if v.card is not None and not v.evidence:
            ev = self._evidence.get((hand, v.card))
            if ev:
                return dataclasses.replace(v, evidence=ev)
        return v

    # -- ingestion ------------------------------------------------------------------
    def check(self, obs: Observation) -> Optional[str]:
        """Why ``obs`` cannot be acted on, or None (pure: changes nothing)."""
        last = self.last_t.get(obs.source)
        if last is not None and obs.t < last:
            return f"time goes back for {obs.source}: {obs.t} after {last}; check the sensor's clock"
        if isinstance(obs, (CardSeen, CardGone)) and obs.card is not None and not 0 <= obs.card < 32:
            return f"card {obs.card!r} is not a card of the 32-card deck"
        if obs.source == "console":                 # a console action, or a card typed in
            return self.desk.check(obs)
        return None

    def reject(self, reason: str) -> list[Output]:
        """Count a rejected observation (it keeps its id) and say why."""
        self.n_obs += 1
        return [Output("rejected", {"obs": self.n_obs, "reason": reason})]

    def ingest(self, obs: Observation, checked: bool = False) -> list[Output]:
        """Act on one observation; returns what it decided (see the module docstring)."""
        if not checked:
            reason = self.check(obs)
            if reason:
                return self.reject(reason)
        self.n_obs += 1
        oid = self.n_obs
        self.last_t[obs.source] = obs.t
        self.desk.heard(obs, oid)
        self._out = []
        self._advance(obs.t)
        try:
            self._catch_up()
            if isinstance(obs, ConsoleAction):
                self._carry_out(self.desk.act(obs, oid))
            elif isinstance(obs, SensorState):
                self.sensors[obs.source] = obs.state
            else:
                self.seen_sources.add(obs.source)
                self._sensor(obs, oid)
            self._advance(obs.t)
            self._catch_up()
            while self.confirming.busy(obs.t):             # questions on plays read once, filed or pressed
                self._carry_out(self.confirming.ask(obs.t))
        except RecordError as exc:
            self._out.append(Output("rejected", {"obs": oid, "reason": worded(str(exc), self.game)}))
        out, self._out = self._out, []
        return out

    def submit(self, obs: Observation) -> list[Output]:
        """One console action or sensor report (the store overrides this to persist it)."""
        return self.ingest(obs)

    # -- console convenience ------------------------------------------------------------
    def start(self, dealer: Seat, t: float, by: str = "") -> list[Output]:
        return self.submit(ConsoleAction(t=t, action="start", seat=dealer, by=by))

    def call(self, seat: Seat, call: str, t: float, by: str = "") -> list[Output]:
        return self.submit(ConsoleAction(t=t, action="call", seat=seat, call=call, by=by))

    def belote(self, seat: Seat, t: float, by: str = "") -> list[Output]:
        return self.submit(ConsoleAction(t=t, action="belote", seat=seat, by=by))

    def declare(self, seat: Seat, cards: list[Card], t: float, by: str = "") -> list[Output]:
        return self.submit(ConsoleAction(t=t, action="declare", seat=seat, cards=tuple(cards), by=by))

    def replace(self, ref: int, card: Card, t: float, by: str = "", reason: str = "misread") -> list[Output]:
        return self.submit(ConsoleAction(t=t, action="replace", ref=ref, cards=(card,), by=by, reason=reason))

    def undo(self, t: float, by: str = "", reason: str = "", ref: Optional[int] = None) -> list[Output]:
        return self.submit(ConsoleAction(t=t, action="undo", ref=ref, by=by, reason=reason))

    def confirm(self, conflict: int, t: float, by: str = "") -> list[Output]:
        return self.submit(ConsoleAction(t=t, action="confirm", ref=conflict, by=by))

    def dismiss(self, conflict: int, t: float, by: str = "") -> list[Output]:
        return self.submit(ConsoleAction(t=t, action="dismiss", ref=conflict, by=by))

    def resolve(self, conflict: int, card: Card, t: float, by: str = "") -> list[Output]:
        return self.submit(ConsoleAction(t=t, action="resolve", ref=conflict, cards=(card,), by=by))

    def penalty(self, seat: Seat, rule: str, t: float, by: str = "", reason: str = "") -> list[Output]:
        return self.submit(ConsoleAction(t=t, action="penalty", seat=seat, rule=rule, by=by, reason=reason))

    def turned(self, card: Card, t: float, by: str = "") -> list[Output]:
        return self.submit(ConsoleAction(t=t, action="turned", cards=(card,), by=by))

    def redeal(self, t: float, by: str = "", reason: str = "") -> list[Output]:
        return self.submit(ConsoleAction(t=t, action="redeal", by=by, reason=reason))

    # -- routing --------------------------------------------------------------------
    def _sensor(self, obs: Observation, oid: int) -> None:
        """Hand a sensor's observation to the part that watches its zone."""
        zone = obs.zone
        if zone is None:
            return
        kind, seat = _ZONES[zone]
        deal, play = self.deal_watch, self.play_watch
        if kind in ("hand", "deal") and deal.mode == "play" and self._next_deal(obs, oid):
            return
        if kind in ("play", "pile") and getattr(obs, "card", None) is not None and not play.out_of_step(obs):
            self._carry_out(self.confirming.read(obs, oid))      # a second read of a play read once?
        if kind == "hand":
            if isinstance(obs, CardSeen) and obs.card is not None:
                if deal.mode == "play":
                    self._carry_out(play.card_back_in_hand(obs, seat, oid))
                else:
                    self._carry_out(deal.card_in_hand(obs, seat, oid))
            elif isinstance(obs, CardGone) and obs.card is not None:
                if deal.mode != "play":
                    self._carry_out(deal.card_left_hand(obs, oid))
                if deal.mode == "play":                   # maybe only now: the deal's last round closed
                    self._carry_out(play.card_left_hand(obs, seat, oid))
        elif zone == "deal":
            if isinstance(obs, CardSeen) and obs.card is not None:
                deal.card_in_dealing_area(obs.card, oid)
            elif isinstance(obs, CardGone) and obs.card is not None:
                deal.card_left_dealing_area(obs.card)
        elif kind == "play":
            if deal.mode in ("deal", "deal2"):
                self._carry_out(deal.close(obs.t))
            if deal.mode != "play":
                return
            if isinstance(obs, CardSeen):
                self._carry_out(play.card_seen(obs, seat, oid))
            elif isinstance(obs, CardGone):
                self._carry_out(play.card_gone(obs.source, seat, obs.card, obs.t, oid))
            elif isinstance(obs, ZoneCleared):
                self._carry_out(play.card_gone(obs.source, seat, None, obs.t, oid))
        elif kind == "pile" and isinstance(obs, CardSeen) and obs.card is not None:
            self._carry_out(play.card_in_pile(obs.card, TEAM_NAMES[seat], obs.t, oid))

    def _next_deal(self, obs: Observation, oid: int) -> bool:
        """A hand or dealing-area reading during the play that belongs to the next deal is kept
        for it (:meth:`DealWatch.early`); the hand is then over: its last trick is taken as
        picked up and the cards nobody saw asked for. True when the reading was kept."""
        play = self.game.play
        card = getattr(obs, "card", None)
        picked_up = play is not None and card is not None and any(card in t.cards for t in play.tricks)
        moving = self.deal_watch.moving
        if not self.deal_watch.early(obs, oid, picked_up):
            return False
        if self.deal_watch.moving and not moving:  # the next deal has begun: the hand is over
            self._carry_out(self.play_watch.moved_on(obs.t))
        return True

    def _catch_up(self) -> None:
        """The hand is over: the next deal's readings kept meanwhile are the deal's."""
        if self.deal_watch.ahead and self.deal_watch.mode != "play":
            for obs, oid in self.deal_watch.catch_up():
                self._sensor(obs, oid)

    def _advance(self, now: float) -> None:
        """Decide everything the time ``now`` allows: plays that have settled, a trick picked up,
        the console's events that waited for them."""
        play = self.play_watch
        if not play.cards.items and play.trick_done is None and not self.desk.queue:
            return
        decided = play.advance(now)
        if decided is not None:                   # None before most observations
            self._carry_out(decided)
        if self.desk.queue and not self._blocking:
            self._carry_out(self.desk.flush())

    # -- writing what the parts propose ---------------------------------------------------
    def _carry_out(self, proposals: Optional[Iterator[Proposal]]) -> None:
        """Write each proposal of a part in turn, sending back what it became (the event's
        number, the filed conflict). A part's method that found nothing to propose may say so
        with None instead of an empty generator (most observations decide nothing)."""
        proposal = None if proposals is None else next(proposals, None)
        if proposal is None:
            return
        write = self._writers
        try:
            while True:
                proposal = proposals.send(write[type(proposal)](proposal))
        except StopIteration:
            pass

    def _write_proposed(self, proposal: Write) -> Optional[int]:
        if proposal.refused_as is None:
            self._write(proposal.event)
            return len(self.game.events)
        try:
            self._write(proposal.event)
        except RecordError as exc:
            self._out.append(Output("rejected", {"obs": proposal.refused_as, "reason": worded(str(exc), self.game)}))
            return None
        return len(self.game.events)

    def _write(self, event: dict[str, Any]) -> list[Violation]:
        """Append a game event to the record and report what it changed.

        The table's own findings are fields of the record's events, so that a
        replayed or imported record gives them back: a ``misdeal`` on the
        correction that voids a deal, a ``pickup`` on a trick's last play."""
        hand = self.game.hand_number
        results = len(self.game.results)
        prior = self._engine_violations() if event["type"] == "correction" else []
        found = self.game.apply(event)
        self._out.append(Output("event", {"n": len(self.game.events), "event": event}))
        if event["type"] == "correction" and self.game.play is not None and self._put_in_turn():
            found = [v for v in self._engine_violations() if v not in prior]
        if event["type"] == "play" and event.get("evidence"):
            self._evidence.setdefault((hand, parse_card(event["card"])), tuple(event["evidence"]))
        for v in found:
            v = self._with_evidence(hand, v)
            if v.to_confirm:
                self.confirming.rests_on(v)           # asked about once the observation is done
            elif self.doubt.holds(self._hand_of(v, hand), v):
                of = self._hand_of(v, hand)           # a correction may find it in a hand already over
                self._carry_out(self.doubt.ask(of, v, self._standing(of, found)))
            else:
                self._out.append(Output("violation", {"hand": hand, **v.as_dict()}))
        if event["type"] == "correction" and results:
            self._out.append(Output("rescored", {"hands": [r.details() for r in self.game.results],
                                                 "totals": {"NS": self.game.totals[0], "EW": self.game.totals[1]}}))
        rules = self.table_rules
        if event["type"] == "correction":
            for h in (hand - 1, hand):            # the correction of a hand just over: its last trick
                self._carry_out(rules.check_pickups(h))
        if event["type"] == "correction" and event.get("misdeal"):
            self._carry_out(rules.report(hand, misdeal(event["misdeal"])))
        for m in event.get("misdeals", ()) if event["type"] == "deal" else ():
            rules.redealt(hand, m)
        if event.get("pickup") and event["type"] == "play":
            self._carry_out(rules.check_pickups(hand))
        for result in self.game.results[results:]:
            for v in result.violations:               # the audit of a hand whose deal was not seen
                if v in found:
                    continue
                if v.to_confirm:
                    self.confirming.rests_on(v)
                elif self.doubt.holds(result.number, v):  # a hand in doubt: asked, as those found in play
                    self._carry_out(self.doubt.ask(result.number, v, self._standing(result.number, [v])))
            self._out.append(Output("score", {"hand": result.details(),
                                              "totals": {"NS": self.game.totals[0], "EW": self.game.totals[1]},
                                              "winner": TEAM_NAMES[self.game.winner]
                                              if self.game.winner is not None else None}))
            self._hand_over()
        return found

    def _engine_violations(self) -> list[Violation]:
        return [v for r in self.game.results for v in r.violations] + self.game.hand_violations

    def _put_in_turn(self) -> bool:
        """A correction may have changed who won a trick of the hand being played: put the
        tricks recorded after it in the turn order it gives (:mod:`referee.trick_order`), before
        anyone is accused of playing out of turn on an order the referee inferred."""
        leader = next_seat(self.game.dealer, self.options.clockwise)
        fixes = reordered(self.game, self.play_watch.played, leader)
        for fix in fixes:
            self.game.apply(fix)
            self._out.append(Output("event", {"n": len(self.game.events), "event": fix}))
        if fixes:
            moved = self.play_watch.renumbered()
            for c in self.conflicts:              # an open question about a play follows it
                if c.status == "open" and c.ref in moved and c.hand == self.game.hand_number:
                    c.ref = moved[c.ref]
        unplaced = self._unplace()
        return bool(fixes) or unplaced

    def _unplace(self) -> bool:
        """The cards of the trick on the table that the console named without a time (no sensor saw
        them put down: the referee placed them in the turn it inferred) and that the corrected turn
        order no longer lets stand are undone and wait for their turn again, named: a partly written
        trick is put in turn as :func:`~referee.trick_order.reordered` puts whole ones. Only one such
        card is moved: with more, the tricks around it are not where the referee thinks (undoing
        three cards of a trick left the table's cards out of step with the record, game 301226)."""
        play = self.game.play
        undone = []
        for card, (trick, seat, n) in list(self.play_watch.played.items()):
            event = self.game.current(n) if n else None
            if event is not None and trick == play.trick_number and card not in play.trick \
                    and event.get("type") == "play" and not event.get("evidence"):
                undone.append((n, card))
        if len(undone) != 1:
            return False                          # none, or more than one: the console is asked as before
        [(n, card)] = undone
        fix = correction(n, None, "order", {"why": "a card named without a time, out of the turn a "
                                                  "correction gave: it waits for its turn"})
        self.game.apply(fix)
        self._out.append(Output("event", {"n": len(self.game.events), "event": fix}))
        self.play_watch.unplace(card)
        return True

    def _hand_over(self) -> None:
        self.deal_watch.dealer = self.game.next_dealer
        self.deal_watch.mode = "idle"
        self._new_hand()

    def _new_hand(self) -> None:
        """Every part forgets the hand's cards."""
        self.deal_watch.new_hand()
        self.play_watch.new_hand()

    def _hand_of(self, v: Violation, default: int) -> int:
        """The number of the hand whose violation ``v`` is (``default``: the hand being played)."""
        return next((r.number for r in self.game.results if v in r.violations), default)

    def _standing(self, hand: int, found: list[Violation]) -> list[Violation]:
        """The violations of ``hand`` reported so far (not those just ``found``)."""
        new = {doubt_key(hand, v) for v in found}
        return [v for h, v in self.violations() if h == hand and doubt_key(h, v) not in new]

    def _file_conflict(self, proposal: Ask) -> Conflict:
        c = proposal.conflict
        c.id = len(self.conflicts) + 1
        if c.hand is None:
            c.hand = self.game.hand_number
        self.conflicts.append(c)
        if c.blocking:
            self._blocking.add(c.id)
        self._out.append(Output("conflict", c.as_dict()))
        return c

    def _press_conflict(self, proposal: Press) -> None:
        c = proposal.conflict
        c.blocking, c.waiting = True, False
        self._blocking.add(c.id)
        self._out.append(Output("conflict", c.as_dict()))

    def _settle_conflict(self, proposal: Settle) -> None:
        c = proposal.conflict
        c.status = proposal.status
        self._blocking.discard(c.id)
        self._out.append(Output("resolved", {"id": c.id, "status": proposal.status, "how": proposal.how}))

    def _impossible(self, proposal: Impossible) -> None:
        hand = self.game.hand_number
        self._carry_out(self.doubt.impossible(hand, proposal.why, self._standing(hand, [])))

    def _notice(self, proposal: Notice) -> None:
        self._out.append(Output("notice", {"message": proposal.message}))

    def _flag(self, proposal: Flag) -> None:
        hand = proposal.hand if proposal.hand is not None else self.game.hand_number
        self._out.append(Output("violation", {"hand": hand, **proposal.violation.as_dict()}))

    # -- the screen -------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        done = self.play_watch.trick_done
        return snapshot(self.game, self.mode, self.dealer, self.n_obs, self.violations(), self.to_confirm(),
                        self.conflicts, self.play_watch.cards.items, self.sensors, self.deal_watch.seen_hands,
                        awaiting_pickup=(done["seat"], done["card"]) if done is not None else None)
