"""The pages people open: the referee's console, the room's table screen, the
OBS overlay and the club page. Each page is a thin HTML shell; what it shows
comes from its one stream (``/stream/...``), so a page and its updates can
never disagree, and no hidden card is ever written into a page's source."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for

from .board import dashboard
from .auth import csrf_token, may_read, page_guard, referee_scope
from .views import FEEDS

pages = Blueprint("pages", __name__)

#: The overlay's layouts (docs/dashboard.md); a bookmarked name keeps working.
LAYOUTS = ("full", "scorebug", "hands", "trick", "lower-third")


def _table_or_404(table_id: str) -> Any:
    """The table of a page's address; an address naming it by its number alone (``/overlay/1``)
    is sent to its own (``/overlay/t1``), query and all, so the page and its stream agree."""
    table = dashboard().room.get(table_id)
    if table is None:
        abort(404, f"no table {table_id!r} at this event: see /club for the tables")
    if table.id != table_id:
        args = {**request.view_args, "table_id": table.id}
        abort(redirect(url_for(request.endpoint, **args, **request.args.to_dict(flat=True)), 302))
    return table


@pages.route("/")
def index() -> Any:
    return redirect(url_for("pages.club"))


@pages.route("/console")
@pages.route("/console/<table_id>")
@page_guard
def console(table_id: str | None = None) -> Any:
    scope = referee_scope()
    tables = [t for t in dashboard().room if scope == "*" or t.id in scope]
    if not tables:
        abort(404, "no table to referee: start one with `belote-table demo` or `belote-table run`")
    table = _table_or_404(table_id) if table_id else tables[0]
    if table not in tables:
        abort(403, f"this session does not referee table {table.id!r}")
    return render_template("console.html", table=table, tables=tables, csrf=csrf_token())


@pages.route("/table/<table_id>")
def table_screen(table_id: str) -> Any:
    table = _table_or_404(table_id)
    if not may_read(table_id, "venue"):
        abort(403, "this table's screen needs a venue token (?token=...) from the referee's console")
    return render_template("table.html", table=table, token=request.args.get("token", ""))


@pages.route("/overlay/<table_id>")
def overlay(table_id: str) -> Any:
    table = _table_or_404(table_id)
    feed = request.args.get("feed", "broadcast")
    if feed not in FEEDS or feed == "referee":
        abort(400, "feed must be broadcast (delayed, with hands) or venue (live, no hands)")
    layout = request.args.get("layout", "full")
    if layout not in LAYOUTS:
        abort(400, f"layout must be one of {', '.join(LAYOUTS)}")
    scale = None                     # fit the browser source, whatever its size
    if request.args.get("scale"):
        try:
            scale = float(request.args["scale"])
        except ValueError:
            abort(400, "scale must be a number such as 0.75 (or leave it out: the overlay fits its window)")
        if not 0.25 <= scale <= 4:
            abort(400, "scale must be between 0.25 and 4")
    motion = request.args.get("motion", "on")
    if motion not in ("on", "off"):
        abort(400, "motion must be on or off")
    if not may_read(table_id, feed):
        abort(403, f"this overlay needs a {feed} token for table {table_id!r} (?token=...)")
    return render_template("overlay.html", table=table, feed=feed, layout=layout, scale=scale,
                           preview=request.args.get("preview") in ("1", "true", "yes"), motion=motion == "on",
                           token=request.args.get("token", ""))


@pages.route("/club")
def club() -> Any:
    return render_template("club.html", tables=list(dashboard().room))
