"""Deleting your account deletes you, not other people's games: every game you shared
stays, with its rounds and moves, and your seats stay under an anonymous name, so
everyone else's history still adds up. The profile offers your data first."""

import random

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts import claims
from games.models import Game, Invitation, Move, Player, RoundScore, Seat
from games.online import lobby, services
from games.stats import figures
from games.stats.scope import Scope
from tests.conftest import PASSWORD
from tests.online.helpers import play_human_turn, play_on, started_game
from tests.stats.factories import laid, make_game, missed, player

pytestmark = pytest.mark.django_db

DELETED = "Deleted player"


@pytest.fixture
def shared(alice, bob, carol):
    """alice scored a game night with bob and carol, played a finished online game with
    bob and one in progress, has a lobby of her own, sits in bob's, and was invited."""
    a, b, c = player(alice), player(bob), player(carol)
    night = make_game(
        [a, b, c],
        [
            [laid(1, out=True), missed(1, 20), missed(1, 35)],
            [missed(2, 10), laid(1, out=True), laid(1, 5)],
        ],
        winner=0,
        rules={"phases": [1, 2]},
        creator=alice,
        name="Alice's night",
    )
    finished = make_game(
        [a, b],
        [[missed(1, 40), laid(1, out=True)]],
        winner=1,
        mode=Game.Mode.ONLINE,
        rules={"phases": [1]},
        creator=alice,
    )
    active = started_game(alice, bob, carol, seed=3)
    rng = random.Random(3)
    for _turn in range(4):
        active = play_human_turn(active, rng)
    own_lobby = lobby.create_game(alice, seats=3, invite=[carol])
    bobs_lobby = lobby.create_game(bob, seats=3)
    lobby.join(bobs_lobby, alice, bobs_lobby.invite_token)
    invited = lobby.create_game(carol, seats=3, invite=[alice])
    return {
        "night": night,
        "finished": finished,
        "active": active,
        "own_lobby": own_lobby,
        "bobs_lobby": bobs_lobby,
        "invited": invited,
    }


def _stats(user):
    scope = Scope.parse(Player.for_user(user), None, None)
    rivals = [(r.games, r.wins, r.losses) for r in figures.head_to_head(scope)]
    return figures.summary(scope), sorted(rivals), figures.phase_stats(scope)


def _delete(client, user, password=PASSWORD):
    client.force_login(user)
    return client.post(reverse("accounts:profile_delete"), {"password": password}, follow=True)


def test_deleting_an_account_keeps_every_shared_game_and_everyone_elses_stats(
    client, alice, bob, carol, shared
):
    kept = [shared[name].pk for name in ("night", "finished", "active")]
    rounds = RoundScore.objects.filter(game__in=kept).count()
    moves = Move.objects.filter(game__in=kept).count()
    assert rounds and moves
    before = {user.username: _stats(user) for user in (bob, carol)}

    page = _delete(client, alice).content.decode()

    assert "Your account was deleted." in page
    assert not get_user_model().objects.filter(username="alice").exists()
    assert Game.objects.filter(pk__in=kept).count() == 3
    assert RoundScore.objects.filter(game__in=kept).count() == rounds
    assert Move.objects.filter(game__in=kept).count() == moves
    assert {user.username: _stats(user) for user in (bob, carol)} == before
    # Her seats stay, under a name that says nothing about her.
    for pk in kept:
        seat = Seat.objects.select_related("player").get(game=pk, position=0)
        assert (seat.player.name, seat.player.user) == (DELETED, None)
    assert not Player.objects.filter(name="alice").exists()
    night = Game.objects.get(pk=shared["night"].pk)
    assert night.creator is None and night.winner.name == DELETED


def test_a_game_in_progress_goes_on_with_a_bot_in_the_deleted_seat(client, alice, shared):
    _delete(client, alice)
    game = Game.objects.get(pk=shared["active"].pk)
    seat = Seat.objects.get(game=game, position=0)
    assert seat.is_bot and seat.resigned
    assert game.status == Game.Status.ACTIVE
    # The board draws names from the game's snapshot: hers is gone from it too.
    assert services.load_state(game).players[0] == DELETED
    assert "alice" not in str(game.state)


def test_lobbies_and_invitations_go_with_the_account(client, alice, bob, shared):
    _delete(client, alice)
    assert not Game.objects.filter(pk=shared["own_lobby"].pk).exists()
    assert Game.objects.filter(pk=shared["bobs_lobby"].pk).exists()
    assert [s.player.user for s in shared["bobs_lobby"].seats.select_related("player")] == [bob]
    assert not Invitation.objects.filter(game=shared["invited"]).exists()


def test_a_deleted_players_history_cannot_be_claimed_as_a_guest(client, alice, bob, carol, shared):
    _delete(client, alice)
    gone = Player.objects.get(name=DELETED)
    assert not gone.is_guest
    assert not claims.scored_guests(bob).filter(pk=gone.pk).exists()
    assert not claims.suggested_guests(carol).filter(pk=gone.pk).exists()


def test_the_wrong_password_deletes_nothing(client, alice, shared):
    page = _delete(client, alice, password="not-my-password").content.decode()
    assert "That isn&#x27;t your password." in page
    assert get_user_model().objects.filter(username="alice").exists()


def test_deleting_needs_a_post_and_a_login(client, alice):
    url = reverse("accounts:profile_delete")
    assert client.get(url).status_code == 302
    assert client.post(url, {"password": PASSWORD}).status_code == 302
    assert get_user_model().objects.filter(username="alice").exists()


def test_the_delete_page_offers_the_data_export_first(alice_client):
    page = alice_client.get(reverse("accounts:profile_delete")).content.decode()
    assert reverse("games:export_games_csv") in page
    assert reverse("games:export_rounds_csv") in page
    assert f'<form method="post" action="{reverse("accounts:profile_delete")}"' in page
    assert 'name="password"' in page
    profile = alice_client.get(reverse("accounts:profile")).content.decode()
    assert reverse("accounts:profile_delete") in profile


def test_deleting_a_user_from_anywhere_keeps_the_games_they_created(alice, bob, shared):
    """The admin or a shell deletes without the page: the games still stay, and her
    seats are anonymised all the same."""
    get_user_model().objects.filter(pk=alice.pk).delete()
    assert Game.objects.filter(pk=shared["night"].pk, creator=None).exists()
    assert Game.objects.filter(pk=shared["finished"].pk).exists()
    seat = Seat.objects.select_related("player").get(game=shared["active"], position=0)
    assert (seat.player.name, seat.player.anonymised, seat.is_bot) == (DELETED, True, True)


def test_a_co_scorer_can_rematch_a_night_whose_scorer_left(client, alice, bob, shared):
    from games.nights import services as nights

    night = shared["night"]
    night.co_scorers.add(bob)
    _delete(client, alice)
    night.refresh_from_db()
    new = nights.rematch(night, bob, version=night.version)
    assert new.creator == bob and list(new.co_scorers.all()) == []


def test_the_boards_round_results_drop_a_deleted_players_name(client, alice, bob):
    game = play_on(started_game(alice, bob, seed=5), rounds=1)
    client.force_login(bob)
    url = reverse("games:online_detail", args=[game.public_id])

    def results() -> str:
        page = client.get(url).content.decode()
        return page[page.index('class="panel ot-round"') : page.index('class="ot-log"')]

    assert "alice" in results()  # drawn, and kept for the round
    _delete(client, alice)
    client.force_login(bob)
    assert "alice" not in results() and DELETED in results()
