"""Entering rounds at the table: every scoring rule and variant, through client POSTs."""

import html
import re

import pytest
from django.urls import reverse

from games.errors import Refused
from games.models import Game, RoundScore
from games.nights import services
from games.nights.scoreboard import RoundEntry
from tests.nights.helpers import post_round, seats, start_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(alice_client):
    """alice (seat 0), Bob (1) and Carol (2); alice deals first, all ten phases."""
    return start_night(alice_client)


def scores(game):
    return [seat.score for seat in seats(game)]


def phases(game):
    return [seat.phase for seat in seats(game)]


def test_a_new_night_starts_everyone_on_phase_1_with_no_points(night):
    assert phases(night) == [1, 1, 1]
    assert scores(night) == [0, 0, 0]
    assert night.status == Game.Status.ACTIVE


def test_players_who_complete_their_phase_move_on_and_the_others_try_again(alice_client, night):
    response = post_round(alice_client, night, went_out=0, points=[0, 35, 20], completed=[0, 2])
    assert response.status_code == 302
    assert phases(night) == [2, 1, 2]
    assert scores(night) == [0, 35, 20]


def test_totals_add_up_round_after_round_and_are_stored_per_round(alice_client, night):
    post_round(alice_client, night, went_out=0, points=[0, 35, 20], completed=[0, 2])
    post_round(alice_client, night, went_out=1, points=[15, 0, 50], completed=[1])
    assert scores(night) == [15, 35, 70]
    rows = RoundScore.objects.filter(game=night, round_number=2).order_by("seat__position")
    assert [row.total for row in rows] == [15, 35, 70]
    assert [row.phase_attempted for row in rows] == [2, 1, 2]
    assert [row.phase_completed for row in rows] == [None, 1, None]
    assert [row.went_out for row in rows] == [False, True, False]
    night.refresh_from_db()
    assert night.rounds_played == 2


def test_the_deal_passes_to_the_next_seat_and_the_player_after_the_dealer_plays_first(
    alice_client, night
):
    page = alice_client.get(night.get_absolute_url())
    board = page.context["board"]
    assert (board.dealer.name, board.first_player.name) == ("alice", "Bob")
    post_round(alice_client, night, went_out=0, points=[0, 35, 20], completed=[0])
    board = alice_client.get(night.get_absolute_url()).context["board"]
    assert (board.dealer.name, board.first_player.name) == ("Bob", "Carol")
    assert "<bdi>Bob</bdi> deals" in alice_client.get(night.get_absolute_url()).content.decode()


def test_the_chosen_first_dealer_deals_round_1(alice_client):
    game = start_night(alice_client, dealer=2)
    board = alice_client.get(game.get_absolute_url()).context["board"]
    assert (board.dealer.name, board.first_player.name) == ("Carol", "alice")


def test_the_player_who_went_out_needs_no_typed_points(alice_client, night):
    response = post_round(alice_client, night, went_out=1, points=[10, "", 25], completed=[1])
    assert response.status_code == 302
    assert scores(night) == [10, 0, 25]


def test_completing_the_last_phase_ends_the_game_and_the_lowest_total_of_those_wins(alice_client):
    game = start_night(alice_client, phases="custom", custom="1 2")
    post_round(alice_client, game, went_out=0, points=[0, 40, 50], completed=[0, 1, 2])
    post_round(alice_client, game, went_out=2, points=[5, 25, 0], completed=[1, 2])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    # alice has the lowest total but didn't complete phase 2, the last one.
    assert scores(game) == [5, 65, 50]
    assert game.winner.name == "Carol"
    assert game.finished_at is not None
    assert [(seat.rank, seat.is_winner) for seat in seats(game)] == [
        (3, False),
        (2, False),
        (1, True),
    ]
    page = alice_client.get(game.get_absolute_url()).content.decode()
    assert "<bdi>Carol</bdi> wins after 2 rounds!" in page
    assert "Final standings" in page


