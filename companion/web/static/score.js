// The scorer's entry: each write is checked and journaled by the table, as from its screen.
"use strict";
const token = location.pathname.split("/")[2];
let page = null;
let mode = "points";  // a round's end: points, cards left or whole hands, as on the table's screen
let outName = null;
let rank = null, suit = null, drawer = null;  // a drawn card being entered, and for whom
const SUITS = [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]];

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
  // The form of the event the game's scorer enters (the table's ``scorer_events``), drawn by
  // the event's type: the page knows the table log's events, never a game.
  const entry = entryType();
  if (entry === "draw") {
    document.getElementById("title").textContent = page.title + " — " + tr("entry_draw");
    if (!drawCard(form)) return;
  } else if (entry === "round_end") {
    document.getElementById("title").textContent = page.title + " — " + tr("entry_round_end");
    const modes = document.createElement("select"); modes.id = "mode";
    for (const m of ["points", "left", "hands"]) {
      const o = document.createElement("option"); o.value = m;
      o.textContent = tr("mode" + m[0].toUpperCase() + m.slice(1)); modes.append(o);
    }
    modes.value = mode;
    modes.addEventListener("change", () => { mode = modes.value; draw(); });
    form.append(field(tr("mode"), modes));
    const out = select(page.players, "out"); out.value = outName || page.players[0];
    out.addEventListener("change", () => { outName = out.value; draw(); });
    form.append(field(tr("out"), out));
    page.players.forEach((p, i) => {
      // The one who went out scores nothing and keeps no card; a whole hand is shown by all.
      if (mode !== "hands" && p === out.value) return;
      const inp = document.createElement("input"); inp.id = "pts" + i; inp.autocomplete = "off";
      if (mode === "points") { inp.type = "number"; inp.value = "0"; inp.min = "0"; }
      form.append(field(mode === "points" ? tr("points", p) : tr("cardsOf", p), inp));
    });
  } else {
    document.getElementById("title").textContent = page.title;
    return;
  }
  const b = document.createElement("button"); b.type = "submit"; b.textContent = tr("send"); form.append(b);
}
// The first of the game's scorer events this page can enter, or null (the game has no scorer).
function entryType() {
  return (page.scorer_events || []).find((e) => e === "draw" || e === "round_end") || null;
}
function button(text, cls, onTap) {
  const b = document.createElement("button"); b.type = "button"; b.className = cls; b.textContent = text;
  b.addEventListener("click", onTap);
  return b;
}
function why(reason) {
  const out = document.getElementById("answer");
  out.textContent = reason[LANG === "fr" ? 0 : 1];
  delete out.dataset.ok;
}
// A drawn card (Kilo de merde's), entered as on the table's screen: the rank, then the suit or
// none ("any suit");
// what the pile can no longer hold is shown greyed, and a tap on it says why in the table's words.
function drawCard(form) {
  const d = page.draw;
  if (!d) {
    // Nothing to enter until a verdict owes a draw: said, and asked again in a while.
    const none = Object.assign(document.createElement("p"), { id: "nodraw", textContent: tr("noDraw") });
    form.append(none);
    clearTimeout(drawCard.later);
    drawCard.later = setTimeout(load, 2000);
    return false;
  }
  const player = select(page.players, "player");
  player.value = drawer && page.players.includes(drawer) ? drawer : (d.owed[0] || page.players[0]);
  player.addEventListener("change", () => { drawer = player.value; });
  form.append(field(tr("player"), player));
  const rankWhy = new Map(d.ranks);  // [rank, why] in the table's order, A to K
  if (rank !== null && (!rankWhy.has(rank) || rankWhy.get(rank))) { rank = null; suit = null; }
  if (rank !== null && suit !== null && d.cards[rank + suit]) suit = null;
  form.append(Object.assign(document.createElement("p"), { className: "pick", textContent: tr("pickRank") }));
  const ranks = document.createElement("div"); ranks.id = "ranks"; ranks.className = "cards";
  for (const [r, reason] of d.ranks) {
    const b = button(r, "rank" + (reason ? " no" : "") + (r === rank ? " on" : ""), () => {
      if (reason) { why(reason); return; }
      rank = r; draw();
    });
    b.dataset.rank = r;
    b.setAttribute("aria-pressed", String(r === rank));
    if (reason) b.setAttribute("aria-disabled", "true");
    ranks.append(b);
  }
  form.append(ranks);
  const suits = document.createElement("div"); suits.id = "suits"; suits.className = "cards";
  for (const [s, mark] of [[null, tr("anySuit")], ...SUITS]) {
    const reason = rank !== null && s !== null ? d.cards[rank + s] : null;
    // No red for hearts and diamonds: red is the table's "who draws", never a suit.
    const b = button(mark, "suit" + (reason ? " no" : "") + (s === suit ? " on" : ""), () => {
      if (reason) { why(reason); return; }
      suit = s; draw();
    });
    b.dataset.suit = s === null ? "" : s;
    b.setAttribute("aria-pressed", String(s === suit));
    if (reason || rank === null) b.setAttribute("aria-disabled", "true");
    if (rank === null) b.disabled = true;
    suits.append(b);
  }
  form.append(suits);
  const chosen = document.createElement("p"); chosen.id = "chosen";
  chosen.textContent = rank === null ? "" : tr("chosen", rank + (suit ? SUITS.find((x) => x[0] === suit)[1] : ""));
  form.append(chosen);
  return true;
}
function entry() {
  if (entryType() === "draw") {
    return { type: "draw", player: document.getElementById("player").value, card: (rank || "") + (suit || "") };
  }
  // Every player but the one who went out (who scores nothing this round); whole hands: all.
  const out = document.getElementById("out").value;
  const values = {};
  page.players.forEach((p, i) => {
    const inp = document.getElementById("pts" + i);
    if (!inp) return;
    values[p] = mode === "points" ? Number(inp.value || 0)
      : inp.value.trim().toUpperCase().split(/[\s,]+/).filter((c) => c);
  });
  const ev = { type: "round_end", out: out };
  ev[mode] = values;
  return ev;
}
// The table orders an entry against the players' presses by when it was sent, on its own clock:
// this page's clock (p) and, read as the table's answer to a clock question came back, sync.p;
// the table stamped that answer as it left and the entry as it arrived (scorer.stamp_of).
async function clockQuestion() {
  try {
    const c = await fetch("/score/" + token + "/clock", { method: "POST" });
    const read = performance.now();
    return c.ok ? { id: (await c.json()).id, p: read } : null;
  } catch (e) { return null; }  // the entry goes anyway, stamped when it arrives
}
document.getElementById("form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const p = ev.timeStamp;
  const body = { event: entry(), p: p };
  const sync = await clockQuestion();
  if (sync) body.sync = sync;
  const r = await fetch("/score/" + token + "/submit", { method: "POST",
    headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const a = await r.json();
  const out = document.getElementById("answer");
  out.textContent = a[LANG] || a.en;
  out.dataset.ok = a.ok ? "1" : "0";
  if (a.ok && entryType() === "draw") { rank = null; suit = null; drawer = null; load(); }  // the next draw
});
async function load() {
  const r = await fetch("/score/" + token + "/page");
  if (r.ok) page = await r.json();
  draw();
}
setupLang(draw);
load();
