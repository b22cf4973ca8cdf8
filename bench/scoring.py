"""Hand scoring against colver and belote-cli, and the speed of replaying a record.

``python -m bench scoring`` replays seeded whole games through
:class:`referee.game.Game` (record lines parsed and checked, every event
applied, every hand scored) and prints events and hands per second, then
runs the scoring differential of ``tests/referee/test_differential_scoring.py``
on 50,000 more deals per peer (another seed).

The comparison lives here, beside the adapters of ``bench/referee.py`` that it
reuses, so that the test and the benchmark run the same code: each peer plays
seeded random deals itself under a random contract, our play engine replays
the same cards and :func:`referee.scoring.score_hand` scores them with the
options that match the peer (``docs/differential.md``, "Scoring"). A
disagreement is a bug unless one narrow named predicate, which recomputes the
peer's figure from ours with that one rule changed, explains it.
"""

from __future__ import annotations

import dataclasses
import json
import random
import statistics
import sys
import time
from collections import Counter
from typing import Callable, NamedTuple, Optional

from bench.referee import BeloteCli, Colver, random_deal
from referee.auction import Contract
from referee.cards import KING, QUEEN, iter_cards
from referee.declarations import declaration_points, find_declarations
from referee.play import HandPlay
from referee.rules import Options, profile
from referee.scoring import HandScore, score_hand
from referee.seats import team_of
from referee.trump_tables import trump_name


COLVER_OPTIONS = profile("contree", scoring="made+bid", rounding="none", make_rule="bid", failed_value=162,
                         capot_value=252, counter_multiplier=2, recounter_multiplier=3, counter_scope="bid",
                         belote_invincible=False)
#: belote-cli's classic belote: more points than the defence (declarations count, belote does not),
#: a tie is a litige held for the next hand, dedans = 162 + all declarations, belote kept.
BELOTE_CLI_OPTIONS = profile("classic", make_rule="more-than-defence", litige="hold",
                             belote_counts_for_contract=False)


class Hand(NamedTuple):
    """One hand both engines played: the facts and both scores (NS, EW)."""

    contract: Contract
    play: HandPlay
    belote: tuple[int, int]
    declarations: tuple[int, int]
    ours: HandScore
    theirs: tuple[int, int]
    text: str


def _belote(hands: list[int], mode: int) -> tuple[int, int]:
    points = [0, 0]
    for seat, hand in enumerate(hands):
        if hand >> (mode * 8 + KING) & 1 and hand >> (mode * 8 + QUEEN) & 1:
            points[team_of(seat)] += 20
    return points[0], points[1]


def _play_out(peer, deal, options: Options, rng: random.Random) -> HandPlay:
    hands, mode, leader = deal
    ours = HandPlay(mode, leader, options, hands)
    for _ in range(32):
        legal = list(iter_cards(ours.legal()))
        card = legal[rng.randrange(len(legal))]
        assert ours.play(card) is None
        peer.play(card)
    return ours


# --- colver ---------------------------------------------------------------------------


def colver_hands(count: int, seed: int = 2026):
    rng = random.Random(seed)
    for _ in range(count):
        deal = random_deal(rng, range(4))
        hands, mode, leader = deal
        team = rng.randrange(2)
        capot = rng.random() < 0.1
        value = 250 if capot else rng.randrange(80, 170, 10)
        level = rng.choice((0, 0, 0, 1, 2))
        peer = Colver(deal, COLVER_OPTIONS)
        peer.env.set_contract(mode, value, team, level)
        play = _play_out(peer, deal, COLVER_OPTIONS, rng)
        counter = (1, 2, 3)[level]
        contract = Contract(taker=team, mode=mode, value=None if capot else value, capot=capot, counter=counter,
                            call=("capot" if capot else str(value)) + trump_name(mode))
        belote = _belote(hands, mode)
        ours = score_hand(COLVER_OPTIONS, contract, play.card_points, play.tricks_won, belote)
        theirs = tuple(int(r) for r in peer.env.rewards())
        yield Hand(contract, play, belote, (0, 0), ours, theirs,
                   f"{contract.call} x{counter} by {'NS' if team == 0 else 'EW'}, tricks {play.tricks_won}, "
                   f"card points {play.card_points}, belote {belote}: ours {ours.score}, colver {theirs}")


def colver_bid_capot_is_a_250_bid(h: Hand) -> Optional[tuple[int, int]]:
    """colver scores a bid capot as a bid of 250: the winner gets its card points (252 if the
    takers made it, else 162) + 250 x multiplier; seed 001 gives 500 / 1000 / 2000 flat. The
    belotes follow colver's rule for every contract: made and not countered, each side keeps
    its own; otherwise all go to the winner."""
    c = h.contract
    if not c.capot:
        return None
    made = h.ours.result == "made"
    winner = c.team if made else 1 - c.team
    out = [0, 0]
    out[winner] = (252 if made else 162) + 250 * c.counter
    if made and c.counter == 1:
        out[0] += h.belote[0]
        out[1] += h.belote[1]
    else:
        out[winner] += sum(h.belote)
    return out[0], out[1]


