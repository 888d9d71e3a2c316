"""Setting up a night: members seated by username (and their answer), guests of one
name told apart, bots never offered, the order of play."""

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import Rules
from games.models import Game, Player, RatingChange, Seat
from games.nights import seating
from games.nights import services as nights
from games.stats import rating_ledger
from games.stats.figures import head_to_head, summary
from games.stats.leaderboard import ranked
from games.stats.scope import Scope
from tests.nights.helpers import post_round, seats, start_night

pytestmark = pytest.mark.django_db

URL = reverse("games:night_create")


def form_data(**overrides):
    data = {"first_dealer": 0, "phases": "all", "advance": "standard", "name": ""}
    data.update(overrides)
    return data


def created(response) -> Game:
    assert response.status_code == 302, response.context["form"].errors
    return Game.objects.get(public_id=response.url.rstrip("/").split("/")[-1])


def me(user) -> str:
    return str(Player.for_user(user).pk)


def one_phase_night(client, user, **rows) -> Game:
    """A night of one phase (it ends after the first round that someone lays it)."""
    return created(
        client.post(URL, form_data(player_0=me(user), phases="custom", custom_phases="1", **rows))
    )


def finish(client, game: Game) -> Game:
    """Seat 0 goes out with phase 1: the night is over."""
    post_round(
        client, game, went_out=0, points=[0, *[50] * (game.seats.count() - 1)], completed=[0]
    )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


@pytest.fixture
def bob_client(bob):
    client = Client()
    client.force_login(bob)
    return client


def answer(client, game: Game, value: str):
    url = reverse("games:night_seat_answer", args=[game.public_id])
    return client.post(url, {"answer": value})


# --- members by username -------------------------------------------------------------------


def test_a_member_is_seated_by_their_username(alice_client, alice, bob):
    game = created(alice_client.post(URL, form_data(player_0=me(alice), member_1=" BOB ")))
    assert [seat.player.user for seat in seats(game)] == [alice, bob]


def test_an_unknown_username_is_refused_at_its_seat_and_nothing_is_made(alice_client, alice):
    response = alice_client.post(URL, form_data(player_0=me(alice), member_1="nobody-here"))
    assert response.status_code == 200
    assert response.context["form"].errors["member_1"] == [
        "There is no member with the username “nobody-here”."
    ]
    assert not Game.objects.exists()


def test_a_member_who_never_played_with_the_host_is_asked_first(alice_client, alice, bob):
    game = created(alice_client.post(URL, form_data(player_0=me(alice), member_1="bob")))
    host, member = seats(game)
    assert host.accepted and not member.accepted


def test_a_member_who_played_with_the_host_is_seated_at_once_even_by_username(
    alice_client, alice, bob
):
    nights.create_game(
        alice, players=[Player.for_user(alice), Player.for_user(bob)], first_dealer=0, rules=Rules()
    )
    game = created(alice_client.post(URL, form_data(player_0=me(alice), member_1="bob")))
    assert all(seat.accepted for seat in seats(game))


def test_a_member_can_be_typed_only_once_and_not_with_a_pick_from_the_list(
    alice_client, alice, bob
):
    response = alice_client.post(URL, form_data(member_0="alice", player_1=me(alice)))
    assert "This player already has a seat." in response.content.decode()
    response = alice_client.post(URL, form_data(player_0=me(alice), member_1="bob", guest_1="Bo"))
    assert "One way per seat" in response.content.decode()
    assert not Game.objects.exists()


def test_a_pending_seat_makes_nobody_known_to_the_host(alice_client, alice, bob):
    created(alice_client.post(URL, form_data(player_0=me(alice), member_1="bob")))
    assert [player.name for player in seating.known_players(alice)] == []
    assert seating.known_players(bob) == []


# --- the member's answer ------------------------------------------------------------------


