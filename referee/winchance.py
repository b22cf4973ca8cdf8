"""The contract's win chance from the public view: the share of plausible deals that make it.

What the venue sees is the record without the hands: the auction, the cards
played and by whom, declarations, belote said, classic's turned card. From it,
:func:`public_view` works out the facts about the hidden cards:

- *cards that must be held*: a declaration's cards not played yet; the other
  card of a belote said on a king or queen; classic's turned card, which the
  taker picked up;
- *cards that can't be held*: each card played was legal, so any card that
  would have made it illegal was not in that hand then, nor later: a void
  shown (did not follow), trumps that can't be held (did not trump, did not
  overtrump, did not beat on a trump lead), "no trump at all" where the rules
  make a player undertrump. A card proven illegal by the cards played later
  (a revoke) teaches nothing and is left out; so is the one rule where more
  cards can free a player (``undertrump="always"``: a higher trump allows a
  discard), which is checked on each sampled deal instead;
- *the auction*: a contract in a suit under a contrée auction is taken to
  promise at least ``taker_trumps`` trumps (3 by default) in the taker's
  deal; when what was seen contradicts it, the promise is dropped.

:func:`win_chance` then draws deals uniformly among those that fit every fact
(exactly: the hidden cards fall into classes by the seats that may hold them,
and the number of ways to complete each partial deal is counted, so each deal
is as likely as any other), solves each with the double-dummy solver's
zero-window test "can the takers still reach the points that make the
contract", and reports the share that do. The target depends on the deal only
through the belote (who holds the king and queen of trumps); declarations made
are public. Deterministic: the same record and seed give the same worlds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from math import comb
from typing import Any, Optional

from .analysis import contract_made, effective_events
from .auction import Contract
from .cards import SUIT_MASKS, Mask, iter_cards, parse_card, rank_of, suit_of
from .declarations import declaration_points
from .game import Game
from .play import HandPlay, follower_legal
from .rules import Options
from .seats import TEAM_NAMES, Seat, next_seat, team_of
from .solver import Outcome, Position, Solver, _Rules
from .trump_tables import ALL_TRUMP, BEATS, NO_TRUMP, points_table

KING, QUEEN = 6, 5
_ALL = (1 << 32) - 1


class WinChanceError(ValueError):
    """A record where there is no contract being played to judge."""


@dataclass
class PublicView:
    """What the venue knows about the hand being played, and what it implies."""

    options: Options
    contract: Contract
    dealer: Seat
    leader: Seat                                      # the hand's first leader
    plays: list[tuple[Seat, int]]                     # every card played, in order
    says: dict[int, str]                              # card -> "belote"/"rebelote" said with it
    declarations: tuple[int, int]                     # declaration points per side (public)
    counts: list[int] = field(default_factory=lambda: [8, 8, 8, 8])   # cards each seat still holds
    held: list[Mask] = field(default_factory=lambda: [0, 0, 0, 0])     # hidden cards known to be in a hand
    forbidden: list[Mask] = field(default_factory=lambda: [0, 0, 0, 0])
    checked: list[bool] = field(default_factory=list)  # per play: must be legal in a sampled deal
    taker_trumps: int = 0                             # the auction's promise (0: none)

    @property
    def hidden(self) -> Mask:
        played = 0
        for _, card in self.plays:
            played |= 1 << card
        return _ALL & ~played


def public_view(events: list[dict], taker_trumps: Optional[int] = None) -> PublicView:
    """The public facts of the hand being played at the end of ``events`` (a record);
    the deal's hands, if the record has them, are not looked at."""
    events = effective_events(events)
    last_deal = max((i for i, e in enumerate(events) if e["type"] == "deal"), default=None)
    if last_deal is None:
        raise WinChanceError("the record has no deal: there is no hand to judge")
    events = list(events)
    events[last_deal] = {k: v for k, v in events[last_deal].items() if k != "hands"}
    game = Game.from_events(events)
    play = game.play
    if play is None or play.done:
        raise WinChanceError("no contract is being played at the end of the record "
                             f"(the game is at the {game.phase} phase): win chance needs a hand in play")
    options, contract = game.options, game.contract
    says = {}
    for e in events[last_deal + 1:]:
        if e["type"] == "play" and e.get("say"):
            says[parse_card(e["card"])] = e["say"]
    decl = declaration_points(game.declarations, play.trump, game.dealer, options.clockwise)
    view = PublicView(options, contract, game.dealer, next_seat(game.dealer, options.clockwise),
                      _plays(play), says, decl)
    for seat, _ in view.plays:
        view.counts[seat] -= 1
    hidden = view.hidden
    # cards that must be held
    for d in game.declarations:
        view.held[d.seat] |= d.cards & hidden
    played_by = {card: seat for seat, card in view.plays}
    for card in says:
        trump = play.trump == ALL_TRUMP or suit_of(card) == play.trump
        if rank_of(card) in (KING, QUEEN) and trump and card in played_by:
            other = suit_of(card) * 8 + (QUEEN if rank_of(card) == KING else KING)
            view.held[played_by[card]] |= (1 << other) & hidden
    turned = game.to_json()["turned"]
    if turned is not None:
        view.held[contract.taker] |= (1 << parse_card(turned)) & hidden
    _forbid(view, play)
    for seat in range(4):
        view.forbidden[seat] &= ~view.held[seat]
    if taker_trumps is None:
        taker_trumps = 3 if options.auction == "contree" and contract.mode < 4 else 0
    view.taker_trumps = taker_trumps
    return view


