// Game nights with no signal (issue 16).
// Every page: registers the service worker (the installable web app keeps the pages of
// game nights for offline use), shows a banner while there is no connection and turns
// off the forms that need one. A night's page: a round entered with no connection, or
// whose post failed on the network, is kept on this phone (IndexedDB), drawn at once
// under the rounds as "not sent yet" with the totals and phases it implies, and sent by
// itself, in order, when the connection is back (each with a key, the version it was
// entered against and its number: the server applies it once, and answers a round
// another scorer entered meanwhile as a conflict, which the host resolves here).
// Online, the round form posts through htmx as ever: nothing here adds a request to it.
(function () {
  "use strict";
  var DB_NAME = "phase10-offline";
  var STORE = "nights";
  var PAGES_CACHE = "phase10-pages"; // the service worker's (templates/sw.js)
  var pending = []; // this night's kept rounds, in the order they were entered
  var flushing = false;
  var held = ""; // why the server didn't take them: "log_in", "later", or "" (it did)

  function section() { return document.getElementById("offline-rounds"); }
  function roundForm() { return section() && document.querySelector("form[data-offline-round]"); }
  function online() { return navigator.onLine !== false; }

  // --- the rounds kept on this phone: one record per night --------------------------------
  function withStore(mode, work) {
    return new Promise(function (resolve, reject) {
      var opening = indexedDB.open(DB_NAME, 1);
      opening.onupgradeneeded = function () {
        opening.result.createObjectStore(STORE, { keyPath: "night" });
      };
      opening.onerror = function () { reject(opening.error); };
      opening.onsuccess = function () {
        var db = opening.result;
        var tx = db.transaction(STORE, mode);
        var result;
        work(tx.objectStore(STORE), function (value) { result = value; });
        tx.oncomplete = function () { db.close(); resolve(result); };
        tx.onerror = tx.onabort = function () { db.close(); reject(tx.error); };
      };
    });
  }

  // change(rounds) returns the rounds to keep; read and write in one transaction.
  function update(night, change) {
    return withStore("readwrite", function (store, done) {
      var reading = store.get(night);
      reading.onsuccess = function () {
        var rounds = change(reading.result ? reading.result.rounds : []);
        if (rounds.length) store.put({ night: night, rounds: rounds });
        else store.delete(night);
        done(rounds);
      };
    }).then(function (rounds) { pending = rounds; return rounds; });
  }

  function reload(night) { return update(night, function (rounds) { return rounds; }); }

  function valuesOf(round) {
    var values = {};
    round.fields.forEach(function (pair) { values[pair[0]] = pair[1]; });
    return values;
  }

  // --- keeping a round ---------------------------------------------------------------------
  function complete(form) {
    var out = new FormData(form).get("went_out");
    if (out === null || out === "") return false;
    return Array.prototype.every.call(form.querySelectorAll("input[name^=points_]"), function (input) {
      var value = input.value.trim();
      if (value === "") return input.name === "points_" + out;
      var points = Number(value);
      return Number.isInteger(points) && points >= 0 && points % 5 === 0;
    });
  }

  function say(form, text) {
    var line = form.querySelector("[data-offline-say]");
    if (!line) {
      line = document.createElement("p");
      line.className = "message";
      line.setAttribute("role", "status");
      line.setAttribute("data-offline-say", "");
      var actions = form.querySelector(".form-actions");
      form.insertBefore(line, actions || null);
    }
    line.textContent = text;
  }

  function keep(form) {
    var box = section();
    if (!complete(form)) { say(form, box.dataset.textCheck); return; }
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") fields.push([name, String(value)]);
    });
    var last = pending[pending.length - 1];
    var number = Math.max(Number(form.dataset.offlineRound), last ? last.number + 1 : 0);
    var round = {
      key: crypto.randomUUID(), // secure contexts only, as service workers
      version: form.elements.version.value,
      number: number,
      fields: fields,
      problem: null
    };
    update(box.dataset.offlineNight, function (rounds) { return rounds.concat([round]); })
      .then(function () {
        form.reset();
        form.querySelectorAll("[data-went-out-tag]").forEach(function (tag) { tag.hidden = true; });
        form.querySelectorAll("[data-filled-from]").forEach(function (field) { field.removeAttribute("data-filled-from"); });
        draw();
        say(form, box.dataset.textKept);
        flush();
      });
  }

  // --- drawing the kept rounds: a small fold of what the server will decide --------------
  function draw() {
    var box = section();
    if (!box) return;
    var pick = box.dataset.pick === "1";
    var allAdvance = box.dataset.allAdvance === "1";
    var phases = box.dataset.phases.split(",").map(Number);
    var seats = Array.prototype.map.call(box.querySelectorAll("th[data-seat]"), function (th) {
      return {
        position: th.dataset.seat,
        total: Number(th.dataset.total),
        phase: th.dataset.phase ? Number(th.dataset.phase) : null,
        completed: th.dataset.completed ? th.dataset.completed.split(",").map(Number) : []
      };
    });
    var body = box.querySelector("[data-offline-body]");
    body.textContent = "";
    pending.forEach(function (round) {
      var values = valuesOf(round);
      var row = document.createElement("tr");
      row.className = "offline-round" + (round.problem ? " problem" : "");
      var head = document.createElement("th");
      head.scope = "row";
      head.textContent = round.number + " · " + box.dataset.textPending;
      row.appendChild(head);
      seats.forEach(function (seat) {
        var points = parseInt(values["points_" + seat.position], 10) || 0;
        var mark = values["completed_" + seat.position];
        var laid = null;
        if (pick && mark) laid = Number(mark);
        else if (!pick && mark && seat.phase !== null) laid = seat.phase;
        seat.total += points;
        if (laid !== null) seat.completed.push(laid);
        // All advance: everyone moves on to the next phase after each round, laid or not.
        if (!pick && (laid !== null || allAdvance)) seat.phase = phases[phases.indexOf(seat.phase) + 1] || null;
        var cell = document.createElement("td");
        cell.className = "num" + (values.went_out === seat.position ? " out" : "");
        cell.textContent = points;
        if (laid !== null) {
          var tick = document.createElement("bdi");
          tick.className = "mark";
          tick.dir = "ltr";
          tick.textContent = "✓" + laid;
          cell.appendChild(tick);
        }
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
    seats.forEach(function (seat) {
      box.querySelector('[data-offline-total="' + seat.position + '"]').textContent = seat.total;
      box.querySelector('[data-offline-phase="' + seat.position + '"]').textContent =
        pick ? seat.completed.join(" · ") : seat.phase === null ? "✓" : seat.phase;
    });
    drawProblems(box);
    box.querySelector("[data-offline-log-in]").hidden = held !== "log_in";
    box.querySelector("[data-offline-later]").hidden = held !== "later";
    box.hidden = pending.length === 0;
    var stale = document.querySelector("[data-offline-stale]");
    if (stale) stale.hidden = pending.length === 0;
    var form = roundForm();
    if (form) updateForm(form, seats, pick);
  }

  function drawProblems(box) {
    var list = box.querySelector("[data-offline-problems]");
    list.textContent = "";
    pending.forEach(function (round) {
      if (!round.problem) return;
      var panel = document.createElement("div");
      panel.className = "message error offline-problem";
      panel.setAttribute("role", "alert");
      var text = document.createElement("p");
      text.textContent = round.problem.message;
      panel.appendChild(text);
      if (round.problem.status === "conflict" && round.problem.edit_url) {
        panel.appendChild(button(box.dataset.textKeep.replace("{n}", round.number), "data-offline-keep", round.key));
      }
      panel.appendChild(button(box.dataset.textDiscard, "data-offline-discard", round.key));
      list.appendChild(panel);
    });
  }

  function button(label, attribute, key) {
    var control = document.createElement("button");
    control.type = "button";
    control.textContent = label;
    control.setAttribute(attribute, key);
    return control;
  }

  // The form says which round it enters next, and each player's phase, after the kept ones.
  function updateForm(form, seats, pick) {
    var last = pending[pending.length - 1];
    var next = String(Math.max(Number(form.dataset.offlineRound), last ? last.number + 1 : 0));
    var shown = form.dataset.offlineShown || form.dataset.offlineRound;
    form.querySelectorAll("h2, button[type=submit]").forEach(function (element) {
      renumber(element, shown, next);
    });
    form.dataset.offlineShown = next;
    seats.forEach(function (seat) {
      var field = form.elements["completed_" + seat.position];
      if (!field) return;
      if (pick) {
        Array.prototype.forEach.call(field.options || [], function (option) {
          option.disabled = option.value !== "" && seat.completed.indexOf(Number(option.value)) >= 0;
        });
        return;
      }
      // Drawn with the phase each player was on at this version (the table's head says).
      var fieldset = field.closest("fieldset");
      var head = section().querySelector('th[data-seat="' + seat.position + '"]');
      var shownPhase = field.dataset.offlinePhase || (head ? head.dataset.phase : "");
      if (!fieldset || seat.phase === null) return;
      fieldset.querySelectorAll("legend .muted, label[for='" + field.id + "']").forEach(function (element) {
        renumber(element, shownPhase, String(seat.phase));
      });
      field.dataset.offlinePhase = String(seat.phase);
    });
  }

  function renumber(element, from, to) {
    if (!from || from === to) return;
    var pattern = new RegExp("(^|[^0-9])" + from + "(?![0-9])", "g");
    var walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      node.nodeValue = node.nodeValue.replace(pattern, "$1" + to);
    }
  }

  // --- sending, in order -------------------------------------------------------------------
  function csrfToken() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function send(box, round) {
    var body = new FormData();
    round.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    body.set("key", round.key);
    body.set("number", round.number);
    body.set("version", round.version);
    body.set("csrfmiddlewaretoken", csrfToken());
    return fetch(box.dataset.queueUrl, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken() }
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") === 0) return response.json();
      // Not the server's answer: the log-in page (the session ended) or a refused CSRF
      // token, which logging in again mends; else a proxy's error page. Kept either way.
      var logIn = response.redirected || response.status === 401 || response.status === 403;
      return { status: logIn ? "log_in" : "later" };
    });
  }

  function flush() {
    var box = section();
    if (flushing || !box || !online() || !pending.length) return;
    // The host is confirming a correction: it decides first (then the send is answered).
    if (document.querySelector('#game .correction input[name="confirm"]')) return;
    flushing = true;
    var night = box.dataset.offlineNight;
    var changed = false;
    function finish() {
      flushing = false;
      draw();
      if (changed) refreshGame();
    }
    function step() {
      var round = pending[0];
      if (!round || round.problem) return finish(); // in order: a problem waits for the host
      return send(box, round).then(function (answer) {
        held = answer.status === "log_in" ? "log_in" : "";
        if (answer.status === "applied" || answer.status === "already_applied") {
          changed = true;
          return update(night, function (rounds) { return without(rounds, round.key); }).then(step);
        }
        if (answer.status === "conflict" || answer.status === "refused") {
          changed = true; // the host decides with the night as the server has it now
          return update(night, function (rounds) {
            return rounds.map(function (kept) {
              if (kept.key === round.key) kept.problem = answer;
              return kept;
            });
          }).then(finish);
        }
        held = held || "later"; // "retry", or an answer that isn't the server's
        return finish();
      }, finish);
    }
    reload(night).then(step, finish);
  }

  function without(rounds, key) {
    return rounds.filter(function (round) { return round.key !== key; });
  }

  // The scoreboard as the server has it now (the winner and the tie-breaker are its call).
  // A request that swaps #game waits for this one: htmx would put its answer into the
  // #game this one replaced (out of the page) — the host's correction would not show.
  var refreshing = Promise.resolve();
  function refreshGame() {
    if (window.htmx && document.getElementById("game")) {
      refreshing = window.htmx.ajax("GET", location.pathname, { target: "#game", swap: "outerHTML" });
    } else {
      location.reload();
    }
  }

  // The host's answer to a conflict or a refusal.
  document.addEventListener("click", function (event) {
    var control = event.target.closest("[data-offline-keep], [data-offline-discard]");
    var box = section();
    if (!control || !box) return;
    var night = box.dataset.offlineNight;
    if (control.hasAttribute("data-offline-discard")) {
      var key = control.getAttribute("data-offline-discard");
      update(night, function (rounds) { return without(rounds, key); }).then(draw).then(flush);
      return;
    }
    keepAsCorrection(night, control.getAttribute("data-offline-keep"));
  });

  function keepAsCorrection(night, key) {
    var round = pending.filter(function (kept) { return kept.key === key; })[0];
    if (!round || !online() || !window.htmx) return;
    var values = valuesOf(round);
    values.version = String(round.problem.version);
    values.csrfmiddlewaretoken = csrfToken();
    delete values.confirm;
    refreshing.then(function () {
      return window.htmx.ajax("POST", round.problem.edit_url, { target: "#game", swap: "outerHTML", values: values });
    })
      .then(function () {
        var refused = document.querySelector("#game > .message.error:not([hidden]), #game .round-form .errorlist");
        // A correction after the night's end waits for the host's confirmation: nothing is
        // saved yet, so the round stays on the phone (once confirmed, the next send is
        // answered "already applied" and it goes).
        var unconfirmed = document.querySelector('#game .correction input[name="confirm"]');
        // Refused (the game moved again): ask the server afresh; else it is the server's now.
        return update(night, function (rounds) {
          if (!refused && !unconfirmed) return without(rounds, key);
          return rounds.map(function (kept) {
            if (kept.key === key) kept.problem = null;
            return kept;
          });
        });
      })
      .then(function () { draw(); flush(); });
  }

  // --- the round form: online as ever; kept on the phone when there is no connection ------
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (form.matches("form[data-offline-round]") && section()) {
      // Rounds kept earlier go first: a new one waits behind them, in order.
      if (online() && !pending.length) return;
      event.preventDefault();
      event.stopPropagation();
      keep(form);
      return;
    }
    if (!online()) {
      event.preventDefault();
      event.stopPropagation();
      showConnection();
    } else if (form.hasAttribute("data-forget-pages") && window.caches) {
      // Logging out: the pages kept for offline use go (rounds not sent yet stay).
      caches.delete(PAGES_CACHE);
    }
  }, true);

  // The post left while the phone thought it was online, and failed on the way.
  document.addEventListener("htmx:sendError", function (event) {
    var form = event.detail.elt;
    if (form instanceof HTMLFormElement && form.matches("form[data-offline-round]") && section()) {
      keep(form);
    } else {
      showConnection(true);
    }
  });

  // --- the banner, and what needs a connection ---------------------------------------------
  function showConnection(failed) {
    var offline = !online() || failed === true;
    var banner = document.querySelector("[data-offline-banner]");
    if (banner) banner.hidden = !offline;
    var exempt = roundForm();
    document.querySelectorAll("form").forEach(function (form) {
      if (form === exempt) return;
      form.querySelectorAll("button:not([type=button]), input[type=submit], select[data-submit-on-change]").forEach(function (control) {
        if (offline && !online() && !control.disabled) {
          control.disabled = true;
          control.setAttribute("data-offline-disabled", "");
        } else if (online() && control.hasAttribute("data-offline-disabled")) {
          control.disabled = false;
          control.removeAttribute("data-offline-disabled");
        }
      });
    });
  }

  // A page of game nights kept as it is now, for when it is opened with no connection
  // (the service worker keeps what the network sends; an htmx change is kept from here).
  function keepPage() {
    if (!online() || !window.caches || !/^\/nights\//.test(location.pathname)) return;
    var html = "<!doctype html>\n" + document.documentElement.outerHTML;
    caches.open(PAGES_CACHE).then(function (cache) {
      var page = new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
      return cache.put(location.pathname + location.search, page);
    }).catch(function () {});
  }

  function start() {
    showConnection();
    var box = section();
    if (box && window.indexedDB) {
      reload(box.dataset.offlineNight).then(function () { draw(); flush(); });
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    start();
    if (!(navigator.serviceWorker && navigator.serviceWorker.controller)) keepPage();
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (!(event.target instanceof Element) || event.target.id !== "game") return;
    start();
    keepPage();
  });
  window.addEventListener("online", function () { showConnection(); flush(); });
  window.addEventListener("offline", function () { showConnection(); });
  setInterval(function () { if (pending.length) flush(); }, 30000);

  var banner = document.querySelector("[data-offline-banner]");
  if ("serviceWorker" in navigator && banner && banner.dataset.serviceWorker) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register(banner.dataset.serviceWorker, { scope: "/" }).catch(function () {});
    });
  }
})();
