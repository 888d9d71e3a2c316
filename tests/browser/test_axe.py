"""axe-core (the npm package, tests/browser/package.json; `make axe` installs it) over the
main pages, in English and in Arabic: no serious or critical violation.

How axe gets into the page: as a Playwright init script (`add_init_script`), the way
conftest.py's CSP reporter does. Init scripts run in the page without being subject to
its Content-Security-Policy, so the policy stays fully on for everything the page itself
loads, and a violation the page causes still fails the test; nothing is served that the
app doesn't serve, and `bypass_csp` is never used. (`page.add_script_tag(path=…)` would
add an inline <script>, which the policy rightly refuses.)"""

from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games.engine import Draw, Rules
from games.models import Player
from games.nights import services as nights
from games.nights.scoreboard import RoundEntry
from games.online import lobby, services, spectators
from tests.browser.conftest import PHONE
from tests.browser.test_online_play import log_in
from tests.conftest import require_or_skip
from tests.online.helpers import arranged_state, play_on, set_state, started_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
FAILING = ("serious", "critical")

RUN_AXE = """async () => {
    const results = await axe.run(document, {resultTypes: ["violations"]});
    return results.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + " — " + n.failureSummary),
    }));
}"""


@pytest.fixture
def club(alice, bob):
    """A night being scored (one round in), a finished night, an online game in its lobby
    and one being played (alice has drawn and laid her phase)."""
    me = Player.for_user(alice)
    night = nights.create_game(alice, players=[me, "Bob", "Carol"], first_dealer=0, rules=Rules())
    entry = RoundEntry(went_out=0, points=(0, 25, 40), completed={0: 1, 2: 1})
    night = nights.add_round(night, entry, version=night.version)
    over = nights.create_game(alice, players=[me, "Dan"], first_dealer=0, rules=Rules(phases=(1,)))
    entry = RoundEntry(went_out=0, points=(0, 35), completed={0: 1})
    over = nights.add_round(over, entry, version=over.version)
    waiting = lobby.create_game(alice, name="Next week", seats=3, bots=1, invite=[bob])
    playing = started_game(alice, bob, seed=5)
    hands = ["R3 B3 G3 R7 B7 Y7 G1 B9 Y11 R12", "R1 R2 R4 R5 R6 B1 B2 B4 B5 B6"]
    set_state(playing, arranged_state(hands, draw_pile=["Y2"], dealer=1))
    playing = services.perform(playing, 0, Draw(), expected_move=playing.move_number)
    playing = spectators.set_link(playing, alice, make=True)
    finished = play_on(started_game(alice, bob, seed=5, rules=Rules(phases=(1,))))
    return {
        "night": night,
        "over": over,
        "waiting": waiting,
        "playing": playing,
        "finished": finished,
    }


def pages(club) -> list[tuple[str, str]]:
    return [
        ("home", "/"),
        ("how to play", "/rules/"),
        ("game nights", "/nights/"),
        ("new game night", "/nights/new/"),
        ("a game night", club["night"].get_absolute_url()),
        ("a finished game night", club["over"].get_absolute_url()),
        ("the live scoreboard", f"/s/{club['night'].share_token}/"),
        ("the TV view", f"/s/{club['night'].share_token}/tv/"),
        ("online games", "/play/"),
        ("new online game", "/play/new/"),
        ("a lobby", club["waiting"].get_absolute_url()),
        ("the board", club["playing"].get_absolute_url()),
        ("the spectator's board", f"/watch/{club['playing'].spectator_token}/"),
        ("a replay", f"/play/{club['finished'].public_id}/replay/?move=20"),
        ("stats", "/accounts/stats/"),
        ("leaderboard", "/accounts/stats/leaderboard/"),
        ("profile", "/accounts/profile/"),
    ]


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_main_pages_have_no_serious_accessibility_violation(
    chromium, live_server, club, alice, language
):
    require_or_skip("axe-core (make axe)", AXE.exists())
    from django.test import Client

    context = chromium.new_context(viewport=PHONE, base_url=live_server.url)
    context.add_init_script(path=str(AXE))
    client = Client()
    client.force_login(alice)
    cookies = {
        settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value,
        settings.LANGUAGE_COOKIE_NAME: language,
    }
    context.add_cookies(
        [{"name": name, "value": value, "url": live_server.url} for name, value in cookies.items()]
    )
    anonymous = chromium.new_context(viewport=PHONE, base_url=live_server.url)
    anonymous.add_init_script(path=str(AXE))
    anonymous.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    found = []
    try:
        page = context.new_page()
        # Polls would read the database while this thread does (SQLite, one connection).
        page.route("**/poll/**", lambda route: route.abort())
        page.route("**/live/**", lambda route: route.abort())
        visits = [(page, name, url) for name, url in pages(club)]
        visits += [
            (anonymous.new_page(), name, url)
            for name, url in (
                ("log in", "/accounts/login/"),
                ("sign up", "/accounts/signup/"),
                ("password reset", "/accounts/password/reset/"),
            )
        ]
        for tab, name, url in visits:
            tab.goto(url)
            assert tab.evaluate("() => document.documentElement.lang") == language, name
            for violation in tab.evaluate(RUN_AXE):
                if violation["impact"] in FAILING:
                    found.append(f"{name} ({url}): {violation}")
    finally:
        context.close()
        anonymous.close()
    assert not found, "\n".join(found)


def test_the_stats_pages_scrollable_tables_are_regions_of_their_own_names(
    chromium, live_server, club, alice
):
    """axe's moderate findings too: each table that scrolls sideways on a phone is a
    region a screen reader lists, and two regions of one name can't be told apart."""
    require_or_skip("axe-core (make axe)", AXE.exists())
    context = chromium.new_context(viewport=PHONE, base_url=live_server.url)
    context.add_init_script(path=str(AXE))
    try:
        log_in(context, live_server, alice)
        page = context.new_page()
        page.goto("/accounts/stats/")
        regions = page.locator(".table-scroll[role=region]")
        expect(regions).to_have_count(2)
        found = [v for v in page.evaluate(RUN_AXE) if v["impact"] in (*FAILING, "moderate")]
        names = regions.evaluate_all(
            "regions => regions.map(r => r.getAttribute('aria-label') || r.getAttribute('aria-labelledby'))"
        )
    finally:
        context.close()
    assert not found, found
    assert len(set(names)) == 2, names
