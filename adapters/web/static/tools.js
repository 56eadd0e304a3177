// Progressive enhancement for the tool pages: the form works as a plain GET submit; with script,
// the results are re-asked from the server (the same rules, never a copy here) as the reader types.
(function () {
  "use strict";
  // The language switcher keeps what the form holds: its links carry the query the page now shows.
  function keepInLanguageLinks(shown) {
    var links = document.querySelectorAll("nav.languages a[hreflang]");
    Array.prototype.forEach.call(links, function (link) {
      var params = new URLSearchParams(shown);
      params.set("lang", link.getAttribute("hreflang"));
      link.setAttribute("href", "?" + params.toString());
    });
  }
  var forms = document.querySelectorAll("form[data-live]");
  Array.prototype.forEach.call(forms, function (form) {
    var target = document.getElementById(form.getAttribute("data-live"));
    if (!target) { return; }
    var hints = form.querySelectorAll(".js-only");
    Array.prototype.forEach.call(hints, function (hint) { hint.hidden = false; });
    var asked = 0;
    var timer = null;
    function query() {
      var params = new URLSearchParams(new FormData(form));
      return params.toString();
    }
    function refresh() {
      var mine = ++asked;
      var shown = query();
      fetch(form.action + "?" + shown + "&partial=1", { headers: { "Accept": "text/html" } })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (html === null || mine !== asked) { return; }  // a later answer is on its way
          target.innerHTML = html;  // server-rendered and escaped there
          target.setAttribute("data-query", shown);
          if (window.history && window.history.replaceState) {
            window.history.replaceState(null, "", form.action + "?" + shown);
          }
          keepInLanguageLinks(shown);
        })
        .catch(function () { /* the submit button still works */ });
    }
    function soon() {
      if (timer) { clearTimeout(timer); }
      timer = setTimeout(refresh, 150);
    }
    form.addEventListener("input", soon);
    form.addEventListener("change", soon);
  });
})();
