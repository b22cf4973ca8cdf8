"""The hall's pages: ``/hall`` (every table at a glance), ``/standings/<event>``
(the room's screen), ``/results/<event>`` (+ ``.csv``, ``.pdf``),
``/team/<event>/<team>`` (a team's rounds), ``/hall/featured`` (the overlay of
the streamed table) and ``/desk`` (the organiser, signed in).

Like the table's pages, each page is a shell fed by one stream
(``/stream/hall``, ``/stream/hall/standings``, ``/stream/hall/featured``), from
the hub's feeds that :class:`~web_dashboard.hall_live.HallLive` keeps; signing
in, sessions and CSRF are the dashboard's own (``web_dashboard.auth``).
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request

from hall.tournament import DeskError

from .auth import api_guard, csrf_token, page_guard, referee_scope
from .hall_results import results_csv, results_pdf

hall_pages = Blueprint("hall", __name__)


def live() -> Any:
    return current_app.extensions["belote_hall"]


def _event_or_404(event: str) -> Any:
    if event != live().event:
        abort(404, f"no event {event!r} in this hall: this hall runs {live().event!r}")
    return live().tournament


def _sse(feed: Any) -> Response:
    hub = live().hub
    client = feed.subscribe(hub.event_factory, request.headers.get("Last-Event-ID"))
    return Response(hub.stream(client), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"})


@hall_pages.route("/hall")
def hall() -> Any:
    return render_template("hall.html", event=live().event)


@hall_pages.route("/stream/hall")
def hall_stream() -> Any:
    return _sse(live().feeds["hall"])


@hall_pages.route("/stream/hall/standings")
def standings_stream() -> Any:
    return _sse(live().feeds["standings"])


@hall_pages.route("/stream/hall/featured")
def featured_stream() -> Any:
    return _sse(live().feeds["featured"])


@hall_pages.route("/standings/<event>")
def standings(event: str) -> Any:
    _event_or_404(event)
    return render_template("hall_standings.html", event=event)


@hall_pages.route("/hall/featured")
def featured() -> Any:
    return render_template("hall_featured.html", event=live().event)


def _matches(t: Any) -> list[dict]:
    fixed = {(c["round"], c["table"]): c["reason"] for c in t.corrections}
    return [{"round": m.round, "table": m.table, "NS": m.ns, "EW": m.ew, "score_ns": m.score_ns,
             "score_ew": m.score_ew, "final": m.final, "corrected": fixed.get((m.round, m.table))}
            for m in t.matches(live().scores(t))]


@hall_pages.route("/results/<event>")
def results(event: str) -> Any:
    t = _event_or_404(event)
    if t is None:
        abort(404, "no tournament yet: create it at the desk")
    return render_template("hall_results.html", event=event, tour=t, standings=live().standings_view(),
                           matches=_matches(t), audit=live().web_desk.db.audit(event))


@hall_pages.route("/results/<event>.csv")
def results_as_csv(event: str) -> Any:
    t = _event_or_404(event)
    return Response(results_csv(live().standings_view(), _matches(t)), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{event}-results.csv"'})


@hall_pages.route("/results/<event>.pdf")
def results_as_pdf(event: str) -> Any:
    t = _event_or_404(event)
    return Response(results_pdf(live().standings_view(), _matches(t), t.name or event), mimetype="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{event}-results.pdf"'})


@hall_pages.route("/pairings/<event>")
def pairings(event: str) -> Any:
    """The current round's table-to-team sheet, to print and pin up in the hall."""
    t = _event_or_404(event)
    if t is None or not t.rounds:
        abort(404, "no round yet: the desk starts one")
    return render_template("hall_pairings.html", event=event, tour=t, round=t.current)


@hall_pages.route("/team/<event>/<team>")
def team(event: str, team: str) -> Any:
    t = _event_or_404(event)
    if t is None or team not in t.registry.teams:
        abort(404, f"no team {team!r} in {event!r}")
    return render_template("hall_team.html", event=event, team=t.registry.teams[team],
                           history=t.history(team, live().scores(t)))


# --- the organiser's desk ----------------------------------------------------------------------------
@hall_pages.route("/desk")
@page_guard
def desk() -> Any:
    if referee_scope() != "*":
        abort(403, "the desk is the organiser's: sign in with the hall's password")
    t, _ = live().web_desk.load()
    return render_template("hall_desk.html", event=live().event, tour=t, csrf=csrf_token(),
                           tables=sorted(live().records.tables), audit=live().web_desk.db.audit(live().event))


@hall_pages.route("/api/hall/desk", methods=["POST"])
@api_guard
def desk_action() -> Any:
    if referee_scope() != "*":
        return jsonify(error="the desk is the organiser's: sign in with the hall's password"), 403
    body = request.get_json(silent=True) or {}
    action = body.get("action", "")
    args = {k: v for k, v in (body.get("args") or {}).items() if v not in (None, "")}
    who = str(body.get("who") or "organiser")[:60]
    try:
        if action == "feature":
            live().feature(args.get("table"))
            return jsonify(ok=True)
        if action == "time-up":
            with live().records_lock:
                args["cutoffs"] = {t: c.seq for t, c in live().records.tables.items()}
            t = live().web_desk.act("time-up", args, who)
        else:
            if action == "start-round":
                live().sync_tables(who)
            t = live().web_desk.act(action, args, who, body.get("reason"))
    except DeskError as exc:
        return jsonify(error=str(exc)), 409
    except ValueError as exc:            # a concurrent change: reload
        return jsonify(error=str(exc)), 409
    live().tournament = t
    return jsonify(ok=True, round=t.current, at=time.time())
