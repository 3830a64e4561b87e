// One table's standings, redrawn at each state the table journals (server-sent events).
"use strict";
let page = null;
const code = location.pathname.split("/")[2];

function draw() {
  const state = document.getElementById("state");
  if (!page) { state.textContent = tr("waiting"); return; }
  document.getElementById("title").textContent = page.title + (page.finished ? " — " + tr("finished") : "");
  document.getElementById("summary").textContent = page.summary[LANG] || "";
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
  const slap = document.getElementById("slap");
  const s = page.last_slap;
  if (s && s.presses && s.presses.length) {
    slap.hidden = false;
    slap.replaceChildren();
    const h = document.createElement("h2"); h.textContent = tr("slap"); slap.append(h);
    const ol = document.createElement("ol");
    for (const p of s.presses) {
      const li = document.createElement("li");
      li.textContent = p.name + (p.offset_us ? "  " + tr("gap", duration(p.offset_us)) : "");
      ol.append(li);
    }
    slap.append(ol);
    if (s.tied) {
      const t = document.createElement("p"); t.textContent = tr("tie", duration(s.margin_res_us)); slap.append(t);
    }
  } else {
    slap.hidden = true;
  }
  state.textContent = tr("live") + " · " + page.seq;
  document.body.dataset.seq = page.seq;
}

function listen() {
  const es = new EventSource("/t/" + code + "/events");
  es.onmessage = (ev) => { page = JSON.parse(ev.data); draw(); };
  es.onerror = () => { document.getElementById("state").textContent = tr("lost"); };
}
setupLang(draw);
draw();
listen();
