"""A game's double-dummy analysis for its score sheet: ``/scoresheet/<game>/analysis``.

Each finished hand whose four hands are known, from
:func:`referee.analysis.scoresheet_analysis`: the par of the deal, each side's
losses against it, the costly cards with their chess marks, and the turning
card. Only finished hands: the hand being played is still hidden (the sheet is
public), and its analysis would tell what is left in the players' hands.

Solving a game's every position takes from a fraction of a second to a few
seconds, so it runs in the web server's thread pool (the streams keep flowing)
and each record is analysed once: the result is kept per game and record length.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from referee.analysis import analyse_game, scoresheet_analysis
from referee.game import Game

from .server import off_loop

#: Analysed records kept (game id, number of events) -> the sheet's analysis.
KEEP = 32
_done: OrderedDict[tuple[str, int], list[dict[str, Any]]] = OrderedDict()
_lock = threading.Lock()


def _analyse(record: list[dict]) -> list[dict[str, Any]]:
    game = Game.from_events(record)
    finished = {result.number: result for result in game.results}
    hands = scoresheet_analysis(h for h in analyse_game(record, hands=finished) if h.finished)
    for hand in hands:
        result = finished[hand["hand"]]
        hand["contract"] = result.contract.as_dict() if result.contract else None
        hand["result"] = result.result
    return hands


def game_analysis(game_id: str, record: list[dict]) -> list[dict[str, Any]]:
    """The analysis of every finished hand of ``record`` (kept once worked out)."""
    key = (game_id, len(record))
    with _lock:
        if key in _done:
            _done.move_to_end(key)
            return _done[key]
    hands = off_loop(_analyse, record)
    with _lock:
        _done[key] = hands
        while len(_done) > KEEP:
            _done.popitem(last=False)
    return hands
