"""The table's wire protocol (DESIGN: "The table's wire protocol"), host side.

One line is one frame: ``$<TYPE>,<SEQ>,<T_MS>[,<field>]*<CRC>`` with a
CRC-16/CCITT-FALSE of the bytes between ``$`` and ``*``. Lines starting with
``#`` are debug text. This module only turns bytes into typed frames and back;
what a frame *means* for the table (gaps, restarts, reconciliation) is
``session.py``'s business, so the decoder stays pure, fast and easy to fuzz.

Every rejected line raises :class:`BadFrame` with a ``kind`` from
:data:`BAD_KINDS`; the C codec (``firmware/wire.c``) uses the same kinds, and
``firmware/vectors.txt`` holds the vectors both must agree on.

>>> encode(Tag(7, 3400, 3, "04A1B2C3D4E5F6", True))
b'$TAG,7,3400,3,04A1B2C3D4E5F6,ON*7362'
>>> decode(b'$TAG,7,3400,3,04A1B2C3D4E5F6,ON*7362')
Tag(seq=7, t_ms=3400, antenna=3, uid='04A1B2C3D4E5F6', on=True)
>>> crc16(b"123456789") == 0x29B1
True
"""

from __future__ import annotations

import binascii
import re
from typing import NamedTuple, Optional, Union

PROTO_VERSION = 1
MAX_LINE = 200          # bytes from '$' or '#' to the last byte before the newline
SEQ_MOD = 1 << 16       # SEQ wraps at 65536
T_MAX = (1 << 32) - 1   # T_MS is a 32-bit uptime
COMMANDS = ("HELLO", "SNAP", "RESET", "CFG")

#: Why a line was rejected. Stable names: the link counts bad frames by kind.
BAD_KINDS = ("too-long", "no-start", "framing", "crc", "syntax", "unknown-type", "field")


class BadFrame(ValueError):
    """A line that is not a valid frame; ``kind`` says which check failed."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class Hello(NamedTuple):
    seq: int
    t_ms: int
    proto: int
    fw: str
    ants: int
    boot: Optional[str] = None  # 8 hex digits, new at every boot


class Tag(NamedTuple):
    seq: int
    t_ms: int
    antenna: int
    uid: str
    on: bool


class Snap(NamedTuple):
    seq: int
    t_ms: int
    antennas: tuple  # one tuple of UIDs per antenna, in antenna order


class Hb(NamedTuple):
    seq: int
    t_ms: int
    counters: tuple  # ((key, value), ...) in the order sent


class Err(NamedTuple):
    seq: int
    t_ms: int
    code: str
    antenna: Optional[int]  # None ('-') for a device-wide error
    text: str


class Ack(NamedTuple):
    seq: int
    t_ms: int
    host_seq: int
    status: str  # 'OK' or an error code


class Cmd(NamedTuple):
    """Host -> device: ``$CMD,<host seq>,HELLO|SNAP|RESET|CFG[,<args>]``."""

    host_seq: int
    command: str
    args: tuple = ()


class Debug(NamedTuple):
    """A ``#`` line: text for people, never a frame."""

    text: str


Frame = Union[Hello, Tag, Snap, Hb, Err, Ack, Cmd]

_UID = re.compile(rb"(?:[0-9A-F]{2}){4,10}\Z")
_BOOT = re.compile(rb"[0-9A-F]{8}\Z")
_TOKEN = re.compile(rb"[\x21-\x7e]+\Z")      # printable, no space
_BODY = re.compile(rb"[\x20-\x23\x25-\x29\x2b-\x7e]*\Z")   # printable, no '$' or '*'
_KEY_VALUE = rb"[\x21-\x2b\x2d-\x3c\x3e-\x7e]+=[^,]*"   # key: printable, no space, ',' or '='
_KEY_VALUES = re.compile(_KEY_VALUE + rb"(?:," + _KEY_VALUE + rb")*\Z")
_NUM = rb"(0|[1-9][0-9]{0,9})"
_FAST_TAG = re.compile(rb"\$TAG," + _NUM + b"," + _NUM + b"," + _NUM
                       + rb",((?:[0-9A-F]{2}){4,10}),(ON|OFF)\*[0-9A-F]{4}\r?\Z")
_SNAP_UIDS = re.compile(rb"(?:-|(?:[0-9A-F]{2}){4,10}(?:\+(?:[0-9A-F]{2}){4,10})*)\Z")
_CRC_HEX = b"%04X"


