"""Ratings are kept game by game (games/stats/rating_ledger.py): each finished game taken in
exactly once, in the order games finished, whatever order the tasks run in; and the
incremental path gives the same numbers as `recompute_ratings` from scratch."""

import random

import pytest
from django.core.management import call_command

from games.models import Game, RatedGame, Rating, RatingChange, RatingMark, Seat
from games.stats import rating_ledger

from .factories import make_game, player

pytestmark = pytest.mark.django_db


def snapshot():
    """Every stored rating number, exactly (floats compared bit for bit)."""
    changes = sorted(
        RatingChange.objects.values_list(
            "player_id",
            "game_id",
            "rank",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "ordinal_before",
            "ordinal_after",
        )
    )
    current = sorted(Rating.objects.values_list("player_id", "mu", "sigma", "games"))
    return changes, current


@pytest.fixture
def people(alice, bob, carol):
    a, b, c = player(alice), player(bob), player(carol)
    return [a, b, c, player("dora", created_by=alice), player("ed", created_by=alice)]


def game_of(players, order, *, days_ago, ties=(), **kwargs):
    """A finished game: `order` lists seat indexes best first; `ties` pairs of seats that
    share a rank."""
    game = make_game(players, [], winner=order[0], days_ago=days_ago, **kwargs)
    for rank, position in enumerate(order, start=1):
        Seat.objects.filter(game=game, position=position).update(rank=rank)
    for first, second in ties:
        rank = Seat.objects.get(game=game, position=first).rank
        Seat.objects.filter(game=game, position=second).update(rank=rank)
    return game


def plans(people, count=14, seed=3):
    """`count` games among the people (2 to 5 seats, some ties, one with a bot), finished
    a day apart, as the arguments of `game_of`, in finishing order."""
    rng = random.Random(seed)
    bot = player("Ada")
    result = []
    for n in range(count):
        seated = rng.sample(people, rng.randint(2, 5))
        extra = {"bots": (len(seated),)} if n % 5 == 2 else {}
        if extra:
            seated = [*seated, bot]
        order = rng.sample(range(len(seated)), len(seated))
        ties = [(order[0], order[1])] if n % 4 == 0 else ()
        result.append((seated, order, {"days_ago": count - n, "ties": ties, **extra}))
    return result


def history(people, count=14, seed=3, *, rate_each=False):
    """The games of `plans`, created in finishing order (each rated as it comes with
    `rate_each`, as the task after each game's commit would)."""
    games = []
    for seated, order, options in plans(people, count, seed):
        games.append(game_of(seated, order, **options))
        if rate_each:
            rating_ledger.run(games[-1].pk)
    return games


