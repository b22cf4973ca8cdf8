"""Seats ``N E S W`` as ints 0-3, teams ``NS`` and ``EW``, and the turn order.

By default play goes counter-clockwise: the next player is on your right,
S -> E -> N -> W (seed 000 §3.4, 004 "anti-clockwise"); a profile option flips it.

>>> [SEAT_NAMES[s] for s in turn_order(SOUTH)]
['S', 'E', 'N', 'W']
>>> [SEAT_NAMES[s] for s in turn_order(SOUTH, clockwise=True)]
['S', 'W', 'N', 'E']
>>> TEAM_NAMES[team_of(parse_seat("w"))]
'EW'
"""

from __future__ import annotations

Seat = int
Team = int

NORTH, EAST, SOUTH, WEST = range(4)
SEAT_NAMES = "NESW"
NS, EW = 0, 1
TEAM_NAMES = ("NS", "EW")


class SeatError(ValueError):
    """A text that is not a seat."""


def parse_seat(text: str) -> Seat:
    index = SEAT_NAMES.find(text.strip().upper()[:1]) if text.strip() else -1
    if index < 0 or len(text.strip()) != 1:
        raise SeatError(f"{text!r} is not a seat: write N, E, S or W")
    return index


def parse_team(text: str) -> Team:
    name = text.strip().upper()
    if name not in TEAM_NAMES:
        raise SeatError(f"{text!r} is not a team: write NS or EW")
    return TEAM_NAMES.index(name)


def team_of(seat: Seat) -> Team:
    return seat & 1


def partner(seat: Seat) -> Seat:
    return seat ^ 2


def next_seat(seat: Seat, clockwise: bool = False) -> Seat:
    """The seat that plays after ``seat``: on its right unless ``clockwise``."""
    return (seat + 1) & 3 if clockwise else (seat - 1) & 3


def turn_order(first: Seat, clockwise: bool = False) -> list[Seat]:
    order = [first]
    for _ in range(3):
        order.append(next_seat(order[-1], clockwise))
    return order
