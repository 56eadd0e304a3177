// The live Storyteller log: each server-sent event is one entry (a roll, an approval, an edit), drawn
// like the server's rows with text nodes only (a character's name is whatever a player typed; it
// must never become markup). A roll's dice are drawn as faces beside its line of text. The server
// sends only what the page's filters admit; each entry goes under its group's heading (its hour, or
// its channel's scene until that scene ends), a new heading at the top when there is none.
"use strict";
(function () {
  const list = document.getElementById("live-log");
  const state = document.getElementById("live-state");
  if (!list || !state) {
    return;
  }
  // Hours are the viewer's: a page asked for without a zone is asked for again in this browser's.
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const here = new URL(window.location.href);
  if (zone && !here.searchParams.has("tz") && zone !== list.dataset.zone) {
    here.searchParams.set("tz", zone);
    window.location.replace(here.toString());
    return;
  }
  if (!window.EventSource) {
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
    const entry = document.createElement("li");
    entry.className = "entry new kind-" + String(item.kind || "line").replace(/[^a-z_]/g, "");
    const meta = document.createElement("p");
    meta.className = "meta";
    const time = document.createElement("time");
    time.dateTime = item.at;
    time.textContent = item.shown;
    meta.append(time, " ", span("platform", item.platform_label));
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
    groupOf(item).prepend(entry);
  };
  // The list of rows the item goes in: the top group when it is the item's, else a new one on top.
  function groupOf(item) {
    const byScene = list.dataset.group === "scene";
    let group = null;
    if (byScene) {
      group = Array.from(list.children).find(
        (g) => g.dataset.channel === item.channel && !g.dataset.ended);
    } else if (list.firstElementChild && list.firstElementChild.dataset.key === item.hour) {
      group = list.firstElementChild;
    }
    if (!group) {
      group = document.createElement("li");
      group.className = "group";
      group.dataset.key = byScene ? item.channel : item.hour;
      group.dataset.channel = byScene ? item.channel : "";
      const heading = document.createElement("h2");
      heading.textContent = byScene ? item.channel_label : item.hour_heading;
      const rows = document.createElement("ol");
      rows.className = "rows";
      group.append(heading, rows);
    }
    list.prepend(group);  // the group with the newest row on top
    if (byScene && item.kind === "scene_end") {
      group.dataset.ended = "1";
      group.firstElementChild.append(" ", span("ended", list.dataset.endedText));
    }
    return group.querySelector("ol.rows");
  }
})();
