"""Rows for the season tests, made with the ORM: clubs with members, and club games with
the places their seats took (a game's pages aren't what these tests are about)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from games.models import Club, ClubMember, Game, Player, Seat


def club_of(admin, *members, name: str = "Thursday Club") -> Club:  # type: ignore[no-untyped-def]
    """A club whose first member `admin` is its admin."""
    club = Club.objects.create(name=name, created_by=admin)
    ClubMember.objects.create(club=club, user=admin, is_admin=True)
    for member in members:
        ClubMember.objects.create(club=club, user=member)
    return club


@dataclass(frozen=True)
class At:
    """A seat: who, at which rank (1 = best; the seat's `rank`), and how they sat."""

    player: Player
    rank: int | None
    bot: bool = False
    resigned: bool = False
    accepted: bool = True


def game(
    club: Club | None,
    seats: list[At],
    *,
    finished: datetime | None,
    mode: str = Game.Mode.NIGHT,
    creator=None,  # type: ignore[no-untyped-def]
    name: str = "",
) -> Game:
    """A club game with these seats, finished at `finished` (None: still in play)."""
    played = Game.objects.create(
        club=club,
        mode=mode,
        name=name,
        status=Game.Status.ACTIVE if finished is None else Game.Status.FINISHED,
        finished_at=finished,
        creator=creator,
    )
    Seat.objects.bulk_create(
        Seat(
            game=played,
            position=position,
            player=at.player,
            # A person who resigned has a bot play their seat (games/online/services.py).
            is_bot=at.bot or at.resigned,
            resigned=at.resigned,
            accepted=at.accepted,
            rank=at.rank,
            is_winner=at.rank == 1,
            score=10 * position,
        )
        for position, at in enumerate(seats)
    )
    return played


def guest(name: str) -> Player:
    return Player.objects.create(name=name)


def bot(name: str = "Bot Ada") -> Player:
    return Player.objects.create(name=name)


@dataclass(frozen=True)
class History:
    """A club's 2026 so far (season_helpers.history): who is who, and the games."""

    club: Club
    ann: Player  # alice, the admin
    bo: Player  # bob
    cy: Player  # carol
    dora: Player  # a guest
    games: dict[str, Game]


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def history(alice, bob, carol) -> History:  # type: ignore[no-untyped-def]
    """Points [3, 2, 1, 0]; ann, bo, cy are alice's, bob's and carol's Players.

    | game | finished | seats (rank) | places in the league | points |
    |---|---|---|---|---|
    | night1 | 1 Mar | ann 1, bo 2, Dora 3 | ann 1, bo 2, Dora 3 | 3, 2, 1 |
    | online2 | 5 Mar | ann 1, a bot 2, cy 3 | ann 1, cy 2 (the bot leaves no gap) | 3, 2 |
    | night3 | 1 Apr | bo 1, cy 1, ann 3 | bo 1, cy 1 (a tie), ann 2 | 3, 3, 2 |
    | online4 | 1 May | bo 1, cy 2, ann resigned | bo 1, cy 2, ann 3 (last) | 3, 2, 1 |
    | night5 | 1 Jun | cy 1 (hasn't accepted her seat), ann 2, bo 3 | ann 1, bo 2 | 3, 2 |
    | night6 | in play | ann, bo | not finished | – |
    | night0 | 31 Dec 2025 23:30 UTC | ann 2, bo 1 | 2025's season | – |
    | elsewhere | 2 Mar | ann 2, bo 1 | not a club game | – |

    So: ann 5 games, 3 wins, places 1+1+2+3+1 = 8, points 12; bo 4 games, 2 wins,
    places 2+1+1+2 = 6, points 10; cy 3 games, 1 win, places 2+1+2 = 5, points 7;
    Dora 1 game, places 3, points 1.
    """
    club = club_of(alice, bob, carol)
    ann, bo, cy = (Player.for_user(user) for user in (alice, bob, carol))
    dora = Player.objects.create(name="Dora", created_by=alice)
    robot = bot()
    night, online = Game.Mode.NIGHT, Game.Mode.ONLINE
    games = {
        "night1": game(
            club, [At(ann, 1), At(bo, 2), At(dora, 3)], finished=utc(2026, 3, 1, 20), creator=alice
        ),
        "online2": game(
            club,
            [At(ann, 1), At(robot, 2, bot=True), At(cy, 3)],
            finished=utc(2026, 3, 5, 20),
            mode=online,
        ),
        "night3": game(
            club, [At(bo, 1), At(cy, 1), At(ann, 3)], finished=utc(2026, 4, 1, 20), creator=alice
        ),
        "online4": game(
            club,
            [At(bo, 1), At(cy, 2), At(ann, 3, resigned=True)],
            finished=utc(2026, 5, 1, 20),
            mode=online,
        ),
        "night5": game(
            club,
            [At(cy, 1, accepted=False), At(ann, 2), At(bo, 3)],
            finished=utc(2026, 6, 1, 20),
            creator=alice,
        ),
        "night6": game(club, [At(ann, 1), At(bo, 2)], finished=None, mode=night, creator=alice),
        "night0": game(
            club, [At(ann, 2), At(bo, 1)], finished=utc(2025, 12, 31, 23, 30), creator=alice
        ),
        "elsewhere": game(None, [At(ann, 2), At(bo, 1)], finished=utc(2026, 3, 2, 20)),
    }
    return History(club, ann, bo, cy, dora, games)
