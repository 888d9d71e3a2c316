{% load static %}// Phase 10 Club's service worker (served at /sw.js by games/nights/offline_views.py, so
// its scope is the whole site). It only answers GET requests of this site; a form's
// POST, htmx's requests included, goes to the network untouched, so a round saved
// online costs no extra request. Pages of game nights are network first: the answer
// is kept, and when there is no connection the last one kept is shown. Static files
// are network first too (the browser's HTTP cache still answers first). A page never
// opened with a connection gets the offline page. Rounds entered with no connection are
// static/js/offline.js's business, not this file's.
"use strict";

// Named after the files' addresses: a new list (new hashed names) is a new cache.
var STATIC_CACHE = "phase10-static-{{ cache_name }}";
var PAGES_CACHE = "phase10-pages";
var OFFLINE_URL = "{% url 'games:offline' %}";
var STATIC_PREFIX = "{{ static_prefix }}";
var PRECACHE = [{% for url in precache %}"{{ url }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
// The pages kept for offline use: the game nights (the list, a night, a round).
var KEPT_PAGES = /^\/nights\//;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(STATIC_CACHE)
      .then(function (cache) {
        // One file missing (renamed since) leaves the others kept, not the worker uninstalled.
        return Promise.all(PRECACHE.map(function (url) {
          return cache.add(url).catch(function () {});
        }));
      })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("phase10-static-") === 0 && name !== STATIC_CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    var keep = KEPT_PAGES.test(url.pathname);
    event.respondWith(networkFirst(request, keep ? PAGES_CACHE : null));
  } else if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(networkFirst(request, STATIC_CACHE));
  }
});

function networkFirst(request, cacheName) {
  return fetch(request).then(function (response) {
    if (cacheName && response.ok && response.type === "basic" && !response.redirected) {
      var copy = response.clone();
      caches.open(cacheName).then(function (cache) { return cache.put(request, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(request, { ignoreVary: true })
      .then(function (kept) {
        if (kept) return kept;
        if (request.mode === "navigate") return caches.match(OFFLINE_URL, { ignoreVary: true });
        return Response.error();
      })
      .then(function (answer) { return answer || Response.error(); });
  });
}