def recomputed():
    call_command("recompute_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115
    return snapshot()


def test_each_game_is_rated_once_even_when_its_task_runs_twice(people):
    game = game_of(people[:3], [0, 1, 2], days_ago=1)
    assert rating_ledger.run(game.pk) == 1
    first = snapshot()
    assert rating_ledger.run(game.pk) == 0
    assert snapshot() == first
    assert RatingChange.objects.filter(game=game).count() == 3
    assert Rating.objects.get(player=people[0]).games == 1


def test_games_rated_as_they_finish_match_a_recompute_from_scratch(people):
    history(people, rate_each=True)
    incremental = snapshot()
    assert len(incremental[0]) > 30
    assert RatingMark.objects.get().revision == 14
    assert recomputed() == incremental


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_games_that_come_in_out_of_order_match_a_recompute(people, seed, monkeypatch):
    """Games commit (and their tasks run) in a shuffled order; some finished before the
    last game rated, so the ratings are worked out again from them on."""
    rewinds = []
    rewind = rating_ledger._rewind
    monkeypatch.setattr(
        rating_ledger,
        "_rewind",
        lambda start, moved: rewinds.append(start) or rewind(start, moved),
    )
    planned = plans(people)
    for seated, order, options in random.Random(seed).sample(planned, len(planned)):
        rating_ledger.run(game_of(seated, order, **options).pk)
    assert len(rewinds) >= 3
    incremental = snapshot()
    assert RatedGame.objects.count() == len(planned)
    assert recomputed() == incremental


def test_a_game_that_finished_before_the_last_rated_one_re_rates_from_it(people):
    a, b, c = people[:3]
    later = game_of([a, b], [0, 1], days_ago=1)
    rating_ledger.run(later.pk)
    before = RatingChange.objects.get(game=later, player=a).ordinal_before
    # This game finished earlier, but its commit (and its task) came after.
    earlier = game_of([a, c], [1, 0], days_ago=2)
    rating_ledger.run(earlier.pk)
    assert RatingChange.objects.get(game=later, player=a).ordinal_before != before
    assert RatingChange.objects.get(game=later, player=a).ordinal_before == (
        RatingChange.objects.get(game=earlier, player=a).ordinal_after
    )
    mark = RatingMark.objects.get()
    assert (mark.rated_to_at, mark.rated_to_game) == (later.finished_at, later.pk)
    assert snapshot() == recomputed()


def test_a_task_for_any_game_takes_in_every_game_finished_before_it(people):
    games = history(people, count=4)
    assert rating_ledger.run(games[-1].pk) == 4
    assert RatedGame.objects.count() == 4


def test_the_sweep_rates_a_game_whose_task_was_lost(people):
    first = game_of(people[:2], [0, 1], days_ago=3)
    rating_ledger.run(first.pk)
    lost = game_of(people[1:3], [1, 0], days_ago=4)  # behind the mark, never queued
    assert rating_ledger.run(sweep=True) == 2  # the lost game, then the later one again
    assert RatingChange.objects.filter(game=lost).count() == 2
    assert snapshot() == recomputed()


def test_a_game_with_bots_rates_only_its_people_among_themselves(people):
    a, b = people[:2]
    bot = player("Ada")
    game = game_of([bot, a, b], [0, 2, 1], days_ago=1, bots=(0,))
    rating_ledger.run(game.pk)
    places = dict(RatingChange.objects.filter(game=game).values_list("player_id", "rank"))
    assert places == {b.pk: 1, a.pk: 2}
    assert not Rating.objects.filter(player=bot).exists()


def test_a_game_that_isnt_rated_moves_nobody(people):
    game = game_of(people[:2], [0, 1], days_ago=1, mode=Game.Mode.ONLINE)
    Game.objects.filter(pk=game.pk).update(rated=False)
    rating_ledger.run(game.pk)
    assert not RatingChange.objects.exists()
    assert RatedGame.objects.filter(game=game).exists()


def test_a_resigned_person_counts_as_last(people):
    a, b, c = people[:3]
    game = game_of([a, b, c], [0, 1, 2], days_ago=1, resigned={0: 2})
    rating_ledger.run(game.pk)
    places = dict(RatingChange.objects.filter(game=game).values_list("player_id", "rank"))
    assert places == {b.pk: 1, c.pk: 2, a.pk: 3}


def test_a_run_that_finds_the_ratings_claimed_rates_nothing(people, monkeypatch):
    game = game_of(people[:2], [0, 1], days_ago=1)
    RatingMark.objects.create(pk=1, revision=5)
    # Another run moved the revision on after this one read it.
    monkeypatch.setattr(rating_ledger, "_mark", lambda: RatingMark(pk=1, revision=4))
    assert rating_ledger.run(game.pk) == 0
    assert not RatingChange.objects.exists()


def test_recompute_from_scratch_forgets_ratings_of_games_deleted_since(people):
    games = history(people, count=5)
    rating_ledger.run(games[-1].pk)
    Game.objects.filter(pk=games[2].pk).delete()
    call_command("recompute_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert RatedGame.objects.count() == 4
    assert sum(Rating.objects.values_list("games", flat=True)) == (RatingChange.objects.count())
