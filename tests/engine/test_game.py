import json
from dataclasses import fields, replace

import pytest

from games.engine import (
    ActionError,
    Card,
    Discard,
    Draw,
    GameState,
    Hit,
    LayDown,
    RuleError,
    Rules,
    action_from_dict,
    action_to_dict,
    apply,
    full_deck,
    new_game,
    parse_cards,
    replay,
)
from games.engine.state import StateChanges, evolve

from .helpers import cards, deck, game, hand_text

# Seat 1 (left of dealer 0) can lay phase 1 at once: sets of 1s and 2s.
PHASE_ONE = "R1 B1 G1 R2 B2 G2 R5 B9 G11 Y12"
JUNK = "Y3 Y4 Y6 B8 R10 G12 R3 B5 G7 Y9"


def test_dealing_is_one_card_at_a_time_starting_left_of_the_dealer():
    order = full_deck()
    state = new_game(3, decks=[order], dealer=1)
    assert list(state.hands[2]) == order[0:30:3]
    assert list(state.hands[0]) == order[1:30:3]
    assert list(state.hands[1]) == order[2:30:3]
    assert state.discard_pile == (order[30],)
    assert list(state.draw_pile) == order[31:]


def test_a_new_game_deals_ten_cards_each_an_up_card_and_the_draw_pile():
    state = new_game(4, seed=1)
    assert [len(hand) for hand in state.hands] == [10, 10, 10, 10]
    assert state.discard_top is not None
    assert state.draw_pile_size == 108 - 40 - 1
    assert state.round_number == 1
    assert state.phase == (1, 1, 1, 1)
    assert state.scores == (0, 0, 0, 0)
    assert state.winner is None and not state.tiebreak


def test_play_starts_left_of_the_dealer():
    assert new_game(4, seed=1).current_seat == 1
    assert new_game(4, seed=1, dealer=3).current_seat == 0


def test_players_may_be_a_count_or_a_list_of_names():
    assert new_game(["Ann", "Bob", "Cy"], seed=1).players == ("Ann", "Bob", "Cy")
    assert new_game(2, seed=1).players == ("Player 1", "Player 2")


@pytest.mark.parametrize("players", [1, 7])
def test_a_game_has_two_to_six_players(players):
    with pytest.raises(RuleError, match="2 to 6"):
        new_game(players, seed=1)


def test_a_stacked_deck_must_be_a_whole_deck():
    with pytest.raises(ActionError, match="108"):
        new_game(2, decks=[full_deck()[:-1]])


def test_the_same_seed_deals_the_same_game_and_another_seed_another():
    assert new_game(3, seed=42) == new_game(3, seed=42)
    assert new_game(3, seed=42).hands != new_game(3, seed=43).hands


def test_a_game_without_a_seed_gets_one_and_keeps_it():
    state = new_game(2)
    assert new_game(2, seed=state.seed) == state


def test_stacked_decks_are_used_round_after_round_then_the_seed_shuffles():
    first = deck([PHASE_ONE, JUNK], draw="W")
    second = deck([JUNK, PHASE_ONE], dealer=1)
    state = game([PHASE_ONE, JUNK], draw="W", more_decks=[second])
    assert hand_text(state, 0) == " ".join(sorted(PHASE_ONE.split()))
    assert state.decks == (tuple(second),)
    assert first[:20] == [
        card for pair in zip(state.hands[1], state.hands[0], strict=True) for card in pair
    ]


# --- a turn -------------------------------------------------------------------------


def test_a_turn_draws_from_the_draw_pile():
    state = game([JUNK, PHASE_ONE], draw="W")
    after = apply(state, Draw())
    assert Card.wild() in after.hands[1]
    assert after.draw_pile_size == state.draw_pile_size - 1
    assert after.drawn


def test_a_turn_may_take_the_top_discard_instead():
    state = game([JUNK, PHASE_ONE], up="R4")
    after = apply(state, Draw(from_discard=True))
    assert after.hands[1][-1] == Card.of("R", 4)
    assert after.discard_top is None


def test_you_must_draw_before_you_discard():
    state = game([JUNK, PHASE_ONE])
    with pytest.raises(RuleError, match="You must draw before you discard."):
        apply(state, Discard("R5"))


def test_you_must_draw_before_you_lay_down():
    state = game([JUNK, PHASE_ONE])
    with pytest.raises(RuleError, match="draw before you lay down"):
        apply(state, LayDown(["R1 B1 G1", "R2 B2 G2"]))


def test_you_draw_only_once_a_turn():
    state = apply(game([JUNK, PHASE_ONE]), Draw())
    with pytest.raises(RuleError, match="already drawn"):
        apply(state, Draw(from_discard=True))


def test_a_discard_ends_the_turn_and_passes_it_to_the_left():
    state = apply(game([JUNK, PHASE_ONE], draw="W"), Draw())
    after = apply(state, Discard("R5"))
    assert after.current_seat == 0
    assert after.discard_top == Card.of("R", 5)
    assert not after.drawn
    assert len(after.hands[1]) == 10


