// Notices, live, on every signed-in page: the Storyteller's "N waiting" badge and the player's News
// list follow the server's events (/me/notices/stream) as sheets are submitted, approved and
// returned. Drawn with text nodes only: a character's name is whatever a player typed.
"use strict";
(function () {
  if (!window.EventSource) {
    return;
  }
  const source = new EventSource("/me/notices/stream");
  source.addEventListener("waiting", function (event) {
    const data = JSON.parse(event.data);
    const link = document.getElementById("roster-link");
    if (!link) {
      return;  // a player's menu has no roster
    }
    let badge = link.querySelector(".badge");
    if (!data.count) {
      if (badge) {
        badge.remove();
      }
      return;
    }
    if (!badge) {
      badge = document.createElement("span");
      badge.className = "badge";
      link.append(link.textContent.endsWith(" ") ? "" : " ", badge);
    }
    badge.textContent = data.text;
  });
  source.addEventListener("news", function (event) {
    const news = JSON.parse(event.data);
    const section = document.getElementById("news");
    const list = document.getElementById("notices");
    if (!section || !list) {
      return;  // News is on My characters only
    }
    list.replaceChildren(...news.map(function (item) {
      const entry = document.createElement("li");
      entry.className = "notice-" + String(item.kind).replace(/[^a-z_]/g, "");
      const time = document.createElement("time");
      time.dateTime = item.at;
      time.textContent = item.shown;
      const link = document.createElement("a");
      link.href = item.href;
      link.textContent = item.text;
      entry.append(time, " ", link);
      return entry;
    }));
    section.hidden = news.length === 0;
  });
})();
