// The hall's pages: every table at a glance, the standings, the featured
// table's scorebug (each from its one stream), and the organiser's desk.
"use strict";

const hallRoot = document.querySelector("[data-view]");

function renderHall(state) {
  const r = state.round;
  document.getElementById("round").textContent = r ? `${T("round")} ${r.number} · ${r.status}` : "";
  const tables = (state.order || []).map((id) => state["table:" + id]).filter(Boolean);
  replaceChildren("hall-tables", tables.map((tb) => {
    const seats = tb.seats || {};
    const lag = tb.lag || {};
    return el("div", { class: `club-table hall-table link-${tb.link}`, "data-table": tb.id },
      el("h2", {}, tb.id, tb.round ? ` · ${T("round")} ${tb.round}` : ""),
      el("p", { class: "players" }, `NS ${seats.N || ""} & ${seats.S || ""} · EW ${seats.E || ""} & ${seats.W || ""}`),
      el("p", { class: "club-score" }, el("span", {}, T("team_NS"), " ", el("b", { class: "score-NS" }, (tb.score || {}).NS ?? 0)), " ",
        el("span", {}, T("team_EW"), " ", el("b", { class: "score-EW" }, (tb.score || {}).EW ?? 0))),
      el("p", {}, `${T("hand")} ${tb.hand ?? "–"} · `, T("status_" + (tb.status || "waiting")), tb.contract ? " · " + contractLabel(tb.contract) : ""),
      el("p", { class: "health" }, Object.entries(tb.sensors || {}).map(([k, v]) => `${k} ${v}`).join(" · ") || "—"),
      el("p", { class: "lag" }, `${T("link_" + tb.link)} · ${T("lag")} ${lag.events ?? 0} / ${lag.seconds ?? 0} s`));
  }));
}

function renderStandings(state) {
  document.getElementById("rounds").textContent = `${T("rounds")}: ${state.rounds ?? 0}`;
  replaceChildren(document.querySelector("#standings tbody"), (state.rows || []).map((r) =>
    el("tr", {}, el("td", {}, r.rank), el("td", {}, el("a", { href: `/team/${hallRoot.dataset.event}/${r.team}` }, r.name)),
      el("td", {}, r.played), el("td", {}, r.match_points), el("td", {}, r.points), el("td", {}, r.difference),
      el("td", {}, (r.tiebreaks || {}).opponents ?? ""))));
}

function renderFeatured(state) {
  const seats = (state.table || {}).seats || {};
  document.getElementById("players-NS").textContent = `${seats.N || ""} & ${seats.S || ""}`;
  document.getElementById("players-EW").textContent = `${seats.E || ""} & ${seats.W || ""}`;
  document.getElementById("total-NS").textContent = (state.score || {}).NS ?? 0;
  document.getElementById("total-EW").textContent = (state.score || {}).EW ?? 0;
  const hand = state.hand || {};
  document.getElementById("contract").textContent = hand.contract ? contractLabel(hand.contract) : "";
  document.getElementById("counter").textContent = `${state.featured || ""} · ${T("hand")} ${hand.number ?? "–"}`;
}

function deskPost(action, args) {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  return fetch("/api/hall/desk", { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify({ action, args, reason: args.reason }) }).then((r) => r.json().then((body) => {
    document.getElementById("desk-message").textContent = r.ok ? `${action}: ok` : body.error;
    if (r.ok && action !== "feature") setTimeout(() => location.reload(), 300);
  }));
}

function startDesk() {
  for (const button of document.querySelectorAll("button[data-action]")) {
    button.addEventListener("click", () => deskPost(button.dataset.action, {}));
  }
  for (const form of document.querySelectorAll("form[data-action]")) {
    form.addEventListener("submit", (e) => { e.preventDefault(); deskPost(form.dataset.action, Object.fromEntries(new FormData(form))); });
  }
}

const view = hallRoot.dataset.view;
if (view === "desk") startDesk();
else openFeed(hallRoot.dataset.stream, { hall: renderHall, standings: renderStandings, featured: renderFeatured }[view]);
