"""Correcting a night after its end: the first POST shows what the correction would
change (the winner, the tie-breaker, ranks and totals) and saves nothing; only the POST
that confirms it, with the same values and the same version, saves. With and without
htmx. (A night still being played takes a correction in one step: test_corrections.py.)"""

import re

import pytest
from django.urls import reverse

from games.models import Game, RoundScore
from tests.nights.helpers import edit_round, post_round, seats, start_night, tiebreak, undo

pytestmark = pytest.mark.django_db

CONFIRM = '<input type="hidden" name="confirm" value="1">'


@pytest.fixture
def finished(alice_client):
    """alice won in one round of a one-phase night; Carol had 20 points, Bob 35."""
    game = start_night(alice_client, phases="custom", custom="1")
    post_round(alice_client, game, went_out=0, points=[0, 35, 20], completed=[0])
    game.refresh_from_db()
    assert (game.status, game.winner.name) == (Game.Status.FINISHED, "alice")
    return game


# Round 1 really: Bob went out; alice had 10 points.
BOB_WENT_OUT = {"went_out": 1, "points": [10, 0, 20], "completed": [1]}


def saved(game):
    game.refresh_from_db()
    rows = RoundScore.objects.filter(game=game).order_by("round_number", "seat__position")
    return (
        game.version,
        game.winner.name if game.winner else None,
        [(row.points, row.went_out, row.phase_completed, row.total) for row in rows],
        [(seat.score, seat.rank, seat.is_winner) for seat in seats(game)],
    )


