"""Fixing mistakes: edit any past round, undo the last; everything after is recomputed.
And the tie-breaker: say so, name the tied players and the goal, record its winner, and
keep that result through corrections (set aside while they change the tie, back when
they restore it). Corrections after the end ask first: test_finished_corrections.py."""

import pytest
from django.db.models import F
from django.urls import reverse

from games.models import Game, RoundScore
from tests.nights.helpers import edit_round, post_round, seats, start_night, tiebreak, undo

pytestmark = pytest.mark.django_db


def state(game):
    return [(seat.phase, seat.score) for seat in seats(game)]


@pytest.fixture
def three_rounds(alice_client):
    """alice, Bob, Carol after three rounds of the standard game."""
    game = start_night(alice_client)
    post_round(alice_client, game, went_out=0, points=[0, 35, 20], completed=[0])
    post_round(alice_client, game, went_out=1, points=[10, 0, 50], completed=[0, 1])
    post_round(alice_client, game, went_out=0, points=[0, 5, 25], completed=[0, 2])
    assert state(game) == [(4, 10), (2, 40), (2, 95)]
    return game


def test_editing_a_past_round_recomputes_the_later_rounds(alice_client, three_rounds):
    game = three_rounds
    # Round 1 really: Carol completed phase 1 too, and Bob had 45 points.
    response = edit_round(alice_client, game, 1, went_out=0, points=[0, 45, 20], completed=[0, 2])
    assert response.status_code == 302
    assert state(game) == [(4, 10), (2, 50), (3, 95)]
    # Carol's round-3 completion moved from phase 1 to phase 2 with the edit.
    row = RoundScore.objects.get(game=game, round_number=3, seat__position=2)
    assert (row.phase_attempted, row.phase_completed, row.total) == (2, 2, 95)
    bob_totals = RoundScore.objects.filter(game=game, seat__position=1).order_by("round_number")
    assert [row.total for row in bob_totals] == [45, 45, 50]


def test_the_edit_form_is_filled_in_with_the_round_as_entered(alice_client, three_rounds):
    url = reverse("games:night_edit_round", args=[three_rounds.public_id, 2])
    response = alice_client.get(url)
    form = response.context["form"]
    assert form.initial["went_out"] == 1
    assert [form.initial[f"points_{seat}"] for seat in range(3)] == [10, 0, 50]
    assert [form.initial[f"completed_{seat}"] for seat in range(3)] == [True, True, False]
    assert "Correct round 2" in response.content.decode()
    assert "Phase 2 done" in response.content.decode()  # alice's phase in round 2


def test_htmx_opens_the_edit_form_in_place(alice_client, three_rounds):
    url = reverse("games:night_edit_round", args=[three_rounds.public_id, 2])
    page = alice_client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert page.lstrip().startswith('<section class="panel entry" id="entry">')


def test_an_edit_that_breaks_a_later_round_is_refused_and_changes_nothing(alice_client):
    game = start_night(alice_client, guests=["Bob"], phases="first5", advance="pick_a_phase")
    post_round(alice_client, game, went_out=0, points=[0, 35], completed={0: 2})
    post_round(alice_client, game, went_out=0, points=[0, 10], completed={0: 1})
    game.refresh_from_db()
    version = game.version
    rows_before = list(RoundScore.objects.filter(game=game).values_list("phase_completed"))
    # If alice had laid phase 1 in round 1, she couldn't have laid it again in round 2.
    response = edit_round(alice_client, game, 1, went_out=0, points=[0, 35], completed={0: 1})
    page = response.content.decode()
    assert "With that change, round 2 no longer adds up" in page
    assert "alice has already completed phase 1." in page
    game.refresh_from_db()
    assert game.version == version
    assert list(RoundScore.objects.filter(game=game).values_list("phase_completed")) == (
        rows_before
    )


