// The live Storyteller log: each server-sent event is one roll, drawn with text nodes only (a
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
    entry.dataset.id = item.id;
    entry.className = "new";
    const time = document.createElement("time");
    time.dateTime = item.at;
    time.textContent = item.at.replace("T", " ").slice(0, 19);
    const line = document.createElement("span");
    line.className = "line";
    line.textContent = item.text;
    const link = document.createElement("a");
    link.href = "/r/" + encodeURIComponent(item.id);
    link.textContent = list.dataset.verify;
    entry.append(time, " ", line, " ", link);
    list.prepend(entry);
  };
})();