def _plays(play: HandPlay) -> list[tuple[Seat, int]]:
    step = 1 if play.options.clockwise else 3
    out = []
    for trick in play.tricks:
        out.extend(((trick.leader + i * step) & 3, card) for i, card in enumerate(trick.cards))
    out.extend(((play.trick_leader + i * step) & 3, card) for i, card in enumerate(play.trick))
    return out


def _forbid(view: PublicView, play: HandPlay) -> None:
    """Fill ``forbidden`` and ``checked`` from each card played (module docstring)."""
    r = _Rules(play)
    hidden = view.hidden
    later = [0, 0, 0, 0]                      # cards each seat plays after the play being looked at
    for seat, card in view.plays:
        later[seat] |= 1 << card
    trick: list[int] = []
    win = winpos = 0
    for seat, card in view.plays:
        later[seat] &= ~(1 << card)
        n = len(trick)
        ok = True
        if n:
            known = later[seat] | 1 << card
            if not follower_legal(known, trick[0], win, n, winpos, r.ruff, r.must_beat, r.beats,
                                  r.partner_free, r.rule) >> card & 1:
                ok = False                     # a revoke the later cards prove: no evidence
            elif r.rule == 2 and n >= 2 and winpos == n - 2 and r.ruff >> win & 1 and not r.ruff >> card & 1:
                pass                           # "always undertrump": more cards may free a discard
            else:
                for x in iter_cards(hidden & ~view.forbidden[seat]):
                    if not follower_legal(known | 1 << x, trick[0], win, n, winpos, r.ruff, r.must_beat,
                                          r.beats, r.partner_free, r.rule) >> card & 1:
                        view.forbidden[seat] |= 1 << x
        view.checked.append(ok)
        if n == 0 or r.beats[win] >> card & 1:
            win, winpos = card, n
        trick.append(card)
        if len(trick) == 4:
            trick = []


# --- drawing deals uniformly among those that fit -----------------------------------------

