// The overlay desk: the table's look (colours, logo, photos) and cues, each a
// console action (session + CSRF token); the overlays change at once.
"use strict";

const desk = document.querySelector(".desk-grid");
const base = `/api/tables/${encodeURIComponent(desk.dataset.table)}`;
const csrf = document.querySelector("meta[name=csrf-token]").content;

async function send(path, body, type) {
  const response = await fetch(base + path, { method: "POST", body, credentials: "same-origin",
    headers: { "X-CSRF-Token": csrf, "Content-Type": type || "application/json" } });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  document.getElementById("desk-error").textContent = response.ok ? "" : data.error || response.statusText;
  if (response.ok && data.look) showPictures(data.look);
  return response.ok;
}

function showPictures(look) {
  for (const box of document.querySelectorAll(".picture")) {
    const what = box.dataset.what;
    const src = what === "logo" ? look.logo : (look.photos || {})[what];
    const img = box.querySelector("img");
    img.hidden = !src;
    if (src) img.src = src;
  }
}

document.getElementById("colours").addEventListener("submit", (e) => {
  e.preventDefault();
  send("/look", JSON.stringify(Object.fromEntries(new FormData(e.target))));
});

for (const box of document.querySelectorAll(".picture")) {
  const input = box.querySelector("input[type=file]");
  input.addEventListener("change", () => {
    const file = input.files[0];
    if (file) send("/look/" + box.dataset.what, file, file.type || "application/octet-stream").then(() => { input.value = ""; });
  });
  box.querySelector(".remove").addEventListener("click", () => send("/look/" + box.dataset.what, "", "application/octet-stream"));
}

document.getElementById("cue-last-trick").addEventListener("click", () => send("/cue", JSON.stringify({ show: "last_trick" })));
