"""Phase 10 rules engine: pure Python, standard library only, never imports Django.

The rules are docs/rules.md. The pieces, one concept per module:

- cards:        `Card` values ("R7", "W", "S"), `parse_cards`, `hand_points`, the deck.
- phases:       the ten goals as structured parts (`phase_goal_text(2)` ->
                `[("set", 3), ("run", 4)]`); `TIEBREAK_PHASE`, the tie-breaker's goal.
- melds:        laid groups (`Group`: set / run / colour) and hitting them.
- rules:        `Rules` (every option), `RuleError` (not allowed now: a sentence with a
                stable `code` and `params` for translation) and `ActionError` (malformed).
- solver:       `validate_phase`, `find_phase` (complete and fast), `phase_shortfall`.
- arrangements: `lay_down_choices`: the ways selected cards can be laid as a phase;
                `phases_made`: the phases some groups make.
- laying:       checking a `LayDown`: `hand_without` (the cards are in the hand, checked
                first), then the phase laid (pick-a-phase: named when the groups make several).
- hint:         `hint(state, seat)` -> `Hint`: can the hand lay its phase, how far off is it.
- progression:  rounds and the game around them without cards (`RoundResult`,
                `Standing`, `progress`, `check_round`): game nights and `apply` share it.
- state:        `GameState`, immutable; `to_dict()` / `GameState.from_dict()` is the JSON
                snapshot (it holds every hand and the deck order: server only).
- actions:      `Draw`, `LayDown`, `Hit`, `Discard`; `action_to_dict` / `action_from_dict`
                for the move log.
- game:         `new_game`, `apply`, `replay`, and `arrange_deck` to stack a deck for a
                test or a demo.
- events:       `play(state, action)` -> `Outcome(state, events)`: `apply` that also says
                what happened (`Drew`, `Took`, `Laid`, `HitCard`, `Discarded`, `Skipped`,
                `WentOut`, `RoundOver`, `TiebreakStarted`, `GameOver`; `event_from_dict`).
- legal:        what the current player may do now, agreeing with `apply`
                (`legal_actions`, `can_draw`, `can_take_discard`, `can_lay_down`,
                `lay_down_options`, `hit_options`, `discard_options`, `skip_targets`,
                `phases_to_lay`), and `phases_needed(state, seat)`.
- view:         `player_view(state, seat)` -> `PlayerView`, typed and frozen: what a seat
                may see (`to_dict()` is its JSON form); `LegalView` its legal moves;
                `spectator_view(state)`: what someone watching may see (no hand).
- bots:         `choose_action(view, rng)`; simulate: `python -m games.engine.simulate`.
- absent:       the turn a time limit plays for an absent player (`absent_turn`,
                `auto_draw`, `auto_discard`).

A game is reproducible from its seed and its move log:

>>> state = new_game(["Ann", "Bob"], seed=1)
>>> outcome = play(state, Draw())
>>> outcome.events
(Drew(seat=1),)
>>> view = player_view(outcome.state, outcome.state.current_seat)
>>> len(view.hand), view.legal.draw
(11, False)
>>> replay(["Ann", "Bob"], [Draw()], seed=1) == outcome.state == apply(state, Draw())
True
"""

from games.engine.absent import absent_turn, auto_discard, auto_draw
from games.engine.actions import (
    Action,
    Discard,
    Draw,
    Hit,
    LayDown,
    action_from_dict,
    action_to_dict,
)
from games.engine.arrangements import lay_down_choices, phases_made
from games.engine.cards import Card, cards_text, full_deck, hand_points, parse_cards
from games.engine.events import (
    Discarded,
    Drew,
    Event,
    GameOver,
    HitCard,
    Laid,
    Outcome,
    RoundOver,
    Skipped,
    TiebreakStarted,
    Took,
    WentOut,
    event_from_dict,
    play,
)
from games.engine.game import apply, arrange_deck, new_game, replay
from games.engine.hint import Hint, hint
from games.engine.laying import hand_without
from games.engine.legal import (
    can_draw,
    can_lay_down,
    can_take_discard,
    discard_options,
    hit_options,
    lay_down_options,
    legal_actions,
    phases_needed,
    phases_to_lay,
    skip_targets,
)
from games.engine.melds import Group, make_group
from games.engine.phases import (
    TIEBREAK_PHASE,
    Part,
    describe_phase,
    phase_goal,
    phase_goal_text,
)
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
from games.engine.view import LegalView, PlayerView, player_view, spectator_view

__all__ = [
    "Action",
    "ActionError",
    "Card",
    "Discard",
    "Discarded",
    "Draw",
    "Drew",
    "Event",
    "GameOver",
    "GameState",
    "Group",
    "Hint",
    "Hit",
    "HitCard",
    "Laid",
    "LayDown",
    "LegalView",
    "Outcome",
    "Part",
    "PlayerView",
    "RoundOver",
    "RoundResult",
    "RoundSummary",
    "RuleError",
    "Rules",
    "SeatRound",
    "Skipped",
    "Standing",
    "TIEBREAK_PHASE",
    "TiebreakStarted",
    "Took",
    "WentOut",
    "absent_turn",
    "action_from_dict",
    "action_to_dict",
    "apply",
    "arrange_deck",
    "auto_discard",
    "auto_draw",
    "can_draw",
    "can_lay_down",
    "can_take_discard",
    "cards_text",
    "check_round",
    "describe_phase",
    "discard_options",
    "event_from_dict",
    "find_phase",
    "full_deck",
    "hand_points",
    "hand_without",
    "hint",
    "hit_options",
    "lay_down_choices",
    "lay_down_options",
    "legal_actions",
    "make_group",
    "new_game",
    "parse_cards",
    "phase_goal",
    "phase_goal_text",
    "phase_shortfall",
    "phases_made",
    "phases_needed",
    "phases_to_lay",
    "play",
    "player_view",
    "progress",
    "replay",
    "skip_targets",
    "spectator_view",
    "standing_ranks",
    "validate_phase",
]