def test_no_round_can_be_added_once_the_game_is_over(alice_client):
    game = start_night(alice_client, phases="custom", custom="1")
    post_round(alice_client, game, went_out=0, points=[0, 5, 5], completed=[0])
    response = post_round(alice_client, game, went_out=0, points=[0, 5, 5], completed=[0])
    assert "The game was already over." in response.content.decode()
    game.refresh_from_db()
    assert game.rounds_played == 1


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("first5", [1, 2, 3, 4, 5]),
        ("first8", [1, 2, 3, 4, 5, 6, 7, 8]),
        ("even", [2, 4, 6, 8, 10]),
        ("odd", [1, 3, 5, 7, 9]),
        ("all", list(range(1, 11))),
    ],
)
def test_each_phase_list_is_played_in_order_and_its_last_phase_ends_the_game(
    alice_client, variant, expected
):
    game = start_night(alice_client, guests=["Bob"], phases=variant)
    seen = []
    while game.status == Game.Status.ACTIVE:
        seen.append(seats(game)[0].phase)
        response = post_round(alice_client, game, went_out=0, points=[0, 10], completed=[0])
        assert response.status_code == 302
        game.refresh_from_db()
    assert seen == expected
    assert game.winner.name == "alice"
    assert game.rounds_played == len(expected)


def test_a_custom_phase_list_is_played_in_the_order_typed(alice_client):
    game = start_night(alice_client, guests=["Bob"], phases="custom", custom="7, 2 9")
    assert game.rules["phases"] == [7, 2, 9]
    assert phases(game) == [7, 7]
    post_round(alice_client, game, went_out=1, points=[40, 0], completed=[1])
    assert phases(game) == [7, 2]


def test_in_all_advance_everyone_moves_on_and_the_lowest_total_wins_after_the_last_phase(
    alice_client,
):
    game = start_night(alice_client, phases="first5", advance="all_advance")
    post_round(alice_client, game, went_out=0, points=[0, 40, 60], completed=[0])
    assert phases(game) == [2, 2, 2]  # Bob and Carol move on without completing phase 1
    for _round in range(3):
        post_round(alice_client, game, went_out=1, points=[30, 0, 5], completed=[1])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    post_round(alice_client, game, went_out=2, points=[5, 5, 0], completed=[2])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert scores(game) == [95, 45, 75]
    assert game.winner.name == "Bob"
    assert [seat.rank for seat in seats(game)] == [3, 1, 2]


def test_in_pick_a_phase_each_player_lays_any_phase_not_done_yet(alice_client):
    game = start_night(alice_client, guests=["Bob"], phases="first5", advance="pick_a_phase")
    assert phases(game) == [None, None]
    response = post_round(alice_client, game, went_out=0, points=[0, 20], completed={0: 4, 1: 2})
    assert response.status_code == 302
    assert [seat.phases_completed for seat in seats(game)] == [1, 1]
    row = RoundScore.objects.get(game=game, round_number=1, seat__position=0)
    assert (row.phase_attempted, row.phase_completed) == (4, 4)
    page = alice_client.get(game.get_absolute_url()).content.decode()
    select = page[page.index('<select name="completed_0"') : page.index("</select>")]
    offered = re.findall(r'<option value="(\d+)"', select)
    assert offered == ["1", "2", "3", "5"]  # phase 4 is done: it can't be laid again


def test_in_pick_a_phase_a_phase_already_done_is_refused(alice_client):
    game = start_night(alice_client, guests=["Bob"], phases="first5", advance="pick_a_phase")
    post_round(alice_client, game, went_out=0, points=[0, 20], completed={0: 4})
    response = post_round(alice_client, game, went_out=0, points=[0, 20], completed={0: 4})
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    game.refresh_from_db()
    assert game.rounds_played == 1


def test_in_pick_a_phase_the_first_to_complete_every_phase_wins(alice_client):
    game = start_night(
        alice_client, guests=["Bob"], phases="custom", custom="1 2", advance="pick_a_phase"
    )
    post_round(alice_client, game, went_out=0, points=[0, 20], completed={0: 2})
    post_round(alice_client, game, went_out=0, points=[0, 20], completed={0: 1, 1: 1})
    game.refresh_from_db()
    assert game.winner.name == "alice"
    page = alice_client.get(game.get_absolute_url()).content.decode()
    assert "2 of 2 phases" in page


