// The OBS overlay (docs/dashboard.md): one feed (broadcast: late, with the hands
// and the par; venue: live, no hidden card), drawn on a 1920x1080 stage.
//
// Drawn in place, never rebuilt: a card already shown keeps its element, so a
// patch (a new card, a correction, the analysis arriving) moves nothing else and
// restarts no animation. Motion is CSS (overlay.css): a new card gets "enter",
// a completed trick "folding" towards its winner, a score a new --n to count to.
"use strict";

const stage = document.querySelector(".stage");
const FEED = stage.dataset.feed;
const TABLE = stage.dataset.table;
const TOKEN = stage.dataset.token;
const MOTION = !document.body.classList.contains("motion-off") && !matchMedia("(prefers-reduced-motion: reduce)").matches;
const SEATS = ["N", "E", "S", "W"];
const byId = (id) => document.getElementById(id);
let live = false;                 // false until the first state is drawn: nothing slides in on a snapshot
let lastCue = null;
let lastTrickTimer = null;
let seenViolations = null;

// --- cards --------------------------------------------------------------------------
const TRUMP_ORDER = "J9ATKQ87", PLAIN_ORDER = "ATKQJ987";

function faceNode(card, extra) {
  const suit = card.slice(-1), symbol = SUIT_SYMBOL[suit] || suit;
  const rank = cardLabel(card).slice(0, -1);
  return el("span", { class: `ocard${suit === "h" || suit === "d" ? " red" : ""} ${extra || ""}`.trim(), "data-card": card },
    el("i", { class: "r" }, rank), el("i", { class: "s" }, symbol), el("i", { class: "pip" }, symbol));
}

// Suits in hand order: the trump first, then the others alternating red and black.
function suitOrder(trump) {
  const black = ["s", "c"].filter((s) => s !== trump), red = ["h", "d"].filter((s) => s !== trump);
  if (trump === "h" || trump === "d") return [trump, black[0], red[0], black[1]];
  if (trump === "s" || trump === "c") return [trump, red[0], black[0], red[1]];
  return ["s", "h", "c", "d"];
}

function sortHand(cards, trump) {
  const suits = suitOrder(trump);
  const rank = (c) => (trump === "ta" || c.slice(-1) === trump ? TRUMP_ORDER : PLAIN_ORDER).indexOf(c[0]);
  return [...cards].sort((a, b) => suits.indexOf(a.slice(-1)) - suits.indexOf(b.slice(-1)) || rank(a) - rank(b));
}

// The children of ``box`` become one card element per card, keeping the ones already there.
function syncCards(box, cards, make) {
  const had = new Map([...box.children].filter((n) => n.dataset.card).map((n) => [n.dataset.card, n]));
  const nodes = cards.map((c) => had.get(c) || make(c));
  if (nodes.length !== box.children.length || nodes.some((n, i) => box.children[i] !== n)) box.replaceChildren(...nodes);
}

// A count that counts up to ``value`` (its text stays the value: what a test or a reader gets).
function setCount(node, value) {
  if (!node) return;
  const n = Math.round(Number(value) || 0);
  if (node.textContent !== String(n)) node.textContent = n;
  node.style.setProperty("--n", n);
}

function seatName(state, seat) {
  return ((state.table || {}).seats || {})[seat] || "";
}

function initials(name, seat) {
  const words = (name || "").trim().split(/\s+/).filter(Boolean);
  if (!words.length) return seatLetter(seat);
  return words.length > 1 ? (words[0][0] + words[1][0]).toUpperCase() : words[0].slice(0, 2);
}

// --- what belongs to this hand ------------------------------------------------------
function current(state, note) {
  const hand = (state.hand || {}).number;
  return note && note.game === state.game && note.hand === hand ? note : null;
}

function markOf(par, played) {
  const card = par && par.cards.find((c) => c.played === played);
  return card && card.cost > 0 ? card : null;
}

function markNode(mark) {
  return el("i", { class: "mark" + (mark.mark === "??" ? " m3" : mark.mark === "?" ? " m2" : ""), title: `-${mark.cost}` }, mark.mark);
}

function setMark(cardNode, mark) {
  const old = cardNode.querySelector(".mark");
  if ((old && old.textContent) === (mark && mark.mark)) return;
  if (old) old.remove();
  if (mark) cardNode.append(markNode(mark));
}

