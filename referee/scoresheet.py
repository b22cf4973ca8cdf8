"""The score sheet of a game, as a club keeps it: one line per hand, running totals.

Why a model of its own: the same sheet is printed (PDF, A4, like the paper
sheets clubs file away), exported for spreadsheets (CSV) and served to the
dashboard (JSON); all three are views of one :class:`Scoresheet`, built by
replaying the game record through the table referee, so the sheet always
agrees with ``referee check`` and with what the table showed, table
violations (misdeal, wrong pickup) included. The terminal's table
(:func:`scoresheet_text`, printed by ``referee check`` and the terminal demo)
is drawn straight from the rules engine's :class:`~referee.game.Game`, the
only thing those two have.

Per hand: number, dealer, contract (taker, call, counter), card points,
belote, declarations, result, points for each team, running totals, and the
violations with the trick, seat, card and rule. A violation that rests on a
play read once by one sensor and was never confirmed is not one: it is kept
apart (``to_confirm``), and the printed sheet notes it as such.

>>> from referee.scoresheet import Scoresheet
>>> sheet = Scoresheet.from_record([{"type": "game", "version": 1, "rules": "ffb-contree"},
...     {"type": "deal", "dealer": "N"}] + [{"type": "call", "seat": s, "call": "pass"} for s in "WSEN"])
>>> sheet.rows[0].result, sheet.totals
('all-pass', (0, 0))
>>> print(sheet.to_csv().splitlines()[1])
1,N,,,,0,0,0,0,0,0,all-pass,no,0,0,0,0,
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from typing import Any, Optional

from .seats import SEAT_NAMES, TEAM_NAMES

FORMATS = ("csv", "json", "pdf")
CSV_COLUMNS = ("hand", "dealer", "taker", "contract", "counter", "card_points_ns", "card_points_ew",
               "belote_ns", "belote_ew", "declarations_ns", "declarations_ew", "result", "capot",
               "points_ns", "points_ew", "total_ns", "total_ew", "violations")
_COUNTER_WORDS = {1: "", 2: "countered", 4: "re-countered"}


@dataclass
class SheetRow:
    """One hand of the sheet. Pairs are (NS, EW)."""

    number: int
    dealer: str
    taker: Optional[str]
    call: Optional[str]
    counter: int
    card_points: tuple[int, int]
    belote: tuple[int, int]
    declarations: tuple[int, int]
    result: str
    capot: bool
    points: tuple[int, int]
    totals: tuple[int, int]
    violations: list[dict[str, Any]] = field(default_factory=list)
    penalty: Optional[str] = None
    to_confirm: list[dict[str, Any]] = field(default_factory=list)   # not violations until confirmed

    @property
    def contract_text(self) -> str:
        if self.call is None:
            return "all pass"
        extra = {2: " x2", 4: " x4"}.get(self.counter, "")
        return f"{self.taker} {self.call}{extra}"

    def as_dict(self) -> dict[str, Any]:
        def teams(pair: tuple[int, int]) -> dict[str, int]:
            return {"NS": pair[0], "EW": pair[1]}
        return {"number": self.number, "dealer": self.dealer,
                "contract": None if self.call is None else {"taker": self.taker, "call": self.call,
                                                            "counter": self.counter},
                "card_points": teams(self.card_points), "belote": teams(self.belote),
                "declarations": teams(self.declarations), "result": self.result, "capot": self.capot,
                "points": teams(self.points), "totals": teams(self.totals), "violations": self.violations,
                "penalty": self.penalty, "to_confirm": self.to_confirm}


@dataclass
class Scoresheet:
    rules: str
    seats: dict[str, str]
    rows: list[SheetRow]
    totals: tuple[int, int]
    winner: Optional[str]
    target: int
    unfinished: bool = False                 # the last hand is still being played

    @classmethod
    def from_record(cls, lines: list[dict[str, Any]]) -> "Scoresheet":
        """The sheet of a game record (header line first), as the table referee replays it."""
        from .table_referee import TableReferee
        return cls.from_referee(TableReferee.from_record(lines))

    @classmethod
    def from_referee(cls, referee) -> "Scoresheet":
        game = referee.game
        table: dict[int, list] = {}
        for hand, v in referee.table_violations:
            if v.to_confirm:
                continue                          # listed with the others to confirm, below
            table.setdefault(hand, []).append(v.as_dict())
        pending: dict[int, list] = {}
        for hand, v in referee.to_confirm():
            pending.setdefault(hand, []).append(v.as_dict())
        rows, running = [], [0, 0]
        for r in game.results:
            running[0] += r.score[0]
            running[1] += r.score[1]
            c = r.contract
            rows.append(SheetRow(
                number=r.number, dealer=SEAT_NAMES[r.dealer], taker=SEAT_NAMES[c.taker] if c else None,
                call=c.call if c else None, counter=c.counter if c else 1, card_points=r.card_points,
                belote=r.belote, declarations=r.declarations, result=r.result, capot=r.capot, points=r.score,
                totals=(running[0], running[1]),
                violations=table.pop(r.number, []) + [v.as_dict() for v in r.confirmed],
                penalty=SEAT_NAMES[r.penalty] if r.penalty is not None else None,
                to_confirm=pending.pop(r.number, [])))
        for row in rows:                        # a misdeal before an all-pass keeps its hand number
            row.violations.sort(key=lambda v: v.get("trick") or 0)
        winner = TEAM_NAMES[game.winner] if game.winner is not None else None
        return cls(rules=game.rules, seats=dict(game.seats), rows=rows, totals=game.totals, winner=winner,
                   target=game.options.target, unfinished=game.phase in ("auction", "play"))

    # -- views ---------------------------------------------------------------------
    def as_dict(self) -> dict[str, Any]:
        return {"rules": self.rules, "seats": self.seats, "target": self.target,
                "hands": [r.as_dict() for r in self.rows],
                "totals": {"NS": self.totals[0], "EW": self.totals[1]}, "winner": self.winner,
                "unfinished": self.unfinished}

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), ensure_ascii=False, indent=1) + "\n"

    def to_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for r in self.rows:
            writer.writerow([r.number, r.dealer, r.taker or "", r.call or "", r.counter if r.call else "",
                             *r.card_points, *r.belote, *r.declarations, r.result, "yes" if r.capot else "no",
                             *r.points, *r.totals, "; ".join(_violation_text(v) for v in r.violations)])
        return out.getvalue()

    def to_pdf(self) -> bytes:
        """An A4 sheet in a club's layout: header, one line per hand, totals, notes, signatures."""
        from reportlab.lib import colors
        from reportlab.lib.pagesizes import A4
        from reportlab.lib.styles import getSampleStyleSheet
        from reportlab.lib.units import mm
        from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

        buffer = io.BytesIO()
        doc = SimpleDocTemplate(buffer, pagesize=A4, leftMargin=14 * mm, rightMargin=14 * mm,
                                topMargin=14 * mm, bottomMargin=14 * mm,
                                title="Belote score sheet", author="belote-table")
        styles = getSampleStyleSheet()
        small = styles["BodyText"].clone("small", fontSize=8, leading=10)
        story: list[Any] = [Paragraph("Feuille de marque — Belote score sheet", styles["Title"])]
        names = {s: self.seats.get(s, "") for s in SEAT_NAMES}
        header = [["Rules", self.rules, "Game to", str(self.target)],
                  ["NS", f"N {names['N']}  /  S {names['S']}", "EW", f"E {names['E']}  /  W {names['W']}"]]
        info = Table(header, colWidths=[18 * mm, 72 * mm, 18 * mm, 72 * mm])
        info.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), "Helvetica", 9),
                                  ("FONT", (0, 0), (0, -1), "Helvetica-Bold", 9),
                                  ("FONT", (2, 0), (2, -1), "Helvetica-Bold", 9),
                                  ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                                  ("INNERGRID", (0, 0), (-1, -1), 0.3, colors.grey)]))
        story += [info, Spacer(1, 5 * mm)]
        head = ["#", "Dealer", "Contract", "Cards\nNS", "Cards\nEW", "Belote", "Decl.", "Result",
                "Points\nNS", "Points\nEW", "Total\nNS", "Total\nEW"]
        body = [head]
        for r in self.rows:
            bel = _pair_text(r.belote)
            decl = _pair_text(r.declarations)
            result = r.result + (" capot" if r.capot else "") + (" !" if r.violations else "")
            body.append([r.number, r.dealer, r.contract_text, r.card_points[0], r.card_points[1], bel, decl,
                         result, r.points[0], r.points[1], r.totals[0], r.totals[1]])
        body.append(["", "", "Totals", "", "", "", "", "", "", "", self.totals[0], self.totals[1]])
        widths = [8, 12, 30, 13, 13, 18, 18, 24, 14, 14, 14, 14]
        sheet = Table(body, colWidths=[w * mm for w in widths], repeatRows=1)
        style = [("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8), ("FONT", (0, 1), (-1, -1), "Helvetica", 8.5),
                 ("FONT", (0, -1), (-1, -1), "Helvetica-Bold", 9),
                 ("ALIGN", (3, 1), (-1, -1), "RIGHT"), ("ALIGN", (0, 0), (-1, 0), "CENTER"),
                 ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                 ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#1f4e3d")),
                 ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
                 ("BACKGROUND", (10, 1), (11, -1), colors.HexColor("#eef3ee")),
                 ("BOX", (0, 0), (-1, -1), 1, colors.black), ("INNERGRID", (0, 0), (-1, -1), 0.25, colors.grey),
                 ("LINEABOVE", (0, -1), (-1, -1), 1, colors.black),
                 ("LINEBEFORE", (8, 0), (8, -1), 1, colors.black), ("LINEBEFORE", (10, 0), (10, -1), 1, colors.black)]
        for i, r in enumerate(self.rows, 1):
            if i % 2 == 0:
                style.append(("BACKGROUND", (0, i), (9, i), colors.HexColor("#f5f5f5")))
        sheet.setStyle(TableStyle(style))
        story.append(sheet)
        story.append(Spacer(1, 4 * mm))
        result = (f"Winner: {self.winner} ({self.totals[0]} to {self.totals[1]})" if self.winner
                  else "Game unfinished" if self.unfinished or max(self.totals) < self.target else "Drawn")
        story.append(Paragraph(f"<b>{result}</b>", styles["BodyText"]))
        notes = [f"Hand {r.number}: {_violation_text(v)}" for r in self.rows for v in r.violations]
        notes += [f"Hand {r.number}: penalty against {r.penalty}" for r in self.rows if r.penalty]
        notes += [f"Hand {r.number}, not confirmed (a play read once by one sensor), so no violation: "
                  f"{_violation_text(v)}" for r in self.rows for v in r.to_confirm]
        if notes:
            story.append(Spacer(1, 3 * mm))
            story.append(Paragraph("<b>Referee's notes</b>", styles["BodyText"]))
            story += [Paragraph(_escape(n), small) for n in notes]
        story.append(Spacer(1, 10 * mm))
        signatures = Table([["Referee", "Captain NS", "Captain EW"], ["", "", ""]],
                           colWidths=[60 * mm] * 3, rowHeights=[6 * mm, 16 * mm])
        signatures.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), "Helvetica", 8),
                                        ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                                        ("INNERGRID", (0, 0), (-1, -1), 0.3, colors.grey)]))
        story.append(signatures)
        doc.build(story)
        return buffer.getvalue()

    def render(self, fmt: str) -> bytes:
        if fmt == "csv":
            return self.to_csv().encode()
        if fmt == "json":
            return self.to_json().encode()
        if fmt == "pdf":
            return self.to_pdf()
        raise ValueError(f"format {fmt!r}: choose one of {', '.join(FORMATS)}")


