"""The archive of games and the replay slider: what ``/scoresheets`` and
``/scoresheet/<game>/replay.json`` serve. A game is read from its SQLite event
store and replayed by the rules engine, so the sheet (``referee.scoresheet``:
page, CSV, PDF), the archive and the replay all come from the record the
referee wrote.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, Optional

from referee.game import Game
from referee.record import RecordError
from referee.store import EventStore, StoreError

from .state import from_game

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


def archive(games: Path, live: set[str]) -> list[dict[str, Any]]:
    """Every game stored under ``games`` that no table is playing now, newest first."""
    found = []
    for path in sorted(games.glob("*.sqlite"), key=lambda p: p.stat().st_mtime, reverse=True):
        if path.stem in live:
            continue
        try:
            found.append(summary(path.stem, load_game(path)))
        except (StoreError, RecordError, sqlite3.Error) as exc:   # one damaged file must not hide the others
            found.append({"id": path.stem, "error": str(exc)})
    return found


def find_game(games: Path, game_id: str) -> Optional[Path]:
    path = games / f"{game_id}.sqlite"
    return path if path.parent == games and path.is_file() else None
