"""A game night with no signal, on a phone (static/js/offline.js, templates/sw.js): rounds
entered offline are kept on the phone, shown as "not sent yet", survive a reload with no
connection, and reach the server once, in order, when the connection is back; a round a
co-scorer entered meanwhile is shown to the host to resolve. Online, a round costs the
one request it always did.

The round form is driven by its field names (went_out, points_<seat>, completed_<seat>),
which stay whatever the form looks like."""

import os
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.urls import reverse
from playwright.sync_api import expect

from games.engine import Rules
from games.models import Game, Player, QueuedRound, RoundScore
from games.nights import services as nights
from games.nights.scoreboard import RoundEntry
from tests.browser.test_axe import AXE, FAILING, RUN_AXE
from tests.conftest import PASSWORD, chromium_path, require_or_skip

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/night-screens")
ROUNDS = [  # went out, points by seat, seats that completed their phase
    (0, [0, 35, 20], [0]),
    (1, [15, 0, 40], [1, 2]),
    (2, [5, 10, 0], [2]),
]


def log_in(context, username):
    page = context.new_page()
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/login/" not in url)
    return page


def open_night(page, game):
    """Open the night's page and wait until the service worker keeps it for offline use."""
    page.goto(game.get_absolute_url())
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.wait_for_function(
        "async () => Boolean(await (await caches.open('phase10-pages')).match(location.pathname))"
    )


def fill_round(page, went_out, points, completed):
    form = page.locator("form.round-form")
    form.locator(f'input[name="went_out"][value="{went_out}"]').check()
    for seat, value in enumerate(points):
        form.locator(f'input[name="points_{seat}"]').fill(str(value))
    for seat in completed:
        form.locator(f'input[name="completed_{seat}"]').check()
    form.locator("button[type=submit]").click()


def shot(page, name):
    """For a human to look at (/tmp/night-screens, with the night flow's), and for axe-core
    when it is installed (`make axe`): no serious accessibility violation."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)
    if AXE.exists():
        found = [v for v in page.evaluate(RUN_AXE) if v["impact"] in FAILING]
        assert not found, found


def phone(new_context):
    """A phone's browser, with axe-core in every page when it is installed."""
    context = new_context()
    if AXE.exists():
        context.add_init_script(path=str(AXE))
    return context


def kept(page):
    return page.locator("#offline-rounds tr.offline-round")


def stored(game):
    return list(
        RoundScore.objects.filter(game=game)
        .order_by("round_number", "seat__position")
        .values_list("round_number", "points")
    )


@pytest.fixture
def night(alice):
    return nights.create_game(
        alice, players=[Player.for_user(alice), "Bob", "Carol"], first_dealer=0, rules=Rules()
    )


