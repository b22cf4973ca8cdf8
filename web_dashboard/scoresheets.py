"""The scoresheets on the web: ``/scoresheet/<game>``, a game's scoresheet
(printable, with ``.csv`` and ``.pdf`` downloads), ``/scoresheets``, the
archive of games, and a finished game's replay slider
(``/scoresheet/<game>/replay.json``).

A game is read from its SQLite event store and replayed by the rules engine,
so the sheet (``referee.scoresheet``: the rows, CSV, PDF), the archive and the
replay all come from the record the referee wrote. A scoresheet is public like
the paper one on a club table: finished hands' results only. The replay, with
every card, exists only for games that are over."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, Optional

from flask import Blueprint, Response, abort, jsonify, render_template

from referee.game import Game
from referee.record import RecordError
from referee.scoresheet import Scoresheet
from referee.store import EventStore, StoreError

from .board import dashboard
from .game_analysis import game_analysis
from .state import from_game

scoresheets = Blueprint("scoresheets", __name__)


def load_record(path: Path) -> list[dict[str, Any]]:
    """The game record kept in an event store (header first)."""
    store = EventStore(path)
    try:
        return store.export_record()
    finally:
        store.close()


def load_game(path: Path) -> Game:
    """The game in an event store, replayed by the rules engine."""
    return Game.from_events(load_record(path), source=str(path))


def replay_states(game: Game) -> list[dict[str, Any]]:
    """The table after each event of a finished game, for the replay slider
    (every card may be shown: the game is over)."""
    replay = Game(game.events[0])
    clockwise = game.options.clockwise
    states = []
    for n, event in enumerate(game.events[1:], 2):
        replay.apply(event)
        snapshot = replay.to_json()
        state = from_game(snapshot, clockwise)
        held = (snapshot.get("private") or {}).get("hands")
        state["hands"] = held
        state["event"] = {"n": n, "type": event.get("type"), "seat": event.get("seat"),
                          "card": event.get("card"), "call": event.get("call")}
        states.append({k: state.get(k) for k in ("event", "status", "hand", "trick", "last_trick", "points",
                                                 "score", "hands", "to_play")})
    return states


def summary(game_id: str, game: Game) -> dict[str, Any]:
    """A finished game's line for the archive and the club's standings."""
    seats = game.seats or {}
    teams = {t: " & ".join(n for n in (seats.get(t[0]), seats.get(t[1])) if n) or t for t in ("NS", "EW")}
    return {"id": game_id, "teams": teams, "score": {"NS": game.totals[0], "EW": game.totals[1]},
            "winner": {0: "NS", 1: "EW"}.get(game.winner), "over": game.over, "hands": len(game.results)}


def finished_games(games: Path, live: set[str]) -> list[dict[str, Any]]:
    """Every game stored under ``games`` that no table is playing now and that was begun,
    newest first. A game with nothing but its header (a table opened and closed before its
    first deal) is nobody's game: not listed."""
    found = []
    for path in sorted(games.glob("*.sqlite"), key=lambda p: p.stat().st_mtime, reverse=True):
        if path.stem in live:
            continue
        try:
            game = load_game(path)
        except (StoreError, RecordError, sqlite3.Error) as exc:   # one damaged file must not hide the others
            found.append({"id": path.stem, "error": str(exc)})
            continue
        if len(game.events) > 1:
            found.append(summary(path.stem, game))
    return found


def find_game(games: Path, game_id: str) -> Optional[Path]:
    path = games / f"{game_id}.sqlite"
    return path if path.parent == games and path.is_file() else None



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
    # A game over is replayed at once, still on its table (no "New game" needed), and no longer live.
    return render_template("scoresheet.html", game_id=game_id, game=game, sheet=Scoresheet.from_record(record),
                           table=None if game.over else table, info=summary(game_id, game), replay=game.over,
                           table_name=table.name if table is not None else None)


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
    if not game.over:
        abort(403, "a game is replayed card by card only once it is over")
    return jsonify(states=replay_states(game))


@scoresheets.route("/scoresheet/<game_id>/analysis")
def analysis(game_id: str) -> Any:
    record, table = _record(game_id)
    game = Game.from_events(record)
    return render_template("sheet_analysis.html", game_id=game_id, game=game, table=table,
                           info=summary(game_id, game), hands=game_analysis(game_id, record))


@scoresheets.route("/scoresheets")
def archive() -> Any:
    board = dashboard()
    # A table's game is live until it is over; then it is a finished game, though still on its
    # table until the console starts the next one.
    live = [(t, summary(t.game_id, t.referee.game)) for t in board.room if not t.referee.game.over]
    finished = finished_games(board.games, {t.game_id for t, _ in live})
    return render_template("archive.html", live=live, finished=finished)
