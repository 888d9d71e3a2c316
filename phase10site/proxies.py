"""The client's address behind `PROXY_COUNT` reverse proxies, for the login rate limit.

django-axes asks `AXES_CLIENT_IP_CALLABLE` (settings.py) for the address it locks out.
Each proxy appends the address it received the request from to X-Forwarded-For, and the
last proxy is the one that connects to us (REMOTE_ADDR). So behind N proxies the client
is the N-th address from the right of X-Forwarded-For; everything to its left came from
the client and may be forged ("X-Forwarded-For: <anyone's address>"), so it is never read.

Without a proxy (the default) the header is ignored: anyone can send it. A header with
fewer addresses than proxies, or with something that isn't an address where the client
should be, means the request didn't come through the proxies as configured: the
connecting address (REMOTE_ADDR) counts then, never text from the header.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    """The address a login attempt counts against.

    >>> from django.test import RequestFactory
    >>> from django.test.utils import override_settings
    >>> request = RequestFactory().get(
    ...     "/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.9"
    ... )
    >>> with override_settings(PROXY_COUNT=1):
    ...     client_ip(request)
    '203.0.113.9'
    >>> with override_settings(PROXY_COUNT=0):
    ...     client_ip(request)
    '10.0.0.1'
    """
    remote = request.META.get("REMOTE_ADDR") or None
    proxies = int(getattr(settings, "PROXY_COUNT", 0) or 0)
    if proxies <= 0:
        return remote
    forwarded = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(forwarded) < proxies:
        return remote
    try:
        return str(ipaddress.ip_address(forwarded[-proxies]))
    except ValueError:
        return remote
