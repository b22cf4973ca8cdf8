// Every table of the event at a glance, and the standings, from one stream.
"use strict";

const clubMain = document.querySelector("main[data-stream]");

function renderClub(state) {
  replaceChildren("club-tables", (state.tables || []).map((tb) => el("a", { class: "club-table", href: `/table/${tb.id}` },
    el("h2", {}, tb.name), el("p", { class: "players" }, tb.players || ""),
    el("p", { class: "club-score" }, el("span", {}, T("team_NS"), " ", el("b", {}, (tb.score || {}).NS ?? 0)), " ",
      el("span", {}, T("team_EW"), " ", el("b", {}, (tb.score || {}).EW ?? 0))),
    el("p", {}, T("status_" + (tb.status || "waiting")), tb.contract ? " · " + contractLabel(tb.contract) : ""),
    tb.violations ? el("p", { class: "vcount" }, `${T("violations")}: ${tb.violations}`) : null)));
  const rows = state.standings || [];
  replaceChildren(document.querySelector("#standings tbody"), rows.map((r, i) =>
    el("tr", {}, el("td", {}, i + 1), el("td", {}, r.team), el("td", {}, r.wins), el("td", {}, r.points))));
}

openFeed(clubMain.dataset.stream, renderClub);