// --- the look -----------------------------------------------------------------------
function renderLook(look) {
  look = look || {};
  for (const key of ["accent", "panel", "text"]) {
    if (look[key]) stage.style.setProperty("--" + key, look[key]);
    else stage.style.removeProperty("--" + key);
  }
  for (const id of ["logo", "strip-logo"]) {
    const img = byId(id);
    if (look.logo && img.getAttribute("src") !== look.logo) img.src = look.logo;
    img.hidden = !look.logo;
  }
}

// --- the score bug and the strip ----------------------------------------------------
function contractText(hand) {
  if (!hand.contract) return "";
  return contractLabel({ ...hand.contract, counter: 1 }, hand.turned);
}

function counterText(contract) {
  if (!contract) return "";
  return contract.counter === 4 ? T("recounter") + " ×4" : contract.counter === 2 ? T("counter") + " ×2" : "";
}

function renderBug(state) {
  const hand = state.hand || {};
  const table = state.table || {};
  const seats = table.seats || {};
  for (const team of ["NS", "EW"]) {
    setCount(byId("total-" + team), (state.score || {})[team]);
    setCount(byId("strip-total-" + team), (state.score || {})[team]);
    replaceChildren("players-" + team, [seats[team[0]], seats[team[1]]].filter(Boolean).join(" · "));
  }
  replaceChildren("hand-number", hand.number ? `${T("hand")} ${hand.number}` : "");
  replaceChildren("dealer", hand.dealer ? T("dealer_is", { name: seats[hand.dealer] || T("seat_" + hand.dealer) }) : "");
  replaceChildren("target", table.target ? T("to_target", { n: table.target }) : "");
  const contract = hand.contract ? contractText(hand) : T("status_" + (state.status || "waiting"));
  replaceChildren("contract", contract);
  replaceChildren("counter-badge", counterText(hand.contract));
  replaceChildren("strip-contract", contract, hand.contract && hand.contract.counter > 1 ? " " + counterText(hand.contract) : "",
    el("small", {}, [hand.number ? `${T("hand")} ${hand.number}` : "", hand.dealer ? T("dealer_is", { name: seats[hand.dealer] || T("seat_" + hand.dealer) }) : ""].filter(Boolean).join(" · ")));
  const points = state.points;
  replaceChildren("counter", state.tricks && state.status === "play" ? `${T("tricks")} ${state.tricks.NS ?? 0}–${state.tricks.EW ?? 0}` +
    (points ? ` · ${T("points")} ${points.NS}–${points.EW}` : "") : "");
  const badge = byId("delay-badge");
  if (badge) badge.textContent = T("delayed", { n: Math.round(state.delay || 0) });
  renderProgress(state);
}

// The running score of each side, hand by hand, against the game's target.
function renderProgress(state) {
  const svg = byId("progress");
  const totals = { NS: [0], EW: [0] };
  for (const h of state.history || []) {
    for (const team of ["NS", "EW"]) totals[team].push(totals[team].at(-1) + ((h.score || {})[team] || 0));
  }
  for (const team of ["NS", "EW"]) totals[team][totals[team].length - 1] = (state.score || {})[team] ?? totals[team].at(-1);
  const target = (state.table || {}).target || 0;
  const top = Math.max(target, ...totals.NS, ...totals.EW, 1);
  const n = Math.max(totals.NS.length - 1, 1);
  const y = (v) => (62 - (v / top) * 58).toFixed(1);
  const line = (team) => totals[team].map((v, i) => `${((i / n) * 418 + 1).toFixed(1)},${y(v)}`).join(" ");
  const ns = "http://www.w3.org/2000/svg";
  const make = (tag, attrs) => { const node = document.createElementNS(ns, tag); for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v); return node; };
  const shapes = [make("line", { class: "goal", x1: 0, x2: 420, y1: y(target), y2: y(target) })];
  for (const team of ["NS", "EW"]) shapes.push(make("polyline", { class: "line " + team, points: line(team), "data-team": team }));
  const key = JSON.stringify([totals, target]);
  if (svg.dataset.key !== key) { svg.dataset.key = key; svg.replaceChildren(...shapes); }
}

