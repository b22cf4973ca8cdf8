"""The producer's overlay desk: a table's overlay look (colours, logo, players'
photos) and cues (show the last trick), set from the console, and the
pictures the overlay shows.

- ``/console/<table>/overlay``: the desk (signed-in referee), with a preview
  link for every layout;
- ``POST /api/tables/<table>/look`` (``{"accent": "#ff8800"}``),
  ``POST /api/tables/<table>/look/<logo|N|E|S|W>`` (the picture as the body;
  an empty body removes it), ``POST /api/tables/<table>/cue``
  (``{"show": "last_trick"}``): the console's session and CSRF token, like
  every console action;
- ``/looks/<name>``: a logo or photo (public, like the overlay that shows it);
- ``/overlay/<table>/camera/<name>``: the camera's picture of a violation, for
  the broadcast overlay (its token), only while the broadcast shows that
  violation;
- ``/overlay-preview.webp``: the clip the overlay shows behind itself with
  ``preview=1`` (``preview_clip.py``).

The look and the cues reach the overlays through the hub's overlay settings
(:meth:`web_dashboard.hub.Hub.set_overlay`): at once, not delayed, since they
say nothing about the game.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, abort, jsonify, render_template, request, send_file

from .auth import api_guard, csrf_token, may_read, may_referee, page_guard
from .board import Dashboard, dashboard
from .looks import MAX_PICTURE, SEATS, LookError, Looks
from .pages import LAYOUTS
from .preview_clip import preview_clip as make_preview

overlay_desk = Blueprint("overlay_desk", __name__)

MIME = {"png": "image/png", "jpg": "image/jpeg", "webp": "image/webp"}


def looks(board: Dashboard) -> Looks:
    return Looks(board.instance / "looks")


def publish_look(board: Dashboard, table_id: str, cue: dict | None = None) -> dict:
    """Send the table's overlay settings (its look, and ``cue`` if any) to its overlays."""
    settings = {"look": looks(board).get(table_id).as_dict(), "cue": cue or {}}
    board.hub.set_overlay(table_id, settings)
    return settings


def publish_looks(board: Dashboard) -> None:
    """Every table's look, once its tables are up."""
    for table in board.room:
        publish_look(board, table.id)


def _table_id(table_id: str) -> str:
    if dashboard().room.get(table_id) is None:
        abort(404, f"no table {table_id!r} at this event: see /club for the tables")
    return table_id


@overlay_desk.route("/console/<table_id>/overlay")
@page_guard
def desk(table_id: str) -> Any:
    _table_id(table_id)
    if not may_referee(table_id):
        abort(403, f"this session does not referee table {table_id!r}")
    table = dashboard().room.get(table_id)
    return render_template("overlay_desk.html", table=table, look=looks(dashboard()).get(table_id),
                           layouts=LAYOUTS, seats=SEATS, csrf=csrf_token())


@overlay_desk.post("/api/tables/<table_id>/look")
@api_guard
def set_colours(table_id: str) -> Any:
    _table_id(table_id)
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return jsonify(error='send a JSON object: {"accent": "#f2c14e", "panel": "#0d141b", "text": "#eef2f5"}'), 400
    try:
        looks(dashboard()).set_colours(table_id, body)
    except LookError as exc:
        return jsonify(error=str(exc)), 400
    return jsonify(ok=True, **publish_look(dashboard(), table_id))


@overlay_desk.post("/api/tables/<table_id>/look/<what>")
@api_guard
def set_picture(table_id: str, what: str) -> Any:
    _table_id(table_id)
    if (request.content_length or 0) > MAX_PICTURE:
        return jsonify(error=f"the picture is over {MAX_PICTURE // 1024} KiB: make it smaller "
                             f"(a logo or a face needs no more than 400 pixels across)"), 413
    try:
        looks(dashboard()).set_picture(table_id, what, request.get_data() or None)
    except LookError as exc:
        return jsonify(error=str(exc)), 400
    return jsonify(ok=True, **publish_look(dashboard(), table_id))


@overlay_desk.post("/api/tables/<table_id>/cue")
@api_guard
def cue(table_id: str) -> Any:
    """A cue for the overlays: ``{"show": "last_trick"}`` shows the last trick for a few seconds."""
    _table_id(table_id)
    body = request.get_json(silent=True) or {}
    if body.get("show") != "last_trick":
        return jsonify(error='send {"show": "last_trick"}'), 400
    return jsonify(ok=True, **publish_look(dashboard(), table_id, {"last_trick": time.time()}))


@overlay_desk.get("/looks/<name>")
def picture(name: str) -> Any:
    path = looks(dashboard()).picture(name)
    if path is None:
        abort(404, f"no picture {name!r}")
    return send_file(path, mimetype=MIME[path.suffix[1:]], max_age=365 * 86400)


@overlay_desk.get("/overlay/<table_id>/camera/<name>")
def camera(table_id: str, name: str) -> Any:
    """A violation's camera picture for the broadcast overlay; only one the broadcast
    feed shows now (the venue never gets them: a picture may show more than the card)."""
    _table_id(table_id)
    if not may_read(table_id, "broadcast"):
        abort(403, f"the camera's pictures need a broadcast token for table {table_id!r} (?token=...)")
    shown = {v.get("camera") for v in dashboard().hub.current(table_id, "broadcast").get("violations", [])}
    path = dashboard().thumbnail(name) if name in shown else None
    if path is None:
        abort(404, f"no picture {name!r} on this table's broadcast now")
    return send_file(path, mimetype="image/png", max_age=3600)


@overlay_desk.get("/overlay-preview.webp")
def preview_clip() -> Any:
    return send_file(make_preview(dashboard().instance), mimetype="image/webp", max_age=86400)
