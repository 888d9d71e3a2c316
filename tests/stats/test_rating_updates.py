"""When ratings change: an online game ends, a finished game night is corrected (or its
end undone), a guest's history is claimed. The services publish the ratings' task by
name after commit; here it runs in-process."""

import pytest
from django.urls import reverse

from accounts import claims
from accounts.models import GuestClaim
from games.engine import Rules
from games.models import Game, Player, Rating, RatingChange
from games.stats import rating_ledger
from tests.nights.helpers import edit_round, post_round, start_night
from tests.online.helpers import play_on, started_game

from .factories import make_game, player
from .test_rating_ledger import recomputed, snapshot

pytestmark = pytest.mark.django_db


def changes(game):
    return {
        change.player.name: change.rank
        for change in RatingChange.objects.filter(game=game).select_related("player")
    }


def test_an_online_game_is_rated_when_it_ends_among_its_people(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(alice, bob, bots=1, rules=Rules(phases=(1,)), seed=3)
        game = play_on(game)
    assert game.status == Game.Status.FINISHED
    assert set(changes(game)) == {"alice", "bob"}
    assert sorted(changes(game).values()) in ([1, 2], [1, 1])
    assert Rating.objects.count() == 2


def test_an_online_game_its_creator_did_not_rate_moves_nobody(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(alice, bob, rules=Rules(phases=(1,)), seed=3)
        Game.objects.filter(pk=game.pk).update(rated=False)
        play_on(game)
    assert not RatingChange.objects.exists()


def test_a_finished_game_night_is_rated(alice_client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_night(alice_client, guests=["Bob"], phases="custom", custom="1")
        post_round(alice_client, game, went_out=0, points=[0, 35], completed=[0])
    assert changes(game) == {"alice": 1, "Bob": 2}


def test_a_tie_in_a_finished_night_moves_the_tied_players_alike(
    alice_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_night(alice_client, guests=["Bob", "Carol"], phases="custom", custom="1")
        post_round(alice_client, game, went_out=0, points=[0, 35, 35], completed=[0])
    assert changes(game) == {"alice": 1, "Bob": 2, "Carol": 2}
    after = {
        change.player.name: (change.mu_after, change.sigma_after, change.ordinal_after)
        for change in RatingChange.objects.filter(game=game).select_related("player")
    }
    # Three newcomers (mu 25): the winner gains, the two who tied for second lose the
    # same, to the last bit; neither is rated as having beaten the other.
    assert after["Bob"] == after["Carol"]
    assert after["alice"][0] > 25 > after["Bob"][0]


def test_correcting_a_finished_night_re_rates_it_and_every_later_game(
    alice_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        first = start_night(alice_client, guests=["Bob"], phases="custom", custom="1")
        post_round(alice_client, first, went_out=0, points=[0, 35], completed=[0])
        second = start_night(alice_client, guests=["Bob"], phases="custom", custom="1")
        post_round(alice_client, second, went_out=0, points=[0, 35], completed=[0])
    alice_after_two = Rating.objects.get(player__user__username="alice").mu
    # Oops: Bob went out in the first game.
    with django_capture_on_commit_callbacks(execute=True):
        edit_round(alice_client, first, 1, went_out=1, points=[20, 0], completed=[1])
    assert changes(first) == {"alice": 2, "Bob": 1}
    assert Rating.objects.get(player__user__username="alice").mu < alice_after_two
    second_change = RatingChange.objects.get(game=second, player__name="alice")
    first_change = RatingChange.objects.get(game=first, player__name="alice")
    assert second_change.mu_before == first_change.mu_after
    assert snapshot() == recomputed()


def test_undoing_the_end_of_a_night_takes_it_out_of_the_ratings(
    alice_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_night(alice_client, guests=["Bob"], phases="custom", custom="1")
        post_round(alice_client, game, went_out=0, points=[0, 35], completed=[0])
    assert RatingChange.objects.filter(game=game).count() == 2
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        alice_client.post(  # confirmed: the end of a night is undone only once confirmed
            reverse("games:night_undo", args=[game.public_id]),
            {"version": game.version, "confirm": "1"},
        )
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert not RatingChange.objects.filter(game=game).exists()
    assert not Rating.objects.exists()


def test_claiming_a_guest_merges_their_ratings_by_recomputing(
    alice, bob, carol, django_capture_on_commit_callbacks
):
    a, b, c = player(alice), player(bob), player(carol)
    guest = player("Caz", created_by=alice)
    make_game([a, guest], [], winner=1, days_ago=5)
    make_game([c, b], [], winner=0, days_ago=4)
    make_game([a, guest, b], [], winner=1, days_ago=3)
    make_game([c, a], [], winner=1, days_ago=2)
    rating_ledger.run(sweep=True)
    assert Rating.objects.get(player=guest).games == 2
    claim = claims.invite(alice, guest, "carol")
    with django_capture_on_commit_callbacks(execute=True):
        claims.accept(claim, carol)
    assert not Player.objects.filter(pk=guest.pk).exists()
    assert Rating.objects.get(player=c).games == 4
    merged = snapshot()
    assert recomputed() == merged
    assert GuestClaim.objects.get().status == GuestClaim.Status.ACCEPTED


def test_the_sweep_finds_a_correction_whose_task_was_lost(
    alice_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_night(alice_client, guests=["Bob"], phases="custom", custom="1")
        post_round(alice_client, game, went_out=0, points=[0, 35], completed=[0])
    rating_ledger.run(sweep=True)  # a sweep ran since: only games changed after it count
    edit_round(alice_client, game, 1, went_out=1, points=[20, 0], completed=[1])  # no task
    assert changes(game) == {"alice": 1, "Bob": 2}
    rating_ledger.run(sweep=True)
    assert changes(game) == {"alice": 2, "Bob": 1}


def test_a_change_that_leaves_the_result_as_it_was_re_rates_nothing(
    alice_client, django_capture_on_commit_callbacks, monkeypatch
):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_night(alice_client, guests=["Bob"], phases="custom", custom="1")
        post_round(alice_client, game, went_out=0, points=[0, 35], completed=[0])
    before = snapshot()
    rewinds = []
    monkeypatch.setattr(rating_ledger, "_rewind", rewinds.append)
    with django_capture_on_commit_callbacks(execute=True):
        edit_round(alice_client, game, 1, went_out=0, points=[0, 45], completed=[0])
    assert rewinds == []
    assert snapshot() == before
