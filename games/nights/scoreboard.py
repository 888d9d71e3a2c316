"""A game night's scoreboard, read from its rounds: every figure (phases, totals, ranks,
dealer, who plays first, the winner and the tie-breaker) comes from folding the rounds
through the engine's progression, the same call the services use when they save, so
the scoreboard can never disagree with what was stored."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from games.engine import RoundResult, Rules, Standing, progress, standing_ranks
from games.engine.progression import settle_tiebreak

from ..models import Game, Player, RoundScore, Seat
from ..scoring import game_rules


@dataclass(frozen=True)
class RoundEntry:
    """What the scorer entered for one round, by seat position.

    completed: seat -> the phase laid. Outside pick-a-phase the number is ignored and
    taken from the standing (the phase that seat was on), so editing an early round
    moves every later completed phase along with it.
    """

    went_out: int | None
    points: tuple[int, ...]
    completed: Mapping[int, int | None]


@dataclass(frozen=True)
class RecordedTiebreak:
    """Who won the tie-breaker round, as the scorer recorded it, and the tied seats that
    played it.

    It decides the night only while those same seats are tied. A correction that changes
    the tie (or removes it) sets the result aside without erasing it, so reverting the
    correction brings back the tie and the result with it.

    seats: empty for a result recorded before the seats were kept (or by the demo); it
    counts for any tie its winner is in, as it did then.

    >>> tied = Standing(2, (None,) * 3, (frozenset(),) * 3, (0, 0, 0), 0, 1,
    ...                 tiebreak_needed=True, tiebreak_seats=(1, 2))
    >>> RecordedTiebreak(winner=2, seats=(1, 2)).counts_for(tied)
    True
    >>> RecordedTiebreak(winner=2, seats=(0, 1, 2)).counts_for(tied)
    False
    """

    winner: int
    seats: tuple[int, ...]

    def counts_for(self, standing: Standing) -> bool:
        if not standing.tiebreak_needed or self.winner not in standing.tiebreak_seats:
            return False
        return not self.seats or self.seats == standing.tiebreak_seats


def recorded_tiebreak(game: Game) -> RecordedTiebreak | None:
    if game.tiebreak_winner is None:
        return None
    return RecordedTiebreak(game.tiebreak_winner, tuple(game.tiebreak_seats or ()))


def settle(standing: Standing, tiebreak: RecordedTiebreak | None) -> Standing:
    """`standing` with the recorded tie-breaker result, if it counts for the tie there is."""
    if tiebreak is not None and tiebreak.counts_for(standing):
        return settle_tiebreak(standing, tiebreak.winner)
    return standing


@dataclass(frozen=True)
class ScoreboardSeat:
    # seat_id, player_id: the rows a new round's are written for (services.enter_round).
    seat_id: int
    player_id: int
    position: int
    name: str
    is_guest: bool
    # The member who sits here (None: a guest or a deleted account) and whether they
    # said yes to the seat (nights/seating.py): who may see the night's page.
    user_id: int | None
    accepted: bool
    phase: int | None
    completed: tuple[int, ...]
    total: int
    rank: int
    is_dealer: bool
    plays_first: bool
    is_winner: bool
    in_tiebreak: bool


@dataclass(frozen=True)
class ScoreboardCell:
    points: int
    total: int
    attempted: int | None
    completed: int | None
    went_out: bool


@dataclass(frozen=True)
class ScoreboardRound:
    number: int
    cells: tuple[ScoreboardCell, ...]


@dataclass(frozen=True)
class Scoreboard:
    """Everything a scoreboard shows, computed from the rounds by the engine."""

    version: int
    rules: Rules
    standing: Standing
    seats: tuple[ScoreboardSeat, ...]
    rounds: tuple[ScoreboardRound, ...]
    # A finished night kept without its rounds (a BG Stats import, stats/bgstats.py):
    # the seats hold the final scores, ranks and winners; it can't be changed.
    rounds_unknown: bool = False
    # When the seats' names were read (time.time()); a scoreboard carried on to the next
    # round keeps its names and this (services.enter_round).
    read_at: float = field(default=0.0, compare=False)

    @property
    def is_over(self) -> bool:
        return self.standing.game_over

    @property
    def tiebreak_needed(self) -> bool:
        return self.standing.tiebreak_needed

    @property
    def rounds_over(self) -> bool:
        """The regular rounds are over: the night has a winner, or a tie-breaker is due.
        A correction from here on can change the result, so it is confirmed first."""
        return self.standing.game_over or self.standing.tiebreak_needed

    @property
    def decided_by_tiebreak(self) -> bool:
        return self.standing.game_over and bool(self.standing.tiebreak_seats)

    @property
    def round_number(self) -> int:
        return self.standing.round_number

    @property
    def ranking(self) -> list[ScoreboardSeat]:
        return sorted(self.seats, key=lambda seat: (seat.rank, seat.position))

    @property
    def leaders(self) -> list[ScoreboardSeat]:
        """The seats ranked first (several when they are level)."""
        return [seat for seat in self.ranking if seat.rank == 1]

    @property
    def dealer(self) -> ScoreboardSeat:
        return self.seats[self.standing.dealer]

    @property
    def first_player(self) -> ScoreboardSeat:
        return self.seats[self.standing.first_player]

    @property
    def winner(self) -> ScoreboardSeat | None:
        winner = self.standing.winner
        return None if winner is None else self.seats[winner]

    @property
    def tied(self) -> list[ScoreboardSeat]:
        return [self.seats[seat] for seat in self.standing.tiebreak_seats]

    @property
    def had_tiebreak(self) -> bool:
        return bool(self.standing.tiebreak_seats)

    def seat_of(self, user_id: int) -> ScoreboardSeat | None:
        """The seat member `user_id` sits at, if any."""
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    def phases_done_before(self, number: int) -> list[frozenset[int]]:
        """Per seat, the phases completed in the rounds before round `number`."""
        done: list[set[int]] = [set() for _seat in self.seats]
        for round_ in self.rounds[: number - 1]:
            for position, cell in enumerate(round_.cells):
                if cell.completed is not None:
                    done[position].add(cell.completed)
        return [frozenset(phases) for phases in done]

    def phases_attempted_in(self, number: int) -> tuple[int | None, ...]:
        """The phase each seat was on in round `number` (the next round: the current one)."""
        if number <= len(self.rounds):
            return self.standing.attempted[number - 1]
        return self.standing.phase


# A night's seats with their players and rounds: a seat's line per round, the seat alone
# before the first round.
_BOARD_COLUMNS = (
    "id",
    "position",
    "player_id",
    "score",
    "rank",
    "is_winner",
    "player__name",
    "player__user_id",
    "player__anonymised",
    "accepted",
    "round_scores__round_number",
    "round_scores__points",
    "round_scores__phase_completed",
    "round_scores__went_out",
)


def load_scoreboard(game: Game) -> Scoreboard:
    """The scoreboard of `game` in one query, whatever its length."""
    lines = Seat.objects.filter(game=game).values_list(*_BOARD_COLUMNS)
    seats: dict[int, Seat] = {}
    rows = []
    for line in lines:
        seat_id, position, player_id, score, rank, is_winner, name, user_id, anonymised = line[:9]
        if position not in seats:
            player = Player(id=player_id, name=name, user_id=user_id, anonymised=bool(anonymised))
            seats[position] = Seat(
                id=seat_id,
                game_id=game.pk,
                position=position,
                player=player,
                score=score,
                rank=rank,
                is_winner=bool(is_winner),
                accepted=bool(line[9]),
            )
        number, points, completed, went_out = line[10:]
        if number is not None:
            rows.append((number, seat_id, points, completed, bool(went_out)))
    ordered = [seats[position] for position in sorted(seats)]
    return _scoreboard_from_entries(game, ordered, _entries(ordered, rows))


def _scoreboard_from_entries(
    game: Game, seats: Sequence[Seat], entries: Iterable[RoundEntry]
) -> Scoreboard:
    rules = game_rules(game)
    results = results_from(entries)
    if not results and game.status == Game.Status.FINISHED:
        return _final_scoreboard(game, seats, rules)
    standing = progress(len(seats), rules, results, dealer=game.first_dealer)
    return scoreboard_of(game, seats, results, settle(standing, recorded_tiebreak(game)))


def scoreboard_of(
    game: Game, seats: Sequence[Seat], results: Sequence[RoundResult], standing: Standing
) -> Scoreboard:
    """The scoreboard of `results` folded into `standing`: the stored rounds, or the
    rounds as a correction would leave them (nights/services.py, `preview_edit`)."""
    rules = game_rules(game)
    return Scoreboard(
        version=game.version,
        rules=rules,
        standing=standing,
        seats=tuple(_scoreboard_seats(seats, rules, standing)),
        rounds=tuple(scoreboard_rounds(results, standing)),
        read_at=time.time(),
    )


def _final_scoreboard(game: Game, seats: Sequence[Seat], rules: Rules) -> Scoreboard:
    """A finished night without rounds, from what its seats kept: the final scores,
    ranks and winners (several when they share first place). Phases aren't known."""
    count = len(seats)
    winners = [seat.position for seat in seats if seat.is_winner]
    winner = next((s.position for s in seats if s.player_id == game.winner_id), None)
    standing = Standing(
        round_number=1,
        phase=(None,) * count,
        completed=(frozenset(),) * count,
        scores=tuple(seat.score for seat in seats),
        dealer=0,
        first_player=0,
        game_over=True,
        winner=winner if winner is not None else next(iter(winners), None),
    )
    return Scoreboard(
        version=game.version,
        rules=rules,
        standing=standing,
        seats=tuple(
            ScoreboardSeat(
                seat_id=seat.pk,
                player_id=seat.player_id,
                position=seat.position,
                name=seat.player.name,
                is_guest=seat.player.is_guest,
                user_id=seat.player.user_id,
                accepted=seat.accepted,
                phase=None,
                completed=(),
                total=seat.score,
                rank=seat.rank or count,
                is_dealer=False,
                plays_first=False,
                is_winner=seat.is_winner,
                in_tiebreak=False,
            )
            for seat in seats
        ),
        rounds=(),
        rounds_unknown=True,
        read_at=time.time(),
    )


