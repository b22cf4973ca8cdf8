"""A table that belongs to a hall (``demo``/``serve``/``run`` with ``--hall URL
--table-id ID``): the composition on the board's side.

The table runs exactly as without a hall (its SQLite stores, its dashboard);
beside it this starts the board's own nats-server, a leaf node of the hall's
(file-backed stream under ``<instance>/nats``, synced on every write), and the
link that publishes every stored event there (``hall.publisher``). The table
never waits for the hall: with the Wi-Fi down it plays on and its events wait
on the board.

The hall answers each heartbeat with the table's match in the open round; a
table told to play a new match starts a new game whose header carries the
round (``"hall": {"event", "round", "table", "teams"}``) and the players'
names, so the hall knows which game scores which match.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Callable, Optional

from referee.store import StoredReferee
from referee.table_referee import TableReferee

from .startup import SetupError, say

#: Seconds to wait for the hall's answer at start before playing on without it.
JOIN_WAIT = float(os.environ.get("BELOTE_HALL_JOIN_WAIT", "5"))


def link_timing() -> dict:
    """How soon a board notices a dead link and redials (seconds): the environment can
    shorten them (the fault tests do), real boards keep nats-server's own scale."""
    return {"ping_interval": float(os.environ.get("BELOTE_HALL_PING", "10")),
            "ping_max": int(os.environ.get("BELOTE_HALL_PING_MAX", "3")),
            "reconnect": float(os.environ.get("BELOTE_HALL_RECONNECT", "2"))}


def hall_tag(referee: Any) -> Optional[tuple]:
    tag = (referee.record[0] if referee.record else {}).get("hall") or {}
    return (tag.get("event"), tag.get("round")) if tag else None


def join_hall(board: Any, table: Any, stores: Callable[[], list], hall_url: str, table_id: str,
              play_match: Optional[Callable[[dict], None]] = None,
              playing: Optional[tuple] = None) -> list[Callable[[], None]]:
    """Start the board's leaf node and the link for ``table``; returns the stoppers.
    ``stores()`` lists the table's game stores, oldest first; ``play_match(assignment)``
    starts a match the hall assigned (default: a new game at the console with the
    assigned players)."""
    from hall.engines import EngineError, NatsServer
    from hall.publisher import TableLink, board_id
    from hall.wire import WireError, board_domain, check_table_id

    try:
        check_table_id(table_id)
    except WireError as exc:
        raise SetupError(f"--table-id: {exc}") from None
    if not hall_url.startswith(("nats-leaf://", "nats://", "tls://")):
        raise SetupError("--hall takes the URL the hall printed at start (nats-leaf://leaf:...@HOST:7422)")
    me = board_id(board.instance)
    try:
        nats = NatsServer(board.instance / "nats", name=f"board-{me}", domain=board_domain(me),
                          leaf_remote=hall_url, sync_always=True, **link_timing()).start()
    except EngineError as exc:
        raise SetupError(f"the board's nats-server: {exc}") from None
    start_match = play_match or (lambda a: new_match(table, stores, a))
    playing_now: dict[str, Any] = {"tag": playing or hall_tag(table.referee)}
    lock = threading.Lock()

    def follow(assignment: Optional[dict]) -> None:
        if not assignment:
            return
        tag = (assignment["event"], assignment["round"])
        with lock:
            if tag == playing_now["tag"]:
                return
            playing_now["tag"] = tag
        say(f"{table_id}: the hall assigns round {assignment['round']}: "
            f"NS {assignment['teams']['NS']} against EW {assignment['teams']['EW']}")
        start_match(assignment)

    link = TableLink(table_id, me, nats.url, stores=stores,
                     status=lambda: table.state().get("sensors", {}), on_assignment=follow, say=say).start()
    try:
        link.wait_started()
    except RuntimeError as exc:
        link.stop()
        nats.stop()
        raise SetupError(f"cannot publish to the board's own stream: {exc}") from None
    if link.joined.wait(JOIN_WAIT):
        if link.refused:
            link.stop()
            nats.stop()
            raise SetupError(f"the hall refused this table: {link.refused}")
        say(f"Hall: {table_id} joined; its events go to the hall as they are stored")
    else:
        say(f"Hall: not reachable yet; {table_id} plays on and its events wait on this board "
            f"(under {board.instance / 'nats'}) until the hall is")
    return [link.stop, nats.stop]


def match_header(assignment: dict) -> dict:
    header = TableReferee.make_header(assignment.get("rules", "ffb-contree"), {}, assignment["seats"])
    header["hall"] = {k: assignment.get(k) for k in ("event", "round", "table", "teams", "format")}
    return header


def assignment_of(header: dict) -> Optional[dict]:
    """The assignment a match's game was started for (from its header), to resume it."""
    tag = header.get("hall")
    if not tag:
        return None
    return {**tag, "seats": header.get("seats", {}), "rules": header.get("rules", "ffb-contree")}


def new_match(table: Any, stores: Callable[[], list], assignment: dict) -> None:
    """Close the table's game and open the assigned match's (a new store, its header tagged)."""
    def swap(old: Any) -> None:
        number = len(stores()) + 1
        if hasattr(old, "close"):
            old.close()
        table.referee = StoredReferee(table.referee.store.path.parent / f"{table.id}-{number}.sqlite",
                                      header=match_header(assignment))
        table.meta["seats"] = assignment["seats"]
        table.thumbnails = {}
    table.change(swap)


def demo_matches(board: Any, table: Any, stores: Callable[[], list], args: Any) -> list[Callable[[], None]]:
    """``demo --hall``: the simulated table waits for the hall, then acts out each
    assigned match as a new simulated game with the assigned players (the format's
    number of deals), through the same pipeline as the demo."""
    import zlib

    from .demo_table import DemoTable, simulate_demo

    current: dict[str, Any] = {"demo": None}

    def play_match(assignment: dict) -> None:
        if current["demo"] is not None:
            current["demo"].stop()
        new_match(table, stores, assignment)
        fmt = assignment.get("format") or {}
        hands = int(fmt.get("deals") or 4) if fmt.get("kind", "deals") == "deals" else 40
        seed = args.seed + zlib.crc32(f"{assignment['table']}-{assignment['round']}".encode()) % 100000
        sim = simulate_demo(seed, assignment.get("rules", args.rules), args.speed, hands, seats=assignment["seats"])
        current["demo"] = DemoTable(table, sim, board.instance, seed=seed, speed=args.speed,
                                    camera=not args.no_camera)
        current["demo"].start()

    def stop() -> None:
        if current["demo"] is not None:
            current["demo"].stop()

    # A board restarted in the middle of a match (a power cut, maybe while the hall is out of
    # reach) takes its match up again without waiting to hear from the hall.
    files = stores()
    resumed = None
    if len(files) > 1:
        previous = StoredReferee(files[-2])
        resumed = assignment_of(previous.record[0]) if not previous.game.over else None
        previous.close()
    stoppers = join_hall(board, table, stores, args.hall, args.table_id, play_match=play_match,
                         playing=(resumed["event"], resumed["round"]) if resumed else None)
    if resumed:
        say(f"{args.table_id}: resuming round {resumed['round']} (the match this board was playing)")
        play_match(resumed)
    return [stop] + stoppers
