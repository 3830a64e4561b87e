// One table's standings, redrawn at each state the table journals (server-sent events).
"use strict";
let page = null;
const code = location.pathname.split("/")[2];

function draw() {
  const state = document.getElementById("state");
  if (!page) { state.textContent = tr("waiting"); return; }
  document.getElementById("title").textContent = page.title + (page.finished ? " — " + tr("finished") : "");
  // The game's own view follows: of the summary, only its first line (the game and round).
  const summary = page.summary[LANG] || "";
  const viewed = page.tiles || page.sheet || page.turns;
  let sub = viewed ? summary.split("\n")[0] : summary;
  // The summary opens with the game's name, already the title: said once.
  if (sub.startsWith(page.title)) sub = sub.slice(page.title.length).replace(/^\s*[—:-]\s*/, "");
  document.getElementById("summary").textContent = sub;
  // The tiles and the table of turns name every player with their score: no list as well.
  document.getElementById("standings").hidden = Boolean(page.tiles || page.turns);
  const body = document.querySelector("#standings tbody");
  body.replaceChildren();
  for (const row of page.standings) {
    const tr_ = document.createElement("tr");
    tr_.dataset.seat = row.seat;
    const place = document.createElement("td"); place.className = "place"; place.textContent = row.place;
    const name = document.createElement("td");
    const dot = document.createElement("span"); dot.className = "dot"; dot.style.background = row.color;
    name.append(dot, document.createTextNode(row.name));
    const score = document.createElement("td"); score.className = "score"; score.textContent = row.score;
    tr_.append(place, name, score);
    body.append(tr_);
  }
  drawSlap(page);
  drawTiles(page);
  drawSheet(page);
  drawTurns(page);
  state.textContent = tr("live") + " · " + page.seq;
  document.body.dataset.seq = page.seq;
  document.body.dataset.drawn = String(Date.now());  // when (bench/web.py: event to page)
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}
// A player's name in their seat's colour: the same colour as on the table's screen.
function who(name, seat) {
  const e = el("span", "who", name);
  if (page.colors && page.colors[seat]) e.style.color = page.colors[seat];
  return e;
}
function section(id, title) {
  const box = document.getElementById(id);
  box.replaceChildren(el("h2", null, title));
  box.hidden = false;
  return box;
}
function drawSlap(page) {
  const s = page.last_slap;
  if (!(s && s.presses && s.presses.length)) { document.getElementById("slap").hidden = true; return; }
  const box = section("slap", tr("slap"));
  const ol = el("ol");
  let prev = null;
  for (const p of s.presses) {
    const li = el("li");
    li.append(who(p.name, p.seat));
    // The gap to the press before: the last one is the margin the verdict rests on.
    if (prev !== null) li.append(el("span", "gap", " " + tr("gap", duration(p.offset_us - prev))));
    if ((s.losers || []).includes(p.name)) li.className = "loser";
    prev = p.offset_us;
    ol.append(li);
  }
  box.append(ol);
  if (s.losers && s.losers.length) box.append(el("p", null, tr("losers", s.losers.join(", "))));
  if (s.tied) box.append(el("p", null, tr("tie", duration(s.margin_res_us))));
}
function drawTiles(page) {
  if (!page.tiles) { document.getElementById("tiles").hidden = true; return; }
  const box = section("tiles", tr("tiles"));
  const grid = el("div", "tiles");
  for (const t of page.tiles) {
    const tile = el("div", "tile" + (t.owes ? " owes" : ""));
    tile.dataset.seat = t.seat;
    tile.style.borderColor = page.colors[t.seat];
    tile.append(who(t.name, t.seat), el("div", "kilos", fill(page.tile_score[LANG], t.kilos)));
    if (t.cards.length) tile.append(el("div", "cards", tr("drawn", t.cards.join(" "))));
    if (t.owes) tile.append(el("div", "owes", tr("owes")));
    grid.append(tile);
  }
  box.append(grid);
}
function drawSheet(page) {
  const sh = page.sheet;
  if (!sh) { document.getElementById("sheet").hidden = true; return; }
  const box = section("sheet", tr("sheet"));
  if (sh.cards) box.append(el("p", "sub", tr("cardsDealt", sh.cards, sh.bonus)));
  const wrap = el("div", "scroll");
  const table = el("table", "sheet");
  const head = el("tr");
  head.append(el("th", null, tr("roundCol")));
  page.players.forEach((p, i) => { const th = el("th"); th.append(who(p, i)); head.append(th); });
  table.append(head);
  for (const r of sh.rows) {
    const row = el("tr");
    row.append(el("td", "place", r.round));
    r.scores.forEach((v, i) => row.append(el("td", page.players[i] === r.out ? "score out" : "score", v)));
    table.append(row);
  }
  const foot = el("tr", "totals");
  foot.append(el("td", null, tr("total")));
  sh.totals.forEach((v) => foot.append(el("td", "score", v)));
  table.append(foot);
  wrap.append(table);
  box.append(wrap);
}
// A game played in turns (13 feuilles): whose turn, what is on the table, each seat's hand and
// the race to the target.
function drawTurns(page) {
  const t = page.turns;
  if (!t) { document.getElementById("turns").hidden = true; return; }
  const box = section("turns", tr("table"));
  box.append(el("p", "sub", tr("gameN", t.game_number, t.trick)));
  if (t.turn) {
    const p = el("p", "turn");
    const seat = page.players.indexOf(t.turn);
    p.append(who(tr("toPlay", t.turn), seat));
    box.append(p);
  }
  if (t.stacks.length) {
    box.append(el("p", null, tr("stacks", t.stacks.map(([v, n]) => n + "×" + v).join("  "))));
  }
  const ul = el("ul", "seats");
  for (const s of t.seats) {
    const li = el("li", s.turn ? "turn" : s.passed ? "passed" : null);
    li.dataset.seat = s.seat;
    li.append(who(s.name, s.seat));
    if (s.count !== null) li.append(el("span", "count", " · " + tr("inHand", s.count)));
    if (s.passed) li.append(el("span", "count", " · " + tr("passed")));
    ul.append(li);
  }
  box.append(ul);
  if (t.variant !== "advanced") return;
  // The race: each player's total towards the target; the first to reach it loses the match.
  box.append(el("h2", null, tr("race", t.target)));
  for (const s of t.seats) {
    const row = el("div", "race");
    row.dataset.seat = s.seat;
    const bar = el("div", "bar");
    const filled = el("div", "fill");
    filled.style.width = Math.min(100, (100 * s.total) / t.target) + "%";
    filled.style.background = page.colors[s.seat];
    bar.append(filled);
    row.append(who(s.name, s.seat), bar, el("span", "score", s.total));
    box.append(row);
  }
}

function listen() {
  const es = new EventSource("/t/" + code + "/events");
  es.onmessage = (ev) => { delete document.body.dataset.closed; page = JSON.parse(ev.data); draw(); };
  es.onerror = async () => {
    document.getElementById("state").textContent = tr("lost");
    if (es.readyState !== EventSource.CLOSED) return;  // the browser tries again by itself
    // The browser gave up (an answer that was not a stream): a dead code is said and left
    // alone; a table still starting is asked again.
    es.close();
    try {
      const r = await fetch("/t/" + code + "/now", { cache: "no-store" });
      if (r.status === 404) {
        document.body.dataset.closed = "ended";
        document.getElementById("state").textContent = tr("ended");
        return;
      }
    } catch (e) { /* not listening yet */ }
    setTimeout(listen, 2000);
  };
}
setupLang(draw);
draw();
listen();
