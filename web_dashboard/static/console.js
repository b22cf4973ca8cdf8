// The referee's console: renders the referee feed and sends the referee's
// actions. Keyboard first: every action is a short command typed in one box
// (the pads below only fill and send the same commands, for a tablet).
"use strict";

const root = document.querySelector("main.console-grid");
const TABLE = root.dataset.table;
const CSRF = document.querySelector('meta[name="csrf-token"]').content;
const SEATS = ["N", "E", "S", "W"];
let selectedSeat = null;
let knownViolations = null;

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": CSRF },
    body: JSON.stringify(body || {}),
  });
  let data = {};
  try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

const consoleAction = (body) => post(`/api/tables/${TABLE}/console`, body);
const cardEntry = (body) => post(`/api/tables/${TABLE}/cards`, body);

// --- commands -------------------------------------------------------------
const CARD_RE = /^(10|[789tjqka])([shdc♠♥♦♣])$/i;
const CALL_RE = /^(pass|counter|recounter|take[shdc]?|capot(sa|ta|[shdc])?|\d{2,3}(sa|ta|[shdc]))$/i;

// Parse one command into [description, promise-making function]; throws with a hint.
function parseCommand(text) {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (!words.length) throw new Error("");
  const head = words[0].toLowerCase();
  if (head === "undo" || head === "u") return () => consoleAction({ action: "undo" });
  if (head === "redeal") return () => consoleAction({ action: "redeal" });
  if (head === "fix" || head === "replace") {
    if (words.length !== 3 || !/^\d+$/.test(words[1]) || !CARD_RE.test(words[2])) throw new Error("fix <event number> <card>, e.g. fix 17 Qh");
    return () => consoleAction({ action: "replace", ref: +words[1], cards: [words[2]] });
  }
  if (head === "ok" || head === "confirm" || head === "no" || head === "dismiss") {
    if (words.length !== 2 || !/^\d+$/.test(words[1])) throw new Error(head + " <conflict number>");
    return () => consoleAction({ action: head === "ok" || head === "confirm" ? "confirm" : "dismiss", ref: +words[1] });
  }
  if (head === "resolve") {
    if (words.length !== 3 || !CARD_RE.test(words[2])) throw new Error("resolve <conflict number> <card>");
    return () => consoleAction({ action: "resolve", ref: +words[1], cards: [words[2]] });
  }
  if (head === "penalty") {
    if (words.length < 3 || !SEATS.includes(words[1].toUpperCase())) throw new Error("penalty <seat> <rule>, e.g. penalty W must-trump");
    return () => consoleAction({ action: "penalty", seat: words[1].toUpperCase(), rule: words[2], reason: words.slice(3).join(" ") });
  }
  if (head === "start") {
    if (words.length !== 2 || !SEATS.includes(words[1].toUpperCase())) throw new Error("start <first dealer>, e.g. start N");
    return () => consoleAction({ action: "start", seat: words[1].toUpperCase() });
  }
  if (head === "turned") {
    if (words.length !== 2 || !CARD_RE.test(words[1])) throw new Error("turned <card>: classic belote's turned card, e.g. turned 9h");
    return () => consoleAction({ action: "turned", cards: [words[1]] });
  }
  if (head === "clear" || head === "pickup") return () => cardEntry({ pickup: true });
  if (head === "tally") return tallyCommand(words.slice(1));
  let seat = head.toUpperCase();
  let rest = words.slice(1);
  if (!SEATS.includes(seat)) {
    const turn = window.feedState().to_play;
    if (!turn) throw new Error("start with a seat: N, E, S or W (e.g. S 80h)");
    seat = turn;
    rest = words;
  }
  if (!rest.length) throw new Error("after the seat: a call (80h, pass, counter), a card (Jh), belote or declare");
  const what = rest[0].toLowerCase();
  if (what === "belote" || what === "rebelote") return () => consoleAction({ action: "belote", seat });
  if (what === "declare") {
    if (rest.length < 2 || !rest.slice(1).every((c) => CARD_RE.test(c))) throw new Error("declare <cards>, e.g. S declare Ah Kh Qh");
    return () => consoleAction({ action: "declare", seat, cards: rest.slice(1) });
  }
  if (rest.length === 1 && CARD_RE.test(rest[0])) return () => cardEntry({ seat, card: rest[0] });
  if (rest.length === 1 && CALL_RE.test(rest[0])) return () => consoleAction({ action: "call", seat, call: rest[0].toLowerCase() });
  throw new Error(`"${rest.join(" ")}" is not a call (80h, 90sa, pass, counter, capot), a card (Jh, 10h) or belote`);
}

