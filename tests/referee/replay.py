"""A simulated game refereed as the benchmark referees it: the sensors' stream with the console's answers
where the table asked (the oracle, who knows the ground truth). The tests that replay a game of a
benchmark run (``tests/referee/test_trust*.py`` and others) share it, so that each says only what it checks
(imported by name, as ``real_photos`` is: pytest puts this folder on the path)."""

from __future__ import annotations

from referee.oracle import answered_stream
from referee.sensor_faults import parse_faults
from referee.simulate import SimGame, simulate
from referee.table_referee import TableReferee


def refereed(sim: SimGame) -> TableReferee:
    """The table referee once ``sim``'s stream and the console's answers have all come in."""
    referee = TableReferee(header=sim.header)
    for obs in answered_stream(sim):
        referee.ingest(obs)
    return referee


def replayed(seed: int, faults: str, rules: str, hands: int = 60) -> tuple[SimGame, TableReferee]:
    """Game ``seed`` (a benchmark run's game seed: ``seed * 100003 + game``) simulated under ``faults``
    (:func:`referee.sensor_faults.parse_faults`' words) and refereed: the game and its referee."""
    sim = simulate(hands, seed, parse_faults(faults), rules)
    return sim, refereed(sim)