class _Sampler:
    """Uniform draws of the hidden cards into the four hands, under the view's facts.

    The hidden cards fall into classes by (the seats that may hold them, whether they count
    toward the taker's promised trumps). A class is dealt seat by seat: ``ways`` counts the
    completions of a partial deal, so each step is drawn with its true weight and every deal
    that fits is equally likely.
    """

    def __init__(self, view: PublicView, promise: int):
        self.view = view
        held = 0
        for h in view.held:
            held |= h
        caps = tuple(view.counts[s] - view.held[s].bit_count() for s in range(4))
        trumps = SUIT_MASKS[view.contract.mode] if view.contract.mode < 4 else 0
        self.taker = view.contract.taker
        shown = sum(1 for s, c in view.plays if s == self.taker and trumps >> c & 1) \
            + (view.held[self.taker] & trumps).bit_count()
        self.need = max(0, promise - shown)
        groups: dict[tuple[int, bool], list[int]] = {}
        for card in iter_cards(view.hidden & ~held):
            seats = sum(1 << s for s in range(4) if not view.forbidden[s] >> card & 1)
            groups.setdefault((seats, bool(trumps >> card & 1) and self.need > 0), []).append(card)
        # the promised trumps first, the class open to most seats last (its completions have a
        # closed form), the most constrained in between
        order = sorted(groups.items(), key=lambda item: (not item[0][1], bin(item[0][0]).count("1"), item[0]))
        self.classes = [(tuple(s for s in range(4) if seats >> s & 1), promised, cards)
                        for (seats, promised), cards in order]
        self.start = (0, 0, len(self.classes[0][2]) if self.classes else 0, caps, 0)
        self.steps = lru_cache(maxsize=None)(self._steps)
        self._ways = lru_cache(maxsize=None)(self._ways)

    def _ways(self, state: tuple) -> int:
        k, j, left, caps, got = state
        if k == len(self.classes):
            return 1 if not any(caps) and got >= self.need else 0
        seats, promised, _ = self.classes[k]
        if not promised and got < self.need:
            return 0                                   # the promised classes come first: too late
        if k == len(self.classes) - 1:
            # the last class fills every place left: a multinomial, if its seats can take it
            if any(caps[s] for s in range(4) if s not in seats[j:]) or sum(caps) != left:
                return 0
            ways = 1
            for s in seats[j:]:
                ways *= comb(left, caps[s])
                left -= caps[s]
            return ways
        return sum(w for _, _, w in self.steps(state))

    def _steps(self, state: tuple) -> list[tuple[int, tuple, int]]:
        """From ``state`` (class k, its j-th seat, cards of the class left, caps, promised trumps
        given): each number of cards the seat may take, the next state and its weight."""
        k, j, left, caps, got = state
        seats, promised, _ = self.classes[k]
        seat = seats[j]
        last = j == len(seats) - 1
        out = []
        for x in ([left] if last else range(min(left, caps[seat]) + 1)):
            if x > caps[seat]:
                continue
            rest = caps[:seat] + (caps[seat] - x,) + caps[seat + 1:]
            more = min(self.need, got + x) if promised and seat == self.taker else got
            if last:
                nxt = (k + 1, 0, len(self.classes[k + 1][2]) if k + 1 < len(self.classes) else 0, rest, more)
            else:
                nxt = (k, j + 1, left - x, rest, more)
            w = self._ways(nxt)
            if w:
                out.append((x, nxt, comb(left, x) * w))
        return out

    def total(self) -> int:
        return self._ways(self.start)

    def draw(self, rng: random.Random) -> list[Mask]:
        hands = list(self.view.held)
        state = self.start
        for seats, _, cards in self.classes:
            cards = list(cards)
            rng.shuffle(cards)
            for seat in seats:
                steps = self.steps(state)
                pick = rng.randrange(sum(w for _, _, w in steps))
                for x, nxt, w in steps:
                    if pick < w:
                        break
                    pick -= w
                for card in cards[:x]:
                    hands[seat] |= 1 << card
                cards = cards[x:]
                state = nxt
        return hands


# --- the win chance ------------------------------------------------------------------------

@dataclass
class WinChance:
    """The share of sampled deals in which the takers can still make the contract."""

    chance: float
    made: int
    worlds: int
    taker: Seat
    promise: int                                      # taker trumps the auction was taken to promise
    rejected: int                                     # deals drawn and dropped by the replay check

    def as_dict(self) -> dict[str, Any]:
        return {"chance": round(self.chance, 4), "made": self.made, "worlds": self.worlds,
                "takers": TEAM_NAMES[team_of(self.taker)], "promise": self.promise, "rejected": self.rejected}


def win_chance(events: list[dict], worlds: int = 100, seed: int = 0, engine: Optional[str] = None,
               taker_trumps: Optional[int] = None) -> WinChance:
    """The contract's win chance at the end of ``events`` (module docstring)."""
    view = public_view(events, taker_trumps)
    sampler = _Sampler(view, view.taker_trumps)
    promise = view.taker_trumps
    if sampler.total() == 0:
        sampler, promise = _Sampler(view, 0), 0    # what was seen contradicts the auction's promise
    if sampler.total() == 0:
        raise WinChanceError("no deal fits what was seen (cards played twice, or more cards than hands)")
    rng = random.Random(seed)
    team = team_of(view.contract.taker)
    targets: dict[tuple[int, int], Optional[int]] = {}
    public = _public_position(view)
    must_replay = not all(view.checked) or view.options.undertrump == "always"
    solver: Optional[Solver] = None
    made = rejected = 0
    for _ in range(worlds):
        need_play = must_replay or solver is None       # the facts make every card played legal, but
        for _attempt in range(1000):                    # for "always undertrump" (module docstring)
            hands = sampler.draw(rng)
            if not need_play:
                break
            play = _replay(view, hands)
            if play is not None:
                break
            rejected += 1
        else:
            raise WinChanceError("no sampled deal lets every card played be legal: the record breaks the rules")
        belote = _belote(view, hands, view.contract.mode)
        if belote not in targets:
            targets[belote] = _target(view, belote)
        target = targets[belote]
        if target is None:
            continue
        where = public._replace(hands=tuple(hands))
        if solver is None:
            solver = Solver(play, engine=engine)
        else:
            solver.reset(where)
        if solver.can_reach(where, team, target):
            made += 1
    return WinChance(made / worlds if worlds else 0.0, made, worlds, view.contract.taker, promise, rejected)


