"""Your game nights (in progress first), the rematch, and the demo nights."""

import io
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.engine import Rules
from games.models import Game, Player
from games.nights import services as nights
from games.nights.demo import FINISHED, IN_PROGRESS, load_demo
from games.nights.scoreboard import RoundEntry, load_scoreboard
from tests.nights.helpers import post_round, seats, start_night
from tests.online.helpers import play_until_turn_of, started_game

pytestmark = pytest.mark.django_db


def finished_night(client, **kwargs):
    game = start_night(client, phases="custom", custom="1", **kwargs)
    post_round(client, game, went_out=1, points=[5, 0, 30], completed=[1])
    game.refresh_from_db()
    return game


def test_nights_in_progress_are_listed_before_finished_ones(alice_client, alice, bob, stranger):
    done = finished_night(alice_client, name="Done")
    playing = start_night(alice_client, name="Playing")
    # A night bob scores with alice at the table is hers too; a stranger's isn't.
    nights.create_game(
        bob,
        players=[Player.for_user(bob), Player.for_user(alice)],
        first_dealer=0,
        rules=Rules(),
        name="At Bob's",
    )
    nights.create_game(
        stranger, players=[Player.for_user(stranger), "Zed"], first_dealer=0, rules=Rules()
    )
    done.save()  # the finished night was touched last: still listed after those in progress
    page = alice_client.get(reverse("games:night_list"))
    names = [game.name for game in page.context["page"].object_list]
    assert names == ["At Bob's", "Playing", "Done"]
    assert playing.name in page.content.decode()


def test_a_rematch_seats_the_same_players_with_the_same_rules(alice_client, alice):
    game = finished_night(alice_client, name="Friday")
    response = alice_client.post(
        reverse("games:night_rematch", args=[game.public_id]), {"version": game.version}
    )
    new = Game.objects.exclude(pk=game.pk).get()
    assert response.url == new.get_absolute_url()
    assert [s.player_id for s in seats(new)] == [s.player_id for s in seats(game)]
    assert (new.rules, new.name, new.creator) == (game.rules, "Friday", alice)
    assert new.first_dealer == (game.first_dealer + 1) % 3  # the deal moves on
    assert (new.status, new.rounds_played) == ("active", 0)


def test_a_rematch_leaves_out_a_player_who_deleted_their_account(alice_client, alice, stranger):
    from accounts import deletion

    game = nights.create_game(
        alice,
        players=[Player.for_user(alice), Player.for_user(stranger), "Rose"],
        first_dealer=0,
        rules=Rules(phases=(1,)),
    )
    deletion.delete_account(stranger)
    game.refresh_from_db()
    new = nights.rematch(game, alice, version=game.version)
    assert [s.player.name for s in seats(new)] == ["alice", "Rose"]
    # The deal would have passed to the deleted player: it goes on to the next one.
    assert new.first_dealer == 1


def test_a_rematch_with_one_player_left_is_refused_with_a_reason(alice_client, alice, stranger):
    from accounts import deletion

    game = nights.create_game(
        alice,
        players=[Player.for_user(alice), Player.for_user(stranger)],
        first_dealer=0,
        rules=Rules(phases=(1,)),
    )
    deletion.delete_account(stranger)
    game.refresh_from_db()
    response = alice_client.post(
        reverse("games:night_rematch", args=[game.public_id]), {"version": game.version}
    )
    assert "A game night needs 2 to 6 players." in response.content.decode()
    assert Game.objects.count() == 1


def test_a_double_tap_on_rematch_starts_one_game(alice_client):
    game = finished_night(alice_client)
    url = reverse("games:night_rematch", args=[game.public_id])
    alice_client.post(url, {"version": game.version})
    response = alice_client.post(url, {"version": game.version})
    assert "This game changed since you opened the form" in response.content.decode()
    assert Game.objects.count() == 2


def test_a_co_scorer_who_starts_the_rematch_keeps_the_scorer_on_board(alice_client, alice, carol):
    game = finished_night(alice_client)
    game.co_scorers.add(carol)
    carol_client = Client()
    carol_client.force_login(carol)
    carol_client.post(
        reverse("games:night_rematch", args=[game.public_id]), {"version": game.version}
    )
    new = Game.objects.exclude(pk=game.pk).get()
    assert new.creator == carol
    assert list(new.co_scorers.all()) == [alice]