def results_from(entries: Iterable[RoundEntry]) -> list[RoundResult]:
    # Stored rows only hold laid phases, never None: the filter only tells the type checker.
    return [
        RoundResult(
            went_out=entry.went_out,
            completed={seat: phase for seat, phase in entry.completed.items() if phase is not None},
            points=entry.points,
        )
        for entry in entries
    ]


def _scoreboard_seats(
    seats: Sequence[Seat], rules: Rules, standing: Standing
) -> Iterable[ScoreboardSeat]:
    ranks = standing_ranks(rules, standing)
    for seat in seats:
        player = seat.player
        who = _Who(
            seat.pk,
            player.pk,
            seat.position,
            player.name,
            player.is_guest,
            player.user_id,
            seat.accepted,
        )
        yield _board_seat(who, standing, ranks)


class _Who(NamedTuple):
    """Who sits at a seat: what a scoreboard's seat shows besides the standing."""

    seat_id: int
    player_id: int
    position: int
    name: str
    is_guest: bool
    user_id: int | None
    accepted: bool


def _board_seat(who: _Who, standing: Standing, ranks: Sequence[int]) -> ScoreboardSeat:
    """The seat `who` where `standing` puts it."""
    position = who.position
    return ScoreboardSeat(
        **who._asdict(),
        phase=standing.phase[position],
        completed=tuple(sorted(standing.completed[position])),
        total=standing.scores[position],
        rank=ranks[position],
        is_dealer=position == standing.dealer,
        plays_first=position == standing.first_player,
        is_winner=position == standing.winner,
        in_tiebreak=position in standing.tiebreak_seats,
    )


