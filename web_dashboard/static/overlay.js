// The OBS overlay: 1920x1080, transparent. A banner slides in for each new
// violation; the broadcast feed also shows the four hands, with its delay.
"use strict";

const stage = document.querySelector(".stage");
let seenViolations = null;

function banner(v) {
  const why = violationText(v);
  const node = el("div", { class: "banner", "data-rule": v.rule },
    el("b", {}, T("seat_" + v.seat)), " ", T("rule_" + v.rule), v.card ? [" ", cardNode(v.card, "small")] : "",
    why ? el("div", { class: "bmsg" }, why) : null);
  document.getElementById("banners").append(node);
  setTimeout(() => node.classList.add("gone"), 9000);
  setTimeout(() => node.remove(), 10000);
}

function renderOverlay(state) {
  const hand = state.hand || {};
  const seats = (state.table || {}).seats || {};
  for (const team of ["NS", "EW"]) {
    replaceChildren("total-" + team, (state.score || {})[team] ?? 0);
    replaceChildren("players-" + team, [seats[team[0]], seats[team[1]]].filter(Boolean).join(" · "));
  }
  replaceChildren("contract", hand.contract ? contractLabel(hand.contract, hand.turned) : T("status_" + (state.status || "waiting")));
  const points = state.points;
  replaceChildren("counter", state.tricks ? `${T("tricks")} ${state.tricks.NS ?? 0}–${state.tricks.EW ?? 0}` +
    (points ? ` · ${T("points")} ${points.NS}–${points.EW}` : "") : "");
  const badge = document.getElementById("delay-badge");
  if (badge) badge.textContent = T("delayed", { n: Math.round(state.delay || 0) });
  const onTable = cardsOnTable(state);
  document.getElementById("trick").classList.toggle("empty", !Object.keys(onTable).length);
  for (const seat of ["N", "E", "S", "W"]) {
    replaceChildren(document.querySelector(`#trick .slot-${seat}`), onTable[seat] ? cardNode(onTable[seat].card, "big " + onTable[seat].cls) : []);
    const box = document.getElementById("ohand-" + seat);
    box.querySelector(".name").textContent = seats[seat] || "";
    box.classList.toggle("to-play", state.to_play === seat);
    const cards = (state.hands || {})[seat];
    box.classList.toggle("hidden-hand", !cards);
    replaceChildren(box.querySelector(".cards"), cards ? cards.map((c) => cardNode(c)) : []);
  }
  const violations = state.violations || [];
  if (seenViolations !== null) for (const v of violations) if (!seenViolations.has(v.id)) banner(v);
  seenViolations = new Set(violations.map((v) => v.id));
}

openFeed(stage.dataset.stream, renderOverlay);
