"""A sensible computer player that sees only what a person in its seat would.

`choose_action(view, rng)` takes a `player_view` dict and returns the next action.
It is deterministic for a given `random.Random` state.

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
from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.actions import Action, Discard, Draw, Hit, LayDown, action_from_dict
from games.engine.cards import Card, parse_cards
from games.engine.melds import Group, group_from_dict
from games.engine.phases import TIEBREAK_PHASE
from games.engine.rules import ActionError, Rules
from games.engine.solver import phase_shortfall

# How rarely each phase is in a random 11-card hand (bench/engine.py measures it):
# in pick-a-phase the bot lays the rarest phase it can and chases the closest one.
RARITY = {7: 0, 10: 1, 6: 2, 8: 3, 9: 4, 3: 5, 5: 6, 4: 7, 1: 8, 2: 9}
MAX_CHASED_PHASES = 3


def choose_action(view: Mapping[str, Any], rng: random.Random) -> Action:
    """The bot's next action for the seat whose `player_view` this is."""
    if not view["your_turn"]:
        raise ActionError("It isn't this seat's turn.")
    legal = view["legal"]
    hand = parse_cards(view["hand"])
    if not view["drawn"]:
        return _draw(view, hand)
    if legal["lay_down"]:
        options = [action_from_dict(option) for option in legal["lay_down"]]
        return min(options, key=lambda action: RARITY.get(_phase_of(action, view), 99))
    if legal["hits"]:
        hits = [action_from_dict(option) for option in legal["hits"]]
        # Naturals before Wilds: a Wild on a run's end could shut out a natural card.
        return min(hits, key=lambda hit: (_is_wild_hit(hit), -_points(hit), rng.random()))
    return _discard(view, hand, rng)


def _phase_of(action: Action, view: Mapping[str, Any]) -> int:
    if isinstance(action, LayDown) and action.phase is not None:
        return action.phase
    phase = view["phase"][view["seat"]]
    return int(phase) if phase is not None else TIEBREAK_PHASE


def _is_wild_hit(action: Action) -> bool:
    return isinstance(action, Hit) and action.card.is_wild


def _points(action: Action) -> int:
    return action.card.points if isinstance(action, (Hit, Discard)) else 0


def _draw(view: Mapping[str, Any], hand: list[Card]) -> Action:
    legal = view["legal"]
    top = view["discard_top"]
    if legal["take_discard"] and top is not None:
        card = Card.parse(top)
        if not legal["draw"] or _wants(view, hand, card):
            return Draw(from_discard=True)
    return Draw()


def _wants(view: Mapping[str, Any], hand: list[Card], card: Card) -> bool:
    if _has_laid(view):
        return card.is_wild or any(group.hit_ends(card) for group in _table(view))
    phases = _chased_phases(view, hand)
    rules = Rules.from_dict(view["rules"])
    return _shortfall([*hand, card], phases, rules) < _shortfall(hand, phases, rules)


def _discard(view: Mapping[str, Any], hand: list[Card], rng: random.Random) -> Action:
    options = [action_from_dict(option) for option in view["legal"]["discards"]]
    discards = [option for option in options if isinstance(option, Discard)]
    skips = [option for option in discards if option.card.is_skip]
    if skips and len(hand) > 1:
        return max(skips, key=lambda option: _threat(view, option.skip))
    keep_wilds = [option for option in discards if not option.card.is_wild] or discards
    if _has_laid(view):
        table = _table(view)
        return max(
            keep_wilds,
            key=lambda option: (
                not any(group.hit_ends(option.card) for group in table),
                option.card.points,
                rng.random(),
            ),
        )
    rules = Rules.from_dict(view["rules"])
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


def _threat(view: Mapping[str, Any], seat: int | None) -> tuple[int, int, int]:
    """How close `seat` is to winning: phases done, then fewer points, then fewer cards."""
    if seat is None:
        return (-1, 0, 0)
    return (len(view["completed"][seat]), -view["scores"][seat], -view["hand_counts"][seat])


def _has_laid(view: Mapping[str, Any]) -> bool:
    return view["laid_phase"][view["seat"]] is not None


def _table(view: Mapping[str, Any]) -> list[Group]:
    return [group_from_dict(group) for groups in view["laid"] for group in groups]


def _chased_phases(view: Mapping[str, Any], hand: Sequence[Card]) -> tuple[int, ...]:
    """The phases worth collecting for: the current one, or in pick-a-phase the few
    still needed that this hand is closest to."""
    seat = view["seat"]
    phase = view["phase"][seat]
    if phase is not None:
        return (int(phase),)
    rules = Rules.from_dict(view["rules"])
    needed = [p for p in rules.phases if p not in view["completed"][seat]]
    if not needed:
        return (TIEBREAK_PHASE,)
    ranked = sorted(needed, key=lambda p: (phase_shortfall(hand, p, rules), RARITY.get(p, 99)))
    return tuple(ranked[:MAX_CHASED_PHASES])


def _shortfall(hand: Sequence[Card], phases: Sequence[int], rules: Rules) -> int:
    return min(phase_shortfall(hand, phase, rules) for phase in phases)
