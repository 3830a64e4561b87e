// A seat's button: touches stamped by the phone's own clock, which the table maps onto its own
// from the pings it sends (it answers each with performance.now(), the clock of touch events).
"use strict";
const token = location.pathname.split("/")[2];
const pad = document.getElementById("pad");
// n: this connection's press numbers, from 1 (the table keeps them per connection: a new phone
// or page on the seat presses at once).
let ws = null, game = null, seat = null, n = 0;
let down = null, res = null, tries = 0;

function clockStep() {
  // The browser rounds performance.now(); its step is part of every stamp's uncertainty.
  // A coarse clock (16.7 or 100 ms in privacy modes) is measured in two steps, not twenty: the
  // page is not frozen for two seconds; the table believes a step up to 100 ms.
  let best = Infinity;
  const start = performance.now();
  for (let i = 0; i < 20 && (i < 2 || performance.now() - start < 50); i++) {
    const a = performance.now(); let b = a;
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  return Math.round(best * 1000);
}

function say(text) { document.getElementById("msg").textContent = text; }
function showRes() {
  document.getElementById("res").textContent = res === null ? tr("sync") : tr("res", duration(res));
}

// Why the table closed the socket, and whether to come back: a page replaced by another of the
// same seat (4409) or a code revoked or of a finished game (4401) stays closed, or two pages of
// one seat would take it from each other for ever; a table restarting is waited for.
const FINAL = { 4409: "replaced", 4401: "revoked", 4400: "refusedMany" };

function stop(why) {
  ws = null;
  pad.classList.remove("ready");
  document.body.dataset.closed = why;
  say(tr(why));
}

async function retry() {
  // A refused handshake and a table still starting look the same to a WebSocket: the page
  // itself says which (404: this code is dead, do not knock for ever).
  try {
    const r = await fetch(location.pathname, { cache: "no-store" });
    if (r.status === 404) { stop("dead"); return; }
  } catch (e) { /* the table is not listening yet */ }
  tries += 1;
  setTimeout(connect, Math.min(500 * tries, 2000));
}

function connect() {
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/pad/" + token + "/ws");
  ws.onopen = () => { tries = 0; ws.send(JSON.stringify({ t: "hello", step_us: clockStep() })); };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.t === "ping") {
      ws.send(JSON.stringify({ t: "pong", id: m.id, p: performance.now() }));
    } else if (m.t === "seat") {
      game = m.g; seat = m.seat; n = 0;
      delete document.body.dataset.closed;
      document.getElementById("name").textContent = m.players[seat] || tr("seat", seat + 1);
      if (m.color) pad.style.setProperty("--seat", m.color);  // the seat's colour on the table
      pad.classList.add("ready");
      say("");
    } else if (m.t === "sync") {
      res = m.res_us; showRes();
    } else if (m.t === "ok") {
      say(tr("pressOk", duration(m.res_us)));
      document.body.dataset.pressed = m.n;
    } else if (m.t === "no") {
      say(m[LANG] || m.en);
    }
  };
  ws.onclose = (ev) => {
    if (FINAL[ev.code]) { stop(FINAL[ev.code]); return; }
    pad.classList.remove("ready");
    document.body.dataset.closed = "waiting";
    say(tr("restarting"));
    retry();
  };
}

pad.addEventListener("pointerdown", (ev) => {
  ev.preventDefault();
  if (!ws || ws.readyState !== 1 || game === null) return;
  n += 1;
  down = n;
  pad.classList.add("down");
  // The touch's own stamp (same clock as performance.now()), not when this code ran; d: how
  // long the browser took to hand it over, which the table allows for when this page's later
  // messages promise that no earlier touch is still to come.
  ws.send(JSON.stringify({ t: "press", n: n, p: ev.timeStamp, g: game, d: performance.now() - ev.timeStamp }));
});
function lift(ev) {
  if (down === null) return;
  pad.classList.remove("down");
  if (ws && ws.readyState === 1) ws.send(JSON.stringify({ t: "release", n: down, p: ev.timeStamp }));
  down = null;
}
pad.addEventListener("pointerup", lift);
pad.addEventListener("pointercancel", lift);
showRes();
connect();
