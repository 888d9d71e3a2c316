"""The whole state of a game: an immutable value that round-trips through JSON.

Only the server holds a `GameState`: it knows every hand and the deck order.
Templates get `player_view(state, seat)` instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack

from games.engine.cards import Card, parse_cards
from games.engine.melds import Group, group_from_dict
from games.engine.phases import TIEBREAK_PHASE
from games.engine.progression import RoundResult, Standing
from games.engine.rules import ActionError, Rules

FORMAT_VERSION = 1


@dataclass(frozen=True)
class SeatRound:
    """One seat's line in a round summary."""

    points: int
    phase: int | None  # the phase attempted (pick-a-phase: the phase laid, or None)
    completed: bool
    went_out: bool


@dataclass(frozen=True)
class RoundSummary:
    """How a finished round went, for the web app's per-round results.

    >>> summary = RoundSummary(1, 0, (0, 35), (1, 1), (1, None))
    >>> summary.seats[1]
    SeatRound(points=35, phase=1, completed=False, went_out=False)
    >>> summary.result
    RoundResult(went_out=0, completed={0: 1}, points=(0, 35))
    """

    round_number: int
    went_out: int | None
    points: tuple[int, ...]
    attempted: tuple[int | None, ...]
    laid: tuple[int | None, ...]  # per seat, the phase laid down this round, or None

    @property
    def seats(self) -> tuple[SeatRound, ...]:
        return tuple(
            SeatRound(
                points=points,
                phase=attempted,
                completed=laid is not None,
                went_out=seat == self.went_out,
            )
            for seat, (points, attempted, laid) in enumerate(
                zip(self.points, self.attempted, self.laid, strict=True)
            )
        )

    @property
    def result(self) -> RoundResult:
        completed = {seat: phase for seat, phase in enumerate(self.laid) if phase is not None}
        return RoundResult(went_out=self.went_out, completed=completed, points=self.points)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round_number": self.round_number,
            "went_out": self.went_out,
            "points": list(self.points),
            "attempted": list(self.attempted),
            "laid": list(self.laid),
            "seats": [
                {
                    "points": line.points,
                    "phase": line.phase,
                    "completed": line.completed,
                    "went_out": line.went_out,
                }
                for line in self.seats
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundSummary:
        return cls(
            round_number=int(data["round_number"]),
            went_out=data["went_out"],
            points=tuple(data["points"]),
            attempted=tuple(data["attempted"]),
            laid=tuple(data["laid"]),
        )


@dataclass(frozen=True)
class GameState:
    """Everything about a game in progress (or over).

    Cards per seat are tuples; the draw pile is top first, the discard pile bottom
    first (its top is the last card). Seats not dealt into a tie-breaker round hold
    no cards.
    """

    rules: Rules
    players: tuple[str, ...]
    seed: int
    standing: Standing
    hands: tuple[tuple[Card, ...], ...]
    draw_pile: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    laid: tuple[tuple[Group, ...], ...]
    laid_phase: tuple[int | None, ...]
    current_seat: int
    drawn: bool = False
    laid_this_turn: bool = False
    skipped: tuple[int, ...] = ()
    deals: int = 1
    reshuffles: int = 0
    decks: tuple[tuple[Card, ...], ...] = ()
    last_round: RoundSummary | None = None

    # --- what the rest of the app reads -------------------------------------------

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def dealer(self) -> int:
        return self.standing.dealer

    @property
    def round_number(self) -> int:
        return self.standing.round_number

    @property
    def tiebreak(self) -> bool:
        """True during the tie-breaker round, and after it once it decided the game."""
        return bool(self.standing.tiebreak_seats)

    @property
    def playing(self) -> tuple[int, ...]:
        """The seats dealt into this round (only the tied ones in a tie-breaker)."""
        if self.standing.tiebreak_seats:
            return self.standing.tiebreak_seats
        return tuple(range(self.seats))

    @property
    def phase(self) -> tuple[int | None, ...]:
        """Per seat, the phase being attempted this round (None in pick-a-phase).

        In the tie-breaker round the tied seats attempt its goal, phase 10's goal.
        """
        if self.standing.tiebreak_seats and not self.standing.game_over:
            tied = self.standing.tiebreak_seats
            return tuple(TIEBREAK_PHASE if seat in tied else None for seat in range(self.seats))
        return self.standing.phase

    @property
    def completed(self) -> tuple[frozenset[int], ...]:
        return self.standing.completed

    @property
    def scores(self) -> tuple[int, ...]:
        return self.standing.scores

    @property
    def winner(self) -> int | None:
        return self.standing.winner

    @property
    def game_over(self) -> bool:
        return self.standing.game_over

    @property
    def discard_top(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def draw_pile_size(self) -> int:
        return len(self.draw_pile)

    @property
    def in_tiebreak_round(self) -> bool:
        return self.standing.tiebreak_needed

    def next_seat(self, seat: int) -> int:
        """The next seat clockwise after `seat` that is dealt into this round."""
        playing = self.playing
        for following in clockwise(seat, self.seats):
            if following in playing:
                return following
        raise ValueError("Nobody is playing this round.")  # pragma: no cover

    # --- JSON ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready snapshot; `GameState.from_dict` reads it back exactly.

        It holds every hand and the deck order: keep it on the server.
        """
        return {
            "version": FORMAT_VERSION,
            "rules": self.rules.to_dict(),
            "players": list(self.players),
            "seed": self.seed,
            "standing": self.standing.to_dict(),
            "hands": [_codes(hand) for hand in self.hands],
            "draw_pile": _codes(self.draw_pile),
            "discard_pile": _codes(self.discard_pile),
            "laid": [[group.to_dict() for group in groups] for groups in self.laid],
            "laid_phase": list(self.laid_phase),
            "current_seat": self.current_seat,
            "drawn": self.drawn,
            "laid_this_turn": self.laid_this_turn,
            "skipped": list(self.skipped),
            "deals": self.deals,
            "reshuffles": self.reshuffles,
            "decks": [_codes(deck) for deck in self.decks],
            "last_round": None if self.last_round is None else self.last_round.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """Read a `to_dict` snapshot; ActionError if it isn't one."""
        if data.get("version") != FORMAT_VERSION:
            raise ActionError(f"Unknown game snapshot version {data.get('version')!r}.")
        try:
            last_round = data["last_round"]
            return cls(
                rules=Rules.from_dict(data["rules"]),
                players=tuple(str(name) for name in data["players"]),
                seed=int(data["seed"]),
                standing=Standing.from_dict(data["standing"]),
                hands=tuple(tuple(parse_cards(hand)) for hand in data["hands"]),
                draw_pile=tuple(parse_cards(data["draw_pile"])),
                discard_pile=tuple(parse_cards(data["discard_pile"])),
                laid=tuple(
                    tuple(group_from_dict(group) for group in groups) for groups in data["laid"]
                ),
                laid_phase=tuple(data["laid_phase"]),
                current_seat=int(data["current_seat"]),
                drawn=bool(data["drawn"]),
                laid_this_turn=bool(data["laid_this_turn"]),
                skipped=tuple(int(seat) for seat in data["skipped"]),
                deals=int(data["deals"]),
                reshuffles=int(data["reshuffles"]),
                decks=tuple(tuple(parse_cards(deck)) for deck in data["decks"]),
                last_round=None if last_round is None else RoundSummary.from_dict(last_round),
            )
        except (KeyError, TypeError) as exc:
            raise ActionError(f"Not a game snapshot: missing or bad {exc}.") from exc


class StateChanges(TypedDict, total=False):
    """The fields of `GameState`, for type-checking `evolve`'s keyword arguments."""

    rules: Rules
    players: tuple[str, ...]
    seed: int
    standing: Standing
    hands: tuple[tuple[Card, ...], ...]
    draw_pile: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    laid: tuple[tuple[Group, ...], ...]
    laid_phase: tuple[int | None, ...]
    current_seat: int
    drawn: bool
    laid_this_turn: bool
    skipped: tuple[int, ...]
    deals: int
    reshuffles: int
    decks: tuple[tuple[Card, ...], ...]
    last_round: RoundSummary | None


def evolve(state: GameState, **changes: Unpack[StateChanges]) -> GameState:
    """`dataclasses.replace(state, **changes)`, about seven times faster.

    `apply` builds a new state for every move, and `replace` re-runs the frozen
    dataclass's `__init__` (one `object.__setattr__` per field, 17 fields). GameState
    has no `__post_init__` to re-run, so copying the field values and overwriting the
    changed ones gives exactly the same value. (If GameState ever gains validation in
    `__post_init__`, go back to `replace`.)

    >>> from dataclasses import replace
    >>> state = GameState(Rules(), ("Ann", "Bob"), 1, Standing(1, (1, 1), (frozenset(),) * 2,
    ...                   (0, 0), 0, 1), ((), ()), (), (), ((), ()), (None, None), 1)
    >>> evolve(state, drawn=True) == replace(state, drawn=True), state.drawn
    (True, False)
    """
    after = object.__new__(GameState)
    values = vars(after)
    values.update(vars(state))
    values.update(changes)
    return after


def clockwise(seat: int, players: int) -> list[int]:
    """Every seat in turn order, starting left of `seat` and ending with `seat`.

    >>> clockwise(2, 4)
    [3, 0, 1, 2]
    """
    return [(seat + step) % players for step in range(1, players + 1)]


def _codes(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]
