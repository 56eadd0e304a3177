// The live Storyteller log: each server-sent event is one entry (a roll, an approval, an edit), drawn
// like the server's rows with text nodes only (a character's name is whatever a player typed; it
// must never become markup). A roll's dice are drawn as faces beside its line of text.
"use strict";
(function () {
  const list = document.getElementById("live-log");
  const state = document.getElementById("live-state");
  if (!list || !state || !window.EventSource) {
    return;
  }
  function span(className, text) {
    const node = document.createElement("span");
    node.className = className;
    node.textContent = text;
    return node;
  }
  function sides(item) {
    const roll = document.createElement("div");
    roll.className = "roll";
    roll.setAttribute("aria-hidden", "true");  // the line of text says the same
    for (const side of item.sides || []) {
      const part = span("side", "");
      for (const d of side.dice) {
        part.append(span("die" + (d === 10 ? " ten" : d === 1 ? " one" : ""), String(d)));
      }
      if (side.total !== null && side.total !== undefined) {
        part.append(span("total", "= " + side.total));
      }
      if (side.label) {
        part.append(span("degree" + (side.tone ? " tone-" + side.tone : ""), side.label));
      }
      roll.append(part);
    }
    return roll;
  }
  const source = new EventSource(list.dataset.stream);
  source.onopen = function () {
    state.textContent = state.dataset.live;
    state.dataset.state = "live";
  };
  source.onerror = function () {
    state.textContent = state.dataset.lost;
    state.dataset.state = "lost";
  };
  source.onmessage = function (event) {
    const item = JSON.parse(event.data);
    // The page's filters hold for what arrives too.
    if ((list.dataset.kind === "rolls" && !item.id) || (list.dataset.kind === "lines" && item.id)) {
      return;
    }
    if (list.dataset.platform && item.platform !== list.dataset.platform) {
      return;
    }
    const entry = document.createElement("li");
    entry.className = "entry new kind-" + String(item.kind || "line").replace(/[^a-z_]/g, "");
    const meta = document.createElement("p");
    meta.className = "meta";
    const time = document.createElement("time");
    time.dateTime = item.at;
    time.textContent = item.shown;
    const platform = item.platform === "console" ? list.dataset.terminal : item.platform_label;
    meta.append(time, " ", span("platform", platform));
    if (item.id) {  // a roll: its verify link (other lines, approvals and edits, have none)
      entry.dataset.id = item.id;
      const link = document.createElement("a");
      link.href = "/r/" + encodeURIComponent(item.id);
      link.textContent = list.dataset.verify;
      meta.append(" ", link);
    }
    entry.append(meta);
    if (item.sides && item.sides.length) {
      entry.append(sides(item));
    }
    const line = document.createElement("p");
    line.className = "line";
    line.textContent = item.text;
    entry.append(line);
    list.prepend(entry);
  };
})();
