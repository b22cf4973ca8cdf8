"""Scoresheets as files and the archive of games: what ``/scoresheet/...``
serves. A game is read from its SQLite event store and replayed by the rules
engine (``Game.from_events``), so the sheet, the CSV, the PDF and the replay
slider all come from the same record the referee wrote.
"""

from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path
from typing import Any, Optional

from referee.game import Game
from referee.record import RecordError
from referee.store import EventStore, StoreError

from .state import from_game

COLUMNS = ("hand", "dealer", "taker", "contract", "counter", "result", "capot", "card_points_NS",
           "card_points_EW", "belote_NS", "belote_EW", "declarations_NS", "declarations_EW",
           "score_NS", "score_EW", "total_NS", "total_EW", "penalty")


def load_game(path: Path) -> Game:
    """The game in an event store, replayed."""
    store = EventStore(path)
    try:
        return Game.from_events(store.export_record(), source=str(path))
    finally:
        store.close()


def rows(game: Game) -> list[dict[str, Any]]:
    """One row per finished hand, with running totals: the paper sheet."""
    out = []
    total = {"NS": 0, "EW": 0}
    for result in game.results:
        d = result.details()
        for team in total:
            total[team] += d["score"][team]
        contract = d["contract"] or {}
        out.append({"hand": d["number"], "dealer": d["dealer"], "taker": contract.get("taker", ""),
                    "contract": contract.get("call", ""), "counter": contract.get("counter", ""),
                    "result": d["result"], "capot": "yes" if d["capot"] else "",
                    "card_points_NS": d["card_points"]["NS"], "card_points_EW": d["card_points"]["EW"],
                    "belote_NS": d["belote"]["NS"], "belote_EW": d["belote"]["EW"],
                    "declarations_NS": d["declarations"]["NS"], "declarations_EW": d["declarations"]["EW"],
                    "score_NS": d["score"]["NS"], "score_EW": d["score"]["EW"],
                    "total_NS": total["NS"], "total_EW": total["EW"], "penalty": d["penalty"] or ""})
    return out


def to_csv(game: Game) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows(game))
    return buffer.getvalue()


def to_pdf(game: Game, title: str) -> bytes:
    """An A4 sheet to print or file: players, the hands, the totals, the winner."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=landscape(A4), title=title)
    styles = getSampleStyleSheet()
    seats = game.seats or {}
    teams = f"NS: {seats.get('N', 'N')} & {seats.get('S', 'S')}   ·   EW: {seats.get('E', 'E')} & {seats.get('W', 'W')}"
    head = ["Hand", "Dealer", "Contract", "Result", "Card pts NS", "Card pts EW", "Belote", "Score NS",
            "Score EW", "Total NS", "Total EW"]
    body = [[r["hand"], r["dealer"],
             f"{r['taker']} {r['contract']}{' x' + str(r['counter']) if r['counter'] not in ('', 1) else ''}".strip(),
             r["result"] + (" capot" if r["capot"] else ""), r["card_points_NS"], r["card_points_EW"],
             f"{r['belote_NS']}/{r['belote_EW']}", r["score_NS"], r["score_EW"], r["total_NS"], r["total_EW"]]
            for r in rows(game)]
    table = Table([head] + body, repeatRows=1)
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                               ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#dde6ee")),
                               ("ALIGN", (4, 1), (-1, -1), "RIGHT"),
                               ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold")]))
    totals = game.totals
    winner = {0: "NS", 1: "EW"}.get(game.winner, "none yet")
    story = [Paragraph(title, styles["Title"]), Paragraph(f"Rules: {game.rules} · {teams}", styles["Normal"]),
             Spacer(1, 12), table, Spacer(1, 12),
             Paragraph(f"Totals: NS {totals[0]} · EW {totals[1]} · winner: {winner}", styles["Heading2"])]
    doc.build(story)
    return buffer.getvalue()


def replay_states(game: Game) -> list[dict[str, Any]]:
    """The table after each event of a finished game, for the replay slider
    (every card may be shown: the game is over)."""
    replay = Game(game.events[0])
    clockwise = game.options.clockwise
    states = []
    for n, event in enumerate(game.events[1:], 2):
        replay.apply(event)
        snapshot = replay.to_json()
        state = from_game(snapshot, clockwise)
        held = (snapshot.get("private") or {}).get("hands")
        state["hands"] = held
        state["event"] = {"n": n, "type": event.get("type"), "seat": event.get("seat"),
                          "card": event.get("card"), "call": event.get("call")}
        states.append({k: state.get(k) for k in ("event", "status", "hand", "trick", "last_trick", "points",
                                                 "score", "hands", "to_play")})
    return states


def summary(game_id: str, game: Game) -> dict[str, Any]:
    """A finished game's line for the archive and the club's standings."""
    seats = game.seats or {}
    teams = {t: " & ".join(n for n in (seats.get(t[0]), seats.get(t[1])) if n) or t for t in ("NS", "EW")}
    return {"id": game_id, "teams": teams, "score": {"NS": game.totals[0], "EW": game.totals[1]},
            "winner": {0: "NS", 1: "EW"}.get(game.winner), "over": game.over, "hands": len(game.results)}


def archive(games: Path, live: set[str]) -> list[dict[str, Any]]:
    """Every game stored under ``games`` that no table is playing now, newest first."""
    found = []
    for path in sorted(games.glob("*.sqlite"), key=lambda p: p.stat().st_mtime, reverse=True):
        if path.stem in live:
            continue
        try:
            found.append(summary(path.stem, load_game(path)))
        except (StoreError, RecordError, sqlite3.Error) as exc:   # one damaged file must not hide the others
            found.append({"id": path.stem, "error": str(exc)})
    return found


def find_game(games: Path, game_id: str) -> Optional[Path]:
    path = games / f"{game_id}.sqlite"
    return path if path.parent == games and path.is_file() else None
