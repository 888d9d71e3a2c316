"""The Jinja2 partials (phase10site/jinja.py) keep their three rules: words that
makemessages finds and the catalogues translate, and autoescaping."""

from pathlib import Path

import pytest
from django.conf import settings
from django.template import engines
from django.utils import translation
from django.utils.translation.template import templatize

from phase10site.jinja import Keep, words
from tests.site.test_translations import LOCALE, NPLURALS, _entries

TEMPLATES = sorted(Path(settings.BASE_DIR).glob("*/jinja2/**/*.html"))


def _jinja() -> object:
    return engines["jinja2"].env  # type: ignore[attr-defined]


def test_there_are_jinja2_partials():
    assert TEMPLATES, "no */jinja2/**/*.html found"


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda path: path.name)
def test_every_word_is_a_literal_that_makemessages_finds(path):
    source = path.read_text(encoding="utf-8")
    found = list(_jinja().extract_translations(source))
    assert all(name in ("_", "gettext") for _line, name, _message in found), (
        "ngettext/pgettext belong in the Python that builds the context: " + repr(found)
    )
    wanted = {message for _line, _name, message in found}
    assert all(isinstance(message, str) for message in wanted), "a word that is not a literal"
    # What Django's makemessages gives xgettext for this file.
    extracted = templatize(source, origin=str(path))
    missing = [message for message in wanted if repr(message)[1:-1] not in extracted]
    assert not missing, f"makemessages would not find: {missing}"


@pytest.mark.parametrize("lang", sorted(NPLURALS))
def test_every_word_of_the_partials_is_translated(lang):
    catalog = {
        entry["msgid"]
        for entry in _entries(LOCALE / lang / "LC_MESSAGES" / "django.po")[1:]
        if entry["msgctxt"] is None and all(entry["msgstr"])
    }
    words = {
        message
        for path in TEMPLATES
        for _line, _name, message in _jinja().extract_translations(path.read_text("utf-8"))
    }
    assert words - catalog == set()


def test_words_are_translated_their_markup_kept_and_the_values_escaped():
    template = engines["jinja2"].env.from_string(
        '{{ _("Waiting for %(name)s.")|format(name=name) }} '
        """{{ _('until <time datetime="%(iso)s">%(deadline)s</time>')|format(iso=1, deadline=name) }}"""
    )
    with translation.override("fi"):
        html = template.render({"_": words(), "name": "<b>Ann</b>"})
    assert html == (
        "Odotetaan pelaajaa &lt;b&gt;Ann&lt;/b&gt;. "
        '<time datetime="1">&lt;b&gt;Ann&lt;/b&gt;</time> asti'
    )


def test_the_words_of_one_language_never_answer_for_another():
    template = engines["jinja2"].env.from_string('{{ _("Discard pile") }}')
    with translation.override("fi"):
        finnish = template.render({"_": words()})
    with translation.override("da"):
        danish = template.render({"_": words()})
    assert finnish != danish != "Discard pile"


def test_a_django_template_draws_a_jinja2_partial_with_its_context():
    template = engines["django"].from_string(
        '{% load jinja %}{% jinja "games/online/reveal.html" rows=rows brief=True %}'
    )
    rows = [{"name": "<i>Ann</i>", "cards": ["R5"], "points_words": "5 points"}]
    html = template.render({"rows": rows})
    assert "<strong>&lt;i&gt;Ann&lt;/i&gt;</strong>" in html
    assert 'class="pcard c-R"' in html and "= 5 points" in html


def test_a_kept_part_is_drawn_once_per_key_and_language():
    template = engines["jinja2"].env.from_string(
        '{% call keep("part", n) %}{{ _("Discard pile") }} {{ drawn.append(n) or n }}{% endcall %}'
    )
    drawn: list[int] = []
    with translation.override("fi"):
        first = template.render({"_": words(), "keep": Keep(), "n": 1, "drawn": drawn})
        again = template.render({"_": words(), "keep": Keep(), "n": 1, "drawn": drawn})
        other = template.render({"_": words(), "keep": Keep(), "n": 2, "drawn": drawn})
    with translation.override("da"):
        danish = template.render({"_": words(), "keep": Keep(), "n": 1, "drawn": drawn})
    assert first == again and drawn == [1, 2, 1]  # the second draw of key 1 was kept
    assert other.endswith(" 2") and danish != first