def test_the_demo_adds_a_finished_and_an_in_progress_night_once(alice, bob, carol):
    out = io.StringIO()
    load_demo([alice, bob, carol], out)
    load_demo([alice, bob, carol], out)
    finished = Game.objects.get(name=FINISHED)
    playing = Game.objects.get(name=IN_PROGRESS)
    assert finished.status == "finished" and finished.winner is not None
    assert playing.status == "active" and playing.rounds_played > 0
    assert Game.objects.count() == 2
    assert any(seat.player.is_guest for seat in seats(playing))
    board = load_scoreboard(finished)
    assert board.is_over and len(board.rounds) == finished.rounds_played


def nights_of_every_kind(alice, bob, stranger, count: int) -> None:
    """`count` nights alice scores, co-scores and sits at each, and as many she has no
    part in (a stranger's, and an online game with her seat: not a game night)."""
    me = Player.for_user(alice)
    for n in range(count):  # distinct guests: the same table twice is a double tap
        nights.create_game(alice, players=[me, f"Zed {n}"], first_dealer=0, rules=Rules())
        co_scored = nights.create_game(
            bob, players=[Player.for_user(bob), f"Yan {n}"], first_dealer=0, rules=Rules()
        )
        co_scored.co_scorers.add(alice)
        nights.create_game(
            bob, players=[Player.for_user(bob), me, f"Xi {n}"], first_dealer=0, rules=Rules()
        )
        nights.create_game(
            stranger, players=[Player.for_user(stranger), f"Wu {n}"], first_dealer=0, rules=Rules()
        )
        online = Game.objects.create(
            mode=Game.Mode.ONLINE, status=Game.Status.ACTIVE, creator=alice
        )
        online.seats.create(position=0, player=me)


def test_the_list_has_the_nights_she_scores_co_scores_or_sits_at_and_no_others(
    alice, bob, stranger, alice_client
):
    nights_of_every_kind(alice, bob, stranger, 1)
    page = alice_client.get(reverse("games:night_list"))
    listed = page.context["page"].object_list
    assert sorted(len(game.seat_list) for game in listed) == [2, 2, 3]  # none cached yet
    assert {game.creator_id for game in listed} == {alice.pk, bob.pk}
    hers = Game.objects.filter(mode=Game.Mode.NIGHT).exclude(creator=stranger)
    assert {game.public_id for game in listed} == set(hers.values_list("public_id", flat=True))


@pytest.mark.parametrize("count", [1, 9])
def test_the_list_takes_the_same_queries_for_few_and_many_nights_of_every_kind(
    alice, bob, stranger, alice_client, count, django_assert_max_num_queries
):
    nights_of_every_kind(alice, bob, stranger, count)
    # session, user, the extent of her nights, the page with the count of them all (for
    # the pager), seats, the header's "your turn"
    with django_assert_max_num_queries(6):
        page = alice_client.get(reverse("games:night_list"))
    assert page.context["page"].paginator.count == 3 * count
    assert len(page.context["page"].object_list) == min(3 * count, 20)


def test_a_listed_night_shows_its_new_round_at_once(alice_client):
    game = start_night(alice_client, name="Friday")
    assert "0 rounds" in alice_client.get(reverse("games:night_list")).content.decode()
    post_round(alice_client, game, went_out=0, points=[0, 35, 20], completed=[0])
    page = alice_client.get(reverse("games:night_list")).content.decode()
    assert "1 round" in page and "0 rounds" not in page
    assert 'Bob <span class="muted">35</span>' in page


@pytest.mark.parametrize("count", [1, 9])
def test_the_list_seen_again_draws_its_nights_from_the_cache_without_their_seats(
    alice, bob, stranger, alice_client, count, django_assert_max_num_queries
):
    nights_of_every_kind(alice, bob, stranger, count)
    first = alice_client.get(reverse("games:night_list")).content.decode()
    # session, user, the extent of her nights ("your turn" is kept since the first
    # visit): no page's rows (kept under the extent), no seats, no players
    with CaptureQueriesContext(connection) as queries:
        again = alice_client.get(reverse("games:night_list")).content.decode()
    assert len(queries) == 3
    assert not any("ORDER BY" in query["sql"] for query in queries.captured_queries)
    assert without_tokens(again) == without_tokens(first)
    assert f"Zed {count - 1}" in again and "Wu " not in again


