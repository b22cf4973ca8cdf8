"""The play engine against two engines no one here wrote: colver and belote-cli.

``python -m bench referee`` plays the same seeded random deals to the end
through each engine (legal cards at every step, a random legal card, card
points at the end; ours also scores the hand with ``referee.scoring``), then
times legal-card queries alone on the positions those games went through,
measures the memory of one hand state, and runs the differential comparison
on more deals than the test does. It prints medians of several repeats and
our ratio to each peer.

The adapters below (:class:`Ours`, :class:`Colver`, :class:`BeloteCli`) give the
three engines one face (seats N E S W as 0-3, cards and hands as our ints and
masks), and :func:`compare` drives them step by step, position by position:
``tests/referee/test_differential_play.py`` runs it on 10,000 deals per peer,
``run()`` on more. The timed loops use each engine's own API directly, without
conversion.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from typing import Callable, NamedTuple, Sequence

from referee.auction import Contract
from referee.cards import card_name, iter_cards, mask_names, rank_of
from referee.play import HandPlay
from referee.rules import Options, profile
from referee.scoring import score_hand
from referee.seats import SEAT_NAMES
from referee.trump_tables import ALL_TRUMP, NO_TRUMP, TRUMP_POINTS, Mode, trump_name

Deal = tuple[list[int], Mode, int]          # four hands (masks, by seat), trump mode, first leader


def random_deal(rng: random.Random, modes: Sequence[Mode] = range(6)) -> Deal:
    """Shuffle the 32 cards into four hands; pick a trump mode and a first leader."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[8 * i:8 * i + 8]) for i in range(4)]
    return hands, rng.choice(list(modes)), rng.randrange(4)


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


# --- our engine -------------------------------------------------------------

class Ours:
    name = "ours"

    def __init__(self, deal: Deal, options: Options):
        hands, mode, leader = deal
        self.state = HandPlay(mode, leader, options, hands)

    def to_play(self) -> int:
        return self.state.to_play

    def legal(self) -> int:
        return self.state.legal()

    def play(self, card: int) -> None:
        self.state.play(card)

    def trick_winner(self) -> int:
        return self.state.winners[-1]

    def tricks_won(self) -> tuple[int, int]:
        return self.state.tricks_won

    def card_points(self) -> tuple[int, int]:
        return self.state.card_points

    @staticmethod
    def random_hand(deal: Deal, options: Options, rand: Callable[[], float]) -> tuple[int, int]:
        """One hand played at random to the end, then scored (an 80 contract by the first leader)."""
        hands, mode, leader = deal
        hand = HandPlay(mode, leader, options, hands)
        for _ in range(32):
            legal = hand.legal()
            for _ in range(int(rand() * legal.bit_count())):
                legal &= legal - 1
            hand.play((legal & -legal).bit_length() - 1)
        contract = Contract(taker=leader, mode=mode, value=80 if options.auction == "contree" else None,
                            capot=False, counter=1, call=f"80{trump_name(mode)}")
        return score_hand(options, contract, hand.card_points, hand.tricks_won).score


# --- colver (Rust, contrée rules) --------------------------------------------
# colver numbers a suit's cards 7 8 9 J Q K T A (ours: 7 8 9 T J Q K A), suits in
# our order, seats 0-3 with play going to seat + 1 and teams {0, 2} {1, 3}: our
# counter-clockwise N W S E is its 0 1 2 3, so our seat s is its seat -s mod 4.

_TO_COLVER = tuple((c >> 3) * 8 + (0, 1, 2, 6, 3, 4, 5, 7)[c & 7] for c in range(32))
_FROM_COLVER = tuple(sorted(range(32), key=lambda c: _TO_COLVER[c]))


class Colver:
    name = "colver"
    profile = "ffb-contree"
    modes = (0, 1, 2, 3)                     # suit contracts only (set_contract takes a suit)

    def __init__(self, deal: Deal, options: Options):
        self.env = self.start(deal)
        self.options = options

    @staticmethod
    def start(deal: Deal):
        import colver
        hands, mode, leader = deal
        theirs = [[] for _ in range(4)]
        for seat, hand in enumerate(hands):
            theirs[-seat & 3] = [_TO_COLVER[c] for c in _cards(hand)]
        env = colver.Env.deal_with_hands((-leader - 1) & 3, theirs)
        env.set_contract(mode, 80, 0, 0)
        env.set_phase_playing()
        return env

    def to_play(self) -> int:
        return -self.env.current_player() & 3

    def legal(self) -> int:
        return sum(1 << _FROM_COLVER[a] for a in self.env.legal_actions())

    def play(self, card: int) -> None:
        self.env.step(_TO_COLVER[card])

    def trick_winner(self) -> int | None:
        """The last trick's winner; None after the last trick (colver then keeps the previous leader)."""
        return None if self.env.is_terminal() else -self.env.get_trick_lead() & 3

    def tricks_won(self) -> tuple[int, int]:
        ns, ew = self.env.get_tricks_won()
        return ns, ew

    def card_points(self) -> tuple[int, int]:
        ns, ew = self.env.get_points()
        return ns, ew

    @staticmethod
    def random_hand(deal: Deal, options: Options, rand: Callable[[], float]) -> tuple[int, int]:
        env = Colver.start(deal)
        for _ in range(32):
            actions = env.legal_actions()
            env.step(actions[int(rand() * len(actions))])
        return env.get_points()


