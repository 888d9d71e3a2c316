"""The Jinja2 environment of the few hot partials (CONTRIBUTING.md, "Templates": when a
hot template is slow, make the template fast, Jinja2 for that partial if need be): the online board a move
answers with, and a game night's scoreboard a round answers with. Django's template
language draws everything else; a Django template includes one of these partials with
`{% jinja "name" %}` (phase10site/templatetags/jinja.py).

Jinja2 partials live in `<app>/jinja2/` and follow three rules, checked by
tests/site/test_jinja.py:
- every word goes through `_("literal")`, with placeholders filled by
  `|format(name=…)`: `makemessages` (Django's own extractor) finds exactly that form,
  and the msgids are the ones `{% blocktranslate %}` writes ("Round %(number)s");
  plural and contextual words (ngettext, pgettext) are computed by the Python that
  builds the context, where makemessages reads them. As with `{% translate %}`, a
  word's own markup is kept and the values put into it are escaped;
- a form's CSRF field is `{{ csrf_input }}`: `render` fills it from the request; a
  partial kept in the cache is kept per CSRF cookie (games/cache_keys.py), whose
  token it holds;
- autoescaping is on, as in Django's templates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.signals import setting_changed
from django.http import HttpRequest
from django.template import engines
from django.templatetags.static import static
from django.urls import get_script_prefix
from django.utils import translation
from django.utils.functional import lazy
from django.utils.safestring import SafeString
from jinja2 import Environment
from markupsafe import Markup

from games.templatetags.bidi import bdi, bdi_names
from games.templatetags.cards import card

from .context_processors import csrf_input


def _trusted_gettext(message: str) -> Markup:
    """Django's gettext (the active language, the project's catalogues), its words
    trusted as `{% translate %}` trusts them: markup in a word stays markup, and the
    values `|format` puts in are escaped (Markup's `%`)."""
    return Markup(translation.gettext(message))


# Per language, the words looked up so far: a board says some fifty, and Django's
# gettext costs a few microseconds each (it finds the active language every time).
_WORDS: dict[str, dict[str, Markup]] = {}


def _forget(**_kwargs: object) -> None:
    _WORDS.clear()
    _KEPT.clear()


setting_changed.connect(_forget, dispatch_uid="phase10site.jinja.forget")


def words() -> Callable[[str], Markup]:
    """`_` for one render in the active language, each word looked up once per process."""
    known = _WORDS.setdefault(translation.get_language() or "", {})

    def word(message: str) -> Markup:
        found = known.get(message)
        if found is None:
            found = known[message] = _trusted_gettext(message)
        return found

    return word


# Parts of partials drawn once per process for everything they show: `{% call
# keep(*key) %}…{% endcall %}` is the markup inside, drawn the first time its key is met
# in a language and under a script prefix (in the URLs it may hold). A key holds all the
# part shows, so nothing kept is ever out of date; when there are too many, all go. A
# part with a form holds a token: its key holds the CSRF cookie's digest
# (games/cache_keys.py `csrf_cookie`), so it is only shown to requests with that cookie.
_KEPT: dict[tuple[object, ...], Markup] = {}
KEPT_MOST = 20_000


class Keep:
    def __init__(self) -> None:
        self.scope = (translation.get_language(), get_script_prefix())

    def __call__(self, *key: object, caller: Callable[[], Markup]) -> Markup:
        full = (self.scope, *key)
        html = _KEPT.get(full)
        if html is None:
            if len(_KEPT) >= KEPT_MOST:
                _KEPT.clear()
            html = _KEPT[full] = caller()
        return html


def render(name: str, context: dict[str, Any], request: HttpRequest | None = None) -> SafeString:
    """The Jinja2 partial `name` drawn with `context` (and, given `request`, the request
    and its CSRF field), its words in the active language, `keep` at hand."""
    template = engines["jinja2"].get_template(name)
    values = {"keep": Keep(), **context, "_": words()}
    if request is not None:
        # What Django's backend adds given the request, with the CSRF token the rest of
        # the response shows (the backend's would be masked once more). The backend's
        # context processors would run here too: the jinja2 backend has none.
        values.update(request=request, csrf_input=_lazy_csrf_input(request))
    return SafeString(template.render(values))


_lazy_csrf_input = lazy(csrf_input, SafeString)


class _Environment(Environment):
    def getattr(self, obj: Any, attribute: str) -> Any:
        """`row.name` on a dict reads the key first: the partials' contexts are dicts,
        and Jinja2's attribute-first lookup pays for an AttributeError on each (a
        quarter of a board's drawing). A key never hides a dict's methods here: no
        partial calls one."""
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def environment(**options: Any) -> Environment:
    env = _Environment(extensions=["jinja2.ext.i18n"], **options)
    env.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
        _trusted_gettext, translation.ngettext, newstyle=False
    )
    env.globals.update(card=card, static=static)
    env.filters.update(bdi=bdi, bdi_names=bdi_names)
    return env
