"""The variant filter of the stats page and the leaderboard, and pick-a-phase games in
the per-phase table (the `history` fixture of conftest.py, plus games of all ten phases)."""

import re

import pytest
from django.urls import reverse

from games.engine import Rules
from games.models import RoundScore
from games.stats import figures
from games.stats.scope import Scope
from tests.nights.helpers import post_round, start_night

from .factories import bulk_history, laid, make_game, missed, player
from .test_stats_queries import LEADERBOARD_QUERIES, STATS_PAGE_QUERIES, site_queries  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def variants(history):
    """History (all its games have 2 or 3 phases: shorter) and two games of all ten."""
    a, b = history["alice"], history["bob"]
    history["standard"] = make_game(
        [a, b], [[laid(1, out=True), missed(1, 30)]], winner=0, rules=Rules().to_dict()
    )
    history["everyone"] = make_game(
        [a, b],
        [[missed(1, 30), laid(1, out=True)]],
        winner=1,
        rules=Rules(all_advance=True).to_dict(),
    )
    return history


def played(history, variant, who="alice"):
    return figures.summary(Scope.parse(history[who], None, None, variant)).played


def test_each_variant_counts_only_its_games(variants):
    assert played(variants, "all") == 6
    assert played(variants, "standard") == 1  # all ten phases, complete to move on
    assert played(variants, "all_advance") == 2  # G3 and the all-ten one
    assert played(variants, "pick_a_phase") == 1  # G4
    assert played(variants, "shorter") == 4  # G1–G4 have 2 or 3 phases


def test_a_game_whose_rules_name_no_option_is_standard(alice, bob):
    a, b = player(alice), player(bob)
    make_game([a, b], [[laid(1, out=True), missed(1, 30)]], winner=0, rules={})
    assert figures.summary(Scope.parse(a, None, None, "standard")).played == 1
    assert figures.summary(Scope.parse(a, None, None, "shorter")).played == 0


def test_an_unknown_variant_means_every_variant(variants):
    assert Scope.parse(variants["alice"], None, None, "nonsense").variant == "all"
    assert played(variants, "nonsense") == 6


def test_the_variant_combines_with_mode_and_period(variants):
    scope = Scope.parse(variants["alice"], "night", "30d", "shorter")
    assert figures.summary(scope).played == 2  # G3 and G4 (G1 is too old, G2 online)


def test_the_stats_page_filters_by_variant_and_marks_the_chosen_one(alice_client, variants):
    response = alice_client.get(reverse("games:stats"), {"variant": "all_advance"})
    page = response.content.decode()
    assert re.search(r'data-stat="played">2<', page)
    chip = re.search(r'<a href="([^"]*variant=all_advance[^"]*)" class="chip" aria-current', page)
    assert chip is not None


def test_the_leaderboard_filters_by_variant(alice_client, variants):
    response = alice_client.get(reverse("games:leaderboard"), {"variant": "standard"})
    rows = {row.name: row.games for row, _rating in response.context["rows"]}
    assert rows == {"alice": 1, "bob": 1}


def test_the_per_phase_table_counts_pick_a_phase_games_apart(variants):
    phases = {
        row.phase: row for row in figures.phase_stats(Scope.parse(variants["alice"], None, None))
    }
    # G4: alice laid phase 2, then phase 1: counted as laid in pick-a-phase only.
    assert (phases[1].picked, phases[2].picked) == (1, 1)
    # The tries of the other games are as before (test_stats.py), plus the standard
    # game's phase 1 laid and the all-advance one's phase 1 missed.
    assert (phases[1].rounds, phases[1].completed) == (7, 4)
    assert phases[3].picked == 0


def test_a_pick_a_phase_night_records_the_phase_each_player_laid_and_the_stats_count_it(
    alice_client, alice
):
    game = start_night(
        alice_client, guests=["Bob"], phases="custom", custom="1 2", advance="pick_a_phase"
    )
    post_round(alice_client, game, went_out=0, points=[0, 20], completed={0: 2, 1: 1})
    post_round(alice_client, game, went_out=0, points=[0, 15], completed={0: 1})
    game.refresh_from_db()
    assert game.status == game.Status.FINISHED
    laid_phases = list(
        RoundScore.objects.filter(game=game)
        .order_by("round_number", "seat__position")
        .values_list("player__name", "phase_attempted", "phase_completed")
    )
    assert laid_phases == [
        ("alice", 2, 2),
        ("Bob", 1, 1),
        ("alice", 1, 1),
        ("Bob", None, None),
    ]
    scope = Scope.parse(player(alice), None, None, "pick_a_phase")
    assert {row.phase: row.picked for row in figures.phase_stats(scope)} == {1: 1, 2: 1}
    page = alice_client.get(reverse("games:stats")).content.decode()
    assert re.search(r'data-stat="picked-1">1<', page)
    assert re.search(r'data-stat="picked-2">1<', page)


@pytest.mark.parametrize("games", [10, 500])
@pytest.mark.parametrize("variant", ["standard", "pick_a_phase", "shorter"])
def test_a_variants_stats_page_takes_a_fixed_number_of_queries(
    alice_client,
    alice,
    bob,
    site_queries,  # noqa: F811  (the fixture imported above)
    django_assert_max_num_queries,
    games,
    variant,  # noqa: F811
):
    bulk_history([player(alice), player(bob)], games)
    with django_assert_max_num_queries(site_queries + STATS_PAGE_QUERIES):
        response = alice_client.get(reverse("games:stats"), {"variant": variant})
    assert response.status_code == 200
    with django_assert_max_num_queries(site_queries + LEADERBOARD_QUERIES):
        alice_client.get(reverse("games:leaderboard"), {"variant": variant})
