"""What one seat may see: the only thing templates (and bots) ever get.

Other hands appear as counts; the draw pile as a size; the seed and the deck order
never appear at all, so a view (or its `to_dict()`) can be sent to a browser as it is.

>>> from games.engine.game import new_game
>>> view = player_view(new_game(["Ann", "Bob"], seed=3), 0)
>>> len(view.hand), view.hand_counts, view.draw_pile_size
(10, (10, 10), 87)
>>> data = view.to_dict()
>>> "seed" in data or "draw_pile" in data
False
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.actions import Discard, Hit, LayDown, action_to_dict
from games.engine.cards import Card
from games.engine.legal import (
    can_draw,
    can_take_discard,
    discard_options,
    hit_options,
    lay_down_options,
    skip_targets,
)
from games.engine.melds import Group
from games.engine.phases import Part, phase_goal
from games.engine.rules import ActionError, Rules
from games.engine.state import GameState, RoundSummary


@dataclass(frozen=True)
class LegalView:
    """What the seat may do now; all False / empty when it isn't their turn.

    draw, take_discard: it may draw from the draw pile / take the top discard.
    lay_down:     the solver's grouping, one `LayDown` per phase it can make now
                  (any other valid grouping is accepted by `apply` too).
    hits:         every `Hit` it may make now.
    discards:     every `Discard` it may make now (a Skip once per target when the
                  discarder chooses whom to skip).
    skip_targets: the seats a Skip discarded now could skip (empty before drawing).
    """

    draw: bool = False
    take_discard: bool = False
    lay_down: tuple[LayDown, ...] = ()
    hits: tuple[Hit, ...] = ()
    discards: tuple[Discard, ...] = ()
    skip_targets: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the actions as `action_to_dict` dicts."""
        return {
            "draw": self.draw,
            "take_discard": self.take_discard,
            "lay_down": [action_to_dict(action) for action in self.lay_down],
            "hits": [action_to_dict(action) for action in self.hits],
            "discards": [action_to_dict(action) for action in self.discards],
            "skip_targets": list(self.skip_targets),
        }


NOTHING_LEGAL = LegalView()


@dataclass(frozen=True)
class PlayerView:
    """Everything one seat may know about a game, and nothing more.

    Per-seat tuples are indexed by seat. Cards are `Card`s (`str(card)` is its code);
    `to_dict()` is the JSON-ready form with codes, group dicts and action dicts.

    seat:           whose view this is.
    players:        the names, in seat order.
    rules:          the game's `Rules`.
    round_number, dealer, current_seat.
    your_turn:      it is this seat's turn (never once the game is over).
    drawn, laid_this_turn: the current player's turn so far.
    hand:           this seat's cards, in the order held.
    hand_counts:    how many cards each seat holds.
    discard_top:    the top discard (None: the pile is empty); discard_size, draw_pile_size.
    laid:           per seat, the groups laid this round.
    laid_phase:     per seat, the phase laid this round, or None.
    phase:          per seat, the phase attempted this round (None in pick-a-phase, and
                    for seats out of a tie-breaker round).
    goal:           per seat, the parts of that phase, or None.
    completed:      per seat, the phases completed, ascending.
    scores:         per seat, the totals.
    skipped:        the seats due to lose their next turn.
    playing:        the seats dealt into this round.
    game_over, winner.
    tiebreak:       in the tie-breaker round, or the game was decided by one.
    tiebreak_seats: the tied seats that play (or played) it.
    last_round:     how the last finished round went, or None.
    legal:          what this seat may do now (`LegalView`).
    """

    seat: int
    players: tuple[str, ...]
    rules: Rules
    round_number: int
    dealer: int
    current_seat: int
    your_turn: bool
    drawn: bool
    laid_this_turn: bool
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    discard_top: Card | None
    discard_size: int
    draw_pile_size: int
    laid: tuple[tuple[Group, ...], ...]
    laid_phase: tuple[int | None, ...]
    phase: tuple[int | None, ...]
    goal: tuple[tuple[Part, ...] | None, ...]
    completed: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    skipped: tuple[int, ...]
    playing: tuple[int, ...]
    game_over: bool
    winner: int | None
    tiebreak: bool
    tiebreak_seats: tuple[int, ...]
    last_round: RoundSummary | None
    legal: LegalView

    @property
    def has_laid(self) -> bool:
        """This seat has laid down its phase this round."""
        return self.laid_phase[self.seat] is not None

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready dict (the form `player_view` returned before it was typed).

        Keys: seat, players, rules, round_number, dealer, current_seat, your_turn, drawn,
        laid_this_turn, hand, hand_counts, discard_top, discard_size, draw_pile_size,
        laid, laid_phase, phase, goal, completed, scores, skipped, playing, game_over,
        winner, tiebreak, tiebreak_seats, last_round, legal.
        """
        top = self.discard_top
        return {
            "seat": self.seat,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            "round_number": self.round_number,
            "dealer": self.dealer,
            "current_seat": self.current_seat,
            "your_turn": self.your_turn,
            "drawn": self.drawn,
            "laid_this_turn": self.laid_this_turn,
            "hand": [str(card) for card in self.hand],
            "hand_counts": list(self.hand_counts),
            "discard_top": None if top is None else str(top),
            "discard_size": self.discard_size,
            "draw_pile_size": self.draw_pile_size,
            "laid": [[group.to_dict() for group in groups] for groups in self.laid],
            "laid_phase": list(self.laid_phase),
            "phase": list(self.phase),
            "goal": [
                None if parts is None else [[part.kind, part.size] for part in parts]
                for parts in self.goal
            ],
            "completed": [list(done) for done in self.completed],
            "scores": list(self.scores),
            "skipped": list(self.skipped),
            "playing": list(self.playing),
            "game_over": self.game_over,
            "winner": self.winner,
            "tiebreak": self.tiebreak,
            "tiebreak_seats": list(self.tiebreak_seats),
            "last_round": None if self.last_round is None else self.last_round.to_dict(),
            "legal": self.legal.to_dict(),
        }


def player_view(state: GameState, seat: int) -> PlayerView:
    """Everything `seat` may know, and nothing more (see `PlayerView`)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise ActionError(f"There is no seat {seat!r}.")
    return _view(state, seat, state.hands[seat], _legal(state, seat))