def test_editing_the_deciding_round_can_reopen_a_finished_game(alice_client):
    game = start_night(alice_client, guests=["Bob"], phases="custom", custom="1")
    post_round(alice_client, game, went_out=0, points=[0, 35], completed=[0])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    # Oops: it was Bob who went out, and it still ended the game — with Bob as winner.
    edit_round(alice_client, game, 1, went_out=1, points=[20, 0], completed=[1])
    game.refresh_from_db()
    assert game.winner.name == "Bob"
    assert [seat.is_winner for seat in seats(game)] == [False, True]


def test_a_round_that_doesnt_exist_cant_be_edited(alice_client, three_rounds):
    url = reverse("games:night_edit_round", args=[three_rounds.public_id, 9])
    assert alice_client.get(url).status_code == 404


def test_undo_takes_back_the_last_round(alice_client, three_rounds):
    game = three_rounds
    game.refresh_from_db()
    url = reverse("games:night_undo", args=[game.public_id])
    response = alice_client.post(url, {"version": game.version})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.rounds_played == 2
    assert state(game) == [(3, 10), (2, 35), (1, 70)]
    assert not RoundScore.objects.filter(game=game, round_number=3).exists()


def test_undo_reopens_a_finished_game(alice_client):
    game = start_night(alice_client, guests=["Bob"], phases="custom", custom="1")
    post_round(alice_client, game, went_out=0, points=[0, 35], completed=[0])
    undo(alice_client, game)
    game.refresh_from_db()
    assert (game.status, game.winner, game.finished_at) == (Game.Status.ACTIVE, None, None)


def test_undo_with_no_rounds_says_so(alice_client):
    game = start_night(alice_client)
    game.refresh_from_db()
    url = reverse("games:night_undo", args=[game.public_id])
    response = alice_client.post(url, {"version": game.version})
    assert "There is no round to undo yet." in response.content.decode()


def test_a_stale_undo_is_refused(alice_client, three_rounds):
    game = three_rounds
    url = reverse("games:night_undo", args=[game.public_id])
    response = alice_client.post(url, {"version": 1})
    assert "This game changed since you opened the form" in response.content.decode()
    game.refresh_from_db()
    assert game.rounds_played == 3


# --- tie-breaker --------------------------------------------------------------------------


def test_a_tie_among_those_who_finished_calls_for_a_tie_breaker_round(alice_client):
    game = start_night(alice_client, phases="custom", custom="1 10")
    post_round(alice_client, game, went_out=1, points=[5, 0, 20], completed=[1, 2])
    post_round(alice_client, game, went_out=2, points=[50, 20, 0], completed=[1, 2])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    page = alice_client.get(game.get_absolute_url())
    text = page.content.decode()
    assert "Tie-breaker round!" in text
    assert "<bdi>Bob</bdi> and <bdi>Carol</bdi> are tied on 20 points." in text
    assert "a set of 5 + a set of 3" in text
    assert "Who won the tie-breaker?" in text
    assert "Enter round" not in text
    # The tied players play it: Carol deals round 3 and Bob (left of her, tied) plays first.
    assert "<bdi>Carol</bdi> deals, <bdi>Bob</bdi> plays first." in text

    url = reverse("games:night_tiebreak", args=[game.public_id])
    response = alice_client.post(url, {"version": game.version, "winner": 2})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert (game.winner.name, game.tiebreak_winner) == ("Carol", 2)
    assert [seat.rank for seat in seats(game)] == [3, 2, 1]
    text = alice_client.get(game.get_absolute_url()).content.decode()
    assert "<bdi>Carol</bdi> wins after 2 rounds!" in text
    assert "Decided by the tie-breaker round." in text


def tie(client):
    game = start_night(client, phases="custom", custom="1")
    post_round(client, game, went_out=1, points=[5, 0, 0], completed=[1, 2])
    game.refresh_from_db()
    return game


