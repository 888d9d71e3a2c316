"""`{% card code %}`: a card shown by `games/cards/card.html`, with number, colour initial
and symbol, and a spoken name, so colour is never the only clue. `{% card code pick=True %}`
wraps it in a checkbox to select it in the hand; `drawn=True` marks it as the card just
drawn (a ★ and, for screen readers, "just drawn" in its name).

A board shows dozens of cards on every poll, and a card looks the same every time in a
given language: each (card, language, pick, just drawn) is rendered from the template
once per process and then reused.
"""

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from games.words import card_face

register = template.Library()

_RENDERED: dict[tuple[str, str, bool, bool], SafeString] = {}


@register.simple_tag
def card(code: str, pick: bool = False, drawn: bool = False) -> SafeString:
    key = (str(code), get_language() or "", bool(pick), bool(drawn))
    html = _RENDERED.get(key)
    if html is None:
        context = {**card_face(key[0]), "pick": key[2], "drawn": key[3]}
        html = _RENDERED[key] = SafeString(
            render_to_string("games/cards/card.html", context).strip()
        )
    return html
