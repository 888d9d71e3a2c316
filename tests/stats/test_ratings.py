"""The rating itself (games/stats/ratings.py): who is rated in a game, how one game moves
a rating, and the number people see."""

import doctest

import pytest

from games.stats import rating_chart, rating_stats, ratings
from games.stats.ratings import Placing, initial, is_provisional, placings, rate
from tests.stats.factories import player


class FakeSeat:
    def __init__(self, player_id, rank, *, bot=False, resigned=False, accepted=True):
        self.player_id, self.rank = player_id, rank
        self.is_bot, self.resigned = bot or resigned, resigned
        self.accepted = accepted  # a member seated by username said yes (nights/seating.py)


@pytest.mark.parametrize("module", [ratings, rating_chart, rating_stats])
def test_the_examples_in_the_docstrings_hold(module):
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0


def test_a_newcomer_starts_at_1000_and_is_provisional():
    assert initial().shown == 1000
    assert is_provisional(0)


def test_the_winner_goes_up_and_the_loser_down():
    winner, loser = rate([initial(), initial()], [1, 2])
    assert winner.shown > 1000 > loser.shown
    assert winner.mu > 25 > loser.mu


def test_players_who_tie_move_alike():
    first, second, third = rate([initial(), initial(), initial()], [1, 1, 2])
    assert first == second
    assert first.mu > third.mu


def test_a_bots_place_is_left_out_and_the_people_close_ranks():
    seats = [FakeSeat(1, 1, bot=True), FakeSeat(2, 2), FakeSeat(3, 3)]
    assert placings(seats) == [Placing(2, 1), Placing(3, 2)]


def test_a_person_who_resigned_is_last_even_when_their_bot_won():
    seats = [FakeSeat(1, 1, resigned=True), FakeSeat(2, 2), FakeSeat(3, 3)]
    assert placings(seats) == [Placing(1, 3), Placing(2, 1), Placing(3, 2)]


def test_people_who_resigned_share_the_last_place():
    seats = [FakeSeat(1, 3, resigned=True), FakeSeat(2, 1), FakeSeat(3, 2, resigned=True)]
    assert placings(seats) == [Placing(1, 2), Placing(2, 1), Placing(3, 2)]


def test_a_game_that_isnt_rated_or_has_one_person_rates_nobody():
    assert placings([FakeSeat(1, 1), FakeSeat(2, 2)], rated=False) == []
    assert placings([FakeSeat(1, 2), FakeSeat(2, 1, bot=True)]) == []
    # Everyone resigned: the bots finished the game, nobody's result says anything.
    assert placings([FakeSeat(1, 1, resigned=True), FakeSeat(2, 2, resigned=True)]) == []


@pytest.mark.django_db
def test_placings_read_real_seats(alice):
    from games.models import Seat

    from .factories import make_game

    game = make_game([player(alice), player("Bot")], [], winner=1, bots=(1,))
    assert placings(list(Seat.objects.filter(game=game))) == []
