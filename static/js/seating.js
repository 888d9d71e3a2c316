// The new-night form's order of play. Without this file each seat row has a place
// number (order_N) and the server sorts the rows by it; with it, the numbers are
// hidden and up/down buttons move the row itself, keeping every row's place number
// in step with where it now is. Focus stays on the button that was used.
(function () {
  "use strict";

  function rows(list) {
    return Array.prototype.slice.call(list.querySelectorAll("[data-seat-row]"));
  }

  function renumber(list) {
    var label = list.getAttribute("data-seat-label") || "{n}";
    rows(list).forEach(function (row, index) {
      var place = String(index + 1);
      var order = row.querySelector("[data-seat-order] select");
      if (order) order.value = place;
      var number = row.querySelector("[data-seat-number]");
      if (number) number.textContent = place;
      var name = row.querySelector("[data-seat-name]");
      if (name) name.textContent = label.replace("{n}", place);
    });
  }

  function setUp() {
    document.querySelectorAll("[data-seat-list]").forEach(function (list) {
      list.querySelectorAll("[data-seat-order]").forEach(function (order) { order.hidden = true; });
      list.querySelectorAll("[data-seat-number]").forEach(function (number) { number.hidden = false; });
      list.querySelectorAll("[data-seat-move]").forEach(function (move) { move.hidden = false; });
      renumber(list);
    });
  }
  document.addEventListener("DOMContentLoaded", setUp);

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-move]");
    if (!button) return;
    var list = button.closest("[data-seat-list]");
    var row = button.closest("[data-seat-row]");
    if (!list || !row) return;
    event.preventDefault();
    var all = rows(list);
    var index = all.indexOf(row);
    var target = index + parseInt(button.getAttribute("data-move"), 10);
    if (target < 0 || target >= all.length) return;
    var other = all[target];
    if (target < index) {
      other.parentNode.insertBefore(row, other);
    } else {
      other.parentNode.insertBefore(row, other.nextSibling);
    }
    renumber(list);
    button.focus();
    var status = list.querySelector("[data-seat-status]");
    var name = row.querySelector("[data-seat-name]");
    if (status && name) status.textContent = name.textContent;
  });
})();
