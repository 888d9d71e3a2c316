"""HTML drawn once and served to many requests from the cache (an online board, a page
of game nights): the one thing in it that differs per request, the CSRF token, is drawn
as a slot and filled in per request. Django's `{% csrf_token %}` draws the slot given
`csrf_token=CSRF_SLOT` in the context; a Jinja2 partial's `{{ csrf_input }}` given
`csrf_input=CSRF_INPUT`."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.html import format_html

from phase10site.context_processors import CSRF_FIELD, request_csrf_token

CSRF_SLOT = "__csrf_token_slot__"
CSRF_INPUT = format_html(CSRF_FIELD, CSRF_SLOT)


def with_csrf(html: str, request: HttpRequest) -> str:
    """`html` (drawn with autoescaping, so the slot can only be ours) with this
    request's CSRF token in its slots."""
    return with_token(html, request_csrf_token(request))


def with_token(html: str, token: str) -> str:
    """`html` with `token` in its CSRF slots."""
    return html.replace(CSRF_SLOT, token) if CSRF_SLOT in html else html