def test_you_can_only_discard_a_card_you_hold():
    state = apply(game([JUNK, PHASE_ONE], draw="W"), Draw())
    with pytest.raises(RuleError, match="don't have Y7"):
        apply(state, Discard("Y7"))


def test_laying_down_the_whole_phase_puts_its_groups_on_the_table():
    state = apply(game([JUNK, PHASE_ONE], draw="W"), Draw())
    after = apply(state, LayDown(["R1 B1 G1", "R2 B2 G2"]))
    assert [str(group) for group in after.laid[1]] == ["R1 B1 G1", "R2 B2 G2"]
    assert after.laid_phase[1] == 1
    assert after.laid_this_turn
    assert len(after.hands[1]) == 5


def test_a_lay_down_that_is_not_the_phase_is_refused_with_the_reason():
    state = apply(game([JUNK, PHASE_ONE], draw="W"), Draw())
    with pytest.raises(RuleError, match="same number"):
        apply(state, LayDown(["R1 B1 G2", "R2 B2 G1"]))


def test_a_lay_down_needs_the_cards_in_hand():
    state = apply(game([JUNK, PHASE_ONE], draw="W"), Draw())
    with pytest.raises(RuleError, match="don't have all those cards"):
        apply(state, LayDown(["R1 B1 G1", "R2 B2 Y2"]))


def test_a_phase_is_laid_down_once_per_round():
    state = apply(game([JUNK, PHASE_ONE], draw="W"), Draw())
    state = apply(state, LayDown(["R1 B1 G1", "R2 B2 G2"]))
    with pytest.raises(RuleError, match="already laid down"):
        apply(state, LayDown(["R1 B1 G1", "R2 B2 G2"]))


def test_a_lay_down_must_leave_a_card_to_discard():
    hand = "R1 B1 G1 Y1 R1 R2 B2 G2 Y2 R2"
    state = apply(game([JUNK, hand], draw="B1"), Draw())
    with pytest.raises(RuleError, match="keep a card to discard"):
        apply(state, LayDown(["R1 B1 G1 Y1 R1 B1", "R2 B2 G2 Y2 R2"]))


def test_the_player_names_their_own_phase_only():
    state = apply(game([JUNK, PHASE_ONE], draw="W"), Draw())
    with pytest.raises(RuleError, match="You are on phase 1"):
        apply(state, LayDown(["R1 B1 G1", "R2 B2 G2"], phase=2))


def out_in_one_turn():
    """Seat 1 lays 10 cards of phase 1, discards the drawn W and goes out."""
    hand = "R1 B1 G1 Y1 R1 R2 B2 G2 Y2 R2"
    return game([JUNK, hand], draw="W")


def test_discarding_the_last_card_ends_the_round_and_scores_it():
    state = apply(out_in_one_turn(), Draw())
    state = apply(state, LayDown(["R1 B1 G1 Y1 R1", "R2 B2 G2 Y2 R2"]))
    after = apply(state, Discard("W"))
    junk_points = sum(card.points for card in cards(JUNK))
    assert after.scores == (junk_points, 0)
    assert after.round_number == 2
    assert after.phase == (1, 2)
    assert after.completed == (frozenset(), frozenset({1}))
    summary = after.last_round
    assert summary.went_out == 1
    assert summary.points == (junk_points, 0)
    assert summary.seats[1].went_out and summary.seats[1].completed
    assert not summary.seats[0].completed and summary.seats[0].phase == 1


def test_the_next_round_is_dealt_by_the_next_seat():
    state = apply(out_in_one_turn(), Draw())
    state = apply(state, LayDown(["R1 B1 G1 Y1 R1", "R2 B2 G2 Y2 R2"]))
    after = apply(state, Discard("W"))
    assert after.dealer == 1
    assert after.current_seat == 0
    assert [len(hand) for hand in after.hands] == [10, 10]
    assert all(not groups for groups in after.laid)
    assert sum(1 for _ in after.draw_pile) == 108 - 21


def test_a_player_who_laid_their_phase_advances_even_without_going_out():
    # Seat 1 lays phase 1 and discards; seat 0 then goes out with phase 1 too.
    seat0 = "R7 B7 G7 Y7 R7 R8 B8 G8 Y8 R8"
    state = game([seat0, PHASE_ONE], draw="W W")
    state = apply(state, Draw())
    state = apply(state, LayDown(["R1 B1 G1", "R2 B2 G2"]))
    state = apply(state, Discard("R5"))
    state = apply(state, Draw())
    state = apply(state, LayDown(["R7 B7 G7 Y7 R7", "R8 B8 G8 Y8 R8"]))
    state = apply(state, Discard("W"))
    assert state.phase == (2, 2)
    assert state.scores[0] == 0
    assert state.scores[1] == sum(card.points for card in cards("B9 G11 Y12 W"))