// --- live analysis --------------------------------------------------------------------
function renderAnalysis(state) {
  const hand = state.hand || {};
  const chance = state.status === "play" ? current(state, state.win_chance) : null;
  const par = state.status === "play" ? current(state, state.par) : null;
  byId("analysis").hidden = !chance && !par;
  byId("chance").hidden = !chance;
  const call = hand.contract ? callLabel(hand.contract.call === "take" && hand.turned ? "take" + hand.turned.slice(-1) : hand.contract.call) : "";
  if (chance) {
    const pct = Math.round(chance.chance * 100);
    replaceChildren("chance-label", T("chance_label", { team: T("team_" + chance.takers), contract: call }));
    setCount(byId("chance-value"), pct);
    byId("chance-bar").style.width = pct + "%";
  }
  replaceChildren("strip-chance", chance ? [T("chance_label", { team: T("team_" + chance.takers), contract: call }), " ",
    el("b", {}, `${Math.round(chance.chance * 100)}%`)] : "",
    par && par.par ? el("div", {}, `${T("par")} ${T("team_NS")} ${par.par.NS} · ${T("team_EW")} ${par.par.EW}`) : "");
  const parBox = byId("par");
  if (!parBox) return;
  parBox.hidden = !par;
  if (!par || !par.par) return;
  replaceChildren("par-value", `${T("team_NS")} ${par.par.NS} · ${T("team_EW")} ${par.par.EW}` + (par.par.capot ? ` · capot ${T("team_" + par.par.capot)}` : ""));
  const costly = [...par.cards].reverse().find((c) => c.cost > 0);
  replaceChildren("par-last", costly ? [T("costly", { seat: T("seat_" + costly.seat) }), faceNode(costly.card, "mini"),
    el("b", {}, costly.mark), ` −${costly.cost}`] : T("no_loss"));
}

// --- the seats and their hands ----------------------------------------------------------
function renderSeats(state) {
  const hand = state.hand || {};
  const look = (state.overlay || {}).look || {};
  const inHand = state.status === "auction" || state.status === "play";
  for (const seat of SEATS) {
    const box = byId("player-" + seat);
    const name = seatName(state, seat);
    box.querySelector(".name").textContent = name;
    box.classList.toggle("to-play", state.to_play === seat);
    box.querySelector(".dealer-chip").hidden = hand.dealer !== seat;
    const photo = (look.photos || {})[seat];
    const img = box.querySelector(".avatar img");
    if (photo && img.getAttribute("src") !== photo) img.src = photo;
    img.hidden = !photo;
    box.querySelector(".initials").textContent = photo ? "" : initials(name, seat);
    if (FEED !== "broadcast") continue;                  // the venue never shows a hand
    const cards = (state.hands || {})[seat];
    const handBox = box.querySelector(".hand");
    const unread = ((state.unseen || {})[seat]) || 0;     // cards the antennas missed: the hand shown is partial
    if (cards && unread) replaceChildren(handBox, sortHand(cards, hand.trump).map((c) => faceNode(c)),
      el("span", { class: "unknown unread" }, T("not_read", { n: unread })));
    else if (cards) syncCards(handBox, sortHand(cards, hand.trump), (c) => faceNode(c));
    else if (inHand) replaceChildren(handBox, el("span", { class: "unknown" }, T("hand_not_read")));
    else replaceChildren(handBox);
  }
}

// --- the trick in the middle ------------------------------------------------------------
function shownTrick(state) {
  const trick = state.trick || {}, last = state.last_trick;
  if ((trick.cards || []).length) return { number: trick.number, cards: trick.cards, winning: trick.winning, done: false };
  if (last && (last.cards || []).length && state.status === "play") {
    return { number: last.number, cards: last.cards, winning: last.winner, done: true };
  }
  return { number: 0, cards: [], winning: null, done: false };
}

