"""The Content-Security-Policy (settings.SECURE_CSP): every response carries a strict
policy, and no template needs what it refuses — inline handlers, inline styles, inline
scripts, htmx features that run on eval. tests/browser/ runs every flow with the policy
on and fails on any violation the browser reports."""

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from accounts.models import AVATAR_COLOURS
from tests.stats.factories import laid, make_game, missed, player

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)
# Emails are read in mail programs, not under the site's policy: their inline styles stay.
TEMPLATES = sorted(
    path
    for folder in (ROOT / "templates", ROOT / "games" / "templates", ROOT / "accounts")
    for path in folder.rglob("*.html")
    if "emails" not in path.parts
)

INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
INLINE_STYLE = re.compile(r"\sstyle\s*=|<style", re.IGNORECASE)
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.IGNORECASE)
# htmx features that evaluate JavaScript: trigger filters ("every 3s [cond]"), hx-on,
# hx-vars, and js: values in hx-vals.
HTMX_EVAL = re.compile(r"hx-trigger=\"[^\"]*\[|hx-on|hx-vars|hx-vals=.{0,3}js:", re.IGNORECASE)


def inline_code(html: str) -> list[str]:
    """What in `html` the policy would refuse (or htmx would need eval for)."""
    found = []
    for pattern in (INLINE_HANDLER, INLINE_STYLE, INLINE_SCRIPT, HTMX_EVAL):
        found += [
            html[max(match.start() - 40, 0) : match.end() + 40] for match in pattern.finditer(html)
        ]
    return found


def test_every_response_carries_a_strict_policy(client):
    policy = client.get(reverse("home")).headers["Content-Security-Policy"]
    directives = dict(
        (part.strip().split(" ", 1) + [""])[:2] for part in policy.split(";") if part.strip()
    )
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["default-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["base-uri"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy and "*" not in policy
    # Not only pages: an htmx answer and a 404 are covered too.
    assert "Content-Security-Policy" in client.get("/no-such-page/").headers


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_template_needs_what_the_policy_refuses(template):
    assert inline_code(template.read_text()) == []


def test_htmx_runs_without_eval_and_without_its_inline_styles(client):
    page = client.get(reverse("home")).content.decode()
    config = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", page)
    assert config is not None
    values = json.loads(config.group(1))
    assert values["allowEval"] is False
    assert values["includeIndicatorStyles"] is False
    # Extensions and password managers set styles through the CSSOM; settling would copy
    # them as style="" attributes, which the policy refuses.
    assert "style" not in values["attributesToSettle"]
    assert page.index('name="htmx-config"') < page.index("htmx-2")


def test_the_page_behaviour_comes_from_a_static_script(client):
    page = client.get(reverse("home")).content.decode()
    assert "/static/js/site.js" in page
    assert 'id="language-select" name="language" data-submit-on-change' in page


def test_every_avatar_colour_has_its_rule_in_the_stylesheet():
    css = (ROOT / "static" / "css" / "site.css").read_text()
    for colour, _name in AVATAR_COLOURS:
        assert f'.avatar[data-colour="{colour}"] {{ background: {colour}; }}' in css


def test_the_stats_page_draws_its_bars_and_avatar_without_inline_styles(alice_client, alice, bob):
    alice.profile.avatar_colour = "#7d3c98"
    alice.profile.save()
    make_game(
        [player(alice), player(bob)],
        [[missed(1, 50), laid(1, out=True)], [laid(1, out=True), missed(2, 30)]],
        winner=1,
        rules={"phases": [1, 2, 3]},
    )
    page = alice_client.get(reverse("games:stats")).content.decode()
    assert inline_code(page) == []
    assert 'class="avatar" aria-hidden="true" data-colour="#7d3c98"' in page
    assert '<rect class="meter-bar" width="50" height="1"/>' in page  # phase 1: 1 of 2