def test_the_draw_pile_is_rebuilt_from_the_discards_under_the_top_one():
    state = game([JUNK, PHASE_ONE])
    pile = tuple(parse_cards("R4 R6 B4 B6"))
    state = replace(state, draw_pile=(), discard_pile=pile)
    after = apply(state, Draw())
    assert after.discard_pile == pile[-1:]
    assert after.draw_pile_size == 2
    assert sorted(map(str, (*after.draw_pile, after.hands[1][-1]))) == ["B4", "R4", "R6"]
    assert after.reshuffles == 1


def test_the_reshuffle_comes_from_the_seed():
    state = replace(game([JUNK, PHASE_ONE]), draw_pile=(), discard_pile=tuple(full_deck()[:20]))
    assert apply(state, Draw()) == apply(state, Draw())


def test_when_the_draw_pile_is_used_up_the_next_player_can_still_take_the_discard():
    state = apply(game([JUNK, PHASE_ONE]), Draw())
    state = replace(state, draw_pile=(), discard_pile=())
    after = apply(state, Discard("R5"))
    assert after.current_seat == 0 and after.round_number == 1
    with pytest.raises(RuleError, match="take the top discard"):
        apply(after, Draw())
    assert apply(after, Draw(from_discard=True)).hands[0][-1] == Card.of("R", 5)


def test_when_nothing_at_all_is_left_to_draw_the_round_ends_with_nobody_out():
    # Every other card is held or laid and the only discard is a Skip, which can't be
    # taken: the printed rules have no answer, so the round ends and everyone scores their hand.
    state = apply(game([JUNK, PHASE_ONE], draw="S"), Draw())
    state = replace(state, draw_pile=(), discard_pile=())
    after = apply(state, Discard("S"))
    assert after.round_number == 2
    assert after.last_round.went_out is None
    assert after.last_round.points == (
        sum(card.points for card in cards(JUNK)),
        sum(card.points for card in cards(PHASE_ONE)),
    )


def test_no_move_is_accepted_after_the_game_is_over():
    state = apply(
        game([JUNK, "R1 B1 G1 Y1 R1 R2 B2 G2 Y2 R2"], draw="W", rules=Rules(phases=(1,))), Draw()
    )
    state = apply(state, LayDown(["R1 B1 G1 Y1 R1", "R2 B2 G2 Y2 R2"]))
    over = apply(state, Discard("W"))
    assert over.game_over and over.winner == 1
    with pytest.raises(RuleError, match="The game is over."):
        apply(over, Draw())


def test_an_unknown_action_is_an_action_error():
    with pytest.raises(ActionError):
        apply(new_game(2, seed=1), "draw")


# --- snapshots and the move log ------------------------------------------------------


def test_a_state_round_trips_through_json():
    state = apply(game([JUNK, PHASE_ONE], draw="W"), Draw())
    state = apply(state, LayDown(["R1 B1 G1", "R2 B2 G2"]))
    snapshot = json.loads(json.dumps(state.to_dict()))
    assert GameState.from_dict(snapshot) == state


def test_a_snapshot_of_another_version_is_refused():
    data = new_game(2, seed=1).to_dict()
    data["version"] = 99
    with pytest.raises(ActionError, match="version"):
        GameState.from_dict(data)


@pytest.mark.parametrize(
    "action",
    [
        Draw(),
        Draw(from_discard=True),
        LayDown(["R1 B1 W", "G2 G2 G2"]),
        LayDown(["R1 R2 R3 R4"], phase=4),
        Hit(1, 0, "W", end="low"),
        Hit(0, 1, "R7"),
        Discard("S", skip=2),
        Discard("Y12"),
    ],
)
def test_actions_round_trip_through_json(action):
    assert action_from_dict(json.loads(json.dumps(action_to_dict(action)))) == action


@pytest.mark.parametrize(
    "data",
    [
        {"type": "fly"},
        {"type": "hit", "seat": 0},
        {"type": "hit", "seat": 0, "group": 0, "card": "W", "end": "middle"},
        {"type": "discard", "card": "Q1"},
        {"type": "draw", "from_discard": "yes"},
        "draw",
    ],
)
def test_malformed_actions_are_action_errors(data):
    with pytest.raises(ActionError):
        action_from_dict(data)


def test_a_game_is_its_seed_and_its_move_log():
    state = new_game(3, seed=9)
    log = []
    for _ in range(12):
        action = Draw() if not state.drawn else Discard(state.hands[state.current_seat][0])
        log.append(action_to_dict(action))
        state = apply(state, action)
    replayed = replay(3, [action_from_dict(entry) for entry in log], seed=9)
    assert replayed.to_dict() == state.to_dict()


def test_evolve_lists_every_field_of_the_state_and_matches_replace():
    state = new_game(3, seed=4)
    assert set(StateChanges.__annotations__) == {field.name for field in fields(GameState)}
    after = evolve(state, drawn=True, current_seat=2)
    assert after == replace(state, drawn=True, current_seat=2)
    assert not state.drawn
