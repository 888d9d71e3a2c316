import pytest

from games.engine import Discard, Draw, LayDown, RuleError, Rules, apply, skip_targets

from .helpers import game

WITH_SKIP = "S Y3 Y4 Y6 B8 R10 G12 R3 B5 G7"
PLAIN = "R1 B2 G3 Y4 R5 B6 G7 Y8 R9 B10"
ANOTHER = "R2 B3 G4 Y5 R6 B7 G8 Y9 R11 B11"
FOURTH = "Y1 G2 B4 R4 Y6 G6 B9 G9 Y10 Y11"
CHOOSE = Rules(skip_target="choose")


def discard_skip(state, skip=None):
    return apply(apply(state, Draw()), Discard("S", skip=skip))


def test_a_discarded_skip_makes_the_next_player_lose_their_turn():
    state = game([PLAIN, WITH_SKIP, ANOTHER])
    after = discard_skip(state)
    assert after.current_seat == 0  # seat 2 was skipped
    assert after.skipped == ()


def test_a_skip_is_used_up_by_the_turn_it_skips():
    state = discard_skip(game([PLAIN, WITH_SKIP, ANOTHER]))
    state = apply(apply(state, Draw()), Discard("R1"))
    assert state.current_seat == 1
    state = apply(apply(state, Draw()), Discard("Y3"))
    assert state.current_seat == 2


def test_with_two_players_the_discarder_of_a_skip_plays_again():
    after = discard_skip(game([PLAIN, WITH_SKIP]))
    assert after.current_seat == 1
    assert not after.drawn


def test_a_skip_may_be_held_for_later():
    state = apply(apply(game([PLAIN, WITH_SKIP, ANOTHER]), Draw()), Discard("Y3"))
    assert state.current_seat == 2
    assert "S" in [str(card) for card in state.hands[1]]


def test_a_skip_can_never_be_taken_from_the_discard_pile():
    state = discard_skip(game([PLAIN, WITH_SKIP, ANOTHER]))
    with pytest.raises(RuleError, match="A Skip can never be taken from the discard pile."):
        apply(state, Draw(from_discard=True))


def test_a_skip_as_the_first_up_card_skips_the_first_player():
    state = game([PLAIN, WITH_SKIP, ANOTHER], up="S")
    assert state.current_seat == 2
    with pytest.raises(RuleError, match="Skip can never be taken"):
        apply(state, Draw(from_discard=True))


def test_a_wild_as_the_first_up_card_may_be_taken_as_usual():
    state = game([PLAIN, WITH_SKIP, ANOTHER], up="W")
    assert state.current_seat == 1
    assert str(apply(state, Draw(from_discard=True)).hands[1][-1]) == "W"


def test_with_two_players_a_skip_up_card_gives_the_dealer_the_first_turn():
    assert game([PLAIN, WITH_SKIP], up="S").current_seat == 0


def test_by_default_a_skip_always_skips_the_next_player():
    state = apply(game([PLAIN, WITH_SKIP, ANOTHER]), Draw())
    assert skip_targets(state) == (2,)
    with pytest.raises(RuleError, match="always skips the next player"):
        apply(state, Discard("S", skip=0))
    assert apply(state, Discard("S", skip=2)).current_seat == 0


def test_only_a_skip_card_skips_anyone():
    state = apply(game([PLAIN, WITH_SKIP, ANOTHER]), Draw())
    with pytest.raises(RuleError, match="Only a Skip card"):
        apply(state, Discard("Y3", skip=2))


def test_when_players_choose_the_discarder_names_who_is_skipped():
    four = game([PLAIN, WITH_SKIP, ANOTHER, FOURTH], rules=CHOOSE)
    after = discard_skip(four, skip=0)
    assert after.skipped == (0,)
    assert after.current_seat == 2
    after = apply(apply(after, Draw()), Discard("R2"))
    after = apply(apply(after, Draw()), Discard("Y1"))
    assert after.current_seat == 1  # seat 0 lost its turn


def test_when_players_choose_the_discarder_must_name_someone():
    state = apply(game([PLAIN, WITH_SKIP, ANOTHER], rules=CHOOSE), Draw())
    assert skip_targets(state) == (0, 2)
    with pytest.raises(RuleError, match="Say which player to skip."):
        apply(state, Discard("S"))


def test_a_discarder_cannot_skip_themselves():
    state = apply(game([PLAIN, WITH_SKIP, ANOTHER], rules=CHOOSE), Draw())
    with pytest.raises(RuleError, match="can't skip yourself"):
        apply(state, Discard("S", skip=1))


def test_a_player_already_due_to_be_skipped_cannot_be_named_again():
    skip_too = ANOTHER.replace("R2", "S")
    state = discard_skip(game([PLAIN, WITH_SKIP, skip_too, FOURTH], rules=CHOOSE), skip=0)
    state = apply(state, Draw())
    assert state.current_seat == 2
    assert skip_targets(state) == (1, 3)
    with pytest.raises(RuleError, match="already due to be skipped"):
        apply(state, Discard("S", skip=0))
    after = apply(state, Discard("S", skip=3))
    assert after.current_seat == 1


def test_with_two_players_and_choose_the_skip_names_the_other_player():
    state = discard_skip(game([PLAIN, WITH_SKIP], rules=CHOOSE), skip=0)
    assert state.current_seat == 1


def test_a_skip_discarded_to_go_out_skips_nobody():
    hand = "G1 G1 Y1 Y1 B1 G2 G2 Y2 Y2 R2"
    state = apply(game([PLAIN, hand, ANOTHER], draw="S"), Draw())
    state = apply(state, LayDown(["G1 G1 Y1 Y1 B1", "G2 G2 Y2 Y2 R2"]))
    after = apply(state, Discard("S"))
    assert after.last_round.went_out == 1
    assert after.round_number == 2
    assert after.skipped == ()
