"""The composition root: sensors + table referee + web, for each kind of table.

- :func:`console_tables`: tables without sensors; the console is the only input.
- :func:`demo_tables`: one simulated table through the real pipeline
  (``web_dashboard.demo_table``).
- :func:`real_table`: a calibrated table: its RFID bridge and its camera.

Every table's game lives in its own SQLite event store under
``<instance>/games/<table>-<n>.sqlite``: a restarted server reopens the game
that was being played (the store replays it) instead of starting afresh, and
finished games stay there as the archive the scoresheet pages replay.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

from .startup import SetupError, say
from .room import LiveTable

_GAME_FILE = re.compile(r"(?P<table>\w+)-(?P<n>\d+)\.sqlite\Z")


def game_files(games: Path, table_id: str) -> list[Path]:
    """The table's game stores, oldest first."""
    found = [(int(m["n"]), p) for p in games.glob(f"{table_id}-*.sqlite")
             if (m := _GAME_FILE.match(p.name)) and m["table"] == table_id]
    return [p for _, p in sorted(found)]


def open_game(games: Path, table_id: str, rules: str, seats: dict, fresh: bool = False) -> Any:
    """The table's current game: the last one if it is not over (a restart
    resumes it), else a new one."""
    from referee.store import StoredReferee, StoreError

    games.mkdir(parents=True, exist_ok=True)
    files = game_files(games, table_id)
    if files and not fresh:
        try:
            referee = StoredReferee(files[-1], rules=rules, seats=seats)
        except StoreError as exc:           # a damaged file: kept aside for a person, the table goes on
            aside = files[-1].with_name(files[-1].name + ".damaged")
            for suffix in ("", "-wal", "-shm"):
                if Path(f"{files[-1]}{suffix}").exists():
                    Path(f"{files[-1]}{suffix}").rename(f"{aside}{suffix}")
            say(f"{table_id}: {exc}; it is kept as {aside} and a new game starts")
            return open_game(games, table_id, rules, seats, fresh=True)
        for oid, why in referee.set_aside:
            say(f"{table_id}: observation {oid} of {files[-1]}: {why}")
        if not referee.game.over:
            say(f"{table_id}: resuming the game in {files[-1]}")
            return referee
        referee.close()
    number = int(_GAME_FILE.match(files[-1].name)["n"]) + 1 if files else 1
    return StoredReferee(games / f"{table_id}-{number}.sqlite", rules=rules, seats=seats)


def add_table(board: Any, table_id: str, name: str, rules: str, seats: dict,
              sensors: str = "console", resume: bool = True) -> LiveTable:
    """Open (or resume) ``table_id``'s game and put it on the dashboard."""
    games = board.games

    def new_game(fresh: bool = False) -> Any:
        return open_game(games, table_id, rules, seats, fresh)

    table = LiveTable(table_id, name, new_game(not resume), board.hub.submit,
                      meta={"rules": rules, "seats": seats, "sensors": sensors}, new_game=new_game)
    board.accounts.add_table(table_id, name, rules)
    board.room.add(table)
    return table


def console_tables(board: Any, count: int, rules: str, seats: dict, args: Any = None) -> list[Callable[[], None]]:
    """``count`` tables without sensors (the console keeps their scoresheets)."""
    if count < 1:
        raise SetupError("--tables must be at least 1")
    if getattr(args, "hall", None) and count != 1:
        raise SetupError("a board is one table in a hall: --hall takes --tables 1")
    for n in range(1, count + 1):
        add_table(board, f"t{n}", f"Table {n}", rules, seats if n == 1 else {})
    return _hall(board, args)


def _hall(board: Any, args: Any) -> list[Callable[[], None]]:
    """With ``--hall``: the board's leaf node and the link that forwards the table's events."""
    if not getattr(args, "hall", None):
        return []
    from .hall_table import join_hall

    table = next(iter(board.room))
    return join_hall(board, table, lambda: game_files(board.games, table.id), args.hall, args.table_id)


def demo_tables(board: Any, args: Any, sim: Any) -> list[Callable[[], None]]:
    """The demo's one table, acting out ``sim`` (:func:`~web_dashboard.demo_table.simulate_demo`)."""
    from .demo_table import SEATS, DemoTable

    table = add_table(board, "t1", "Table 1", args.rules, SEATS, sensors="demo", resume=False)
    if getattr(args, "hall", None):              # the hall says which match to act out, and when
        from .hall_table import demo_matches
        return demo_matches(board, table, lambda: game_files(board.games, table.id), args)
    demo = DemoTable(table, sim, board.instance, seed=args.seed, speed=args.speed, camera=not args.no_camera)
    return [demo.start()]


def real_table(board: Any, args: Any, seats: dict) -> list[Callable[[], None]]:
    """A calibrated table: its sensors (the RFID readers, the camera) feed its referee."""
    from .sensors import start_sensors, table_sensors

    sensors = table_sensors(Path(args.profile), serial_url=args.serial, camera=args.camera,
                            thumbnails=board.thumbnails)
    table = add_table(board, "t1", "Table 1", args.rules, seats, sensors="table")
    return start_sensors(table, sensors) + _hall(board, args)