def test_a_night_she_is_seated_at_after_her_list_was_kept_shows_at_once(alice, bob, alice_client):
    start_night(alice_client, name="Friday")
    assert "Friday" in alice_client.get(reverse("games:night_list")).content.decode()
    nights.create_game(  # the count of her nights moves on, no version of hers does
        bob,
        players=[Player.for_user(bob), Player.for_user(alice)],
        first_dealer=0,
        rules=Rules(),
        name="At Bob's",
    )
    page = alice_client.get(reverse("games:night_list")).content.decode()
    assert "At Bob&#x27;s" in page and "Friday" in page


def test_a_kept_page_of_nights_shows_each_member_their_own_forms_and_token(
    alice, bob, alice_client
):
    # The same finished night for both: alice scored it (a rematch form), bob sat at it.
    game = nights.create_game(
        alice,
        players=[Player.for_user(alice), Player.for_user(bob), "Cy"],
        first_dealer=0,
        rules=Rules(phases=(1,)),
        name="Friday",
    )
    entry = RoundEntry(went_out=1, points=(5, 0, 30), completed={1: None})
    game = nights.add_round(game, entry, version=game.version)
    assert game.status == Game.Status.FINISHED
    bob_client = Client()
    bob_client.force_login(bob)
    for _ in range(2):  # drawn, then kept
        hers = alice_client.get(reverse("games:night_list")).content.decode()
        his = bob_client.get(reverse("games:night_list")).content.decode()
        assert "Friday" in hers and "Friday" in his
        assert "Rematch" in hers and "Rematch" not in his
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', hers)[1]
        assert len(token) == 64
        assert alice_client.post(
            reverse("games:night_rematch", args=[game.public_id]),
            {"version": game.version, "csrfmiddlewaretoken": token},
        ).status_code in (302, 200)
        Game.objects.exclude(pk=game.pk).delete()  # the rematch, for the next turn round


def without_tokens(page: str) -> str:
    """The list of nights, without the CSRF tokens of its rematch forms."""
    nights = page.split('<div class="night">')[1].split("<footer")[0]
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", nights)


def test_the_pages_and_their_links_are_those_of_djangos_paginator(alice, alice_client):
    """41 nights: pages 1 and 2 of 20, page 3 of 1; a page that isn't a number is the
    first, one out of range (below 1 too) the last, as Paginator.get_page has it."""
    start = timezone.now()
    games = Game.objects.bulk_create(
        Game(mode=Game.Mode.NIGHT, status=Game.Status.FINISHED, creator=alice, name=f"N{n}")
        for n in range(41)
    )
    for n, game in enumerate(games):  # N0 the latest
        Game.objects.filter(pk=game.pk).update(updated_at=start - timedelta(minutes=n))
    expected = {
        "": 1, "1": 1, "2": 2, "3": 3, "4": 3, "99999999999999999999": 3, "0": 3, "-1": 3,
        "abc": 1, "1.5": 1,
    }  # fmt: skip
    for asked, number in expected.items():
        page = alice_client.get(reverse("games:night_list"), {"page": asked})
        listed = page.context["page"]
        assert (listed.number, listed.paginator.count, listed.paginator.num_pages) == (
            number,
            41,
            3,
        ), asked
        shown = [game.name for game in listed.object_list]
        assert shown == [f"N{n}" for n in range(20 * (number - 1), min(20 * number, 41))]
        html = page.content.decode()
        assert f"Page {number} of 3" in html
        assert ('href="?page=2"' in html) == (number in (1, 3))  # older, or newer
        assert (f'href="?page={number + 1}"' in html) == (number < 3)


def test_the_header_counts_the_games_waiting_for_her_with_or_without_nights(
    alice, bob, alice_client, django_assert_max_num_queries
):
    game = started_game(alice, bob, seed=2)
    play_until_turn_of(game, game.seats.get(player__user=alice).position)
    alone = alice_client.get(reverse("games:night_list")).content.decode()  # no night yet
    assert '<span class="badge">1</span>' in alone
    start_night(alice_client, name="Friday")
    alice_client.get(reverse("games:night_list"))
    # session, user, the extent of her nights (the page is kept), the header's count
    with django_assert_max_num_queries(4):
        page = alice_client.get(reverse("games:night_list")).content.decode()
    assert '<span class="badge">1</span>' in page and "Friday" in page
