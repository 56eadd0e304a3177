// The live Storyteller log: each server-sent event is one line (a roll, an approval, an edit), drawn with text nodes only (a
// character's name is whatever a player typed; it must never become markup).
"use strict";
(function () {
  const list = document.getElementById("live-log");
  const state = document.getElementById("live-state");
  if (!list || !state || !window.EventSource) {
    return;
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
    const entry = document.createElement("li");
    entry.className = "new";
    const time = document.createElement("time");
    time.dateTime = item.at;
    time.textContent = item.shown;
    const line = document.createElement("span");
    line.className = "line";
    line.textContent = item.text;
    entry.append(time, " ", line);
    if (item.id) {  // a roll: its verify link (other lines, approvals and edits, have none)
      entry.dataset.id = item.id;
      const link = document.createElement("a");
      link.href = "/r/" + encodeURIComponent(item.id);
      link.textContent = list.dataset.verify;
      entry.append(" ", link);
    }
    list.prepend(entry);
  };
})();
