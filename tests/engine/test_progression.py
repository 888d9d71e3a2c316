"""Rounds and the game around them, as game nights and the engine both see them."""

import pytest

from games.engine import RoundResult, RuleError, Rules, Standing, check_round, progress
from games.engine.progression import advance, settle_tiebreak, start


def out(seat, points, completed=None, went_out=True):
    """A round where `seat` went out; `completed` maps seat -> phase (default: just `seat`)."""
    return RoundResult(
        went_out=seat if went_out else None,
        completed=completed if completed is not None else {},
        points=points,
    )


def test_a_new_game_starts_everyone_on_the_first_phase_with_no_points():
    standing = progress(3, Rules(), [])
    assert standing.round_number == 1
    assert standing.phase == (1, 1, 1)
    assert standing.scores == (0, 0, 0)
    assert standing.completed == (frozenset(), frozenset(), frozenset())
    assert (standing.dealer, standing.first_player) == (0, 1)
    assert not standing.game_over and standing.winner is None


def test_the_first_player_sits_left_of_the_chosen_dealer():
    standing = progress(4, Rules(), [], dealer=3)
    assert (standing.dealer, standing.first_player) == (3, 0)


def test_players_who_laid_their_phase_advance_and_the_others_repeat_it():
    standing = progress(3, Rules(), [out(0, (0, 25, 40), {0: 1, 1: 1})])
    assert standing.phase == (2, 2, 1)
    assert standing.completed == (frozenset({1}), frozenset({1}), frozenset())
    assert standing.scores == (0, 25, 40)
    assert standing.attempted == ((1, 1, 1),)


def test_the_deal_passes_one_seat_to_the_left_every_round():
    rounds = [out(0, (0, 5, 5), {0: phase}) for phase in (1, 2, 3)]
    standing = progress(3, Rules(), rounds, dealer=1)
    assert standing.round_number == 4
    assert standing.dealer == 1  # 1 -> 2 -> 0 -> 1
    assert standing.first_player == 2


def test_scores_add_up_over_rounds():
    rounds = [out(0, (0, 15, 20), {0: 1}), out(1, (35, 0, 5), {1: 1})]
    assert progress(3, Rules(), rounds).scores == (35, 15, 25)


def test_the_game_ends_after_a_round_in_which_someone_completed_the_last_phase():
    rules = Rules(phases=(1, 2))
    rounds = [out(0, (0, 50), {0: 1}), out(0, (0, 50), {0: 2})]
    standing = progress(2, rules, rounds)
    assert standing.game_over
    assert standing.winner == 0
    assert standing.phase == (None, 1)


def test_of_those_who_completed_the_last_phase_the_lowest_total_wins():
    rules = Rules(phases=(1,))
    # Seat 2 has the lowest total but didn't complete the last phase.
    standing = progress(3, rules, [out(0, (0, 30, 5), {0: 1, 1: 1})])
    assert standing.winner == 0
    rounds = [out(1, (50, 0, 5), {0: 1, 1: 1})]
    assert progress(3, rules, rounds).winner == 1


def test_a_tie_among_the_finishers_needs_a_tiebreaker_among_only_the_tied_players():
    rules = Rules(phases=(1, 2))
    rounds = [
        out(0, (0, 20, 10, 5), {0: 1, 1: 1, 2: 1}),
        out(2, (20, 0, 0, 5), {0: 2, 1: 2, 2: 2}),
    ]
    standing = progress(4, rules, rounds)
    assert standing.scores == (20, 20, 10, 10)
    # The finishers are 0, 1, 2 with 20, 20, 10; seat 3 has 10 too but didn't finish.
    assert standing.winner == 2
    rounds[1] = out(2, (10, 10, 0, 5), {0: 2, 1: 2, 2: 2})
    standing = progress(4, rules, rounds)
    assert standing.scores == (10, 30, 10, 10)
    # Seat 3 ties on points but didn't complete the last phase, so it sits out.
    assert not standing.game_over
    assert standing.tiebreak_needed
    assert standing.tiebreak_seats == (0, 2)


def test_the_tiebreaker_winner_wins_the_game():
    rules = Rules(phases=(1,))
    tie = out(None, (5, 5, 20), {0: 1, 1: 1}, went_out=False)
    standing = progress(3, rules, [tie], tiebreak_winner=1)
    assert standing.game_over and standing.winner == 1
    assert not standing.tiebreak_needed
    assert standing.tiebreak_seats == (0, 1)


def test_the_tiebreaker_is_dealt_by_the_next_dealer_and_started_by_the_first_tied_player_on_the_left():
    rules = Rules(phases=(1,))
    tie = out(None, (5, 20, 5), {0: 1, 2: 1}, went_out=False)
    standing = progress(3, rules, [tie], dealer=2)
    assert standing.dealer == 0
    assert standing.first_player == 2
    assert standing.playing == (0, 2)


def test_only_a_tied_player_can_win_the_tiebreaker():
    rules = Rules(phases=(1,))
    tie = out(None, (5, 5, 20), {0: 1, 1: 1}, went_out=False)
    with pytest.raises(RuleError, match="Only the tied players"):
        progress(3, rules, [tie], tiebreak_winner=2)