def test_three_rounds_entered_offline_survive_a_reload_and_reach_the_server_once(
    alice, night, new_context
):
    require_or_skip("Chromium", chromium_path() is not None)
    context = phone(new_context)
    page = log_in(context, "alice")
    open_night(page, night)

    context.set_offline(True)
    expect(page.locator("[data-offline-banner]")).to_be_visible()
    # What needs a connection says so and can't be sent.
    expect(page.locator("#language-select")).to_be_disabled()
    for number, (went_out, points, completed) in enumerate(ROUNDS, start=1):
        fill_round(page, went_out, points, completed)
        expect(kept(page)).to_have_count(number)
        expect(page.locator("form.round-form h2")).to_contain_text(f"round {number + 1}")
    expect(kept(page).first).to_contain_text("not sent yet")
    # The standings on top are the server's: they say they don't count these yet.
    expect(page.locator("[data-offline-stale]")).to_be_visible()
    # The totals and phases the three rounds imply, before the server has them.
    totals = page.locator("#offline-rounds [data-offline-total]")
    expect(totals).to_have_text(["20", "45", "60"])
    phases = page.locator("#offline-rounds [data-offline-phase]")
    expect(phases).to_have_text(["2", "2", "3"])
    assert Game.objects.get(pk=night.pk).rounds_played == 0
    shot(page, "offline-three-rounds")

    reloaded = page.reload()  # still offline: the page comes from the phone, the rounds too
    assert reloaded is not None and reloaded.from_service_worker
    expect(kept(page)).to_have_count(3)
    expect(kept(page).nth(2)).to_contain_text("3 · not sent yet")
    expect(page.locator("[data-offline-banner]")).to_be_visible()
    assert Game.objects.get(pk=night.pk).rounds_played == 0

    # A page never opened on this phone says plainly that it needs a connection.
    elsewhere = context.new_page()
    elsewhere.goto(reverse("games:night_create"))
    expect(elsewhere.get_by_role("heading", name="No connection")).to_be_visible()
    elsewhere.close()

    context.set_offline(False)
    expect(page.locator("#offline-rounds")).to_be_hidden()
    expect(page.locator("[data-offline-stale]")).to_be_hidden()
    expect(page.locator("[data-offline-banner]")).to_be_hidden()
    expect(page.locator(".history-grid tbody tr")).to_have_count(3)
    night.refresh_from_db()
    assert night.rounds_played == 3
    assert stored(night) == [
        (number, value)
        for number, (_out, points, _done) in enumerate(ROUNDS, start=1)
        for value in points
    ]
    assert QueuedRound.objects.filter(game=night).count() == 3

    page.reload()  # online again: nothing is sent twice
    expect(page.locator(".history-grid tbody tr")).to_have_count(3)
    assert Game.objects.get(pk=night.pk).rounds_played == 3


def test_a_round_a_co_scorer_entered_meanwhile_is_shown_for_the_host_to_resolve(
    alice, bob, night, new_context
):
    require_or_skip("Chromium", chromium_path() is not None)
    night.co_scorers.add(bob)
    context = phone(new_context)
    page = log_in(context, "alice")
    open_night(page, night)

    context.set_offline(True)
    fill_round(page, 0, [0, 35, 20], [0])
    expect(kept(page)).to_have_count(1)
    # bob, on his phone with a connection, enters round 1 differently.
    night.refresh_from_db()
    nights.add_round(
        night, RoundEntry(went_out=1, points=(25, 0, 10), completed={1: 1}), version=night.version
    )

    context.set_offline(False)
    problem = page.locator("#offline-alerts .offline-problem")
    expect(problem).to_contain_text("Round 1 was entered on another phone")
    expect(kept(page)).to_have_count(1)  # never dropped silently
    assert stored(night) == [(1, 25), (1, 0), (1, 10)]
    shot(page, "offline-conflict")

    problem.get_by_role("button", name="Keep mine as a correction of round 1").click()
    expect(page.locator("#offline-rounds")).to_be_hidden()
    expect(page.get_by_text("Round 1 corrected")).to_be_visible()
    assert stored(night) == [(1, 0), (1, 35), (1, 20)]
    assert Game.objects.get(pk=night.pk).rounds_played == 1


def test_discarding_a_conflicting_round_keeps_the_co_scorers(alice, bob, night, new_context):
    require_or_skip("Chromium", chromium_path() is not None)
    night.co_scorers.add(bob)
    context = phone(new_context)
    page = log_in(context, "alice")
    open_night(page, night)

    context.set_offline(True)
    fill_round(page, 0, [0, 35, 20], [0])
    night.refresh_from_db()
    nights.add_round(
        night, RoundEntry(went_out=1, points=(25, 0, 10), completed={1: 1}), version=night.version
    )
    context.set_offline(False)
    problem = page.locator("#offline-alerts .offline-problem")
    problem.get_by_role("button", name="Discard mine").click()
    expect(page.locator("#offline-rounds")).to_be_hidden()
    assert stored(night) == [(1, 25), (1, 0), (1, 10)]


