// The viewer's second tab: the evening (the same view as `companion stats --html`), fetched from
// the table when the tab opens and again at each state the table journals while it is open.
"use strict";
(function () {
  const code = location.pathname.split("/")[2];
  const NAMES = { fr: ["Partie", "Soirée"], en: ["Game", "Evening"] };
  let open = false;
  let shown = null;  // the seq and language of the evening on the page

  async function load() {
    const key = (document.body.dataset.seq || "") + LANG;
    if (!open || key === shown) return;
    shown = key;
    const box = document.getElementById("evening");
    try {
      const r = await fetch("/t/" + code + "/evening?lang=" + LANG);
      if (!r.ok) throw new Error(String(r.status));
      box.innerHTML = await r.text();  // the table's own HTML, every name escaped there
      document.body.dataset.evening = key;
    } catch (e) {
      shown = null;
      box.textContent = tr("lost");
    }
  }
  function show(evening) {
    open = evening;
    document.body.classList.toggle("evening-tab", evening);
    document.getElementById("evening").hidden = !evening;
    document.getElementById("tab-game").setAttribute("aria-pressed", String(!evening));
    document.getElementById("tab-evening").setAttribute("aria-pressed", String(evening));
    load();
  }
  function label() {
    document.getElementById("tab-game").textContent = NAMES[LANG][0];
    document.getElementById("tab-evening").textContent = NAMES[LANG][1];
  }
  document.addEventListener("DOMContentLoaded", () => {
    label();
    document.getElementById("tab-game").addEventListener("click", () => show(false));
    document.getElementById("tab-evening").addEventListener("click", () => show(true));
    document.getElementById("lang").addEventListener("click", () => { label(); load(); });
    // A new state of the table (standings.js sets the body's data-seq): the evening follows.
    new MutationObserver(load).observe(document.body, { attributes: true, attributeFilter: ["data-seq"] });
    if (location.hash === "#evening") show(true);
  });
})();