def colver_defence_capot_scores_162(h: Hand) -> Optional[tuple[int, int]]:
    """A defence that takes all eight tricks scores 162 + bid in colver; seed 001 (made + bid):
    "a non-announced capot is worth 250 points + the contract points" — to whoever makes it."""
    c = h.contract
    defence = 1 - c.team
    if c.capot or h.play.tricks_won[defence] != 8:
        return None
    out = list(h.ours.score)
    out[defence] -= 90
    return out[0], out[1]


def colver_countered_belote_to_winner(h: Hand) -> Optional[tuple[int, int]]:
    """On a countered contract that is made, colver gives the defence's belote to the takers;
    we keep it with its holder (000 §7: the belote bonus is awarded to the team that holds it,
    VARIANTS: "belote (20) is added outside any multiplier")."""
    c = h.contract
    defence = 1 - c.team
    if c.capot or c.counter == 1 or h.ours.result != "made" or not h.belote[defence]:
        return None
    out = list(h.ours.score)
    out[defence] -= h.belote[defence]
    out[c.team] += h.belote[defence]
    return out[0], out[1]


COLVER_DIFFERENCES = (colver_bid_capot_is_a_250_bid, colver_defence_capot_scores_162,
                      colver_countered_belote_to_winner)


# --- belote-cli -------------------------------------------------------------------------


def belote_cli_hands(count: int, seed: int = 2026):
    from belote import deck as bdeck
    from belote import game, scoring

    rng = random.Random(seed)
    for _ in range(count):
        deal = random_deal(rng, range(4))
        hands, mode, leader = deal
        taker = rng.randrange(4)
        peer = BeloteCli(deal, BELOTE_CLI_OPTIONS)
        holders = {bdeck.CARD_SUITS[mode]: game.Seat((2 - s) & 3) for s in range(4)
                   if hands[s] >> (mode * 8 + KING) & 1 and hands[s] >> (mode * 8 + QUEEN) & 1}
        peer.st = dataclasses.replace(peer.st, taker=game.Seat((2 - taker) & 3), belote_holders=holders)
        play = _play_out(peer, deal, BELOTE_CLI_OPTIONS, rng)
        breakdown = scoring.score_round(dataclasses.replace(peer.st, phase=game.Phase.SCORING))
        team = team_of(taker)
        # The scoring rules are compared on belote-cli's own declarations (their ranking is
        # compared on its own in test_belote_cli_declarations below).
        decl = [0, 0]
        decl[team], decl[1 - team] = breakdown.taker_declarations, breakdown.defender_declarations
        contract = Contract(taker=taker, mode=mode, value=None, capot=False, counter=1, call="take")
        belote = _belote(hands, mode)
        ours = score_hand(BELOTE_CLI_OPTIONS, contract, play.card_points, play.tricks_won, belote, tuple(decl))
        theirs = [0, 0]
        theirs[team], theirs[1 - team] = breakdown.taker_total, breakdown.defender_total
        yield Hand(contract, play, belote, (decl[0], decl[1]), ours, (theirs[0], theirs[1]),
                   f"take {trump_name(mode)} by {'NESW'[taker]}, tricks {play.tricks_won}, card points "
                   f"{play.card_points}, belote {belote}, declarations {decl}: ours {ours.score} "
                   f"(held {ours.held}), belote-cli {theirs}")


def belote_cli_capot_takes_the_capoted_declarations(h: Hand) -> Optional[tuple[int, int]]:
    """belote-cli gives a capot team the declarations of the team it capoted; seed 004: "the
    team which took no tricks forfeit their own declarations" (forfeited, not transferred)."""
    tricks = h.play.tricks_won
    if 8 not in tricks:
        return None
    winner = tricks.index(8)
    if winner != h.contract.team or not h.declarations[1 - winner]:
        return None
    out = list(h.ours.score)
    out[winner] += h.declarations[1 - winner]
    return out[0], out[1]


BELOTE_CLI_DIFFERENCES = (belote_cli_capot_takes_the_capoted_declarations,)


def compare(hands, differences: tuple[Callable, ...]) -> tuple[Counter, list[str]]:
    """(documented differences by predicate, undocumented disagreements as text)."""
    documented: Counter = Counter()
    undocumented: list[str] = []
    for h in hands:
        if h.ours.score == h.theirs:
            continue
        for predicate in differences:
            if predicate(h) == h.theirs:
                documented[predicate.__name__] += 1
                break
        else:
            undocumented.append(h.text)
    return documented, undocumented


# --- declarations: our ranking (004) against belote-cli's ------------------------------------


def belote_cli_square_shares_cards_with_a_sequence(hands: list[int]) -> bool:
    """belote-cli counts a square and a sequence sharing a card both; seed 004: "a particular
    card may not be involved in two declarations"."""
    for hand in hands:
        for rank in range(8):
            square = sum(1 << (s * 8 + rank) for s in range(4))
            if hand & square == square:
                for suit in range(4):
                    lo, hi = max(rank - 2, 0), min(rank + 2, 7)
                    window = [hand >> (suit * 8 + r) & 1 for r in range(lo, hi + 1)]
                    if "111" in "".join(map(str, window)):
                        return True
    return False