// "tally NS 92 [belote NS] [belote EW]" or "tally capot EW [belote NS]": the hand's
// result counted at the table (no card entered); the other side's points are the rest.
const TEAMS = ["NS", "EW"];
function tallyCommand(words) {
  const usage = "tally <NS|EW> <card points> [belote NS|EW], or tally capot <NS|EW>, e.g. tally NS 92 belote NS";
  const total = window.feedState().tally_total;
  if (!total) throw new Error("tally: after the contract and before any card is entered");
  const up = words.map((w) => w.toUpperCase());
  const result = { belote: [], capot: null };
  let i = 0;
  if (up[0] === "CAPOT" && TEAMS.includes(up[1])) { result.capot = up[1]; i = 2; }
  else if (TEAMS.includes(up[0]) && /^\d+$/.test(up[1] || "")) {
    const mine = +up[1], other = TEAMS[1 - TEAMS.indexOf(up[0])];
    if (mine > total) throw new Error(`tally: at most ${total} card points in this hand`);
    result.card_points = { [up[0]]: mine, [other]: total - mine };
    i = 2;
  } else throw new Error(usage);
  for (; i < up.length; i += 2) {
    if (up[i] !== "BELOTE" || !TEAMS.includes(up[i + 1])) throw new Error(usage);
    result.belote.push(up[i + 1]);
  }
  return () => consoleAction({ action: "tally", result });
}

async function runCommand(text) {
  const error = document.getElementById("cmd-error");
  try {
    const send = parseCommand(text);
    error.textContent = "";
    await send();
    return true;
  } catch (e) {
    error.textContent = e.message;
    return false;
  }
}

document.getElementById("command-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = document.getElementById("cmd");
  if (await runCommand(input.value)) input.value = "";
  input.focus();
});

document.addEventListener("keydown", (event) => {
  const input = document.getElementById("cmd");
  if (event.target === input || event.target.tagName === "INPUT" || event.target.tagName === "SELECT") {
    if (event.key === "Escape") { input.value = ""; input.blur(); }
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "u") { event.preventDefault(); runCommand("undo"); }
  else if (event.key === "/" || event.key === "Enter") { event.preventDefault(); input.focus(); }
  else if (/^[nesw]$/i.test(event.key)) { event.preventDefault(); input.focus(); input.value = event.key.toUpperCase() + " "; }
});

// --- end of hand (a table without sensors) -----------------------------------------
// The form only writes the same "tally" command and runs it.
const tallyForm = document.getElementById("tally-form");
function tallyOther() {
  const total = window.feedState().tally_total || 0;
  const value = document.getElementById("tally-points").value;
  const capot = document.getElementById("tally-capot").value;
  document.getElementById("tally-points").disabled = !!capot;
  replaceChildren("tally-total", String(total));
  replaceChildren("tally-other", capot ? "–" : value === "" ? "–" : String(total - +value));
}
tallyForm.addEventListener("input", tallyOther);
tallyForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const capot = document.getElementById("tally-capot").value;
  const belote = document.getElementById("tally-belote").value;
  const text = "tally " + (capot ? `capot ${capot}` : `${document.getElementById("tally-team").value} ${document.getElementById("tally-points").value}`)
    + (belote ? ` belote ${belote}` : "");
  if (await runCommand(text)) { tallyForm.reset(); tallyOther(); }
});

// --- pads (touch) -----------------------------------------------------------
function padSeat() { return selectedSeat || (window.feedState().to_play) || "S"; }

document.getElementById("seat-pad").addEventListener("click", (event) => {
  const seat = event.target.dataset.seat;
  if (!seat) return;
  selectedSeat = selectedSeat === seat ? null : seat;
  for (const b of document.querySelectorAll("#seat-pad button")) b.classList.toggle("on", b.dataset.seat === selectedSeat);
});
document.getElementById("call-pad").addEventListener("click", (event) => {
  const b = event.target;
  if (b.dataset.call) runCommand(`${padSeat()} ${b.dataset.call}`);
  else if (b.dataset.say) runCommand(`${padSeat()} belote`);
  else if (b.dataset.undo) runCommand("undo");
});
function buildBidPad() {
  const pad = document.getElementById("bid-pad");
  const modes = ["s", "h", "d", "c"];
  for (let value = 80; value <= 160; value += 10) {
    const row = el("div", { class: "bidrow" }, el("span", { class: "v" }, value));
    for (const m of modes) row.append(el("button", { type: "button", "data-bid": value + m, class: m === "h" || m === "d" ? "red" : "" }, suitLabel(m)));
    pad.append(row);
  }
  pad.append(el("div", { class: "bidrow" }, el("button", { type: "button", "data-bid": "capot" }, T("capot"))));
  pad.addEventListener("click", (event) => {
    const bid = event.target.dataset.bid;
    if (!bid) return;
    const call = bid === "capot" ? "capot" + (window.feedState().hand?.contract?.call?.replace(/^\d+|capot/, "") || "h") : bid;
    runCommand(`${padSeat()} ${call}`);
  });
}
buildBidPad();

