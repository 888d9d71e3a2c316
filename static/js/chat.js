// The chat of an online game (games/online/chat.html, its lines among the recent turns).
//
// - The message box keeps what is being typed while a poll swaps the board
//   (hx-preserve); once the server says the message went in (the "chat-posted" event
//   htmx fires from its HX-Trigger header), the box is emptied.
// - The others' new messages are said in the page's live region (#board-news), after
//   what static/js/board.js says there about the same swap.
// Without this file (or without JavaScript) the form posts and the page comes back with
// an empty box.
(function () {
  "use strict";

  var lastSeen = null; // the newest message the live region has caught up with
  var newsBefore = null; // the live region's words just before the swap

  function newest() {
    var ids = Array.prototype.map.call(document.querySelectorAll(".ot-chat-line[data-chat]"), function (line) {
      return parseInt(line.getAttribute("data-chat"), 10);
    });
    return ids.length ? Math.max.apply(null, ids) : 0;
  }

  // A line's words without its controls (the creator's menu with "Hide").
  function text(line) {
    var copy = line.cloneNode(true);
    Array.prototype.forEach.call(copy.querySelectorAll(".ot-chat-menu, form"), function (control) { control.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  document.addEventListener("DOMContentLoaded", function () {
    lastSeen = newest();
  });

  document.body.addEventListener("chat-posted", function () {
    var box = document.getElementById("chat-text");
    if (box) box.value = "";
  });

  document.addEventListener("htmx:beforeSwap", function () {
    var region = document.getElementById("board-news");
    newsBefore = region ? region.textContent : null;
  });

  // Registered after board.js's listener (this script comes after it), so it runs second.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.target || event.target.id !== "board" || lastSeen === null) return;
    var region = document.getElementById("board-news");
    var said = Array.prototype.filter.call(document.querySelectorAll(".ot-chat-line[data-chat]"), function (line) {
      return parseInt(line.getAttribute("data-chat"), 10) > lastSeen && !line.classList.contains("mine");
    }).reverse().map(text);
    lastSeen = newest();
    if (!region || !said.length) return;
    var board = region.textContent !== newsBefore ? region.textContent + " " : "";
    region.textContent = board + said.slice(-3).join(" ");
  });
})();
