import random
from dataclasses import replace

import pytest

from games.engine import (
    ActionError,
    Discard,
    Draw,
    Hit,
    LayDown,
    Rules,
    apply,
    new_game,
    player_view,
)
from games.engine.bots import choose_action
from games.engine.simulate import main, parse_rules, play_game, summarise

from .helpers import game, tied_game

VARIANTS = [
    (4, Rules()),
    (2, Rules()),
    (6, Rules(phases=(1, 2, 3, 4, 5))),
    (3, Rules(all_advance=True)),
    (3, Rules(pick_a_phase=True, phases=(2, 4, 6, 8, 10))),
    (4, Rules(natural_card="group", skip_target="choose")),
    (3, Rules(go_out_by_hitting=True, hit_others_same_turn=True, phases=(1, 3, 5, 7, 9))),
]


@pytest.mark.parametrize(("players", "rules"), VARIANTS)
def test_seeded_bot_games_reach_a_winner_in_every_variant(players, rules):
    report = play_game(players, rules, seed=11)
    assert not report.capped
    assert report.winner is not None
    assert report.rounds >= 1


def test_bots_play_a_tiebreaker_round_to_a_winner():
    state = tied_game()
    rngs = {seat: random.Random(seat) for seat in range(3)}
    for _ in range(5000):
        if state.game_over:
            break
        seat = state.current_seat
        assert seat in (1, 2)
        state = apply(state, choose_action(player_view(state, seat), rngs[seat]))
    assert state.game_over
    assert state.winner in (1, 2)


def test_a_bot_game_is_the_same_for_the_same_seed():
    first = play_game(3, Rules(phases=(1, 2, 3)), seed=5)
    again = play_game(3, Rules(phases=(1, 2, 3)), seed=5)
    assert (first.winner, first.scores, first.actions) == (
        again.winner,
        again.scores,
        again.actions,
    )


def test_a_capped_game_is_reported_not_looped_forever():
    report = play_game(4, Rules(), seed=1, max_actions=30)
    assert report.capped and report.actions == 30 and report.winner is None


JUNK = "Y3 Y4 Y6 B8 R10 G12 R3 B5 G7 Y9"


def test_a_bot_takes_the_discard_when_it_brings_its_phase_closer():
    state = game([JUNK, "R7 B7 R3 B3 Y11 G12 R9 B10 G1 Y2"], up="G7")
    assert choose_action(player_view(state, 1), random.Random(0)) == Draw(from_discard=True)
    useless = game([JUNK, "R7 B7 R3 B3 Y11 G12 R9 B10 G1 Y2"], up="Y8")
    assert choose_action(player_view(useless, 1), random.Random(0)) == Draw()


def test_a_bot_lays_down_as_soon_as_it_can():
    state = apply(game([JUNK, "R1 B1 G1 R2 B2 G2 Y7 Y8 Y1 R12"], draw="W"), Draw())
    assert isinstance(choose_action(player_view(state, 1), random.Random(0)), LayDown)


def test_a_bot_hits_whenever_it_can():
    state = apply(game([JUNK, "R1 B1 G1 R2 B2 G2 Y7 Y8 Y1 R12"], draw="W"), Draw())
    state = apply(state, LayDown(["R1 B1 G1", "R2 B2 G2"]))
    action = choose_action(player_view(state, 1), random.Random(0))
    assert action == Hit(1, 0, "Y1")


def test_a_bot_skips_the_player_closest_to_winning():
    hands = [JUNK, "S R1 B2 G3 Y4 R5 B6 G7 Y8 R9", "B1 G2 Y3 R4 B5 G6 Y7 R8 B9 G10"]
    state = apply(game(hands, rules=Rules(skip_target="choose")), Draw())
    leader = replace(state.standing, completed=(frozenset({1, 2}), frozenset(), frozenset()))
    state = replace(state, standing=leader)
    assert choose_action(player_view(state, 1), random.Random(0)) == Discard("S", skip=0)


def test_a_bot_discards_what_its_phase_needs_least():
    hand = "R7 B7 G7 R3 B3 Y11 G12 R9 B10 G1"
    state = apply(game([JUNK, hand], draw="Y2"), Draw())
    action = choose_action(player_view(state, 1), random.Random(0))
    assert isinstance(action, Discard)
    assert str(action.card) in {"Y11", "G12", "R9", "B10", "G1"}
    assert str(action.card) in {"Y11", "G12", "B10"}  # the 10-point cards go first


def test_a_bot_refuses_to_move_out_of_turn():
    state = new_game(2, seed=1)
    with pytest.raises(ActionError):
        choose_action(player_view(state, 0), random.Random(0))


def test_the_simulator_reads_rule_options():
    rules = parse_rules("all_advance,phases=1-5,natural_card=group,skip_target=choose")
    assert rules == Rules(
        all_advance=True, phases=(1, 2, 3, 4, 5), natural_card="group", skip_target="choose"
    )
    assert parse_rules("phases=even").phases == (2, 4, 6, 8, 10)
    assert parse_rules("phases=9+3").phases == (9, 3)
    with pytest.raises(ActionError):
        parse_rules("double_points")


def test_the_simulator_prints_rounds_scores_phases_and_time(capsys):
    assert main(["--players", "2", "--games", "2", "--seed", "3", "--rules", "phases=1-3"]) == 0
    out = capsys.readouterr().out
    for words in ("rounds per game", "winning score", "phase success", "time per game"):
        assert words in out
    assert "finished: 2" in summarise([play_game(2, Rules(phases=(1,)), seed=1)] * 2, 2)
