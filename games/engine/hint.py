"""A hint for one seat: can its hand lay down its phase now, and if not, how far off is it?

The solver answers; the web layer only words it.

>>> from games.engine.game import new_game
>>> hint(new_game(2, seed=1), 0)
Hint(laid=False, options=(), shortfall=2)
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.actions import LayDown
from games.engine.legal import phases_needed
from games.engine.rules import ActionError
from games.engine.solver import find_phase, phase_shortfall
from games.engine.state import GameState

MAX_HINT_OPTIONS = 3
# Measured when a seat needs no phase (it has none left, or sits out a tie-breaker).
LAST_OF_TEN = 10


@dataclass(frozen=True)
class Hint:
    """laid:      the seat's phase is already down this round (nothing else is filled in).
    options:   else, up to 3 phases it could lay now from its hand, one arrangement each
               (the solver's), each `LayDown` naming its phase.
    shortfall: else, when there are no options: at least how many more cards the hand
               needs for the closest phase it still needs (`phase_shortfall`; phase 10's
               goal when it needs none). 0 when `laid` or `options`.
    """

    laid: bool
    options: tuple[LayDown, ...] = ()
    shortfall: int = 0


def hint(state: GameState, seat: int) -> Hint:
    """What `seat`'s hand can do about its phase, whoever's turn it is (before drawing,
    the hand as it is). The phases looked at are `phases_needed(state, seat)`.

    >>> from games.engine.game import arrange_deck, new_game
    >>> from games.engine.cards import cards_text, parse_cards
    >>> deck = arrange_deck([parse_cards("R1 B1 G1 R2 B2 G2 Y7 Y9 B11 S"), []])
    >>> [option] = hint(new_game(2, decks=[deck]), 0).options
    >>> option.phase, [cards_text(group) for group in option.groups]
    (1, ['R1 B1 G1', 'R2 B2 G2'])
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise ActionError(f"There is no seat {seat!r}.")
    if state.laid_phase[seat] is not None:
        return Hint(laid=True)
    hand = state.hands[seat]
    phases = phases_needed(state, seat)
    options: list[LayDown] = []
    for phase in phases:
        groups = find_phase(hand, phase, state.rules)
        if groups is not None:
            options.append(LayDown(groups, phase=phase))
    if options:
        return Hint(laid=False, options=tuple(options[:MAX_HINT_OPTIONS]))
    measured = phases or (LAST_OF_TEN,)
    shortfall = min(phase_shortfall(hand, phase, state.rules) for phase in measured)
    return Hint(laid=False, shortfall=shortfall)
