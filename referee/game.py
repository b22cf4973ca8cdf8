"""A whole game replayed from its events: deals, auctions, declarations, plays,
corrections and penalties, into per-hand results, totals and a winner.

(Over 500 lines on purpose: ``Game.apply`` is the one place where every event
type of the record meets the engine's parts; each event's method is short,
and splitting them across modules would hide the order a record is replayed
in, which is what a reader of this module comes for. What is not that order
lives beside it: the finished hand, :mod:`referee.hand_result`; the rules of
the word belote, :mod:`referee.belote_word`.)

:class:`Game` is the one place where the rules engine's parts meet (auction,
declarations, :class:`referee.play.HandPlay`, scoring). It is pure and
deterministic: the same events always give the same state, so a record can be
replayed by ``referee check``, by the table referee after a crash, or by the
dashboard's replay slider, and they all agree.

API (stable; the table referee and the dashboard build on it):

- ``Game(header)`` from the ``game`` event (a dict: ``rules`` profile,
  ``options`` overrides, ``seats`` names), or ``Game.from_events(events)``.
- ``game.apply(event) -> list[Violation]``: one event (a dict of the record
  format); returns the violations it caused (a correction returns the
  violations its replay adds). An event that makes no sense at its place (a
  play during the auction, a correction of an unknown event, a card that is
  not a card) raises :class:`~referee.record.RecordError`, and the game is
  left unchanged.
- State: ``phase`` (``"deal"`` waiting for a deal, ``"auction"``, ``"play"``,
  ``"over"``), ``dealer``, ``next_dealer``, ``hand_number``, ``auction``
  (:class:`~referee.auction.Auction` of the hand being played), ``contract``,
  ``play`` (its :class:`~referee.play.HandPlay`), ``results`` (finished
  hands, :class:`HandResult`), ``totals`` (NS, EW), ``winner`` (0 NS, 1 EW or
  None), ``over``, ``events`` (every event applied, header first: event
  number ``n`` is ``events[n - 1]``).
- ``game.summary()``: DESIGN's ``check --json`` object; ``game.to_json()``: the
  full state for screens (hands held are under ``"private"``).

>>> g = Game({"type": "game", "version": 1, "rules": "ffb-contree"})
>>> g.apply({"type": "deal", "dealer": "N"})
[]
>>> [v.rule for v in g.apply({"type": "call", "seat": "S", "call": "80h"})]
['out-of-turn']
>>> for seat in "WSEN":
...     _ = g.apply({"type": "call", "seat": seat, "call": "pass"})
>>> g.phase, g.results[-1].result, g.next_dealer
('deal', 'all-pass', 3)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Optional

from .auction import Auction, CallError, Contract
from .belote_word import belote_points, belote_suits, check_say, unheld_belotes
from .cards import KING, QUEEN, CardError, card_name, iter_cards, mask_of, parse_card, pretty, rank_of
from .declarations import Declaration, DeclarationError, declaration_points, make_declaration
from .hand_result import HandResult, teams as _teams
from .play import HandPlay, PlayError, audit
from .record import RecordError, check_event
from .rules import Options, RulesError, profile
from .scoring import HandScore, MatchScore, score_hand
from .seats import SEAT_NAMES, TEAM_NAMES, Seat, next_seat, parse_seat, team_of
from .trump_tables import points_table, trump_name
from .violations import Violation


class _Hand:
    """The hand being played (internal: Game exposes what screens need)."""

    def __init__(self, number: int, dealer: Seat, hands: Optional[list[int]], turned: Optional[int]):
        self.number = number
        self.dealer = dealer
        self.hands = hands                           # masks at the deal, or None
        self.turned = turned
        self.auction: Optional[Auction] = None
        self.play: Optional[HandPlay] = None
        self.violations: list[Violation] = []
        self.declarations: list[Declaration] = []
        self.says: dict[int, tuple[Seat, Optional[str], int]] = {}   # K/Q card -> (seat, say, order)
        self.plays: list[int] = []
        self.refs: list[int] = []                    # the record event of each card in ``plays``
        self.one_read: set[int] = set()              # play events that rest on one read of one sensor
        self.penalty: Optional[Seat] = None
        self.stop: Optional[Seat] = None             # the taker side's l'Arrêt, decided at the hand's end


class Game:
    """A game replayed event by event (see the module docstring for the API)."""

    def __init__(self, header: dict):
        try:
            check_event(header)
        except RecordError as exc:
            raise exc.at(1) from None
        if header["type"] != "game":
            raise RecordError('the record starts with the "game" header', 1)
        try:
            self.options: Options = profile(header["rules"], **header.get("options", {}))
        except RulesError as exc:
            raise RecordError(str(exc), 1) from None
        self.rules = header["rules"]
        self.seats = {k: str(v) for k, v in header.get("seats", {}).items()}
        self.events: list[dict] = [header]
        self._reset()

    def _reset(self) -> None:
        self.results: list[HandResult] = []
        self.match = MatchScore(self.options)
        self._hand: Optional[_Hand] = None
        self.next_dealer: Optional[Seat] = None
        self.stopped: Optional[dict] = None          # l'Arrêt: who stopped, with what claim
        self._replaced: dict[int, Optional[dict]] = {}
        self._number = 0                             # the record number of the event being applied

    @classmethod
    def from_events(cls, events: list[dict], source: str = "") -> "Game":
        """Replay a whole record (e.g. :func:`referee.record.read_record`);
        errors name the event's line."""
        game = cls(events[0])
        for number, event in enumerate(events[1:], 2):
            try:
                game.apply(event)
            except RecordError as exc:
                raise exc.at(number, source) from None
        return game

    # --- state ---------------------------------------------------------------
    @property
    def phase(self) -> str:
        if self.match.over:
            return "over"
        h = self._hand
        if h is None:
            return "deal"
        return "auction" if not h.auction.done else "play"

    @property
    def dealer(self) -> Optional[Seat]:
        return self._hand.dealer if self._hand else None

    @property
    def hand_number(self) -> int:
        """The number of the hand being played (or of the next one)."""
        return len(self.results) + 1

    @property
    def auction(self) -> Optional[Auction]:
        return self._hand.auction if self._hand else None

    @property
    def contract(self) -> Optional[Contract]:
        return self._hand.auction.contract if self._hand else None

    @property
    def play(self) -> Optional[HandPlay]:
        return self._hand.play if self._hand else None

    @property
    def hand_violations(self) -> list[Violation]:
        return list(self._hand.violations) if self._hand else []

    @property
    def declarations(self) -> list[Declaration]:
        return list(self._hand.declarations) if self._hand else []

    @property
    def replaced(self) -> dict[int, Optional[dict]]:
        """The corrections in force: event number -> its replacement (None: undone)."""
        return dict(self._replaced)

    def tricks_of(self, number: int) -> tuple[tuple[Seat, tuple[int, ...]], ...]:
        """The finished tricks of hand ``number`` (the one being played, or one over), each as its
        winner and the record events of its plays: what the table checks a pickup against, after
        every correction (a corrected card may change a trick's winner, in a hand already over too)."""
        h = self._hand
        if h is not None and h.number == number:
            return _tricks(h) if h.play is not None else ()
        return next((r.trick_plays for r in self.results if r.number == number), ())

    def read_once(self, n: int) -> bool:
        """Does play event ``n``, as the corrections in force have it, rest on one read of one sensor?"""
        event = self.current(n)
        return event is not None and len(event.get("sources") or ()) == 1

    def current(self, n: int) -> Optional[dict]:
        """Event ``n`` as the corrections in force have it (None: undone): what a correction
        of it must start from, not the line first written."""
        return self._replaced[n] if n in self._replaced else self.events[n - 1]

    @property
    def totals(self) -> tuple[int, int]:
        return self.match.totals[0], self.match.totals[1]

    @property
    def winner(self) -> Optional[int]:
        return self.match.winner

    @property
    def over(self) -> bool:
        return self.match.over

    # --- events --------------------------------------------------------------
    def apply(self, event: dict) -> list[Violation]:
        """Apply one event; return the violations it caused (see module doc)."""
        check_event(event)
        if event["type"] == "game":
            raise RecordError("a second game header: one game per record")
        if event["type"] == "correction":
            return self._correct(event)
        self._number = len(self.events) + 1
        try:
            found = self._apply(event)
        except RecordError:
            # Events are checked before they change anything, but a replay makes "unchanged" certain.
            self._replay(self.events, self._replaced)
            raise
        self.events.append(event)
        return found

    def _correct(self, event: dict) -> list[Violation]:
        ref = event["ref"]
        if not 2 <= ref <= len(self.events):
            raise RecordError(f"correction of event {ref}: there is no such game event (events 2..{len(self.events)} "
                              f"so far; event 1 is the header)")
        if self.events[ref - 1]["type"] == "correction":
            raise RecordError(f"correction of event {ref}, itself a correction: correct the original event instead")
        before = self._all_violations()
        old_events, old_replaced = self.events, dict(self._replaced)
        replaced = dict(old_replaced)
        replaced[ref] = event["replace"]
        try:
            self._replay(old_events + [event], replaced)
        except RecordError as exc:
            self._replay(old_events, old_replaced)
            raise RecordError(f"correction of event {ref}: {exc.message}") from None
        return [v for v in self._all_violations() if v not in before]

    def _replay(self, events: list[dict], replaced: dict[int, Optional[dict]]) -> None:
        self.events = [events[0]]
        self._reset()
        for number, original in enumerate(events[1:], 2):
            effective = replaced.get(number, original) if original["type"] != "correction" else None
            if effective is not None:
                self._number = number
                try:
                    self._apply(effective)
                except RecordError as exc:
                    raise RecordError(f"event {number} no longer fits: {exc.message}") from None
            self.events.append(original)
        self._replaced = replaced

    def _all_violations(self) -> list[Violation]:
        found = [v for r in self.results for v in r.violations]
        return found + (self._hand.violations if self._hand else [])

    def _apply(self, event: dict) -> list[Violation]:
        kind = event["type"]
        if self.match.over:
            raise RecordError(f"the game is over ({self._over_text()}): start a new record for a new game")
        if kind == "deal":
            return self._deal(event)
        hand = self._hand
        if hand is None:
            after = f"after hand {len(self.results)} ended" if self.results else "before the first deal"
            raise RecordError(f'a {kind} {after}: a hand starts with a "deal" event')
        if kind == "tally":
            return self._tally(hand, event)
        seat = parse_seat(event["seat"])
        if kind == "call":
            return self._call(hand, seat, event["call"])
        if hand.play is None:
            raise RecordError(f"a {kind} during the auction: the auction is not over "
                              f"({SEAT_NAMES[hand.auction.to_speak]} to speak)")
        if kind == "declare":
            return self._declare(hand, seat, event["cards"])
        if kind == "play":
            return self._play(hand, seat, event["card"], event.get("say"), event.get("sources"))
        if kind == "penalty":
            hand.penalty = seat
            return []
        if kind == "stop":
            return self._stop(hand, seat)
        raise RecordError(f"unexpected event type {kind}")  # check_event lets nothing else through

    def _over_text(self) -> str:
        t = self.totals
        who = TEAM_NAMES[self.winner] + " won" if self.winner is not None else "drawn"
        return f"{who}, NS {t[0]} EW {t[1]}"

    # --- deal and auction --------------------------------------------------------
    def _deal(self, event: dict) -> list[Violation]:
        if self._hand is not None:
            where = ("the auction" if self._hand.play is None else f"trick {self._hand.play.trick_number}")
            raise RecordError(f"a deal while hand {self._hand.number} is still at {where}: finish it, "
                              f"or correct/undo its events")
        dealer = parse_seat(event["dealer"])
        hands = None
        if event.get("hands") is not None:
            hands = [0, 0, 0, 0]
            seen: dict[int, str] = {}
            for name, cards in event["hands"].items():
                seat = parse_seat(name)
                if len(cards) != 8:
                    raise RecordError(f"deal: {name} has {len(cards)} cards, a hand has 8")
                for text in cards:
                    card = _card(text, "deal")
                    if card in seen:
                        raise RecordError(f"deal: {card_name(card)} is dealt to both {seen[card]} and {name}")
                    seen[card] = name
                    hands[seat] |= 1 << card
        turned = _card(event["turned"], "deal") if event.get("turned") else None
        if self.options.auction == "classic" and turned is None:
            raise RecordError('deal: classic belote needs the turned card ("turned": "9h")')
        hand = _Hand(len(self.results) + 1, dealer, hands, turned)
        hand.auction = Auction(self.options, dealer, turned)
        found = []
        if self.next_dealer is not None and dealer != self.next_dealer:
            found.append(Violation("wrong-dealer", dealer,
                                   f"{SEAT_NAMES[dealer]} dealt hand {hand.number}, but it was "
                                   f"{SEAT_NAMES[self.next_dealer]}'s deal",
                                   params=(("hand", hand.number), ("turn", SEAT_NAMES[self.next_dealer]))))
        hand.violations.extend(found)
        self._hand = hand
        return found

    def _call(self, hand: _Hand, seat: Seat, text: str) -> list[Violation]:
        try:
            found = hand.auction.apply(seat, text)
        except CallError as exc:
            raise RecordError(str(exc)) from None
        hand.violations.extend(found)
        if not found and hand.auction.done:
            contract = hand.auction.contract
            if contract is None:
                self._finish_all_pass(hand)
            else:
                leader = next_seat(hand.dealer, self.options.clockwise)
                hands = list(hand.hands) if hand.hands is not None else None
                hand.play = HandPlay(contract.mode, leader, self.options, hands)
                if hand.turned is not None and hands is not None and not hands[contract.taker] >> hand.turned & 1:
                    holder = next(s for s in range(4) if hands[s] >> hand.turned & 1)
                    found.append(Violation("misdeal", hand.dealer, f"{SEAT_NAMES[contract.taker]} took, but the "
                                           f"turned {pretty(hand.turned)} was dealt to {SEAT_NAMES[holder]}",
                                           card=hand.turned))
                    hand.violations.extend(found)
        return found

    def _finish_all_pass(self, hand: _Hand) -> None:
        result = HandResult(hand.number, hand.dealer, None, "all-pass", violations=hand.violations)
        self.match.add(HandScore((0, 0), "all-pass", False, (0, 0)), None)
        self.results.append(result)
        same = self.options.redeal_same_dealer
        self.next_dealer = hand.dealer if same else next_seat(hand.dealer, self.options.clockwise)
        self._hand = None

    # --- declarations and play --------------------------------------------------
    def _declare(self, hand: _Hand, seat: Seat, texts: list[str]) -> list[Violation]:
        cards = [_card(t, "declare") for t in texts]
        shown = " ".join(pretty(c) for c in cards)
        name = SEAT_NAMES[seat]

        def bad(rule: str, why: str, reason: str) -> list[Violation]:
            v = Violation(rule, seat, f"{name} declared {shown}: {why}", trick=hand.play.trick_number,
                          params=(("reason", reason),))
            hand.violations.append(v)
            return [v]

        if not self.options.declarations:
            return bad("declaration-not-allowed", "declarations are not played with these rules", "rules")
        if len(hand.play.tricks) >= 1:
            return bad("declaration-late", "declarations are made during the first trick", "late")
        try:
            decl = make_declaration(seat, cards, hand.play.trump)
        except DeclarationError as exc:
            return bad("declaration-invalid", str(exc), "shape")
        if hand.hands is not None and decl.cards & ~hand.hands[seat]:
            missing = " ".join(pretty(c) for c in iter_cards(decl.cards & ~hand.hands[seat]))
            return bad("declaration-not-held", f"{name} was not dealt {missing}", "dealt")
        if any(d.seat == seat and d.cards & decl.cards for d in hand.declarations):
            return bad("declaration-invalid", "a card counts in one declaration only", "twice")
        hand.declarations.append(decl)
        return []

    def _play(self, hand: _Hand, seat: Seat, text: str, say: Optional[str],
              sources: Optional[list] = None) -> list[Violation]:
        play = hand.play
        card = _card(text, "play")
        n = self._number
        if sources is not None and len(sources) == 1:
            hand.one_read.add(n)
        # What the turn and the legality of this card depend on: the cards of its trick so far
        # (the suit led, the card winning), or, leading, the last trick (its winner leads).
        done = len(hand.plays) - len(hand.plays) % 4
        context = hand.refs[done:] or hand.refs[-4:]
        if seat != play.to_play:
            v = Violation("out-of-turn", seat, f"{SEAT_NAMES[seat]} played {pretty(card)} out of turn: it is "
                          f"{SEAT_NAMES[play.to_play]}'s turn (the card goes back to the hand)",
                          card=card, trick=play.trick_number, params=(("turn", SEAT_NAMES[play.to_play]),),
                          to_confirm=_resting(hand, [n, *context]))
            hand.violations.append(v)
            return [v]
        found = []
        try:
            violation = play.play(card)
        except PlayError as exc:
            raise RecordError(str(exc)) from None
        if violation is not None:
            earlier = [hand.refs[hand.plays.index(card)]] if violation.rule == "already-played" else []
            found.append(replace(violation, to_confirm=_resting(hand, [n, *context, *earlier])))
        hand.plays.append(card)
        hand.refs.append(n)
        if rank_of(card) in (KING, QUEEN) or say:
            hand.says[card] = (seat, say, len(hand.plays))
        if say:
            found.extend(replace(v, to_confirm=_resting(hand, [n])) for v in check_say(self.options, hand.play.trump, hand.hands, seat, card, say, hand.play.trick_number))
        hand.violations.extend(found)
        if self.options.play_violation_penalty == "hand-lost" and hand.penalty is None:
            for v in found:
                if v.to_confirm:
                    continue                              # not a violation until it is confirmed
                if v.rule.startswith("must-") or v.rule in ("not-held", "already-played"):
                    hand.penalty = v.seat
                    break
        if play.done:
            self._finish_hand(hand)
        return found

    def _stop(self, hand: _Hand, seat: Seat) -> list[Violation]:
        """L'Arrêt (seed 004): right after winning a trick, a player stops the game, claiming
        their side has the target with the tricks won so far; wrong, the other side wins.
        A taker's claim also needs the contract made, so the hand is played out first."""
        play, team = hand.play, team_of(seat)
        name = SEAT_NAMES[seat]
        if not self.options.arret or play.trick or not play.tricks or team_of(play.tricks[-1].winner) != team:
            why = ("l'Arrêt is not played with these rules" if not self.options.arret
                   else "a side may stop the game only right after it won a trick")
            v = Violation("arret-not-allowed", seat, f"{name} stopped the game: {why}", trick=play.trick_number,
                          params=(("reason", "rules" if not self.options.arret else "won"),))
            hand.violations.append(v)
            return [v]
        decl = declaration_points(hand.declarations, play.trump, hand.dealer, self.options.clockwise)
        claim = self.totals[team] + play.card_points[team] + decl[team] + belote_points(self.options, hand.play.trump, hand.says)[team]
        self.stopped = {"seat": name, "claim": claim, "hand": hand.number}
        if claim < self.options.target:
            self.match.stop(1 - team)
            self._hand = None
        elif team == hand.auction.contract.team:
            hand.stop = seat
        else:
            self.match.stop(team)
            self._hand = None
        return []

    def _finish_hand(self, hand: _Hand) -> None:
        play = hand.play
        if hand.hands is None:
            leader = next_seat(hand.dealer, self.options.clockwise)
            # already-played was reported as it happened; the audit adds what the later plays prove
            hand.violations.extend(self._audit_rests(hand, v)
                                   for v in audit(play.trump, leader, hand.plays, self.options)
                                   if v.rule != "already-played")
            declarations = []
            for d in hand.declarations:
                played = mask_of(c for c, seat in self._played_by(hand) if seat == d.seat)
                if d.cards & ~played:
                    hand.violations.append(Violation(
                        "declaration-not-held", d.seat,
                        f"{SEAT_NAMES[d.seat]} declared {' '.join(pretty(c) for c in iter_cards(d.cards))} "
                        f"but did not play {' '.join(pretty(c) for c in iter_cards(d.cards & ~played))}",
                        params=(("reason", "played"),), to_confirm=self._seat_rests(hand, d.seat)))
                else:
                    declarations.append(d)
            hand.violations.extend(replace(v, to_confirm=self._seat_rests(hand, v.seat))
                                   for v in unheld_belotes(self.options, hand.play.trump, hand.says))
        else:
            declarations = hand.declarations
        self._score(hand, play.card_points, play.tricks_won, tuple(belote_points(self.options, hand.play.trump, hand.says)), declarations)
        self.results[-1].trick_plays = _tricks(hand)

    def _tally(self, hand: _Hand, event: dict) -> list[Violation]:
        """A hand's result entered without its cards (a table without sensors):
        the card points, belotes and capot the players counted at the end of
        the hand, scored exactly as a played hand with those figures."""
        play = hand.play
        if play is None:
            raise RecordError(f"a tally during the auction: the auction is not over "
                              f"({SEAT_NAMES[hand.auction.to_speak]} to speak); a tally ends a hand after its contract")
        if hand.plays:
            raise RecordError(f"a tally of hand {hand.number}, but {len(hand.plays)} card(s) of it were played: "
                              f"enter the rest of the cards, or undo the plays first")
        total = sum(points_table(play.trump, self.options.no_trump_values)) + self.options.dix_de_der
        capot = event.get("capot")
        if capot is not None:
            team = TEAM_NAMES.index(capot)
            points = [0, 0]
            points[team] = total
            if "card_points" in event and event["card_points"] != _teams(tuple(points)):
                raise RecordError(f"tally: a capot by {capot} takes every card point: card_points would be "
                                  f"{capot} {total}, the other side 0 (or leave card_points out)")
            tricks = (8, 0) if team == 0 else (0, 8)
        else:
            cp = event["card_points"]
            points = [cp["NS"], cp["EW"]]
            if points[0] + points[1] != total:
                raise RecordError(f"tally: card points NS {points[0]} + EW {points[1]} = {points[0] + points[1]}, "
                                  f"but a hand has {total} (dix de der included): correct the count")
            tricks = (0, 0)                          # not counted at the table; only a capot needs them
        belote = [0, 0]
        suits = belote_suits(self.options, play.trump)
        for name in event.get("belote", []):
            team = TEAM_NAMES.index(name)
            belote[team] += 20
            if not suits:
                raise RecordError("tally: no belote in this hand: " + (
                    "belote is not played with these rules" if not self.options.belote
                    else "there is no belote without trumps"))
            holders = [s for s in suits if hand.hands is None or any(
                hand.hands[seat] >> (s * 8 + KING) & 1 and hand.hands[seat] >> (s * 8 + QUEEN) & 1
                for seat in range(4) if team_of(seat) == team)]
            if belote[team] > 20 * len(holders):
                why = "was not dealt the king and queen of trumps" if hand.hands is not None else \
                    f"cannot have {belote[team] // 20} belotes with {len(suits)} trump suit(s)"
                raise RecordError(f"tally: belote for {name}, but {name} {why}")
        self._score(hand, (points[0], points[1]), tricks, (belote[0], belote[1]), hand.declarations)
        return []

    def _score(self, hand: _Hand, card_points: tuple[int, int], tricks: tuple[int, int],
               belote: tuple[int, int], declarations: list[Declaration]) -> None:
        """Score the finished hand (played or tallied) and close it."""
        contract = hand.auction.contract
        decl = declaration_points(declarations, hand.play.trump, hand.dealer, self.options.clockwise)
        penalty = team_of(hand.penalty) if hand.penalty is not None else None
        score = score_hand(self.options, contract, card_points, tricks, belote, decl, penalty)
        written = self.match.add(score, contract.team)
        if hand.stop is not None:                    # a taker's l'Arrêt: the contract decides it
            team = team_of(hand.stop)
            self.match.stop(team if score.result == "made" else 1 - team)
        self.results.append(HandResult(
            hand.number, hand.dealer, contract, score.result, written, score.card_points, score.capot,
            score.belote, score.declarations, tricks, score.held, hand.violations, hand.penalty))
        self.next_dealer = next_seat(hand.dealer, self.options.clockwise)
        self._hand = None

    def _audit_rests(self, hand: _Hand, v: Violation) -> Violation:
        """A violation the audit found, with the plays resting on one read that prove it: the
        card, the cards before it in its trick, and the later play of the card it held."""
        i = hand.plays.index(v.card)
        refs = hand.refs[i - i % 4:i + 1]
        held = dict(v.params).get("held")
        if held is not None and parse_card(held) in hand.plays:
            refs.append(hand.refs[hand.plays.index(parse_card(held))])
        return replace(v, to_confirm=_resting(hand, refs))

    def _seat_rests(self, hand: _Hand, seat: Seat) -> tuple[int, ...]:
        """The plays of ``seat`` resting on one read: what it did not play may be one of them."""
        return _resting(hand, [n for (_, s), n in zip(self._played_by(hand), hand.refs) if s == seat])

    def _played_by(self, hand: _Hand) -> list[tuple[int, Seat]]:
        out = []
        for trick in hand.play.tricks:
            seat = trick.leader
            for card in trick.cards:
                out.append((card, seat))
                seat = next_seat(seat, self.options.clockwise)
        return out

    # --- summaries -------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """DESIGN's ``check --json`` object."""
        return {"hands": [r.as_dict() for r in self.results], "totals": _teams(self.totals),
                "winner": TEAM_NAMES[self.winner] if self.winner is not None else None}

    def to_json(self) -> dict[str, Any]:
        """The full state for screens; cards still held are under ``"private"``."""
        h = self._hand
        out: dict[str, Any] = {
            "rules": self.rules, "seats": self.seats, "phase": self.phase, "hand_number": self.hand_number,
            "dealer": SEAT_NAMES[h.dealer] if h else None,
            "next_dealer": SEAT_NAMES[self.next_dealer] if self.next_dealer is not None else None,
            "auction": h.auction.state() if h else None,
            "contract": h.auction.contract.as_dict() if h and h.auction.contract else None,
            "trump": trump_name(h.play.trump) if h and h.play else None,
            "turned": card_name(h.turned) if h and h.turned is not None else None,
            "to_play": SEAT_NAMES[h.play.to_play] if h and h.play and not h.play.done else None,
            "trick": [card_name(c) for c in h.play.trick] if h and h.play else [],
            "tricks": [{"leader": SEAT_NAMES[t.leader], "cards": [card_name(c) for c in t.cards],
                        "winner": SEAT_NAMES[t.winner]} for t in h.play.tricks] if h and h.play else [],
            "hand_points": _teams(h.play.card_points) if h and h.play else None,
            "declarations": [d.as_dict() for d in h.declarations] if h else [],
            "violations": [v.as_dict() for v in h.violations] if h else [],
            "hands": [r.details() for r in self.results],
            "totals": _teams(self.totals), "pending_litige": _teams(self.match.pending),
            "winner": TEAM_NAMES[self.winner] if self.winner is not None else None, "over": self.over,
            "stopped": self.stopped,
            "private": {"hands": None},
        }
        if h and h.hands is not None:
            held = [h.play.hand(s) if h.play else h.hands[s] for s in range(4)]
            out["private"]["hands"] = {SEAT_NAMES[s]: [card_name(c) for c in iter_cards(held[s])] for s in range(4)}
        return out


def _tricks(hand: _Hand) -> tuple[tuple[Seat, tuple[int, ...]], ...]:
    return tuple((t.winner, tuple(hand.refs[4 * i:4 * i + 4])) for i, t in enumerate(hand.play.tricks))


def _resting(hand: _Hand, refs: list[int]) -> tuple[int, ...]:
    """Which of the play events ``refs`` rest on one read of one sensor (sorted)."""
    return tuple(sorted({n for n in refs if n in hand.one_read}))


def _card(text: str, where: str) -> int:
    try:
        return parse_card(text)
    except CardError as exc:
        raise RecordError(f"{where}: {exc}") from None

