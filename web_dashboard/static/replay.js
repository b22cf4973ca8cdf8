// A finished game, event by event: the slider (or the arrow keys) moves through it.
"use strict";

const replayBox = document.querySelector(".replay");
let replayStates = [];

function showStep(i) {
  const s = replayStates[i];
  if (!s) return;
  const e = s.event || {};
  replaceChildren("replay-event", `#${e.n} ${e.type || ""} ${seatLetter(e.seat)} ${e.card ? cardLabel(e.card) : ""} ${e.call ? callLabel(e.call) : ""}`);
  replaceChildren("replay-contract", contractLabel((s.hand || {}).contract, (s.hand || {}).turned));
  replaceChildren("replay-score", `${T("team_NS")} ${(s.score || {}).NS ?? 0} – ${(s.score || {}).EW ?? 0} ${T("team_EW")}`);
  const onTable = cardsOnTable(s);
  for (const seat of ["N", "E", "S", "W"]) {
    replaceChildren(document.querySelector(`#trick .slot-${seat}`), onTable[seat] ? cardNode(onTable[seat].card, onTable[seat].cls) : []);
    replaceChildren(document.querySelector(`#seat-${seat} .hand`), ((s.hands || {})[seat] || []).map((c) => cardNode(c, "small")));
  }
}

fetch(replayBox.dataset.src).then((r) => r.json()).then((data) => {
  replayStates = data.states;
  const slider = document.getElementById("replay-step");
  slider.max = Math.max(0, replayStates.length - 1);
  slider.addEventListener("input", () => showStep(+slider.value));
  showStep(0);
});
