// One stream per page: a snapshot on connect, then top-level patches.
// EventSource resends Last-Event-ID on reconnect, so the server sends only
// what was missed (or a fresh snapshot when it cannot).
"use strict";

const I18N = window.I18N || {};
const LANG = window.LANG || "fr";

function T(key, values) {
  let text = I18N[key] || key;
  for (const [k, v] of Object.entries(values || {})) text = text.replace("{" + k + "}", v);
  return text;
}

const SUIT_SYMBOL = { s: "♠", h: "♥", d: "♦", c: "♣" };
const FRENCH_INDEX = { J: "V", Q: "D", K: "R" };

function cardLabel(card) {
  if (!card) return "?";
  let rank = card.slice(0, -1);
  const suit = card.slice(-1);
  rank = rank === "T" ? "10" : (LANG === "fr" ? (FRENCH_INDEX[rank] || rank) : rank);
  return rank + (SUIT_SYMBOL[suit] || suit);
}

// A seat's letter in the page's language (O for Ouest); the wire keeps N E S W.
function seatLetter(seat) {
  return seat ? T("seat_letter_" + seat).replace("seat_letter_", "") : "";
}

function suitLabel(mode) {
  return SUIT_SYMBOL[mode] || (mode === "sa" ? "SA" : mode === "ta" ? "TA" : mode || "");
}

// A call word (DESIGN): pass, 80h, 90sa, capoth, counter, recounter, take, takes...
function callLabel(call) {
  if (!call) return "";
  if (call === "pass") return T("pass");
  if (call === "counter") return T("counter");
  if (call === "recounter") return T("recounter");
  if (call === "take") return LANG === "fr" ? "Prend" : "Take";
  let m = /^take([shdc])$/.exec(call);
  if (m) return (LANG === "fr" ? "Prend " : "Take ") + SUIT_SYMBOL[m[1]];
  m = /^capot(.*)$/.exec(call);
  if (m) return T("capot") + " " + suitLabel(m[1]);
  m = /^(\d+)(sa|ta|[shdc])$/.exec(call);
  if (m) return m[1] + " " + suitLabel(m[2]);
  return call;
}

// A contract; ``turned`` (classic) names the trump of a plain "take".
function contractLabel(contract, turned) {
  if (!contract) return T("no_contract");
  const call = contract.call === "take" && turned ? "take" + turned.slice(-1) : contract.call;
  let text = T("seat_" + contract.taker) + " · " + callLabel(call);
  if (contract.counter === 2) text += " · " + T("counter");
  if (contract.counter === 4) text += " · " + T("recounter");
  return text;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function cardNode(card, extra) {
  if (!card) return el("span", { class: "card back " + (extra || "") }, "");
  const red = card.endsWith("h") || card.endsWith("d");
  return el("span", { class: "card " + (red ? "red " : "") + (extra || ""), "data-card": card }, cardLabel(card));
}

function replaceChildren(id, ...nodes) {
  const node = typeof id === "string" ? document.getElementById(id) : id;
  if (node) node.replaceChildren(...nodes.flat().filter((n) => n !== null && n !== undefined));
}

// A violation's sentence in the page's language: the first French template
// of its rule (i18n.py ``why_<rule>``, its ``_partner`` and ``_play``
// variants) whose words the seat, card and referee's params all give; else
// the referee's English ``message``; "" when neither (the venue feed gets no
// params nor message: ``held`` is a card still in a hand).
function violationText(v) {
  const p = v.params || {};
  const words = { ...p, seat: seatLetter(v.seat), trick: v.trick, card: v.card && cardLabel(v.card),
                  held: p.held && cardLabel(p.held), win: p.win && cardLabel(p.win), led: p.led && T("suit_" + p.led),
                  call: v.call && callLabel(v.call), last: p.last && callLabel(p.last),
                  pile: p.pile && T("team_" + p.pile), turned: p.turned && T("suit_" + p.turned),
                  turn: seatLetter(p.turn), winner: seatLetter(p.winner) };
  for (const key of [p.reason ? "_" + p.reason : null, p.partner ? "_partner" : null, "", "_play"]) {
    const template = key !== null && I18N["why_" + v.rule + key];
    if (!template) continue;
    const text = template.replace(/\{(\w+)\}/g, (all, name) => words[name] || all);
    if (!/\{\w+\}/.test(text)) return text;
  }
  return v.message || "";
}

// The cards lying in the play zones: the trick being played or, until its
// first card, the last trick (still on the table until it is picked up); the
// referee's feed also has cards seen but not yet decided ("pending").
function cardsOnTable(state) {
  const out = {};
  const trick = (state.trick || {}).cards || [];
  const shown = trick.length ? trick : ((state.last_trick || {}).cards || []);
  for (const p of shown) out[p.seat] = { card: p.card, ref: p.ref, cls: trick.length ? "" : "last" };
  for (const u of state.undecided || []) {
    const seat = (u.zone || "").split(":")[1];
    if (seat && (!out[seat] || out[seat].cls === "last")) out[seat] = { card: u.card, cls: "pending" };
  }
  return out;
}

// Open the page's stream; render(state, patch) runs after each snapshot or change.
function openFeed(url, render) {
  let state = {};
  const status = document.getElementById("link");
  const source = new EventSource(url);
  source.addEventListener("snapshot", (e) => { state = JSON.parse(e.data); render(state, null); });
  source.addEventListener("change", (e) => {
    const patch = JSON.parse(e.data);
    state = Object.assign({}, state, patch.set || {});
    for (const key of patch.del || []) delete state[key];
    render(state, patch);
  });
  source.onopen = () => { if (status) { status.textContent = ""; status.className = "link ok"; } };
  source.onerror = () => { if (status) { status.textContent = T("connection_lost"); status.className = "link lost"; } };
  window.feedState = () => state;
  return source;
}
