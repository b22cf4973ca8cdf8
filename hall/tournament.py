"""One tournament (an *event*): its registry, format, rounds, corrections and
penalties, as one document the desk changes and the hall keeps.

Every change is a method here (pure: no clock, no database; the caller
passes the time) and the desk saves the document with an audit line (who,
when, what, why) in the same transaction (``hall.db``).

A round: its pairings (table → NS team, EW team), a bye, its status
(``open`` while played, ``closed`` once the desk closes it), and per table the
``cutoff`` sequence when its time ran out. Each table's match score comes from
the game the table played for that round (``matches``), unless the desk
corrected it (a correction with its reason replaces the score, and both stay
on record).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from .matches import Format
from .pairings import Pairing, PairingError, assign_tables, first_round, swiss
from .ranking import Match, standings
from .registry import Registry, RegistryError


class DeskError(ValueError):
    """A desk action refused; the message says why and what to do."""


@dataclass
class Tournament:
    event: str
    name: str = ""
    rules: str = "ffb-contree"
    format: Format = field(default_factory=Format)
    method: str = "match-points"
    tiebreaks: tuple = ("opponents", "difference", "head-to-head")
    bye_points: int = 0
    first_round: str = "random"            # random | seeded
    registry: Registry = field(default_factory=Registry)
    rounds: list = field(default_factory=list)
    corrections: list = field(default_factory=list)
    penalties: list = field(default_factory=list)

    # --- the document -------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {"event": self.event, "name": self.name, "rules": self.rules, "format": self.format.to_dict(),
                "method": self.method, "tiebreaks": list(self.tiebreaks), "bye_points": self.bye_points,
                "first_round": self.first_round, "registry": self.registry.to_dict(), "rounds": self.rounds,
                "corrections": self.corrections, "penalties": self.penalties}

    @classmethod
    def from_dict(cls, d: dict) -> "Tournament":
        return cls(d["event"], d.get("name", ""), d.get("rules", "ffb-contree"), Format(**d.get("format", {})),
                   d.get("method", "match-points"), tuple(d.get("tiebreaks", ())), d.get("bye_points", 0),
                   d.get("first_round", "random"), Registry.from_dict(d.get("registry", {})),
                   d.get("rounds", []), d.get("corrections", []), d.get("penalties", []))

    def configure(self, args: dict[str, Any]) -> None:
        """The organiser's choices: format (kind, deals, minutes), ranking method, tie-breaks,
        first round, bye points, rules profile. Checked before anything changes."""
        from referee.rules import RulesError, profile
        from .ranking import METHODS, TIEBREAKS

        fmt = Format(args.get("kind", self.format.kind), int(args.get("deals") or self.format.deals),
                     float(args["minutes"]) if args.get("minutes") else self.format.minutes)
        method = args.get("method", self.method)
        tiebreaks = tuple(args["tiebreaks"].split(",")) if isinstance(args.get("tiebreaks"), str) \
            else tuple(args.get("tiebreaks", self.tiebreaks))
        tiebreaks = tuple(t.strip() for t in tiebreaks if t.strip())
        if method not in METHODS or any(t not in TIEBREAKS for t in tiebreaks):
            raise DeskError(f"ranking: method is {' or '.join(METHODS)}; tie-breaks among {', '.join(TIEBREAKS)}")
        first = args.get("first_round", self.first_round)
        if first not in ("random", "seeded"):
            raise DeskError("first round: random or seeded")
        rules = args.get("rules", self.rules)
        try:
            profile(rules)
        except RulesError as exc:
            raise DeskError(str(exc)) from None
        self.format, self.method, self.tiebreaks, self.first_round, self.rules = fmt, method, tiebreaks, first, rules
        self.bye_points = int(args.get("bye_points", self.bye_points))

    # --- rounds -------------------------------------------------------------------------------------
    @property
    def current(self) -> Optional[dict]:
        return self.rounds[-1] if self.rounds else None

    def start_round(self, now: float, scores: dict, shuffle_seed: Optional[int] = None) -> dict:
        """Pair the next round and open it. ``scores`` maps ``(round, table)`` to the
        :class:`~hall.matches.Score` of every match played so far."""
        if self.current and self.current["status"] == "open":
            raise DeskError(f"round {self.current['number']} is still open: close it first")
        number = len(self.rounds) + 1
        pairing = self._pair(number, scores, shuffle_seed)
        try:
            tables = assign_tables(pairing, self.registry.tables)
        except PairingError as exc:
            raise DeskError(str(exc)) from None
        deadline = now + self.format.minutes * 60 if self.format.minutes else None
        round_ = {"number": number, "status": "open", "started": now, "deadline": deadline,
                  "tables": tables, "bye": pairing.bye, "rematches": pairing.rematches, "cutoffs": {}}
        self.rounds.append(round_)
        return round_

    def _pair(self, number: int, scores: dict, shuffle_seed: Optional[int]) -> Pairing:
        teams = [t.id for t in self.registry.active(number)]
        if len(teams) < 2:
            raise DeskError(f"round {number} needs at least two active teams; {len(teams)} registered")
        if number == 1 or not any(r["status"] == "closed" for r in self.rounds):
            seeds = {t.id: t.seed for t in self.registry.active(number)} if self.first_round == "seeded" else None
            return first_round(teams, seeds, shuffle_seed)
        ranked = [row.team for row in self.standings(scores) if row.team in teams]
        met = {frozenset((t["NS"], t["EW"])) for r in self.rounds for t in r["tables"]}
        byes = [r["bye"] for r in self.rounds if r.get("bye")]
        return swiss(ranked, met, byes)

    def repair(self, scores: dict, shuffle_seed: Optional[int] = None) -> dict:
        """Pair the open round again (a late team arrived, a team withdrew before play)."""
        round_ = self._open_round()
        self.rounds.pop()
        try:
            return self.start_round(round_["started"], scores, shuffle_seed)
        except DeskError:
            self.rounds.append(round_)
            raise

    def move_team(self, team_id: str, table: str) -> dict:
        """Move a team's match of the open round to another table (a broken board)."""
        round_ = self._open_round()
        self.registry.team(team_id)
        if table not in self.registry.tables:
            raise DeskError(f"no table {table!r} in the hall")
        match = next((t for t in round_["tables"] if team_id in (t["NS"], t["EW"])), None)
        if match is None:
            raise DeskError(f"team {team_id!r} plays no match in round {round_['number']}")
        other = next((t for t in round_["tables"] if t["table"] == table), None)
        if other is not None:
            other["table"] = match["table"]            # the two matches swap tables
        match["table"] = table
        return round_

    def time_up(self, cutoffs: dict[str, int]) -> dict:
        """The round's time ran out: the hall's last sequence per table is each match's cutoff."""
        round_ = self._open_round()
        for table, seq in cutoffs.items():
            round_["cutoffs"].setdefault(table, seq)
        return round_

    def close_round(self, now: float) -> dict:
        round_ = self._open_round()
        round_["status"], round_["closed"] = "closed", now
        return round_

    def _open_round(self) -> dict:
        if not self.current or self.current["status"] != "open":
            raise DeskError("no round is open: start one first")
        return self.current

    def assignment(self, table: str) -> Optional[dict]:
        """What a table is told to play: the open round's match at that table."""
        round_ = self.current
        if not round_ or round_["status"] != "open":
            return None
        match = next((t for t in round_["tables"] if t["table"] == table), None)
        if match is None:
            return None
        teams = {side: self.registry.team(match[side]) for side in ("NS", "EW")}
        seats = {"N": teams["NS"].players[0].name, "S": teams["NS"].players[1].name,
                 "E": teams["EW"].players[0].name, "W": teams["EW"].players[1].name}
        return {"event": self.event, "round": round_["number"], "table": table, "rules": self.rules,
                "format": self.format.to_dict(), "seats": seats,
                "teams": {side: match[side] for side in ("NS", "EW")}}

    # --- results -------------------------------------------------------------------------------------
    def correct(self, round_number: int, table: str, ns: int, ew: int, reason: str, who: str, now: float) -> None:
        if not reason.strip():
            raise DeskError("a correction needs its reason")
        round_ = self._round(round_number)
        if not any(t["table"] == table for t in round_["tables"]):
            raise DeskError(f"no match at table {table!r} in round {round_number}")
        self.corrections.append({"round": round_number, "table": table, "NS": ns, "EW": ew,
                                 "reason": reason.strip(), "who": who, "at": now})

    def penalise(self, team_id: str, points: int, match_points: int, reason: str, who: str, now: float) -> None:
        if not reason.strip():
            raise DeskError("a penalty needs its reason")
        try:
            self.registry.team(team_id)
        except RegistryError as exc:
            raise DeskError(str(exc)) from None
        self.penalties.append({"team": team_id, "points": points, "match_points": match_points,
                               "reason": reason.strip(), "who": who, "at": now})

    def _round(self, number: int) -> dict:
        if not 1 <= number <= len(self.rounds):
            raise DeskError(f"no round {number}: {len(self.rounds)} played so far")
        return self.rounds[number - 1]

    def matches(self, scores: dict) -> list[Match]:
        """Every match of every round: the table's score, or the desk's correction of it."""
        out = []
        fixed = {(c["round"], c["table"]): c for c in self.corrections}     # the latest correction wins
        for round_ in self.rounds:
            for t in round_["tables"]:
                key = (round_["number"], t["table"])
                if key in fixed:
                    c = fixed[key]
                    out.append(Match(round_["number"], t["table"], t["NS"], t["EW"], c["NS"], c["EW"], True))
                    continue
                s = scores.get(key)
                final = bool(s and s.final) or (round_["status"] == "closed" and s is not None)
                out.append(Match(round_["number"], t["table"], t["NS"], t["EW"],
                                 s.ns if s else 0, s.ew if s else 0, final))
            if round_.get("bye"):
                out.append(Match(round_["number"], None, round_["bye"], None, final=True))
        return out

    def standings(self, scores: dict) -> list:
        return standings(list(self.registry.teams), self.matches(scores), self.method, tuple(self.tiebreaks),
                         self.bye_points, self.penalties)

    def history(self, team_id: str, scores: dict) -> list[dict]:
        """A team's rounds: table, side, opponent, score, result."""
        self.registry.team(team_id)
        out = []
        for m in self.matches(scores):
            if team_id not in (m.ns, m.ew):
                continue
            if m.ew is None:
                out.append({"round": m.round, "table": None, "side": None, "opponent": None, "for": self.bye_points,
                            "against": 0, "result": "bye", "final": True})
                continue
            mine, theirs = m.points_for(team_id)
            out.append({"round": m.round, "table": m.table, "side": "NS" if team_id == m.ns else "EW",
                        "opponent": m.ew if team_id == m.ns else m.ns, "for": mine, "against": theirs,
                        "result": {2: "won", 1: "drawn", 0: "lost"}[m.match_points(team_id)] if m.final else "playing",
                        "final": m.final})
        return out


