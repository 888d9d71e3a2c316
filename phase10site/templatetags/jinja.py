"""`{% jinja "games/online/standings.html" %}`: a Jinja2 partial (phase10site/jinja.py)
drawn inside a Django template with that template's context, so a partial shared by a
hot answer (Jinja2) and a page (Django's templates) is written once."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString

from ..jinja import render

register = template.Library()


@register.simple_tag(takes_context=True)
def jinja(context: template.Context, name: str, **extra: Any) -> SafeString:
    values: dict[str, Any] = {str(key): value for key, value in context.flatten().items()}
    values.update(extra)
    request = values.pop("request", None)
    return render(name, values, request)
