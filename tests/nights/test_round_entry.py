"""Entering a round on one screen (issue 16): a round nobody went out of, the summary of
the round just saved, and what the night's page costs."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import Rules
from games.models import Game, Player, RoundScore
from games.nights import services
from games.nights.scoreboard import RoundEntry
from games.stats import rating_ledger
from tests.nights.helpers import edit_round, post_round, seats, start_night
from tests.stats.factories import laid, make_game, missed

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(alice_client):
    """alice (seat 0), Bob (1) and Carol (2); alice deals first, all ten phases."""
    return start_night(alice_client)


def finished_night(user, players: int) -> Game:
    """A night played to its end: each round one player goes out and the next one
    completes their phase too."""
    names = [Player.for_user(user), *[f"Guest {n}" for n in range(1, players)]]
    game = services.create_game(user, players=names, first_dealer=0, rules=Rules())
    number = 0
    while game.status != Game.Status.FINISHED:
        out = number % players
        points = tuple(
            0 if seat == out else 5 * ((seat + number) % 9 + 1) for seat in range(players)
        )
        entry = RoundEntry(
            went_out=out, points=points, completed={out: None, (out + 1) % players: None}
        )
        game = services.add_round(game, entry, version=game.version)
        number += 1
    return game


# --- nobody went out ------------------------------------------------------------------------


def test_a_round_nobody_went_out_of_is_saved_with_everyones_points(alice_client, night):
    response = post_round(alice_client, night, went_out="none", points=[15, 5, 20], completed=[1])
    assert response.status_code == 302
    night.refresh_from_db()
    assert night.rounds_played == 1
    assert [seat.score for seat in seats(night)] == [15, 5, 20]
    assert [seat.phase for seat in seats(night)] == [1, 2, 1]
    assert not RoundScore.objects.filter(game=night, went_out=True).exists()


def test_when_nobody_went_out_nobody_scores_0_without_typing_it(alice_client, night):
    response = post_round(alice_client, night, went_out="none", points=["", 5, 20])
    assert response.status_code == 200
    assert "Enter the points of alice." in response.content.decode()
    night.refresh_from_db()
    assert night.rounds_played == 0


def test_a_round_nobody_went_out_of_is_opened_for_correction_as_such(alice_client, night):
    post_round(alice_client, night, went_out="none", points=[15, 5, 20])
    response = alice_client.get(reverse("games:night_edit_round", args=[night.public_id, 1]))
    assert response.context["form"].initial["went_out"] == "none"
    # The "nobody went out" radio is the one checked on the page.
    radio = re.search(
        r'<input type="radio" name="went_out" value="none"[^>]*>', response.content.decode()
    )
    assert radio is not None and " checked" in radio.group(0)
    assert len(re.findall(r'name="went_out"[^>]* checked', response.content.decode())) == 1
    # Corrected: Bob went out after all.
    edit_round(alice_client, night, 1, went_out=1, points=[15, 0, 20], completed=[1])
    night.refresh_from_db()
    assert [seat.score for seat in seats(night)] == [15, 0, 20]
    assert RoundScore.objects.get(game=night, went_out=True).seat.position == 1


def test_the_went_out_group_offers_nobody_after_the_players(alice_client, night):
    page = alice_client.get(night.get_absolute_url()).content.decode()
    radios = page.count('name="went_out"')
    assert radios == 4
    assert page.index('value="2" id="id_went_out_2"') < page.index('value="none"')
    assert "Nobody (the deck ran out)" in page


# --- the round just saved ---------------------------------------------------------------------


def test_after_a_save_htmx_gets_a_summary_of_the_round_on_top(alice_client, night):
    response = post_round(
        alice_client, night, htmx=True, went_out=0, points=[0, 35, 20], completed=[0]
    )
    page = response.content.decode()
    summary = page[page.index('id="round-summary"') : page.index('class="scoreboard"')]
    assert "Round 1 saved." in summary
    assert "<bdi>alice</bdi> leads." in summary
    # alice dealt round 1: Bob deals round 2 and Carol plays first.
    assert "<bdi>Bob</bdi> deals, <bdi>Carol</bdi> plays first." in summary
    assert page.index('id="round-summary"') < page.index("Enter round 2")


def test_players_level_at_the_top_share_the_lead(alice_client, night):
    response = post_round(
        alice_client, night, htmx=True, went_out="none", points=[10, 10, 20], completed=[0, 1]
    )
    assert "<bdi>alice</bdi> and <bdi>Bob</bdi> share the lead." in response.content.decode()


def test_in_arabic_a_latin_name_is_isolated_in_the_summarys_sentences(alice_client):
    # Unisolated, "Sara!" before Arabic words is shown as "!Sara" (the "!" joins them).
    night = start_night(alice_client, guests=["Sara!", "Bo 2"])
    alice_client.post(reverse("set_language"), {"language": "ar", "next": "/"})
    response = post_round(
        alice_client, night, htmx=True, went_out=1, points=[35, 0, 20], completed=[1]
    )
    page = response.content.decode()
    assert "<bdi>Sara!</bdi> في الصدارة." in page
    assert "<bdi>Sara!</bdi> يوزّع، و<bdi>Bo 2</bdi> يلعب أولًا." in page


def test_a_plain_save_lands_on_the_summary(alice_client, night):
    response = post_round(alice_client, night, went_out=0, points=[0, 35, 20], completed=[0])
    assert response.status_code == 302
    assert response.url == f"{night.get_absolute_url()}?saved=1#round-summary"
    page = alice_client.get(response.url).content.decode()
    assert 'id="round-summary"' in page and "Round 1 saved." in page


def test_the_summary_is_shown_only_for_the_last_round(alice_client, night):
    post_round(alice_client, night, went_out=0, points=[0, 35, 20], completed=[0])
    for saved in ("2", "0", "x", "", "²", "1" * 5000):
        response = alice_client.get(night.get_absolute_url(), {"saved": saved})
        assert response.status_code == 200
        assert 'id="round-summary"' not in response.content.decode()


def test_the_summary_of_the_round_that_ends_the_night_names_no_next_deal(alice, alice_client):
    game = services.create_game(
        alice, players=[Player.for_user(alice), "Bob"], first_dealer=0, rules=Rules(phases=(1,))
    )
    response = post_round(alice_client, game, htmx=True, went_out=0, points=[0, 20], completed=[0])
    page = response.content.decode()
    summary = page[page.index('id="round-summary"') : page.index('class="scoreboard"')]
    assert "Round 1 saved." in summary and "deals" not in summary
    assert "<bdi>alice</bdi> wins after 1 round!" in page


# --- the night's page ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 6])
def test_a_finished_nights_page_takes_the_same_queries_however_long_it_was(
    alice, alice_client, players, django_assert_max_num_queries
):
    game = finished_night(alice, players)
    alice_client.get(game.get_absolute_url())
    # session, user, the game (with its ratings' version): the menu's badge and the
    # scoreboard are kept, the rounds, the chart, the ratings and the share panel (with
    # its co-scorers) drawn already.
    with django_assert_max_num_queries(3):
        page = alice_client.get(game.get_absolute_url())
    assert "wins after" in page.content.decode()


def test_a_finished_nights_ratings_are_drawn_again_when_a_run_works_them_out_again(
    alice, alice_client
):
    """The ratings' run writes a night's rating changes after its last version and moves
    its `ratings_version` on: the kept section is drawn again, while the page's forms
    (which carry the version) stay good."""

    def ratings(page) -> str:  # type: ignore[no-untyped-def]
        html = page.content.decode()
        return html[html.index('<section class="rating-changes"') :].split("</section>")[0]

    game = finished_night(alice, 3)
    rating_ledger.run()
    first = ratings(alice_client.get(game.get_absolute_url()))
    assert "rating-value" in first
    # A night the same three played the day before comes in late: the run rates it
    # first, then works this one out again from the new ratings.
    players = [seat.player for seat in game.seats.order_by("position")]
    late = make_game(players, [[missed(1, 50), missed(1, 50), laid(1, out=True)]], winner=2)
    before = Game.objects.get(pk=game.pk)
    rating_ledger.run(late.pk)
    game.refresh_from_db()
    assert game.version == before.version
    assert game.ratings_version > before.ratings_version
    assert ratings(alice_client.get(game.get_absolute_url())) != first


def test_the_csrf_token_is_fresh_for_every_request_of_a_cached_page(alice, alice_client):
    game = finished_night(alice, 3)
    first = alice_client.get(game.get_absolute_url()).content.decode()
    second = alice_client.get(game.get_absolute_url()).content.decode()
    token = 'name="csrfmiddlewaretoken" value="'

    def tokens(page: str) -> list[str]:
        return [part.split('"', 1)[0] for part in page.split(token)[1:]]

    assert tokens(first) and tokens(second)
    assert set(tokens(first)).isdisjoint(tokens(second))
    # The forms that carry them: undo, rematch, another scorer (whose fields are cached).
    for page in (first, second):
        assert "Undo round" in page and "Rematch" in page
        assert 'name="username"' in page and "Let another member keep score" in page


def test_a_seated_member_who_doesnt_keep_score_sees_the_night_without_its_forms(alice, bob, client):
    game = services.create_game(
        alice, players=[Player.for_user(alice), Player.for_user(bob)], first_dealer=0, rules=Rules()
    )
    client.force_login(bob)
    page = client.get(game.get_absolute_url())
    assert page.status_code == 200
    assert page.context["can_edit"] is False
    assert "round-form" not in page.content.decode()


def test_a_new_rounds_form_is_kept_per_version_with_a_token_its_browser_can_post(
    alice, alice_client, night
):
    def form_of(page: str) -> str:
        return page[
            page.index('class="round-form"') : page.index("</form>", page.index("round-form"))
        ]

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    browser.get("/")  # the CSRF cookie: the game is kept per cookie (games/cache_keys.py)
    first = form_of(browser.get(night.get_absolute_url()).content.decode())
    second = form_of(browser.get(night.get_absolute_url()).content.decode())
    token = 'name="csrfmiddlewaretoken" value="'
    assert token in first and first == second  # kept, as drawn
    kept = first.split(token)[1].split('"', 1)[0]
    language = browser.post(reverse("set_language"), {"language": "en"})
    assert language.status_code == 403  # the check is on
    language = browser.post(
        reverse("set_language"), {"language": "en", "csrfmiddlewaretoken": kept}
    )
    assert language.status_code == 302
    post_round(alice_client, night, went_out=0, points=[0, 35, 20], completed=[0])
    assert "Enter round 2" in form_of(alice_client.get(night.get_absolute_url()).content.decode())
