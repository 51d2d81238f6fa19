/* passagent report: sortable tables, a task filter, paged step lists. Plain DOM, no library, no network. */
(function () {
  "use strict";
  function cellValue(td) {
    var v = td.getAttribute("data-v");
    if (v === null) v = td.textContent.trim();
    var n = parseFloat(v);
    return (v !== "" && !isNaN(n) && isFinite(n)) ? n : v.toLowerCase();
  }
  function sortTable(table, col, th) {
    var asc = !th.classList.contains("asc");
    table.querySelectorAll("th").forEach(function (h) { h.classList.remove("asc", "desc"); });
    th.classList.add(asc ? "asc" : "desc");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellValue(a.cells[col]), y = cellValue(b.cells[col]);
      var missX = x === "-" || x === "", missY = y === "-" || y === "";
      if (missX !== missY) return missX ? 1 : -1;     /* missing values last either way */
      if (typeof x !== typeof y) { x = String(x); y = String(y); }
      return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    table.querySelectorAll("thead th").forEach(function (th, i) {
      th.addEventListener("click", function () { sortTable(table, i, th); });
    });
  });
  /* Filter rows of a table by the text of their first cell. */
  document.querySelectorAll("input.filter").forEach(function (input) {
    var table = document.getElementById(input.getAttribute("data-table"));
    input.addEventListener("input", function () {
      var q = input.value.toLowerCase();
      Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
        r.style.display = r.cells[0].textContent.toLowerCase().indexOf(q) >= 0 ? "" : "none";
      });
    });
  });
  /* Paged lists: show `data-page` children at a time; a button reveals the next page. */
  document.querySelectorAll("[data-page]").forEach(function (list) {
    var size = parseInt(list.getAttribute("data-page"), 10), shown = size;
    var items = list.querySelectorAll(":scope > .page-item");
    if (items.length <= size) return;
    function update() {
      items.forEach(function (el, i) { el.hidden = i >= shown; });
      more.hidden = shown >= items.length;
      more.textContent = "show " + Math.min(size, items.length - shown) + " more (" + (items.length - shown) + " hidden)";
    }
    var more = document.createElement("button");
    more.className = "more";
    more.addEventListener("click", function () { shown += size; update(); });
    var all = document.createElement("button");
    all.textContent = "show all";
    all.addEventListener("click", function () { shown = items.length; update(); all.hidden = true; });
    var pager = document.createElement("div");
    pager.className = "pager";
    pager.appendChild(more); pager.appendChild(all);
    list.after(pager);
    /* A link to a hidden step (#step-N) reveals it. */
    function reveal() {
      var el = location.hash && document.getElementById(location.hash.slice(1));
      if (el && el.hidden) { shown = items.length; update(); el.scrollIntoView(); }
    }
    window.addEventListener("hashchange", reveal);
    update(); reveal();
  });
})();
