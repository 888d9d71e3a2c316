"""A sensible computer player that sees only what a person in its seat would.

`choose_action(view, rng)` takes a `PlayerView` (`player_view(state, seat)`) and returns
the next action. It is deterministic for a given `random.Random` state.

The strategy: take the top discard when it brings the phase closer (or, once the
phase is down, when it can be hit); lay down as soon as the solver finds the phase;
hit whenever possible; discard Skips on the player closest to winning; otherwise
discard the card whose loss hurts the phase least, the highest-scoring first.

>>> import random
>>> from games.engine.game import new_game, apply
>>> from games.engine.view import player_view
>>> state = new_game(3, seed=5)
>>> action = choose_action(player_view(state, state.current_seat), random.Random(0))
>>> type(action).__name__
'Draw'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engine.actions import Action, Discard, Draw, Hit, LayDown
from games.engine.cards import Card
from games.engine.melds import Group
from games.engine.phases import TIEBREAK_PHASE
from games.engine.rules import ActionError, Rules
from games.engine.solver import phase_shortfall
from games.engine.view import PlayerView

# How rarely each phase is in a random 11-card hand (bench/engine.py measures it):
# in pick-a-phase the bot lays the rarest phase it can and chases the closest one.
RARITY = {7: 0, 10: 1, 6: 2, 8: 3, 9: 4, 3: 5, 5: 6, 4: 7, 1: 8, 2: 9}
MAX_CHASED_PHASES = 3


def choose_action(view: PlayerView, rng: random.Random) -> Action:
    """The bot's next action for the seat whose `player_view` this is."""
    if not view.your_turn:
        raise ActionError("It isn't this seat's turn.")
    legal = view.legal
    hand = list(view.hand)
    if not view.drawn:
        return _draw(view, hand)
    if legal.lay_down:
        return min(legal.lay_down, key=lambda action: RARITY.get(_phase_of(action, view), 99))
    if legal.hits:
        # Naturals before Wilds: a Wild on a run's end could shut out a natural card.
        return min(legal.hits, key=lambda hit: (_is_wild_hit(hit), -_points(hit), rng.random()))
    return _discard(view, hand, rng)


def _phase_of(action: LayDown, view: PlayerView) -> int:
    if action.phase is not None:
        return action.phase
    phase = view.phase[view.seat]
    return phase if phase is not None else TIEBREAK_PHASE


def _is_wild_hit(action: Hit) -> bool:
    return action.card.is_wild


def _points(action: Hit | Discard) -> int:
    return action.card.points


def _draw(view: PlayerView, hand: list[Card]) -> Action:
    legal = view.legal
    top = view.discard_top
    if legal.take_discard and top is not None and (not legal.draw or _wants(view, hand, top)):
        return Draw(from_discard=True)
    return Draw()


def _wants(view: PlayerView, hand: list[Card], card: Card) -> bool:
    if view.has_laid:
        return card.is_wild or any(group.hit_ends(card) for group in _table(view))
    phases = _chased_phases(view, hand)
    rules = view.rules
    return _shortfall([*hand, card], phases, rules) < _shortfall(hand, phases, rules)


def _discard(view: PlayerView, hand: list[Card], rng: random.Random) -> Action:
    discards = list(view.legal.discards)
    skips = [option for option in discards if option.card.is_skip]
    if skips and len(hand) > 1:
        return max(skips, key=lambda option: _threat(view, option.skip))
    keep_wilds = [option for option in discards if not option.card.is_wild] or discards
    if view.has_laid:
        table = _table(view)
        return max(
            keep_wilds,
            key=lambda option: (
                not any(group.hit_ends(option.card) for group in table),
                option.card.points,
                rng.random(),
            ),
        )
    rules = view.rules
    phases = _chased_phases(view, hand)
    cost: dict[Card, int] = {}
    for option in keep_wilds:
        if option.card not in cost:
            rest = list(hand)
            rest.remove(option.card)
            cost[option.card] = _shortfall(rest, phases, rules)
    return min(
        keep_wilds, key=lambda option: (cost[option.card], -option.card.points, rng.random())
    )


def _threat(view: PlayerView, seat: int | None) -> tuple[int, int, int]:
    """How close `seat` is to winning: phases done, then fewer points, then fewer cards."""
    if seat is None:
        return (-1, 0, 0)
    return (len(view.completed[seat]), -view.scores[seat], -view.hand_counts[seat])


def _table(view: PlayerView) -> list[Group]:
    return [group for groups in view.laid for group in groups]


def _chased_phases(view: PlayerView, hand: Sequence[Card]) -> tuple[int, ...]:
    """The phases worth collecting for: the current one, or in pick-a-phase the few
    still needed that this hand is closest to."""
    seat = view.seat
    phase = view.phase[seat]
    if phase is not None:
        return (phase,)
    rules = view.rules
    needed = [p for p in rules.phases if p not in view.completed[seat]]
    if not needed:
        return (TIEBREAK_PHASE,)
    ranked = sorted(needed, key=lambda p: (phase_shortfall(hand, p, rules), RARITY.get(p, 99)))
    return tuple(ranked[:MAX_CHASED_PHASES])


def _shortfall(hand: Sequence[Card], phases: Sequence[int], rules: Rules) -> int:
    return min(phase_shortfall(hand, phase, rules) for phase in phases)
