"""``/scoresheet/<game>``: a game's scoresheet (printable, with ``.csv`` and
``.pdf`` downloads), ``/scoresheets``: the archive of games, and a finished
game's replay slider (``/scoresheet/<game>/replay.json``).

A scoresheet is public like the paper one on a club table: finished hands'
results only. The replay, with every card, exists only for games that are
over."""

from __future__ import annotations

from typing import Any, Optional

from flask import Blueprint, Response, abort, jsonify, render_template

from referee.game import Game
from referee.scoresheet import Scoresheet

from .app import dashboard
from .sheets import archive as archived_games, find_game, load_record, replay_states, summary

scoresheets = Blueprint("scoresheets", __name__)


def _record(game_id: str) -> tuple[list[dict], Optional[Any]]:
    """The game's record and, while it is being played, its table."""
    for table in dashboard().room:
        if table.game_id == game_id:
            return table.record(), table
    path = find_game(dashboard().games, game_id)
    if path is None:
        abort(404, f"no game {game_id!r}: the finished games are listed at /scoresheets")
    return load_record(path), None


@scoresheets.route("/scoresheet/<game_id>")
def sheet(game_id: str) -> Any:
    record, table = _record(game_id)
    game = Game.from_events(record)
    return render_template("scoresheet.html", game_id=game_id, game=game, sheet=Scoresheet.from_record(record),
                           table=table, info=summary(game_id, game), replay=table is None and game.over)


@scoresheets.route("/scoresheet/<game_id>.csv")
def sheet_csv(game_id: str) -> Any:
    record, _ = _record(game_id)
    return Response(Scoresheet.from_record(record).to_csv(), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{game_id}.csv"'})


@scoresheets.route("/scoresheet/<game_id>.pdf")
def sheet_pdf(game_id: str) -> Any:
    record, _ = _record(game_id)
    return Response(Scoresheet.from_record(record).to_pdf(), mimetype="application/pdf",
                    headers={"Content-Disposition": f'attachment; filename="{game_id}.pdf"'})


@scoresheets.route("/scoresheet/<game_id>/replay.json")
def replay(game_id: str) -> Any:
    record, table = _record(game_id)
    game = Game.from_events(record)
    if table is not None or not game.over:
        abort(403, "a game is replayed card by card only once it is over")
    return jsonify(states=replay_states(game))


@scoresheets.route("/scoresheets")
def archive() -> Any:
    board = dashboard()
    live = [(t, summary(t.game_id, t.referee.game)) for t in board.room]
    finished = archived_games(board.games, {t.game_id for t in board.room})
    return render_template("archive.html", live=live, finished=finished)
