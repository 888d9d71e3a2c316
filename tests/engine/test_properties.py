"""Invariants over random legal play, and the solver against a brute-force search."""

import json
import random
from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    Discard,
    Draw,
    GameState,
    Hit,
    LayDown,
    RuleError,
    Rules,
    apply,
    can_draw,
    can_take_discard,
    discard_options,
    find_phase,
    full_deck,
    hit_options,
    legal_actions,
    new_game,
    player_view,
    validate_phase,
)
from games.engine.bots import choose_action
from games.engine.cards import remove_cards

from .brute import brute_force_exists
from .helpers import tied_game

FULL_DECK = Counter(full_deck())
PLAY = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)


@st.composite
def rule_sets(draw):
    mode = draw(st.sampled_from(["normal", "all_advance", "pick_a_phase"]))
    phases = draw(
        st.sampled_from(
            [tuple(range(1, 11)), (1, 2, 3, 4, 5), (2, 4, 6, 8, 10), (1, 3, 5, 7, 9), (7,)]
        )
    )
    return Rules(
        phases=phases,
        all_advance=mode == "all_advance",
        pick_a_phase=mode == "pick_a_phase",
        natural_card=draw(st.sampled_from(["phase", "group"])),
        hit_others_same_turn=draw(st.booleans()),
        go_out_by_hitting=draw(st.booleans()),
        skip_target=draw(st.sampled_from(["next", "choose"])),
    )


def played_states(players, rules, seed, steps):
    """States met along a game where bots and random legal moves take turns."""
    state = new_game(players, rules, seed=seed)
    rng = random.Random(seed)
    yield state
    for _ in range(steps):
        if state.game_over:
            return
        if rng.random() < 0.6:
            action = choose_action(player_view(state, state.current_seat), rng)
        else:
            action = rng.choice(legal_actions(state))
        state = apply(state, action)
        yield state


def every_card(state):
    cards = Counter(state.draw_pile) + Counter(state.discard_pile)
    for hand in state.hands:
        cards.update(hand)
    for groups in state.laid:
        for group in groups:
            cards.update(group)
    return cards


games = st.tuples(st.integers(2, 6), rule_sets(), st.integers(0, 10**9))


@PLAY
@given(games)
def test_all_108_cards_are_always_somewhere(game):
    players, rules, seed = game
    for state in played_states(players, rules, seed, 150):
        assert every_card(state) == FULL_DECK


@PLAY
@given(games)
def test_apply_never_changes_the_state_it_is_given(game):
    players, rules, seed = game
    for state in played_states(players, rules, seed, 120):
        before = state.to_dict()
        for action in legal_actions(state):
            apply(state, action)
        assert state.to_dict() == before


@PLAY
@given(games)
def test_every_action_the_helpers_offer_is_accepted(game):
    players, rules, seed = game
    for state in played_states(players, rules, seed, 120):
        for action in legal_actions(state):
            apply(state, action)  # raises if the helpers and apply disagree


def accepted(state, action):
    try:
        apply(state, action)
    except RuleError:
        return False
    return True


@PLAY
@given(games)
def test_the_helpers_and_apply_agree_on_draws_hits_and_discards(game):
    players, rules, seed = game
    for state in played_states(players, rules, seed, 120):
        if state.game_over:
            continue
        assert can_draw(state) == accepted(state, Draw())
        assert can_take_discard(state) == accepted(state, Draw(from_discard=True))
        hand = set(state.hands[state.current_seat])
        offered_hits = set(hit_options(state))
        offered_discards = {d.card for d in discard_options(state)}
        for card in hand:
            assert (card in offered_discards) == accepted(
                state, next((d for d in discard_options(state) if d.card == card), Discard(card))
            )
            for seat, groups in enumerate(state.laid):
                for index, group in enumerate(groups):
                    ends = ("low", "high") if group.kind == "run" else (None,)
                    for end in ends:
                        hit = Hit(seat, index, card, end)
                        assert (hit in offered_hits) == accepted(state, hit), hit


@PLAY
@given(games)
def test_a_state_round_trips_through_json(game):
    players, rules, seed = game
    for state in played_states(players, rules, seed, 120):
        assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def reshuffle_hidden_cards(state, seat, rng):
    """The same game for `seat`: other hands and the draw pile hold other cards."""
    hidden = [card for other, hand in enumerate(state.hands) if other != seat for card in hand]
    hidden += list(state.draw_pile)
    rng.shuffle(hidden)
    hands = []
    for other, hand in enumerate(state.hands):
        if other == seat:
            hands.append(hand)
        else:
            hands.append(tuple(hidden[: len(hand)]))
            hidden = hidden[len(hand) :]
    return replace(state, hands=tuple(hands), draw_pile=tuple(hidden), seed=state.seed + 1)


@PLAY
@given(games)
def test_a_view_does_not_change_when_only_hidden_cards_differ(game):
    players, rules, seed = game
    rng = random.Random(seed)
    for state in played_states(players, rules, seed, 80):
        seat = rng.randrange(players)
        other = reshuffle_hidden_cards(state, seat, rng)
        assert player_view(other, seat) == player_view(state, seat)


# --- the solver ----------------------------------------------------------------------

DECK = full_deck()
SMALL_DECK = [card for card in DECK if not card.is_natural or card.number <= 5]


def hands_from(deck, min_size, max_size):
    return st.lists(
        st.integers(0, len(deck) - 1), unique=True, min_size=min_size, max_size=max_size
    ).map(lambda indices: [deck[i] for i in indices])


any_hand = st.one_of(hands_from(DECK, 0, 11), hands_from(SMALL_DECK, 0, 11))
phases = st.integers(1, 10)
natural_rules = st.sampled_from([Rules(), Rules(natural_card="group")])


@settings(max_examples=400, deadline=None, derandomize=True)
@given(any_hand, phases, natural_rules)
def test_find_phase_always_returns_a_valid_lay_down_from_the_hand(hand, phase, rules):
    found = find_phase(hand, phase, rules)
    if found is not None:
        validate_phase(phase, found, rules)
        assert remove_cards(hand, [card for group in found for card in group]) is not None


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.one_of(hands_from(DECK, 0, 8), hands_from(SMALL_DECK, 0, 8)), phases, natural_rules)
def test_find_phase_finds_a_lay_down_whenever_one_exists(hand, phase, rules):
    exists = brute_force_exists(hand, phase, rules.natural_card)
    assert (find_phase(hand, phase, rules) is not None) == exists


@settings(max_examples=100, deadline=None, derandomize=True)
@given(any_hand, phases)
def test_a_lay_down_found_in_a_hand_is_accepted_by_apply(hand, phase):
    rules = Rules(phases=(phase,))
    found = find_phase(hand, phase, rules)
    if found is None or len(hand) - sum(map(len, found)) < 1:
        return
    state = new_game(2, rules, seed=1)
    state = apply(state, Draw())
    state = replace(state, hands=(state.hands[0], tuple(hand)))
    after = apply(state, LayDown(found))
    assert after.laid_phase[1] == phase


@settings(max_examples=10, deadline=None, derandomize=True)
@given(st.integers(0, 10**9))
def test_a_tiebreaker_round_keeps_every_card_and_round_trips(seed):
    rng = random.Random(seed)
    state = tied_game()
    for _ in range(150):
        assert every_card(state) == FULL_DECK
        assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
        if state.game_over:
            break
        assert state.current_seat in state.playing
        for action in legal_actions(state):
            apply(state, action)
        state = apply(state, rng.choice(legal_actions(state)))