def scoreboard_after(
    board: Scoreboard,
    result: RoundResult,
    standing: Standing,
    ranks: Sequence[int],
    *,
    version: int,
) -> Scoreboard:
    """`board` with `result` as one more round: `standing` is the engine's standing
    after it (no tie-breaker result counts) and `ranks` its ranks. The same scoreboard
    `load_scoreboard` reads back once the round is stored (services.enter_round), the
    seats' names as `board` had them."""
    before = board.rounds[-1].cells if board.rounds else None
    attempted = standing.attempted[len(board.rounds)]
    cells = tuple(
        ScoreboardCell(
            points=points,
            total=(before[seat].total if before else 0) + points,
            attempted=attempted[seat],
            completed=result.completed.get(seat),
            went_out=result.went_out == seat,
        )
        for seat, points in enumerate(result.points)
    )
    return replace(
        board,
        version=version,
        standing=standing,
        seats=tuple(
            _board_seat(
                _Who(
                    seat.seat_id,
                    seat.player_id,
                    seat.position,
                    seat.name,
                    seat.is_guest,
                    seat.user_id,
                    seat.accepted,
                ),
                standing,
                ranks,
            )
            for seat in board.seats
        ),
        rounds=(*board.rounds, ScoreboardRound(number=len(board.rounds) + 1, cells=cells)),
    )


def scoreboard_rounds(
    results: Sequence[RoundResult], standing: Standing
) -> Iterable[ScoreboardRound]:
    totals = [0] * standing.players
    for index, result in enumerate(results):
        cells = []
        for seat, points in enumerate(result.points):
            totals[seat] += points
            cells.append(
                ScoreboardCell(
                    points=points,
                    total=totals[seat],
                    attempted=standing.attempted[index][seat],
                    completed=result.completed.get(seat),
                    went_out=result.went_out == seat,
                )
            )
        yield ScoreboardRound(number=index + 1, cells=tuple(cells))


def entries_from_rows(seats: Sequence[Seat], rows: Iterable[RoundScore]) -> list[RoundEntry]:
    return _entries(
        seats,
        (
            (row.round_number, row.seat_id, row.points, row.phase_completed, row.went_out)
            for row in rows
        ),
    )


# A stored round's line: round number, seat id, points, phase completed, went out.
_Line = tuple[int, int, int, int | None, bool]


def _entries(seats: Sequence[Seat], rows: Iterable[_Line]) -> list[RoundEntry]:
    position_of = {seat.pk: seat.position for seat in seats}
    by_round: dict[int, list[_Line]] = defaultdict(list)
    for row in rows:
        by_round[row[0]].append(row)
    entries = []
    for number in sorted(by_round):
        points = [0] * len(seats)
        completed: dict[int, int | None] = {}
        went_out = None
        for _number, seat_id, seat_points, phase_completed, seat_went_out in by_round[number]:
            position = position_of[seat_id]
            points[position] = seat_points
            if phase_completed is not None:
                completed[position] = phase_completed
            if seat_went_out:
                went_out = position
        entries.append(RoundEntry(went_out=went_out, points=tuple(points), completed=completed))
    return entries