# --- belote-cli (pure Python, classic rules: must undertrump) -------------------
# Same card order as ours; seats SOUTH EAST NORTH WEST = 0 1 2 3 with play going
# to seat + 1, the same counter-clockwise S E N W: our seat s is its 2 - s mod 4.

class BeloteCli:
    name = "belote-cli"
    profile = "classic"
    modes = (0, 1, 2, 3, NO_TRUMP, ALL_TRUMP)

    def __init__(self, deal: Deal, options: Options):
        from belote import game
        self._game = game
        self.st = self.start(deal)
        self._deck = _belote_deck()

    @staticmethod
    def start(deal: Deal):
        from belote import deck as bdeck
        from belote import game
        hands, mode, leader = deal
        cards = _belote_deck()
        theirs: list[tuple] = [()] * 4
        for seat, hand in enumerate(hands):
            theirs[(2 - seat) & 3] = tuple(cards[c] for c in _cards(hand))
        if mode < 4:
            trump, contract = bdeck.CARD_SUITS[mode], bdeck.Contract.NORMAL
        elif mode == NO_TRUMP:
            trump, contract = None, bdeck.Contract.SANS_ATOUT
        else:
            trump, contract = bdeck.Suit.TOUT_ATOUT, bdeck.Contract.TOUT_ATOUT
        first = game.Seat((2 - leader) & 3)
        return game.GameState(hands=tuple(theirs), initial_hands=tuple(theirs), trump=trump,
                              contract=contract, leader=first, turn=first, taker=first,
                              phase=game.Phase.PLAYING)

    def to_play(self) -> int:
        return (2 - self.st.turn.value) & 3

    def legal(self) -> int:
        index = self._deck.index
        return sum(1 << index(c) for c in self._game.legal_cards(self.st, self.st.turn))

    def play(self, card: int) -> None:
        self.st = self._game.play_card(self.st, self._deck[card])

    def trick_winner(self) -> int:
        return (2 - self.st.last_trick_winner.value) & 3

    def tricks_won(self) -> tuple[int, int]:
        won = [0, 0]
        for seat in self._game.compute_trick_winners(self.st, self.st.trump, self.st.trump is None):
            won[seat.value & 1] += 1
        return won[0], won[1]

    def card_points(self) -> tuple[int, int]:
        ns, ew = self.st.current_round_points
        return ns, ew

    @staticmethod
    def random_hand(deal: Deal, options: Options, rand: Callable[[], float]) -> tuple[int, int]:
        from belote import game
        st = BeloteCli.start(deal)
        for _ in range(32):
            legal = game.legal_cards(st, st.turn)
            st = game.play_card(st, legal[int(rand() * len(legal))])
        return st.current_round_points


def _belote_deck():
    from belote import deck as bdeck
    return bdeck.make_deck()        # 7 8 9 T J Q K A in s h d c: the same indices as ours


PEERS = (Colver, BeloteCli)


def peer_options(peer) -> Options:
    """Our options that match the peer's rules (docs/differential.md, "Differential testing")."""
    options = profile(peer.profile)
    return options.replace(no_trump_values="plain") if peer is BeloteCli else options


# --- the comparison (tests/referee/test_differential_play.py, and run() on more deals) ----
# Documented differences: each predicate is a section of docs/differential.md and
# recognises exactly that difference, nothing wider.

def colver_capot_in_card_points(peer, deal, ours: "Ours", theirs_points) -> bool:
    """colver's get_points() counts a capot's last trick as 100 (252 in all), ours as 10 (162)."""
    state = ours.state
    if peer is not Colver or state.capot is None:
        return False
    expected = [0, 0]
    expected[state.capot] = 252
    return list(theirs_points) == expected