def test_only_a_tied_player_can_win_the_tie_breaker(alice_client):
    game = tie(alice_client)
    url = reverse("games:night_tiebreak", args=[game.public_id])
    response = alice_client.post(url, {"version": game.version, "winner": 0})
    assert "Only the tied players play the tie-breaker." in response.content.decode()
    game.refresh_from_db()
    assert game.tiebreak_winner is None


def test_no_more_rounds_while_a_tie_breaker_is_due(alice_client):
    game = tie(alice_client)
    response = post_round(alice_client, game, went_out=1, points=[5, 0, 0], completed=[1])
    assert "A tie-breaker round is due" in response.content.decode()
    game.refresh_from_db()
    assert game.rounds_played == 1


def test_a_tie_breaker_winner_is_refused_when_no_tie_breaker_is_due(alice_client):
    game = start_night(alice_client)
    game.refresh_from_db()
    url = reverse("games:night_tiebreak", args=[game.public_id])
    response = alice_client.post(url, {"version": game.version, "winner": 1})
    assert "No tie-breaker round is due." in response.content.decode()


def test_undo_first_takes_back_the_tie_breaker_result(alice_client):
    game = tie(alice_client)
    tiebreak(alice_client, game, winner=1)
    undo(alice_client, game)
    game.refresh_from_db()
    assert (game.status, game.tiebreak_winner, game.rounds_played) == ("active", None, 1)


def test_an_edit_that_removes_the_tie_sets_the_tie_breaker_result_aside(alice_client):
    game = tie(alice_client)
    tiebreak(alice_client, game, winner=2)
    # Carol had 10 points after all: no tie, Bob wins; Carol's tie-breaker win no longer
    # counts, but it is kept (it was won, for the tie of Bob and Carol).
    edit_round(alice_client, game, 1, went_out=1, points=[5, 0, 10], completed=[1, 2])
    game.refresh_from_db()
    assert (game.status, game.winner.name) == (Game.Status.FINISHED, "Bob")
    assert (game.tiebreak_winner, game.tiebreak_seats) == (2, [1, 2])
    page = alice_client.get(game.get_absolute_url()).content.decode()
    assert "Decided by the tie-breaker round." not in page
    assert "Undo round 1" in page and "Undo the tie-breaker result" not in page


def test_reverting_a_correction_that_removed_the_tie_brings_back_the_tie_breaker_win(
    alice_client,
):
    game = tie(alice_client)
    tiebreak(alice_client, game, winner=2)
    edit_round(alice_client, game, 1, went_out=1, points=[5, 0, 10], completed=[1, 2])
    page = edit_round(
        alice_client, game, 1, confirm=False, went_out=1, points=[5, 0, 0], completed=[1, 2]
    ).content.decode()
    assert "The tie-breaker win of <bdi>Carol</bdi> counts again" in page
    edit_round(alice_client, game, 1, went_out=1, points=[5, 0, 0], completed=[1, 2])
    game.refresh_from_db()
    assert (game.status, game.winner.name, game.tiebreak_winner) == ("finished", "Carol", 2)
    assert [seat.rank for seat in seats(game)] == [3, 2, 1]
    page = alice_client.get(game.get_absolute_url()).content.decode()
    assert "<bdi>Carol</bdi> wins after 1 round!" in page
    assert "Decided by the tie-breaker round." in page


def test_the_confirmation_says_the_tie_breaker_win_no_longer_counts(alice_client):
    game = tie(alice_client)
    tiebreak(alice_client, game, winner=2)
    response = edit_round(
        alice_client, game, 1, confirm=False, went_out=1, points=[5, 0, 10], completed=[1, 2]
    )
    page = " ".join(response.content.decode().split())
    assert (
        "The tie-breaker win of <bdi>Carol</bdi> no longer counts: it was for the tie of "
        "<bdi>Bob</bdi> and <bdi>Carol</bdi>." in (page)
    )
    assert "It is kept, and counts again if a correction brings that tie back." in page


