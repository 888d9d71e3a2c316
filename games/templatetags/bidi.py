"""Names people chose, inside sentences, so an Arabic name in an English sentence, or a
Latin one in an Arabic sentence ("Sara! في الصدارة."), keeps its own direction and can't
reorder the words and punctuation around it.

- HTML: `{{ name|bdi }}` wraps one in <bdi> (escaped); `bdi_names` lists several,
  each wrapped ("<bdi>Ann</bdi> and <bdi>Bo</bdi>"). Django's and the Jinja2 partials'
  templates alike (phase10site/jinja.py).
- Plain text (emails, subjects, a page's <title>): `{{ name|isolated }}` puts it between
  FSI and PDI in a right-to-left language (games/words.py `isolated`)."""

from collections.abc import Iterable

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from ..words import isolated as isolated_text
from ..words import names_words

register = template.Library()


@register.filter
def bdi(name: object) -> SafeString:
    return format_html("<bdi>{}</bdi>", name)


@register.filter
def bdi_names(names: Iterable[object]) -> SafeString:
    """'<bdi>Ann</bdi>, <bdi>Bo</bdi> and <bdi>Cy</bdi>': `names_words` in HTML, the
    names escaped, the catalogue's words trusted as `{% translate %}` trusts them."""
    return mark_safe(names_words([bdi(name) for name in names]))


@register.filter
def isolated(name: object) -> str:
    return isolated_text(str(name))
