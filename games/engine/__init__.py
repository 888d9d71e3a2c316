"""Phase 10 rules engine: pure Python, standard library only, never imports Django.

The rules are shared/RULES.md. The pieces, one concept per module:

- cards:       `Card` values ("R7", "W", "S"), `parse_cards`, `hand_points`, the deck.
- phases:      the ten goals as structured parts (`phase_goal_text(2)` ->
               `[("set", 3), ("run", 4)]`).
- melds:       laid groups (`Group`: set / run / colour) and hitting them.
- rules:       `Rules` (every option), `RuleError` (not allowed now: a sentence with a
               stable `code` and `params` for translation) and `ActionError` (malformed).
- solver:      `validate_phase`, `find_phase` (complete and fast), `phase_shortfall`.
- progression: rounds and the game around them without cards (`RoundResult`,
               `Standing`, `progress`, `check_round`): the score tracker and `apply` share it.
- state:       `GameState`, immutable; `to_dict()` / `GameState.from_dict()` is the JSON
               snapshot (it holds every hand and the deck order: server only).
- actions:     `Draw`, `LayDown`, `Hit`, `Discard`; `action_to_dict` / `action_from_dict`
               for the move log.
- game:        `new_game`, `apply`, `replay`, and `arrange_deck` to stack a deck for a
               test or a demo.
- legal:       what the current player may do now, agreeing with `apply`
               (`legal_actions`, `can_draw`, `can_take_discard`, `can_lay_down`,
               `lay_down_options`, `hit_options`, `discard_options`, `skip_targets`).
- view:        `player_view(state, seat)`: the JSON-ready dict a seat may see.
- bots:        `choose_action(view, rng)`; simulate: `python -m games.engine.simulate`.

A game is reproducible from its seed and its move log:

>>> state = new_game(["Ann", "Bob"], seed=1)
>>> state = apply(state, Draw())
>>> view = player_view(state, state.current_seat)
>>> len(view["hand"]), view["legal"]["draw"]
(11, False)
>>> replay(["Ann", "Bob"], [Draw()], seed=1) == state
True
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
from games.engine.game import apply, arrange_deck, new_game, replay
from games.engine.legal import (
    can_draw,
    can_lay_down,
    can_take_discard,
    discard_options,
    hit_options,
    lay_down_options,
    legal_actions,
    phases_to_lay,
    skip_targets,
)
from games.engine.melds import Group, make_group
from games.engine.phases import Part, describe_phase, phase_goal, phase_goal_text
from games.engine.progression import (
    RoundResult,
    Standing,
    check_round,
    progress,
    standing_ranks,
)
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
    "standing_ranks",
    "replay",
    "skip_targets",
    "validate_phase",
]
