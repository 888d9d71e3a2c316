// Score tracker niceties. Every form works without this file; it only adds the card
// counter (+5 / +10 / +15 / +25 / reset) and a few shortcuts for a phone at the table.
(function () {
  "use strict";
  // CSS shows the counter buttons only when this script runs.
  document.documentElement.classList.add("js");

  // Delegated listeners: HTMX swaps the forms in and out, the document stays.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-for]");
    if (!button) return;
    var input = document.getElementById(button.dataset.for);
    if (!input) return;
    event.preventDefault();
    if (button.hasAttribute("data-reset")) {
      input.value = "";
    } else {
      input.value = (parseInt(input.value, 10) || 0) + parseInt(button.dataset.add, 10);
    }
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  // Going out scores 0 and means the phase was laid (shared/RULES.md, end of a round).
  // Only a convenience: the server checks both.
  document.addEventListener("change", function (event) {
    var radio = event.target;
    if (!radio.matches("input[type=radio][data-went-out]") || !radio.checked) return;
    var points = document.getElementById(radio.dataset.points);
    if (points) points.value = "0";
    var completed = document.getElementById(radio.dataset.completed);
    if (completed && completed.type === "checkbox") completed.checked = true;
  });

  // The list of phases is only asked for when "My own list" is chosen.
  function showCustomPhases() {
    var select = document.querySelector("select[name=phases]");
    var field = document.querySelector("[data-custom-phases]");
    if (select && field) field.hidden = select.value !== "custom";
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches("select[name=phases]")) showCustomPhases();
  });
  document.addEventListener("DOMContentLoaded", showCustomPhases);

  // A plain (non-HTMX) form sends once, even when tapped twice.
  document.addEventListener("submit", function (event) {
    event.target.querySelectorAll("button[data-once]").forEach(function (button) {
      setTimeout(function () { button.disabled = true; }, 0);
    });
  });
})();
