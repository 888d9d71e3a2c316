"""Every page of the crawl in all six languages: no English left in the visible text.

The crawl is the permission table's pages (tests/site/test_url_permissions.py): every
GET that the owner opens with a 200, on the same real objects. Each page is rendered in
English and in each other language; a visible text node (or attribute people read:
title, aria-label, placeholder, alt) that reads exactly the same in both, and is a
phrase of English words rather than a name, a number or a card, is English left behind.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.test import Client

from games.models import Club, Game
from tests.site.test_url_permissions import OWNER, ROWS, World, _response

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]
READ_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
# What may read the same in every language: names of people and games in the test
# world, the brand, the languages' own names, and words that are the same in a language.
SAME_EVERYWHERE = {
    "Phase 10 Club",
    "Phase 10",
    "English",
    "CSV",
    "JSON",
    "QR",
    "Dora",
    "Eve",
    "Deleted player",  # the name a deleted account's seats keep, in the site's language
}
# Words a language borrowed and writes the same (checked with its glossary's translator).
SAME_IN = {"da": {"Ratings (CSV)"}}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "svg", "option"):
            self._skip += 1
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self.texts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "svg", "option") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(data)


def _words(text: str) -> int:
    return len(re.findall(r"[A-Za-z]{3,}", text))


def _without(text: str, names: set[str]) -> str:
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return text


def visible_phrases(html: str) -> set[str]:
    parser = _Text()
    parser.feed(html)
    phrases = set()
    for text in parser.texts:
        text = " ".join(text.split())
        # A phrase: at least two words of three or more letters.
        if _words(text) >= 2 and text not in SAME_EVERYWHERE:
            phrases.add(text)
    return phrases


PAGES = [row for row in ROWS if row.method == "get" and not row.htmx and row.expected[OWNER] == 200]


def _page(world: World, row, language: str) -> str:  # type: ignore[no-untyped-def]
    """The page's HTML as the owner sees it in `language` ("" for anything but HTML)."""
    with transaction.atomic():
        client = Client(headers={"accept-language": language})
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        client.force_login(world.owner)
        response = _response(client, row, world)
        transaction.set_rollback(True)
    cache.clear()
    assert response.status_code == 200, (row.id, language, response.status_code)
    if not response.get("Content-Type", "").startswith("text/html"):
        return ""  # CSV and JSON exports, the health check: data, not pages
    return response.content.decode()


@pytest.mark.parametrize("row", PAGES, ids=lambda row: row.id)
def test_no_english_is_left_on_the_page(row, alice, bob, stranger):
    world = World(alice, bob, stranger)
    assert row.args(world) is not None  # the objects exist before the first request
    # Names people chose (users, games) are theirs, in whatever language they wrote them.
    names = {alice.username, bob.username, stranger.username}
    names |= {name for name in Game.objects.values_list("name", flat=True) if name}
    names |= set(Club.objects.values_list("name", flat=True))
    english = visible_phrases(_page(world, row, "en"))
    left = {}
    for language in LANGUAGES:
        same = {
            phrase
            for phrase in visible_phrases(_page(world, row, language)) & english
            if _words(_without(phrase, names | SAME_EVERYWHERE)) >= 2
            and "@" not in phrase  # an email address
            and phrase not in SAME_IN.get(language, ())
        }
        if same:
            left[language] = sorted(same)
    assert not left, f"{row.id}: English left on the page: {left}"