def _pair_text(pair: tuple[int, int]) -> str:
    return "" if not any(pair) else f"{pair[0]} / {pair[1]}"


def _violation_text(v: dict[str, Any]) -> str:
    where = f"trick {v['trick']}, " if v.get("trick") else ""
    card = f" {v['card']}" if v.get("card") else ""
    return f"{where}{v['seat']}{card} [{v['rule']}] {v['message']}"


_PRETTY = re.compile("([♠♥♦♣])(10|[789JQKA])")


def _escape(text: str) -> str:
    """Text for the PDF's standard fonts, which have no suit symbols: ``♥10`` is written ``Th``."""
    text = _PRETTY.sub(lambda m: ("T" if m[2] == "10" else m[2]) + "shdc"["♠♥♦♣".index(m[1])], text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def scoresheet_text(game, title: str = "") -> str:
    """A per-hand table of a game (a :class:`referee.game.Game`), for terminals: what
    ``referee check`` and the terminal demo print."""
    seats = " ".join(f"{s} {game.seats[s]}" for s in SEAT_NAMES if s in game.seats)
    lines = [f"{title}{' — ' if title else ''}{game.rules}" + (f" ({seats})" if seats else "")]
    lines.append(f"{'#':>3}  {'dealer':6}  {'contract':14}  {'result':8}  {'card pts':>9}  {'score':>11}  "
                 f"{'total':>11}")
    ns = ew = 0
    for r in game.results:
        c = r.contract
        contract = "-" if c is None else (f"{SEAT_NAMES[c.taker]} {c.call}"
                                          + ({2: " x2", 4: " x4"}.get(c.counter, f" x{c.counter}")
                                             if c.counter > 1 else ""))
        result = r.result + (" capot" if r.capot else "")
        ns, ew = ns + r.score[0], ew + r.score[1]
        points = f"{r.card_points[0]}-{r.card_points[1]}" if c else ""
        lines.append(f"{r.number:>3}  {SEAT_NAMES[r.dealer]:6}  {contract:14}  {result:8}  {points:>9}  "
                     f"{r.score[0]:>5}-{r.score[1]:<5}  {ns:>5}-{ew:<5}")
        extras = []
        if any(r.belote):
            extras.append("belote " + " ".join(f"{t} {p}" for t, p in zip(("NS", "EW"), r.belote) if p))
        if any(r.declarations):
            extras.append("declarations " + " ".join(f"{t} {p}" for t, p in zip(("NS", "EW"), r.declarations) if p))
        if any(r.held):
            extras.append("litige held " + " ".join(f"{t} {p}" for t, p in zip(("NS", "EW"), r.held) if p))
        if r.penalty is not None:
            extras.append(f"penalty: {SEAT_NAMES[r.penalty]}'s side loses the hand")
        if extras:
            lines.append(f"{'':5}{'; '.join(extras)}")
        for v in r.violations:
            where = f"trick {v.trick}" if v.trick else "auction" if v.call else "deal"
            if v.to_confirm:
                events = ", ".join(f"#{n}" for n in v.to_confirm)
                lines.append(f"{'':5}? {where}: {v.rule}: {v.message} (to confirm: play {events} was read once "
                             f"by one sensor; not a violation until confirmed)")
            else:
                lines.append(f"{'':5}! {where}: {v.rule}: {v.message}")
    t = game.totals
    winner = "NS" if game.winner == 0 else "EW" if game.winner == 1 else ("drawn" if game.over else "none yet")
    lines.append(f"totals NS {t[0]}  EW {t[1]}  winner: {winner}")
    return "\n".join(lines)