def test_the_member_sees_the_night_waiting_for_an_answer_first_in_their_list(
    alice_client, alice, bob, bob_client
):
    nights.create_game(bob, players=[Player.for_user(bob), "Zed"], first_dealer=0, rules=Rules())
    game = created(alice_client.post(URL, form_data(player_0=me(alice), member_1="bob")))
    page = bob_client.get(reverse("games:night_list"))
    listed = list(page.context["page"].object_list)
    assert listed[0].public_id == game.public_id and listed[0].awaiting
    assert not listed[1].awaiting
    html = page.content.decode()
    assert "<bdi>alice</bdi> gave you a seat at this game night. Was it you?" in html
    assert reverse("games:night_seat_answer", args=[game.public_id]) in html
    # The host's own list asks nothing.
    assert "Was it you?" not in alice_client.get(reverse("games:night_list")).content.decode()


def test_the_nights_page_asks_the_member_too(alice_client, alice, bob, bob_client):
    game = created(alice_client.post(URL, form_data(player_0=me(alice), member_1="bob")))
    html = bob_client.get(game.get_absolute_url()).content.decode()
    assert "<bdi>alice</bdi> gave you a seat at this game night. Was it you?" in html
    assert "Was it you?" not in alice_client.get(game.get_absolute_url()).content.decode()
    answer(bob_client, game, "accept")
    assert "Was it you?" not in bob_client.get(game.get_absolute_url()).content.decode()


def test_accepting_counts_the_night_in_the_members_stats_and_ratings(
    alice_client, alice, bob, bob_client
):
    game = finish(alice_client, one_phase_night(alice_client, alice, member_1="bob"))
    bob_player = Player.for_user(bob)
    rating_ledger.run(game.pk)
    assert summary(Scope(player=bob_player)).played == 0
    assert not RatingChange.objects.filter(player=bob_player).exists()
    # Only alice is a person of the game for now: nobody's rating moved.
    assert not RatingChange.objects.filter(game=game).exists()

    response = answer(bob_client, game, "accept")
    assert response.status_code == 302 and response.url == game.get_absolute_url()
    assert Seat.objects.get(game=game, player=bob_player).accepted
    assert summary(Scope(player=bob_player)).played == 1
    rating_ledger.run(game.pk)
    assert RatingChange.objects.filter(game=game, player=bob_player).exists()
    assert [player.user for player in seating.known_players(alice)] == [bob]


def test_a_member_who_has_not_answered_is_nobodys_opponent_or_co_player_yet(
    alice_client, alice, bob, bob_client
):
    game = finish(alice_client, one_phase_night(alice_client, alice, member_1="bob"))
    alices = Scope(player=Player.for_user(alice))
    assert head_to_head(alices) == []
    assert [row.name for row in ranked(alices)] == ["alice"]
    # Typing a username shows the host nothing of that member's.
    bobs_page = reverse("games:player_stats", args=[Player.for_user(bob).pk])
    assert alice_client.get(bobs_page).status_code == 404
    answer(bob_client, game, "accept")
    assert [row.name for row in head_to_head(alices)] == ["bob"]
    assert sorted(row.name for row in ranked(alices)) == ["alice", "bob"]
    assert alice_client.get(bobs_page).status_code == 200


def test_declining_gives_the_seat_to_a_guest_of_the_host_with_the_members_name(
    alice_client, alice, bob, bob_client
):
    game = finish(alice_client, one_phase_night(alice_client, alice, member_1="bob"))
    board_before = [(seat.position, seat.score) for seat in seats(game)]

    response = answer(bob_client, game, "decline")
    assert response.status_code == 302 and response.url == reverse("games:night_list")
    guest = seats(game)[1].player
    assert (guest.name, guest.user, guest.created_by) == ("bob", None, alice)
    assert seats(game)[1].accepted
    assert [(seat.position, seat.score) for seat in seats(game)] == board_before
    assert set(game.round_scores.values_list("player__user", flat=True)) == {alice.pk, None}
    # bob has no part in the night any more; alice's stats and guests have the guest.
    assert bob_client.get(game.get_absolute_url()).status_code == 404
    assert summary(Scope(player=Player.for_user(bob))).played == 0
    assert [player.pk for player in seating.known_players(alice)] == [guest.pk]


