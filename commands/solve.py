"""``belote-table referee solve GAME.jsonl... [--hand N] [--position K] [--json]``.

The double-dummy analysis of each hand of the records whose four hands are
known (:mod:`referee.analysis`): at every position (or only the one after K
cards of the hand), the value of every legal card with all hands known and
everyone playing best from there, the par and what the card played cost.
``--json`` prints DESIGN's object, one line per hand; the text form is a table
per hand. Progress goes to stderr; a bad record exits 2 naming its line.
"""

from __future__ import annotations

import argparse
import json
import sys

from .output import fail


def register_referee(sub: argparse._SubParsersAction) -> None:
    """Add ``solve`` to the ``belote-table referee`` group."""
    solve = sub.add_parser("solve", help="double-dummy analysis of a record's hands: par and each card's cost",
                           description="For each hand whose four hands are known, at each position the value "
                                       "of every legal card with all hands known and everyone playing best "
                                       "(card points per side, dix de der included, belote and the capot "
                                       "bonus excluded), the par and what the card played cost its side.")
    solve.add_argument("records", nargs="+", metavar="GAME.jsonl", help="game records (- reads one from stdin)")
    solve.add_argument("--hand", type=int, metavar="N", help="only hand N (1 is the first)")
    solve.add_argument("--position", type=int, metavar="K",
                       help="only the position after K cards of the hand were played (0-31)")
    solve.add_argument("--json", action="store_true", help="one JSON object per hand per line (DESIGN's shape)")
    solve.add_argument("--engine", choices=("c", "python"), help="the search engine (default: C when built)")
    solve.set_defaults(func=_solve)


def _solve(args: argparse.Namespace) -> int:
    from referee.analysis import analyse_game
    from referee.record import RecordError, read_record

    if args.hand is not None and args.hand < 1:
        return fail(f"--hand {args.hand}: hands are numbered from 1")
    if args.position is not None and not 0 <= args.position <= 31:
        return fail(f"--position {args.position}: a hand has positions 0 to 31 (cards played before it)")
    loaded = []
    for path in args.records:                      # read every record first: a bad one fails before any work
        source = "<stdin>" if path == "-" else path
        try:
            events = read_record(path)
            from referee.game import Game
            Game.from_events(events, source)
        except RecordError as exc:
            return fail(str(exc))
        loaded.append((path, events))
    try:
        engine = _engine(args.engine)
    except RuntimeError as exc:
        return fail(str(exc))
    for path, events in loaded:
        found = 0
        hands = None if args.hand is None else [args.hand]
        for hand in analyse_game(events, hands, args.position, engine, _progress(path)):
            if sys.stderr.isatty():
                print("\r\033[K", end="", file=sys.stderr, flush=True)
            found += 1
            if hand.stopped:
                print(f"{path}: hand {hand.number}: {hand.stopped}", file=sys.stderr)
            if args.json:
                print(json.dumps(hand.as_dict(path), ensure_ascii=False), flush=True)
            else:
                print(hand_text(hand, path), flush=True)
        if not found:
            what = f"hand {args.hand} did not" if args.hand is not None else "no hand"
            print(f"{path}: {what} reach the play with its four hands known: nothing to analyse",
                  file=sys.stderr)
    return 0


def _engine(name):
    if name == "c":
        from referee.solver_c import available
        if not available():
            raise RuntimeError("--engine c: the C solver core is not built: run `make install` (it needs gcc)")
    return name


def _progress(path: str):
    """A line on stderr, redrawn per position on a terminal, one per hand otherwise."""
    live = sys.stderr.isatty()

    def progress(hand: int, done: int, total: int) -> None:
        if live:
            print(f"\r\033[K{path}: hand {hand}, position {done}/{total}", end="", file=sys.stderr, flush=True)
        elif done == total:
            print(f"{path}: hand {hand}: {total} position(s) analysed", file=sys.stderr, flush=True)
    return progress


def hand_text(hand, path: str) -> str:
    """A table of one hand's positions, for terminals."""
    from referee.analysis import mark
    from referee.cards import card_name
    from referee.seats import SEAT_NAMES

    c = hand.contract
    lines = [f"{path} hand {hand.number}: {SEAT_NAMES[c.taker]} {c.call}"
             + (f" x{c.counter}" if c.counter > 1 else "")]
    lines.append(f"{'#':>3}  seat  {'par NS-EW':>10}  {'played':6}  {'cost':>5}  best")
    for p in hand.positions:
        best = [card_name(card) for card, o in p.cards.items() if o == p.par]
        par = f"{p.par.ns}-{p.par.ew}" + (" capot" if p.par.capot is not None else "")
        played = card_name(p.card) if p.card is not None else "-"
        cost = "" if p.cost is None else f"{p.cost}{mark(p.cost):>2}"
        lines.append(f"{p.played:>3}  {SEAT_NAMES[p.seat]:4}  {par:>10}  {played:6}  {cost:>5}  {' '.join(best)}")
    return "\n".join(lines)