def belote_cli_all_trump_values(peer, deal, ours: "Ours", theirs_points) -> bool:
    """belote-cli scores ta cards on the trump scale J 20, 9 14 ... (258 in all); we use seed 001's J 13, 9 9 ...

    Recognised only when belote-cli's figure is exactly what the trump scale gives
    on *our* trick winners, which were compared and agreed first.
    """
    hands, mode, leader = deal
    if peer is not BeloteCli or mode != ALL_TRUMP:
        return False
    state = ours.state
    points = [0, 0]
    for trick in state.tricks:
        points[trick.winner & 1] += sum(TRUMP_POINTS[rank_of(c)] for c in trick.cards)
    points[state.winners[-1] & 1] += 10
    return list(theirs_points) == points


POINT_DIFFERENCES = (colver_capot_in_card_points, belote_cli_all_trump_values)


class Disagreement(NamedTuple):
    """One thing the two engines did not agree on, with the position it happened in."""

    kind: str                  # "turn" | "legal" | "trick" | "points"
    text: str                  # the position and both answers, for people
    ours: int = 0              # for "legal": both legal sets, masks, and the trump mode
    theirs: int = 0
    trump: Mode = -1


def compare(peer, deals: int, options: Options, seed: int = 2026,
            progress: Callable[[int], None] | None = None):
    """Play ``deals`` random games in both engines, comparing every position.

    Returns (undocumented :class:`Disagreement` list, Counter of documented
    differences by predicate name, positions compared). The random card comes
    from our legal set, or from both sets' intersection after a disagreement,
    so a game goes on and later positions are still compared. ``progress`` is
    called with the number of deals done, every 1,000 deals.
    """
    rng = random.Random(seed)
    undocumented: list[Disagreement] = []
    documented: Counter = Counter()
    positions = 0
    for number in range(deals):
        if progress and number % 1000 == 0:
            progress(number)
        deal = random_deal(rng, peer.modes)
        ours, theirs = Ours(deal, options), peer(deal, options)
        where = f"deal {number} ({trump_name(deal[1])}, {SEAT_NAMES[deal[2]]} leads)"
        for step in range(32):
            positions += 1
            if ours.to_play() != theirs.to_play():
                undocumented.append(Disagreement("turn", f"{where} play {step + 1}: {SEAT_NAMES[ours.to_play()]} "
                                                 f"to play for us, {SEAT_NAMES[theirs.to_play()]} for {peer.name}"))
                break
            mine, other = ours.legal(), theirs.legal()
            if mine != other:
                undocumented.append(Disagreement(
                    "legal", f"{where} play {step + 1}: trick {[card_name(c) for c in ours.state.trick]}, "
                    f"{SEAT_NAMES[ours.to_play()]} holds {mask_names(ours.state.hand(ours.to_play()))}: "
                    f"legal for us {mask_names(mine)}, for {peer.name} {mask_names(other)}", mine, other, deal[1]))
                mine &= other
                if not mine:
                    break
            card = rng.choice(list(iter_cards(mine)))
            ours.play(card)
            theirs.play(card)
            if step % 4 == 3:
                winner = theirs.trick_winner()
                if (winner is not None and winner != ours.trick_winner()) or (
                        ours.tricks_won() != tuple(theirs.tricks_won())):
                    undocumented.append(Disagreement(
                        "trick", f"{where} trick {step // 4 + 1} {ours.state.tricks[-1]}: {peer.name} says "
                        f"{SEAT_NAMES[winner] if winner is not None else '?'} won, tricks won "
                        f"{tuple(theirs.tricks_won())}"))
        else:
            if ours.card_points() != tuple(theirs.card_points()):
                known = [p.__name__ for p in POINT_DIFFERENCES if p(peer, deal, ours, theirs.card_points())]
                if known:
                    documented[known[0]] += 1
                else:
                    undocumented.append(Disagreement("points", f"{where}: card points {ours.card_points()} for "
                                                     f"us, {tuple(theirs.card_points())} for {peer.name}"))
    return undocumented, documented, positions




# --- the benchmark ------------------------------------------------------------
# Each timing is a function that does some work and returns (items, seconds). The
# engines are timed in turn within each repeat, so that a machine shared with
# other work slows both sides of a ratio alike; rates and ratios are medians.

def hands_timing(engine, deals: list[Deal], options: Options, seed: int = 1) -> Callable[[], tuple[int, float]]:
    """Whole hands: legal cards at each step, a random one played, points (and our scoring) at the end."""
    def timing() -> tuple[int, float]:
        rand = random.Random(seed).random
        start = time.perf_counter()
        for deal in deals:
            engine.random_hand(deal, options, rand)
        return len(deals), time.perf_counter() - start
    return timing


def _positions(engine, deals: list[Deal], options: Options, seed: int) -> list:
    """The engine's own state objects at every position of random games on ``deals``."""
    rng = random.Random(seed)
    out = []
    for deal in deals:
        game = engine(deal, options)
        for _ in range(32):
            if engine is Ours:
                out.append(game.state.copy())
            elif engine is Colver:
                out.append(game.env.get_state_bytes())
            else:
                out.append(game.st)
            legal = _cards(game.legal())
            game.play(rng.choice(legal))
    return out


