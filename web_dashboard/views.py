"""What each feed may show: the table's state cut down to a feed's view.

- ``referee``: everything, live (the console).
- ``venue``: live, never any hidden information (the room's screen, a public
  overlay). Built from a *whitelist*: a field the table referee adds later is
  not shown to the room until someone decides here that it is public.
- ``broadcast``: the venue view plus the players' hands, the par (worked out
  from the hands), and the violations' full explanations with their camera
  picture, sent ``delay`` seconds late (a stream's viewers must not be able to
  tell a player at the table what their opponents hold).

The win chance is public: it is computed from the record with every hand
taken out (:func:`web_dashboard.analyst.public_record`).

A violation's explanation can name a card still in a hand ("W held ♥7 but did
not trump"), so the venue only gets its rule, seat and the card played, and
the page words it from the rule.
"""

from __future__ import annotations

from typing import Any, Optional

FEEDS = ("referee", "broadcast", "venue")

#: Top-level fields any feed may show.
PUBLIC_FIELDS = ("table", "status", "hand", "trick", "last_trick", "tricks", "points", "score",
                 "history", "to_play", "hand_sizes", "sensors_ok", "game", "winner", "win_chance")
#: Top-level fields only the broadcast adds (they show or follow from the hidden hands).
BROADCAST_FIELDS = ("hands", "unseen", "par")
#: Inside ``hand``: what the room may see (the auction and contract are said aloud).
PUBLIC_HAND_FIELDS = ("number", "dealer", "turned", "contract", "trump", "auction", "declarations",
                      "belote", "result")
#: Inside a violation: what the room may see.
PUBLIC_VIOLATION_FIELDS = ("id", "rule", "seat", "card", "trick", "hand", "call", "status")


def _pick(obj: Optional[dict], fields: tuple[str, ...]) -> dict:
    return {k: obj[k] for k in fields if obj and k in obj}


def view_for(feed: str, state: Optional[dict], delay: float = 0.0) -> dict:
    """The view of ``state`` (a :func:`web_dashboard.state.dashboard_state`) for ``feed``."""
    if feed not in FEEDS:
        raise ValueError(f"unknown feed {feed!r}: use one of {', '.join(FEEDS)}")
    if feed == "referee":
        return dict(state or {})
    if state is None:
        view: dict[str, Any] = {"status": "waiting"}
    else:
        view = _pick(state, PUBLIC_FIELDS)
        if "hand" in view:
            view["hand"] = _pick(state["hand"], PUBLIC_HAND_FIELDS)
        violations = state.get("violations", [])
        if feed == "venue":
            if "declarations" in view.get("hand", {}):      # announced aloud, but the cards stay in the hand
                view["hand"]["declarations"] = [{k: d[k] for k in d if k != "cards"}
                                                for d in view["hand"]["declarations"]]
            view["violations"] = [_pick(v, PUBLIC_VIOLATION_FIELDS) for v in violations]
        else:
            view["violations"] = [_broadcast_violation(v) for v in violations]
            view.update(_pick(state, BROADCAST_FIELDS))
    view["feed"] = feed
    if feed == "broadcast":
        view["delay"] = delay
    return view


def _broadcast_violation(violation: dict) -> dict:
    """A violation with its explanation and, instead of the referee's thumbnail
    address, the picture's name under ``camera`` (the overlay fetches it with its
    broadcast token: ``/overlay/<table>/camera/<name>``)."""
    out = {k: v for k, v in violation.items() if k not in ("evidence", "thumbnail")}
    if violation.get("thumbnail"):
        out["camera"] = violation["thumbnail"].rsplit("/", 1)[-1]
    return out


def _team_name(seats: dict, team: str) -> str:
    names = [seats.get(team[0]), seats.get(team[1])]
    return " & ".join(n for n in names if n) or team


def club_summary(venue: dict) -> dict:
    """One table's line on the club page (from its venue view: nothing hidden)."""
    table = venue.get("table", {})
    seats = table.get("seats", {})
    return {"id": table.get("id"), "name": table.get("name"), "status": venue.get("status", "waiting"),
            "players": " · ".join(f"{s} {seats[s]}" for s in "NESW" if s in seats),
            "teams": {team: _team_name(seats, team) for team in ("NS", "EW")},
            "score": venue.get("score", {}), "contract": (venue.get("hand") or {}).get("contract"),
            "winner": venue.get("winner"), "violations": len(venue.get("violations", []))}


def club_view(summaries: list[dict], finished: list[dict]) -> dict:
    """Every table, and the standings of the pairs across finished and running
    games: games won, then points scored. A side whose players were never
    named is no pair of the club (its name is its seats, "NS"), so it has no
    row: every unnamed table's "NS" would otherwise add up into one phantom team."""
    standings: dict[str, dict] = {}
    for game in finished + summaries:
        for team in ("NS", "EW"):
            name = game.get("teams", {}).get(team)
            if not name or name == team:
                continue
            row = standings.setdefault(name, {"team": name, "wins": 0, "points": 0, "games": 0})
            row["points"] += int(game.get("score", {}).get(team) or 0)
            row["games"] += 1
            row["wins"] += game.get("winner") == team
    ranked = sorted(standings.values(), key=lambda r: (-r["wins"], -r["points"], r["team"]))
    return {"tables": summaries, "standings": ranked}
