// Game night niceties. Every form works without this file; it only adds the card
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

  // Going out scores 0 and means the phase was laid (docs/rules.md, the end of a round):
  // choosing who went out fills in that player's own points and phase. Only a
  // convenience: the server checks both. The arrow keys choose as they move through the
  // "Who went out?" group, so what was filled in for a player passed on the way is put
  // back as it was, unless the scorer has changed it since.
  function fillIn(radio) {
    var points = document.getElementById(radio.dataset.points);
    if (points && !points.hasAttribute("data-filled-from")) {
      points.setAttribute("data-filled-from", points.value);
      points.value = "0";
    }
    var completed = document.getElementById(radio.dataset.completed);
    if (completed && completed.type === "checkbox" && !completed.checked) {
      completed.checked = true;
      completed.setAttribute("data-filled-from", "");
    }
  }

  function putBack(radio) {
    var points = document.getElementById(radio.dataset.points);
    if (points && points.hasAttribute("data-filled-from")) {
      if (points.value === "0") points.value = points.getAttribute("data-filled-from");
      points.removeAttribute("data-filled-from");
    }
    var completed = document.getElementById(radio.dataset.completed);
    if (completed && completed.hasAttribute("data-filled-from")) {
      completed.checked = false;
      completed.removeAttribute("data-filled-from");
    }
  }

  document.addEventListener("change", function (event) {
    var radio = event.target;
    if (!radio.matches("input[type=radio][data-went-out]") || !radio.checked || !radio.form) return;
    radio.form.querySelectorAll("input[type=radio][data-went-out]").forEach(function (other) {
      var tag = radio.form.querySelector('[data-went-out-tag="' + other.id + '"]');
      if (tag) tag.hidden = other !== radio;
      if (other !== radio) putBack(other);
    });
    fillIn(radio);
  });

  // What the scorer types or ticks is theirs: never put back.
  function keep(event) {
    if (event.isTrusted && event.target.hasAttribute("data-filled-from")) {
      event.target.removeAttribute("data-filled-from");
    }
  }
  document.addEventListener("input", keep);
  document.addEventListener("change", keep);

  // The counter (a popover over the round form) shows the points it is adding up.
  document.addEventListener("input", function (event) {
    var input = event.target;
    if (!input.id || !input.matches("input.points")) return;
    document.querySelectorAll('output[data-total-for="' + input.id + '"]').forEach(function (output) {
      output.textContent = input.value;
    });
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

  // htmx replaces the game (#game) after a save, an undo or a tie-breaker, and the round
  // form (#entry) when a round is opened for correction; the control that was used
  // goes with it. Focus goes to what the change says ("Round 2 saved.", with the
  // standings and the next deal, at the top of the game) or to the form's heading, so
  // it is in view and the next Tab leads on from there. (A failed save: site.js puts
  // focus on the first error instead.)
  document.addEventListener("htmx:afterSettle", function (event) {
    var swapped = event.target;
    if (!(swapped instanceof Element) || (swapped.id !== "game" && swapped.id !== "entry")) return;
    if (swapped.querySelector("form [aria-invalid=true], form .errorlist")) return;
    // A correction after the night's end waits for confirmation: its panel's heading.
    var target = swapped.id === "game"
      ? swapped.querySelector(".correction h2") || swapped.querySelector(".round-summary") ||
        swapped.querySelector(":scope > .message")
      : swapped.querySelector("h2");
    if (!target) return;
    target.setAttribute("tabindex", "-1");
    target.focus();
    // The summary leads the new standings: bring both into view, not just its line.
    if (target.classList.contains("round-summary")) target.scrollIntoView({ block: "start" });
  });

  // The answer to a new round keeps the rounds' table the page shows (hx-preserve on
  // #history) and adds the round's row and the totals out of band. A page with no such
  // table to keep (drawn before it had the ids, e.g. kept offline from an older version),
  // or one where a part found no target, is drawn anew from the server once the answer
  // is in (a request sent before would target the #game the answer replaces), so the
  // rounds shown are never short of the standings above them. The requests that swap the
  // game go one at a time: hx-sync on the round form, the undo and the rounds' links.
  var tableMissed = false;
  document.addEventListener("htmx:oobErrorNoTarget", function (event) {
    if (/^#history-(rows|totals)$/.test(String(event.detail && event.detail.target))) tableMissed = true;
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!(event.target instanceof Element) || event.target.id !== "game") return;
    var placeholder = document.querySelector("#history[hx-preserve]");
    if (!(tableMissed || placeholder) || !window.htmx) return;
    tableMissed = false;
    // The round's summary stays on top of the redrawn game (?saved=n, as a plain save lands).
    var summary = event.target.querySelector(".round-summary[data-saved]");
    var query = summary ? "?saved=" + encodeURIComponent(summary.dataset.saved) : "";
    window.htmx.ajax("GET", location.pathname + query, { target: "#game", swap: "outerHTML" });
  });

  // A plain (non-HTMX) form sends once, even when tapped twice.
  document.addEventListener("submit", function (event) {
    event.target.querySelectorAll("button[data-once]").forEach(function (button) {
      setTimeout(function () { button.disabled = true; }, 0);
    });
  });
})();
