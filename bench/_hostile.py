"""Random and hostile request bodies for the dashboard's POST routes, and
hostile lines for the record and observation readers: what an outsider sends.

Shared by the fuzz tests (``tests/web_dashboard/test_fuzz_api.py``,
``tests/referee/test_hostile_records.py``: a few thousand, in ``make test``)
and ``bench/hostile.py`` (many more). Every generator takes a
``random.Random``, so a failure is replayed from its seed.

A body is ``(content type, bytes)``. Half are mutations of a valid body (one
field swapped for a hostile value, a field dropped, a stray one added), so
they reach deep into the referee; the rest are hostile whole: deep nesting,
huge numbers, ``NaN``, bad UTF-8, lone surrogates, the wrong JSON type, the
wrong content type, nothing at all.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable

#: Values an outsider puts in a field: wrong types, edges, huge, odd text.
HOSTILE_VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 2, 7, 31, 32, 2 ** 31, -2 ** 63, 2 ** 53 + 1, 10 ** 15, 1.5, -0.0, 1e300, 1e-300,
    "", " ", "x", "N", "O", "NS", "EW", "nesw", "Jh", "10h", "1x", "♥", "jh", "JH", "pass", "80h", "160c", "170h",
    "90sa", "100ta", "capoth", "counter", "recounter", "take", "takes", "undo", "tally", "start", "call",
    "broadcast", "venue", "referee", "console", "camera", "rfid", "play:N", "hand:S", "deal", "pile:NS",
    "\u0000", "\ud800", "\u202e", "٨٠h", "<script>alert(1)</script>", "' OR 1=1 --", "../../etc/passwd",
    "a" * 300, "9" * 40 + "h", [], {}, ["Jh"], ["Jh"] * 9, [None], {"NS": 92, "EW": 70}, {"card_points": {}},
    {"card_points": {"NS": 162, "EW": 0}, "belote": ["NS", "NS"]}, [[[[]]]],
]

#: Valid bodies per route, the seeds of the mutations.
CONSOLE_BODIES = [
    {"action": "start", "seat": "N"}, {"action": "call", "seat": "W", "call": "80h"},
    {"action": "call", "seat": "S", "call": "pass"}, {"action": "call", "seat": "E", "call": "counter"},
    {"action": "belote", "seat": "S"}, {"action": "declare", "seat": "S", "cards": ["Ah", "Kh", "Qh"]},
    {"action": "replace", "ref": 3, "cards": ["Qh"]}, {"action": "undo"}, {"action": "undo", "ref": 2},
    {"action": "confirm", "ref": 1}, {"action": "dismiss", "ref": 1}, {"action": "resolve", "ref": 1, "cards": ["Jh"]},
    {"action": "penalty", "seat": "W", "rule": "must-trump", "reason": "revoke"}, {"action": "redeal"},
    {"action": "turned", "cards": ["9h"]},
    {"action": "tally", "result": {"card_points": {"NS": 92, "EW": 70}, "belote": ["NS"], "capot": None}},
]
CARD_BODIES = [{"seat": "S", "card": "Jh"}, {"seat": "E", "card": "7c", "gone": True}, {"pickup": True}]
TOKEN_BODIES = [{"feed": "venue"}, {"feed": "broadcast", "label": "OBS"}, {}]
NEXT_GAME_BODIES = [{}, {"abandon": True}]

KEYS = ["action", "seat", "call", "cards", "card", "ref", "rule", "reason", "by", "result", "kind", "t", "source",
        "gone", "pickup", "feed", "label", "abandon", "zone", "evidence", "uid", "confidence", "__proto__"]


def hostile_value(rng: random.Random) -> Any:
    return rng.choice(HOSTILE_VALUES)


def mutate(body: dict, rng: random.Random) -> dict:
    """``body`` with one to three hostile changes."""
    body = json.loads(json.dumps(body))
    for _ in range(rng.randint(1, 3)):
        roll = rng.random()
        if roll < 0.5 and body:
            body[rng.choice(list(body))] = hostile_value(rng)
        elif roll < 0.65 and body:
            del body[rng.choice(list(body))]
        elif roll < 0.9:
            body[rng.choice(KEYS)] = hostile_value(rng)
        else:
            nested = body
            for key in ("result", "card_points", "NS"):
                nested = nested.setdefault(key, {}) if isinstance(nested, dict) else {}
            if isinstance(nested, dict):
                nested["x"] = hostile_value(rng)
    return body


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=True, allow_nan=True).encode()


#: Whole bodies no route can act on, each made fresh (some are large).
WHOLE: list[Callable[[random.Random], tuple[str, bytes]]] = [
    lambda r: ("application/json", b"[" * r.choice((100, 5_000, 60_000)) + b"]" * r.choice((0, 100))),
    lambda r: ("application/json", b'{"a":' * 20_000 + b"1" + b"}" * 20_000),
    lambda r: ("application/json", b'{"action":"call","seat":"W","call":"' + b"9" * 5000 + b'h"}'),
    lambda r: ("application/json", b'{"action":"undo","ref":' + b"9" * r.choice((20, 400, 5000)) + b"}"),
    lambda r: ("application/json", b'{"action":"start","seat":"N","t":' + b"9" * 400 + b"}"),
    lambda r: ("application/json", r.choice([b"NaN", b"Infinity", b'{"ref":NaN}', b'{"ref":1e999}', b"-"])),
    lambda r: ("application/json", r.choice([b"[]", b"[1,2]", b'"undo"', b"null", b"true", b"42", b""])),
    lambda r: ("application/json", b'{"action":"call","seat":"W","call":"80h\xff"}'),
    lambda r: ("application/json", b'{"action":"penalty","seat":"W","rule":"\\ud800","reason":"\\udfff"}'),
    lambda r: ("application/json", bytes(r.getrandbits(8) for _ in range(r.randint(1, 200)))),
    lambda r: ("application/json", b'{"action":"start","seat":"N"' + b" " * 70_000 + b"}"),
    lambda r: (r.choice(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""]),
               b'{"action":"start","seat":"N"}'),
    lambda r: ("application/json; charset=latin-1", "{\"action\":\"call\",\"call\":\"80é\"}".encode("latin-1")),
]


def json_body(seeds: list[dict], rng: random.Random) -> tuple[str, bytes]:
    """One hostile body for a JSON route whose valid bodies look like ``seeds``."""
    if rng.random() < 0.3:
        return rng.choice(WHOLE)(rng)
    return "application/json", _dumps(mutate(rng.choice(seeds), rng))


def form_body(fields: dict[str, str], rng: random.Random) -> dict[str, bytes]:
    """Form fields (sign-in, sign-out) with hostile values, as the bytes a client sends (a lone
    surrogate becomes bytes that are not UTF-8)."""
    out: dict[str, Any] = dict(fields)
    for _ in range(rng.randint(1, 3)):
        value = hostile_value(rng)
        out[rng.choice(list(fields) + ["next", "x"])] = value if isinstance(value, str) else json.dumps(value)
    if rng.random() < 0.2:
        out["next"] = rng.choice(["http://[", "//evil.example", "/\\evil", "javascript:alert(1)", "/" + "a" * 5000,
                                  "http://[::1", "/%00", "\r\nSet-Cookie: x=1"])
    return {key: value.encode("utf-8", "surrogatepass") for key, value in out.items()}


def path_segment(rng: random.Random) -> str:
    """A hostile table or token id for a route's path."""
    return rng.choice(["t1", "1", "t2", "0", "-1", "t1%00", "%2e%2e", "9" * 5000, "99999999999999999999",
                       "t" + "1" * 300, "%ff", "%E2%80%AE", "t1;drop", "x" * 1000])


