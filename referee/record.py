"""The game record: one game per JSON Lines file, one event per line (DESIGN).

This module reads and writes records and checks each event's *shape* (its
type and fields); what the events mean is :mod:`referee.game`'s business. A
malformed line is a :class:`RecordError` naming the line and what to fix, so a
club's archive never loses a game to a typo silently:

>>> read_lines(['{"type":"game","version":1,"rules":"ffb-contree"}', '{"type":"deal"}'], "g.jsonl")
Traceback (most recent call last):
...
referee.record.RecordError: g.jsonl:2: deal: "dealer" is missing (N, E, S or W)

The format is versioned (``version`` in the ``game`` header); this reader reads
version 1 and documents it in ``docs/record-format.md``. Readers ignore fields
they do not know, so later versions can add fields without breaking older
programs.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Iterable, Iterator, Optional

from .json_text import JSONTextError, loads

VERSION = 1
EVENT_TYPES = ("game", "deal", "call", "declare", "play", "correction", "penalty", "stop", "tally")
TEAM_KEYS = ("NS", "EW")
SEAT_KEYS = ("N", "E", "S", "W")


class RecordError(ValueError):
    """A record line that cannot be read or makes no sense at its place.

    ``line`` is the 1-based line (= event number) when known; ``str()`` gives
    ``FILE:LINE: message``.
    """

    def __init__(self, message: str, line: Optional[int] = None, source: str = ""):
        self.message = message
        self.line = line
        self.source = source
        where = ":".join(str(p) for p in (source, line) if p not in ("", None))
        super().__init__(f"{where}: {message}" if where else message)

    def at(self, line: int, source: str = "") -> "RecordError":
        """This error, located at ``line`` of ``source``."""
        return RecordError(self.message, line, source)


def _need(event: dict, key: str, kind: type | tuple, what: str) -> Any:
    if key not in event:
        raise RecordError(f'{event["type"]}: "{key}" is missing ({what})')
    value = event[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise RecordError(f'{event["type"]}: "{key}" is {json.dumps(value)}, expected {what}')
    return value


def _seat(event: dict, key: str = "seat") -> str:
    value = _need(event, key, str, "N, E, S or W")
    if value not in SEAT_KEYS:
        raise RecordError(f'{event["type"]}: "{key}" is {json.dumps(value)}, expected N, E, S or W')
    return value


def check_event(event: Any) -> dict:
    """Check the shape of one event (fields and their JSON types); return it.

    >>> check_event({"type": "play", "seat": "E", "card": "Qh", "say": "belote"})["card"]
    'Qh'
    >>> check_event({"type": "bid"})
    Traceback (most recent call last):
    ...
    referee.record.RecordError: unknown event type "bid": use one of game, deal, call, declare, play, correction, penalty, stop, tally
    """
    if not isinstance(event, dict):
        raise RecordError(f"an event is a JSON object {{...}}, not {json.dumps(event)[:40]}")
    kind = event.get("type")
    if kind not in EVENT_TYPES:
        raise RecordError(f"unknown event type {json.dumps(kind)}: use one of {', '.join(EVENT_TYPES)}")
    if kind == "game":
        version = _need(event, "version", int, "the record format version, 1")
        if version != VERSION:
            raise RecordError(f"record format version {version}: this program reads version {VERSION}")
        _need(event, "rules", str, 'a rules profile name, e.g. "ffb-contree"')
        if not isinstance(event.get("options", {}), dict):
            raise RecordError('game: "options" is an object of rule options, e.g. {"target": 501}')
        seats = event.get("seats", {})
        if not isinstance(seats, dict) or set(seats) - set(SEAT_KEYS):
            raise RecordError('game: "seats" maps N, E, S, W to player names')
    elif kind == "deal":
        _seat(event, "dealer")
        hands = event.get("hands")
        if hands is not None:
            if not isinstance(hands, dict) or sorted(hands) != sorted(SEAT_KEYS):
                raise RecordError('deal: "hands" maps each of N, E, S, W to its 8 cards')
            for seat, cards in hands.items():
                if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                    raise RecordError(f'deal: the hand of {seat} is a list of card texts like "Jh"')
        if "turned" in event and not isinstance(event["turned"], str):
            raise RecordError('deal: "turned" is the turned card, e.g. "9h"')
    elif kind == "call":
        _seat(event)
        _need(event, "call", str, "pass, 80h..160c, 90sa, 100ta, capoth, counter, recounter, take, takeh")
    elif kind == "declare":
        _seat(event)
        cards = _need(event, "cards", list, 'the declared cards, e.g. ["Ah","Kh","Qh"]')
        if not all(isinstance(c, str) for c in cards):
            raise RecordError('declare: "cards" is a list of card texts like "Ah"')
    elif kind == "play":
        _seat(event)
        _need(event, "card", str, 'a card, e.g. "Jh"')
        if event.get("say") not in (None, "belote", "rebelote"):
            raise RecordError(f'play: "say" is "belote" or "rebelote", not {json.dumps(event["say"])}')
    elif kind == "correction":
        _need(event, "ref", int, "the number of the event (line) corrected")
        if "replace" not in event:
            raise RecordError('correction: "replace" is missing: the corrected event, or null to undo it')
        if event["replace"] is not None:
            replaced = check_event(event["replace"])
            if replaced["type"] in ("game", "correction"):
                raise RecordError(f'correction: a {replaced["type"]} event cannot replace a game event')
    elif kind in ("penalty", "stop"):
        _seat(event)
    elif kind == "tally":
        _check_tally(event)
    return event


def _check_tally(event: dict) -> None:
    capot = event.get("capot")
    if capot not in (None, *TEAM_KEYS):
        raise RecordError(f'tally: "capot" is {json.dumps(capot)}, expected "NS", "EW" or null')
    if capot is None or "card_points" in event:
        points = _need(event, "card_points", dict, 'each side\'s card points, e.g. {"NS": 92, "EW": 70}')
        if sorted(points) != sorted(TEAM_KEYS) or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in points.values()):
            raise RecordError(f'tally: "card_points" is {json.dumps(points)}, expected the points of NS and EW '
                              f'as whole numbers, e.g. {{"NS": 92, "EW": 70}}')
    belote = event.get("belote", [])
    if not isinstance(belote, list) or not all(b in TEAM_KEYS for b in belote):
        raise RecordError(f'tally: "belote" is {json.dumps(belote)}, expected a list with the side of each '
                          f'belote, e.g. ["NS"] (or [])')


def parse_line(text: str) -> dict:
    """One line of a record as a checked event (hostile text included: :mod:`referee.json_text`)."""
    try:
        event = loads(text)
    except JSONTextError as exc:
        raise RecordError(f"{exc}: each line is one event object") from None
    return check_event(event)


def read_lines(lines: Iterable[str], source: str = "") -> list[dict]:
    """Events of a record given as lines; the first must be the ``game`` header.

    Line numbers are event numbers (a ``correction``'s ``ref``), so blank lines
    are refused except at the very end.
    """
    events: list[dict] = []
    blank: Optional[int] = None
    for number, text in enumerate(lines, 1):
        if not text.strip():
            blank = blank or number
            continue
        if blank is not None:
            raise RecordError("blank line inside the record: remove it (line numbers are event numbers)",
                              blank, source)
        try:
            event = parse_line(text)
        except RecordError as exc:
            raise exc.at(number, source) from None
        if (number == 1) != (event["type"] == "game"):
            message = ('the record starts with the "game" header: {"type":"game","version":1,"rules":...}'
                       if number == 1 else "a second game header: one game per record file")
            raise RecordError(message, number, source)
        events.append(event)
    if not events:
        raise RecordError('the record is empty: it starts with a "game" header line', 1, source)
    return events


def read_record(path: str | os.PathLike) -> list[dict]:
    """Read a ``.jsonl`` record (``-``: standard input); RecordError names the file and
    line of a problem."""
    source = os.fspath(path)
    try:
        if source == "-":
            source, data = "<stdin>", sys.stdin.buffer.read()
        else:
            with open(source, "rb") as handle:
                data = handle.read()
    except OSError as exc:
        raise RecordError(f"cannot read the record: {exc.strerror}", None, source) from None
    return read_lines(decode_lines(data, source), source)


def decode_lines(data: bytes, source: str = "") -> list[str]:
    """The lines of a UTF-8 text (a BOM from a Windows editor is fine); bytes that
    are not UTF-8 are a :class:`RecordError` naming their line and column."""
    lines = data.removeprefix(b"\xef\xbb\xbf").split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    out = []
    for number, raw in enumerate(lines, 1):
        try:
            out.append(raw.decode("utf-8").removesuffix("\r"))
        except UnicodeDecodeError as exc:
            raise RecordError(f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at column {exc.start + 1}): "
                              f"a record is JSON Lines text; save it as UTF-8", number, source) from None
    return out


def dumps_event(event: dict) -> str:
    """One event as its record line (compact JSON, UTF-8 text, no newline)."""
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def iter_lines(events: Iterable[dict]) -> Iterator[str]:
    for event in events:
        yield dumps_event(check_event(event)) + "\n"


def write_record(path: str | os.PathLike, events: Iterable[dict]) -> None:
    """Write a whole record (each event checked first); replaces the file atomically."""
    target = os.fspath(path)
    lines = list(iter_lines(events))              # every event checked before anything is written
    temp = f"{target}.tmp"
    with open(temp, "w", encoding="utf-8") as handle:
        handle.writelines(lines)
    os.replace(temp, target)
