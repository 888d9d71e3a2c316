"""The site header in a real browser: the menu's words stay whole. The body lets text
wrap anywhere (long names), and a squeezed flex item took that as leave to break
"Home" into "Hom e" on a 1280 px screen; now the wide menu wraps between its links and
the phone's stays behind its button."""

import pytest
from django.conf import settings

from tests.browser.test_online_play import logged_in
from tests.online.helpers import started_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Per link of the header (and the brand): its words, and the words as laid out, one
# entry per line box, so a word broken over two lines shows as two pieces.
WORDS_AS_LAID_OUT = """() => [...document.querySelectorAll('.brand, .menu nav a, .menu nav .linklike')]
  .filter((link) => link.getClientRects().length)
  .map((link) => {
    const words = [];
    const walker = document.createTreeWalker(link, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      for (const match of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        words.push([match[0], tops.size]);
      }
    }
    return [link.textContent.trim(), words.filter(([, lines]) => lines > 1)];
  })"""


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("width", [1280, 1000, 820])
def test_the_wide_menu_never_breaks_a_word(new_context, live_server, alice, bob, language, width):
    started_game(bob, alice, seed=4)  # a game waiting for someone: the menu's badge
    context = new_context(viewport={"width": width, "height": 800})
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page = logged_in(context, live_server, alice)
    page.goto("/")
    laid_out = page.evaluate(WORDS_AS_LAID_OUT)
    assert len(laid_out) >= 7  # the brand and the links: Home … Log out
    assert [(link, broken) for link, broken in laid_out if broken] == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