def apply_action(t: Tournament, action: str, args: dict[str, Any], who: str, now: float, scores: dict) -> Any:
    """One desk action by name (what the desk's form posts), on ``t``."""
    try:
        if action == "add-team":
            players = [(args["player1"], args.get("licence1")), (args["player2"], args.get("licence2"))]
            return t.registry.add_team(args["team"], args.get("name", ""), players,
                                       int(args["seed"]) if args.get("seed") else None,
                                       int(args.get("from_round") or len(t.rounds) + 1))
        if action == "withdraw":
            return t.registry.withdraw(args["team"], int(args.get("after_round") or len(t.rounds)))
        if action == "start-round":
            return t.start_round(now, scores, args.get("shuffle_seed"))
        if action == "settings":
            return t.configure(args)
        if action == "time-up":
            return t.time_up({str(k): int(v) for k, v in args["cutoffs"].items()})
        if action == "close-round":
            return t.close_round(now)
        if action == "repair":
            return t.repair(scores, args.get("shuffle_seed"))
        if action == "move":
            return t.move_team(args["team"], args["table"])
        if action == "correct":
            return t.correct(int(args["round"]), args["table"], int(args["NS"]), int(args["EW"]),
                             args.get("reason", ""), who, now)
        if action == "penalty":
            return t.penalise(args["team"], int(args.get("points") or 0), int(args.get("match_points") or 0),
                              args.get("reason", ""), who, now)
    except DeskError:
        raise
    except (KeyError, TypeError) as exc:
        raise DeskError(f"{action}: missing or bad field {exc}") from None
    except (RegistryError, ValueError) as exc:
        raise DeskError(f"{action}: {exc}") from None
    raise DeskError(f"unknown desk action {action!r}")
