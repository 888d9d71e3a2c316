// The online board (games/online/game.html) under the keyboard and a screen reader.
// htmx replaces the whole #board after every move and whenever a poll finds the game
// changed; the element that had focus goes with it, and focus would drop to <body>.
//
// - After the player's own request, focus goes where the server says the next action
//   starts (data-focus on the fresh board names a data-landing place: the hand after a
//   draw, the choice to make, the status line once the turn is over), or else stays on
//   the control that was used (found again by id, or by name and value).
// - After a poll (another player's move), focus moves only if it was inside the board,
//   and then only back to the same control in the fresh board: a poll never takes
//   focus from where the player is.
// - Enter on a card in the hand does nothing (Space picks it).
// - A <details> with an id (a seat's line, the round's results, a message's menu) stays
//   open or closed as the player left it when the board is swapped; the player's own
//   seat line opens when their groups go down (data-groups changed).
// - The page keeps one polite live region outside the board (#board-news); it says the
//   new moves (the player's own in the server's words: "You drew blue 6."), the status
//   when a poll changed it, an error or notice, a hint.
// Without this file every form still works, by full page loads.
(function () {
  "use strict";

  var FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), " +
    "select:not([disabled]), textarea:not([disabled]), summary, [tabindex]";
  var lastMove = null; // the newest move the live region has caught up with

  function board() {
    return document.getElementById("board");
  }

  // A control is the "same" in the fresh board when it has the same id, else the same
  // name and value (a card in the hand, a choice's button) and position among those.
  function keyOf(element) {
    if (!element || element === document.body) return null;
    if (element.id) return { id: element.id };
    var name = element.getAttribute("name");
    if (!name) return null;
    var value = element.getAttribute("value") || "";
    var same = sameControls(board() || document, name, value);
    return { name: name, value: value, index: same.indexOf(element) };
  }

  function sameControls(root, name, value) {
    return Array.prototype.filter.call(root.querySelectorAll("[name]"), function (element) {
      return element.getAttribute("name") === name && (element.getAttribute("value") || "") === value;
    });
  }

  function find(key) {
    if (!key) return null;
    if (key.id) return document.getElementById(key.id);
    var same = sameControls(board(), key.name, key.value);
    return same[key.index] || same[0] || null;
  }

  function focusable(element) {
    return element && element.matches(FOCUSABLE) && !element.closest("[disabled], [hidden]");
  }

  // Focus `place` itself when it takes focus, else the first control inside it.
  function land(place, options) {
    if (!place) return false;
    var target = focusable(place) && !place.matches("fieldset") ? place : null;
    if (!target) {
      target = Array.prototype.find.call(place.querySelectorAll(FOCUSABLE), focusable) || null;
    }
    if (!target) return false;
    target.focus(options);
    return document.activeElement === target;
  }

  function landing(name) {
    return name ? board().querySelector('[data-landing="' + name + '"]') : null;
  }

  function newestMove(root) {
    if (!root) return null;
    var line = root.querySelector(".ot-log li[data-move]");
    return line ? parseInt(line.getAttribute("data-move"), 10) : 0;
  }

  function text(element) {
    return element ? element.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function announce(parts) {
    var region = document.getElementById("board-news");
    var message = parts.filter(Boolean).join(" ");
    if (!region || !message) return;
    // The same words twice in a row are still news (two discards of the same card).
    if (region.textContent === message) message += "\u00a0";
    region.textContent = message;
  }

  // The moves since the live region last spoke, oldest first: the player's own in the
  // words the server wrote for them (data-announce: "You discarded blue 6."), the
  // others' as the log reads them.
  function newMoves(fresh) {
    var lines = Array.prototype.filter.call(fresh.querySelectorAll(".ot-log li[data-move]"), function (line) {
      return lastMove !== null && parseInt(line.getAttribute("data-move"), 10) > lastMove;
    });
    return lines.reverse().slice(-4).map(function (line) {
      return line.getAttribute("data-announce") || text(line);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    lastMove = newestMove(board());
  });

  // Enter on a card in the hand would send the hand's form with its first button, "Lay
  // down selected" (browsers submit a form on Enter in a checkbox too). Space picks a
  // card; Enter there does nothing.
  document.addEventListener("keydown", function (event) {
    var field = event.target;
    if (event.key === "Enter" && field.matches && field.matches(".ot-hand input[type=checkbox]")) {
      event.preventDefault();
    }
  });

  // What the board was like just before the swap, kept with the request (a poll and a
  // move may overlap; each settles with its own).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var old = board();
    var config = event.detail.requestConfig;
    if (!old || !config || !event.detail.shouldSwap || event.detail.target !== old) return;
    var active = document.activeElement;
    var checked = Array.prototype.map.call(old.querySelectorAll(".ot-hand input:checked"), keyOf);
    config.boardBefore = {
      poll: config.elt === old,
      inside: old.contains(active) && active !== old,
      key: keyOf(active),
      status: text(old.querySelector(".ot-status")),
      checked: checked,
      open: Array.prototype.map.call(old.querySelectorAll("details[id]"), function (details) {
        return [details.id, details.open, details.getAttribute("data-groups")];
      }),
    };
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var fresh = board();
    if (event.target && event.target.id === "hint") {
      announce([text(event.target)]);
      return;
    }
    var config = event.detail.requestConfig;
    var was = config && config.boardBefore;
    if (!was || event.target !== fresh) return;
    config.boardBefore = null;
    was.open.forEach(function (before) {
      var details = document.getElementById(before[0]);
      if (!details || !details.matches("details") || !fresh.contains(details)) return;
      // The player's own line opens by itself once their groups are down (the server's
      // choice); until their groups change, it stays as they left it.
      if (details.getAttribute("data-groups") !== before[2]) return;
      details.open = before[1];
    });
    var news = [text(fresh.querySelector("[data-news]"))].concat(newMoves(fresh));
    var status = text(fresh.querySelector(".ot-status"));
    if (was.poll) {
      // A card picked before someone else's move stays picked (their move can't
      // have changed this hand; if the hand did change, the card is gone anyway).
      was.checked.forEach(function (key) {
        var card = find(key);
        if (card && !card.matches(":disabled")) card.checked = true;
      });
      if (was.inside) {
        var again = find(was.key);
        if (!(focusable(again) && land(again, { preventScroll: true }))) {
          // The control is gone (it is someone else's turn now): the status line.
          land(landing("status"), { preventScroll: true });
        }
      }
      if (status !== was.status) news.push(status);
    } else {
      var place = landing(fresh.getAttribute("data-focus"));
      var used = find(was.key);
      if (!land(place) && !(focusable(used) && land(used))) {
        land(landing("hand")) || land(landing("status"));
      }
    }
    lastMove = newestMove(fresh);
    announce(news);
  });
})();
