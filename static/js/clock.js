// The time left in a turn, counted down between polls. The server drew the text and
// stays the source of truth: every board it sends (each move, each poll that finds a
// change) brings the time left anew, and this only keeps the words current meanwhile.
// Two largest units, rounded down to the minute, like games/words.py `duration_words`;
// the browser's Intl.DurationFormat says them in the page's language. Without it the
// server's text simply stays. A stopped clock (the game paused, or its player away:
// games/online/pause.py) comes without data-deadline, so its time stays as it is; the
// same clocks count down on My games.
(function () {
  "use strict";
  if (!window.Intl || !Intl.DurationFormat) {
    return;
  }
  var format = new Intl.DurationFormat(document.documentElement.lang || "en", { style: "long" });

  function words(element, seconds) {
    if (seconds <= 0) {
      return element.getAttribute("data-up");
    }
    var minutes = Math.floor(seconds / 60);
    if (minutes < 1) {
      return element.getAttribute("data-soon");
    }
    var units = [
      ["days", Math.floor(minutes / 1440)],
      ["hours", Math.floor(minutes / 60) % 24],
      ["minutes", minutes % 60],
    ];
    var first = 0;
    while (!units[first][1]) {
      first += 1;
    }
    var duration = {};
    duration[units[first][0]] = units[first][1];
    if (first < 2 && units[first + 1][1]) {
      duration[units[first + 1][0]] = units[first + 1][1];
    }
    return format.format(duration);
  }

  function tick() {
    var clocks = document.querySelectorAll("[data-time-left][data-deadline]");
    for (var i = 0; i < clocks.length; i += 1) {
      var deadline = Date.parse(clocks[i].getAttribute("data-deadline"));
      if (isNaN(deadline)) {
        continue;
      }
      var text = words(clocks[i], (deadline - Date.now()) / 1000);
      if (text && clocks[i].textContent !== text) {
        clocks[i].textContent = text;
      }
    }
  }

  setInterval(tick, 10000);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSettle", tick);
})();