def test_a_tiebreaker_winner_is_refused_when_no_tiebreaker_is_due():
    with pytest.raises(RuleError, match="No tie-breaker"):
        progress(2, Rules(), [], tiebreak_winner=0)


def test_no_round_can_be_recorded_while_a_tiebreaker_is_due():
    rules = Rules(phases=(1,))
    tie = out(None, (5, 5), {0: 1, 1: 1}, went_out=False)
    with pytest.raises(RuleError, match="tie-breaker round is due"):
        progress(2, rules, [tie, out(0, (0, 5), {0: 1})])


def test_no_round_can_be_recorded_after_the_game_is_over():
    rules = Rules(phases=(1,))
    with pytest.raises(RuleError, match="The game is over"):
        progress(2, rules, [out(0, (0, 5), {0: 1}), out(0, (0, 5), {0: 1})])
    standing = progress(2, rules, [out(0, (0, 5), {0: 1})])
    with pytest.raises(RuleError, match="The game is over"):
        settle_tiebreak(standing, 0)


def test_the_player_who_went_out_must_have_completed_a_phase():
    with pytest.raises(RuleError, match="without laying down a phase"):
        progress(2, Rules(), [out(0, (0, 20), {1: 1})])


def test_the_player_who_went_out_scores_zero():
    with pytest.raises(RuleError, match="score 0"):
        progress(2, Rules(), [out(0, (5, 20), {0: 1})])


@pytest.mark.parametrize("points", [(0, 7), (0, -5), (0, 2.5)])
def test_points_are_multiples_of_five_from_zero_up(points):
    with pytest.raises(RuleError, match="multiple of 5"):
        progress(2, Rules(), [out(0, points, {0: 1})])


def test_points_are_needed_for_every_seat():
    with pytest.raises(RuleError, match="each of the 3 players"):
        progress(3, Rules(), [out(0, (0, 5), {0: 1})])


def test_the_went_out_seat_must_exist():
    with pytest.raises(RuleError, match="one of the players"):
        progress(2, Rules(), [out(5, (0, 5), {0: 1})])


def test_a_completed_phase_must_be_the_seats_current_phase():
    first = out(0, (0, 5), {0: 1})
    with pytest.raises(RuleError, match="was on phase 1, not phase 2"):
        progress(2, Rules(), [first, out(0, (0, 5), {0: 2, 1: 2})])


def test_a_completed_seat_must_exist():
    with pytest.raises(RuleError, match="no player"):
        progress(2, Rules(), [out(0, (0, 5), {0: 1, 7: 1})])


def test_nobody_going_out_is_allowed_for_a_tied_up_deck():
    standing = progress(2, Rules(), [out(None, (5, 10), {1: 1}, went_out=False)])
    assert standing.scores == (5, 10)
    assert standing.phase == (1, 2)


@pytest.mark.parametrize("players", [1, 7])
def test_phase_10_is_played_by_two_to_six_players(players):
    with pytest.raises(RuleError, match="2 to 6 players"):
        progress(players, Rules(), [])


def test_the_dealer_must_be_a_seat():
    with pytest.raises(RuleError, match="dealer"):
        progress(2, Rules(), [], dealer=2)


def test_check_round_accepts_a_good_round_and_says_nothing():
    standing = start(2, Rules())
    result = out(1, (45, 0), {1: 1})
    assert check_round(2, Rules(), standing, result) is None
    assert advance(Rules(), standing, result).scores == (45, 0)


def test_check_round_refuses_a_standing_for_another_number_of_players():
    with pytest.raises(RuleError, match="has 3 players"):
        check_round(2, Rules(), start(3, Rules()), out(0, (0, 5), {0: 1}))


def test_a_shorter_list_of_phases_is_played_in_its_order():
    rules = Rules(phases=(2, 4, 6, 8, 10))
    standing = progress(2, rules, [out(0, (0, 5), {0: 2})])
    assert standing.phase == (4, 2)
    with pytest.raises(RuleError, match="not phase 3"):
        progress(2, rules, [out(0, (0, 5), {0: 2}), out(0, (0, 5), {0: 3})])


# --- everyone advances -------------------------------------------------------------


def test_in_all_advance_everyone_moves_to_the_next_phase_every_round():
    rules = Rules(all_advance=True, phases=(1, 2, 3))
    standing = progress(3, rules, [out(0, (0, 25, 40), {0: 1})])
    assert standing.phase == (2, 2, 2)
    assert standing.completed == (frozenset({1}), frozenset(), frozenset())


def test_in_all_advance_a_completed_phase_must_be_the_phase_of_the_round():
    rules = Rules(all_advance=True, phases=(1, 2, 3))
    with pytest.raises(RuleError, match="not phase 1"):
        progress(3, rules, [out(0, (0, 25, 40), {0: 1}), out(1, (5, 0, 5), {1: 1})])


