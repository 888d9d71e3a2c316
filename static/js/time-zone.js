// The browser's time zone (an IANA name such as "Australia/Sydney"), for quiet hours and
// the digest's hour. Every form works without this file: the server checks the zone
// against the ones it knows and falls back to what it had (UTC for a new account).
(function () {
  "use strict";
  var zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (error) {
    return;
  }
  if (!zone) return;

  // Sign-up: the hidden field.
  document.querySelectorAll("input[data-browser-time-zone]").forEach(function (input) {
    if (!input.value) input.value = zone;
  });

  // The account page: offer the browser's zone when the account has another one.
  document.querySelectorAll("[data-time-zone-offer]").forEach(function (offer) {
    if (offer.getAttribute("data-time-zone-offer") === zone) return;
    var input = offer.querySelector("input[name=time_zone]");
    if (!input) return;
    input.value = zone;
    offer.querySelectorAll("[data-browser-zone-name]").forEach(function (name) {
      name.textContent = zone;
    });
    offer.hidden = false;
  });
})();