# --- record and observation lines ---------------------------------------------------------------

#: Lines no record or observation reader can take, each with what it tests.
HOSTILE_LINES: list[tuple[str, bytes]] = [
    ("100,000-deep nesting", b"[" * 100_000 + b"]" * 100_000),
    ("deep objects", b'{"a":' * 5_000 + b"1" + b"}" * 5_000),
    ("5,000-digit integer", b'{"type":"deal","dealer":"N","t":' + b"9" * 5000 + b"}"),
    ("400-digit t", b'{"kind":"sensor","source":"rfid","t":' + b"9" * 400 + b',"state":"connected"}'),
    ("5,000-digit bid", b'{"type":"call","seat":"W","call":"' + b"9" * 5000 + b'h"}'),
    ("5,000-digit console bid", b'{"kind":"console","t":1,"action":"call","seat":"W","call":"' + b"9" * 5000 + b'h"}'),
    ("huge ref", b'{"type":"correction","ref":' + b"9" * 30 + b',"replace":null}'),
    ("NaN", b'{"kind":"sensor","source":"rfid","t":NaN,"state":"connected"}'),
    ("Infinity", b'{"type":"tally","card_points":{"NS":Infinity,"EW":0}}'),
    ("1e999", b'{"kind":"seen","source":"rfid","t":1e999,"zone":"hand:N","card":"Jh"}'),
    ("bad UTF-8", b'{"type":"call","seat":"W","call":"pa\xffss"}'),
    ("overlong UTF-8", b'{"type":"call","seat":"W","call":"\xc0\xafpass"}'),
    ("lone surrogate", b'{"type":"call","seat":"W","call":"\\ud800"}'),
    ("NUL", b'{"type":"call","seat":"W","call":"pass\\u0000"}'),
    ("raw NUL byte", b'{"type":"call","seat":"W","call":"pass"}\x00'),
    ("not JSON", b"this is not JSON"),
    ("JSON list", b"[1, 2, 3]"),
    ("JSON string", b'"deal"'),
    ("JSON null", b"null"),
    ("truncated", b'{"type":"play","seat":"W","card":"J'),
    ("wrong types", b'{"type":"play","seat":["W"],"card":{"x":1}}'),
    ("unknown event", b'{"type":"bid","seat":"W"}'),
    ("unknown observation", b'{"kind":"smell","source":"rfid","t":1}'),
    ("a 100 KB line", b'{"kind":"sensor","source":"rfid","t":1,"state":"connected","detail":"' + b"x" * 100_000 + b'"}'),
    ("huge evidence", b'{"kind":"seen","source":"camera","t":1,"zone":"play:S","card":"Jh","evidence":{"x":"'
     + b"y" * 10_000 + b'"}}'),
    ("a second header", b'{"type":"game","version":1,"rules":"ffb-contree"}'),
    ("CR only", b'{"type":"call","seat":"W","call":"pass"}\r{"type":"call","seat":"N","call":"pass"}'),
    ("BOM inside", b'\xef\xbb\xbf{"type":"call","seat":"W","call":"pass"}'),
]
