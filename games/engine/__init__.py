"""Phase 10 rules engine: pure Python, standard library only, never imports Django.

>>> state = new_game(["Ann", "Bob"], seed=1)
>>> state = apply(state, Draw())
>>> view = player_view(state, state.current_seat)
>>> len(view["hand"]), view["legal"]["draw"]
(11, False)
"""

from games.engine.actions import (
    Action,
    Discard,
    Draw,
    Hit,
    LayDown,
    action_from_dict,
    action_to_dict,
)
from games.engine.cards import Card, cards_text, full_deck, hand_points, parse_cards
from games.engine.game import (
    apply,
    arrange_deck,
    can_draw,
    can_lay_down,
    can_take_discard,
    discard_options,
    hit_options,
    lay_down_options,
    legal_actions,
    new_game,
    phases_to_lay,
    replay,
    skip_targets,
)
from games.engine.melds import Group, make_group
from games.engine.phases import Part, describe_phase, phase_goal, phase_goal_text
from games.engine.progression import RoundResult, Standing, check_round, progress
from games.engine.rules import ActionError, RuleError, Rules
from games.engine.solver import find_phase, phase_shortfall, validate_phase
from games.engine.state import GameState, RoundSummary, SeatRound
from games.engine.view import player_view

__all__ = [
    "Action",
    "ActionError",
    "Card",
    "Discard",
    "Draw",
    "GameState",
    "Group",
    "Hit",
    "LayDown",
    "Part",
    "RoundResult",
    "RoundSummary",
    "RuleError",
    "Rules",
    "SeatRound",
    "Standing",
    "action_from_dict",
    "action_to_dict",
    "apply",
    "arrange_deck",
    "can_draw",
    "can_lay_down",
    "can_take_discard",
    "cards_text",
    "check_round",
    "describe_phase",
    "discard_options",
    "find_phase",
    "full_deck",
    "hand_points",
    "hit_options",
    "lay_down_options",
    "legal_actions",
    "make_group",
    "new_game",
    "parse_cards",
    "phase_goal",
    "phase_goal_text",
    "phase_shortfall",
    "phases_to_lay",
    "player_view",
    "progress",
    "replay",
    "skip_targets",
    "validate_phase",
]
