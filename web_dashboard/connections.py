"""The web server's guard against running out of connections.

Why: gevent's server holds a connection for as long as its client keeps it
open, and reads a request's header for as long as the client takes to send
it. Anyone on the club's network could open 1,100 idle TCP connections (or
send half a header and wait) and use up the process's file descriptors: the
server then cannot accept the referee's console. So, as nginx does:

- **a header deadline**: the request line and headers of every request (the
  first one and each next one on a kept-alive connection) must arrive within
  ``header_timeout`` seconds, else the connection is closed;
- **an input/output timeout** once the headers are in: a body that stops
  arriving, or a client that stops reading a response, is dropped after
  ``io_timeout`` seconds (an open event stream waiting for news is not
  affected: it waits on the hub, not on the socket);
- **a connection cap**, below the file limit (raised to its hard limit at
  start): at the cap, the connection that has waited longest without sending
  a whole request is closed to make room; when no connection is idle (all are
  requests or streams), the newcomer gets ``503`` at once.

A connection is *idle* from the moment it waits for a request's first byte
until its headers are complete; the console's request, sent whole in a few
milliseconds, is never the oldest idle one.
"""

from __future__ import annotations

import resource
from typing import Any

import gevent
from gevent.pywsgi import WSGIHandler, WSGIServer

#: Seconds a client has to send a request line and headers (a browser needs milliseconds).
HEADER_TIMEOUT = 10.0
#: Seconds a body read or a response write may stall once the headers are in.
IO_TIMEOUT = 30.0
#: File descriptors kept for everything else (game stores, the serial port, the camera, logs) and for
#: the connections accepted in one turn of the loop (gevent accepts up to 100) before the shed ones close.
RESERVED_FILES = 160
#: The most connections served at once, even where the file limit allows more.
MAX_CONNECTIONS = 10_000
#: Connections shed but not yet closed, at most, before newcomers are refused.
SLACK = 64

_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n"
         b"Retry-After: 5\r\nContent-Length: 50\r\n\r\nToo many connections: try again in a few seconds.")


class _Closed(BaseException):
    """Ends a connection's greenlet: its header deadline passed, or it was shed for a newcomer.
    (A BaseException, as gevent's own Timeout: gevent answers an Exception met while reading a
    header with a 400 response, where this connection is simply closed.)"""


def raise_file_limit() -> int:
    """Raise this process's open-file limit to its hard limit; returns the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65_536
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return 65_536 if soft == resource.RLIM_INFINITY else soft


class GuardedHandler(WSGIHandler):
    """gevent's handler with a deadline on each request's header."""

    _deadline: Any = None

    def read_requestline(self) -> str:
        self.server.idle(self, True)
        self._deadline = gevent.Timeout.start_new(self.server.header_timeout, _Closed("header deadline"))
        return super().read_requestline()

    def read_request(self, raw_requestline: str) -> Any:
        try:
            return super().read_request(raw_requestline)
        finally:
            self._end_deadline()
            self.server.idle(self, False)
            if self.socket is not None:
                self.socket.settimeout(self.server.io_timeout)

    def handle_one_request(self) -> Any:
        try:
            return super().handle_one_request()
        finally:
            self._end_deadline()

    def _end_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.close()
            self._deadline = None

    def handle(self) -> None:
        try:
            super().handle()
        except _Closed:
            pass                    # the socket is closed by gevent's own clean-up
        finally:
            self._end_deadline()
            self.server.idle(self, False)


class GuardedWSGIServer(WSGIServer):
    """gevent's WSGI server with a header deadline and a connection cap (see the module's text).

    Connections are counted from their accept to their close, in the accept loop itself (a
    connection's greenlet may not have run yet), so the count is the file descriptors they hold.
    A connection shed for a newcomer closes when its greenlet next runs: up to :data:`SLACK` of
    them may be closing at once; past that, newcomers get ``503`` at once."""

    handler_class = GuardedHandler
    max_accept = 16          # connections accepted per turn of the loop (gevent's default is 100)

    def __init__(self, *args: Any, max_connections: int | None = None, header_timeout: float = HEADER_TIMEOUT,
                 io_timeout: float = IO_TIMEOUT, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.max_accept = GuardedWSGIServer.max_accept
        files = raise_file_limit()
        self.max_connections = max_connections or max(16, min(MAX_CONNECTIONS, files - RESERVED_FILES))
        self.header_timeout = header_timeout
        self.io_timeout = io_timeout
        self.open = 0                                       # accepted and not yet closed
        self.shed = 0                                       # idle connections closed for newcomers
        self.refused = 0                                    # newcomers answered 503
        self._idle: dict[GuardedHandler, Any] = {}          # oldest first: handler -> its greenlet

    def idle(self, handler: GuardedHandler, waiting: bool) -> None:
        """``handler`` waits for a request (``True``) or has one (``False``)."""
        self._idle.pop(handler, None)
        if waiting:
            self._idle[handler] = gevent.getcurrent()

    def do_handle(self, sock: Any, address: Any) -> None:
        if self.open >= self.max_connections and (self.open >= self.max_connections + SLACK or not self._shed_one()):
            self.refused += 1
            try:
                sock.setblocking(False)
                sock.send(_BUSY)
            except OSError:
                pass
            sock.close()
            return
        self.open += 1
        super().do_handle(sock, address)

    def do_close(self, sock: Any, *args: Any) -> None:
        self.open -= 1
        super().do_close(sock, *args)

    def _shed_one(self) -> bool:
        """Close the connection idle the longest; False when none is idle."""
        while self._idle:
            handler, greenlet = next(iter(self._idle.items()))
            del self._idle[handler]
            if greenlet is not None and not greenlet.dead:
                greenlet.kill(_Closed("shed"), block=False)
                self.shed += 1
                return True
        return False