def test_an_edit_that_changes_who_is_tied_asks_for_the_tie_breaker_again(alice_client):
    game = tie(alice_client)
    tiebreak(alice_client, game, winner=2)
    # alice laid phase 1 too, with no points left: all three are tied.
    edit_round(alice_client, game, 1, went_out=1, points=[0, 0, 0], completed=[0, 1, 2])
    game.refresh_from_db()
    assert (game.status, game.winner) == (Game.Status.ACTIVE, None)
    page = alice_client.get(game.get_absolute_url()).content.decode()
    assert "<bdi>alice</bdi>, <bdi>Bob</bdi> and <bdi>Carol</bdi> are tied on 0 points." in page
    assert "Who won the tie-breaker?" in page
    # Back to the tie of Bob and Carol: the win recorded for it counts again.
    edit_round(alice_client, game, 1, went_out=1, points=[5, 0, 0], completed=[1, 2])
    game.refresh_from_db()
    assert (game.status, game.winner.name) == (Game.Status.FINISHED, "Carol")


def test_a_new_tie_breaker_result_replaces_the_one_set_aside(alice_client):
    game = tie(alice_client)
    tiebreak(alice_client, game, winner=2)
    edit_round(alice_client, game, 1, went_out=1, points=[0, 0, 0], completed=[0, 1, 2])
    tiebreak(alice_client, game, winner=0)
    game.refresh_from_db()
    assert (game.winner.name, game.tiebreak_winner, game.tiebreak_seats) == ("alice", 0, [0, 1, 2])


def test_undoing_the_round_forgets_a_tie_breaker_result_set_aside(alice_client):
    game = tie(alice_client)
    tiebreak(alice_client, game, winner=2)
    edit_round(alice_client, game, 1, went_out=1, points=[0, 0, 0], completed=[0, 1, 2])
    undo(alice_client, game)
    game.refresh_from_db()
    assert (game.rounds_played, game.tiebreak_winner, game.tiebreak_seats) == (0, None, [])
    # The same round entered again is a new tie: nobody has won its tie-breaker yet.
    post_round(alice_client, game, went_out=1, points=[5, 0, 0], completed=[1, 2])
    game.refresh_from_db()
    assert (game.status, game.winner) == (Game.Status.ACTIVE, None)


def test_a_new_round_forgets_a_tie_breaker_result_set_aside(alice_client):
    game = start_night(alice_client, phases="custom", custom="1 2")
    post_round(alice_client, game, went_out=0, points=[0, 0, 0], completed=[0, 1, 2])
    post_round(alice_client, game, went_out=1, points=[5, 0, 0], completed=[1, 2])
    tiebreak(alice_client, game, winner=2)
    # Round 1 really: only alice laid phase 1. Round 2's lay-downs were phase 1 then,
    # the night goes on, and the tie-breaker result no longer counts.
    edit_round(alice_client, game, 1, went_out=0, points=[0, 0, 0], completed=[0])
    game.refresh_from_db()
    assert (game.status, game.tiebreak_winner) == (Game.Status.ACTIVE, 2)
    # Round 3 ties Bob and Carol again: a new tie, whose tie-breaker is still to play.
    post_round(alice_client, game, went_out=1, points=[5, 0, 0], completed=[1, 2])
    game.refresh_from_db()
    assert (game.status, game.winner, game.tiebreak_winner) == (Game.Status.ACTIVE, None, None)
    assert "Who won the tie-breaker?" in alice_client.get(game.get_absolute_url()).content.decode()


def test_a_tie_breaker_result_stored_without_its_seats_still_counts(alice_client):
    """Results recorded before the tied seats were kept (and the demo's) have none."""
    game = tie(alice_client)
    tiebreak(alice_client, game, winner=2)
    Game.objects.filter(pk=game.pk).update(tiebreak_seats=[], version=F("version") + 1)
    page = alice_client.get(game.get_absolute_url()).content.decode()
    assert "<bdi>Carol</bdi> wins after 1 round!" in page
