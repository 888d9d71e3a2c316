"""{% once %}…{% endonce %}: markup drawn once per process and language.

For the parts of base.html that every page draws alike: the head's links, the menu,
the footer. Their translations, static URLs and links depend only on the language, the
script prefix and the settings, so each block is rendered the first time and its HTML
reused by every later request in the same language. Anything a request or a user
changes (the CSRF token, the username, the your-turn count, messages) stays outside,
between the blocks; a block may vary on a few template values given as arguments
(`{% once user.is_authenticated %}`), which must be shared by many users, never one
user's own data.

The memory is per process and small (blocks × languages × argument values); a change
of settings (`override_settings` in tests) empties it, and a template reloaded in
development is a new node with keys of its own.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.core.signals import setting_changed
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.loader_tags import BlockNode
from django.urls import get_script_prefix
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

register = template.Library()

# (node, language, script prefix, *argument values) -> the block's HTML.
_drawn: dict[tuple[Any, ...], SafeString] = {}
# A bound, in case arguments take more values than expected.
LIMIT = 1000


def forget(**_kwargs: object) -> None:
    _drawn.clear()


setting_changed.connect(forget, dispatch_uid="phase10site.once.forget")


class OnceNode(template.Node):
    # Template walks don't go in: {% extends %} walks the root template's nodes for its
    # {% block %}s on every render, base.html's once blocks are most of them, and a
    # block is refused inside one (do_once). (An {% extends %} inside one, which
    # Django's check for a second extends would then miss, means nothing there anyway.)
    child_nodelists = ()

    def __init__(self, nodelist: NodeList, vary: list[FilterExpression]) -> None:
        self.nodelist = nodelist
        self.vary = vary

    def render(self, context: template.Context) -> SafeString:
        if getattr(context, "request", None) is None or context.get("csp_nonce"):
            # Drawn without a request, the context processors' values (the links, the
            # languages) are missing: nothing to keep. A nonce is the request's own.
            return self.nodelist.render(context)
        key = (
            self,
            get_language(),
            get_script_prefix(),
            *(value.resolve(context) for value in self.vary),
        )
        html = _drawn.get(key)
        if html is None:
            html = mark_safe(self.nodelist.render(context))
            if len(_drawn) >= LIMIT:
                _drawn.clear()
            _drawn[key] = html
        return html


@register.tag("once")
def do_once(parser: Parser, token: Token) -> OnceNode:
    nodelist = parser.parse(("endonce",))
    parser.delete_first_token()
    if nodelist.get_nodes_by_type(BlockNode):
        # Drawn once, a block's content would be the first page's for every page.
        raise template.TemplateSyntaxError("{% block %} can't be inside {% once %}.")
    vary = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    return OnceNode(nodelist, vary)
