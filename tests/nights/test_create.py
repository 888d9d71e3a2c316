"""Starting a game night: players in seating order, the first dealer and the variant."""

import pytest
from django.urls import reverse

from games.engine import Rules
from games.models import Game, Player
from tests.nights.helpers import seats, start_night

pytestmark = pytest.mark.django_db

URL = reverse("games:night_create")


def form_data(**overrides):
    data = {"first_dealer": 0, "phases": "all", "advance": "standard", "name": ""}
    data.update(overrides)
    return data


def test_a_night_seats_the_players_in_the_order_given(alice_client, alice):
    game = start_night(alice_client, guests=["Bob", "Carol", "Dan"], dealer=3, name="Friday")
    assert [seat.player.name for seat in seats(game)] == ["alice", "Bob", "Carol", "Dan"]
    assert seats(game)[0].player.user == alice
    assert (game.mode, game.status, game.name) == ("night", "active", "Friday")
    assert game.first_dealer == 3
    assert game.creator == alice


def test_the_default_game_is_all_ten_phases_with_the_default_options(alice_client):
    game = start_night(alice_client)
    assert game.rules == Rules().to_dict()


@pytest.mark.parametrize(
    ("phases", "advance", "expected"),
    [
        ("first5", "standard", Rules(phases=(1, 2, 3, 4, 5))),
        ("first8", "all_advance", Rules(phases=tuple(range(1, 9)), all_advance=True)),
        ("even", "pick_a_phase", Rules(phases=(2, 4, 6, 8, 10), pick_a_phase=True)),
        ("odd", "standard", Rules(phases=(1, 3, 5, 7, 9))),
    ],
)
def test_each_variant_is_stored_as_engine_rules(alice_client, phases, advance, expected):
    game = start_night(alice_client, phases=phases, advance=advance)
    assert Rules.from_dict(game.rules) == expected


def test_empty_rows_are_skipped_and_the_dealer_follows_their_player(alice_client):
    data = form_data(guest_0="Ann", guest_3="Bo", guest_5="Cy", first_dealer=5)
    response = alice_client.post(URL, data)
    game = Game.objects.get()
    assert response.url == game.get_absolute_url()
    assert [seat.player.name for seat in seats(game)] == ["Ann", "Bo", "Cy"]
    assert game.first_dealer == 2


def test_a_guest_name_typed_again_is_the_same_guest(alice_client, alice):
    start_night(alice_client, guests=["Rose"], me=True)
    start_night(alice_client, guests=["rose "], me=True)
    assert Player.objects.filter(name__iexact="rose").count() == 1
    assert Player.objects.get(name="Rose").created_by == alice


def test_people_you_played_with_are_offered_next_time(alice_client, alice, bob, stranger):
    from games.nights import services as nights

    nights.create_game(
        bob, players=[Player.for_user(bob), Player.for_user(alice)], first_dealer=0, rules=Rules()
    )
    nights.create_game(
        stranger, players=[Player.for_user(stranger), "Zed"], first_dealer=0, rules=Rules()
    )
    start_night(alice_client, guests=["Rose"])
    form = alice_client.get(URL).context["form"]
    labels = [label for _value, label in form.fields["player_1"].choices]
    assert labels == ["—", "You (alice)", "bob", "Rose (guest)"]


def test_only_people_from_started_games_are_offered_never_bots_or_deleted_players(
    alice_client, alice, bob, carol, stranger
):
    from accounts import deletion
    from games.online import lobby
    from tests.online.helpers import started_game

    # bob only sat in alice's lobby; the game never started.
    waiting = lobby.create_game(alice, seats=3)
    lobby.join(waiting, bob, waiting.invite_token)
    # carol played a started online game with alice and a bot.
    started_game(alice, carol, bots=1)
    # The stranger sat at alice's night, then deleted their account.
    start_night(alice_client, guests=["Rose"])
    from games.nights import services as nights

    nights.create_game(
        alice,
        players=[Player.for_user(alice), Player.for_user(stranger)],
        first_dealer=0,
        rules=Rules(),
    )
    deletion.delete_account(stranger)
    form = alice_client.get(URL).context["form"]
    labels = [label for _value, label in form.fields["player_1"].choices]
    assert labels == ["—", "You (alice)", "carol", "Rose (guest)"]


def test_a_forged_player_id_is_refused(alice_client, stranger):
    theirs = Player.for_user(stranger)
    response = alice_client.post(URL, form_data(guest_0="Ann", player_1=theirs.pk))
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"guest_0": "Ann"}, "Choose 2 to 6 players."),
        ({}, "Choose 2 to 6 players."),
        ({"guest_0": "Ann", "guest_1": "ann"}, "This player already has a seat."),
        (
            {"guest_0": "Ann", "guest_1": "Bo", "first_dealer": 4},
            "The first dealer must be one of the players.",
        ),
        (
            {"guest_0": "Ann", "guest_1": "Bo", "phases": "custom", "custom_phases": ""},
            "List the phases to play",
        ),
        (
            {"guest_0": "Ann", "guest_1": "Bo", "phases": "custom", "custom_phases": "1, 11"},
            "Phases are numbered 1 to 10.",
        ),
        (
            # A digit to str.isdigit, not to int(): refused, not a server error.
            {"guest_0": "Ann", "guest_1": "Bo", "phases": "custom", "custom_phases": "1, ²"},
            "Phases are numbered 1 to 10.",
        ),
        (
            {"guest_0": "Ann", "guest_1": "Bo", "phases": "custom", "custom_phases": "3 3"},
            "Each phase can be listed only once.",
        ),
        ({"guest_0": "Ann", "guest_1": "Bo", "advance": "both"}, "Select a valid choice"),
    ],
)
def test_a_night_that_cant_be_played_is_refused_with_a_reason(alice_client, data, message):
    response = alice_client.post(URL, form_data(**data))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_a_seat_with_both_a_member_and_a_guest_name_is_refused(alice_client, alice):
    me = Player.for_user(alice)
    response = alice_client.post(URL, form_data(player_0=me.pk, guest_0="Ann", guest_1="Bo"))
    assert "One way per seat" in response.content.decode()
    assert not Game.objects.exists()


def test_the_same_member_twice_is_refused(alice_client, alice):
    me = Player.for_user(alice)
    response = alice_client.post(URL, form_data(player_0=me.pk, player_1=me.pk))
    assert "This player already has a seat." in response.content.decode()


def test_a_double_tap_on_start_makes_one_game(alice_client, alice):
    me = Player.for_user(alice)
    data = form_data(player_0=me.pk, guest_1="Bo")
    first = alice_client.post(URL, data)
    second = alice_client.post(URL, data)
    assert Game.objects.count() == 1
    assert first.url == second.url


def test_the_new_night_form_needs_a_login(client):
    response = client.get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response.url
