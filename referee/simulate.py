"""A seeded noisy table: whole games as the sensors of a real table would report them.

Why: a table referee is only as good as its behaviour on imperfect input, and
real tables are rare in a test run. :func:`simulate` plays whole games (deal,
auction, play, pickups), plants violations of every kind the referee must
catch, and emits what a camera and RFID antennas would see, with faults at
configurable rates. It is pure (a seed fixes everything) and reused by the
demo to drive the dashboard.

What the sensors see (DESIGN zones): RFID tags arrive in ``hand:X`` as the
dealer deals packet by packet, leave ``hand:X`` and arrive in ``play:X`` when
played, leave ``play:X`` and arrive in ``pile:NS``/``pile:EW`` when the trick
is picked up; the camera sees each card appear in ``play:X`` (with a frame
reference and a confidence) and each play zone cleared. The console (the
human referee) enters the calls of the auction and "belote". Each sensor ends
with heartbeats (``SensorState``), as a live table's would go on arriving.

The players are the simulated player (:mod:`referee.player`) in its
reckless temperament, so that every kind of contract comes up. Faults
(:mod:`referee.sensor_faults`) make the sensors err at the rates given, and
violations are planted in a share of the hands: ``revoke`` (must-follow),
``no-trump`` (must-trump), ``no-overtrump`` (must-overtrump),
``out-of-turn``, ``wrong-pickup``, ``misdeal`` (packet of 4, wrong order, a
card left in the dealing area, a deck with a duplicate card; the same dealer
then deals again). A table without RFID (``rfid=false``) gets no planted
misdeal or wrong pickup: no sensor of it sees the hands or the piles.

The game's truth comes with the stream (:class:`SimGame`), so that the
human referee at the console can be played by an oracle
(:mod:`referee.oracle`) and the table referee measured against it
(:mod:`referee.measure`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Optional

from .auction import Auction
from .cards import Card, card_name, iter_cards, mask_of
from .deal_watch import CLASSIC_PACKETS, DEAL_PACKETS
from .game import Game
from .observations import CardGone, CardSeen, ConsoleAction, Observation, SensorState, ZoneCleared
from .play import HandPlay
from .player import SEATS, Player
from .rules import profile
from .seats import SEAT_NAMES, Seat, next_seat, team_of, TEAM_NAMES
from .sensor_faults import Faults, misread

PLAY_KINDS = {"revoke": "must-follow", "no-trump": "must-trump", "no-overtrump": "must-overtrump"}
VIOLATION_KINDS = tuple(PLAY_KINDS) + ("out-of-turn", "wrong-pickup", "misdeal")
MISDEAL_KINDS = ("packet", "order", "short", "duplicate")


def uid_of(card: Card) -> str:
    """The RFID tag of a card of the simulated deck."""
    return f"04{card:02X}5A{(card * 37) % 251:02X}C3D4E5"


@dataclass(frozen=True)
class Planted:
    """A violation the simulator planted: what the referee must find."""

    kind: str
    hand: int
    seat: Seat
    trick: Optional[int] = None
    card: Optional[Card] = None
    detail: str = ""
    traced: bool = True          # False: no sensor reported anything of it (a wrong pickup whose pile
                                 # reads were all missed): no table could flag it

    @property
    def rule(self) -> str:
        return PLAY_KINDS.get(self.kind, self.kind)

    def matches(self, hand: int, v: dict[str, Any]) -> bool:
        """Is the violation ``v`` (a violation's ``as_dict()``) of ``hand`` this planted one?"""
        if self.hand != hand or v["rule"] != self.rule:
            return False
        if self.kind == "misdeal":
            return True
        if self.kind == "wrong-pickup":
            return v.get("trick") == self.trick
        return v.get("trick") == self.trick and v["seat"] == SEAT_NAMES[self.seat] and v.get("card") == card_name(self.card)

    def as_dict(self) -> dict[str, Any]:
        out = {"kind": self.kind, "rule": self.rule, "hand": self.hand, "seat": SEAT_NAMES[self.seat]}
        if self.trick is not None:
            out["trick"] = self.trick
        if self.card is not None:
            out["card"] = card_name(self.card)
        if self.detail:
            out["detail"] = self.detail
        if not self.traced:
            out["traced"] = False
        return out


@dataclass
class SimGame:
    """One simulated game: the sensor stream and its ground truth."""

    header: dict[str, Any]
    observations: list[Observation]
    record: list[dict[str, Any]]                 # the true game record (header first)
    planted: list[Planted]
    plays: dict[tuple[int, int, Seat], Card]     # (hand, trick, seat) -> card truly played
    misdeals: set[int]                           # hand numbers whose (first) deal was a misdeal
    hands: int
    truth: Game                                  # the true game, replayed by the rules engine


class _Emitter:
    """Builds the observation stream with faults; everything is time-stamped, sorted at the end."""

    def __init__(self, rng: random.Random, faults: Faults):
        self.rng = rng
        self.f = faults
        self.items: list[tuple[float, int, Observation]] = []
        self.frame = 0

    def _add(self, obs: Observation) -> None:
        self.items.append((obs.t, len(self.items), obs))

    def console(self, t: float, **kw: Any) -> None:
        self._add(ConsoleAction(t=t, **kw))

    def rfid(self, t: float, seen: bool, zone: str, card: Card, uid: Optional[str] = None) -> Optional[float]:
        """An RFID edge, maybe missed, late or reported twice: when it was reported (None: missed)."""
        if not self.f.rfid:
            return None
        r = self.rng.random()
        if r < self.f.rfid_miss:
            return None
        if r < self.f.rfid_miss + self.f.rfid_late:
            t += self.rng.uniform(0.2, 0.8)
        uid = uid or uid_of(card)
        evidence = {"antenna": zone}
        obs = (CardSeen(source="rfid", t=t, zone=zone, card=card, uid=uid, evidence=evidence) if seen
               else CardGone(source="rfid", t=t, zone=zone, card=card, uid=uid, evidence=evidence))
        self._add(obs)
        if self.rng.random() < self.f.duplicate:
            self._add(replace(obs, t=t + 0.05))
        return t

    def camera_seen(self, t: float, zone: str, card: Card, honest: bool = False) -> Optional[float]:
        """The camera's read of a card come to rest (maybe misread, or unreadable: card None):
        when it was reported (None: no camera)."""
        if not self.f.camera:
            return None
        self.frame += 1
        r = self.rng.random()
        read, conf = card, round(self.rng.uniform(0.9, 1.0), 3)
        if not honest and r < self.f.misread:
            read = misread(self.rng, card, self.f.like_reader)
            sure = self.f.sure_misread > 0 and self.rng.random() < self.f.sure_misread
            conf = round(self.rng.uniform(0.9, 1.0) if sure else self.rng.uniform(0.55, 0.9), 3)
        elif not honest and r < self.f.misread + self.f.unreadable:
            read, conf = None, round(self.rng.uniform(0.1, 0.4), 3)
        obs = CardSeen(source="camera", t=t, zone=zone, card=read, confidence=conf,
                       evidence={"frame": f"cam0:{self.frame}"})
        self._add(obs)
        if self.rng.random() < self.f.duplicate:
            self._add(replace(obs, t=t + 0.04))
        return t

    def camera_gone(self, t: float, zone: str, card: Card) -> None:
        if self.f.camera:
            self._add(CardGone(source="camera", t=t, zone=zone, card=card))

    def camera_cleared(self, t: float, zone: str) -> None:
        if self.f.camera:
            self._add(ZoneCleared(source="camera", t=t, zone=zone))

    def stream(self) -> list[Observation]:
        return [obs for _, _, obs in sorted(self.items, key=lambda item: (item[0], item[1]))]


def _packets(rng: random.Random, dealer: Seat, deck: list[Card], clockwise: bool) -> list[tuple[Seat, list[Card]]]:
    pattern = rng.choice(DEAL_PACKETS)
    order = [next_seat(dealer, clockwise)]
    for _ in range(3):
        order.append(next_seat(order[-1], clockwise))
    packets, i = [], 0
    for size in pattern:
        for seat in order:
            packets.append((seat, deck[i:i + size]))
            i += size
    return packets


def _misdeal(rng: random.Random, kind: str, packets: list[tuple[Seat, list[Card]]]):
    """Spoil a deal; returns (packets, card left in the dealing area, {card: uid} of a wrong tag)."""
    packets = [(s, list(c)) for s, c in packets]
    left, tags = None, {}
    if kind == "packet":                       # a packet of 4 to the first seat, the dealer one short
        packets[0][1].append(packets[-1][1].pop())
    elif kind == "order":                      # the second round starts at the wrong seat
        second = packets[4:8]
        packets[4:8] = second[1:] + second[:1]
    elif kind == "short":                      # the last card stays on the table
        left = packets[-1][1].pop()
    else:                                      # the deck holds a card twice, and lacks another
        cards = [c for _, cs in packets for c in cs]
        a, b = rng.sample(cards, 2)
        packets = [(s, [a if c == b else c for c in cs]) for s, cs in packets]
        tags = {a: [uid_of(a), "04FFEE" + uid_of(a)[6:]]}     # two physical cards, two tags
    return packets, left, tags


def _classic_deal(em: _Emitter, rng: random.Random, player: Player, dealer: Seat, t: float,
                  record: list) -> tuple[float, Any, list[int]]:
    """Classic belote (seed 004): 3 then 2 cards each and a card turned up; the auction at the
    console (take / takeX / pass); then the taker gets the turned card and 2 more, the others 3,
    from the dealer's right. Returns the time, the contract (None: all passed) and the hands."""
    options = player.options
    cw = options.clockwise
    deck = list(range(32))
    rng.shuffle(deck)
    order = [next_seat(dealer, cw)]
    for _ in range(3):
        order.append(next_seat(order[-1], cw))
    sizes = rng.choice(CLASSIC_PACKETS)
    first, i = [], 0
    for size in sizes:
        for seat in order:
            first.append((seat, deck[i:i + size]))
            i += size
    turned = deck[20]
    t = _emit_deal(em, first, t, {})
    em.rfid(t, True, "deal", turned)
    held = [0, 0, 0, 0]
    for seat, cards in first:
        held[seat] |= mask_of(cards)
    deal: dict[str, Any] = {"type": "deal", "dealer": SEAT_NAMES[dealer], "turned": card_name(turned)}
    record.append(deal)
    auction = Auction(options, dealer, turned)
    player.auction_starts()
    while not auction.done:
        seat = auction.to_speak
        call = player.call(auction, held[seat])
        auction.apply(seat, call)
        t += rng.uniform(0.8, 1.6)
        em.console(t, action="call", seat=seat, call=call)
        record.append({"type": "call", "seat": SEAT_NAMES[seat], "call": call})
    if auction.contract is None:
        t += 2.0
        for seat in range(4):
            for card in iter_cards(held[seat]):
                em.rfid(t + rng.uniform(0, 0.6), False, f"hand:{SEAT_NAMES[seat]}", card)
        em.rfid(t + 0.7, False, "deal", turned)
        return t + 3.0, None, held
    taker = auction.contract.taker
    t += 1.5
    em.rfid(t, False, "deal", turned)                 # the turned card goes to the taker first
    em.rfid(t + 0.2, True, f"hand:{SEAT_NAMES[taker]}", turned)
    held[taker] |= 1 << turned
    t += 0.6
    second, i = [], 21
    for seat in order:
        n = 2 if seat == taker else 3
        second.append((seat, deck[i:i + n]))
        held[seat] |= mask_of(deck[i:i + n])
        i += n
    t = _emit_deal(em, second, t, {})
    deal["hands"] = {SEAT_NAMES[s]: [card_name(c) for c in sorted(iter_cards(held[s]))] for s in range(4)}
    return t, auction.contract, held


def _auction(player: Player, dealer: Seat, held: list[int]) -> tuple[list[tuple[Seat, str]], Auction]:
    auction = Auction(player.options, dealer)
    player.auction_starts()
    calls = []
    while not auction.done:
        seat = auction.to_speak
        call = player.call(auction, held[seat])
        calls.append((seat, call))
        auction.apply(seat, call)
    return calls, auction


def simulate(hands: int = 10, seed: int = 0, faults: Faults = Faults(), rules: str = "ffb-contree",
             seats: Optional[dict[str, str]] = None, options: Optional[dict[str, Any]] = None) -> SimGame:
    """Play ``hands`` hands (all-pass hands included), or fewer when the game ends first,
    of a seeded noisy table; ``options`` are rule overrides (``{"target": 3000}`` for a long game).
    A classic profile is dealt and bid as seed 004 says (:func:`_classic_deal`)."""
    rng = random.Random(seed)
    overrides = dict(options or {})
    options = profile(rules, **overrides)
    classic = options.auction == "classic"
    cw = options.clockwise
    header = {"type": "game", "version": 1, "rules": rules, "options": overrides, "seats": seats or SEATS}
    player = Player(rng, options, reckless=True)
    em = _Emitter(rng, faults)
    # Without RFID nothing sees the hands or the piles: a misdeal or a wrong pickup is the human
    # referee's to see, so none is planted for the table to find.
    kinds = VIOLATION_KINDS if faults.rfid else tuple(k for k in VIOLATION_KINDS if k not in ("misdeal", "wrong-pickup"))
    if classic:                                 # misdeals are planted in 8-card deals only
        kinds = tuple(k for k in kinds if k != "misdeal")
    record: list[dict[str, Any]] = [header]
    planted: list[Planted] = []
    plays: dict[tuple[int, int, Seat], Card] = {}
    misdeals: set[int] = set()
    dealer = rng.randrange(4)
    t = 1.0
    em.console(t, action="start", seat=dealer)
    number = 0
    truth = Game(header)
    while True:
        for event in record[len(truth.events):]:
            truth.apply(event)
        if number >= hands or truth.over:
            break
        number += 1
        plant = rng.choice(kinds) if rng.random() < faults.violations else None
        t += 2.0
        if classic:
            t, contract, held = _classic_deal(em, rng, player, dealer, t, record)
            if contract is None:                # all passed twice: the cards are gathered, next dealer
                dealer = next_seat(dealer, cw)
                continue
            t = _play_hand(em, rng, player, contract, dealer, held, number, plant, t, record, planted, plays)
            dealer = next_seat(dealer, cw)
            continue
        # --- the deal, packet by packet (a spoilt one first when a misdeal is planted)
        deck = list(range(32))
        rng.shuffle(deck)
        if plant == "misdeal":
            kind = rng.choice(MISDEAL_KINDS)
            bad, left, tags = _misdeal(rng, kind, _packets(rng, dealer, deck, cw))
            t = _emit_deal(em, bad, t, tags)
            if left is not None:
                em.rfid(t, True, "deal", left)
            planted.append(Planted("misdeal", number, dealer, detail=kind))
            misdeals.add(number)
            t += 3.0                           # the referee stops the game; the cards are gathered
            for seat, card, uid in _physical(bad, tags):
                em.rfid(t + rng.uniform(0, 0.5), False, f"hand:{SEAT_NAMES[seat]}", card, uid)
            if left is not None:
                em.rfid(t + 0.6, False, "deal", left)
            t += 4.0
            rng.shuffle(deck)
        packets = _packets(rng, dealer, deck, cw)
        t = _emit_deal(em, packets, t, {})
        held = [0, 0, 0, 0]
        for seat, cards in packets:
            held[seat] |= mask_of(cards)
        deal = {"type": "deal", "dealer": SEAT_NAMES[dealer],
                "hands": {SEAT_NAMES[s]: [card_name(c) for c in sorted(iter_cards(held[s]))] for s in range(4)}}
        record.append(deal)
        # --- the auction, entered at the console
        calls, auction = _auction(player, dealer, held)
        for seat, call in calls:
            t += rng.uniform(0.8, 1.6)
            em.console(t, action="call", seat=seat, call=call)
            record.append({"type": "call", "seat": SEAT_NAMES[seat], "call": call})
        if auction.contract is None:           # all passed: the cards are gathered, next dealer
            t += 2.0
            for seat in range(4):
                for card in iter_cards(held[seat]):
                    em.rfid(t + rng.uniform(0, 0.6), False, f"hand:{SEAT_NAMES[seat]}", card)
            t += 3.0
            dealer = dealer if options.redeal_same_dealer else next_seat(dealer, cw)
            continue
        contract = auction.contract
        t = _play_hand(em, rng, player, contract, dealer, held, number, plant, t, record, planted, plays)
        dealer = next_seat(dealer, cw)
    for source in ("camera", "rfid"):                # the sensors go on reporting: time passes (a game cut
        if getattr(faults, source):                  # short leaves no question waiting for a second read)
            for beat in (5.0, 10.0):
                em._add(SensorState(source=source, t=t + beat, state="connected", detail="heartbeat"))
    return SimGame(header, em.stream(), record, planted, plays, misdeals, number, truth)


def _physical(packets, tags: dict[Card, list[str]]):
    """(seat, card, uid) of each physical card dealt; a duplicated face gets its second tag."""
    used: dict[Card, int] = {}
    for seat, cards in packets:
        for card in cards:
            n = used.get(card, 0)
            used[card] = n + 1
            yield seat, card, tags[card][n] if card in tags else uid_of(card)


def _emit_deal(em: _Emitter, packets, t: float, tags: dict[Card, list[str]]) -> float:
    physical = _physical(packets, tags)
    for _, cards in packets:
        for _ in cards:
            t += 0.2
            seat, card, uid = next(physical)
            em.rfid(t, True, f"hand:{SEAT_NAMES[seat]}", card, uid)
        t += 0.4
    return t


def _play_hand(em: _Emitter, rng: random.Random, player: Player, contract, dealer: Seat, held: list[int],
               number: int, plant: Optional[str], t: float, record: list, planted: list,
               plays: dict) -> float:
    options = player.options
    hp = HandPlay(contract.mode, next_seat(dealer, options.clockwise), options, list(held))
    said: set[Card] = set()
    out_of_turn = (rng.randrange(1, 9), rng.randrange(1, 4)) if plant == "out-of-turn" else None
    wrong_pickup = rng.randrange(1, 9) if plant == "wrong-pickup" else None
    want = PLAY_KINDS.get(plant or "")
    t += 2.0
    for trick in range(1, 9):
        chosen: list[tuple[Seat, Card, Optional[str]]] = []
        for position in range(4):
            seat = hp.to_play
            legal = hp.legal()
            hand = hp.hand(seat)
            card = None
            if want and position and trick < 8 and rng.random() < 0.5:
                for c in iter_cards(hand & ~legal):
                    v = hp.copy().play(c)
                    if v is not None and v.rule == want:
                        card = c
                        planted.append(Planted(plant, number, seat, trick, c))
                        want = None
                        break
            if card is None:
                card = player.card(legal)
            say = player.says(contract.mode, card, hand, said)
            hp.play(card)
            chosen.append((seat, card, say))
            plays[(number, trick, seat)] = card
            ev = {"type": "play", "seat": SEAT_NAMES[seat], "card": card_name(card)}
            if say:
                ev["say"] = say
            record.append(ev)
        # --- the times each card is put down; an early card jumps ahead of its turn
        times = []
        for position in range(4):
            t += rng.uniform(1.3, 2.2)
            times.append(t)
        order = list(range(4))
        if out_of_turn and out_of_turn[0] == trick:
            j = out_of_turn[1]
            times[j] = times[j - 1] - 0.5
        timed: list[Optional[float]] = [None] * 4      # when a sensor first reported each card put down
        for position in order:
            seat, card, say = chosen[position]
            tp = times[position]
            zone = f"play:{SEAT_NAMES[seat]}"
            others = list(iter_cards(hp_hand_before(held, plays, number, trick, seat, card)))
            # No take-back by the out-of-turn player, nor by the player it jumps ahead of: with a
            # card shown and taken back, which card the other came before is no longer a fact.
            if rng.random() < em.f.takeback and position > 0 and others and \
                    not (out_of_turn and out_of_turn[0] == trick and position in (out_of_turn[1], out_of_turn[1] - 1)):
                shown = rng.choice(others)
                em.camera_seen(tp - 0.9, zone, shown, honest=True)
                em.rfid(tp - 0.9, False, f"hand:{SEAT_NAMES[seat]}", shown)
                em.rfid(tp - 0.85, True, zone, shown)
                em.camera_gone(tp - 0.55, zone, shown)
                em.rfid(tp - 0.5, False, zone, shown)
                em.rfid(tp - 0.45, True, f"hand:{SEAT_NAMES[seat]}", shown)
            reads = (em.rfid(tp, False, f"hand:{SEAT_NAMES[seat]}", card), em.camera_seen(tp + 0.08, zone, card),
                     em.rfid(tp + 0.12, True, zone, card))
            timed[position] = min((r for r in reads if r is not None), default=None)
            if say:
                em.console(tp + 0.3, action="belote", seat=seat)
        if out_of_turn and out_of_turn[0] == trick:
            # It is out of turn for coming before the card of the player before it: no table can
            # tell when nobody saw when one of the two was put down, or a late report of it put
            # it after the other.
            j = out_of_turn[1]
            seat, card, _ = chosen[j]
            traced = timed[j] is not None and timed[j - 1] is not None and timed[j] < timed[j - 1]
            planted.append(Planted("out-of-turn", number, seat, trick, card, traced=traced))
        # --- a card bumped into another zone once it is settled
        tclear = t + rng.uniform(1.4, 2.0)
        if rng.random() < em.f.knocked:
            seat, card, _ = chosen[rng.randrange(4)]
            if times[[s for s, _, _ in chosen].index(seat)] + 1.3 < tclear - 0.2:
                tk = tclear - 0.2
                other = rng.choice([s for s in range(4) if s != seat])
                em.camera_gone(tk, f"play:{SEAT_NAMES[seat]}", card)
                em.camera_seen(tk + 0.02, f"play:{SEAT_NAMES[other]}", card, honest=True)
                em.rfid(tk + 0.03, False, f"play:{SEAT_NAMES[seat]}", card)
                em.rfid(tk + 0.05, True, f"play:{SEAT_NAMES[other]}", card)
        # --- the pickup, by the winner's side (or the other one when planted)
        winner = hp.winners[-1]
        pile = team_of(winner) if wrong_pickup != trick else 1 - team_of(winner)
        t = tclear
        for seat, card, _ in chosen:
            em.camera_cleared(t, f"play:{SEAT_NAMES[seat]}")
        piled = False
        for i, (seat, card, _) in enumerate(chosen):
            em.rfid(t + 0.05 + 0.02 * i, False, f"play:{SEAT_NAMES[seat]}", card)
            piled |= em.rfid(t + 0.3 + 0.05 * i, True, f"pile:{TEAM_NAMES[pile]}", card) is not None
        if wrong_pickup == trick:
            planted.append(Planted("wrong-pickup", number, winner ^ 1, trick, detail=TEAM_NAMES[pile], traced=piled))
        t += 0.6
    return t + 1.0


def hp_hand_before(held: list[int], plays: dict, number: int, trick: int, seat: Seat, card: Card) -> int:
    """What ``seat`` held just before playing ``card`` (the card itself left out)."""
    played = mask_of(c for (h, k, s), c in plays.items() if h == number and s == seat and k < trick)
    return held[seat] & ~played & ~(1 << card)
