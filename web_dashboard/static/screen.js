// The room's screen: the venue feed (live, never a hidden card).
"use strict";

const main = document.querySelector("main.screen-grid");

function renderScreen(state) {
  const hand = state.hand || {};
  const seats = (state.table || {}).seats || {};
  replaceChildren("contract", hand.contract ? contractLabel(hand.contract, hand.turned) : T(state.status === "auction" ? "status_auction" : "no_contract"));
  replaceChildren("auction", (hand.auction || []).map((c) => el("span", { class: "callchip" }, seatLetter(c.seat) + " " + callLabel(c.call))),
    hand.turned ? el("span", { class: "callchip" }, T("turned"), " ", cardNode(hand.turned, "small")) : null);
  const trick = state.trick || {};
  replaceChildren("trick-number", trick.number ? `${trick.number}/8` : "");
  const onTable = cardsOnTable(state);
  for (const seat of ["N", "E", "S", "W"]) {
    const slot = document.querySelector(`#trick .slot-${seat}`);
    slot.querySelector(".name").textContent = seats[seat] || "";
    slot.classList.toggle("to-play", state.to_play === seat);
    replaceChildren(slot.querySelector(".c"), onTable[seat] ? cardNode(onTable[seat].card, "big " + onTable[seat].cls) : []);
  }
  for (const team of ["NS", "EW"]) {
    replaceChildren("total-" + team, (state.score || {})[team] ?? 0);
    replaceChildren("tricks-" + team, state.tricks ? `${T("tricks")} ${(state.tricks || {})[team] ?? 0}` : "");
  }
  const violations = (state.violations || []).slice(-6).reverse();
  replaceChildren("violations", violations.length ? violations.map((v) => el("li", { class: "violation" },
    el("b", {}, T("seat_" + v.seat)), " ", T("rule_" + v.rule), v.card ? [" ", cardNode(v.card, "small")] : "",
    v.trick ? ` · ${T("trick")} ${v.trick}` : "")) : el("li", { class: "none" }, T("no_violations")));
}

openFeed(main.dataset.stream, renderScreen);
