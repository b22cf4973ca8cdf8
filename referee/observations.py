"""What sensors saw, in the referee's words (DESIGN: "Observation").

Sensors never decide game facts: they report that a card appeared in a zone,
left a zone, or that a zone was cleared, with where it came from and how sure
they are. The table referee (``referee/table_referee.py``) turns these into game events.

Zones are named by text, the same in every part and in the table profile:
``play:N`` .. ``play:W`` (each seat's play zone), ``hand:N`` .. ``hand:W`` (the
hand areas, RFID), ``deal`` (the dealing area), ``pile:NS`` / ``pile:EW`` (the
trick-collection piles).

The referee's console is a source too: what no sensor sees (the calls of the
auction, "belote", declarations, corrections) arrives as a
:class:`ConsoleAction`, so that it is stored, replayed and ordered exactly like
what the sensors saw (the store and the crash test depend on it).

Every observation has one JSON form (:func:`to_dict` / :func:`from_dict`),
used by the event store, observation files and the simulator:

>>> to_dict(CardSeen(source="camera", t=1.5, zone="play:S", card=12, confidence=0.98))
{'kind': 'seen', 'source': 'camera', 't': 1.5, 'zone': 'play:S', 'card': 'Jh', 'confidence': 0.98}
>>> from_dict({"kind": "console", "t": 3, "action": "call", "seat": "E", "call": "80h"}).call
'80h'
>>> from_dict({"kind": "seen", "source": "camera", "t": 2, "zone": "play:X", "card": "Jh"})
Traceback (most recent call last):
...
referee.observations.ObservationError: zone 'play:X' does not exist: use one of play:N play:E play:S play:W hand:N hand:E hand:S hand:W deal pile:NS pile:EW
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

import json

from .cards import CARD_NAMES, Card, CardError, card_name, parse_card
from .seats import SEAT_NAMES, Seat, SeatError, parse_seat

SOURCES = ("camera", "rfid", "console")
SEAT_ZONES = tuple(f"{kind}:{s}" for kind in ("play", "hand") for s in "NESW")
ZONES = SEAT_ZONES + ("deal", "pile:NS", "pile:EW")


@dataclass(frozen=True)
class CardSeen:
    """A card appeared in (or is still in) a zone. ``card`` is None when the
    sensor saw a card it could not read (never a guess)."""

    source: str
    t: float                 # sensor time, seconds
    zone: Optional[str]      # None: an antenna or area mapped to no zone
    card: Optional[Card]
    confidence: float = 1.0
    uid: Optional[str] = None            # the RFID tag, where there is one
    evidence: dict[str, Any] = field(default_factory=dict)  # frame ref, thumbnail path, antenna...


@dataclass(frozen=True)
class CardGone:
    """A card left a zone (a tag no longer read, a card no longer seen)."""

    source: str
    t: float
    zone: Optional[str]
    card: Optional[Card]
    uid: Optional[str] = None
    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ZoneCleared:
    """Every card left a zone (the trick was picked up)."""

    source: str
    t: float
    zone: str
    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SensorState:
    """A sensor's own health: ``connected``, ``lost``, ``resync`` (its state is
    uncertain until a fresh snapshot), ``bad-frame``, ``moved`` (a camera that
    no longer matches its calibration)."""

    source: str
    t: float
    state: str
    detail: str = ""


@dataclass(frozen=True)
class ConsoleAction:
    """Something the referee entered at the console (what no sensor sees).

    ``action`` is one of :data:`CONSOLE_ACTIONS`:

    - ``start``: a new game's first dealer is ``seat`` (drawn by lots);
    - ``call``: ``seat`` made ``call`` in the auction (``pass``, ``80h``,
      ``counter``, ``take``... DESIGN's call words);
    - ``belote``: ``seat`` said "belote" / "rebelote" with the card it plays
      (entered just before or just after the card is put down);
    - ``declare``: ``seat`` declares ``cards`` (tierce, square...);
    - ``replace``: game event ``ref`` (a play) was misread: its card is ``cards[0]``;
    - ``undo``: take back the last game event;
    - ``confirm`` / ``dismiss``: accept / reject conflict ``ref``'s proposal;
    - ``resolve``: settle conflict ``ref`` with the card ``cards[0]``;
    - ``penalty``: ``seat``'s side loses the hand for rule ``rule`` (the
      profile's failed-contract value goes to the other side);
    - ``redeal``: the hand is void (a misdeal the sensors did not see), the
      same dealer deals again;
    - ``turned``: classic belote's turned card is ``cards[0]`` (when the
      dealing area's sensors did not read it);
    - ``tally``: the hand ends without its cards (a table without sensors):
      ``result`` holds the record's ``tally`` fields (``card_points``,
      ``belote``, ``capot``; docs/record-format.md).

    ``by`` and ``reason`` say who corrected what and why; they go into the
    correction events of the game record.
    """

    t: float
    action: str
    seat: Optional[Seat] = None
    call: Optional[str] = None
    cards: tuple[Card, ...] = ()
    ref: Optional[int] = None
    rule: Optional[str] = None
    reason: str = ""
    by: str = ""
    source: str = "console"
    result: Optional[dict] = field(default=None, hash=False)


Observation = CardSeen | CardGone | ZoneCleared | SensorState | ConsoleAction

CONSOLE_ACTIONS = ("start", "call", "belote", "declare", "replace", "undo", "confirm",
                   "dismiss", "resolve", "penalty", "redeal", "turned", "tally")
SENSOR_STATES = ("connected", "lost", "resync", "bad-frame", "moved")
_KINDS = {CardSeen: "seen", CardGone: "gone", ZoneCleared: "cleared",
          SensorState: "sensor", ConsoleAction: "console"}


class ObservationError(ValueError):
    """An observation that cannot be acted on; the message says why."""


def to_dict(obs: Observation) -> dict[str, Any]:
    """The JSON form of an observation (compact: defaults are left out)."""
    kind = _KINDS[type(obs)]
    out: dict[str, Any] = {"kind": kind}
    if kind != "console":
        out["source"] = obs.source
    out["t"] = obs.t
    if isinstance(obs, ConsoleAction):
        out["action"] = obs.action
        if obs.seat is not None:
            out["seat"] = SEAT_NAMES[obs.seat]
        for name in ("call", "ref", "rule"):
            if getattr(obs, name) is not None:
                out[name] = getattr(obs, name)
        if obs.cards:
            out["cards"] = [card_name(c) for c in obs.cards]
        if obs.result is not None:
            out["result"] = obs.result
        for name in ("reason", "by"):
            if getattr(obs, name):
                out[name] = getattr(obs, name)
        return out
    if isinstance(obs, SensorState):
        out["state"] = obs.state
        if obs.detail:
            out["detail"] = obs.detail
        return out
    out["zone"] = obs.zone
    if isinstance(obs, (CardSeen, CardGone)):
        out["card"] = None if obs.card is None else card_name(obs.card)
        if isinstance(obs, CardSeen) and obs.confidence != 1.0:
            out["confidence"] = obs.confidence
        if obs.uid is not None:
            out["uid"] = obs.uid
    if obs.evidence:
        out["evidence"] = dict(obs.evidence)
    return out


#: The longest text each free-text field takes (a longer one is refused, never cut).
TEXT_LIMITS = {"call": 16, "rule": 40, "by": 80, "reason": 300, "detail": 200, "uid": 40}
#: Times are seconds; a sensor's clock may count from 1970, no further.
MAX_TIME = 1e10
#: An observation's evidence, as JSON: a few ids, a frame reference, a thumbnail name.
MAX_EVIDENCE = 2000


def _time(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not -MAX_TIME < value < MAX_TIME:       # compared before float(): 10**400 would overflow it
        raise ObservationError(f"time {_short(value)} is not a number of seconds (at most {MAX_TIME:.0e})")
    return float(value)


def _short(value: Any) -> str:
    """``value`` for a message, cut so that a hostile value cannot flood it."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10 ** 30 else f"a {len(str(abs(value)))}-digit number"
    return text if len(text) <= 40 else text[:37] + "..."


