"""Stats against numbers worked out by hand from the five small games of the
`history` fixture (tests/stats/conftest.py)."""

import pytest

from games.stats import figures
from games.stats.access import co_players
from games.stats.leaderboard import ranked
from games.stats.scope import Scope

from .factories import laid, make_game, missed, player

pytestmark = pytest.mark.django_db


def scope(history, who="alice", mode="both", period="all"):
    return Scope.parse(history[who], mode, period)


def test_the_summary_counts_only_finished_games(history):
    summary = figures.summary(scope(history))
    assert (summary.played, summary.won) == (4, 3)
    assert summary.win_rate == 0.75
    assert summary.average_score == pytest.approx((30 + 95 + 35 + 20) / 4)
    assert summary.best_score == 20
    assert summary.average_rounds == pytest.approx((4 + 3 + 3 + 3) / 4)


def test_the_longest_winning_streak_follows_the_order_games_finished(history):
    # G1 won, G2 lost, G3 won, G4 won.
    assert figures.summary(scope(history)).longest_streak == 2
    assert figures.summary(scope(history, mode="night")).longest_streak == 3
    assert figures.summary(scope(history, mode="online")).longest_streak == 0
    assert figures.summary(scope(history, who="bob")).longest_streak == 1


@pytest.mark.parametrize(
    ("mode", "period", "played", "won", "best", "average"),
    [
        ("night", "all", 3, 3, 20, (30 + 35 + 20) / 3),
        ("online", "all", 1, 0, 95, 95),
        ("both", "30d", 3, 2, 20, (95 + 35 + 20) / 3),
        ("night", "30d", 2, 2, 20, (35 + 20) / 2),
        ("both", "year", 4, 3, 20, 45),
    ],
)
def test_the_summary_follows_the_mode_and_period_filters(
    history, mode, period, played, won, best, average
):
    summary = figures.summary(scope(history, mode=mode, period=period))
    assert (summary.played, summary.won, summary.best_score) == (played, won, best)
    assert summary.average_score == pytest.approx(average)


def test_a_player_without_finished_games_has_empty_stats(history, stranger):
    summary = figures.summary(Scope.parse(player(stranger), None, None))
    assert (summary.played, summary.won, summary.win_rate, summary.longest_streak) == (
        0,
        0,
        None,
        0,
    )
    assert summary.best_score is None


def test_per_phase_rounds_needed_and_share_completed_leave_out_pick_a_phase(history):
    phases = {row.phase: row for row in figures.phase_stats(scope(history))}
    # Phase 1: G1 one try (laid), G2 three tries (laid the third), G3 one (all-advance, laid).
    assert (phases[1].rounds, phases[1].completed) == (5, 3)
    assert phases[1].share == pytest.approx(3 / 5)
    assert phases[1].average_rounds == pytest.approx(5 / 3)
    # Phase 2: G1 missed then laid; G3 one all-advance round, missed (not in "needed").
    assert (phases[2].rounds, phases[2].completed) == (3, 1)
    assert phases[2].share == pytest.approx(1 / 3)
    assert phases[2].average_rounds == 2
    # Phase 3: laid at the first try in G1 and in G3.
    assert (phases[3].rounds, phases[3].completed, phases[3].average_rounds) == (2, 2, 1)
    assert set(phases) == {1, 2, 3}


def test_a_phase_never_completed_has_no_rounds_needed(history):
    phases = {row.phase: row for row in figures.phase_stats(scope(history, who="bob"))}
    # Bob: phase 3 missed in G1 (game ended), laid in G2 at the first try.
    assert (phases[3].rounds, phases[3].completed, phases[3].average_rounds) == (2, 1, 1)
    carol = {row.phase: row for row in figures.phase_stats(scope(history, who="carol"))}
    assert (carol[3].rounds, carol[3].completed, carol[3].average_rounds) == (1, 0, None)
    assert carol[3].share == 0


def test_the_nemesis_is_the_phase_completed_least_often_with_enough_tries(history):
    phases = figures.phase_stats(scope(history))
    assert figures.nemesis(phases).phase == 2
    # Carol tried phase 3 once: not enough to call it a nemesis.
    assert figures.nemesis(figures.phase_stats(scope(history, who="carol"))) is None


def test_head_to_head_counts_games_together_and_wins_each_way(history):
    rows = figures.head_to_head(scope(history))
    assert [(r.name, r.games, r.wins, r.losses, r.is_guest) for r in rows] == [
        ("bob", 3, 2, 1, False),  # G1 and G4 alice, G2 bob
        ("carol", 1, 0, 0, False),  # G2: bob won, neither of them
        ("dora", 1, 1, 0, True),
    ]


def test_head_to_head_follows_the_filters(history):
    rows = figures.head_to_head(scope(history, mode="night"))
    assert [(r.name, r.games, r.wins, r.losses) for r in rows] == [
        ("bob", 2, 2, 0),
        ("dora", 1, 1, 0),
    ]


def test_recent_games_are_the_latest_finished_first(history):
    seats = figures.recent_seats(scope(history), viewer=history["carol"])
    assert [s.game for s in seats] == [history[g] for g in ("g4", "g3", "g2", "g1")]
    assert [s.viewer_seated for s in seats] == [False, False, True, False]


def test_win_rate_over_time_is_the_running_share_of_games_won(history):
    points = figures.win_rate_over_time(scope(history), played=4)
    assert [(p.game_number, p.wins) for p in points] == [(1, 1), (2, 1), (3, 2), (4, 3)]
    assert [p.rate for p in points] == [1, 0.5, pytest.approx(2 / 3), 0.75]


def test_the_win_rate_chart_samples_long_histories(history):
    points = figures.win_rate_over_time(scope(history), played=4)
    assert figures.sample_positions(4) == [1, 2, 3, 4]
    assert len(figures.sample_positions(500)) == figures.WIN_RATE_POINTS
    assert figures.sample_positions(500)[-1] == 500
    assert points[-1].finished_at == history["g4"].finished_at


def test_phase_reached_per_round_compares_the_player_with_their_opponents(history):
    rows = figures.phase_by_round(scope(history))
    assert [r.round_number for r in rows] == [1, 2, 3, 4]
    # Round 2: alice on 2 (G1), 1 (G2), 2 (G3); opponents 1, 2, 2, 2.
    assert rows[1].mine == pytest.approx(5 / 3)
    assert rows[1].others == pytest.approx(7 / 4)
    assert (rows[2].mine, rows[2].others) == (pytest.approx(2), pytest.approx(11 / 4))
    assert (rows[3].mine, rows[3].others) == (3, 3)


def test_the_leaderboard_ranks_everyone_who_shared_a_game(history, stranger):
    make_game(
        [player(stranger), player("zed", created_by=stranger)],
        [[laid(1, out=True), missed(1, 5)]],
        winner=0,
        rules={"phases": [1]},
    )
    rows = ranked(scope(history))
    assert [(r.name, r.rank, r.games, r.wins) for r in rows] == [
        ("alice", 1, 4, 3),
        ("bob", 2, 3, 1),
        ("dora", None, 1, 0),  # unranked: fewer than 3 games; lower average first
        ("carol", None, 1, 0),
    ]
    assert rows[1].average_score == pytest.approx((115 + 10 + 45) / 3)


def test_co_players_include_unfinished_games_and_the_player(history, stranger):
    names = set(co_players(history["carol"]).values_list("name", flat=True))
    assert names == {"alice", "bob", "carol"}
