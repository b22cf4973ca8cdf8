"""Who plays: teams of two players (licence numbers optional) and the hall's tables.

Pure data with a JSON form (the tournament document the hall keeps in
PostgreSQL). A team that arrives late joins from a given round; a team that
withdraws stays in the standings with the rounds it played and is no longer
paired.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Optional


class RegistryError(ValueError):
    """A registration that cannot be made as asked; the message says why."""


@dataclass
class Player:
    name: str
    licence: Optional[str] = None      # the federation's licence number, where the players have one


@dataclass
class Team:
    id: str
    name: str
    players: list[Player]
    seed: Optional[int] = None         # the organiser's seeding (1 = strongest), for a seeded first round
    from_round: int = 1                # a late team is paired from this round on
    withdrawn_after: Optional[int] = None   # the last round it played, once withdrawn

    def active_in(self, round_number: int) -> bool:
        return self.from_round <= round_number and (self.withdrawn_after is None
                                                    or round_number <= self.withdrawn_after)


@dataclass
class Registry:
    teams: dict[str, Team] = field(default_factory=dict)
    tables: list[str] = field(default_factory=list)     # the hall's table ids, in the room's order

    def add_team(self, team_id: str, name: str, players: list[tuple[str, Optional[str]]],
                 seed: Optional[int] = None, from_round: int = 1) -> Team:
        if team_id in self.teams:
            raise RegistryError(f"team {team_id!r} is already registered")
        if len(players) != 2 or not all(p[0].strip() for p in players):
            raise RegistryError(f"team {team_id!r} needs two players, each with a name")
        team = Team(team_id, name or " & ".join(p[0] for p in players),
                    [Player(p[0].strip(), (p[1] or None)) for p in players], seed, from_round)
        self.teams[team_id] = team
        return team

    def add_table(self, table_id: str) -> None:
        if table_id not in self.tables:
            self.tables.append(table_id)

    def withdraw(self, team_id: str, after_round: int) -> None:
        self.team(team_id).withdrawn_after = after_round

    def team(self, team_id: str) -> Team:
        if team_id not in self.teams:
            raise RegistryError(f"no team {team_id!r}: the registered teams are {', '.join(self.teams) or 'none'}")
        return self.teams[team_id]

    def active(self, round_number: int) -> list[Team]:
        return [t for t in self.teams.values() if t.active_in(round_number)]

    def to_dict(self) -> dict:
        return {"teams": [asdict(t) for t in self.teams.values()], "tables": list(self.tables)}

    @classmethod
    def from_dict(cls, data: dict) -> "Registry":
        teams = {}
        for t in data.get("teams", []):
            teams[t["id"]] = Team(t["id"], t["name"], [Player(**p) for p in t["players"]], t.get("seed"),
                                  t.get("from_round", 1), t.get("withdrawn_after"))
        return cls(teams, list(data.get("tables", [])))