def _public_position(view: PublicView) -> Position:
    """The search's position with what is public filled in (the hands left empty)."""
    step = 1 if view.options.clockwise else 3
    beats = BEATS[view.contract.mode]
    points = points_table(view.contract.mode, view.options.no_trump_values)
    leader, ns, won = view.leader, 0, 0
    done = len(view.plays) - len(view.plays) % 4
    for start in range(0, done, 4):
        cards = [c for _, c in view.plays[start:start + 4]]
        winpos = 0
        for i in range(1, 4):
            if beats[cards[winpos]] >> cards[i] & 1:
                winpos = i
        leader = (leader + winpos * step) & 3
        if leader & 1:
            won |= 2
        else:
            won |= 1
            ns += sum(points[c] for c in cards)
    trick = tuple(c for _, c in view.plays[done:])
    return Position((0, 0, 0, 0), trick, leader, ns, won)


def _replay(view: PublicView, hands: list[Mask]) -> Optional[HandPlay]:
    """The position in the drawn deal, or None when a card played would be illegal in it."""
    dealt = list(hands)
    for seat, card in view.plays:
        dealt[seat] |= 1 << card
    play = HandPlay(view.contract.mode, view.leader, view.options, dealt)
    for (_, card), checked in zip(view.plays, view.checked):
        if play.play(card) is not None and checked:
            return None
    return play


def _belote(view: PublicView, hands: list[Mask], mode: int) -> tuple[int, int]:
    """The belote points each side scores in a drawn deal: a king and queen of trumps dealt
    to one player, unless one of them was already played without the word the rules want."""
    o = view.options
    if not o.belote or mode == NO_TRUMP:
        return (0, 0)
    played = {card: seat for seat, card in view.plays}
    dealt = list(hands)
    for seat, card in view.plays:
        dealt[seat] |= 1 << card
    points = [0, 0]
    for suit in (range(4) if mode == ALL_TRUMP else (mode,)):
        pair = (suit * 8 + KING, suit * 8 + QUEEN)
        holder = next((s for s in range(4) if dealt[s] >> pair[0] & 1 and dealt[s] >> pair[1] & 1), None)
        if holder is None:
            continue
        if o.belote_must_say and any(c in played and c not in view.says for c in pair):
            continue
        points[team_of(holder)] += 20
    return (points[0], points[1])


def _target(view: PublicView, belote: tuple[int, int]) -> Optional[int]:
    """The fewest points (capot scale) the takers need to make the contract, or None.

    The contract is made from some number of the takers' points on (more points never
    unmake it), so a bisection over the possible results finds it."""
    o, contract = view.options, view.contract
    team = contract.team
    total = sum(points_table(contract.mode, o.no_trump_values)) + o.dix_de_der
    bonus = o.capot_dix_de_der - o.dix_de_der
    results = [-bonus] + list(range(total + 1)) + [total + bonus]

    def made(mine: int) -> bool:
        if mine == -bonus:
            outcome = Outcome(0, total, 1 - team) if team == 0 else Outcome(total, 0, 1 - team)
        elif mine == total + bonus:
            outcome = Outcome(total, 0, team) if team == 0 else Outcome(0, total, team)
        else:
            outcome = Outcome(mine, total - mine, None) if team == 0 else Outcome(total - mine, mine, None)
        return contract_made(o, contract, outcome, belote, view.declarations)

    low, high = 0, len(results)                       # the first result that makes it lies in [low, high]
    while low < high:
        mid = (low + high) // 2
        if made(results[mid]):
            high = mid
        else:
            low = mid + 1
    return results[low] if low < len(results) else None