def queries_timing(engine, deals: list[Deal], options: Options, seed: int = 2) -> Callable[[], tuple[int, float]]:
    """Legal-card queries alone, one per position those games went through."""
    positions = _positions(engine, deals, options, seed)
    if engine is Ours:
        def timing() -> tuple[int, float]:
            fresh = [p.copy() for p in positions]       # legal() memoizes: fresh states, copied
            start = time.perf_counter()                 # before the clock starts
            for state in fresh:
                state.legal()
            return len(fresh), time.perf_counter() - start
    elif engine is Colver:
        import colver
        envs = []
        for raw in positions:
            env = colver.Env()
            env.set_state_bytes(list(raw))
            envs.append(env)

        def timing() -> tuple[int, float]:
            start = time.perf_counter()
            for env in envs:
                env.legal_actions()
            return len(envs), time.perf_counter() - start
    else:
        from belote import game

        def timing() -> tuple[int, float]:
            game.clear_legal_cards_cache()              # its lru_cache would otherwise answer from memory
            legal = game.legal_cards
            start = time.perf_counter()
            for st in positions:
                legal(st, st.turn)
            return len(positions), time.perf_counter() - start
    return timing


def interleaved(timings: dict[str, Callable[[], tuple[int, float]]], repeats: int) -> dict[str, list[float]]:
    """Rates (items/s) of each timing, one of each per repeat, in turn."""
    rates: dict[str, list[float]] = {name: [] for name in timings}
    for _ in range(repeats):
        for name, timing in timings.items():
            gc.collect()
            items, seconds = timing()
            rates[name].append(items / seconds)
    return rates


def bytes_per_state(count: int = 10_000, seed: int = 3) -> float:
    """Traced memory of ``count`` hand states, mid-hand (13 cards played), per state."""
    rng = random.Random(seed)
    options = profile("ffb-contree")
    deals = [random_deal(rng) for _ in range(count)]
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    states = []
    for deal in deals:
        hands, mode, leader = deal
        hand = HandPlay(mode, leader, options, hands)
        for _ in range(13):
            legal = hand.legal()
            hand.play((legal & -legal).bit_length() - 1)
        hand._memo = -1
        states.append(hand)
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return (used - sys.getsizeof(states)) / count


def run(hands: int = 2000, repeats: int = 5, differential: int = 20_000) -> None:
    rng = random.Random(2026)
    print(f"{hands} seeded random deals per engine, legal random play to the end; median of {repeats} "
          f"repeats, engines timed in turn within each repeat", file=sys.stderr)
    print(f"{'peer (rules)':<28}{'engine':<12}{'hands/s':>10}{'queries/s':>12}")
    for peer in PEERS:
        deals = [random_deal(rng, peer.modes) for _ in range(hands)]
        options = peer_options(peer)
        engines = (Ours, peer)
        played = interleaved({e.name: hands_timing(e, deals, options) for e in engines}, repeats)
        asked = interleaved({e.name: queries_timing(e, deals[:hands // 4], options) for e in engines}, repeats)
        label = f"{peer.name} ({peer.profile})"
        for e in engines:
            print(f"{label:<28}{e.name:<12}{statistics.median(played[e.name]):>10,.0f}"
                  f"{statistics.median(asked[e.name]):>12,.0f}")
        ratio_hands = statistics.median(o / t for o, t in zip(played["ours"], played[peer.name]))
        ratio_queries = statistics.median(o / t for o, t in zip(asked["ours"], asked[peer.name]))
        print(f"{'ratio ours / ' + peer.name:<40}{ratio_hands:>9.2f}x{ratio_queries:>11.2f}x", flush=True)
    print(f"bytes per hand state (tracemalloc, 10,000 states mid-hand): {bytes_per_state():,.0f}")
    for peer in PEERS:
        start = time.perf_counter()
        def progress(done: int, name: str = peer.name) -> None:
            print(f"\r  differential vs {name}: {done:,}/{differential:,} deals", end="", file=sys.stderr, flush=True)
        undocumented, documented, positions = compare(peer, differential, peer_options(peer), seed=7,
                                                      progress=progress)
        print("\r" + " " * 60 + "\r", end="", file=sys.stderr, flush=True)
        print(f"differential vs {peer.name}: {differential:,} deals, {positions:,} positions, "
              f"{len(undocumented)} undocumented disagreements, documented {dict(documented)} "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
        for line in undocumented[:10]:
            print("  " + line.text)
