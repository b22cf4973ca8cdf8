"""The serial link to the table, kept alive through unplugs, reboots and noise.

:class:`Bridge` owns the port: it opens any pyserial URL exclusively, cuts
the byte stream into lines (resynchronising on newlines, dropping overlong
lines), hands frames to the :class:`~firmware_bridge.session.Session`, sends
the commands the session asks for, and when the port fails or the device falls
silent it closes, waits (exponential backoff, never a busy loop) and reopens
the same device by its stable identity. It never gives up on its own: only
:meth:`Bridge.stop` ends it.

    bridge = Bridge("/dev/serial/by-id/usb-belote-table-if00", table=TableMap(cards, zones))
    bridge.start(lambda event: queue.put(event))   # TagEvent, LinkEvent, DeviceNote
    ...
    bridge.stop()

``TagEvent.to_observation()`` gives the referee a ``CardSeen``/``CardGone``
(source ``rfid``), ``LinkEvent.to_observation()`` a ``SensorState``;
``DeviceNote`` is text for people (device errors, debug lines), not a fact.

What travels on the wire is a *codec*'s business: :class:`TableCodec` speaks
the table's protocol; ``adapters.py`` has codecs for off-the-shelf readers that
behave like a one-antenna table.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import traceback
from typing import Callable, Optional

from .mapping import TableMap
from .protocol import MAX_LINE, BadFrame, Cmd, decode, encode
from .session import Session

BAUDRATE = 115200
READ_TIMEOUT_S = 0.02      # how long one read waits for a byte: the pump's tick


class LineSplitter:
    """Bytes in, complete lines out, resynchronising on every newline. A line
    still growing past the limit is cut as it arrives (memory stays bounded on a
    noisy link) and delivered whole-or-cut when its newline comes, so the
    decoder counts it as ``too-long``."""

    def __init__(self, limit: int = MAX_LINE + 1):   # + 1: a CR before the newline is allowed
        self._limit = limit
        self._buf = b""

    def feed(self, data: bytes) -> list:
        lines = (self._buf + data).split(b"\n")
        tail = lines.pop()
        self._buf = tail if len(tail) <= self._limit else tail[:self._limit + 1]
        return lines


class TableCodec:
    """The table's own wire protocol: frames are lines of bytes both ways.

    A codec is what a :class:`Bridge` talks through; adapters for other readers
    (``adapters.py``, ``pn532.py``) offer the same three methods:

    - ``feed(data, now)``: bytes read from the port -> frames, ``Debug`` lines, and
      :class:`BadFrame` values for what was rejected;
    - ``command(cmd, now)``: a host command -> the bytes to write (an adapter that
      answers for its reader returns ``b""`` and produces the answer in ``tick``);
    - ``tick(now)``: ``(frames, bytes to write)`` due by the clock.
    """

    def __init__(self):
        self._lines = LineSplitter()

    def feed(self, data: bytes, now: float) -> list:
        out = []
        for line in self._lines.feed(data):
            try:
                out.append(decode(line))
            except BadFrame as exc:
                out.append(exc)
        return out

    def command(self, cmd: Cmd, now: float) -> bytes:
        return encode(cmd) + b"\n"

    def tick(self, now: float) -> tuple:
        return [], b""


def port_identity(url: str) -> Optional[tuple]:
    """USB (VID, PID, serial number) of a device path, to find it again under another name."""
    if "://" in url:
        return None
    try:
        from serial.tools import list_ports
        real = os.path.realpath(url)
        for port in list_ports.comports():
            if os.path.realpath(port.device) == real and port.vid is not None:
                return (port.vid, port.pid, port.serial_number)
    except (OSError, ImportError):
        pass
    return None


def resolve_port(url: str, identity: Optional[tuple]) -> str:
    """The path to open now: the URL itself, or where the same USB device reappeared."""
    if identity is None or "://" in url or os.path.exists(url):
        return url
    from serial.tools import list_ports
    for port in list_ports.comports():
        if (port.vid, port.pid, port.serial_number) == identity:
            return port.device
    return url


class Bridge:
    def __init__(self, url: str, table: Optional[TableMap] = None, *,
                 silence_s: float = 3.0, backoff_s: tuple = (0.1, 5.0),
                 codec_factory: Callable = TableCodec, clock: Callable = time.monotonic):
        self.url = url
        self.session = Session(table or TableMap(), silence_s=silence_s)
        self.backoff_s = backoff_s
        self.codec_factory = codec_factory
        self.clock = clock
        self._identity: Optional[tuple] = None
        self._was_up = False
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None

    # -- lifecycle --------------------------------------------------------
    def start(self, sink: Callable) -> "Bridge":
        """Run in a daemon thread; ``sink`` gets every event, in order, from that thread."""
        self._thread = threading.Thread(target=self.run, args=(sink,), name="bridge", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def run(self, sink: Callable) -> None:
        """Connect, pump, reconnect, until :meth:`stop`. Never returns on a lost link."""
        import serial

        delay = self.backoff_s[0]
        while not self._stop.is_set():
            path = resolve_port(self.url, self._identity)
            try:
                port = serial.serial_for_url(path, baudrate=BAUDRATE, timeout=READ_TIMEOUT_S,
                                             write_timeout=1.0, exclusive=True)
            except (serial.SerialException, OSError, ValueError) as exc:
                self._emit(sink, self.session.closed(
                    self.clock(), f"cannot open {path}: {exc}; retrying every few seconds"))
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff_s[1])
                continue
            if self._identity is None:
                self._identity = port_identity(self.url)
            try:
                reason = self._pump(port, sink)
            except (serial.SerialException, OSError) as exc:
                reason = f"port lost ({exc}); reconnecting"
            except Exception as exc:  # a bug must not end the table's only RFID link: say it, go on
                traceback.print_exc(file=sys.stderr)
                reason = f"internal error ({exc!r}), please report it; reconnecting"
            finally:
                port.close()
            if reason is None:   # stopped
                return
            self._emit(sink, self.session.closed(self.clock(), reason))
            if self._was_up:
                delay = self.backoff_s[0]
            self._stop.wait(delay)
            delay = min(delay * 2, self.backoff_s[1])

    # -- the pump ----------------------------------------------------------
    def _pump(self, port, sink: Callable) -> Optional[str]:
        """Move bytes until the link is lost (returns why) or we are stopped (returns None)."""
        session, codec = self.session, self.codec_factory()
        self._was_up = False
        try:
            port.reset_input_buffer()
        except (AttributeError, NotImplementedError):
            pass
        session.opened(self.clock())
        while not self._stop.is_set():
            while session.outbox:
                data = codec.command(session.outbox.pop(0), self.clock())
                if data:
                    port.write(data)
            data = port.read(max(1, port.in_waiting))
            now = self.clock()
            for item in codec.feed(data, now) if data else ():
                if isinstance(item, BadFrame):
                    self._emit(sink, session.bad_frame(now, item.kind, item.detail))
                else:
                    self._emit(sink, session.feed(now, item))
            frames, out = codec.tick(now)
            for frame in frames:
                self._emit(sink, session.feed(now, frame))
            if out:
                port.write(out)
            events, lost = session.tick(now)
            self._emit(sink, events)
            self._was_up = self._was_up or session.up
            if lost:
                return "the device fell silent: reopening the port"
        return None

    @staticmethod
    def _emit(sink: Callable, events: list) -> None:
        for event in events:
            try:
                sink(event)
            except Exception as exc:  # a consumer's bug must not kill the link
                print(f"bridge: the event consumer failed on {event!r}: {exc!r}", file=sys.stderr)
