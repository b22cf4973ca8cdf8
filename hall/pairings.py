"""Who meets whom in a round, and at which table.

- Round 1: at random (a seeded shuffle, so the desk can print it again) or
  seeded (the organiser's seeds: 1 meets the middle of the field, the way a
  Swiss tournament's first round keeps the strongest apart).
- Later rounds: Swiss. Teams in ranking order; each team meets the best
  placed team it has not met yet. A depth-first search backs up when the last
  teams would be left with only rematches; only when no pairing at all
  avoids a rematch is one allowed (as few as the search finds).
- Byes: with an odd number of teams the lowest-ranked team that has not had
  a bye sits out (a bye counts as a win, see ``ranking``).
- Tables: pair 1 at the first table of the room, and so on; the team ranked
  higher sits NS.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable, Optional


class PairingError(ValueError):
    """Pairings that cannot be made (too few teams or tables)."""


@dataclass
class Pairing:
    pairs: list[tuple[str, str]]      # (NS team, EW team), best placed first
    bye: Optional[str] = None
    rematches: int = 0


def first_round(team_ids: list[str], seeds: Optional[dict[str, Optional[int]]] = None,
                shuffle_seed: Optional[int] = None) -> Pairing:
    """Round 1: seeded when ``seeds`` gives every team a seed, else at random."""
    if seeds and all(seeds.get(t) is not None for t in team_ids):
        order = sorted(team_ids, key=lambda t: seeds[t])
        bye = order.pop() if len(order) % 2 else None
        half = len(order) // 2
        return Pairing([(order[i], order[i + half]) for i in range(half)], bye)
    order = list(team_ids)
    random.Random(shuffle_seed).shuffle(order)
    bye = order.pop() if len(order) % 2 else None
    return Pairing([(order[i], order[i + 1]) for i in range(0, len(order), 2)], bye)


def swiss(ranked: list[str], met: Iterable[frozenset], had_bye: Iterable[str] = ()) -> Pairing:
    """A Swiss round for teams in ranking order (best first), with no rematch while avoidable."""
    met = set(met)
    order = list(ranked)
    bye = None
    if len(order) % 2:
        had = set(had_bye)
        bye = next((t for t in reversed(order) if t not in had), order[-1])
        order.remove(bye)
    for allowed in range(0, len(order) // 2 + 1):
        pairs = _search(order, met, allowed)
        if pairs is not None:
            return Pairing(pairs, bye, sum(frozenset(p) in met for p in pairs))
    raise PairingError("no pairing found")      # unreachable: with every rematch allowed one always exists


def _search(order: list[str], met: set, allowed: int) -> Optional[list[tuple[str, str]]]:
    """Depth-first: the best placed team with the best placed opponent it may meet."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        rematch = frozenset((first, other)) in met
        if rematch and allowed == 0:
            continue
        tail = _search(rest[:i] + rest[i + 1:], met, allowed - rematch)
        if tail is not None:
            return [(first, other)] + tail
    return None


def assign_tables(pairing: Pairing, tables: list[str]) -> list[dict]:
    """``[{"table", "NS", "EW"}]``: pair k at the room's k-th table."""
    if len(tables) < len(pairing.pairs):
        raise PairingError(f"{len(pairing.pairs)} matches need {len(pairing.pairs)} tables; "
                           f"the hall has {len(tables)}: join more tables or withdraw teams")
    return [{"table": table, "NS": ns, "EW": ew} for table, (ns, ew) in zip(tables, pairing.pairs)]
