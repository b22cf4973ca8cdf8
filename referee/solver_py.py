"""The double-dummy search in pure Python (:class:`referee.solver.Solver`'s ``engine="python"``).

Alpha-beta over single cards, fail-soft, with a transposition table at trick
boundaries; the module docstring of :mod:`referee.solver` says what is searched
and why. ``solver_core.c`` (:mod:`referee.solver_c`) is the same search, move for
move, in C; the tests hold the two to each other.
"""

from __future__ import annotations

from typing import Sequence

from .cards import SUIT_MASKS, Card, Mask, iter_cards
from .play import follower_legal
from .trump_tables import ORDER

_INF = 1 << 20


class Core:
    """One deal's search state in Python: the rules' tables and a transposition table."""

    def __init__(self, rules):
        self.r = rules
        self.tt: dict[int, tuple[int, int, int]] = {}   # key -> (low, high, best lead) on points to come

    def clear(self) -> None:
        """Forget what was learnt (before another deal)."""
        self.tt.clear()

    def value(self, pos, alpha: int, beta: int) -> int:
        """``w`` of ``pos`` (a :class:`referee.solver.Position`) if it lies strictly inside
        (alpha, beta); else a bound on the same side of the window (fail-soft alpha-beta)."""
        hands = list(pos.hands)
        left = max(h.bit_count() for h in hands) if not pos.trick else hands[pos.leader].bit_count() + 1
        if not pos.trick:
            return self._lead(hands, pos.leader, pos.ns, pos.won, left, alpha, beta)
        r = self.r
        trick = list(pos.trick)
        winpos = 0
        for i in range(1, len(trick)):
            if r.beats[trick[winpos]] >> trick[i] & 1:
                winpos = i
        points = sum(r.points[c] for c in trick)
        return self._follow(hands, trick, trick[winpos], winpos, points, pos.leader, pos.ns, pos.won, left,
                            alpha, beta)

    def _end(self, ns: int, won: int) -> int:
        """``w`` of a finished hand."""
        if won == 1:
            return ns + self.r.bonus
        if won == 2:
            return -self.r.bonus
        return ns

    def _lead(self, hands: list[Mask], leader: int, ns: int, won: int, left: int, alpha: int, beta: int) -> int:
        """A trick boundary: ``leader`` to lead, ``left`` tricks to play."""
        r = self.r
        if left == 0:
            return self._end(ns, won)
        if left == 1:
            return self._last(hands, leader, ns, won)
        out = hands[0] | hands[1] | hands[2] | hands[3]
        key = out | leader << 32 | won << 34
        entry = self.tt.get(key)
        if entry is not None:
            low, high, best = entry
        else:
            rest = sum(r.points[c] for c in iter_cards(out)) + r.dix
            low = -r.bonus if not won & 1 else 0       # NS may still be capoted
            high = rest + (r.bonus if not won & 2 else 0)
            best = -1
        if low + ns >= beta:
            return low + ns
        if high + ns <= alpha:
            return high + ns
        a, b = max(alpha, low + ns), min(beta, high + ns)
        if a >= b:
            return a
        hand = hands[leader]
        moves = self._moves(hand, hand, hands, leader, (), -1, False, best)
        maximize = not leader & 1
        v = -_INF if maximize else _INF
        best_card = -1
        lo, hi = a, b
        for card in moves:
            hands[leader] = hand & ~(1 << card)
            x = self._follow(hands, [card], card, 0, r.points[card], leader, ns, won, left, lo, hi)
            hands[leader] = hand
            if maximize:
                if x > v:
                    v, best_card = x, card
                    if x > lo:
                        lo = x
                        if lo >= hi:
                            break
            else:
                if x < v:
                    v, best_card = x, card
                    if x < hi:
                        hi = x
                        if lo >= hi:
                            break
        f = v - ns
        if v <= a:
            high = min(high, f)
        elif v >= b:
            low = max(low, f)
        else:
            low = high = f
        self.tt[key] = (low, high, best_card if best_card >= 0 else best)
        return v

    def _last(self, hands: list[Mask], leader: int, ns: int, won: int) -> int:
        """The eighth trick: every card is forced."""
        r = self.r
        step = r.step
        win = hands[leader].bit_length() - 1
        points = r.points[win]
        winpos = 0
        for i in range(1, 4):
            card = hands[(leader + i * step) & 3].bit_length() - 1
            points += r.points[card]
            if r.beats[win] >> card & 1:
                win, winpos = card, i
        winner = (leader + winpos * step) & 3
        if winner & 1:
            return self._end(ns, won | 2)
        return self._end(ns + points + r.dix, won | 1)

    def _follow(self, hands: list[Mask], trick: list[Card], win: Card, winpos: int, points: int, leader: int,
                ns: int, won: int, left: int, alpha: int, beta: int) -> int:
        """A player after the leader: ``trick`` on the table, ``win`` winning it."""
        r = self.r
        n = len(trick)
        seat = (leader + n * r.step) & 3
        hand = hands[seat]
        legal = follower_legal(hand, trick[0], win, n, winpos, r.ruff, r.must_beat, r.beats, r.partner_free, r.rule)
        partner_wins = n >= 2 and winpos == n - 2
        moves = self._moves(legal, hand, hands, seat, trick, win, partner_wins, -1)
        maximize = not seat & 1
        v = -_INF if maximize else _INF
        beats = r.beats[win]
        for card in moves:
            bit = 1 << card
            hands[seat] = hand & ~bit
            if beats & bit:
                nwin, nwinpos = card, n
            else:
                nwin, nwinpos = win, winpos
            pts = points + r.points[card]
            if n == 3:
                winner = (leader + nwinpos * r.step) & 3
                if left == 1:
                    pts += r.dix
                if winner & 1:
                    x = self._lead(hands, winner, ns, won | 2, left - 1, alpha, beta)
                else:
                    x = self._lead(hands, winner, ns + pts, won | 1, left - 1, alpha, beta)
            else:
                trick.append(card)
                x = self._follow(hands, trick, nwin, nwinpos, pts, leader, ns, won, left, alpha, beta)
                trick.pop()
            hands[seat] = hand
            if maximize:
                if x > v:
                    v = x
                    if x > alpha:
                        alpha = x
                        if alpha >= beta:
                            break
            elif x < v:
                v = x
                if x < beta:
                    beta = x
                    if alpha >= beta:
                        break
        return v

    def _moves(self, legal: Mask, hand: Mask, hands: list[Mask], seat: int, trick: Sequence[Card], win: Card,
               partner_wins: bool, first: Card) -> list[Card]:
        """The legal cards worth trying, best guess first: one card per run of equivalent ones
        (same points, no other live card between them), ``first`` (the table's best) leading,
        then the cards that leave the trick to the player's side, richest first."""
        r = self.r
        points = r.points
        order = ORDER[r.mode]
        others = 0
        for s in range(4):
            if s != seat:
                others |= hands[s]
        for c in trick:
            others |= 1 << c
        keys = []
        for suit in range(4):
            if not legal & SUIT_MASKS[suit]:
                continue
            prev = -1
            gap = False
            top = True
            for card in reversed(r.ladder[suit]):           # strongest first
                bit = 1 << card
                if legal & bit:
                    if prev >= 0 and not gap and points[prev] == points[card]:
                        continue                           # equivalent to the stronger card kept
                    if trick:
                        takes = True if r.beats[win] & bit else partner_wins   # the side's trick after it
                        key = (200 if takes else 0) + (points[card] if takes else -points[card])
                    else:
                        key = (100 + points[card]) if top else -points[card]
                    if card == first:
                        key = 1000
                    keys.append((key, order[card], card))
                    prev, gap = card, False
                elif others & bit:
                    gap, top = True, False
        keys.sort(reverse=True)
        return [card for _, _, card in keys]