def test_in_all_advance_the_game_ends_after_the_last_phases_round_with_the_lowest_total():
    rules = Rules(all_advance=True, phases=(1, 2))
    rounds = [out(0, (0, 25, 10), {0: 1}), out(2, (30, 5, 0), {2: 2})]
    standing = progress(3, rules, rounds)
    assert standing.game_over
    assert standing.scores == (30, 30, 10)
    assert standing.winner == 2
    assert standing.phase == (None, None, None)
    assert standing.attempted == ((1, 1, 1), (2, 2, 2))


def test_in_all_advance_a_tie_for_the_lowest_total_goes_to_a_tiebreaker():
    rules = Rules(all_advance=True, phases=(1,))
    standing = progress(3, rules, [out(0, (0, 0, 10), {0: 1, 1: 1})])
    assert standing.tiebreak_needed
    assert standing.tiebreak_seats == (0, 1)


def test_in_all_advance_the_game_is_not_over_before_the_last_phases_round():
    rules = Rules(all_advance=True, phases=(1, 2))
    standing = progress(2, rules, [out(0, (0, 25), {0: 1, 1: 1})])
    assert not standing.game_over


# --- pick a phase ------------------------------------------------------------------


def test_in_pick_a_phase_a_player_may_complete_any_phase_not_yet_completed():
    rules = Rules(pick_a_phase=True, phases=(1, 2, 3))
    standing = progress(2, rules, [out(0, (0, 10), {0: 3, 1: 1})])
    assert standing.completed == (frozenset({3}), frozenset({1}))
    assert standing.phase == (None, None)
    assert standing.attempted == ((3, 1),)


def test_in_pick_a_phase_each_phase_counts_once():
    rules = Rules(pick_a_phase=True, phases=(1, 2, 3))
    with pytest.raises(RuleError, match="already completed phase 3"):
        progress(2, rules, [out(0, (0, 10), {0: 3}), out(0, (0, 10), {0: 3})])


def test_in_pick_a_phase_only_phases_of_the_list_count():
    rules = Rules(pick_a_phase=True, phases=(1, 2, 3))
    with pytest.raises(RuleError, match="isn't played"):
        progress(2, rules, [out(0, (0, 10), {0: 7})])


def test_in_pick_a_phase_the_first_to_complete_them_all_wins():
    rules = Rules(pick_a_phase=True, phases=(1, 2))
    rounds = [out(0, (0, 10), {0: 2, 1: 1}), out(0, (0, 10), {0: 1})]
    standing = progress(2, rules, rounds)
    assert standing.game_over and standing.winner == 0


def test_in_pick_a_phase_players_finishing_together_are_separated_by_total_then_tiebreaker():
    rules = Rules(pick_a_phase=True, phases=(1, 2))
    first = out(0, (0, 10), {0: 2, 1: 1})
    assert progress(2, rules, [first, out(1, (15, 0), {0: 1, 1: 2})]).winner == 1
    standing = progress(2, rules, [first, out(1, (10, 0), {0: 1, 1: 2})])
    assert standing.tiebreak_needed and standing.tiebreak_seats == (0, 1)


def test_round_results_round_trip_through_dicts():
    result = out(2, (5, 10, 0), {2: 4, 0: 4})
    assert RoundResult.from_dict(result.to_dict()) == result
    assert result.completed == {0: 4, 2: 4}


def test_standings_round_trip_through_dicts():
    rules = Rules(phases=(1,))
    standing = progress(3, rules, [out(None, (5, 5, 20), {0: 1, 1: 1}, went_out=False)])
    assert Standing.from_dict(standing.to_dict()) == standing


def test_ranks_put_the_winner_first_then_more_phases_then_the_lower_total():
    from games.engine import standing_ranks

    results = [
        RoundResult(went_out=0, completed={0: 1, 1: 1}, points=(0, 40, 10)),
        RoundResult(went_out=1, completed={1: 2}, points=(30, 0, 10)),
    ]
    standing = progress(3, Rules(phases=(1, 2)), results)
    assert standing.winner == 1
    # seat 0 has more phases than seat 2 although its total is higher
    assert standing_ranks(Rules(phases=(1, 2)), standing) == [2, 1, 3]


def test_in_all_advance_only_the_total_ranks_the_others():
    from games.engine import standing_ranks

    rules = Rules(phases=(1, 2, 3), all_advance=True)
    results = [RoundResult(went_out=0, completed={0: 1}, points=(0, 20, 10))]
    assert standing_ranks(rules, progress(3, rules, results)) == [1, 3, 2]


# --- how many points a round can add ---------------------------------------------------


@pytest.mark.parametrize("points", [255, 300, 1_000_000_000, 10**20])
def test_a_round_adds_no_more_points_than_a_hand_can_hold(points):
    # A hand left at the end of a round has at most 10 cards: 250 points even if all Wild.
    with pytest.raises(RuleError, match="from 0 to 250") as refused:
        progress(2, Rules(), [out(0, (0, points), {0: 1})])
    assert refused.value.code == "points_value"
    assert refused.value.params == {"seat": 1, "points": points, "most": 250}


def test_the_most_points_a_hand_can_hold_are_accepted():
    assert progress(2, Rules(), [out(0, (0, 250), {0: 1})]).scores == (0, 250)
