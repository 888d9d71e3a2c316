"""The turn a time limit plays for an absent player.

It is deliberately plain, not a bot: draw from the draw pile when allowed (else take
the top discard), then discard the numbered card whose loss hurts the phase least.
It never makes a tactical choice the player didn't make, such as skipping someone.

>>> from games.engine.game import new_game
>>> state = new_game(2, seed=3)
>>> [type(action).__name__ for action in absent_turn(state)]
['Draw', 'Discard']
"""

from __future__ import annotations

from games.engine.actions import Action, Discard, Draw
from games.engine.game import apply
from games.engine.legal import can_draw, discard_options, phases_needed
from games.engine.rules import RuleError
from games.engine.solver import phase_shortfall
from games.engine.state import GameState


def auto_draw(state: GameState) -> Draw:
    """The draw played for an absent player: the draw pile if they may draw from it,
    else the top discard.

    >>> from games.engine.game import new_game
    >>> auto_draw(new_game(2, seed=3))
    Draw(from_discard=False)
    """
    return Draw() if can_draw(state) else Draw(from_discard=True)


def auto_discard(state: GameState) -> Discard:
    """The discard played for an absent player (who has drawn): the numbered card whose
    loss hurts their phase least (the solver's shortfall), the highest-scoring first; a
    Skip or a Wild only if nothing else is left. Once their phase is down, simply the
    highest-scoring numbered card.

    >>> from games.engine.game import apply, new_game
    >>> auto_discard(apply(new_game(2, seed=3), Draw())).card.is_wild
    False
    """
    if state.game_over:
        raise RuleError("The game is over.", code="game_over")
    if not state.drawn:
        raise RuleError("You must draw before you discard.", code="draw_first")
    options = discard_options(state)
    seat = state.current_seat
    hand = list(state.hands[seat])
    # Numbered cards only, if there are any: a Wild is worth keeping, and a Skip would
    # skip someone on the absent player's behalf, a tactical choice nobody made.
    keep_wilds = [option for option in options if option.card.is_natural] or options
    phases = phases_needed(state, seat)
    if state.laid_phase[seat] is not None or not phases:
        return max(keep_wilds, key=lambda option: (option.card.points, option.card.sort_key()))
    rules = state.rules
    cost: dict[str, int] = {}
    for option in keep_wilds:
        code = str(option.card)
        if code not in cost:
            rest = list(hand)
            rest.remove(option.card)
            cost[code] = min(phase_shortfall(rest, phase, rules) for phase in phases)
    return min(
        keep_wilds,
        key=lambda option: (
            cost[str(option.card)],
            -option.card.points,
            tuple(-n for n in option.card.sort_key()),
        ),
    )


def absent_turn(state: GameState) -> list[Action]:
    """The moves the time limit plays, in order: `auto_draw` (unless the player has
    already drawn), then `auto_discard` of the hand after that draw. Apply them one by
    one; empty once the game is over."""
    if state.game_over:
        return []
    actions: list[Action] = []
    if not state.drawn:
        draw = auto_draw(state)
        actions.append(draw)
        state = apply(state, draw)
    actions.append(auto_discard(state))
    return actions