def crc16(body: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), as DESIGN fixes it."""
    return binascii.crc_hqx(body, 0xFFFF)


def _uint(raw: bytes, limit: int, what: str, kind: str = "field") -> int:
    if not raw.isdigit() or len(raw) > 10 or (len(raw) > 1 and raw[0] == 48):
        raise BadFrame(kind, f"{what} {raw!r} is not a decimal number")
    value = int(raw)
    if value > limit:
        raise BadFrame(kind, f"{what} {value} is above {limit}")
    return value


def _uid(raw: bytes) -> str:
    if _UID.match(raw) is None:
        raise BadFrame("field", f"UID {raw!r} is not 4 to 10 bytes of upper-case hex")
    return raw.decode()


def decode(line: bytes) -> Union[Frame, Debug]:
    """Decode one line (without its newline; a trailing CR is tolerated).

    Raises :class:`BadFrame` for anything that is not a valid frame.
    """
    # Fast path for the bulk of the traffic, a well-formed TAG: one regex, one
    # CRC. Anything it does not accept takes the full path, which alone decides
    # what is wrong; both give the same answer (tests hold them to it).
    fast = _FAST_TAG.match(line)
    if fast is not None:
        seq, t_ms, antenna, uid, state = fast.groups()
        if (_CRC_HEX % crc16(line[1:fast.end(5)]) == line[fast.end(5) + 1:fast.end(5) + 5]
                and int(seq) < SEQ_MOD and int(t_ms) <= T_MAX and int(antenna) <= 255):
            return Tag(int(seq), int(t_ms), int(antenna), uid.decode(), state == b"ON")
    return decode_checked(line)


def decode_checked(line: bytes) -> Union[Frame, Debug]:
    """:func:`decode` without its fast path: every check in order, the first failure named."""
    if line[-1:] == b"\r":
        line = line[:-1]
    n = len(line)
    if n > MAX_LINE:
        raise BadFrame("too-long", f"{n} bytes, the limit is {MAX_LINE}")
    first = line[:1]
    if first == b"#":
        return Debug(line[1:].decode("ascii", "replace"))
    if first != b"$":
        raise BadFrame("no-start", f"line starts with {first!r}, not '$' or '#'")
    star = n - 5
    if star < 1 or line[star] != 42:  # '*'
        raise BadFrame("framing", "no '*' followed by four hex digits at the end")
    body = line[1:star]
    if _CRC_HEX % crc16(body) != line[star + 1:]:
        raise BadFrame("crc", f"CRC {line[star + 1:]!r} does not match {_CRC_HEX % crc16(body)!r}")
    if _BODY.match(body) is None:
        raise BadFrame("syntax", "control, non-ASCII, '*' or '$' byte inside the frame")
    parts = body.split(b",")
    kind = parts[0]
    if kind == b"CMD":
        return _decode_cmd(parts)
    if len(parts) < 3:
        raise BadFrame("syntax", "a frame needs <TYPE>,<SEQ>,<T_MS>")
    seq = _uint(parts[1], SEQ_MOD - 1, "SEQ", "syntax")
    t_ms = _uint(parts[2], T_MAX, "T_MS", "syntax")
    parser = _PARSERS.get(kind)
    if parser is None:
        raise BadFrame("unknown-type", f"frame type {kind!r} is not one this host knows")
    return parser(seq, t_ms, parts[3:])


def _decode_tag(seq: int, t_ms: int, f: list) -> Tag:
    if len(f) != 3:
        raise BadFrame("field", f"TAG has {len(f)} fields, expected <antenna>,<UID>,ON|OFF")
    state = f[2]
    if state != b"ON" and state != b"OFF":
        raise BadFrame("field", f"TAG state {state!r} is neither ON nor OFF")
    return Tag(seq, t_ms, _uint(f[0], 255, "antenna"), _uid(f[1]), state == b"ON")


def _decode_snap(seq: int, t_ms: int, f: list) -> Snap:
    if not f:
        raise BadFrame("field", "SNAP without its antenna count")
    count = _uint(f[0], 255, "antenna count")
    if len(f) != count + 1:
        raise BadFrame("field", f"SNAP announces {count} antennas but carries {len(f) - 1}")
    antennas = []
    for index, item in enumerate(f[1:]):
        prefix = b"%d:" % index
        if not item.startswith(prefix):
            raise BadFrame("field", f"SNAP field {item!r} should start with {index}:")
        uids = item[len(prefix):]
        if _SNAP_UIDS.match(uids) is None:
            raise BadFrame("field", f"SNAP field {item!r} is not {index}:- or {index}:<UID>[+<UID>...]")
        antennas.append(() if uids == b"-" else tuple(uids.decode().split("+")))
    return Snap(seq, t_ms, tuple(antennas))


def _key_values(f: list, what: str) -> list:
    if not f:
        return []
    joined = b",".join(f)
    if _KEY_VALUES.match(joined) is None:   # one regex for the whole list: HB comes twice a second
        bad = next(item for item in f if _KEY_VALUES.match(item) is None)
        raise BadFrame("field", f"{what} field {bad!r} is not <key>=<value>")
    return [item.partition("=")[::2] for item in joined.decode().split(",")]


def _decode_hello(seq: int, t_ms: int, f: list) -> Hello:
    values = dict(_key_values(f, "HELLO"))
    for key in ("proto", "fw", "ants"):
        if key not in values:
            raise BadFrame("field", f"HELLO without {key}=")
    boot = values.get("boot")
    if boot is not None and _BOOT.match(boot.encode()) is None:
        raise BadFrame("field", f"HELLO boot={boot!r} is not 8 upper-case hex digits")
    return Hello(seq, t_ms, _uint(values["proto"].encode(), 255, "proto"), values["fw"],
                 _uint(values["ants"].encode(), 255, "ants"), boot)


def _decode_hb(seq: int, t_ms: int, f: list) -> Hb:
    return Hb(seq, t_ms, tuple(_key_values(f, "HB")))


def _decode_err(seq: int, t_ms: int, f: list) -> Err:
    if len(f) < 3 or _TOKEN.match(f[0]) is None:
        raise BadFrame("field", "ERR needs <code>,<antenna>,<text>")
    antenna = None if f[1] == b"-" else _uint(f[1], 255, "antenna")
    return Err(seq, t_ms, f[0].decode(), antenna, b",".join(f[2:]).decode())


def _decode_ack(seq: int, t_ms: int, f: list) -> Ack:
    if len(f) != 2 or _TOKEN.match(f[1]) is None:
        raise BadFrame("field", "ACK needs <host seq>,OK|<error>")
    return Ack(seq, t_ms, _uint(f[0], SEQ_MOD - 1, "host seq"), f[1].decode())


def _decode_cmd(parts: list) -> Cmd:
    if len(parts) < 3:
        raise BadFrame("syntax", "a command needs CMD,<host seq>,<command>")
    host_seq = _uint(parts[1], SEQ_MOD - 1, "host seq", "syntax")
    command = parts[2].decode()
    if command not in COMMANDS:
        raise BadFrame("field", f"command {command!r} is not one of {', '.join(COMMANDS)}")
    return Cmd(host_seq, command, tuple(a.decode() for a in parts[3:]))


_PARSERS = {b"HELLO": _decode_hello, b"TAG": _decode_tag, b"SNAP": _decode_snap,
            b"HB": _decode_hb, b"ERR": _decode_err, b"ACK": _decode_ack}


def frame_fields(frame: Frame) -> list:
    """The frame's type and text fields, in wire order, without SEQ/T_MS for CMD."""
    if isinstance(frame, Tag):
        return ["TAG", frame.seq, frame.t_ms, frame.antenna, frame.uid, "ON" if frame.on else "OFF"]
    if isinstance(frame, Snap):
        return ["SNAP", frame.seq, frame.t_ms, len(frame.antennas)] + [
            f"{i}:{'+'.join(uids) if uids else '-'}" for i, uids in enumerate(frame.antennas)]
    if isinstance(frame, Hello):
        extra = [f"boot={frame.boot}"] if frame.boot else []
        return ["HELLO", frame.seq, frame.t_ms, f"proto={frame.proto}", f"fw={frame.fw}",
                f"ants={frame.ants}"] + extra
    if isinstance(frame, Hb):
        return ["HB", frame.seq, frame.t_ms] + [f"{k}={v}" for k, v in frame.counters]
    if isinstance(frame, Err):
        return ["ERR", frame.seq, frame.t_ms, frame.code,
                "-" if frame.antenna is None else frame.antenna, frame.text]
    if isinstance(frame, Ack):
        return ["ACK", frame.seq, frame.t_ms, frame.host_seq, frame.status]
    if isinstance(frame, Cmd):
        return ["CMD", frame.host_seq, frame.command, *frame.args]
    raise TypeError(f"not a frame: {frame!r}")


def encode_fields(fields: list) -> bytes:
    """``$<fields joined by ','>*<CRC>``, without the newline."""
    body = ",".join(str(f) for f in fields).encode("ascii")
    return b"$" + body + b"*" + _CRC_HEX % crc16(body)


def encode(frame: Frame) -> bytes:
    """The frame as one line, without the newline. Raises ValueError over 200 bytes."""
    line = encode_fields(frame_fields(frame))
    if len(line) > MAX_LINE:
        raise ValueError(f"frame of {len(line)} bytes is over the {MAX_LINE}-byte line limit")
    return line
