"""The clubs' pages on a phone: nothing wider than the screen, with long names; the join
link's copy button (shown only with a clipboard) copies the link."""

import os

import pytest

from games.clubs import membership
from games.models import Player
from tests.browser.conftest import no_horizontal_scroll
from tests.browser.test_online_play import logged_in
from tests.clubs.membership_helpers import club_night, make_club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Thursday-evening-card-sharks-of-the-third-floor-kitchen"
# Set to a folder to keep the screenshots (a look at the layout while working on it).
SHOTS = os.environ.get("CLUB_SCREENSHOTS", "")


def _shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def test_the_club_pages_fit_a_phone(new_context, live_server, alice, bob, carol):
    club = make_club(alice, bob, carol, name=LONG[:60])
    membership.invite(make_club(bob, name="Bob's club"), bob, "alice")
    players = [Player.for_user(alice), Player.for_user(bob), "Dora"]
    club_night(club, alice, players)
    club_night(club, alice, [*players[:2], "Eve"], finished=True)
    page = logged_in(new_context(), live_server, alice)

    for name, path in [
        ("list", "/clubs/"),
        ("detail", f"/clubs/{club.public_id}/"),
        ("leave", f"/clubs/{club.public_id}/leave/"),
        ("join", f"/clubs/join/{club.invite_token}/"),
        ("new-night", "/nights/new/"),
        ("new-online-game", "/play/new/"),
    ]:
        page.goto(live_server.url + path)
        _shot(page, name)
        assert no_horizontal_scroll(page), name


def test_the_copy_button_copies_the_join_link(new_context, live_server, alice):
    club = make_club(alice)
    context = new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = logged_in(context, live_server, alice)
    page.goto(f"{live_server.url}/clubs/{club.public_id}/")

    button = page.locator("button[data-copy]")
    button.click()

    page.wait_for_function(
        "() => document.querySelector('button[data-copy]').textContent === 'Copied'"
    )
    assert page.evaluate("() => navigator.clipboard.readText()").endswith(
        f"/clubs/join/{club.invite_token}/"
    )


def test_a_shared_year_fits_a_phone_and_shows_no_more_than_it_may(
    new_context, live_server, alice, bob, carol
):
    """Opened without an account: names of the people alice played with, guests by their
    first name, no game's name or link, no club."""
    from games.models import YearShare
    from tests.clubs.records_helpers import seed

    history = seed(alice, bob, carol)
    share = YearShare.objects.create(user=alice, year=2025)
    page = new_context().new_page()
    page.goto(f"/y/{share.token}/")
    _shot(page, "shared-year")
    text = page.inner_text("main")
    assert "2025" in text and "bob" in text and "Dora" in text
    assert "Quinn" not in text and history.club.name not in text
    assert page.locator("main a[href^='/nights/'], main a[href^='/play/']").count() == 0
    assert no_horizontal_scroll(page)
