"""``/stream/<table>?feed=referee|broadcast|venue``: one Server-Sent Events
stream per page, a ``snapshot`` on connect then ``change`` events, each with
an ``id:`` so a browser resumes with ``Last-Event-ID`` after a reconnect."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, request

from .board import dashboard
from .auth import reader
from .views import FEEDS

stream = Blueprint("stream", __name__)


@stream.route("/stream/<table_id>")
def table_stream(table_id: str) -> Any:
    board = dashboard()
    feed = request.args.get("feed", "venue")
    if feed not in FEEDS:
        abort(400, f"unknown feed {feed!r}: use feed=referee, broadcast or venue")
    table = board.room.get(table_id)
    if table is None:
        abort(404, f"no table {table_id!r} at this event")
    table_id = table.id                         # /stream/1 is table t1's
    owner = reader(table_id, feed)
    if owner is None:
        abort(401 if feed == "referee" else 403,
              "the referee feed needs a signed-in console" if feed == "referee"
              else "this feed needs an overlay token for this table (?token=...)")
    client = board.hub.subscribe(table_id, feed, request.headers.get("Last-Event-ID")
                                 or request.args.get("lastEventId"))
    client.owner = owner
    return _sse(board.hub.stream(client))


@stream.route("/stream/club")
def club_stream() -> Any:
    """The club page's stream: every table's line (venue-level facts) and the standings."""
    board = dashboard()
    client = board.hub.subscribe_club(request.headers.get("Last-Event-ID"))
    return _sse(board.hub.stream(client))


def _sse(body: Any) -> Response:
    return Response(body, mimetype="text/event-stream", headers={
        "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"})