def test_a_round_kept_while_the_session_ended_asks_the_host_to_log_in_and_is_then_sent(
    alice, night, new_context
):
    require_or_skip("Chromium", chromium_path() is not None)
    context = phone(new_context)
    page = log_in(context, "alice")
    open_night(page, night)

    context.set_offline(True)
    fill_round(page, 0, [0, 35, 20], [0])
    expect(kept(page)).to_have_count(1)
    Session.objects.all().delete()  # the session ends while the phone is offline

    context.set_offline(False)
    notice = page.locator("#offline-alerts [data-offline-log-in]")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Log in again to send these rounds")
    expect(kept(page)).to_have_count(1)  # kept, not dropped
    assert Game.objects.get(pk=night.pk).rounds_played == 0

    notice.get_by_role("link", name="Log in again").click()
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"**{night.get_absolute_url()}")
    expect(page.locator(".history-grid tbody tr")).to_have_count(1)
    expect(page.locator("#offline-rounds")).to_be_hidden()
    assert stored(night) == [(1, 0), (1, 35), (1, 20)]


def test_a_round_entered_online_costs_one_request_as_before(alice, night, new_context):
    require_or_skip("Chromium", chromium_path() is not None)
    context = phone(new_context)
    page = log_in(context, "alice")
    open_night(page, night)
    requests = []
    page.on("request", lambda request: requests.append((request.method, request.url)))

    fill_round(page, 0, [0, 35, 20], [0])
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()

    add_url = reverse("games:night_add_round", args=[night.public_id])
    assert [(method, url.split(page.url.split("/nights/")[0])[-1]) for method, url in requests] == [
        ("POST", add_url)
    ]
    assert not QueuedRound.objects.exists()
    assert Game.objects.get(pk=night.pk).rounds_played == 1


def offline_with_bob(alice, new_context, rules):
    """A night of alice and a guest, Bob, under `rules`, open on alice's phone, offline."""
    game = nights.create_game(
        alice, players=[Player.for_user(alice), "Bob"], first_dealer=0, rules=rules
    )
    context = phone(new_context)
    page = log_in(context, "alice")
    open_night(page, game)
    context.set_offline(True)
    return game, context, page


def test_in_pick_a_phase_a_round_kept_offline_marks_the_phase_laid(alice, new_context):
    require_or_skip("Chromium", chromium_path() is not None)
    game, context, page = offline_with_bob(alice, new_context, Rules(pick_a_phase=True))
    form = page.locator("form.round-form")
    form.locator('input[name="went_out"][value="0"]').check()
    form.locator('select[name="completed_0"]').select_option("3")
    form.locator('input[name="points_0"]').fill("0")
    form.locator('input[name="points_1"]').fill("50")
    form.locator("button[type=submit]").click()

    expect(kept(page)).to_have_count(1)
    expect(kept(page).first.locator("td").first).to_contain_text("✓3")
    expect(page.locator("#offline-rounds [data-offline-phase]")).to_have_text(["3", ""])
    # Phase 3 is laid: the next round can't lay it again.
    expect(form.locator('select[name="completed_0"] option[value="3"]')).to_be_disabled()

    context.set_offline(False)
    expect(page.locator("#offline-rounds")).to_be_hidden()
    laid = RoundScore.objects.filter(game=game, seat__position=0).values_list(
        "phase_completed", flat=True
    )
    assert list(laid) == [3]


def test_in_all_advance_a_round_kept_offline_moves_everyone_to_the_next_phase(alice, new_context):
    require_or_skip("Chromium", chromium_path() is not None)
    game, context, page = offline_with_bob(alice, new_context, Rules(all_advance=True))
    fill_round(page, 0, [0, 50], [0])  # only alice laid phase 1
    expect(kept(page)).to_have_count(1)
    expect(page.locator("#offline-rounds [data-offline-phase]")).to_have_text(["2", "2"])

    context.set_offline(False)
    expect(page.locator("#offline-rounds")).to_be_hidden()
    assert [seat.phase for seat in Game.objects.get(pk=game.pk).seats.order_by("position")] == [
        2,
        2,
    ]


