// What every page does with JavaScript. The Content-Security-Policy runs no inline
// handlers (on*="") and no eval, so the behaviour is bound here, from data-* attributes.
// Every page works without this file.
(function () {
  "use strict";

  // The footer's language list sends its form as soon as a language is picked (without
  // JavaScript, the <noscript> button does).
  document.addEventListener("change", function (event) {
    var field = event.target;
    if (field.matches("select[data-submit-on-change]") && field.form) field.form.submit();
  });

  // A link to pass on (a share link, an invite link): one tap selects all of it.
  document.addEventListener("click", function (event) {
    var field = event.target;
    if (field.matches("input[data-select-on-click]")) field.select();
  });

  // Polling (hx-trigger="every 3s") skips its turn while the page is hidden: a phone in a
  // pocket or a tab in the background asks the server nothing. htmx's own filter syntax
  // (every 3s [document.visibilityState === 'visible']) would need eval.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var trigger = event.detail.elt.getAttribute("hx-trigger") || "";
    if (document.hidden && /^\s*every\s/.test(trigger)) event.preventDefault();
  });
})();
