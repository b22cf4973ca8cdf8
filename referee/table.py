"""The table referee: what the sensors saw and the console said, turned into a refereed game.

Why a layer between sensors and rules: a camera misreads, an antenna misses a
tag or reads it late, a card gets bumped into the wrong zone, a player shows
a card and takes it back. The rules engine (:class:`referee.game.Game`) must
only ever see *facts*; this module decides which observations are facts, and
when the evidence is not good enough it raises a **conflict** for the
referee's console instead of accusing anyone.

It is pure and deterministic (no clock: observation times are the only time),
so the same observations always give the same game; ``referee/store.py`` adds
the SQLite store and crash recovery around it.

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
  ``totals``, ``violations``, ``conflicts``, ``zones`` (cards on the table not
  yet decided), ``sensors``, and ``private`` (the cards held: filter it out of
  public feeds).
- ``record`` (the game record: header then events, DESIGN's JSON Lines form),
  ``violations()`` (every violation, the table's included), ``results``.

Outputs (:class:`Output`, ``kind`` then fields; ``as_dict()`` for JSON):
``event`` (``n``, ``event``: a line appended to the game record),
``violation`` (``hand``, and DESIGN's violation fields with ``evidence``:
observation ids and the camera frame reference), ``conflict`` (an open
question for the console: ``id``, ``kind``, ``message``, ``hand``, ``trick``,
``seat``, ``proposal``, ``choices``, ``blocking``), ``resolved``, ``score`` (a
finished hand and the totals), ``rescored`` (every hand again, after a
correction), ``rejected`` (with the reason), ``notice`` (a card taken back).

How cards become plays: a card in a play zone is a play once it has stayed
there :data:`SETTLE` seconds or the next player's card appears (a card shown
and taken back never is); who played it is the hand the RFID saw it leave,
else the zone; RFID identifies the card (tags are not misread), the camera
confirms it. A card in a zone before the player whose turn it is puts theirs
down is out of turn. A trick ends when its cards leave the zones (two or
more: one card leaving is a knock or a take-back); its pile is the first
pile antenna that reads one of its cards.

Conflicts: ``card-mismatch`` (camera and RFID disagree: the RFID card is
recorded; confirm keeps it, dismiss takes the camera's, resolve names the
card), ``card-unknown`` (no trustworthy reading: resolve names the card),
``camera-only`` (a card only the camera saw would make a violation: confirm
the card or resolve with the right one), ``out-of-turn`` (a card early in a
zone, nobody saw which hand it left: confirm records the out-of-turn play,
resolve records it with the card named, dismiss lets it wait for its turn),
``turned`` (classic belote: the dealing area did not read the turned card:
resolve names it; the calls wait for it), ``deal`` (the deal was not fully seen and looks wrong: confirm declares a
misdeal, dismiss accepts the deal), ``gathered`` (the cards leave the hands
before the auction: confirm declares a misdeal). A *blocking* conflict holds
the game events behind it until the console answers (the cards stay on the
table, and are decided in order once it is answered).

Either sensor may be missing. Without hand antennas the deal is not seen
(no ``hands`` in the record: each hand is audited when it ends) and misdeals
and pickups cannot be checked; without a camera RFID alone decides. A
camera-only table asks about every reading that is not sure
(:data:`CAMERA_SURE`) while the card is still on the table, since a misread
found tricks later would be a correction that reorders the tricks after it;
it cannot see misdeals or pickups.

Table rules checked here (the rest is the engine's): ``misdeal`` (a seat
without 8 cards, a packet of 1 or 4, packets not in the profile's order, two
tags for one card, a card left in the dealing area) and ``wrong-pickup``. In
the record a misdeal is a ``misdeals`` field on the redeal's ``deal`` event
(or, for a deal already recorded, the correction that undoes it, with a
``misdeal`` field), and a pickup a ``pickup`` field on the trick's last play.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Optional

from .cards import KING, QUEEN, Card, card_name, iter_cards, mask_of, parse_card, pretty, rank_of, suit_of
from .game import Game
from .observations import CardGone, CardSeen, ConsoleAction, Observation, SensorState, ZoneCleared
from .play import audit
from .trump_tables import ALL_TRUMP, NO_TRUMP
from .record import RecordError
from .seats import SEAT_NAMES, TEAM_NAMES, Seat, next_seat, parse_seat, team_of, turn_order
from .violations import Violation

#: Seconds a card must stay in a play zone before it counts as played (a card
#: shown and taken back within this time was never played).
SETTLE = 1.0
#: Seconds to wait for the RFID to confirm a card only the camera read.
RFID_WAIT = 1.0
#: Seconds to wait for any reading of a card nobody could read yet.
UNKNOWN_WAIT = 2.0
#: Without RFID, a camera reading at or below this confidence is asked at once, while the card is still
#: on the table: vision reads score 0.8 (a bare read) to 1 (a clear lead, docs/vision.md), and a
#: misread found tricks later would be a correction that reorders every trick after it.
CAMERA_SURE = 0.9
#: Seconds after a card left its zone before it counts as taken back (a pickup may be starting).
TAKEBACK_WAIT = 0.3
#: A tag seen leaving a hand this soon after it came back is a late read of the earlier edge.
STALE_READ = 0.4
#: Seconds after a trick is cleared to wait for the pile antennas.
PICKUP_WAIT = 1.5
#: Two arrivals in a seat's hand area further apart than this are two packets.
PACKET_GAP = 1.2
ALLOWED_PACKETS = ((3, 2, 3), (3, 3, 2), (2, 3, 3))
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


@dataclass
class Conflict:
    """An open question for the console (never an accusation)."""

    id: int
    kind: str
    message: str
    hand: int
    trick: Optional[int] = None
    seat: Optional[Seat] = None
    proposal: Optional[Card] = None          # the card (or None) a confirm would keep
    alternative: Optional[Card] = None       # what dismiss gives, for card conflicts
    ref: Optional[int] = None                # the record event concerned, once written
    blocking: bool = False
    evidence: tuple = ()
    status: str = "open"                     # open | confirmed | dismissed | resolved
    item: Any = None                         # the undecided card on the table, if any

    def as_dict(self) -> dict[str, Any]:
        choices = {"card-unknown": ["resolve"], "turned": ["resolve"], "deal": ["confirm", "dismiss"], "gathered": ["confirm", "dismiss"],
                   }.get(self.kind, ["confirm", "dismiss", "resolve"])
        out = {"id": self.id, "kind": self.kind, "message": self.message, "hand": self.hand,
               "status": self.status, "blocking": self.blocking, "choices": choices,
               "evidence": list(self.evidence)}
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
        return out


@dataclass
class _Item:
    """A card on a play zone that is not (yet) a play: what each sensor says about it."""

    zone: Seat
    t: float
    cam: Optional[Card] = None
    cam_seen: bool = False
    conf: float = 0.0
    frame: Optional[str] = None
    rfid: Optional[Card] = None
    origin: Optional[Seat] = None            # the hand it left (RFID), the strongest "who"
    oids: list[int] = field(default_factory=list)
    early: bool = False                      # out of turn, waiting for its seat's turn
    gone_t: Optional[float] = None           # when it left its zone (a take-back, unless a pickup follows)
    zone_seen: bool = True                   # False: only seen leaving the hand so far
    closed: bool = False                     # its trick was picked up while it waited
    say: Optional[str] = None
    conflict: Optional[int] = None
    card_override: Optional[Card] = None     # settled at the console
    unseen_at: bool = False                  # nobody saw when it was put down (placed first in its trick)

    @property
    def card(self) -> Optional[Card]:
        if self.card_override is not None:
            return self.card_override
        return self.rfid if self.rfid is not None else self.cam

    @property
    def seat(self) -> Seat:
        return self.origin if self.origin is not None else self.zone


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
        self.misdeals_pending: list[Violation] = []   # spoilt deals, named on the redeal's deal event
        self._blocking: set[int] = set()          # open blocking conflicts
        self.table_violations: list[tuple[int, Violation]] = []
        self.sensors: dict[str, str] = {}
        self.seen_sources: set[str] = set()
        self.dealer: Optional[Seat] = dealer
        self.mode = "idle"                   # idle | deal | auction | play
        self._out: list[Output] = []
        self._queue: list[dict[str, Any]] = []
        self._evidence: dict[tuple[int, Card], tuple] = {}
        self._camera_only: dict[tuple[int, Card], int] = {}   # (hand, card) -> event n, not yet confirmed
        self._new_hand()

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

    def load_events(self, events: list[dict[str, Any]]) -> None:
        """Apply record events directly (an imported game): no observations behind them."""
        for event in events:
            self._write(event)
        self._out = []
        self.mode = {"deal": "idle", "auction": "auction", "play": "play"}.get(self.game.phase, "idle")
        self.dealer = self.game.dealer if self.game.dealer is not None else self.game.next_dealer

    @classmethod
    def from_record(cls, lines: list[dict[str, Any]]) -> "TableReferee":
        referee = cls(header=lines[0])
        referee.load_events(lines[1:])
        return referee

    # -- violations -------------------------------------------------------------------
    def violations(self) -> list[tuple[int, Violation]]:
        """Every violation of the game as ``(hand number, violation)``, with its evidence."""
        found = [(r.number, v) for r in self.game.results for v in r.violations]
        found += [(self.game.hand_number, v) for v in self.game.hand_violations]
        found = [(h, self._with_evidence(h, v)) for h, v in found]
        pending = [(self.game.hand_number, v) for v in self.misdeals_pending]
        return sorted(found + self.table_violations + pending, key=lambda hv: (hv[0], hv[1].trick or 0))

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
        if isinstance(obs, ConsoleAction):
            return self._check_console(obs)
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
        self._out = []
        self._advance(obs.t)
        try:
            if isinstance(obs, ConsoleAction):
                self._console(obs, oid)
            elif isinstance(obs, SensorState):
                self.sensors[obs.source] = obs.state
            else:
                self.seen_sources.add(obs.source)
                self._sensor(obs, oid)
            self._advance(obs.t)
        except RecordError as exc:
            self._out.append(Output("rejected", {"obs": oid, "reason": str(exc)}))
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

    def undo(self, t: float, by: str = "", reason: str = "") -> list[Output]:
        return self.submit(ConsoleAction(t=t, action="undo", by=by, reason=reason))

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

    # -- hand bookkeeping -----------------------------------------------------------
    def _new_hand(self) -> None:
        self.arrivals: list[tuple[float, Seat, Card, Optional[str], int]] = []
        self.in_hand: dict[Card, Seat] = {}
        self.in_deal: dict[Card, int] = {}
        self.items: list[_Item] = []
        self.hand_off: dict[Card, tuple[Seat, int, float]] = {}
        self.back_in_hand: dict[Card, float] = {}                # card -> when it came back to the hand
        self.gone_cards: set[Card] = set()                       # trick cards seen leaving their zone
        self.early_pile: dict[Card, tuple[str, int]] = {}        # pile reads before their trick was complete
        self.played: dict[Card, tuple[int, Seat, int]] = {}      # card -> (trick, seat, event n)
        self.says: dict[Seat, int] = {}
        self.pending_say: dict[Seat, bool] = {}
        self.trick_done: Optional[dict[str, Any]] = None        # the complete trick awaiting its pickup
        self.closed = False
        self.gather_asked = False

    @property
    def hand_number(self) -> int:
        return self.game.hand_number

    def _blocked(self) -> bool:
        return bool(self._blocking)

    def _write(self, event: dict[str, Any]) -> list[Violation]:
        """Append a game event to the record and report what it changed.

        The table's own findings are fields of the record's events, so that a
        replayed or imported record gives them back: a ``misdeal`` on the
        correction that voids a deal, a ``pickup`` on a trick's last play."""
        hand = self.game.hand_number
        results = len(self.game.results)
        winner = None
        if event.get("pickup") and event["type"] == "play" and self.game.play is not None:
            after = self.game.play.copy()
            after.play(parse_card(event["card"]))
            winners = after.winners
            winner = winners[-1] if winners else None
            trick = len(winners)
        found = self.game.apply(event)
        if event["type"] == "play" and event.get("evidence"):
            self._evidence.setdefault((hand, parse_card(event["card"])), tuple(event["evidence"]))
        n = len(self.game.events)
        self._out.append(Output("event", {"n": n, "event": event}))
        for v in found:
            v = self._with_evidence(hand, v)
            self._out.append(Output("violation", {"hand": hand, **v.as_dict()}))
        if event["type"] == "correction" and results:
            self._out.append(Output("rescored", {"hands": [r.details() for r in self.game.results],
                                                 "totals": {"NS": self.game.totals[0], "EW": self.game.totals[1]}}))
        if event["type"] == "correction" and event.get("misdeal"):
            self._table_violation(hand, _misdeal_violation(event["misdeal"]))
        for m in event.get("misdeals", ()) if event["type"] == "deal" else ():
            self.table_violations.append((hand, _misdeal_violation(m)))    # reported when it happened
        if winner is not None and event["pickup"]["pile"] != TEAM_NAMES[team_of(winner)]:
            pile = event["pickup"]["pile"]
            self._table_violation(hand, Violation(
                "wrong-pickup", TEAM_NAMES.index(pile),
                f"trick {trick} went to {pile}'s pile, but {SEAT_NAMES[winner]} ({TEAM_NAMES[team_of(winner)]}) "
                f"won it", trick=trick, evidence=tuple(event["pickup"].get("evidence", ())),
                params=(("pile", pile), ("winner", SEAT_NAMES[winner]))))
        for result in self.game.results[results:]:
            self._out.append(Output("score", {"hand": result.details(),
                                              "totals": {"NS": self.game.totals[0], "EW": self.game.totals[1]},
                                              "winner": TEAM_NAMES[self.game.winner]
                                              if self.game.winner is not None else None}))
            self._hand_over()
        return found

    def _hand_over(self) -> None:
        self.dealer = self.game.next_dealer
        self.mode = "idle"
        self._new_hand()

    def _table_violation(self, hand: int, v: Violation) -> None:
        self.table_violations.append((hand, v))
        self._out.append(Output("violation", {"hand": hand, **v.as_dict()}))

    def _conflict(self, kind: str, message: str, hand: Optional[int] = None, **kw: Any) -> Conflict:
        c = Conflict(id=len(self.conflicts) + 1, kind=kind, message=message,
                     hand=self.game.hand_number if hand is None else hand, **kw)
        self.conflicts.append(c)
        if c.blocking:
            self._blocking.add(c.id)
        self._out.append(Output("conflict", c.as_dict()))
        return c

    def _settle_conflict(self, c: Conflict, status: str, how: str) -> None:
        c.status = status
        self._blocking.discard(c.id)
        self._out.append(Output("resolved", {"id": c.id, "status": status, "how": how}))

    # -- the console ----------------------------------------------------------------
    def _check_console(self, a: ConsoleAction) -> Optional[str]:
        if a.action in ("start", "call", "belote", "declare", "penalty") and a.seat is None:
            return f"console {a.action}: say which seat (N, E, S or W)"
        if a.action == "call" and not a.call:
            return "console call: give the call (pass, 80h, counter...)"
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

    def _console(self, a: ConsoleAction, oid: int) -> None:
        why = {"by": a.by} if a.by else {}
        if a.reason:
            why["reason_text"] = a.reason
        if a.action == "start":
            self.dealer = a.seat
        elif a.action == "call":
            self._close_deal(a.t)
            self._queue.append({"type": "call", "seat": SEAT_NAMES[a.seat], "call": a.call, "obs": oid})
        elif a.action == "declare":
            self._queue.append({"type": "declare", "seat": SEAT_NAMES[a.seat],
                                "cards": [card_name(c) for c in a.cards], "obs": oid})
        elif a.action == "belote":
            self._belote(a.seat)
        elif a.action == "turned":
            self.in_deal = {a.cards[0]: oid}
        elif a.action in ("confirm", "dismiss", "resolve"):
            self._answer(self.conflicts[a.ref - 1], a, why)
        elif a.action == "replace":
            old = self.game.events[a.ref - 1]
            self._correct(a.ref, {**old, "card": card_name(a.cards[0])}, "misread", why)
        elif a.action == "undo":
            events = self.game.events
            undone = {e["ref"] for e in events if e["type"] == "correction" and e.get("replace") is None}
            ref = next((n for n in range(len(events), 1, -1)
                        if events[n - 1]["type"] != "correction" and n not in undone), None)
            if ref is None:
                raise RecordError("console undo: every game event is already undone")
            self._correct(ref, None, a.reason or "undo", why)
        elif a.action == "penalty":
            # DESIGN's penalty shape: ``reason`` is the sheet's text (the console's, else the rule).
            self._queue.append({"type": "penalty", "seat": SEAT_NAMES[a.seat], "rule": a.rule or "",
                                "reason": a.reason or a.rule or "penalty", "obs": oid,
                                **({"by": a.by} if a.by else {})})
        elif a.action == "tally":
            # Only the tally's own fields go into the record (the engine checks them).
            fields = {k: a.result[k] for k in ("card_points", "belote", "capot") if k in a.result}
            self._queue.append({"type": "tally", **fields, "obs": oid})
        elif a.action == "redeal":
            self._misdeal(f"the referee called a redeal{': ' + a.reason if a.reason else ''}", (oid,), "redeal")

    def _flush_queue(self) -> None:
        """Write the console's calls, declarations and penalties that waited for the deal."""
        while self._queue and not self._blocked() and self.mode != "deal" and self.trick_done is None:
            event = self._queue.pop(0)
            if event["type"] == "call" and self.mode == "idle":
                self._write_deal(None, ())
                if self.mode == "turned":             # the turned card is asked first
                    self._queue.insert(0, event)
                    return
            try:
                self._write(event)
            except RecordError as exc:
                self._out.append(Output("rejected", {"obs": event["obs"], "reason": str(exc)}))
                continue
            if event["type"] == "call" and self.game.phase == "play":
                # Classic belote: the second round of the deal comes after the take (seed 004).
                classic = self.options.auction == "classic" and self.arrivals
                self.mode = "deal2" if classic else "play"

    def _correct(self, ref: int, replacement: Optional[dict], reason: str, why: dict) -> None:
        self._write({"type": "correction", "ref": ref, "reason": reason, "replace": replacement, **why})
        if replacement and replacement.get("type") == "play":
            for key in [k for k, n in self._camera_only.items() if n == ref]:
                del self._camera_only[key]

    def _answer(self, c: Conflict, a: ConsoleAction, why: dict) -> None:
        card = a.cards[0] if a.cards else None
        if c.kind == "turned":
            if card is None:
                raise RecordError(f"conflict {c.id}: name the turned card (resolve)")
            self._settle_conflict(c, "resolved", a.action)
            self.in_deal = {card: c.evidence[0] if c.evidence else 0}
            self.in_hand.pop(card, None)
            self._write_deal(*c.item)
            return
        if c.kind == "gathered":
            self._settle_conflict(c, "confirmed" if a.action == "confirm" else "dismissed", a.action)
            if a.action == "confirm":
                self._misdeal("the referee confirmed a misdeal: " + c.message, c.evidence, "confirmed")
            return
        if c.kind == "deal":
            self._settle_conflict(c, "confirmed" if a.action == "confirm" else "dismissed", a.action)
            if a.action == "confirm":
                self._misdeal("the referee confirmed a misdeal: " + c.message, c.evidence, "confirmed")
            else:
                self._write_deal(c.item, c.evidence)
            return
        if c.kind == "out-of-turn":
            self._settle_conflict(c, "confirmed" if a.action == "confirm" else "dismissed", a.action)
            item = c.item
            item.conflict = None
            if a.action == "resolve":             # out of turn, and the card was another one
                item.card_override = card
            if a.action in ("confirm", "resolve"):
                self._write_out_of_turn(item)
            else:
                item.early = True
            return
        if a.action == "confirm":
            chosen = c.proposal
        elif a.action == "dismiss":
            chosen = c.alternative
        else:
            chosen = card
        if chosen is None:
            raise RecordError(f"conflict {c.id}: name the card that was played (resolve)")
        if c.item is not None:                    # a card still on the table
            c.item.card_override = chosen
            c.item.conflict = None
        elif c.ref is not None:                   # a play already recorded (a refused correction raises)
            old = self.game.events[c.ref - 1]
            before = parse_card(old["card"])
            if chosen != before:
                self._correct(c.ref, {**old, "card": card_name(chosen)}, "misread", why)
                if c.hand == self.game.hand_number and before in self.played:
                    # The real card is recorded now: the old one is still to play, and
                    # readings of the real one still waiting in a zone are that same card.
                    self.played[chosen] = self.played.pop(before)
                    self.items = [i for i in self.items if i.conflict is not None or chosen not in (i.rfid, i.cam)]
            self._camera_only.pop((c.hand, before), None)
        self._settle_conflict(c, {"confirm": "confirmed", "dismiss": "dismissed"}.get(a.action, "resolved"),
                              a.action)

    def _belote(self, seat: Seat) -> None:
        """Attach "belote"/"rebelote" to ``seat``'s card being played: a trump king or queen on
        the table or just played when there is one (the sensors may hold other readings of that
        seat), else its card on the table, else its next card."""
        word = "rebelote" if self.says.get(seat) else "belote"
        mine = [i for i in self.items if i.seat == seat and i.say is None]
        last = max(((n, card) for card, (_, s, n) in self.played.items() if s == seat and n), default=None)
        pair = [i for i in mine if self._belote_card(i.card)]
        if not pair and last and self._belote_card(last[1]) and "say" not in self.game.events[last[0] - 1]:
            self.says[seat] = self.says.get(seat, 0) + 1
            old = self.game.events[last[0] - 1]
            self._correct(last[0], {**old, "say": word}, "belote said", {})
            return
        if pair or (mine and not self._has_belote()):
            (pair or mine)[0].say = word               # without trumps, the engine will say why it is wrong
            self.says[seat] = self.says.get(seat, 0) + 1
            return
        self.pending_say[seat] = True

    def _has_belote(self) -> bool:
        play = self.game.play
        return play is not None and play.trump != NO_TRUMP

    def _belote_card(self, card: Optional[Card]) -> bool:
        play = self.game.play
        if card is None or play is None or rank_of(card) not in (KING, QUEEN):
            return False
        return play.trump == ALL_TRUMP or suit_of(card) == play.trump

    # -- sensors ------------------------------------------------------------------
    def _sensor(self, obs: Observation, oid: int) -> None:
        zone = obs.zone
        if zone is None:
            return
        kind, seat = _ZONES[zone]
        if kind == "hand":
            if isinstance(obs, CardSeen) and obs.card is not None:
                self._hand_seen(obs, seat, oid)
            elif isinstance(obs, CardGone) and obs.card is not None:
                self._hand_gone(obs, seat, oid)
        elif zone == "deal":
            if isinstance(obs, CardSeen) and obs.card is not None and self.mode in ("idle", "deal"):
                self.in_deal[obs.card] = oid
            elif isinstance(obs, CardGone) and obs.card is not None:
                self.in_deal.pop(obs.card, None)
        elif kind == "play":
            if self.mode in ("deal", "deal2"):
                self._close_deal(obs.t)
            if self.mode != "play":
                return
            if isinstance(obs, CardSeen):
                self._play_seen(obs, seat, oid)
            elif isinstance(obs, CardGone):
                self._play_gone(obs.source, seat, obs.card, obs.t, oid)
            elif isinstance(obs, ZoneCleared):
                self._play_gone(obs.source, seat, None, obs.t, oid)
        elif kind == "pile" and isinstance(obs, CardSeen) and obs.card is not None:
            self._pile(obs, TEAM_NAMES[seat], oid)

    # -- the deal -----------------------------------------------------------------
    def _hand_seen(self, obs: CardSeen, seat: Seat, oid: int) -> None:
        if self.mode == "deal2":                      # classic: the second round of the deal
            self.in_hand[obs.card] = seat
            self.arrivals.append((obs.t, seat, obs.card, obs.uid, oid))
            if len(self.in_hand) == 32:
                self._close_deal(obs.t)
            return
        if self.mode == "play":                       # a card shown and taken back into the hand
            self.hand_off.pop(obs.card, None)
            self.back_in_hand[obs.card] = obs.t
            done = self.trick_done
            if done is not None and done["card"] == obs.card and done["seat"] == seat:
                # The trick's last card, not yet written, is back in its player's hand: it was
                # shown and taken back (its leaving the zone read late); the real card is still to come.
                self.trick_done = None
                self.played.pop(obs.card, None)
                self._out.append(Output("notice", {"message": f"{pretty(obs.card)} was shown and taken back "
                                                   f"into {SEAT_NAMES[seat]}'s hand"}))
                return
            for item in [i for i in self.items if i.card == obs.card and i.conflict is None]:
                self.items.remove(item)
                self._out.append(Output("notice", {"message": f"{pretty(obs.card)} was shown and taken back "
                                                   f"into {SEAT_NAMES[seat]}'s hand"}))
            trick, by, n = self.played.get(obs.card, (0, -1, 0))
            play = self.game.play
            if by == seat and n and (trick == play.trick_number or (trick == play.trick_number - 1 and not play.trick)):
                # Recorded as played, yet back in the hand: it was taken back after all (late reads).
                self._conflict("card-unknown", f"{pretty(obs.card)}, recorded as {SEAT_NAMES[seat]}'s card at "
                               f"trick {trick}, went back into {SEAT_NAMES[seat]}'s hand: which card did "
                               f"{SEAT_NAMES[seat]} play?", trick=trick, seat=seat, blocking=True, ref=n,
                               evidence=(oid,), proposal=obs.card)
            return
        if self.mode == "idle" and self.dealer is not None and not self._blocked():
            self.mode = "deal"
        if self.mode != "deal":
            return
        if self.in_hand.get(obs.card) == seat and any(a[2] == obs.card and a[3] == obs.uid for a in self.arrivals):
            return                                    # a duplicate read
        self.in_hand[obs.card] = seat
        self.arrivals.append((obs.t, seat, obs.card, obs.uid, oid))
        if len({a[2] for a in self.arrivals}) == 32 and len(self.in_hand) == 32 and not self.in_deal:
            self._close_deal(obs.t)

    def _hand_gone(self, obs: CardGone, seat: Seat, oid: int) -> None:
        if self.mode in ("deal", "deal2"):
            self._close_deal(obs.t)
        if self.mode == "auction" and not self.game.auction.calls and not self.gather_asked:
            self.gather_asked = True
            self._conflict("gathered", "the cards are being gathered before the auction: was it a misdeal? "
                           "(confirm to redeal, dismiss to play on)", seat=self.dealer, evidence=(oid,),
                           blocking=True)
        elif self.mode == "play":
            back = self.back_in_hand.get(obs.card)
            if back is not None and obs.t - back < STALE_READ:
                return                                # a late read of the card leaving before it came back
            self.back_in_hand.pop(obs.card, None)
            self.hand_off[obs.card] = (seat, oid, obs.t)
            if obs.card in self.played:
                return
            for item in self.items:
                if item.card == obs.card or (item.rfid is None and item.zone == seat and item.origin is None
                                             and abs(item.t - obs.t) < 1.5 and item.cam_seen):
                    item.origin = seat
                    if item.rfid is None:
                        item.rfid = obs.card
                    item.oids.append(oid)
                    return
            # The card left the hand: it is on its way to the play zone, whatever the zone's sensors say.
            self.items.append(_Item(zone=seat, t=obs.t, rfid=obs.card, origin=seat, oids=[oid], zone_seen=False))

    def _close_deal(self, t: float) -> None:
        if self.mode == "deal2":
            self._close_second_round()
            return
        if self.mode != "deal" or self.closed:
            return
        self.closed = True
        problems, doubts, hands = self._judge_deal()
        evidence = tuple(a[4] for a in self.arrivals[:1]) + tuple(sorted(self.in_deal.values()))[:3]
        if problems:
            self._misdeal("; ".join(problems), evidence, "deal")
        elif doubts:
            c = self._conflict("deal", "; ".join(doubts) + ": misdeal? (confirm to redeal, dismiss to play on)",
                               blocking=True, evidence=evidence, seat=self.dealer)
            c.item = hands
        else:
            self._write_deal(hands, evidence)

    def _judge_deal(self) -> tuple[list[str], list[str], Optional[list[int]]]:
        """Certain faults of the deal, doubtful ones, and the hands where they are known."""
        problems, doubts = [], []
        uids: dict[Card, set] = {}
        per_seat: list[list[tuple[float, Card]]] = [[], [], [], []]
        for t, seat, card, uid, _ in self.arrivals:
            uids.setdefault(card, set()).add(uid)
        for card, seat in self.in_hand.items():
            t = next(a[0] for a in self.arrivals if a[2] == card and a[1] == seat)
            per_seat[seat].append((t, card))
        for card, tags in uids.items():
            if len(tags) > 1:
                problems.append(f"two tags read as {pretty(card)}: the deck has a duplicate card")
        classic = self.options.auction == "classic"   # 5 cards each, then the turned card (seed 004)
        left = [c for c in self.in_deal if c not in self.in_hand]
        if classic and len(left) > 1:
            problems.append(f"{len(left)} cards face up in the dealing area: turn one card")
        for card in [] if classic else left:
            problems.append(f"{pretty(card)} was left in the dealing area")
        counts = [len(s) for s in per_seat]
        full_hand = 5 if classic else 8
        unseen = 4 * full_hand - len(self.in_hand)
        packets: list[list[tuple[float, int]]] = []
        for seat in range(4):
            times = sorted(t for t, _ in per_seat[seat])
            runs: list[tuple[float, int]] = []
            for t in times:
                if runs and t - runs[-1][2] <= PACKET_GAP:
                    runs[-1] = (runs[-1][0], runs[-1][1] + 1, t)
                else:
                    runs.append((t, 1, t))
            packets.append([(start, n) for start, n, _ in runs])
        for seat in range(4):
            name = SEAT_NAMES[seat]
            if counts[seat] > full_hand:
                problems.append(f"{name} was dealt {counts[seat]} cards")
            if any(n >= 4 for _, n in packets[seat]):
                problems.append(f"{name} got a packet of {max(n for _, n in packets[seat])} cards")
        full = [s for s in range(4) if counts[s] == full_hand]
        patterns = {tuple(n for _, n in packets[s]) for s in full}
        allowed = ((3, 2), (2, 3)) if classic else ALLOWED_PACKETS
        for p in patterns:
            if p not in allowed:
                problems.append(f"packets of {'-'.join(map(str, p))}: deal "
                                f"{' or '.join('-'.join(map(str, a)) for a in allowed)}")
        if len(patterns) > 1 and all(p in allowed for p in patterns):
            problems.append("the players did not get packets of the same size in each round")
        if self.dealer is not None and self.arrivals:
            order = turn_order(next_seat(self.dealer, self.options.clockwise), self.options.clockwise)
            rounds = min(len(packets[s]) for s in range(4)) if all(packets) else 0
            for r in range(rounds):
                starts = sorted(range(4), key=lambda s: packets[s][r][0])
                if starts != order and all(len(packets[s]) == len(packets[0]) for s in range(4)):
                    # With reads missing, a late read may open a packet: a question, not a fact.
                    (doubts if unseen else problems).append(f"round {r + 1} of the deal went {' '.join(SEAT_NAMES[s] for s in starts)}, "
                                    f"not {' '.join(SEAT_NAMES[s] for s in order)} from the dealer's right")
                    break
        short = [s for s in range(4) if counts[s] < full_hand]
        explained = len(short) == 1 and counts[short[0]] + unseen == full_hand   # it holds what was not read
        if not problems and short and self.arrivals and not explained:
            doubts.append(", ".join(f"{SEAT_NAMES[s]} {counts[s]} cards" for s in short)
                          + f" seen, {unseen} card{'s' if unseen != 1 else ''} not read")
        hands = None
        if self.arrivals and not problems and not classic:      # classic: 3 more cards come after the auction
            masks = [mask_of(c for _, c in per_seat[s]) for s in range(4)]
            if not short:
                hands = masks
            elif explained:
                masks[short[0]] |= ((1 << 32) - 1) & ~mask_of(self.in_hand)   # it holds what nobody saw
                hands = masks
        return problems, doubts, hands

    def _close_second_round(self) -> None:
        """Classic belote: the hands are whole once the second round is dealt (the taker's with the
        turned card). Where the antennas saw them, the deal is corrected with them so that each play
        is checked live; otherwise each hand is audited at its end. The engine says whether the
        turned card went to the taker."""
        self.mode = "play"
        masks = [0, 0, 0, 0]
        for card, seat in self.in_hand.items():
            masks[seat] |= 1 << card
        counts = [bin(m).count("1") for m in masks]
        short = [s for s in range(4) if counts[s] < 8]
        unseen = 32 - len(self.in_hand)
        if any(c > 8 for c in counts) or len(short) > 1 or (short and counts[short[0]] + unseen != 8):
            return                                    # not seen well enough to name the hands
        if short:
            masks[short[0]] |= ((1 << 32) - 1) & ~mask_of(self.in_hand)   # it holds what nobody saw
        ref = next(n for n in range(len(self.game.events), 1, -1) if self.game.events[n - 1]["type"] == "deal")
        deal = self.game.events[ref - 1]
        hands = {SEAT_NAMES[s]: [card_name(c) for c in iter_cards(masks[s])] for s in range(4)}
        self._correct(ref, {**deal, "hands": hands}, "second round of the deal", {})

    def _deal_event(self, hands: Optional[list[int]], evidence: tuple) -> dict[str, Any]:
        if self.dealer is None:
            raise RecordError("the first dealer is not known: the console says who deals (start)")
        event: dict[str, Any] = {"type": "deal", "dealer": SEAT_NAMES[self.dealer]}
        if self.options.auction == "classic":
            turned = [c for c in self.in_deal if c not in self.in_hand]
            if len(turned) != 1:
                raise RecordError("the turned card was not seen in the dealing area: enter it at the console "
                                  "(turned), then the calls")
            event["turned"] = card_name(turned[0])
        if hands is not None:
            event["hands"] = {SEAT_NAMES[s]: [card_name(c) for c in iter_cards(hands[s])] for s in range(4)}
        if evidence:
            event["evidence"] = list(evidence)
        if self.misdeals_pending:
            event["misdeals"] = [v.as_dict() for v in self.misdeals_pending]
        return event

    def _write_deal(self, hands: Optional[list[int]], evidence: tuple) -> None:
        if self.options.auction == "classic" and self.dealer is not None and \
                len([c for c in self.in_deal if c not in self.in_hand]) != 1:
            # The dealing area did not read the turned card: the auction cannot be checked without it.
            c = self._conflict("turned", "the turned card was not read in the dealing area: which card "
                               "is turned up?", seat=self.dealer, blocking=True, evidence=evidence)
            c.item = (hands, evidence)
            self.mode = "turned"
            self.closed = True
            return
        self._write(self._deal_event(hands, evidence))
        self.misdeals_pending = []
        self.mode = "auction"
        self.closed = True

    def _misdeal(self, message: str, evidence: tuple, reason: str) -> None:
        """Void the deal. A spoilt deal that never reached the record is named on its redeal's
        ``deal`` event (``misdeals``); one already recorded is undone by a correction. Its params
        hold only the ``reason`` (``deal``: the sensors judged it; ``confirmed``; ``redeal``):
        the message may name cards in a hand, which the room must not see."""
        dealer = self.dealer if self.dealer is not None else 0
        v = Violation("misdeal", dealer, f"misdeal by {SEAT_NAMES[dealer]}: {message}; the same dealer deals again",
                      evidence=tuple(evidence), params=(("reason", reason),))
        if self.game.phase == "deal":
            self.misdeals_pending.append(v)
            self._out.append(Output("violation", {"hand": self.game.hand_number, **v.as_dict()}))
        else:
            ref = next(n for n in range(len(self.game.events), 1, -1)
                       if self.game.events[n - 1]["type"] == "deal")
            self._write({"type": "correction", "ref": ref, "reason": "misdeal", "replace": None,
                         "misdeal": v.as_dict()})
        self.mode = "idle"
        self._new_hand()

    # -- the play -------------------------------------------------------------------
    def _play_seen(self, obs: CardSeen, zone: Seat, oid: int) -> None:
        card = obs.card
        camera = obs.source == "camera"
        play = self.game.play
        if not camera and card in self.back_in_hand and obs.t - self.back_in_hand[card] < STALE_READ:
            return                                    # a late read of a card already back in its hand
        if card is not None and card in self.played:
            trick, seat, _ = self.played[card]
            if not camera:
                self._late_rfid(card)                 # RFID does not misread: a late or moved tag
                return
            if (trick == play.trick_number or self.trick_done is not None) and \
                    (seat == zone or card in self.gone_cards):
                return                                # seen again where it lies, or moved
            # else: the camera misread this player's card as one already played (a question, below)
        for item in self.items:                       # the same card seen again
            if card is not None and card == (item.cam if camera else item.rfid):
                if not item.zone_seen:                # seen leaving the hand, now seen in the zone
                    item.zone_seen = True
                    item.oids.append(oid)
                return
        target = None
        here = [i for i in sorted(self.items, key=lambda i: i.t)
                if i.zone == zone and i.conflict is None and not i.early and not i.closed]
        if card is not None:                          # the same card from the other sensor
            target = next((i for i in here if (i.rfid if camera else i.cam) == card), None)
        for item in [] if target is not None else here:
            if camera:
                # One card per zone and trick: a second look at the zone refines the first.
                if item.cam_seen and not (card is not None and (item.cam is None or obs.confidence > item.conf)):
                    return
                target = item
                break
            if item.rfid is None:
                target = item
                break
        if target is None:
            target = _Item(zone=zone, t=obs.t)
            self.items.append(target)
        target.zone_seen = True
        if camera:
            target.cam_seen, target.cam, target.conf = True, card, obs.confidence
            target.frame = obs.evidence.get("frame")
        else:
            target.rfid = card
        if card is not None and target.origin is None and (not camera or target.rfid is None):
            off = self.hand_off.get(card) if card not in self.played else None
            if off is not None:
                target.origin = off[0]
                target.rfid = card
                target.oids.append(off[1])
        target.oids.append(oid)

    def _late_rfid(self, card: Card) -> None:
        """An RFID read of a card already recorded confirms the camera's reading."""
        self._camera_only.pop((self.game.hand_number, card), None)

    def _play_gone(self, source: str, zone: Seat, card: Optional[Card], t: float, oid: int) -> None:
        """A card (or every card: ``card`` None) left a play zone: a pickup, a knock or a take-back."""
        play = self.game.play
        on_table = set(play.trick) | (self.trick_done["cards"] if self.trick_done else set())
        if source == "rfid" and card is not None and card not in on_table and card not in self.played and \
                not any(card in (i.cam, i.rfid) for i in self.items) and card not in self.back_in_hand:
            # A tag leaving a play zone that no sensor saw arrive: it was played there, in turn.
            before = min([i.t for i in self.items if not i.early], default=t) - 1e-3
            self.items.append(_Item(zone=zone, t=before, rfid=card, oids=[oid], unseen_at=True))
        if card is not None and (card in on_table or any(card in (i.cam, i.rfid) for i in self.items)):
            self.gone_cards.add(card)                 # a card of this trick (not a late read of the last one)
        here = on_table | {c for i in self.items for c in (i.cam, i.rfid) if c is not None}
        pickup = (card is None and (on_table or self.items)) or len(self.gone_cards & here) >= 2
        if pickup:
            for item in self.items:
                item.gone_t = None                    # picked up with the trick, not taken back
                item.closed = True                    # a later card in its zone is another card
        if card is None or card in on_table or pickup:
            if not pickup:
                return                                # one card moved (knocked): it stays the play it was
            if self.trick_done is not None:
                self.trick_done.setdefault("cleared", t)
            elif play.trick or any(not i.early for i in self.items):
                self._missing_play(t)
            return
        for item in self.items:                       # maybe taken back: decided once the pickup is ruled out
            if item.zone == zone and card == (item.cam if source == "camera" else item.rfid) \
                    and item.conflict is None and not item.early:
                item.gone_t = t

    def _missing_play(self, t: float) -> None:
        """The trick is being picked up but the player to play has no card: nobody saw it."""
        play = self.game.play
        seat = play.to_play
        if any(i.seat == seat for i in self.items) or self._blocked():
            return
        # It was put down in turn, before the cards that followed it (they are not out of turn).
        item = _Item(zone=seat, t=min([i.t for i in self.items if not i.early], default=t) - 1e-3, unseen_at=True)
        self.items.append(item)
        c = self._conflict("card-unknown", f"trick {play.trick_number} is being picked up but no sensor saw "
                           f"{SEAT_NAMES[seat]}'s card: which card?", trick=play.trick_number, seat=seat,
                           blocking=True)
        c.item = item
        item.conflict = c.id

    def _pile(self, obs: CardSeen, where: str, oid: int) -> None:
        done = self.trick_done
        if done is None:
            play = self.game.play
            if play is not None and (obs.card in play.trick or any(obs.card in (i.cam, i.rfid) for i in self.items)):
                self.early_pile.setdefault(obs.card, (where, oid))   # its trick's last play is not decided yet
            return
        if obs.card not in done["cards"] or done.get("pile"):
            return
        done["pile"] = where
        done["pile_obs"] = oid
        self._flush_trick()

    def _advance(self, now: float) -> None:
        """Decide everything the time ``now`` allows: plays that have settled, a trick picked up."""
        if not self.items and self.trick_done is None and not self._queue:
            return
        for item in [i for i in self.items if i.gone_t is not None and now >= i.gone_t + TAKEBACK_WAIT]:
            self.items.remove(item)
            self.gone_cards.discard(item.card)
            if item.card is not None:
                self.back_in_hand[item.card] = now       # late reads of it are stale for a moment
            self._out.append(Output("notice", {"message": f"{pretty(item.card) if item.card is not None else 'a card'}"
                                               f" was shown in {SEAT_NAMES[item.zone]}'s zone and taken back"}))
        self._pickup_due(now)
        while self.items and self.mode == "play" and self.trick_done is None and not self._blocking:
            if not self._step(now):
                break
        self._pickup_due(now)                         # a last card decided late (after a console answer)
        if self._queue and not self._blocking:
            self._flush_queue()

    def _pickup_due(self, now: float) -> None:
        """Write the complete trick once its pickup is seen, or time or a next card says it happened."""
        done = self.trick_done
        if done is None:
            return
        cleared = done.get("cleared")
        wait = PICKUP_WAIT if "rfid" in self.seen_sources else 0.0      # no pile antennas to wait for
        if (cleared is not None and now >= cleared + wait) or now >= done["t"] + 8.0 or \
                any(i.t > done["t"] + 0.1 and not i.early for i in self.items):
            self._flush_trick()

    def _origin_card(self, seat: Seat, t: float) -> Optional[Card]:
        """The card the RFID saw leave ``seat``'s hand around ``t`` (not yet played)."""
        best = None
        for card, (s, oid, tg) in self.hand_off.items():
            if s == seat and card not in self.played and abs(tg - t) < 1.5:
                if best is None or abs(tg - t) < abs(self.hand_off[best][2] - t):
                    best = card
        return best

    def _step(self, now: float) -> bool:
        """Commit the next play if it is settled; True when something was decided."""
        play = self.game.play
        if play is None or play.done:
            return False
        to_play = play.to_play
        live = [i for i in self.items if i.conflict is None and i.gone_t is None]
        # A card seen in the zone comes before one only seen leaving the hand (maybe a late read).
        mine = sorted((i for i in live if i.seat == to_play), key=lambda i: (not i.zone_seen, i.t))
        if not mine:
            return False
        item = mine[0]
        later = any(i.t > item.t and i.seat != to_play and not i.early for i in live)
        if not (now >= item.t + (SETTLE if item.zone_seen else SETTLE + RFID_WAIT) or later):
            return False
        trick = play.trick_number
        for other in sorted(live, key=lambda i: i.t):       # cards put down before this one, out of turn
            if other.t < item.t and other.seat != to_play and not other.early:
                if other.origin is not None:
                    self._write_out_of_turn(other)
                else:
                    c = self._conflict("out-of-turn", f"a card appeared in {SEAT_NAMES[other.zone]}'s zone before "
                                       f"{SEAT_NAMES[to_play]} played: did {SEAT_NAMES[other.zone]} play out "
                                       f"of turn?", trick=trick, seat=other.zone, blocking=True,
                                       evidence=tuple(other.oids), proposal=other.card)
                    c.item = other
                    other.conflict = c.id
                return True
        if item.unseen_at:
            # Nobody saw when this card was put down, so the cards already in the other zones
            # may have come before it: a question for the console (once), never an accusation.
            item.unseen_at = False
            first = min((i for i in live if i.seat != to_play and not i.early), key=lambda i: i.t, default=None)
            if first is not None:
                c = self._conflict("out-of-turn", f"nobody saw when {SEAT_NAMES[to_play]} put down its card: did "
                                   f"{SEAT_NAMES[first.seat]} play before {SEAT_NAMES[to_play]}, out of turn?",
                                   trick=trick, seat=first.seat, blocking=True, evidence=tuple(first.oids),
                                   proposal=first.card)
                c.item = first
                first.conflict = c.id
                return True
        rfid_on = "rfid" in self.seen_sources
        if item.rfid is None and item.card_override is None and rfid_on:
            found = self._origin_card(to_play, item.t)
            if found is not None:
                item.rfid, item.origin = found, to_play
                item.oids.append(self.hand_off[found][1])
            elif now < item.t + (RFID_WAIT if item.cam is not None else UNKNOWN_WAIT) and not later:
                return False
        card = item.card
        if card is None or (card in self.played and item.card_override is None):
            why = "no sensor could read it" if card is None else f"the camera read {pretty(card)}, already played"
            c = self._conflict("card-unknown", f"{SEAT_NAMES[to_play]} played a card at trick {trick} but {why}: "
                               f"which card?", trick=trick, seat=to_play, blocking=True, evidence=tuple(item.oids))
            c.item = item
            item.conflict = c.id
            return True
        if card in self.played and self._ask_about(self.played[card][1], only=card):
            return True                               # the earlier reading of this card is the suspect
        camera_only = item.rfid is None and item.card_override is None and rfid_on
        if camera_only:
            holder = self.in_hand.get(card)
            if holder is not None and holder != to_play:
                c = self._conflict("card-unknown", f"the camera read {pretty(card)} for {SEAT_NAMES[to_play]} but "
                                   f"the RFID saw it dealt to {SEAT_NAMES[holder]}: which card?", trick=trick,
                                   seat=to_play, blocking=True, evidence=tuple(item.oids), proposal=card)
                c.item = item
                item.conflict = c.id
                return True
        doubtful = camera_only or (not rfid_on and item.card_override is None)
        violates = self._would_violate(to_play, card)
        unsure = doubtful and not rfid_on and item.rfid is None and item.conf <= CAMERA_SURE   # a camera reading
        if doubtful and (violates or unsure):
            why = "it would be a violation" if violates else "the reading is not sure"
            c = self._conflict("camera-only", f"only the camera read {SEAT_NAMES[to_play]}'s card, {pretty(card)} "
                               f"({item.conf:.0%} sure), and {why}: confirm the card",
                               trick=trick, seat=to_play, blocking=True, evidence=tuple(item.oids), proposal=card)
            c.item = item
            item.conflict = c.id
            return True
        # A certain card that breaks a rule: the cards it is judged against (this trick's, the
        # led card above all) and the seat's own earlier ones must be right first.
        if violates and (self._ask_about(None, trick=trick) or self._ask_about(to_play)):
            return True
        if trick == 8 and len(play.trick) == 3 and play.hand(0) is None and self._doubt_before_audit(card):
            return True
        self._commit(item, to_play, doubtful)
        return True

    def _would_violate(self, seat: Seat, card: Card) -> bool:
        play = self.game.play
        if play.hand(seat) is None:
            return False
        return play.copy().play(card) is not None

    def _doubt_before_violation(self, seat: Seat, card: Card) -> bool:
        """Before a certain play that breaks a rule, make sure the seat's earlier cards only the
        camera saw are right (the violation may come from one of them)."""
        if not self._would_violate(seat, card):
            return False
        return self._ask_about(seat)

    def _doubt_before_audit(self, card: Card) -> bool:
        play = self.game.play
        plays = [c for t in play.tricks for c in t.cards] + play.trick + [card]
        leader = next_seat(self.game.dealer, self.options.clockwise)
        seats = {v.seat for v in audit(play.trump, leader, plays, self.options)}
        return any(self._ask_about(s) for s in sorted(seats))

    def _ask_about(self, seat: Optional[Seat], only: Optional[Card] = None, trick: Optional[int] = None) -> bool:
        """Raise a question on each of ``seat``'s recorded cards only the camera saw (or on ``only``;
        with ``trick``, on every such card of that trick, whoever played it)."""
        hand = self.game.hand_number
        asked = False
        for (h, card), n in sorted(self._camera_only.items(), key=lambda kv: kv[1]):
            by = self.played.get(card, (0, -1))
            if h != hand or only not in (None, card) or \
                    (by[0] != trick if trick is not None else by[1] != seat):
                continue
            if any(c.ref == n and c.status == "open" for c in self.conflicts):
                asked = True
                continue
            self._conflict("camera-only", f"only the camera read {SEAT_NAMES[by[1]]}'s card at trick {by[0]}, "
                           f"{pretty(card)}, and a violation depends on it: confirm the card",
                           trick=by[0], seat=by[1], blocking=True, proposal=card, ref=n,
                           evidence=self._evidence.get((h, card), ()))
            asked = True
        return asked

    def _commit(self, item: _Item, seat: Seat, camera_only: bool) -> None:
        play = self.game.play
        card = item.card
        hand = self.game.hand_number
        trick = play.trick_number
        event: dict[str, Any] = {"type": "play", "seat": SEAT_NAMES[seat], "card": card_name(card)}
        if item.say:
            event["say"] = item.say
        elif self.pending_say.get(seat) and self._belote_card(card):    # said before the card was read
            event["say"] = "rebelote" if self.says.get(seat) else "belote"
            self.says[seat] = self.says.get(seat, 0) + 1
            del self.pending_say[seat]
        evidence = tuple(item.oids) + ((item.frame,) if item.frame else ())
        event["evidence"] = list(evidence)
        if camera_only:
            event["sources"] = ["camera"]
        self.items.remove(item)
        for other in [i for i in self.items if i.conflict is None and not i.early and
                      (i.card == card or (i.seat == seat and not i.zone_seen))]:
            self.items.remove(other)                  # the same card seen twice, or a stale hand read
            if other.say and "say" not in event:
                event["say"] = other.say              # "belote" was said over the other reading
        self.hand_off.pop(card, None)
        mismatch = item.cam_seen and item.cam is not None and item.rfid is not None and item.cam != item.rfid \
            and item.card_override is None
        last = len(play.trick) == 3
        if last:
            self.trick_done = {"event": event, "cards": set(play.trick) | {card}, "t": item.t, "trick": trick,
                               "seat": seat, "card": card, "camera_only": camera_only,
                               "mismatch": (item.cam, item.rfid) if mismatch else None, "oids": item.oids}
            self.played[card] = (trick, seat, 0)
            seen = [self.early_pile[c] for c in self.trick_done["cards"] if c in self.early_pile]
            if seen:
                self.trick_done["pile"], self.trick_done["pile_obs"] = min(seen, key=lambda p: p[1])
                self._flush_trick()
            return
        n = len(self.game.events) + 1
        self.played[card] = (trick, seat, n)
        self._write(event)
        self._after_play(hand, trick, seat, card, n, camera_only, (item.cam, item.rfid) if mismatch else None,
                         item.oids)

    def _after_play(self, hand: int, trick: int, seat: Seat, card: Card, n: int, camera_only: bool,
                    mismatch: Optional[tuple], oids) -> None:
        if camera_only:
            self._camera_only[(hand, card)] = n
        if mismatch:
            self._conflict("card-mismatch", f"the camera read {pretty(mismatch[0])} but the RFID read "
                           f"{pretty(mismatch[1])} for {SEAT_NAMES[seat]}'s card at trick {trick}: "
                           f"the RFID's is recorded", hand=hand, trick=trick, seat=seat, proposal=mismatch[1],
                           alternative=mismatch[0], ref=n, evidence=tuple(oids))

    def _flush_trick(self) -> None:
        """Write the trick's last play, with who picked the trick up."""
        done, self.trick_done = self.trick_done, None
        if done is None:
            return
        self.items = [i for i in self.items if i.early or i.conflict is not None or i.t > done["t"]]
        self.gone_cards = set()
        hand = self.game.hand_number
        event = done["event"]
        if done.get("pile"):
            pile = done["pile"]
            event["pickup"] = {"pile": pile, "evidence": [done["pile_obs"]]}
        n = len(self.game.events) + 1
        self.played[done["card"]] = (done["trick"], done["seat"], n)
        self._write(event)
        self._after_play(hand, done["trick"], done["seat"], done["card"], n, done["camera_only"],
                         done["mismatch"], done["oids"])

    def _write_out_of_turn(self, item: _Item) -> None:
        card = item.card
        if card is None:
            item.early = True
            return
        evidence = tuple(item.oids) + ((item.frame,) if item.frame else ())
        self._write({"type": "play", "seat": SEAT_NAMES[item.seat], "card": card_name(card),
                     "evidence": list(evidence)})
        item.early = True

    # -- the screen -------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        state = self.game.to_json()
        state["table"] = {"mode": self.mode, "dealer": SEAT_NAMES[self.dealer] if self.dealer is not None else None,
                          "observations": self.n_obs}
        state["violations"] = [{"hand": h, **v.as_dict()} for h, v in self.violations()]
        state["conflicts"] = [c.as_dict() for c in self.conflicts]
        state["open_conflicts"] = [c.id for c in self.conflicts if c.status == "open"]
        state["zones"] = [{"zone": f"play:{SEAT_NAMES[i.zone]}",
                           "card": card_name(i.card) if i.card is not None else None,
                           "early": i.early} for i in self.items]
        state["sensors"] = dict(self.sensors)
        return state


def _misdeal_violation(data: dict[str, Any]) -> Violation:
    return Violation("misdeal", parse_seat(data["seat"]), data["message"], evidence=tuple(data.get("evidence", ())),
                     params=tuple(data.get("params", {}).items()))