def test_the_site_is_an_installable_web_app(alice, night, new_context):
    require_or_skip("Chromium", chromium_path() is not None)
    context = phone(new_context)
    page = log_in(context, "alice")
    open_night(page, night)
    devtools = context.new_cdp_session(page)
    manifest = devtools.send("Page.getAppManifest")
    assert manifest["url"].endswith("/static/manifest.json")
    assert manifest["errors"] == []
    errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # Playwright's contexts are incognito, where nothing installs; nothing else stops it.
    assert [error["errorId"] for error in errors if error["errorId"] != "in-incognito"] == []


def test_a_round_kept_as_a_correction_after_the_nights_end_stays_until_it_is_confirmed(
    alice, bob, new_context
):
    require_or_skip("Chromium", chromium_path() is not None)
    # One phase: whoever lays it in round 1 has won, so correcting round 1 asks first.
    game = nights.create_game(
        alice, players=[Player.for_user(alice), "Bob"], first_dealer=0, rules=Rules(phases=(1,))
    )
    game.co_scorers.add(bob)
    context = phone(new_context)
    page = log_in(context, "alice")
    open_night(page, game)
    context.set_offline(True)
    fill_round(page, 0, [0, 35], [0])
    expect(kept(page)).to_have_count(1)
    game.refresh_from_db()  # bob, online, enters round 1 his way: he won
    nights.add_round(
        game, RoundEntry(went_out=1, points=(25, 0), completed={1: 1}), version=game.version
    )
    context.set_offline(False)
    keep = page.get_by_role("button", name="Keep mine as a correction of round 1")
    keep.click()  # at once, while the page still fetches the night as the server has it
    expect(page.get_by_text("Nothing is saved until you confirm.")).to_be_visible()
    assert stored(game) == [(1, 25), (1, 0)]

    page.reload()  # the host leaves without confirming: the round is still on the phone
    expect(kept(page)).to_have_count(1)
    keep.click()
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("Nothing is saved until you confirm.")).to_be_hidden()
    assert stored(game) == [(1, 0), (1, 35)]
    # The next send finds it applied, and the phone lets it go.
    expect(page.locator("#offline-rounds")).to_be_hidden()
    page.reload()
    expect(page.locator("#offline-rounds")).to_be_hidden()
    assert stored(game) == [(1, 0), (1, 35)]


def where(page, selector):
    """Top of the element in the first screen's coordinates (a phone's is 844 px high)."""
    return page.locator(selector).first.evaluate(
        "element => { window.scrollTo(0, 0); return Math.round(element.getBoundingClientRect().top); }"
    )