def _text(data: dict, name: str, default: Optional[str] = None) -> Optional[str]:
    """Field ``name`` as text no longer than its limit; numbers are taken as their text."""
    value = data.get(name, default)
    if value is None or isinstance(value, str) and len(value) <= TEXT_LIMITS[name]:
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) < 10 ** 15:
        return str(value)
    if isinstance(value, str):
        raise ObservationError(f"{name} is {len(value)} characters long: at most {TEXT_LIMITS[name]}")
    raise ObservationError(f"{name} {_short(value)} is not text")


def _evidence(data: dict) -> dict:
    evidence = data.get("evidence") or {}
    if not isinstance(evidence, dict):
        raise ObservationError("evidence must be a JSON object")
    try:
        size = len(json.dumps(evidence))
    except (TypeError, ValueError, RecursionError):
        raise ObservationError("evidence must be plain JSON: ids, a frame reference, a thumbnail name") from None
    if size > MAX_EVIDENCE:
        raise ObservationError(f"evidence is {size} characters of JSON: at most {MAX_EVIDENCE}")
    return evidence


def _zone(value: Any, required: bool) -> Optional[str]:
    if value is None and not required:
        return None
    if value not in ZONES:
        raise ObservationError(f"zone {_short(value)} does not exist: use one of {' '.join(ZONES)}")
    return value


