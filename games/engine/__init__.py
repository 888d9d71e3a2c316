"""Phase 10 rules engine: pure Python, standard library only, never imports Django."""

from games.engine.progression import RoundResult, Standing, check_round, progress
from games.engine.rules import ActionError, RuleError, Rules

__all__ = [
    "ActionError",
    "RoundResult",
    "RuleError",
    "Rules",
    "Standing",
    "check_round",
    "progress",
]
