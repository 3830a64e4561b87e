// The scorer's entry: each write is checked and journaled by the table, as from its screen.
"use strict";
const token = location.pathname.split("/")[2];
let page = null;

function field(label, input) {
  const l = document.createElement("label"); l.textContent = label; l.append(input); return l;
}
function select(names, id) {
  const s = document.createElement("select"); s.id = id;
  for (const n of names) { const o = document.createElement("option"); o.value = n; o.textContent = n; s.append(o); }
  return s;
}
function draw() {
  const form = document.getElementById("form");
  form.replaceChildren();
  if (!page) { document.getElementById("title").textContent = tr("noGame"); return; }
  form.hidden = false;
  if (page.game === "kilo") {
    document.getElementById("title").textContent = page.title + " — " + tr("entryKilo");
    form.append(field(tr("player"), select(page.players, "player")));
    const card = document.createElement("input"); card.id = "card"; card.autocomplete = "off";
    form.append(field(tr("card"), card));
  } else if (page.game === "cinq-rois") {
    document.getElementById("title").textContent = page.title + " — " + tr("entryCinq");
    form.append(field(tr("out"), select(page.players, "out")));
    page.players.forEach((p, i) => {
      const inp = document.createElement("input"); inp.type = "number"; inp.id = "pts" + i; inp.value = "0";
      form.append(field(tr("points", p), inp));
    });
  } else {
    document.getElementById("title").textContent = page.title;
    return;
  }
  const b = document.createElement("button"); b.type = "submit"; b.textContent = tr("send"); form.append(b);
}
function entry() {
  if (page.game === "kilo") {
    return { type: "draw", player: document.getElementById("player").value,
             card: document.getElementById("card").value.trim().toUpperCase() };
  }
  // Every player but the one who went out (who scores nothing this round).
  const out = document.getElementById("out").value;
  const points = {};
  page.players.forEach((p, i) => {
    if (p !== out) points[p] = Number(document.getElementById("pts" + i).value || 0);
  });
  return { type: "round_end", out: out, points: points };
}
document.getElementById("form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const r = await fetch("/score/" + token + "/submit", { method: "POST",
    headers: { "content-type": "application/json" }, body: JSON.stringify({ event: entry() }) });
  const a = await r.json();
  const out = document.getElementById("answer");
  out.textContent = a[LANG] || a.en;
  out.dataset.ok = a.ok ? "1" : "0";
});
async function load() {
  const r = await fetch("/score/" + token + "/page");
  if (r.ok) page = await r.json();
  draw();
}
setupLang(draw);
load();