SPECTATOR = -1  # the `seat` of a spectator's view: no seat at all


def spectator_view(state: GameState) -> PlayerView:
    """What someone watching the table may know: what every seat knows in common,
    with no hand (`hand` is empty, `seat` is `SPECTATOR`) and nothing legal.

    >>> from games.engine.game import new_game
    >>> view = spectator_view(new_game(["Ann", "Bob"], seed=3))
    >>> view.hand, view.hand_counts, view.your_turn, view.legal.draw
    ((), (10, 10), False, False)
    """
    return _view(state, SPECTATOR, (), NOTHING_LEGAL)


def _view(state: GameState, seat: int, hand: tuple[Card, ...], legal: LegalView) -> PlayerView:
    phase = state.phase
    return PlayerView(
        seat=seat,
        players=state.players,
        rules=state.rules,
        round_number=state.round_number,
        dealer=state.dealer,
        current_seat=state.current_seat,
        your_turn=not state.game_over and state.current_seat == seat,
        drawn=state.drawn,
        laid_this_turn=state.laid_this_turn,
        hand=hand,
        hand_counts=tuple(len(hand) for hand in state.hands),
        discard_top=state.discard_top,
        discard_size=len(state.discard_pile),
        draw_pile_size=state.draw_pile_size,
        laid=state.laid,
        laid_phase=state.laid_phase,
        phase=phase,
        goal=tuple(None if p is None else phase_goal(p) for p in phase),
        completed=tuple(tuple(sorted(done)) for done in state.completed),
        scores=state.scores,
        skipped=state.skipped,
        playing=state.playing,
        game_over=state.game_over,
        winner=state.winner,
        tiebreak=state.tiebreak,
        tiebreak_seats=state.standing.tiebreak_seats,
        last_round=state.last_round,
        legal=legal,
    )


def _legal(state: GameState, seat: int) -> LegalView:
    if state.game_over or state.current_seat != seat:
        return NOTHING_LEGAL
    return LegalView(
        draw=can_draw(state),
        take_discard=can_take_discard(state),
        lay_down=tuple(lay_down_options(state)),
        hits=tuple(hit_options(state)),
        discards=tuple(discard_options(state)),
        skip_targets=skip_targets(state) if state.drawn else (),
    )
