"""The double-dummy solver and the win chance, ours beside colver's (``python -m bench solver``).

Rows (issue 14's table), each over seeded random deals under ``ffb-contree``
(suit contracts: colver plays no others), ours and colver's timed in turn on
the same positions:

- every card's value from the full deal (colver ``solve_scores``; ours
  :meth:`Solver.card_values`), and our par alone;
- the same after trick 2 and after trick 4;
- par at any position of a hand with a warm start: the deal solved once (during
  the auction), then the par and every card's value after each card of a game;
- the win chance, 100 worlds, after trick 2 and after trick 4: ours from the record
  (public view, draws, zero-window solves), colver's ``solve_scores`` on the same
  worlds (the draws not timed for it), and whether the two agree world by world;
- agreement with colver on 10,000 random positions (every legal card's value);
- our pure-Python engine, for scale.

Medians, p90, p99 and max in milliseconds. ``tests/referee/test_solver.py``
uses :func:`random_position` and :func:`colver_values` on fewer positions.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Callable, Sequence

from bench.referee import _FROM_COLVER, _TO_COLVER, Colver, random_deal
from referee.cards import card_name, iter_cards
from referee.play import HandPlay
from referee.rules import Options, profile
from referee.seats import SEAT_NAMES
from referee.solver import Solver


def random_position(rng: random.Random, options: Options, modes: Sequence[int], played: int):
    """A random deal and ``played`` random legal cards of it: (HandPlay, deal)."""
    deal = random_deal(rng, modes)
    hands, mode, leader = deal
    play = HandPlay(mode, leader, options, hands)
    for _ in range(played):
        play.play(rng.choice(list(iter_cards(play.legal()))))
    return play, deal


def _colver_env(deal, play: HandPlay):
    env = Colver.start(deal)
    for trick in play.tricks:
        for card in trick.cards:
            env.step(_TO_COLVER[card])
    for card in play.trick:
        env.step(_TO_COLVER[card])
    return env


def colver_values(deal, play: HandPlay) -> dict[int, int]:
    """colver's value of each legal card at ``play``'s position: NS's points, a capot 252."""
    return {_FROM_COLVER[c]: score for c, score in _colver_env(deal, play).solve_scores()["scores"]}


def _stats(ms: list[float]) -> str:
    ms = sorted(ms)
    def q(p: float) -> float:
        return ms[min(len(ms) - 1, int(p * len(ms)))]
    return f"{statistics.median(ms):9.2f}{q(0.9):9.2f}{q(0.99):9.2f}{ms[-1]:9.2f}"


def _row(label: str, who: str, ms: list[float]) -> None:
    print(f"{label:<38}{who:<10}{len(ms):>6}{_stats(ms)}", flush=True)


def _timed(fn: Callable[[], object]) -> tuple[object, float]:
    start = time.perf_counter()
    out = fn()
    return out, (time.perf_counter() - start) * 1000


def _after(rng: random.Random, options: Options, cards: int, count: int):
    return [random_position(rng, options, (0, 1, 2, 3), cards) for _ in range(count)]


def solve_rows(deals: int, seed: int) -> None:
    options = profile("ffb-contree")
    rng = random.Random(seed)
    for label, cards, count in (("every card, full deal", 0, deals), ("every card, after trick 2", 8, deals),
                                ("every card, after trick 4", 16, deals)):
        ours, theirs, par = [], [], []
        for play, deal in _after(rng, options, cards, count):
            _, t = _timed(lambda: colver_values(deal, play))
            theirs.append(t)
            _, t = _timed(lambda: Solver(play, engine="c").card_values(play))
            ours.append(t)
            _, t = _timed(lambda: Solver(play, engine="c").par(play))
            par.append(t)
        _row(label, "colver", theirs)
        _row(label, "ours", ours)
        _row(label.replace("every card", "par alone"), "ours", par)


def warm_rows(deals: int, seed: int) -> None:
    """Par (and every card) at each position of random games, the deal solved first."""
    options = profile("ffb-contree")
    rng = random.Random(seed)
    warm, par, cards, cold = [], [], [], []
    for _ in range(deals):
        play, deal = random_position(rng, options, (0, 1, 2, 3), 0)
        solver, t = _timed(lambda: Solver(play, engine="c"))
        _, t2 = _timed(lambda: solver.card_values(play))
        warm.append(t + t2)
        for _ in range(31):
            play.play(rng.choice(list(iter_cards(play.legal()))))
            _, t = _timed(lambda: solver.par(play))
            par.append(t)
            _, t = _timed(lambda: solver.card_values(play))
            cards.append(t)
            _, t = _timed(lambda: colver_values(deal, play))
            cold.append(t)
    _row("warm start: the deal, every card", "ours", warm)
    _row("then par, any later position", "ours", par)
    _row("then every card, any later position", "ours", cards)
    _row("every card, any later position (cold)", "colver", cold)


