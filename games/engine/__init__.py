"""Phase 10 rules engine: pure Python, standard library only, never imports Django."""

from games.engine.cards import Card, full_deck, hand_points, parse_cards
from games.engine.melds import Group, make_group
from games.engine.phases import Part, describe_phase, phase_goal, phase_goal_text
from games.engine.progression import RoundResult, Standing, check_round, progress
from games.engine.rules import ActionError, RuleError, Rules
from games.engine.solver import find_phase, phase_shortfall, validate_phase

__all__ = [
    "ActionError",
    "Card",
    "Group",
    "Part",
    "RoundResult",
    "RuleError",
    "Rules",
    "Standing",
    "check_round",
    "describe_phase",
    "find_phase",
    "full_deck",
    "hand_points",
    "make_group",
    "parse_cards",
    "phase_goal",
    "phase_goal_text",
    "phase_shortfall",
    "progress",
    "validate_phase",
]
