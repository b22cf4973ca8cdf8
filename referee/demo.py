"""A seeded simulated game, as a record: what the demos and tests play.

:func:`play_demo_game` deals whole hands and has the simulated player
(:mod:`referee.player`) bid, declare and play them through
:class:`referee.game.Game` itself (every event is applied as it is made, so
the record is always one the engine accepts), and plants a few violations a
referee must catch: an illegal card now and then, a call out of turn. The
same seed always gives the same record. :func:`print_game` narrates a record
for the terminal (``belote-table referee demo``).

>>> events = play_demo_game(seed=7, rules="ffb-contree", max_hands=2)
>>> events[0]["type"], sum(e["type"] == "deal" for e in events)
('game', 2)
>>> play_demo_game(seed=7, rules="ffb-contree", max_hands=2) == events
True
"""

from __future__ import annotations

import random
from typing import Optional, TextIO

from .cards import card_name, iter_cards, parse_card, pretty
from .game import Game
from .play import legal_cards
from .player import SEATS, Player
from .rules import profile
from .scoresheet import scoresheet_text
from .seats import SEAT_NAMES, Seat


def play_demo_game(seed: int = 1, rules: str = "ffb-contree", max_hands: Optional[int] = None,
                   violation_rate: float = 0.02, options: Optional[dict] = None) -> list[dict]:
    """Play a seeded game to the profile's target (or ``max_hands``) and return
    its record events. ``violation_rate``: how often a player plays an illegal card
    when it has one (planted violations), and calls out of turn."""
    rng = random.Random(seed)
    header = {"type": "game", "version": 1, "rules": rules, "options": dict(options or {}), "seats": SEATS}
    game = Game(header)
    events = [header]

    def emit(event: dict) -> None:
        game.apply(event)
        events.append(event)

    opts = profile(rules, **(options or {}))
    player = Player(rng, opts)
    dealer = rng.randrange(4)
    hands_played = 0
    while not game.over and (max_hands is None or hands_played < max_hands):
        hands_played += 1
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[8 * s:8 * s + 8]) for s in range(4)]
        deal: dict = {"type": "deal", "dealer": SEAT_NAMES[dealer]}
        if opts.auction == "classic":
            turned = deck[20]
            # The record's hands are the full 8 cards after the second deal; the
            # bots bid on their first five cards and the turned card.
            first_five = [sum(1 << c for c in deck[5 * s:5 * s + 5]) for s in range(4)]
            probe = Game(header)
            probe.apply({"type": "deal", "dealer": SEAT_NAMES[dealer], "turned": card_name(turned)})
            calls = []
            player.auction_starts()
            while probe.phase == "auction":
                seat = probe.auction.to_speak
                call = player.call(probe.auction, first_five[seat])
                probe.apply({"type": "call", "seat": SEAT_NAMES[seat], "call": call})
                calls.append((seat, call))
            deal["turned"] = card_name(turned)
            if probe.phase != "play":                          # all passed twice: no second deal
                emit(deal)
                for seat, call in calls:
                    emit({"type": "call", "seat": SEAT_NAMES[seat], "call": call})
                dealer = game.next_dealer
                continue
            taker = calls[-1][0]
            rest = [c for c in deck[20:] if c != turned]
            hands = list(first_five)
            hands[taker] |= 1 << turned
            for seat in range(4):
                need = 8 - hands[seat].bit_count()
                for _ in range(need):
                    hands[seat] |= 1 << rest.pop()
            deal["hands"] = {SEAT_NAMES[s]: [card_name(c) for c in iter_cards(hands[s])] for s in range(4)}
            emit(deal)
            for seat, call in calls:
                emit({"type": "call", "seat": SEAT_NAMES[seat], "call": call})
        else:
            deal["hands"] = {SEAT_NAMES[s]: [card_name(c) for c in iter_cards(hands[s])] for s in range(4)}
            emit(deal)
            player.auction_starts()
            while game.phase == "auction":
                seat = game.auction.to_speak
                if rng.random() < violation_rate / 2:         # a planted call out of turn
                    emit({"type": "call", "seat": SEAT_NAMES[(seat + 2) & 3], "call": "pass"})
                emit({"type": "call", "seat": SEAT_NAMES[seat], "call": player.call(game.auction, hands[seat])})
        if game.phase != "play":
            dealer = game.next_dealer
            continue
        declared: set[Seat] = set()
        said: set[int] = set()
        while game.phase == "play":
            play = game.play
            seat = play.to_play
            held = play.hand(seat)
            if opts.declarations and play.trick_number == 1 and seat not in declared:
                declared.add(seat)
                for d in player.declarations(seat, held, play.trump):
                    emit({"type": "declare", "seat": SEAT_NAMES[seat],
                          "cards": [card_name(c) for c in iter_cards(d.cards)]})
            legal = legal_cards(opts, play.trump, play.trick, held)
            illegal = held & ~legal
            pool = illegal if illegal and rng.random() < violation_rate else legal
            card = player.card(pool)
            event = {"type": "play", "seat": SEAT_NAMES[seat], "card": card_name(card)}
            say = player.says(play.trump, card, held, said)
            if say:
                event["say"] = say
            emit(event)
        dealer = game.next_dealer
    return events


def print_game(events: list[dict], out: TextIO) -> None:
    """Replay ``events`` and narrate them: hands, calls, plays, violations, sheet."""
    game = Game(events[0])
    write = lambda text="": print(text, file=out)   # noqa: E731
    names = events[0].get("seats", {})
    write(f"Rules: {game.rules}   " + "  ".join(f"{s}: {n}" for s, n in names.items()))
    trick_line: list[str] = []
    pending: list = []                     # violations of the trick on the table, shown after it
    for event in events[1:]:
        kind = event["type"]
        number = game.hand_number
        play_before = game.play
        found = game.apply(event)
        if kind == "deal":
            write(f"\n=== Hand {number}, {event['dealer']} deals"
                  + (f", turned {pretty(parse_card(event['turned']))}" if event.get("turned") else ""))
            for seat, cards in (event.get("hands") or {}).items():
                write(f"  {seat}: {' '.join(pretty(parse_card(c)) for c in cards)}")
        elif kind == "call":
            write(f"  {event['seat']} {event['call']}")
            if game.phase == "play" and not found:
                c = game.contract
                write(f"  -> contract {SEAT_NAMES[c.taker]} {c.call}"
                      + (f" countered x{c.counter}" if c.counter > 1 else ""))
        elif kind == "declare":
            write(f"  {event['seat']} declares {' '.join(pretty(parse_card(c)) for c in event['cards'])}")
        elif kind == "play":
            trick_line.append(f"{event['seat']} {pretty(parse_card(event['card']))}"
                              + (f" ({event['say']})" if event.get("say") else ""))
            pending.extend(found)
            if not play_before.trick:
                last = play_before.tricks[-1]
                write(f"  trick {len(play_before.tricks)}: {', '.join(trick_line)}  -> {SEAT_NAMES[last.winner]}")
                trick_line = []
                found, pending = pending, []
            else:
                found = []
        for v in found:
            write(f"  ! {v.rule}: {v.message}")
        if kind in ("play", "call") and game.results and game.results[-1].number == number:
            r = game.results[-1]
            if r.result == "all-pass":
                write("  all passed: no points")
            else:
                write(f"  result: {r.result}{' (capot)' if r.capot else ''}; card points NS {r.card_points[0]} "
                      f"EW {r.card_points[1]}; score NS {r.score[0]} EW {r.score[1]}")
    write("\n=== Score sheet")
    write(scoresheet_text(game))
