"""Checking a lay-down: the cards come from the hand, and the groups make one phase.

`apply` checks a `LayDown` in this order: the cards are in the player's hand (a count,
so made-up cards are refused before any phase is looked at), then which phase the
groups make. In pick-a-phase the same groups can make several phases the player still
needs (a run of 8 is phase 4 and phase 5; two sets of 4 are phase 1 and phase 7), and
which one is laid matters for the rest of the game, so the player must say.

>>> from games.engine.cards import parse_cards
>>> hand_without(parse_cards("R7 R7 W"), parse_cards("R7"))
(Card('R7'), Card('W'))
>>> hand_without(parse_cards("R7 W"), parse_cards("R7 R7"))
Traceback (most recent call last):
...
games.engine.rules.RuleError: You don't have all those cards in your hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.engine.actions import LayDown
from games.engine.arrangements import phases_made
from games.engine.cards import Card, remove_cards
from games.engine.melds import Group
from games.engine.phases import TIEBREAK_PHASE
from games.engine.rules import RuleError
from games.engine.solver import build_phase
from games.engine.state import GameState


def hand_without(hand: Sequence[Card], cards: Iterable[Card]) -> tuple[Card, ...]:
    """`hand` less one copy of each of `cards`; RuleError when they aren't all in it."""
    rest = remove_cards(hand, cards)
    if rest is None:
        raise RuleError("You don't have all those cards in your hand.", code="cards_not_in_hand")
    return rest


def phase_laid(state: GameState, seat: int, action: LayDown) -> tuple[int, tuple[Group, ...]]:
    """Which phase `seat`'s lay-down makes, and its groups; RuleError if it makes none,
    or (pick-a-phase, no phase named) if it makes more than one the seat still needs."""
    rules = state.rules
    if state.in_tiebreak_round:
        if action.phase not in (None, TIEBREAK_PHASE):
            raise RuleError(
                "The tie-breaker goal is phase 10's: a set of 5 and a set of 3.",
                code="wrong_phase",
            )
        return TIEBREAK_PHASE, build_phase(TIEBREAK_PHASE, action.groups, rules)
    if not rules.pick_a_phase:
        phase = state.standing.phase[seat]
        if phase is None:
            raise RuleError("You have no phase left to lay down.", code="no_phase")
        if action.phase is not None and action.phase != phase:
            raise RuleError(
                f"You are on phase {phase}.", code="wrong_phase", params={"current": phase}
            )
        return phase, build_phase(phase, action.groups, rules)
    still_needed = [p for p in rules.phases if p not in state.standing.completed[seat]]
    if action.phase is not None:
        if action.phase not in rules.phases:
            raise RuleError(f"Phase {action.phase} isn't played in this game.", code="wrong_phase")
        if action.phase not in still_needed:
            raise RuleError(f"You have already completed phase {action.phase}.", code="wrong_phase")
        return action.phase, build_phase(action.phase, action.groups, rules)
    made = phases_made(action.groups, still_needed, rules)
    if not made:
        raise RuleError("Those groups don't make any phase you still need.", code="no_phase_made")
    if len(made) > 1:
        # Never the first match: laying phase 4 when the player meant 5 changes the game.
        listed = ", ".join(str(phase) for phase in made)
        raise RuleError(
            f"Say which phase you are laying down: those groups make phases {listed}.",
            code="phase_needed",
            params={"phases": made},
        )
    return made[0], build_phase(made[0], action.groups, rules)
