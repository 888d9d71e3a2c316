"""What the current player may do now. These helpers and `apply` agree: the property
tests apply every action offered here, and check that what isn't offered is refused.

>>> from games.engine.game import apply, new_game
>>> from games.engine.actions import Draw
>>> state = new_game(2, seed=1)
>>> can_draw(state), hit_options(state)
(True, [])
>>> [type(action).__name__ for action in legal_actions(apply(state, Draw()))][-1]
'Discard'
"""

from __future__ import annotations

from games.engine.actions import Action, Discard, Draw, Hit, LayDown
from games.engine.cards import Card
from games.engine.phases import TIEBREAK_PHASE
from games.engine.solver import find_phase
from games.engine.state import GameState


def can_draw(state: GameState) -> bool:
    """The current player may draw from the draw pile (reshuffling if it is empty)."""
    if state.game_over or state.drawn:
        return False
    return bool(state.draw_pile) or len(state.discard_pile) > 1


def can_take_discard(state: GameState) -> bool:
    """The current player may take the top discard (never a Skip)."""
    top = state.discard_top
    return not state.game_over and not state.drawn and top is not None and not top.is_skip


def phases_needed(state: GameState, seat: int) -> tuple[int, ...]:
    """The phases `seat` is after this round, whoever's turn it is: its current phase;
    in pick-a-phase every phase of the list it hasn't completed; in a tie-breaker round
    the tie-breaker goal. Empty for a seat not dealt into the round, or with no phase
    left. (Whether it has already laid down this round is not considered.)

    >>> from games.engine.game import new_game
    >>> from games.engine.rules import Rules
    >>> phases_needed(new_game(2, seed=1), 0)
    (1,)
    >>> phases_needed(new_game(2, Rules(pick_a_phase=True, phases=(2, 4)), seed=1), 0)
    (2, 4)
    """
    if seat not in state.playing:
        return ()
    if state.in_tiebreak_round:
        return (TIEBREAK_PHASE,)
    if state.rules.pick_a_phase:
        return state.rules.phases_left(state.standing.completed[seat])
    phase = state.standing.phase[seat]
    return () if phase is None else (phase,)


def phases_to_lay(state: GameState) -> tuple[int, ...]:
    """The phases the current player could lay down this turn if their hand allowed it
    (`phases_needed`, once they have drawn and while their phase isn't down)."""
    seat = state.current_seat
    if state.game_over or not state.drawn or state.laid_phase[seat] is not None:
        return ()
    return phases_needed(state, seat)


def lay_down_options(state: GameState) -> list[LayDown]:
    """One lay-down per phase the current player can make now (found by `find_phase`)."""
    hand = state.hands[state.current_seat]
    options: list[LayDown] = []
    for phase in phases_to_lay(state):
        groups = find_phase(hand, phase, state.rules)
        if groups is None:
            continue
        if len(hand) == sum(len(group) for group in groups) and not state.in_tiebreak_round:
            continue  # no card would be left to discard
        options.append(LayDown(groups, phase=phase if state.rules.pick_a_phase else None))
    return options


def can_lay_down(state: GameState) -> bool:
    """The current player can lay down a phase now."""
    return bool(lay_down_options(state))


def hit_options(state: GameState, card: Card | None = None) -> list[Hit]:
    """Every hit the current player may make now (only with `card`, if given)."""
    seat = state.current_seat
    rules = state.rules
    if state.game_over or not state.drawn or state.laid_phase[seat] is None:
        return []
    hand = state.hands[seat]
    if len(hand) < 2 and not rules.go_out_by_hitting:
        return []
    cards = sorted(set(hand), key=Card.sort_key) if card is None else [card]
    options: list[Hit] = []
    for candidate in cards:
        if candidate not in hand:
            continue
        for target in range(state.seats):
            if target != seat and state.laid_this_turn and not rules.hit_others_same_turn:
                continue
            for index, group in enumerate(state.laid[target]):
                options.extend(
                    Hit(target, index, candidate, end) for end in group.hit_ends(candidate)
                )
    return options


def skip_targets(state: GameState) -> tuple[int, ...]:
    """The seats a Skip discarded now could skip: the next player, or in "choose"
    mode anyone else in the round not already due to be skipped."""
    seat = state.current_seat
    if state.rules.skip_target == "next":
        following = state.next_seat(seat)
        return (following,)
    return tuple(other for other in state.playing if other != seat and other not in state.skipped)


def discard_options(state: GameState) -> list[Discard]:
    """Every discard the current player may make now."""
    if state.game_over or not state.drawn:
        return []
    hand = state.hands[state.current_seat]
    options: list[Discard] = []
    choose = state.rules.skip_target == "choose"
    for card in sorted(set(hand), key=Card.sort_key):
        if card.is_skip and choose and len(hand) > 1 and skip_targets(state):
            options.extend(Discard(card, skip=target) for target in skip_targets(state))
        else:
            options.append(Discard(card))
    return options


def legal_actions(state: GameState) -> list[Action]:
    """Every move the current player may make now; lay-downs are the solver's choice,
    one per phase (any other valid grouping is accepted by `apply` too)."""
    if state.game_over:
        return []
    if not state.drawn:
        draws: list[Action] = []
        if can_draw(state):
            draws.append(Draw())
        if can_take_discard(state):
            draws.append(Draw(from_discard=True))
        return draws
    actions: list[Action] = []
    actions.extend(lay_down_options(state))
    actions.extend(hit_options(state))
    actions.extend(discard_options(state))
    return actions
