// A finished game's replay (games/online/replay.html): the keyboard steps through it.
// ← and → go back and forward as the page reads (in a right-to-left language → goes
// back, as the slider and the Back/Forward links are laid out), Home and End to the first
// and the last move; letting go of the slider goes to the move it shows. Every step is a plain link (or the slider's
// Go button), so the page works the same without this file.
(function () {
  "use strict";

  var page = document.querySelector("[data-replay]");
  if (!page) return;
  var rtl = getComputedStyle(page).direction === "rtl";
  var KEYS = {
    ArrowLeft: rtl ? "forward" : "back",
    ArrowRight: rtl ? "back" : "forward",
    Home: "first",
    End: "last",
  };

  function typing(element) {
    return element && element.matches("input, select, textarea, [contenteditable]");
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (typing(event.target)) return; // the slider uses the arrow keys itself
    var step = KEYS[event.key];
    var link = step && page.querySelector('a[data-step="' + step + '"]');
    if (!link) return;
    event.preventDefault();
    window.location.assign(link.href);
  });

  var slider = document.getElementById("replay-move");
  if (slider) {
    slider.addEventListener("change", function () {
      slider.form.submit();
    });
    // Back from the slider (its form goes to #replay-move): keep on it for the next step.
    if (window.location.hash === "#replay-move") slider.focus();
  }
})();
