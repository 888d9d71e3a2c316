"""Every online game shows its own rules (each option in words, and the time limit per
turn) in its lobby, on its invite page and beside its table; a time-limited turn shows
how long the current player has left, counted by the server on every request."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.engine import Rules
from games.models import Game, Seat
from games.online import lobby
from tests.online.helpers import started_game

pytestmark = pytest.mark.django_db

EVERY_OPTION = Rules(
    phases=(2, 4, 6, 8, 10),
    all_advance=True,
    natural_card="group",
    hit_others_same_turn=True,
    go_out_by_hitting=True,
    skip_target="choose",
)
EVERY_OPTION_IN_WORDS = [
    "Even phases",
    "Everyone moves on every round",
    "One in every group",
    "Any group, already in the turn you lay down",
    "Discard or hit your last card",
    "A player the discarder chooses",
    "Time limit per turn",
    "1 day",
]
THE_STANDARD_GAME_IN_WORDS = [
    "All ten phases",
    "Complete your phase to move on",
    "One in the phase (standard)",
    "Others&#x27; groups from your next turn on (standard)",
    "Discard your last card (standard)",
    "The next player (standard)",
    "<dd>None</dd>",
]


def rules_of(page: str) -> str:
    return page.split('class="panel game-rules"')[1].split("</details>")[0]


def test_the_lobby_shows_every_option_and_the_time_limit(alice, alice_client):
    game = lobby.create_game(alice, seats=3, rules=EVERY_OPTION, time_limit=timedelta(days=1))
    shown = rules_of(alice_client.get(game.get_absolute_url()).content.decode())
    for words in EVERY_OPTION_IN_WORDS:
        assert words in shown, words
    assert f'href="{reverse("rules")}"' in shown


def test_the_invite_page_shows_the_rules_before_taking_a_seat(alice, bob, client):
    game = lobby.create_game(alice, seats=3, rules=EVERY_OPTION, time_limit=timedelta(days=1))
    client.force_login(bob)
    page = client.get(reverse("games:online_join", args=[game.invite_token])).content.decode()
    shown = rules_of(page)
    for words in EVERY_OPTION_IN_WORDS:
        assert words in shown, words
    assert f'href="{reverse("rules")}"' in shown


def test_the_table_shows_the_standard_game_as_standard(duel, client, bob):
    client.force_login(bob)
    page = client.get(duel.get_absolute_url()).content.decode()
    shown = rules_of(page)
    for words in THE_STANDARD_GAME_IN_WORDS:
        assert words in shown, words
    assert f'href="{reverse("rules")}"' in page.split('id="board"')[0]  # beside the title
    assert 'class="ot-clock"' not in page  # no time limit, no clock


def test_the_rules_are_shown_in_the_players_language(duel, client, bob):
    client.force_login(bob)
    client.post(reverse("set_language"), {"language": "sk", "next": "/"})
    shown = rules_of(client.get(duel.get_absolute_url()).content.decode())
    assert "Pravidlá tejto hry" in shown
    assert "Všetkých desať fáz" in shown and "Nasledujúceho hráča (štandard)" in shown


def timed_game(alice, bob, *, waited: timedelta) -> Game:
    game = started_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(
        time_limit=timedelta(days=1), turn_started_at=timezone.now() - waited
    )
    game.refresh_from_db()
    return game


def test_a_time_limited_turn_shows_the_time_left_and_the_deadline(alice, bob, client):
    # Half a minute of slack, so the seconds the request takes don't change the minute.
    game = timed_game(alice, bob, waited=timedelta(hours=2, minutes=30, seconds=30))
    client.force_login(alice)
    page = client.get(game.get_absolute_url()).content.decode()
    clock = page.split('class="ot-clock"')[1].split("</p>")[0]
    assert "Time left for this turn:" in clock
    assert ">21 hours, 29 minutes</strong>" in clock
    deadline = game.turn_started_at + game.time_limit
    assert f'<time datetime="{deadline.isoformat()}">' in clock
    assert f'data-deadline="{deadline.isoformat()}"' in clock
    assert "/static/js/clock.js" in page


def test_the_time_left_is_counted_anew_for_a_board_from_the_cache(alice, bob, client):
    game = timed_game(alice, bob, waited=timedelta(hours=2, minutes=30, seconds=30))
    client.force_login(alice)
    assert ">21 hours, 29 minutes<" in client.get(game.get_absolute_url()).content.decode()
    # Time passes; the game doesn't change, so the board comes from the cache.
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=game.turn_started_at - timedelta(hours=3)
    )
    page = client.get(game.get_absolute_url()).content.decode()
    assert ">18 hours, 29 minutes<" in page
    Game.objects.filter(pk=game.pk).update(turn_started_at=game.turn_started_at - timedelta(days=2))
    assert ">time is up<" in client.get(game.get_absolute_url()).content.decode()


def test_the_clock_speaks_the_players_language(alice, bob, client):
    game = timed_game(alice, bob, waited=timedelta(hours=22, minutes=59, seconds=30))
    client.force_login(bob)
    client.post(reverse("set_language"), {"language": "fi", "next": "/"})
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Aikaa jäljellä tällä vuorolla:" in page
    assert ">1 tunti</strong>" in page


def test_no_clock_while_a_bot_plays_the_turn(alice, bob, client):
    game = timed_game(alice, bob, waited=timedelta(hours=1))
    Seat.objects.filter(game=game, player=game.current_player).update(is_bot=True)
    client.force_login(alice)
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'class="ot-clock"' not in page