function renderTrick(state) {
  const area = byId("trick");
  const shown = shownTrick(state);
  const hand = (state.hand || {}).number;
  const key = `${state.game}/${hand}/${shown.number}`;
  if (area.dataset.key !== key) {                       // another trick: its slots start empty
    for (const box of area.querySelectorAll(".tcard")) box.replaceChildren();
    area.classList.remove("folding", "won-N", "won-E", "won-S", "won-W");
    area.dataset.key = key;
    area.dataset.watched = "";
  }
  if (!shown.done && shown.cards.length) area.dataset.watched = "1";    // seen while it was played
  const par = FEED === "broadcast" ? current(state, state.par) : null;
  const bySeat = Object.fromEntries(shown.cards.map((p, i) => [p.seat, { card: p.card, played: (shown.number - 1) * 4 + i }]));
  for (const seat of SEATS) {
    const slot = area.querySelector(".tslot-" + seat), box = slot.querySelector(".tcard");
    const want = bySeat[seat], have = box.firstElementChild;
    if (!want) { if (have) box.replaceChildren(); }
    else if (!have) box.append(faceNode(want.card, live && MOTION ? "enter" : ""));
    else if (have.dataset.card !== want.card) box.replaceChildren(faceNode(want.card, live && MOTION ? "fixed" : ""));   // a correction
    if (want) setMark(box.firstElementChild, markOf(par, want.played));
    slot.classList.toggle("winning", !!want && shown.winning === seat);
    const name = seatName(state, seat);
    slot.querySelector(".tlabel").textContent = name ? `${seatLetter(seat)} · ${name}` : T("seat_" + seat);
  }
  area.classList.toggle("done", shown.done);
  if (shown.done && MOTION && area.dataset.watched && shown.winning) area.classList.add("folding", "won-" + shown.winning);
  replaceChildren("trick-number", shown.number && state.status === "play" ? `${T("trick")} ${shown.number}/8` : "");
  renderStripTrick(shown, state);
}

function playedNode(p, winner, size) {
  return el("div", { class: "played" + (p.seat === winner ? " winner" : "") }, faceNode(p.card, size), el("span", {}, T("seat_" + p.seat)));
}

function renderStripTrick(shown, state) {
  const box = byId("strip-trick");
  const key = JSON.stringify(shown);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...shown.cards.map((p) => playedNode(p, shown.winning, "mini")));
}

// --- the last trick, on demand ----------------------------------------------------------
function renderLastTrick(state) {
  const cue = ((state.overlay || {}).cue || {}).last_trick ?? null;
  if (live && cue !== lastCue && cue !== null) showLastTrick();
  lastCue = cue;
  const last = state.last_trick;
  replaceChildren("last-trick-number", last ? `${last.number}/8` : "");
  const box = byId("last-trick-cards");
  const key = JSON.stringify(last);
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.replaceChildren(...(last ? last.cards.map((p) => playedNode(p, last.winner, "mini")) : [el("span", {}, T("no_trick_yet"))]));
  }
}

function showLastTrick() {
  byId("last-trick").hidden = false;
  clearTimeout(lastTrickTimer);
  lastTrickTimer = setTimeout(() => { byId("last-trick").hidden = true; }, 8000);
}

document.addEventListener("keydown", (e) => { if (e.key === "l" || e.key === "L") showLastTrick(); });

// --- violations: a lower third ------------------------------------------------------------
function banner(v, state) {
  const name = seatName(state, v.seat);
  const why = FEED === "broadcast" ? violationText(v) : "";
  const camera = v.camera ? `/overlay/${encodeURIComponent(TABLE)}/camera/${encodeURIComponent(v.camera)}` + (TOKEN ? `?token=${encodeURIComponent(TOKEN)}` : "") : null;
  const node = el("div", { class: "banner", "data-rule": v.rule, "data-id": v.id },
    el("div", { class: "head" }, el("b", {}, T("seat_" + v.seat) + (name ? " · " + name : "")),
      el("span", { class: "rule" }, T("rule_" + v.rule)), v.card ? faceNode(v.card, "mini") : null),
    why ? el("div", { class: "bmsg" }, why) : null,
    camera ? el("img", { class: "camera", src: camera, alt: "" }) : null);
  byId("banners").append(node);
  setTimeout(() => node.classList.add("gone"), 9000);
  setTimeout(() => node.remove(), 10000);
}

function renderViolations(state) {
  const violations = state.violations || [];
  const ids = new Set(violations.map((v) => String(v.id)));
  for (const node of byId("banners").children) if (!ids.has(node.dataset.id)) node.remove();   // corrected away
  if (seenViolations !== null) for (const v of violations) if (!seenViolations.has(String(v.id))) banner(v, state);
  seenViolations = ids;
}

function renderOverlay(state) {
  renderLook((state.overlay || {}).look);
  renderBug(state);
  renderAnalysis(state);
  renderSeats(state);
  renderTrick(state);
  renderLastTrick(state);
  renderViolations(state);
  live = true;
}

openFeed(stage.dataset.stream, renderOverlay);
