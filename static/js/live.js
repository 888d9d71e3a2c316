// Live scoreboards (the share page, the TV view) poll with htmx, which needs this
// script to run at all: "updates by itself" is shown only then ([data-if-script] is
// hidden in the markup; without JavaScript a <noscript> asks for a reload instead).
(function () {
  "use strict";
  function reveal(root) {
    if (!(root instanceof Element) && root !== document) return;
    root.querySelectorAll("[data-if-script][hidden]").forEach(function (element) {
      element.hidden = false;
    });
  }
  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  // A poll swaps in a new scoreboard (with its note hidden again).
  document.addEventListener("htmx:load", function (event) { reveal(event.target); });
})();
