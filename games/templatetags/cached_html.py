"""`{{ html|with_csrf:csrf_token }}`: HTML from the cache (games/cached_html.py) with this
request's CSRF token in its slots."""

from django import template
from django.utils.safestring import SafeString, mark_safe

from games.cached_html import with_token

register = template.Library()


@register.filter
def with_csrf(html: SafeString, token: object) -> SafeString:
    return mark_safe(with_token(html, str(token)))  # noqa: S308  # our own cached HTML
