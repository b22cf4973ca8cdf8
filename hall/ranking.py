"""The standings: match points or total points, then the organiser's tie-breaks.

A match gives each team its score (the points it made at the table) and
match points: 2 for a win, 1 for a draw, 0 for a loss. A bye counts as a win
with ``bye_points`` points. Penalties (audited at the desk) take points or
match points off a team.

Tie-breaks, in the order the organiser lists them:

- ``opponents``: the sum of the opponents' primary score (match points, or
  points), as in Swiss tournaments (Buchholz): who met the stronger field;
- ``difference``: points made minus points conceded;
- ``head-to-head``: among the teams still tied, the match points of their
  matches against each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

METHODS = ("match-points", "total-points")
TIEBREAKS = ("opponents", "difference", "head-to-head")
WIN, DRAW = 2, 1


@dataclass
class Match:
    round: int
    table: Optional[str]
    ns: str
    ew: Optional[str]                 # None: a bye
    score_ns: int = 0
    score_ew: int = 0
    final: bool = True                # false while the match is being played

    def points_for(self, team: str) -> tuple[int, int]:
        return (self.score_ns, self.score_ew) if team == self.ns else (self.score_ew, self.score_ns)

    def match_points(self, team: str) -> int:
        if self.ew is None:
            return WIN
        mine, theirs = self.points_for(team)
        return WIN if mine > theirs else DRAW if mine == theirs else 0


@dataclass
class Row:
    team: str
    played: int = 0
    match_points: int = 0
    points: int = 0
    against: int = 0
    opponents: list = field(default_factory=list)
    tiebreaks: dict = field(default_factory=dict)
    rank: int = 0

    @property
    def difference(self) -> int:
        return self.points - self.against


def standings(teams: list[str], matches: list[Match], method: str = "match-points",
              tiebreaks: tuple[str, ...] = ("opponents", "difference"), bye_points: int = 0,
              penalties: list[dict] = ()) -> list[Row]:
    """Every team's row, ranked (ties share a rank)."""
    if method not in METHODS:
        raise ValueError(f"ranking method {method!r}: use {' or '.join(METHODS)}")
    bad = [t for t in tiebreaks if t not in TIEBREAKS]
    if bad:
        raise ValueError(f"unknown tie-break {bad[0]!r}: use {', '.join(TIEBREAKS)}")
    rows = {t: Row(t) for t in teams}
    for m in matches:
        if not m.final:
            continue
        for team in (m.ns, m.ew):
            if team is None or team not in rows:
                continue
            row = rows[team]
            row.played += 1
            row.match_points += m.match_points(team)
            if m.ew is None:
                row.points += bye_points
            else:
                mine, theirs = m.points_for(team)
                row.points += mine
                row.against += theirs
                row.opponents.append(m.ew if team == m.ns else m.ns)
    for p in penalties:
        if p["team"] in rows:
            rows[p["team"]].points -= int(p.get("points") or 0)
            rows[p["team"]].match_points -= int(p.get("match_points") or 0)

    def primary(row: Row) -> int:
        return row.match_points if method == "match-points" else row.points

    for row in rows.values():
        row.tiebreaks["opponents"] = sum(primary(rows[o]) for o in row.opponents if o in rows)
        row.tiebreaks["difference"] = row.difference
    ordered = sorted(rows.values(), key=lambda r: (-primary(r), r.team))
    keys = {r.team: (primary(r),) for r in ordered}
    for name in tiebreaks:
        if name == "head-to-head":
            groups: dict[tuple, list[str]] = {}
            for r in ordered:
                groups.setdefault(keys[r.team], []).append(r.team)
            for group in groups.values():
                for team in group:
                    rows[team].tiebreaks["head-to-head"] = _head_to_head(team, set(group), matches)
        for r in ordered:
            keys[r.team] += (r.tiebreaks[name],)
    ordered.sort(key=lambda r: tuple(-k for k in keys[r.team]) + (r.team,))
    for i, r in enumerate(ordered):
        r.rank = ordered[i - 1].rank if i and keys[r.team] == keys[ordered[i - 1].team] else i + 1
    return ordered


def _head_to_head(team: str, group: set, matches: list[Match]) -> int:
    return sum(m.match_points(team) for m in matches
               if m.final and m.ew is not None and team in (m.ns, m.ew) and {m.ns, m.ew} <= group)
