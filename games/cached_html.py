"""HTML drawn once and served to many requests from the cache (an online board, a page
of game nights): the one thing in it that differs per request, the CSRF token, is drawn
as a slot and filled in per request. Django's `{% csrf_token %}` draws the slot given
`csrf_token=CSRF_SLOT` in the context; a Jinja2 partial's `{{ csrf_input }}` given
`csrf_input=CSRF_INPUT`."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.safestring import SafeString

from phase10site.context_processors import request_csrf_token

CSRF_SLOT = "__csrf_token_slot__"
CSRF_INPUT = SafeString(f'<input type="hidden" name="csrfmiddlewaretoken" value="{CSRF_SLOT}">')


def with_csrf(html: str, request: HttpRequest) -> str:
    """`html` (drawn with autoescaping, so the slot can only be ours) with this
    request's CSRF token in its slots."""
    return html.replace(CSRF_SLOT, request_csrf_token(request)) if CSRF_SLOT in html else html
