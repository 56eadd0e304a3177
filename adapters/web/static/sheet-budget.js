// The creation budget counted as the player types (templates/account/sheet_view.html): each pool
// the sheet declares (SheetSpec.budget) holds its total and its tiers' prices; each rating input
// names its pool, base and cost, each held power its tier. Without script the counts are the
// server's at page load, and the server's checks decide either way.
(function () {
  "use strict";
  var box = document.getElementById("sheet-budget");
  var form = document.getElementById("sheet-editor");
  if (!box || !form) { return; }
  function number(text, fallback) {
    var value = parseInt(text, 10);
    return isNaN(value) ? fallback : value;
  }
  function count() {
    var pools = box.querySelectorAll("li[data-pool]");
    Array.prototype.forEach.call(pools, function (pool) {
      var key = pool.getAttribute("data-pool");
      var tiers = JSON.parse(pool.getAttribute("data-tiers") || "{}");
      var left = number(pool.getAttribute("data-total"), 0);
      var ratings = form.querySelectorAll("input[data-pool='" + key + "']");
      Array.prototype.forEach.call(ratings, function (input) {
        var base = number(input.getAttribute("data-base"), 0);
        var value = number(input.value, number(input.defaultValue, base));  // half-typed: as drawn
        left -= (value - base) * number(input.getAttribute("data-cost"), 1);
      });
      var held = form.querySelectorAll("li[data-spends='" + key + "']");
      Array.prototype.forEach.call(held, function (power) {
        var removed = power.querySelector("input[type=checkbox]");
        if (!removed || !removed.checked) { left -= tiers[power.getAttribute("data-tier")] || 0; }
      });
      var tier = form.querySelector("select[data-pool='" + key + "']");
      var name = form.querySelector("#new-power");
      if (tier && name && name.value.trim()) { left -= tiers[tier.value] || 0; }
      var shown = pool.querySelector("output");
      if (shown.textContent !== String(left)) { shown.textContent = String(left); }
      pool.classList.toggle("over", left < 0);
    });
  }
  form.addEventListener("input", count);
  form.addEventListener("change", count);
  count();
})();