document.getElementById("next-game").addEventListener("click", () => post(`/api/tables/${TABLE}/next-game`));

// --- tokens -------------------------------------------------------------------
async function loadTokens() {
  const response = await fetch(`/api/tables/${TABLE}/tokens`, { credentials: "same-origin" });
  if (!response.ok) return;
  const { tokens } = await response.json();
  replaceChildren("tokens", tokens.map((tok) => el("li", { class: tok.revoked ? "revoked" : "" },
    `#${tok.id} ${tok.feed} ${tok.label || ""} `,
    tok.revoked ? "✕" : el("button", { type: "button", onclick: async () => { await post(`/api/tables/${TABLE}/tokens/${tok.id}/revoke`); loadTokens(); } }, T("revoke")))));
}
for (const feed of ["broadcast", "venue"]) {
  document.getElementById("new-" + feed).addEventListener("click", async () => {
    const data = await post(`/api/tables/${TABLE}/tokens`, { feed });
    replaceChildren("new-token-url", el("a", { href: data.overlay, target: "_blank" }, data.overlay));
    loadTokens();
  });
}
document.querySelector("details.tokens").addEventListener("toggle", loadTokens);

// --- rendering ------------------------------------------------------------------
function render(state) {
  const table = state.table || {};
  const hand = state.hand || {};
  const seats = table.seats || {};
  replaceChildren("status", T("status_" + (state.status || "waiting")));
  replaceChildren("hand-number", [hand.number ? `${T("hand")} ${hand.number}` : "", hand.dealer ? `${T("dealer")} ${T("seat_" + hand.dealer)}` : ""].filter(Boolean).join(" · "));
  replaceChildren("contract", contractLabel(hand.contract, hand.turned), hand.turned ? [" · ", T("turned"), " ", cardNode(hand.turned, "small")] : []);
  const points = state.points, tricks = state.tricks || {};
  replaceChildren("points", points ? `· ${T("card_points")} ${T("team_NS")} ${points.NS} · ${T("team_EW")} ${points.EW} (${T("tricks")} ${tricks.NS ?? 0}–${tricks.EW ?? 0})` : "");
  for (const seat of SEATS) {
    const box = document.getElementById("seat-" + seat);
    box.querySelector(".name").textContent = seats[seat] || "";
    box.querySelector(".turn").hidden = state.to_play !== seat;
    box.classList.toggle("to-play", state.to_play === seat);
    const cards = (state.hands || {})[seat];
    replaceChildren(box.querySelector(".hand"), cards ? cards.map((c) => cardNode(c, "small")) :
      Array.from({ length: (state.hand_sizes || {})[seat] || 0 }, () => cardNode(null, "small")));
  }
  const onTable = cardsOnTable(state);
  for (const seat of SEATS) {
    const p = onTable[seat];
    replaceChildren(document.querySelector(`#trick .slot-${seat}`), p ? cardNode(p.card, p.cls) : []);
  }
  replaceChildren("auction", (hand.auction || []).map((c) => el("li", {}, el("b", {}, c.seat), " ", callLabel(c.call))));
  const tbody = document.querySelector("#score tbody");
  replaceChildren(tbody, (state.history || []).map((h) => el("tr", { class: h.result || "" },
    el("td", {}, h.number), el("td", {}, h.contract ? contractLabel(h.contract) + " · " + T(h.result) : T(h.result || "all-pass")),
    el("td", {}, (h.score || {}).NS ?? ""), el("td", {}, (h.score || {}).EW ?? ""))));
  replaceChildren("total-NS", (state.score || {}).NS ?? 0);
  replaceChildren("total-EW", (state.score || {}).EW ?? 0);
  const violations = state.violations || [];
  const fresh = knownViolations === null ? new Set() : new Set(violations.map((v) => v.id).filter((id) => !knownViolations.has(id)));
  knownViolations = new Set(violations.map((v) => v.id));
  replaceChildren("violations", violations.length ? violations.slice().reverse().map((v) => el("li", { class: "violation" + (fresh.has(v.id) ? " fresh" : ""), "data-rule": v.rule },
    el("div", { class: "vhead" }, el("b", {}, T("seat_" + v.seat)), " · ", T("rule_" + v.rule), v.card ? [" · ", cardNode(v.card, "small")] : "", v.trick ? ` · ${T("trick")} ${v.trick}` : ""),
    el("div", { class: "vmsg" }, violationText(v)),
    v.thumbnail ? el("img", { class: "thumb", src: v.thumbnail, alt: "" }) : null,
    el("button", { type: "button", onclick: () => runCommand(`penalty ${v.seat} ${v.rule}`) }, T("penalty")))) : el("li", { class: "none" }, T("no_violations")));
  const doubts = state.to_confirm || [];
  replaceChildren("to-confirm", doubts.length ? doubts.map((c) => el("li", { class: "doubt" + (c.waiting ? " waiting" : ""), "data-id": c.id },
    el("div", { class: "vhead" }, el("b", {}, "#" + c.id), " ", T("seat_" + c.seat), c.proposal ? [" · ", cardNode(c.proposal, "small")] : "", c.trick ? ` · ${T("trick")} ${c.trick}` : "", c.waiting ? el("i", {}, " · " + T("waiting_for_sensor")) : ""),
    el("div", { class: "vmsg" }, c.message || ""),
    c.violations.map((v) => el("div", { class: "rests" }, violationText(v))),
    c.thumbnail ? el("img", { class: "thumb", src: c.thumbnail, alt: "" }) : null,
    el("button", { type: "button", class: "confirm", onclick: () => runCommand(`ok ${c.id}`) }, T("confirm") + (c.proposal ? " " + cardLabel(c.proposal) : "")),
    el("button", { type: "button", class: "dismiss", onclick: () => runCommand(`no ${c.id}`) }, T("dismiss")),
    el("button", { type: "button", class: "resolve", onclick: () => { const input = document.getElementById("cmd"); input.value = `resolve ${c.id} `; input.focus(); } }, T("right_card")))) :
    el("li", { class: "none" }, T("no_to_confirm")));
  const conflicts = (state.conflicts || []).filter((c) => c.kind !== "to-confirm");
  replaceChildren("conflicts", conflicts.length ? conflicts.map((c) => el("li", { class: "conflict" },
    el("div", {}, el("b", {}, "#" + c.id), " ", c.message || ""),
    c.thumbnail ? el("img", { class: "thumb", src: c.thumbnail, alt: "" }) : null,
    (c.choices || ["confirm", "dismiss"]).map((choice) => el("button", { type: "button", onclick: () => {
      if (choice !== "resolve") return runCommand(`${choice === "confirm" ? "ok" : "no"} ${c.id}`);
      const input = document.getElementById("cmd");
      input.value = `resolve ${c.id} `;
      input.focus();
    } }, T(choice) + (choice === "confirm" && c.proposal ? " " + cardLabel(c.proposal) : ""))))) :
    el("li", { class: "none" }, T("no_conflicts")));
  replaceChildren("sensors", Object.entries(state.sensors || {}).map(([name, s]) =>
    el("li", { class: "sensor " + (s.state || "") }, el("b", {}, name), " ", s.state || "", s.detail ? " · " + s.detail : "")));
  replaceChildren("log", (state.log || []).slice().reverse().map((e) => el("li", { value: e.ref },
    e.text || JSON.stringify(e),
    e.type === "play" ? el("button", { type: "button", class: "fix", onclick: () => { const i = document.getElementById("cmd"); i.value = `fix ${e.ref} `; i.focus(); } }, T("correct")) : null)));
  const tallyWas = tallyForm.hidden;
  tallyForm.hidden = !state.tally_total;
  if (tallyWas && !tallyForm.hidden) tallyOther();
  if (state.game) document.getElementById("scoresheet-link").href = `/scoresheet/${state.game}`;
  document.getElementById("game-over").hidden = !state.winner;
  replaceChildren("winner", state.winner ? `${T("game_over")} · ${T("winner")} : ${T("team_" + state.winner)}` : "");
}

openFeed(root.dataset.stream, render);
