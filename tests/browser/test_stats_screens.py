"""The stats page on a phone and on a desktop, with the demo's history: charts and
key numbers visible, nothing wider than the screen. Screenshots go to a temporary
directory (printed with -s) for a human to look at."""

import io
import os

import pytest
from playwright.sync_api import expect

from games.models import Player
from games.stats import demo, figures
from games.stats.scope import Scope
from tests.browser.conftest import DESKTOP, PHONE, no_horizontal_scroll
from tests.conftest import PASSWORD, _make_user, chromium_path, require_or_skip

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def club(alice, bob, carol):
    demo.load_demo([alice, bob, carol, _make_user("deniz")], io.StringIO())
    return figures.summary(Scope.parse(Player.for_user(alice), None, None))


def _log_in(context, username):
    page = context.new_page()
    page.goto("/accounts/login/?next=/accounts/stats/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/accounts/stats/")
    return page


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_stats_page_shows_charts_and_numbers_at_phone_and_desktop_sizes(
    new_context, club, size, tmp_path_factory
):
    require_or_skip("Chromium", chromium_path() is not None)
    shots = tmp_path_factory.mktemp("stats-screens")
    label = "phone" if size is PHONE else "desktop"
    page = _log_in(new_context(viewport=size), "alice")

    expect(page.get_by_role("heading", name="Your stats", level=1)).to_be_visible()
    page.screenshot(path=shots / f"top-{label}.png")
    expect(page.locator('[data-stat="played"]')).to_have_text(str(club.played))
    expect(page.locator('[data-stat="won"]')).to_have_text(str(club.won))
    expect(page.locator('[data-stat="win-rate"]')).to_have_text(
        f"{round(club.won / club.played * 100)}%"
    )
    expect(page.locator('[data-stat="nemesis"]')).to_be_visible()
    for number, title in enumerate(
        ("Win rate over time", "Phase reached per round", "Score after each round")
    ):
        chart = page.get_by_role("img", name=title)
        expect(chart).to_be_visible()
        assert chart.bounding_box()["width"] > 250
        chart.screenshot(path=shots / f"chart-{number}-{label}.png")
    expect(page.get_by_role("link", name="bob").first).to_be_visible()
    assert no_horizontal_scroll(page)
    page.screenshot(path=shots / f"stats-{label}.png", full_page=True)
    page.locator(".phase-table").screenshot(path=shots / f"phases-{label}.png")

    page.get_by_role("link", name="Last 30 days").click()
    expect(page.get_by_role("link", name="Last 30 days")).to_have_attribute("aria-current", "true")
    assert no_horizontal_scroll(page)

    page.goto("/accounts/stats/leaderboard/")
    expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible()
    expect(page.locator("tr.is-me")).to_be_visible()
    assert no_horizontal_scroll(page)
    page.screenshot(path=shots / f"leaderboard-{label}.png", full_page=True)

    page.get_by_role("link", name="Ed").click()
    expect(page.get_by_role("heading", name="Ed", level=1)).to_be_visible()
    expect(page.get_by_role("heading", name="Who was this guest?")).to_be_visible()
    assert no_horizontal_scroll(page)
    page.screenshot(path=shots / f"guest-{label}.png", full_page=True)
    print(f"\nscreenshots: {shots}")


def test_the_account_and_guest_claim_pages_fit_a_phone(new_context, club, tmp_path_factory):
    require_or_skip("Chromium", chromium_path() is not None)
    shots = tmp_path_factory.mktemp("account-screens")
    page = _log_in(new_context(viewport=PHONE), "alice")
    page.goto("/accounts/profile/")
    expect(page.get_by_label("Display name")).to_have_value("alice")
    expect(page.get_by_role("heading", name="Game emails")).to_be_visible()
    assert no_horizontal_scroll(page)
    page.screenshot(path=shots / "profile-phone.png", full_page=True)

    page.get_by_label("Display name").fill("Alice L.")
    page.get_by_role("button", name="Save name and email").click()
    expect(page.get_by_text("Your name and email are saved.")).to_be_visible()
    expect(page.get_by_label("Display name")).to_have_value("Alice L.")

    page.goto("/accounts/claims/")
    expect(page.get_by_role("heading", name="Guest games", level=1)).to_be_visible()
    assert no_horizontal_scroll(page)
    page.screenshot(path=shots / "claims-phone.png", full_page=True)
    print(f"\nscreenshots: {shots}")