def belote_cli_squares_of_sevens_and_eights(hands: list[int]) -> bool:
    """belote-cli keeps four 7s or four 8s as a square worth 0 that still outranks every
    sequence; seed 002/004: "4 eights and 4 sevens are not counted"."""
    return any(hand & sum(1 << (s * 8 + r) for s in range(4)) == sum(1 << (s * 8 + r) for s in range(4))
               for hand in hands for r in (0, 1))


DECLARATION_DIFFERENCES = (belote_cli_square_shares_cards_with_a_sequence, belote_cli_squares_of_sevens_and_eights)


def compare_declarations(count: int, seed: int = 4) -> tuple[Counter, list[str], int]:
    """Our declaration points against belote-cli's on ``count`` deals: (documented, undocumented,
    deals with declarations)."""
    from belote import deck as bdeck
    from belote import game, scoring

    cards = bdeck.make_deck()
    rng = random.Random(seed)
    documented: Counter = Counter()
    undocumented = []
    compared_nonzero = 0
    for _ in range(count):
        hands, mode, leader = random_deal(rng, range(4))
        # belote-cli breaks a tie from the taker on; ours from the dealer's right: the taker leads here.
        dealer = (leader + 1) & 3
        ours = declaration_points([d for s in range(4) for d in find_declarations(s, hands[s], mode)], mode, dealer)
        per_seat = {}
        for s in range(4):
            hand = tuple(cards[c] for c in iter_cards(hands[s]))
            per_seat[game.Seat((2 - s) & 3)] = {"sequences": scoring.detect_sequences(hand),
                                               "carres": scoring.detect_carres(hand), "belote": False}
        resolved = scoring.resolve_declarations(per_seat, bdeck.CARD_SUITS[mode], game.Seat((2 - leader) & 3))
        theirs = [0, 0]
        if resolved.scoring_team is not None:
            team = resolved.scoring_team
            theirs[team] = scoring.get_declaration_points(
                list(resolved.ns_sequences if team == 0 else resolved.ew_sequences)
                + list(resolved.ns_carres if team == 0 else resolved.ew_carres))
        compared_nonzero += any(ours)
        if tuple(theirs) == ours:
            continue
        for predicate in DECLARATION_DIFFERENCES:
            if predicate(hands):
                documented[predicate.__name__] += 1
                break
        else:
            undocumented.append(f"hands {[sorted(iter_cards(h)) for h in hands]} trump {trump_name(mode)}: "
                                f"ours {ours}, belote-cli {theirs}")
    return documented, undocumented, compared_nonzero


def replay_timing(records: list[list[str]]) -> tuple[float, float]:
    """Events/s and hands/s of parsing and replaying whole records."""
    from referee.game import Game
    from referee.record import read_lines
    start = time.perf_counter()
    events = hands = 0
    for lines in records:
        game = Game.from_events(read_lines(lines))
        events += len(lines)
        hands += len(game.results)
    elapsed = time.perf_counter() - start
    return events / elapsed, hands / elapsed


def _progress(items, total: int, label: str):
    """Pass ``items`` through, counting them on stderr."""
    for done, item in enumerate(items, 1):
        if done % 1000 == 0 or done == total:
            print(f"\r  scoring differential vs {label}: {done:,}/{total:,} hands", end="", file=sys.stderr,
                  flush=True)
        yield item
    print("\r", end="", file=sys.stderr)


def run(games: int = 40, repeats: int = 5, differential: int = 50_000) -> None:
    from referee.demo import play_demo_game
    from referee.rules import PROFILES
    print(f"{games} seeded whole games per profile, replayed from their record lines; median of {repeats}",
          file=sys.stderr)
    print(f"{'profile':<14}{'hands/game':>11}{'events/s':>12}{'hands/s':>10}")
    for name in PROFILES:
        records = [[json.dumps(e) for e in play_demo_game(seed=s, rules=name)] for s in range(games)]
        timings = [replay_timing(records) for _ in range(repeats)]
        per_game = statistics.mean(len([1 for line in r if '"type": "deal"' in line]) for r in records)
        print(f"{name:<14}{per_game:>11.1f}{statistics.median(t[0] for t in timings):>12,.0f}"
              f"{statistics.median(t[1] for t in timings):>10,.0f}", flush=True)
    for label, hands, differences in (("colver", colver_hands, COLVER_DIFFERENCES),
                                      ("belote-cli", belote_cli_hands, BELOTE_CLI_DIFFERENCES)):
        start = time.perf_counter()
        documented, undocumented = compare(_progress(hands(differential, seed=77), differential, label), differences)
        print(f"scoring differential vs {label}: {differential:,} hands, {len(undocumented)} undocumented, "
              f"documented {dict(documented)} ({time.perf_counter() - start:.0f} s)", flush=True)
        for text in undocumented[:10]:
            print("  " + text)
    documented, undocumented, nonzero = compare_declarations(differential, seed=77)
    print(f"declarations vs belote-cli: {differential:,} deals ({nonzero:,} with declarations), "
          f"{len(undocumented)} undocumented, documented {dict(documented)}", flush=True)