_BY_NAME = {name: i for i, name in enumerate(CARD_NAMES)}


def _card(value: Any) -> Optional[Card]:
    if value is None:
        return None
    known = _BY_NAME.get(value) if isinstance(value, str) else None
    if known is not None:
        return known                      # the canonical form, as sensors send it
    if isinstance(value, bool) or not isinstance(value, (str, int)) or isinstance(value, str) and len(value) > 8:
        raise ObservationError(f"card {_short(value)} is not a card name such as Jh")
    if isinstance(value, int):
        if not 0 <= value < 32:
            raise ObservationError(f"card {_short(value)} is not a card of the 32-card deck")
        return value
    try:
        return parse_card(value)
    except CardError as exc:
        raise ObservationError(str(exc)) from None


def _source(value: Any) -> str:
    if value not in SOURCES:
        raise ObservationError(f"source {_short(value)} is unknown: use one of {', '.join(SOURCES)}")
    return value


def from_dict(data: Any) -> Observation:
    """Parse and check one observation's JSON form; :class:`ObservationError` says what is wrong."""
    if not isinstance(data, dict):
        raise ObservationError(f"an observation is a JSON object, not {type(data).__name__}")
    kind = data.get("kind")
    t = _time(data.get("t"))
    evidence = _evidence(data)
    if kind == "console":
        action = data.get("action")
        if action not in CONSOLE_ACTIONS:
            raise ObservationError(f"console action {_short(action)} is unknown: use one of {', '.join(CONSOLE_ACTIONS)}")
        seat = data.get("seat")
        try:
            seat = None if seat is None else parse_seat(str(seat)[:8])
        except SeatError as exc:
            raise ObservationError(str(exc)) from None
        cards = data.get("cards") or []
        if not isinstance(cards, list) or len(cards) > 8 or None in cards:
            raise ObservationError("cards must be a list of at most 8 card names such as Jh")
        ref = data.get("ref")
        if ref is not None and (isinstance(ref, bool) or not isinstance(ref, int) or not 0 < ref < 10 ** 9):
            raise ObservationError(f"ref {_short(ref)} is not the number of an event or a conflict (1, 2, ...)")
        call = data.get("call")
        if call is not None and not isinstance(call, str):
            raise ObservationError(f"call {_short(call)} is not a call word such as 80h or pass")
        call = _text(data, "call")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise ObservationError('result is the hand\'s tally, e.g. {"card_points": {"NS": 92, "EW": 70}}')
        if action == "tally" and result is None:
            raise ObservationError('console tally: give the result, e.g. {"card_points": {"NS": 92, "EW": 70}, '
                                   '"belote": ["NS"], "capot": null}')
        return ConsoleAction(t=t, action=action, seat=seat, call=call,
                             cards=tuple(_card(c) for c in cards), ref=ref,
                             rule=_text(data, "rule"), reason=_text(data, "reason", ""),
                             by=_text(data, "by", ""), result=result)
    source = _source(data.get("source"))
    if kind == "seen":
        confidence = data.get("confidence", 1.0)
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 <= confidence <= 1:
            raise ObservationError(f"confidence {_short(confidence)} is not a number from 0 to 1")
        return CardSeen(source=source, t=t, zone=_zone(data.get("zone"), False),
                        card=_card(data.get("card")), confidence=float(confidence),
                        uid=_text(data, "uid"), evidence=evidence)
    if kind == "gone":
        return CardGone(source=source, t=t, zone=_zone(data.get("zone"), False),
                        card=_card(data.get("card")), uid=_text(data, "uid"), evidence=evidence)
    if kind == "cleared":
        return ZoneCleared(source=source, t=t, zone=_zone(data.get("zone"), True), evidence=evidence)
    if kind == "sensor":
        state = data.get("state")
        if state not in SENSOR_STATES:
            raise ObservationError(f"sensor state {_short(state)} is unknown: use one of {', '.join(SENSOR_STATES)}")
        return SensorState(source=source, t=t, state=state, detail=_text(data, "detail", ""))
    raise ObservationError(f"observation kind {_short(kind)} is unknown: use seen, gone, cleared, sensor or console")