def test_the_nights_page_follows_each_members_answer_at_once(
    alice_client, alice, bob, bob_client, carol
):
    """The page reads who sits at the night from its scoreboard at the game's version:
    an answer moves the version on, so the page seen just before it decides nothing."""
    game = created(
        alice_client.post(URL, form_data(player_0=me(alice), member_1="bob", member_2="carol"))
    )
    carol_client = Client()
    carol_client.force_login(carol)
    question = "<bdi>alice</bdi> gave you a seat at this game night. Was it you?"
    for client in (bob_client, carol_client):
        assert question in client.get(game.get_absolute_url()).content.decode()
    answer(bob_client, game, "accept")
    page = bob_client.get(game.get_absolute_url())
    assert page.status_code == 200 and question not in page.content.decode()
    answer(carol_client, game, "decline")
    assert carol_client.get(game.get_absolute_url()).status_code == 404


def test_an_answer_is_taken_once(alice_client, alice, bob, bob_client):
    game = created(alice_client.post(URL, form_data(player_0=me(alice), member_1="bob")))
    answer(bob_client, game, "accept")
    again = answer(bob_client, game, "decline")
    assert again.status_code == 302
    messages = [str(m) for m in again.wsgi_request._messages]
    assert messages[-1] == "No seat at this game night waits for your answer."
    assert Seat.objects.get(game=game, player__user=bob).accepted


def test_only_the_seated_member_can_answer(alice_client, alice, bob, stranger):
    game = created(alice_client.post(URL, form_data(player_0=me(alice), member_1="bob")))
    outsider = Client()
    outsider.force_login(stranger)
    assert answer(outsider, game, "accept").status_code == 404
    assert answer(alice_client, game, "decline").status_code == 302  # seated, nothing waits
    assert not Seat.objects.get(game=game, player__user=bob).accepted


def test_a_rematch_asks_a_member_who_has_not_answered_again(alice_client, alice, bob):
    game = finish(alice_client, one_phase_night(alice_client, alice, member_1="bob"))
    new = nights.rematch(game, alice, version=game.version)
    assert [seat.accepted for seat in seats(new)] == [True, False]


# --- guests and bots in the list ----------------------------------------------------------


def test_guests_of_the_same_name_are_told_apart(alice_client, alice, bob):
    # alice's own Grandma Rose, and the one bob brought to a night alice played at.
    start_night(alice_client, guests=["Grandma Rose"])
    nights.create_game(
        bob,
        players=[Player.for_user(bob), Player.for_user(alice), "Grandma Rose"],
        first_dealer=0,
        rules=Rules(),
    )
    form = alice_client.get(URL).context["form"]
    labels = [label for _value, label in form.fields["player_1"].choices]
    roses = [label for label in labels if label.startswith("Grandma Rose")]
    assert len(roses) == 2 and len(set(roses)) == 2
    assert any(label.startswith("Grandma Rose (your guest, last played ") for label in roses)
    assert any(label.startswith("Grandma Rose (guest of bob, last played ") for label in roses)
    # A guest whose name is nobody else's keeps the short label.
    start_night(alice_client, guests=["Zed"])
    labels = [
        label for _v, label in alice_client.get(URL).context["form"].fields["player_1"].choices
    ]
    assert "Zed (guest)" in labels


def test_bots_of_online_games_are_never_offered_as_guests(alice, alice_client, carol):
    from tests.online.helpers import started_game

    game = started_game(alice, carol, bots=2)
    bots = {seat.player.pk for seat in game.seats.all() if seat.is_bot}
    offered = {player.pk for player in seating.known_players(alice)}
    assert bots and not bots & offered
    assert offered == {Player.for_user(carol).pk}


# --- the order of play -----------------------------------------------------------------------


def test_rows_are_seated_by_the_place_each_was_given_and_the_dealer_follows(alice_client, alice):
    data = form_data(
        player_0=me(alice), guest_1="Bo", guest_2="Cy", order_0=3, order_1=1, order_2=2
    )
    data["first_dealer"] = 0  # alice deals, wherever she sits
    game = created(alice_client.post(URL, data))
    assert [seat.player.name for seat in seats(game)] == ["Bo", "Cy", "alice"]
    assert game.first_dealer == 2


