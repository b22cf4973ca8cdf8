"""``/scoresheet/<game>``: the live scoresheet of a game (printable, with CSV
and PDF downloads), and ``/scoresheets``: the archive of finished games with a
replay slider.

Only finished hands' results are on a scoresheet: it is public, like the
paper sheet on a club table."""

from __future__ import annotations

from typing import Any, Optional

from flask import Blueprint, abort, render_template

from .app import dashboard

scoresheets = Blueprint("scoresheets", __name__)


def _live_game(game: str) -> Optional[dict]:
    """The venue view of the table now playing ``game``."""
    for table in dashboard().room:
        view = dashboard().hub.current(table.id, "venue")
        if view.get("game") == game:
            return view
    return None


@scoresheets.route("/scoresheet/<game>")
def sheet(game: str) -> Any:
    view = _live_game(game)
    if view is None:
        abort(404, f"no game {game!r}: see /scoresheets for the finished games")
    return render_template("scoresheet.html", game=game, view=view)


@scoresheets.route("/scoresheets")
def archive() -> Any:
    live = [(t, dashboard().hub.current(t.id, "venue")) for t in dashboard().room]
    return render_template("archive.html", live=live, finished=[])
