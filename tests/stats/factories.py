"""Build finished games straight into the tables the stats read (Game, Seat,
RoundScore), with the denormalised Seat fields the game services would keep.

A round is one entry per seat, in seat order:

    make_game([alice, bob], [[laid(1, out=True), missed(1, 50)], ...])
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from games.models import Game, Player, RoundScore, Seat


@dataclass(frozen=True)
class Result:
    attempted: int | None
    completed: int | None
    points: int
    went_out: bool = False


def laid(phase: int, points: int = 0, *, out: bool = False) -> Result:
    return Result(phase, phase, 0 if out else points, out)


def missed(phase: int, points: int) -> Result:
    return Result(phase, None, points)


def picked(phase: int, points: int = 0, *, out: bool = False) -> Result:
    """Pick-a-phase: a game night records the phase laid as the one attempted."""
    return laid(phase, points, out=out)


def nothing(points: int) -> Result:
    """Pick-a-phase: laid nothing this round (no phase attempted is recorded)."""
    return Result(None, None, points)


def player(user_or_name, created_by=None) -> Player:  # type: ignore[no-untyped-def]
    if isinstance(user_or_name, str):
        return Player.objects.create(name=user_or_name, created_by=created_by)
    return Player.for_user(user_or_name)


def make_game(  # type: ignore[no-untyped-def]
    players: list[Player],
    rounds: list[list[Result]],
    *,
    winner: int,
    mode: str = Game.Mode.NIGHT,
    rules: dict | None = None,
    days_ago: float = 1,
    creator=None,
    status: str = Game.Status.FINISHED,
    name: str = "",
    bots: tuple[int, ...] = (),
    resigned: dict[int, int] | None = None,
) -> Game:
    """One game with its seats and rounds; `winner` is a seat index.

    `bots`: the seats bots played from the start (their Players are the bots');
    `resigned`: seat → the rounds its person played before resigning (a bot played
    the seat's later rounds), as the online services record them."""
    resigned = resigned or {}
    finished = status == Game.Status.FINISHED
    creator = creator or next(p.user for p in players if p.user_id)
    game = Game.objects.create(
        mode=mode,
        name=name,
        status=status,
        rules=rules or {},
        creator=creator,
        rounds_played=len(rounds),
        finished_at=timezone.now() - timedelta(days=days_ago) if finished else None,
        winner=players[winner] if finished else None,
    )
    totals = [0] * len(players)
    done = [0] * len(players)
    seats = [
        Seat.objects.create(
            game=game,
            position=i,
            player=p,
            is_bot=i in bots or i in resigned,
            resigned=i in resigned,
        )
        for i, p in enumerate(players)
    ]
    rows = []
    for number, results in enumerate(rounds, start=1):
        assert len(results) == len(players)
        for i, result in enumerate(results):
            totals[i] += result.points
            done[i] += result.completed is not None
            by_bot = i in bots or (i in resigned and number > resigned[i])
            rows.append(
                RoundScore(
                    game=game,
                    seat=seats[i],
                    player=players[i],
                    round_number=number,
                    phase_attempted=result.attempted,
                    phase_completed=result.completed,
                    points=result.points,
                    went_out=result.went_out,
                    total=totals[i],
                    by_bot=by_bot,
                )
            )
    RoundScore.objects.bulk_create(rows)
    order = sorted(range(len(players)), key=lambda i: (i != winner, -done[i], totals[i]))
    for i, seat in enumerate(seats):
        seat.score = totals[i]
        seat.phases_completed = done[i]
        if finished:
            seat.rank = order.index(i) + 1
            seat.is_winner = i == winner
        seat.save()
    return game


def bulk_history(players: list[Player], games: int, rounds: int = 6) -> None:
    """`games` finished two-player games in bulk (for query counts and the bench):
    seat 0 wins every third game; phases advance one per completed round."""
    creator = next(p.user for p in players if p.user_id)
    now = timezone.now()
    game_rows = Game.objects.bulk_create(
        Game(
            mode=Game.Mode.NIGHT if n % 2 else Game.Mode.ONLINE,
            status=Game.Status.FINISHED,
            rules={"all_advance": True} if n % 5 == 0 else {},
            creator=creator,
            rounds_played=rounds,
            finished_at=now - timedelta(hours=n * 7),
            winner=players[0] if n % 3 == 0 else players[1],
        )
        for n in range(games)
    )
    seat_rows = Seat.objects.bulk_create(
        Seat(
            game=game,
            position=position,
            player=p,
            score=(n * 7 + position * 35) % 300,
            phases_completed=rounds // 2 + position,
            rank=1 if (n % 3 == 0) == (position == 0) else 2,
            is_winner=(n % 3 == 0) == (position == 0),
        )
        for n, game in enumerate(game_rows)
        for position, p in enumerate(players)
    )
    score_rows = []
    for seat in seat_rows:
        phase, total = 1, 0
        for number in range(1, rounds + 1):
            completed = (number + seat.position + seat.game_id) % 2 == 0
            points = 0 if completed else 25
            total += points
            score_rows.append(
                RoundScore(
                    game_id=seat.game_id,
                    seat=seat,
                    player_id=seat.player_id,
                    round_number=number,
                    phase_attempted=phase,
                    phase_completed=phase if completed else None,
                    points=points,
                    went_out=completed and seat.position == 0,
                    total=total,
                )
            )
            phase = min(10, phase + completed)
    RoundScore.objects.bulk_create(score_rows, batch_size=2000)
