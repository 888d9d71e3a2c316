"""My games: your-turn games first (longest waiting first), then the others, then
finished ones; the header counts the games waiting for you."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.context_processors import your_turn_count
from games.models import Game, Player
from games.online import lobby, services
from games.scoring import bump_games_of
from tests.online.helpers import play_until_turn_of, started_game

pytestmark = pytest.mark.django_db


def waiting_for(game, user, minutes, name=""):
    seat = game.seats.get(player__user=user).position
    game = play_until_turn_of(game, seat)
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=timezone.now() - timedelta(minutes=minutes), name=name or game.name
    )
    game.refresh_from_db()
    return game


def test_my_games_lists_your_turn_first_longest_waiting_first(alice, bob, alice_client):
    waiting_for(started_game(alice, bob, seed=1), alice, 5, "Recent")
    waiting_for(started_game(alice, bob, seed=2), alice, 600, "Old")
    waiting_for(started_game(alice, bob, seed=3), bob, 1, "Theirs")
    waiting = lobby.create_game(alice, name="Lobby", seats=3)
    done = started_game(alice, bob, seed=4)
    Game.objects.filter(pk=done.pk).update(status=Game.Status.FINISHED, name="Done")
    page = alice_client.get(reverse("games:online_list")).content.decode()
    at = {name: page.index(name) for name in ("Old", "Recent", "Theirs", "Lobby", "Done")}
    assert at["Old"] < at["Recent"] < min(at["Theirs"], at["Lobby"])
    assert max(at["Theirs"], at["Lobby"]) < at["Done"]
    assert waiting.get_absolute_url() in page


def test_the_header_counts_games_waiting_for_you_in_one_query(
    alice, bob, alice_client, django_assert_num_queries
):
    waiting_for(started_game(alice, bob, seed=1), alice, 5)
    waiting_for(started_game(alice, bob, seed=2), alice, 5)
    waiting_for(started_game(alice, bob, seed=3), bob, 5)
    with django_assert_num_queries(1):
        assert your_turn_count(alice) == 2
    page = alice_client.get(reverse("home")).content.decode()
    assert 'class="badge"' in page and ">2</span>" in page


def test_a_resigned_seat_does_not_count_as_your_turn(alice, bob):
    game = waiting_for(started_game(alice, bob, seed=1), alice, 5)
    assert your_turn_count(alice) == 1
    services.resign(game, alice)
    assert your_turn_count(alice) == 0


def test_my_games_costs_the_same_with_more_games(
    alice, bob, alice_client, django_assert_max_num_queries
):
    started_game(alice, bob, seed=1)
    alice_client.get(reverse("home"))  # the language is in the session from now on
    # The session, the user, the seats' extent, the current games' rows and the finished
    # list's (the extent moved on), the invitations' check; to draw the lists, the games
    # and the seats not cached.
    with django_assert_max_num_queries(8):
        alice_client.get(reverse("games:online_list"))
    for seed in range(2, 8):
        started_game(alice, bob, bots=2, seed=seed)
    with django_assert_max_num_queries(8):
        alice_client.get(reverse("games:online_list"))


def test_my_games_kept_lists_cost_four_queries_and_read_no_game(
    alice, bob, alice_client, time_machine
):
    """The session, the user, the extent of the user's seats and whether an invitation
    waits: the rows are kept under that extent, and the games themselves (their names,
    say) are read only to draw the lists anew."""
    time_machine.move_to(timezone.now(), tick=False)
    for seed in range(1, 4):
        started_game(alice, bob, bots=1, seed=seed)
    done = started_game(alice, bob, seed=4)
    Game.objects.filter(pk=done.pk).update(
        status=Game.Status.FINISHED, name="Done", version=F("version") + 1
    )
    alice_client.get(reverse("home"))  # the language is in the session from now on
    drawn = alice_client.get(reverse("games:online_list")).content.decode()
    with CaptureQueriesContext(connection) as queries:
        kept = alice_client.get(reverse("games:online_list")).content.decode()
    assert len(queries) == 4
    read = " ".join(query["sql"] for query in queries.captured_queries)
    assert '"games_game"."name"' not in read and '"games_game"."turn_started_at"' not in read

    def lists(page):
        return page[page.index('<div class="online">') : page.index("</main>")]

    assert lists(kept) == lists(drawn)
    assert kept.count("(bot)") == 3 and "Done" in kept


def test_my_games_mark_the_bots_as_bots_and_a_resigned_person_as_a_person(alice, bob, alice_client):
    playing = started_game(alice, bob, bots=1, seed=1)
    services.resign(playing, bob)
    bot = playing.seats.get(is_bot=True, resigned=False).player.name
    page = alice_client.get(reverse("games:online_list")).content.decode()
    assert f"{bot} (bot)" in page
    assert "bob (bot)" not in page and "bob" in page


def test_my_games_redraw_a_games_seats_once_someone_goes_away(alice, bob, alice_client):
    from datetime import date

    from accounts import away

    started_game(alice, bob, seed=1)
    page = alice_client.get(reverse("games:online_list")).content.decode()
    assert "away until" not in page
    away.go_away(bob, date.today() + timedelta(days=3))  # bumps the game's version
    page = alice_client.get(reverse("games:online_list")).content.decode()
    assert "(away until" in page


def test_my_games_say_the_away_day_in_the_viewers_new_time_zone_at_once(alice, bob, alice_client):
    """The kept rows carry the viewer's time zone, which no game's version covers: they
    are kept under it too."""
    from datetime import date

    from django.utils.dateformat import format as date_format

    from accounts import away

    started_game(alice, bob, seed=1)
    last_day = date.today() + timedelta(days=10)  # said as a date, not a weekday
    away.go_away(bob, last_day)  # until midnight after it, in bob's zone (UTC)
    page = alice_client.get(reverse("games:online_list")).content.decode()
    assert f"(away until {date_format(last_day, 'F j')})" in page
    alice.profile.time_zone = "Pacific/Kiritimati"  # UTC+14: bob's midnight is noon there
    alice.profile.save(update_fields=["time_zone"])
    page = alice_client.get(reverse("games:online_list")).content.decode()
    assert f"(away until {date_format(last_day + timedelta(days=1), 'F j')})" in page


def test_my_games_read_no_seats_for_games_whose_seats_line_is_cached(
    alice, bob, alice_client, time_machine
):
    """Lists drawn again (their clocks' words moved on) read the games but not the seats
    of those whose seats line is cached; lists from the cache read neither."""
    now = timezone.now()
    time_machine.move_to(now, tick=False)
    for seed in range(1, 4):
        started_game(alice, bob, bots=1, seed=seed)
    Game.objects.filter(seats__player__user=alice).update(time_limit=timedelta(days=1))
    alice_client.get(reverse("home"))  # the language is in the session from now on
    with CaptureQueriesContext(connection) as first:
        alice_client.get(reverse("games:online_list"))
    with CaptureQueriesContext(connection) as again:
        alice_client.get(reverse("games:online_list"))
    time_machine.move_to(now + timedelta(minutes=1), tick=False)
    with CaptureQueriesContext(connection) as later:
        page = alice_client.get(reverse("games:online_list")).content.decode()
    assert len(again) == len(first) - 4  # kept rows: no rows, games or seats read
    assert len(later) == len(first) - 3  # kept rows, the games read to draw the lists
    assert not any(
        '"games_seat"."position"' in query["sql"] and "IN (" in query["sql"]
        for query in later.captured_queries
    )
    assert page.count("(bot)") == 3 and page.count("23 hours, 59 minutes") == 3


def test_my_games_finished_list_shows_a_game_that_ends_after_it_was_cached(
    alice, bob, alice_client, django_assert_max_num_queries
):
    def finish(game, name):  # with the version's bump, as every game's end
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.FINISHED,
            name=name,
            finished_at=timezone.now(),
            version=F("version") + 1,
        )
        game.seats.filter(player__user=alice).update(rank=1)

    finish(started_game(alice, bob, seed=1), "First done")
    alice_client.get(reverse("home"))  # the language is in the session from now on
    page = alice_client.get(reverse("games:online_list")).content.decode()
    assert "First done" in page and "you came #1" in page
    later = started_game(alice, bob, seed=2)
    Game.objects.filter(pk=later.pk).update(name="Later")  # a name it started with
    with django_assert_max_num_queries(8):
        page = alice_client.get(reverse("games:online_list")).content.decode()
    assert "First done" in page and "Later" in page  # a game joined shows at once
    finish(later, "Second done")
    for seed in range(3, 7):
        finish(started_game(alice, bob, seed=seed), f"Done {seed}")
    with django_assert_max_num_queries(9):
        page = alice_client.get(reverse("games:online_list")).content.decode()
    assert "Second done" in page and "Done 6" in page and page.count("you came #1") == 6


def test_my_games_header_counts_its_own_list_and_the_next_pages_show_that_count(
    alice, bob, alice_client
):
    waiting_for(started_game(alice, bob, seed=1), alice, 5)
    waiting_for(started_game(alice, bob, seed=2), alice, 5)
    waiting_for(started_game(alice, bob, seed=3), bob, 5)
    with CaptureQueriesContext(connection) as queries:
        page = alice_client.get(reverse("games:online_list")).content.decode()
        home = alice_client.get(reverse("home")).content.decode()
    assert '<span class="badge">2</span>' in page and '<span class="badge">2</span>' in home
    assert sum("COUNT(*)" in query["sql"] for query in queries.captured_queries) == 0


def test_my_games_puts_the_header_right_at_once_after_a_turn_ends(alice, bob, alice_client):
    """The header's count is kept a few seconds (a badge); the list is never late, and
    the count it makes is what the next page shows."""
    game = started_game(alice, bob, seed=1)
    waiting_for(game, alice, 5)
    assert '<span class="badge">1</span>' in alice_client.get(reverse("home")).content.decode()
    waiting_for(game, bob, 5)
    assert '<span class="badge">1</span>' in alice_client.get(reverse("home")).content.decode()
    listed = alice_client.get(reverse("games:online_list")).content.decode()
    home = alice_client.get(reverse("home")).content.decode()
    assert 'class="badge"' not in listed and 'class="badge"' not in home


def test_my_games_each_viewer_sees_their_own_lists_of_the_same_games(
    alice, bob, alice_client, client
):
    waiting_for(started_game(alice, bob, seed=1), alice, 5, "Shared")
    mine = alice_client.get(reverse("games:online_list")).content.decode()
    client.force_login(bob)
    theirs = client.get(reverse("games:online_list")).content.decode()
    assert mine.index("Your turn") < mine.index("Shared")
    assert "Your turn" not in theirs and "<bdi>alice</bdi> to play" in theirs


def test_my_games_show_a_turn_that_moved_on_since_the_lists_were_cached(alice, bob, alice_client):
    game = waiting_for(started_game(alice, bob, seed=1), alice, 5, "Moving")
    assert "Your turn" in alice_client.get(reverse("games:online_list")).content.decode()
    waiting_for(game, bob, 1)  # every move bumps the game's version
    page = alice_client.get(reverse("games:online_list")).content.decode()
    assert "Your turn" not in page and "<bdi>bob</bdi> to play" in page


def test_my_games_show_a_players_new_name_at_once(alice, bob, alice_client):
    """A line's names aren't in the lists' key: the version stands for them, and a new
    name bumps every game of the player's (as the profile page does)."""
    waiting_for(started_game(alice, bob, seed=1), bob, 5, "Renamed")
    assert (
        "<bdi>bob</bdi> to play" in alice_client.get(reverse("games:online_list")).content.decode()
    )
    player = Player.for_user(bob)
    player.name = "Robert"
    player.save(update_fields=["name"])
    bump_games_of(player)
    page = alice_client.get(reverse("games:online_list")).content.decode()
    assert "<bdi>Robert</bdi> to play" in page and "<bdi>bob</bdi>" not in page


def test_my_games_waiting_time_moves_on_while_the_lists_are_cached(
    alice, bob, alice_client, monkeypatch
):
    """The lists are drawn again when the waiting time's words change, not in between:
    by the minute under a day, by the hour under a week."""
    import time_machine
    from django.template import defaultfilters

    drawn = []  # the template's |timesince: called only when the lists are drawn
    words = defaultfilters.timesince
    monkeypatch.setattr(
        defaultfilters, "timesince", lambda *a, **k: drawn.append(1) or words(*a, **k)
    )
    started = timezone.now()
    game = waiting_for(started_game(alice, bob, seed=1), alice, 0, "Slow")
    Game.objects.filter(pk=game.pk).update(turn_started_at=started - timedelta(minutes=5))
    url = reverse("games:online_list")

    def page():
        return alice_client.get(url).content.decode()

    # Within the cached lists' ten minutes: the key, not the cache's expiry, moves them on.
    with time_machine.travel(started, tick=False):
        assert "waiting 5\xa0minutes" in page()
        assert "waiting 5\xa0minutes" in page() and len(drawn) == 1  # from the cache
    with time_machine.travel(started + timedelta(seconds=50), tick=False):
        assert "waiting 5\xa0minutes" in page() and len(drawn) == 1
    with time_machine.travel(started + timedelta(minutes=4, seconds=1), tick=False):
        assert "waiting 9\xa0minutes" in page() and len(drawn) == 2

    Game.objects.filter(pk=game.pk).update(  # a turn's start bumps the version
        turn_started_at=started - timedelta(days=2, minutes=10), version=F("version") + 1
    )
    with time_machine.travel(started, tick=False):
        assert "waiting 2\xa0days" in page() and len(drawn) == 3
    with time_machine.travel(started + timedelta(minutes=9), tick=False):
        assert "waiting 2\xa0days" in page() and len(drawn) == 3  # the same hour