def test_htmx_gets_the_updated_game_inline_instead_of_a_redirect(alice_client, night):
    response = post_round(
        alice_client, night, htmx=True, went_out=0, points=[0, 35, 20], completed=[0]
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="game"' in page and "<html" not in page
    assert "Round 1 saved." in page
    assert "Enter round 2" in page


# --- validation ---------------------------------------------------------------------------


def refused(response, game, message):
    """The form comes back with `message` (entities such as &#x27; decoded) and the game
    is unchanged."""
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert message in page, page
    game.refresh_from_db()
    assert game.rounds_played == 0
    assert not RoundScore.objects.filter(game=game).exists()


def test_points_must_be_multiples_of_5(alice_client, night):
    response = post_round(alice_client, night, went_out=0, points=[0, 33, 20], completed=[0])
    refused(response, night, "Points are multiples of 5")


def test_points_cant_be_negative(alice_client, night):
    response = post_round(alice_client, night, went_out=0, points=[0, -5, 20], completed=[0])
    refused(response, night, "Points can't be negative.")


@pytest.mark.parametrize("points", ["255", "1000000000", "2147483648", "9" * 20])
def test_points_above_what_a_hand_can_hold_are_refused_naming_the_player(
    alice_client, night, points
):
    response = post_round(alice_client, night, went_out=0, points=[0, points, 20], completed=[0])
    refused(response, night, "Bob can't have more than 250 points in one round")
    assert list(response.context["form"].errors) == ["points_1"]


def test_the_engine_refuses_too_many_points_for_the_named_player_even_without_the_form(night):
    entry = RoundEntry(went_out=0, points=(0, 1_000_000_000, 20), completed={0: 1})
    with pytest.raises(Refused) as refusal:
        services.add_round(night, entry, version=night.version)
    assert refusal.value.message == "The points of Bob must be a multiple of 5 from 0 to 250."
    assert refusal.value.field == "points_1"
    night.refresh_from_db()
    assert night.rounds_played == 0


def test_points_must_be_a_number(alice_client, night):
    response = post_round(alice_client, night, went_out=0, points=[0, "lots", 20], completed=[0])
    refused(response, night, "Type the points as a whole number.")


def test_every_player_but_the_one_who_went_out_needs_points(alice_client, night):
    response = post_round(alice_client, night, went_out=0, points=[0, "", 20], completed=[0])
    refused(response, night, "Enter the points of Bob.")


def test_the_form_asks_who_went_out_or_that_nobody_did(alice_client, night):
    response = post_round(alice_client, night, went_out=None, points=[5, 5, 20], completed=[0])
    refused(response, night, "Choose the player who went out, or nobody.")


def test_only_one_player_can_go_out(alice_client, night):
    data = {
        "version": night.version,
        "went_out": ["0", "1"],
        "points_0": 0,
        "points_1": 0,
        "points_2": 5,
        "completed_0": "on",
        "completed_1": "on",
    }
    response = alice_client.post(reverse("games:night_add_round", args=[night.public_id]), data)
    refused(response, night, "Only one player can go out in a round.")


def test_the_player_who_went_out_scores_0(alice_client, night):
    response = post_round(alice_client, night, went_out=0, points=[10, 5, 20], completed=[0])
    refused(response, night, "alice went out, so they score 0 this round.")
    assert response.context["form"].errors["points_0"]


def test_nobody_goes_out_without_completing_their_phase(alice_client, night):
    response = post_round(alice_client, night, went_out=1, points=[10, 0, 20], completed=[0])
    refused(response, night, "Bob went out, so they must have completed their phase this round.")
    assert response.context["form"].errors["completed_1"]


def test_a_forged_seat_is_refused(alice_client, night):
    response = post_round(alice_client, night, went_out=7, points=[10, 0, 20], completed=[1])
    refused(response, night, "Select a valid choice")


def test_a_stale_form_is_refused_and_the_current_game_shown(alice_client, night):
    post_round(alice_client, night, went_out=0, points=[0, 35, 20], completed=[0])
    response = post_round(
        alice_client, night, version=1, went_out=0, points=[0, 35, 20], completed=[0]
    )
    page = response.content.decode()
    assert "This game changed since you opened the form" in page
    night.refresh_from_db()
    assert night.rounds_played == 1
    assert f'name="version" value="{night.version}"' in page  # a fresh form to try again


def test_a_double_tap_saves_the_round_once(alice_client, night):
    night.refresh_from_db()
    version = night.version
    for _tap in range(2):
        post_round(
            alice_client, night, version=version, went_out=0, points=[0, 35, 20], completed=[0]
        )
    night.refresh_from_db()
    assert night.rounds_played == 1
    assert scores(night) == [0, 35, 20]


def test_each_change_bumps_the_game_version(alice_client, night):
    night.refresh_from_db()
    before = night.version
    post_round(alice_client, night, went_out=0, points=[0, 35, 20], completed=[0])
    night.refresh_from_db()
    assert night.version == before + 1