def text(response) -> str:
    """The page's words: tags dropped, white space collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_a_correction_of_a_finished_night_shows_the_new_winner_and_saves_nothing(
    alice_client, finished
):
    before = saved(finished)
    response = edit_round(alice_client, finished, 1, confirm=False, **BOB_WENT_OUT)
    assert response.status_code == 200
    page = text(response)
    assert "Check the correction of round 1" in page
    assert "This changes the result of the game." in page
    assert "Now: alice wins after 1 round!" in page
    assert "Afterwards: Bob wins after 1 round!" in page
    assert "Nothing is saved until you confirm." in page
    assert "Save the correction" in page and "Cancel" in page
    assert saved(finished) == before


def test_the_confirmation_lists_every_player_s_rank_and_total_before_and_after(
    alice_client, finished
):
    response = edit_round(alice_client, finished, 1, confirm=False, **BOB_WENT_OUT)
    rows = {
        row.name: (row.rank_before, row.rank_after, row.total_before, row.total_after)
        for row in response.context["correction"].seats
    }
    assert rows == {"alice": (1, 2, 0, 10), "Bob": (3, 1, 35, 0), "Carol": (2, 3, 20, 20)}
    page = response.content.decode()
    panel = page[page.index('id="entry"') :]
    panel = panel[panel.index("<table") :]  # past the sentences, whose names are in <bdi>
    # The changed values with the old ones struck out, in the order of the new ranks.
    assert panel.index(">Bob<") < panel.index(">alice<") < panel.index(">Carol<")
    assert re.search(r"<del>[^<]*(<[^>]*>[^<]*)*?35\s*</del>", panel)


def test_the_confirming_post_carries_the_same_values_the_version_and_confirm(
    alice_client, finished
):
    response = edit_round(alice_client, finished, 1, confirm=False, **BOB_WENT_OUT)
    page = response.content.decode()
    form = page[page.index('<form method="post" action="/nights/') :]
    form = form[: form.index("</form>")]
    assert CONFIRM in form
    assert f'name="version" value="{finished.version}"' in form
    for name, value in [
        ("went_out", "1"),
        ("points_0", "10"),
        ("points_1", "0"),
        ("points_2", "20"),
        ("completed_1", "on"),
    ]:
        assert f'<input type="hidden" name="{name}" value="{value}">' in form
    assert 'name="completed_0"' not in form
    assert f'href="{finished.get_absolute_url()}"' in form  # Cancel: back to the night


def test_confirming_saves_the_correction(alice_client, finished):
    response = edit_round(alice_client, finished, 1, **BOB_WENT_OUT)
    assert response.status_code == 302
    version, winner, rows, seat_rows = saved(finished)
    assert winner == "Bob"
    assert seat_rows == [(10, 2, False), (0, 1, True), (20, 3, False)]


def test_a_stale_confirmation_is_refused_and_changes_nothing(alice_client, finished):
    edit_round(alice_client, finished, 1, confirm=False, **BOB_WENT_OUT)
    old_version = finished.version
    # Meanwhile another phone corrected Carol's points (and confirmed).
    edit_round(alice_client, finished, 1, went_out=0, points=[0, 35, 25], completed=[0])
    before = saved(finished)
    response = edit_round(alice_client, finished, 1, version=old_version, **BOB_WENT_OUT)
    assert "This game changed since you opened the form" in response.content.decode()
    assert saved(finished) == before


def test_a_correction_that_leaves_the_result_says_so_and_still_asks(alice_client, finished):
    before = saved(finished)
    response = edit_round(
        alice_client, finished, 1, confirm=False, went_out=0, points=[0, 45, 20], completed=[0]
    )
    page = text(response)
    assert "The result of the game stays as it is." in page
    assert "This changes the result" not in page
    assert saved(finished) == before


def test_a_refused_correction_shows_the_form_with_its_error_not_the_confirmation(
    alice_client, finished
):
    response = edit_round(
        alice_client, finished, 1, confirm=False, went_out=0, points=[0, 35, 21], completed=[0]
    )
    page = text(response)
    assert "Points are multiples of 5" in page
    assert CONFIRM not in page


def test_a_correction_that_ties_the_night_says_a_tie_breaker_is_needed(alice_client, finished):
    # Carol laid phase 1 too and went out; alice had 0 points left as well.
    response = edit_round(
        alice_client, finished, 1, confirm=False, went_out=2, points=[0, 35, 0], completed=[0, 2]
    )
    page = text(response)
    assert "Afterwards: alice and Carol are tied on 0 points." in page
    assert "They play a tie-breaker round." in page
    edit_round(alice_client, finished, 1, went_out=2, points=[0, 35, 0], completed=[0, 2])
    finished.refresh_from_db()
    assert (finished.status, finished.winner) == (Game.Status.ACTIVE, None)


# --- htmx ---------------------------------------------------------------------------------


def test_with_htmx_the_confirmation_replaces_the_game_in_place(alice_client, finished):
    before = saved(finished)
    response = edit_round(alice_client, finished, 1, confirm=False, htmx=True, **BOB_WENT_OUT)
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="game"')
    panel = page[page.index('id="entry"') :]
    assert "Afterwards: Bob wins after 1 round!" in text(response)
    url = reverse("games:night_edit_round", args=[finished.public_id, 1])
    assert f'hx-post="{url}"' in panel and CONFIRM in panel
    assert f'hx-get="{finished.get_absolute_url()}"' in panel  # Cancel, in place
    assert saved(finished) == before

    response = edit_round(alice_client, finished, 1, htmx=True, **BOB_WENT_OUT)
    assert response.content.decode().lstrip().startswith('<div id="game"')
    page = text(response)
    assert "Round 1 corrected" in page and "Bob wins after 1 round!" in page
    assert saved(finished)[1] == "Bob"


def test_cancel_with_htmx_brings_back_the_game_unchanged(alice_client, finished):
    edit_round(alice_client, finished, 1, confirm=False, htmx=True, **BOB_WENT_OUT)
    response = alice_client.get(finished.get_absolute_url(), headers={"HX-Request": "true"})
    page = text(response)
    assert "alice wins after 1 round!" in page and CONFIRM not in page


def test_without_htmx_the_confirmation_is_a_page_of_its_own(alice_client, finished):
    response = edit_round(alice_client, finished, 1, confirm=False, **BOB_WENT_OUT)
    page = response.content.decode()
    assert page.lstrip().lower().startswith("<!doctype html>")
    assert "<h1>" in page and CONFIRM in page  # a plain form: it works without JavaScript


# --- undo ---------------------------------------------------------------------------------


def test_undoing_the_last_round_of_a_finished_night_asks_first(alice_client, finished):
    before = saved(finished)
    response = undo(alice_client, finished, confirm=False)
    assert CONFIRM in response.content.decode()
    page = text(response)
    assert "Undo round 1?" in page
    assert "Now: alice wins after 1 round!" in page
    assert "Afterwards: The game goes on with round 1." in page
    assert saved(finished) == before

    response = undo(alice_client, finished)
    assert response.status_code == 302
    finished.refresh_from_db()
    assert (finished.status, finished.rounds_played) == (Game.Status.ACTIVE, 0)


def test_undoing_a_tie_breaker_result_asks_first(alice_client):
    game = start_night(alice_client, phases="custom", custom="1")
    post_round(alice_client, game, went_out=1, points=[5, 0, 0], completed=[1, 2])
    tiebreak(alice_client, game, winner=2)
    before = saved(game)
    page = text(undo(alice_client, game, confirm=False, htmx=True))
    assert "Undo the tie-breaker result?" in page
    assert "Now: Carol wins after 1 round! Decided by the tie-breaker round." in page
    assert "Afterwards: Bob and Carol are tied on 0 points." in page
    assert saved(game) == before
    undo(alice_client, game, htmx=True)
    game.refresh_from_db()
    assert (game.status, game.tiebreak_winner, game.rounds_played) == ("active", None, 1)


def test_the_undo_button_of_a_finished_night_leaves_the_asking_to_the_server(
    alice_client, finished
):
    # The confirmation lists what the undo changes; a browser dialog on top would ask twice.
    page = alice_client.get(finished.get_absolute_url()).content.decode()
    undo_form = page[page.index(reverse("games:night_undo", args=[finished.public_id])) :]
    assert "hx-confirm" not in undo_form[: undo_form.index("</form>")]