def test_a_form_with_errors_shows_the_rows_in_the_order_given(alice_client, alice):
    data = form_data(player_0=me(alice), member_1="nobody", order_0=2, order_1=1)
    form = alice_client.post(URL, data).context["form"]
    rows = form.seat_rows()
    assert [row["member"].name for row in rows[:2]] == ["member_1", "member_0"]
    assert [row["number"] for row in rows] == [1, 2, 3, 4, 5, 6]


def test_places_that_are_missing_or_repeated_keep_the_rows_in_their_order(alice_client, alice):
    data = form_data(guest_0="Ann", guest_1="Bo", guest_2="Cy", order_0=2, order_1=2)
    game = created(alice_client.post(URL, data))
    assert [seat.player.name for seat in seats(game)] == ["Ann", "Bo", "Cy"]


# --- query counts ----------------------------------------------------------------------------


@pytest.mark.parametrize("people", [2, 30])
def test_the_new_night_form_takes_the_same_queries_for_few_and_many_known_players(
    alice, alice_client, people, django_assert_max_num_queries
):
    me_player = Player.for_user(alice)
    for number in range(people):
        # Guests of one name two by two: their labels need their hosts and dates.
        twin = Player.objects.create(name=f"Guest {number // 2}", created_by=alice)
        nights.create_game(
            alice, players=[me_player, twin, f"Other {number}"], first_dealer=0, rules=Rules()
        )
    # session, user, profile, the menu's badge, my Player, the known players
    with django_assert_max_num_queries(7):
        page = alice_client.get(URL)
    labels = [label for _value, label in page.context["form"].fields["player_1"].choices]
    # At most OFFERED (the latest played with: here whole pairs of twins) are offered.
    assert len(labels) == 2 + min(2 * people, seating.OFFERED)
    twins = sum("(your guest, last played" in label for label in labels)
    assert twins == min(people, seating.OFFERED // 2)


def test_with_many_known_players_the_lists_offer_the_latest_and_the_others_are_typed(
    alice, alice_client, monkeypatch
):
    monkeypatch.setattr(seating, "OFFERED", 2)
    me_player = Player.for_user(alice)
    for name in ["Old", "Middle", "New"]:  # played with in this order
        nights.create_game(alice, players=[me_player, name], first_dealer=0, rules=Rules())
    old = Player.objects.get(name="Old")
    labels = [
        label for _v, label in alice_client.get(URL).context["form"].fields["player_1"].choices
    ]
    assert labels == ["—", "You (alice)", "Middle (guest)", "New (guest)"]
    # One no longer in the list is typed: a guest's name seats the same guest again.
    game = created(alice_client.post(URL, form_data(player_0=me(alice), guest_1="old")))
    assert [seat.player.pk for seat in seats(game)] == [me_player.pk, old.pk]


def test_the_kept_game_is_each_roles_own_and_without_the_saved_rounds_summary(
    alice_client, alice, bob, bob_client
):
    """A night's game is kept per version and role (games/nights/page.py): the member
    seated at it, opening it after its scorer, gets no round form; the page after a save
    (?saved=<n>, its summary on top) is not the one kept for the next look."""
    game = created(alice_client.post(URL, form_data(player_0=me(alice), member_1="bob")))
    answer(bob_client, game, "accept")
    post_round(alice_client, game, went_out=0, points=[0, 25], completed=[0])
    url = game.get_absolute_url()

    saved = alice_client.get(f"{url}?saved=1").content.decode()
    scorer = alice_client.get(url).content.decode()
    member = bob_client.get(url).content.decode()

    assert 'id="round-summary"' in saved and 'id="round-summary"' not in scorer
    assert 'class="round-form"' in scorer and 'class="round-form"' not in member
    assert 'id="game"' in member  # the same night's game, drawn for its role