def test_a_conflict_on_round_4_names_what_differs_counts_it_once_and_is_on_the_first_screen(
    alice, bob, night, new_context
):
    """The players' report: the host offline with rounds 4 and 5 kept, a co-scorer enters
    round 4 first, the host comes back."""
    require_or_skip("Chromium", chromium_path() is not None)
    night.co_scorers.add(bob)
    for went_out, points, completed in ROUNDS:
        night = nights.add_round(
            night,
            RoundEntry(
                went_out=went_out, points=tuple(points), completed=dict.fromkeys(completed, 1)
            ),
            version=night.version,
        )
    # After three rounds: 20, 45, 60 points; alice on phase 2, Bob 2, Carol 3; alice deals round 4.
    context = phone(new_context)
    page = log_in(context, "alice")
    open_night(page, night)

    context.set_offline(True)
    fill_round(page, 1, [10, 0, 5], [1])  # round 4
    fill_round(page, 0, [0, 15, 20], [0])  # round 5
    expect(kept(page)).to_have_count(2)
    # The first screen says the round now to be entered and who deals it: round 6, Carol.
    line = page.locator(".scoreboard .round-line")
    expect(line).to_contain_text("Round 6")
    expect(line.locator(".chip.deal")).to_have_text("Carol deals")
    expect(line.locator(".chip.first")).to_have_text("alice plays first")
    expect(page.locator(".standings .tag")).to_have_count(2)
    expect(page.locator(".standings .tag:visible")).to_have_count(0)  # a round behind

    night.refresh_from_db()  # bob, online, enters round 4 his way
    nights.add_round(
        night, RoundEntry(went_out=1, points=(25, 0, 5), completed={1: 2}), version=night.version
    )
    context.set_offline(False)
    problem = page.locator("#offline-alerts .offline-problem")
    expect(problem).to_contain_text("Round 4 was entered on another phone")
    expect(problem.locator("li")).to_have_text(
        ["alice: 25 points on the other phone, 10 on yours."]
    )
    # Above the scoreboard, once the scoreboard the server answered with is drawn (while
    # it is being swapped in it has no box yet: a read then compares with 0).
    page.wait_for_function(
        """() => {
            window.scrollTo(0, 0);
            const problem = document.querySelector("#offline-alerts .offline-problem");
            const board = document.querySelector(".scoreboard");
            if (!problem || !board || board.getBoundingClientRect().height === 0) return false;
            return problem.getBoundingClientRect().top < board.getBoundingClientRect().top;
        }"""
    )
    assert where(page, "#offline-alerts .offline-problem") < 844
    shot(page, "offline-conflict-round-4")

    # The server's totals (bob's round 4 in them) and round 5: round 4 is not counted twice.
    # Round 4 (bob's) took Bob to phase 3; round 5 takes alice to phase 3.
    expect(kept(page).first).to_contain_text("not counted until you choose")
    totals = page.locator("#offline-rounds [data-offline-total]")
    expect(totals).to_have_text([str(20 + 25 + 0), str(45 + 0 + 15), str(60 + 5 + 20)])
    expect(page.locator("#offline-rounds [data-offline-phase]")).to_have_text(["3", "3", "3"])
    expect(line).to_contain_text("Round 6")

    problem.get_by_role("button", name="Discard mine").click()
    expect(page.locator("#offline-rounds")).to_be_hidden()
    assert stored(night)[-6:] == [(4, 25), (4, 0), (4, 5), (5, 0), (5, 15), (5, 20)]


def test_a_refused_round_is_corrected_in_its_place_and_sent_before_the_next(
    alice, night, new_context
):
    require_or_skip("Chromium", chromium_path() is not None)
    context = phone(new_context)
    page = log_in(context, "alice")
    open_night(page, night)
    context.set_offline(True)

    # Offline, negative points are refused with the words the server would use.
    fill_round(page, 0, [0, -5, 20], [0])
    expect(page.locator("form.round-form [data-offline-say]")).to_have_text(
        "Points can't be negative."
    )
    expect(kept(page)).to_have_count(0)

    # Bob went out, his phase unticked again: the server refuses round 1, round 2 waits.
    form = page.locator("form.round-form")
    form.locator('input[name="went_out"][value="1"]').check()
    for seat, value in enumerate([15, 0, 40]):
        form.locator(f'input[name="points_{seat}"]').fill(str(value))
    form.locator('input[name="completed_1"]').uncheck()
    form.locator("button[type=submit]").click()
    fill_round(page, 0, [0, 35, 20], [0])
    expect(kept(page)).to_have_count(2)
    context.set_offline(False)
    problem = page.locator("#offline-alerts .offline-problem")
    expect(problem).to_contain_text("Bob went out")
    assert Game.objects.get(pk=night.pk).rounds_played == 0

    problem.get_by_role("button", name="Correct round 1").click()
    expect(form.locator("h2")).to_contain_text("round 1")
    expect(form.locator('input[name="points_2"]')).to_have_value("40")
    form.locator('input[name="completed_1"]').check()
    form.locator("button[type=submit]").click()

    expect(page.locator("#offline-rounds")).to_be_hidden()
    assert stored(night) == [(1, 15), (1, 0), (1, 40), (2, 0), (2, 35), (2, 20)]
