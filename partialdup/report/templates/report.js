// partialdup report: sort and page the summary table, open a pair when a
// link leads into it, expand or collapse all. No inline handlers (the page's
// Content-Security-Policy allows this one script and nothing else).
"use strict";
(function () {
  var table = document.getElementById("summary-table");
  var body = table.tBodies[0];
  var pager = document.getElementById("pager");
  var size = Number(document.body.getAttribute("data-page-size")) || 100;
  var page = 0;

  function rows() {
    return Array.prototype.slice.call(body.rows);
  }

  function paginate() {
    var all = rows();
    var pages = Math.max(1, Math.ceil(all.length / size));
    page = Math.min(Math.max(page, 0), pages - 1);
    all.forEach(function (row, i) {
      row.hidden = Math.floor(i / size) !== page;
    });
    pager.hidden = pages < 2;
    pager.querySelector("[data-page-label]").textContent = "page " + (page + 1) + " of " + pages;
  }

  function sortBy(th) {
    var column = th.cellIndex;
    var numeric = th.getAttribute("data-type") === "num";
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    var key = function (row) {
      var value = row.cells[column].getAttribute("data-v");
      return numeric ? Number(value) : value;
    };
    var all = rows();
    all.sort(function (x, y) {
      var a = key(x), b = key(y);
      var order = numeric ? a - b : a.localeCompare(b);
      if (order === 0) order = Number(x.getAttribute("data-n")) - Number(y.getAttribute("data-n"));
      return ascending ? order : -order;
    });
    all.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell) { cell.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    page = 0;
    paginate();
  }

  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) return;
    var details = target.closest("details");
    if (details && !details.open) details.open = true;
    target.scrollIntoView();
  }

  document.addEventListener("click", function (event) {
    var th = event.target.closest("th[data-type]");
    if (th && table.contains(th)) {
      sortBy(th);
      return;
    }
    var link = event.target.closest("a[href^='#']");
    if (link) {
      setTimeout(reveal, 0); // also when the hash does not change (the pair was closed again)
      return;
    }
    var button = event.target.closest("button[data-action]");
    if (!button) return;
    var action = button.getAttribute("data-action");
    if (action === "prev" || action === "next") {
      page += action === "next" ? 1 : -1;
      paginate();
    } else {
      document.querySelectorAll("details.pair").forEach(function (details) {
        details.open = action === "expand";
      });
    }
  });
  window.addEventListener("hashchange", reveal);
  document.querySelector(".toolbar").hidden = false;
  paginate();
  reveal();
})();
