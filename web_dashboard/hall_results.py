"""The hall's printable results: the standings and every round's matches, as
CSV (for the federation's spreadsheet) and as an A4 PDF (for the wall), from
the same rows the standings screen shows."""

from __future__ import annotations

import csv
import io
from typing import Any


def results_csv(standings: dict, rounds: list[dict]) -> str:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["rank", "team", "name", "played", "match_points", "points", "difference",
                *[f"tb_{t}" for t in standings.get("tiebreaks", [])]])
    for r in standings["rows"]:
        w.writerow([r["rank"], r["team"], r["name"], r["played"], r["match_points"], r["points"], r["difference"],
                    *[r["tiebreaks"].get(t, "") for t in standings.get("tiebreaks", [])]])
    w.writerow([])
    w.writerow(["round", "table", "ns", "ew", "score_ns", "score_ew", "final", "corrected"])
    for m in rounds:
        w.writerow([m["round"], m["table"] or "bye", m["NS"], m["EW"] or "", m["score_ns"], m["score_ew"],
                    "yes" if m["final"] else "no", m["corrected"] or ""])
    return out.getvalue()


def results_pdf(standings: dict, rounds: list[dict], title: str) -> bytes:
    """A4: the ranking, then the matches round by round, corrections marked with their reason."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, leftMargin=14 * mm, rightMargin=14 * mm, topMargin=14 * mm,
                            bottomMargin=14 * mm, title=f"Results — {title}", author="belote-table")
    styles = getSampleStyleSheet()
    grid = [("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 9), ("FONT", (0, 1), (-1, -1), "Helvetica", 9),
            ("INNERGRID", (0, 0), (-1, -1), 0.3, colors.grey), ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8"))]
    method = "match points" if standings.get("method") == "match-points" else "total points"
    story: list[Any] = [Paragraph(f"Results — {title}", styles["Title"]),
                        Paragraph(f"Ranked by {method}; tie-breaks: {', '.join(standings.get('tiebreaks', []))}.",
                                  styles["BodyText"]), Spacer(1, 4 * mm)]
    body = [["#", "Team", "Played", "MP", "Points", "Diff."]]
    body += [[r["rank"], r["name"], r["played"], r["match_points"], r["points"], r["difference"]]
             for r in standings["rows"]]
    table = Table(body, colWidths=[10 * mm, 80 * mm, 18 * mm, 16 * mm, 22 * mm, 18 * mm], repeatRows=1)
    table.setStyle(TableStyle(grid))
    story += [table, Spacer(1, 6 * mm), Paragraph("Matches", styles["Heading2"])]
    body = [["Round", "Table", "NS", "EW", "NS pts", "EW pts", "Note"]]
    body += [[m["round"], m["table"] or "bye", m["NS"], m["EW"] or "—", m["score_ns"], m["score_ew"],
              ("corrected: " + m["corrected"]) if m["corrected"] else ("" if m["final"] else "not final")]
             for m in rounds]
    table = Table(body, colWidths=[14 * mm, 16 * mm, 34 * mm, 34 * mm, 18 * mm, 18 * mm, 48 * mm], repeatRows=1)
    table.setStyle(TableStyle(grid))
    story.append(table)
    doc.build(story)
    return buffer.getvalue()
