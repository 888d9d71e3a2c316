"""Names as long as the forms allow (40 characters for a player, 80 for a game, no
spaces to break at) on the narrowest phone (320 px): every main page stays within
the screen, and its main buttons can be tapped. A screenshot of the round form goes
to /tmp/long-name-screens for a human to look at."""

import os
from pathlib import Path

import pytest

from games.engine import Rules
from games.models import Game, Player
from games.nights import services as nights
from games.nights.scoreboard import RoundEntry, load_scoreboard
from games.online import lobby, services
from tests.conftest import PASSWORD, _make_user, chromium_path, require_or_skip
from tests.online.helpers import play_on

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 320, "height": 640}
SHOTS = Path("/tmp/long-name-screens")
NAME = "Wolfeschlegelsteinhausenbergerdorffvoral"  # 40 characters, nowhere to break
GAME = "Donaudampfschifffahrtselektrizitaetenhauptbetriebswerkbauunterbeamtengesellschaf"


def long_name(n: int) -> str:
    return f"{NAME[: 40 - len(str(n))]}{n}"


@pytest.fixture
def long_club(db):
    """A user and a friend with the longest names, a night of six at each stage, and
    online games in the lobby, in progress and over."""
    me = _make_user(long_name(1))
    friend = _make_user(long_name(2))
    third = _make_user(long_name(3))
    guests = [long_name(n) for n in range(4, 9)]
    players = [Player.for_user(me), *guests]
    night = nights.create_game(me, players=players, first_dealer=0, rules=Rules(), name=GAME)
    for went_out in (0, 1):
        night.refresh_from_db()
        points = tuple(0 if seat == went_out else 25 * (seat + 1) for seat in range(6))
        entry = RoundEntry(went_out=went_out, points=points, completed={went_out: 1})
        night = nights.add_round(night, entry, version=night.version)
    finished_night = nights.create_game(
        me, players=[Player.for_user(me), *guests[:2]], first_dealer=0, rules=Rules(phases=(1,))
    )
    entry = RoundEntry(went_out=0, points=(0, 250, 245), completed={0: 1})
    finished_night = nights.add_round(finished_night, entry, version=finished_night.version)

    # Tied after two rounds: the scorer picks the tie-breaker's winner by name.
    tied = nights.create_game(
        me, players=[Player.for_user(me), *guests[:2]], first_dealer=0, rules=Rules(phases=(1, 2))
    )
    for entry in (
        RoundEntry(went_out=0, points=(0, 5, 50), completed={0: 1, 1: 1}),
        RoundEntry(went_out=1, points=(5, 0, 50), completed={0: 2, 1: 2}),
    ):
        tied = nights.add_round(tied, entry, version=tied.version)
    assert load_scoreboard(tied).tiebreak_needed

    waiting = lobby.create_game(me, name=GAME, seats=4, bots=1, invite=[friend])
    lobby.join(waiting, third, waiting.invite_token)
    playing = lobby.create_game(me, name=GAME, seats=3, bots=1, invite=[friend])
    lobby.accept_invitation(playing, friend)
    playing = lobby.start_game(playing, me, seed=4)
    over = lobby.create_game(
        me, name=GAME, seats=3, bots=1, invite=[friend], rules=Rules(phases=(1,))
    )
    lobby.accept_invitation(over, friend)
    over = lobby.start_game(over, me, seed=5)
    services.resign(over, friend)
    over = play_on(over)
    assert over.status == Game.Status.FINISHED
    return {
        "me": me,
        "friend": Player.for_user(friend),
        "guest": Player.objects.get(name=guests[0]),
        "night": night,
        "finished_night": finished_night,
        "tied": tied,
        "waiting": waiting,
        "playing": playing,
        "over": over,
    }


def log_in(context, user):
    page = context.new_page()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/login/" not in url)
    return page


def fits(page) -> list[str]:
    """What sticks out of the screen: the page's scroll width, and main buttons."""
    problems = []
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > NARROW["width"]:
        problems.append(f"{page.url}: the page is {width} px wide")
    for button in page.locator("button.primary, a.button.primary").all():
        if not button.is_visible():
            continue
        box = button.bounding_box()
        if box["x"] < 0 or box["x"] + box["width"] > NARROW["width"]:
            problems.append(f"{page.url}: {button.inner_text()!r} is at {box}")
    return problems


def test_the_longest_names_fit_every_main_page_on_a_320_px_phone(new_context, long_club):
    require_or_skip("Chromium", chromium_path() is not None)
    page = log_in(new_context(viewport=NARROW), long_club["me"])

    night, waiting = long_club["night"], long_club["waiting"]
    pages = [
        "/nights/",
        "/nights/new/",
        night.get_absolute_url(),
        f"{night.get_absolute_url()}rounds/1/",
        f"/s/{night.share_token}/",
        long_club["finished_night"].get_absolute_url(),
        long_club["tied"].get_absolute_url(),
        "/play/",
        "/play/new/",
        waiting.get_absolute_url(),
        long_club["playing"].get_absolute_url(),
        long_club["over"].get_absolute_url(),
        "/accounts/stats/",
        "/accounts/stats/leaderboard/",
        f"/accounts/players/{long_club['friend'].pk}/",
        f"/accounts/players/{long_club['guest'].pk}/",
        "/accounts/profile/",
        "/accounts/claims/",
    ]
    problems = []
    for url in pages:
        response = page.goto(url)
        assert response.ok, url
        problems += fits(page)
    # The menu names the account.
    page.locator("details.menu summary").click()
    problems += fits(page)
    assert not problems, "\n".join(problems)

    page.goto(night.get_absolute_url())
    save = page.get_by_role("button", name="Save round 3")
    save.scroll_into_view_if_needed()
    box = save.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= NARROW["width"]
    SHOTS.mkdir(exist_ok=True)
    page.locator("#entry").screenshot(path=SHOTS / "round-form-320.png")
    page.screenshot(path=SHOTS / "night-320.png", full_page=True)


def test_the_invitation_page_fits_with_the_longest_names(new_context, long_club):
    require_or_skip("Chromium", chromium_path() is not None)
    stranger = _make_user(long_name(9))
    page = log_in(new_context(viewport=NARROW), stranger)
    waiting = long_club["waiting"]
    page.goto(f"/play/join/{waiting.invite_token}/")
    assert not fits(page), fits(page)
