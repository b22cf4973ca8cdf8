"""The production web server: gevent's WSGI server, embedded.

Each open stream is a greenlet, not a thread, so hundreds of overlays and
screens cost little. The process is not monkey-patched: sensors and the table
referee run in ordinary threads (a camera pipeline may hold the CPU for tens
of milliseconds, which must not stall every stream) and hand their changes to
the event loop through ``loop.run_callback_threadsafe``. Flask's development
server is never used. Connections are guarded (a header deadline, a cap that
sheds idle ones first: ``connections.py``), so idle or half-sent requests
cannot starve the console.
"""

from __future__ import annotations

import signal
import sys
from typing import Any, Callable, Optional

from .hub import Hub
from .startup import SetupError


def gevent_hub(**settings: Any) -> Hub:
    """A hub living on this thread's gevent loop (call it on the serving thread)."""
    import gevent
    import gevent.event

    loop = gevent.get_hub().loop
    return Hub(call_soon_threadsafe=loop.run_callback_threadsafe,
               call_later=lambda seconds, fn: gevent.spawn_later(seconds, fn),
               event_factory=gevent.event.Event, **settings)


def off_loop(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in gevent's thread pool: the loop (every stream) keeps being
    served meanwhile, and the calling request waits for the result."""
    import gevent

    return gevent.get_hub().threadpool.apply(fn, args)


def serve(app: Any, host: str, port: int, on_ready: Optional[Callable[[int], None]] = None) -> None:
    """Serve ``app`` until SIGINT or SIGTERM. ``on_ready(port)`` runs once listening
    (``port`` 0 picks a free one)."""
    import gevent

    from .connections import GuardedWSGIServer

    try:
        server = GuardedWSGIServer((host, port), app, log=None, error_log=sys.stderr, backlog=2048)
        server.start()
    except OSError as exc:
        raise SetupError(f"cannot listen on {host}:{port} ({exc.strerror}): "
                         f"pick another with --port, or stop what uses it") from None
    gevent.signal_handler(signal.SIGTERM, server.stop)
    if on_ready:
        on_ready(server.server_port)
    try:
        server.serve_forever()
    finally:
        server.stop(timeout=1)
