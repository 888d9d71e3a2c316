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

  // A copy button next to a link (a shared year's): it copies the link's field. Hidden
  // without JavaScript or a clipboard; tapping the field selects the link instead.
  document.addEventListener("DOMContentLoaded", function () {
    if (!navigator.clipboard) return;
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.hidden = false;
    });
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    navigator.clipboard.writeText(field.value).then(function () {
      button.textContent = button.getAttribute("data-copied");
    });
  });

  // A form that comes back with errors (a failed save, by a page load or an htmx swap):
  // focus goes to the first error, so a keyboard or screen reader user hears it and is
  // where to fix it. A field with an error says it through aria-describedby (Django
  // links the two); a list of errors not about one field is focused and read itself.
  function focusFirstError(root) {
    var problem = root.querySelector(
      "form [aria-invalid=true]:not([type=hidden]), form .errorlist:not([id$=_error])"
    );
    if (!problem) return false;
    var details = problem.closest("details:not([open])");
    if (details) details.open = true;
    if (!problem.matches("input, select, textarea, button")) {
      problem.setAttribute("tabindex", "-1");
    }
    problem.focus();
    return document.activeElement === problem;
  }
  document.addEventListener("DOMContentLoaded", function () {
    focusFirstError(document);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target instanceof Element) focusFirstError(event.target);
  });

  // Polling (hx-trigger="every 3s") skips its turn while the page is hidden: a phone in a
  // pocket or a tab in the background asks the server nothing. htmx's own filter syntax
  // (every 3s [document.visibilityState === 'visible']) would need eval.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var trigger = event.detail.elt.getAttribute("hx-trigger") || "";
    if (document.hidden && /^\s*every\s/.test(trigger)) event.preventDefault();
  });
})();
