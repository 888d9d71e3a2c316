"""Rounds and the game around them, without cards.

A game night (a real deck at a real table) and `apply`'s end of round both use
this module, so the end-of-round and end-of-game rules of docs/rules.md live here
and nowhere else.

A round is summed up by a `RoundResult`: who went out, who completed which phase,
and the points each seat adds. `progress` folds the results into a `Standing`.

>>> from games.engine.rules import Rules
>>> result = RoundResult(went_out=0, completed={0: 1, 2: 1}, points=(0, 45, 20))
>>> standing = progress(3, Rules(), [result])
>>> standing.phase, standing.scores, standing.dealer, standing.first_player
((2, 1, 2), (0, 45, 20), 1, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.engine.rules import ActionError, RuleError, Rules

MIN_PLAYERS = 2
MAX_PLAYERS = 6
# The most points one round can add to a seat: a hand left at the end of a round has at
# most 10 cards, and 10 Wilds would be 250 (a real hand tops out at 230: 8 Wilds, 2 Skips,
# so a table's miscount still fits). It also keeps totals far from any column's limit.
MAX_ROUND_POINTS = 250


@dataclass(frozen=True)
class RoundResult:
    """What one round added up to.

    went_out:  the seat that went out; None only if nobody did (a tied-up deck).
    completed: seat -> the phase number that seat laid down this round; absent = didn't.
    points:    per seat, the points added this round (the seat that went out has 0).

    >>> r = RoundResult(went_out=1, completed={1: 3}, points=[10, 0])
    >>> RoundResult.from_dict(r.to_dict()) == r
    True
    """

    went_out: int | None
    completed: Mapping[int, int]
    points: Sequence[int]

    def __post_init__(self) -> None:
        # Normalised copies: the caller's dict or list can't change a result afterwards,
        # and results compare equal whatever container they were built from.
        object.__setattr__(self, "completed", dict(sorted(self.completed.items())))
        object.__setattr__(self, "points", tuple(self.points))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; JSON object keys are strings, so `completed` is a list of pairs."""
        return {
            "went_out": self.went_out,
            "completed": [[seat, phase] for seat, phase in self.completed.items()],
            "points": list(self.points),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoundResult:
        try:
            completed = data["completed"]
            pairs = completed.items() if isinstance(completed, Mapping) else completed
            return cls(
                went_out=None if data["went_out"] is None else int(data["went_out"]),
                completed={int(seat): int(phase) for seat, phase in pairs},
                points=[int(p) for p in data["points"]],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ActionError(f"Not a round result: {data!r}.") from exc


@dataclass(frozen=True)
class Standing:
    """Where a game stands between rounds.

    round_number:    the round now being played (1 + number of normal rounds played).
    phase:           per seat, the phase to attempt in that round (None in pick-a-phase,
                     or when a seat has finished all its phases, or after the game).
    completed:       per seat, the phase numbers done.
    scores:          per seat, the totals.
    dealer:          who deals the round now to be played.
    first_player:    who plays first in it (left of the dealer, among those playing).
    game_over, winner.
    tiebreak_needed: the regular rounds are over and the tied seats must now play a
                     tie-breaker round (False again once its winner is recorded).
    tiebreak_seats:  the tied seats that play (or played) the tie-breaker; empty otherwise.
    attempted:       per played round, per seat, the phase attempted that round
                     (pick-a-phase: the phase completed, or None).
    """

    round_number: int
    phase: tuple[int | None, ...]
    completed: tuple[frozenset[int], ...]
    scores: tuple[int, ...]
    dealer: int
    first_player: int
    game_over: bool = False
    winner: int | None = None
    tiebreak_needed: bool = False
    tiebreak_seats: tuple[int, ...] = ()
    attempted: tuple[tuple[int | None, ...], ...] = field(default=())

    @property
    def players(self) -> int:
        return len(self.scores)

    @property
    def playing(self) -> tuple[int, ...]:
        """The seats dealt into the round now to be played (only the tied ones in a tie-breaker)."""
        if self.tiebreak_needed:
            return self.tiebreak_seats
        return tuple(range(self.players))

    def to_dict(self) -> dict[str, Any]:
        return {
            "round_number": self.round_number,
            "phase": list(self.phase),
            "completed": [sorted(done) for done in self.completed],
            "scores": list(self.scores),
            "dealer": self.dealer,
            "first_player": self.first_player,
            "game_over": self.game_over,
            "winner": self.winner,
            "tiebreak_needed": self.tiebreak_needed,
            "tiebreak_seats": list(self.tiebreak_seats),
            "attempted": [list(row) for row in self.attempted],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Standing:
        try:
            return cls(
                round_number=int(data["round_number"]),
                phase=tuple(data["phase"]),
                completed=tuple(frozenset(done) for done in data["completed"]),
                scores=tuple(data["scores"]),
                dealer=int(data["dealer"]),
                first_player=int(data["first_player"]),
                game_over=bool(data["game_over"]),
                winner=data["winner"],
                tiebreak_needed=bool(data["tiebreak_needed"]),
                tiebreak_seats=tuple(data["tiebreak_seats"]),
                attempted=tuple(tuple(row) for row in data["attempted"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ActionError("Not a standing.") from exc


def start(players: int, rules: Rules, *, dealer: int = 0) -> Standing:
    """The standing before round 1.

    >>> s = start(4, Rules(), dealer=3)
    >>> s.round_number, s.phase, s.dealer, s.first_player
    (1, (1, 1, 1, 1), 3, 0)
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise ActionError("players must be a number of seats.")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(
            f"Phase 10 is played by {MIN_PLAYERS} to {MAX_PLAYERS} players.", code="player_count"
        )
    if not 0 <= dealer < players:
        raise RuleError("The dealer must be one of the players.", code="bad_dealer")
    first = None if rules.pick_a_phase else rules.phases[0]
    return Standing(
        round_number=1,
        phase=(first,) * players,
        completed=(frozenset(),) * players,
        scores=(0,) * players,
        dealer=dealer,
        first_player=_left_of(dealer, range(players), players),
    )


def progress(
    players: int,
    rules: Rules,
    results: Sequence[RoundResult],
    *,
    dealer: int = 0,
    tiebreak_winner: int | None = None,
) -> Standing:
    """The standing after `results`, checking each round with `check_round` on the way.

    `dealer` dealt round 1. `tiebreak_winner` records who won the tie-breaker round
    once one is due.

    >>> from games.engine.rules import Rules
    >>> rules = Rules(phases=(1,))
    >>> tie = RoundResult(went_out=None, completed={0: 1, 1: 1}, points=(5, 5))
    >>> progress(2, rules, [tie]).tiebreak_seats
    (0, 1)
    >>> progress(2, rules, [tie], tiebreak_winner=1).winner
    1
    """
    standing = start(players, rules, dealer=dealer)
    for result in results:
        standing = advance(rules, standing, result)
    if tiebreak_winner is not None:
        standing = settle_tiebreak(standing, tiebreak_winner)
    return standing


def check_round(players: int, rules: Rules, standing: Standing, result: RoundResult) -> None:
    """Raise RuleError (a sentence for the scorer) if `result` can't be the next round.

    >>> from games.engine.rules import Rules
    >>> s = start(2, Rules())
    >>> check_round(2, Rules(), s, RoundResult(went_out=0, completed={}, points=(0, 30)))
    Traceback (most recent call last):
    ...
    games.engine.rules.RuleError: Player 1 can't have gone out without laying down a phase.
    """
    if standing.players != players:
        raise RuleError(f"This game has {standing.players} players, not {players}.")
    if standing.game_over:
        raise RuleError("The game is over.", code="game_over")
    if standing.tiebreak_needed:
        raise RuleError(
            "A tie-breaker round is due: record who won it instead of another round.",
            code="tiebreak_due",
        )
    if len(result.points) != players:
        raise RuleError(f"Enter points for each of the {players} players.", code="points_count")
    for seat, points in enumerate(result.points):
        if (
            isinstance(points, bool)
            or not isinstance(points, int)
            or not 0 <= points <= MAX_ROUND_POINTS
            or points % 5
        ):
            raise RuleError(
                f"Player {seat + 1}'s points must be a multiple of 5 from 0 to {MAX_ROUND_POINTS}.",
                code="points_value",
                params={"seat": seat, "points": points, "most": MAX_ROUND_POINTS},
            )
    for seat, phase in result.completed.items():
        _check_completed(rules, standing, seat, phase)
    went_out = result.went_out
    if went_out is not None:
        if isinstance(went_out, bool) or not isinstance(went_out, int):
            raise RuleError("Say which player went out.", code="went_out_seat")
        if not 0 <= went_out < players:
            raise RuleError(
                "The player who went out must be one of the players.", code="went_out_seat"
            )
        if went_out not in result.completed:
            raise RuleError(
                f"Player {went_out + 1} can't have gone out without laying down a phase.",
                code="went_out_without_phase",
                params={"seat": went_out},
            )
        if result.points[went_out] != 0:
            raise RuleError(
                f"Player {went_out + 1} went out, so they score 0 this round.",
                code="went_out_points",
                params={"seat": went_out},
            )


def _check_completed(rules: Rules, standing: Standing, seat: int, phase: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < standing.players:
        raise RuleError(
            f"There is no player {seat!r} in this game.",
            code="completed_seat",
            params={"seat": seat},
        )
    who = f"Player {seat + 1}"
    params = {"seat": seat, "phase": phase, "current": standing.phase[seat]}
    if rules.pick_a_phase:
        if phase not in rules.phases:
            raise RuleError(
                f"Phase {phase} isn't played in this game.", code="phase_not_played", params=params
            )
        if phase in standing.completed[seat]:
            raise RuleError(
                f"{who} has already completed phase {phase}.",
                code="phase_already_completed",
                params=params,
            )
    elif standing.phase[seat] is None:
        raise RuleError(
            f"{who} has no phase left to complete.", code="phase_not_played", params=params
        )
    elif phase != standing.phase[seat]:
        raise RuleError(
            f"{who} was on phase {standing.phase[seat]}, not phase {phase}.",
            code="wrong_phase",
            params=params,
        )


def advance(rules: Rules, standing: Standing, result: RoundResult) -> Standing:
    """The standing after one more round (checked with `check_round` first)."""
    players = standing.players
    check_round(players, rules, standing, result)
    scores = tuple(
        total + points for total, points in zip(standing.scores, result.points, strict=True)
    )
    completed = tuple(
        done | {result.completed[seat]} if seat in result.completed else done
        for seat, done in enumerate(standing.completed)
    )
    if rules.pick_a_phase:
        attempted_now = tuple(result.completed.get(seat) for seat in range(players))
    else:
        attempted_now = standing.phase
    attempted = (*standing.attempted, attempted_now)
    rounds_played = len(attempted)

    if rules.all_advance:
        contenders: tuple[int, ...] = (
            tuple(range(players)) if rounds_played == len(rules.phases) else ()
        )
    elif rules.pick_a_phase:
        every_phase = frozenset(rules.phases)
        contenders = tuple(seat for seat in range(players) if completed[seat] >= every_phase)
    else:
        contenders = tuple(
            seat for seat, phase in result.completed.items() if phase == rules.last_phase
        )

    phase = _next_phases(rules, completed, rounds_played, game_ends=bool(contenders))
    dealer = (standing.dealer + 1) % players
    after = replace(
        standing,
        round_number=rounds_played + 1,
        phase=phase,
        completed=completed,
        scores=scores,
        dealer=dealer,
        first_player=_left_of(dealer, range(players), players),
        attempted=attempted,
    )
    if not contenders:
        return after
    best = min(scores[seat] for seat in contenders)
    tied = tuple(sorted(seat for seat in contenders if scores[seat] == best))
    if len(tied) == 1:
        return replace(after, game_over=True, winner=tied[0])
    return replace(
        after,
        tiebreak_needed=True,
        tiebreak_seats=tied,
        first_player=_left_of(dealer, tied, players),
    )


def standing_ranks(rules: Rules, standing: Standing) -> list[int]:
    """Rank per seat, 1 = best; equal players share a rank ("1, 2, 2, 4").

    The rules only name a winner, so the order of the others is ours: the winner first,
    then more phases completed (not in all-advance, where everyone plays the same
    phases and only the total counts), then the lower total. Game nights and online
    games rank with this one function.

    >>> s = progress(3, Rules(), [RoundResult(went_out=0, completed={0: 1}, points=(0, 20, 20))])
    >>> standing_ranks(Rules(), s)
    [1, 2, 2]
    """

    def key(seat: int) -> tuple[bool, int, int]:
        phases = 0 if rules.all_advance else -len(standing.completed[seat])
        return (seat != standing.winner, phases, standing.scores[seat])

    keys = [key(seat) for seat in range(standing.players)]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def settle_tiebreak(standing: Standing, winner: int) -> Standing:
    """Record the winner of the tie-breaker round: the game is over.

    >>> s = replace(start(3, Rules()), tiebreak_needed=True, tiebreak_seats=(0, 2))
    >>> settle_tiebreak(s, 1)
    Traceback (most recent call last):
    ...
    games.engine.rules.RuleError: Only the tied players (1, 3) play the tie-breaker.
    """
    if standing.game_over:
        raise RuleError("The game is over.", code="game_over")
    if not standing.tiebreak_needed:
        raise RuleError("No tie-breaker round is due.", code="no_tiebreak")
    if winner not in standing.tiebreak_seats:
        seats = ", ".join(str(seat + 1) for seat in standing.tiebreak_seats)
        raise RuleError(
            f"Only the tied players ({seats}) play the tie-breaker.",
            code="not_in_tiebreak",
            params={"seat": winner, "tied": standing.tiebreak_seats},
        )
    return replace(standing, game_over=True, winner=winner, tiebreak_needed=False)


def _next_phases(
    rules: Rules, completed: tuple[frozenset[int], ...], rounds_played: int, *, game_ends: bool
) -> tuple[int | None, ...]:
    players = len(completed)
    if rules.pick_a_phase:
        return (None,) * players
    if rules.all_advance:
        index = rounds_played
        upcoming = rules.phases[index] if index < len(rules.phases) and not game_ends else None
        return (upcoming,) * players
    # A normal game completes phases strictly in list order, so the count is the position.
    return tuple(
        rules.phases[len(done)] if len(done) < len(rules.phases) else None for done in completed
    )


def _left_of(dealer: int, seats: Iterable[int], players: int) -> int:
    """The first of `seats` clockwise from the dealer (never the dealer unless alone)."""
    chosen = set(seats)
    for step in range(1, players + 1):
        seat = (dealer + step) % players
        if seat in chosen:
            return seat
    raise RuleError("Nobody is playing this round.")
