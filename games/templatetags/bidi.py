"""Names people chose, inside sentences: `{{ name|bdi }}` wraps one in <bdi> so an
Arabic name in an English sentence, or a Latin one in an Arabic sentence, keeps its own
direction and can't reorder the words and punctuation around it. The name is escaped."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.filter
def bdi(name: object) -> SafeString:
    return format_html("<bdi>{}</bdi>", name)