def win_rows(hands: int, seed: int, worlds: int = 100) -> None:
    """Win chance after trick 2 and 4 on records of seeded demo games."""
    from referee.demo import play_demo_game
    from referee.winchance import _replay, _Sampler, public_view, win_chance

    records = []
    game_seed = seed
    while len(records) < hands:
        events = play_demo_game(seed=game_seed, rules="ffb-contree", max_hands=4, violation_rate=0.0)
        game_seed += 1
        starts = [i for i, e in enumerate(events) if e["type"] == "deal"] + [len(events)]
        for a, b in zip(starts, starts[1:]):
            plays = [i for i in range(a, b) if events[i]["type"] == "play"]
            if len(plays) == 32:
                records.append((events, plays))
    for tricks in (2, 4):
        ours, cpu, theirs, agree, total = [], [], [], 0, 0
        for events, plays in records[:hands]:
            cut = events[:plays[4 * tricks]]
            start = time.process_time()
            result, t = _timed(lambda: win_chance(cut, worlds, seed=1))
            cpu.append((time.process_time() - start) * 1000)
            ours.append(t)
            # colver on the same worlds: the draws are made again, untimed
            view = public_view(cut)
            sampler = _Sampler(view, result.promise)
            rng = random.Random(1)
            made, spent = 0, 0.0
            for _ in range(worlds):
                while True:
                    world = _replay(view, sampler.draw(rng))
                    if world is not None:
                        break
                dealt = [world.hand(s) for s in range(4)]
                for seat, card in view.plays:
                    dealt[seat] |= 1 << card
                deal = (dealt, world.trump, view.leader)
                start = time.perf_counter()
                values = colver_values(deal, world)
                spent += time.perf_counter() - start
                made += _colver_made(view, world, values)
            theirs.append(spent * 1000)
            agree += made == result.made
            total += 1
        _row(f"win chance {worlds} worlds, after trick {tricks}", "colver", theirs)
        _row(f"win chance {worlds} worlds, after trick {tricks}", "ours", ours)
        _row("  the same in CPU time", "ours", cpu)
        print(f"{'':<38}made counts equal on {agree}/{total} positions", flush=True)


def _colver_made(view, world: HandPlay, values: dict[int, int]) -> bool:
    """Whether the takers make the contract in ``world`` by colver's values (its belote as ours)."""
    from referee.winchance import _belote, _target
    target = _target(view, _belote(view, [world.hand(s) for s in range(4)], world.trump))
    if target is None:
        return False
    side = view.contract.taker & 1
    to_play = world.to_play & 1
    best = max(values.values()) if to_play == 0 else min(values.values())
    mine = best if side == 0 else 162 - best       # colver floors a capot suffered at 0: only a capot bid cares
    return mine >= target


def agreement(positions: int, seed: int) -> None:
    options = profile("ffb-contree")
    rng = random.Random(seed)
    diffs = cards = 0
    start = time.perf_counter()
    for n in range(positions):
        if n % 500 == 0:
            print(f"\r  agreement: {n:,}/{positions:,} positions", end="", file=sys.stderr, flush=True)
        play, deal = random_position(rng, options, (0, 1, 2, 3), rng.randrange(0, 32))
        theirs = colver_values(deal, play)
        solver = Solver(play, engine="c")
        ours = {c: max(solver.capot_scale(o, 0), 0) for c, o in solver.card_values(play).items()}
        cards += len(ours)
        if ours != theirs:
            diffs += 1
            if diffs <= 5:
                print(f"  differs: trump {play.trump}, {SEAT_NAMES[play.to_play]} to play, trick "
                      f"{[card_name(c) for c in play.trick]}: ours {ours}, colver {theirs}")
    print("\r" + " " * 60 + "\r", end="", file=sys.stderr)
    print(f"agreement with colver: {positions:,} random positions, {cards:,} card values, {diffs} differ "
          f"({time.perf_counter() - start:.0f} s)", flush=True)


def python_rows(seed: int) -> None:
    options = profile("ffb-contree")
    rng = random.Random(seed)
    for label, cards, count in (("every card, full deal", 0, 10), ("every card, after trick 2", 8, 40),
                                ("every card, after trick 4", 16, 100)):
        ms = []
        for play, _ in _after(rng, options, cards, count):
            _, t = _timed(lambda: Solver(play, engine="python").card_values(play))
            ms.append(t)
        _row(label, "python", ms)


def run(deals: int = 200, worlds_hands: int = 100, positions: int = 10_000) -> None:
    print("ffb-contree, seeded random deals; ms per position; engines timed in turn on the same positions",
          file=sys.stderr)
    print(f"{'measure':<38}{'engine':<10}{'n':>6}{'median':>9}{'p90':>9}{'p99':>9}{'max':>9}")
    solve_rows(deals, seed=1)
    warm_rows(deals // 4, seed=2)
    win_rows(worlds_hands, seed=3)
    python_rows(seed=4)
    agreement(positions, seed=5)
