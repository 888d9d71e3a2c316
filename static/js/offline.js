// Game nights with no signal (issue 16).
// Every page: registers the service worker (the installable web app keeps the pages of
// game nights for offline use), shows a banner while there is no connection and turns
// off the forms that need one. A night's page: a round entered with no connection, or
// whose post failed on the network, is kept on this phone (IndexedDB), drawn at once
// under the rounds as "not sent yet" with the totals and phases it implies, and sent by
// itself, in order, when the connection is back (each with a key, the version it was
// entered against and its number: the server applies it once, and answers a round
// another scorer entered meanwhile as a conflict, which the host resolves here; a round
// it refused, the host corrects in its place in the queue).
// While rounds wait, the top of the game says the round and dealer they lead to, and what
// needs the host (a conflict, a refusal, logging in again) is the first thing on it.
// Online, the round form posts through htmx as ever: nothing here adds a request to it.
(function () {
  "use strict";
  var DB_NAME = "phase10-offline";
  var STORE = "nights";
  var PAGES_CACHE = "phase10-pages"; // the service worker's (templates/sw.js)
  var pending = []; // this night's kept rounds, in the order they were entered
  var flushing = false;
  var held = ""; // why the server didn't take them: "log_in", "later", or "" (it did)
  var editing = null; // the key of the kept round the form corrects, or null

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
  // What is wrong with the round typed, as the server would say it ("" when nothing is).
  function problemOf(form, box) {
    var out = new FormData(form).get("went_out");
    var problem = out === null || out === "" ? box.dataset.textCheck : "";
    Array.prototype.forEach.call(form.querySelectorAll("input[name^=points_]"), function (input) {
      var value = input.value.trim();
      var points = Number(value);
      if (problem) return;
      if (value === "") {
        if (input.name !== "points_" + out) problem = box.dataset.textCheck;
      } else if (Number.isInteger(points) && points < 0) {
        problem = box.dataset.textNegative;
      } else if (!Number.isInteger(points) || points % 5 !== 0) {
        problem = box.dataset.textMultiple;
      }
    });
    return problem;
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
    var problem = problemOf(form, box);
    if (problem) { say(form, problem); return; }
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") fields.push([name, String(value)]);
    });
    var corrected = editing;
    if (corrected) {
      // A refused round, corrected where it stands in the queue: same key, number, version.
      editing = null;
      update(box.dataset.offlineNight, function (rounds) {
        return rounds.map(function (kept) {
          if (kept.key === corrected) { kept.fields = fields; kept.problem = null; }
          return kept;
        });
      }).then(function () { cleared(form); say(form, box.dataset.textKept); flush(); });
      return;
    }
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
        cleared(form);
        say(form, box.dataset.textKept);
        flush();
      });
  }

  function cleared(form) {
    form.reset();
    form.querySelectorAll("[data-went-out-tag]").forEach(function (tag) { tag.hidden = true; });
    form.querySelectorAll("[data-filled-from]").forEach(function (field) { field.removeAttribute("data-filled-from"); });
    draw();
  }

  // The form, filled with a kept round for the host to correct: after a redraw of #game
  // under way (the server's answer to the queue), which would otherwise put an empty form
  // over the filled one.
  function correct(key) {
    var fill = function () { fillForCorrection(key); };
    refreshing.then(fill, fill);
  }

  function fillForCorrection(key) {
    var form = roundForm();
    var round = pending.filter(function (kept) { return kept.key === key; })[0];
    if (!form || !round) return;
    form.reset();
    var values = valuesOf(round);
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.type === "hidden") return;
      var value = values[field.name];
      if (field.type === "radio") field.checked = value === field.value;
      else if (field.type === "checkbox") field.checked = value !== undefined;
      else if (value !== undefined) field.value = value;
    });
    editing = key;
    draw();
    form.scrollIntoView({ block: "start" });
    var first = form.querySelector("input[name=went_out]:checked") || form.querySelector("input[name=went_out]");
    if (first) first.focus({ preventScroll: true });
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
    var formSeats = null; // where the players stand for the round the form enters
    var counted = 0;
    pending.forEach(function (round) {
      var values = valuesOf(round);
      // The server's totals already hold the other phone's round of this number: until the
      // host chooses, this one is shown but not counted (nor its phases).
      var contested = Boolean(round.problem && round.problem.status === "conflict");
      if (round.key === editing) formSeats = copied(seats);
      var row = document.createElement("tr");
      row.className = "offline-round" + (round.problem ? " problem" : "");
      var head = document.createElement("th");
      head.scope = "row";
      head.textContent = round.number + " · " + (contested ? box.dataset.textContested : box.dataset.textPending);
      row.appendChild(head);
      if (!contested) counted += 1;
      seats.forEach(function (seat) {
        var points = parseInt(values["points_" + seat.position], 10) || 0;
        var mark = values["completed_" + seat.position];
        var laid = null;
        if (pick && mark) laid = Number(mark);
        else if (!pick && mark && seat.phase !== null) laid = seat.phase;
        if (!contested) {
          seat.total += points;
          if (laid !== null) seat.completed.push(laid);
          // All advance: everyone moves on to the next phase after each round, laid or not.
          if (!pick && (laid !== null || allAdvance)) seat.phase = phases[phases.indexOf(seat.phase) + 1] || null;
        }
        var cell = document.createElement("td");
        cell.className = "num" + (values.went_out === seat.position ? " out" : "");
        cell.textContent = points;
        if (laid !== null || (contested && mark)) {
          var tick = document.createElement("bdi");
          tick.className = "mark";
          tick.dir = "ltr";
          // Which phase the other phone's round left them on isn't this phone's to say.
          tick.textContent = contested && !pick ? "✓" : "✓" + (laid !== null ? laid : mark);
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
    var alerts = document.getElementById("offline-alerts");
    if (alerts) {
      alerts.querySelector("[data-offline-log-in]").hidden = held !== "log_in";
      alerts.querySelector("[data-offline-later]").hidden = held !== "later";
    }
    box.hidden = pending.length === 0;
    var stale = document.querySelector("[data-offline-stale]");
    if (stale) stale.hidden = pending.length === 0;
    var summary = document.getElementById("round-summary");
    if (summary && pending.length) summary.hidden = true; // it told of a round before these
    var form = roundForm();
    if (form) {
      updateForm(form, formSeats || seats, pick);
      drawRoundLine(box, form, counted);
    }
  }

  function copied(seats) {
    return seats.map(function (seat) {
      return { position: seat.position, total: seat.total, phase: seat.phase, completed: seat.completed.slice() };
    });
  }

  // The round line on top says the round next to enter and who deals it, after the rounds
  // kept here (the dealer moves one seat on each round); the standings' tags would be a
  // round behind, so they wait for the server.
  function drawRoundLine(box, form, counted) {
    var line = document.querySelector(".scoreboard .round-line");
    var heads = Array.prototype.slice.call(box.querySelectorAll("th[data-seat]"));
    var dealerHead = box.querySelector("th[data-seat][data-dealer]");
    if (!line || !dealerHead || !line.querySelector(".chip.deal")) return;
    var count = heads.length;
    var dealer = (heads.indexOf(dealerHead) + counted) % count;
    // A name kept in its own direction in a right-to-left sentence (as words.isolated does).
    var rtl = document.documentElement.dir === "rtl";
    var name = function (index) { return rtl ? "\u2068" + heads[index].title + "\u2069" : heads[index].title; };
    line.querySelector("strong").textContent =
      box.dataset.textRound.replace("{n}", Number(form.dataset.offlineRound) + counted);
    line.querySelector(".chip.deal").textContent = box.dataset.textDeals.replace("{name}", name(dealer));
    line.querySelector(".chip.first").textContent =
      box.dataset.textFirst.replace("{name}", name((dealer + 1) % count));
    document.querySelectorAll(".scoreboard [data-deal-tag]").forEach(function (tag) {
      tag.hidden = counted > 0;
    });
  }

  function drawProblems(box) {
    var list = document.querySelector("#offline-alerts [data-offline-problems]");
    if (!list) return;
    list.textContent = "";
    pending.forEach(function (round) {
      if (!round.problem) return;
      var panel = document.createElement("div");
      panel.className = "message error offline-problem";
      panel.setAttribute("role", "alert");
      var text = document.createElement("p");
      text.textContent = round.problem.message;
      panel.appendChild(text);
      var differences = round.problem.differences || [];
      if (differences.length) {
        var items = document.createElement("ul");
        differences.forEach(function (difference) {
          var item = document.createElement("li");
          item.textContent = difference;
          items.appendChild(item);
        });
        panel.appendChild(items);
      }
      var actions = document.createElement("div");
      actions.className = "button-row";
      if (round.problem.status === "conflict" && round.problem.edit_url) {
        actions.appendChild(button(box.dataset.textKeep.replace("{n}", round.number), "data-offline-keep", round.key));
      }
      if (round.problem.status === "refused" && roundForm()) {
        actions.appendChild(button(box.dataset.textCorrect.replace("{n}", round.number), "data-offline-correct", round.key));
      }
      actions.appendChild(button(box.dataset.textDiscard, "data-offline-discard", round.key));
      panel.appendChild(actions);
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
    var corrected = pending.filter(function (kept) { return kept.key === editing; })[0];
    if (corrected) next = String(corrected.number);
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
    var control = event.target.closest("[data-offline-keep], [data-offline-discard], [data-offline-correct]");
    var box = section();
    if (!control || !box) return;
    var night = box.dataset.offlineNight;
    if (control.hasAttribute("data-offline-correct")) {
      correct(control.getAttribute("data-offline-correct"));
      return;
    }
    if (control.hasAttribute("data-offline-discard")) {
      var key = control.getAttribute("data-offline-discard");
      if (editing === key) editing = null;
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
    // A correction under way survives a redraw of the game (a fresh, empty form).
    if (editing) fillForCorrection(editing);
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
