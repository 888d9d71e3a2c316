"""What both modes share when a game changes: its rules, its seats' totals, its rounds'
rows and the version bump that tells every open page (and every stale form) it moved.

A game night folds the rounds a scorer entered through the engine's progression; an
online game gets its standing from the engine's state. Either way the same code turns
an engine `Standing` into the `Seat` and `RoundScore` rows that pages and stats read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from games.engine import Rules, Standing, standing_ranks
from phase10site.celery import app, publish_on_commit

from .models import Club, ClubInvitation, ClubMember, Game, Player, RoundScore, Seat

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# The ratings' task (games/tasks.py), published by name: what writes games never imports
# games/stats/, which reads them.
RATE_TASK = "games.rate_games"
ROUND_FIELDS = ["phase_attempted", "phase_completed", "points", "went_out", "total"]
SEAT_FIELDS = ["score", "phase", "phases_completed", "rank", "is_winner"]


def game_rules(game: Game) -> Rules:
    """The engine's `Rules` of a game row (every option the game was created with)."""
    return Rules.from_dict(game.rules or {})


def refresh_seats(seats: Sequence[Seat], rules: Rules, standing: Standing) -> None:
    """Copy totals, phases, ranks and the winner from `standing` onto the seats (rows
    that exist), and save the seats that changed (one query, none if nothing moved)."""
    ranks = standing_ranks(rules, standing)
    moved = []
    for seat in seats:
        position = seat.position
        before = [getattr(seat, field) for field in SEAT_FIELDS]
        seat.score = standing.scores[position]
        seat.phase = standing.phase[position]
        seat.phases_completed = len(standing.completed[position])
        seat.rank = ranks[position]
        seat.is_winner = position == standing.winner
        if before != [getattr(seat, field) for field in SEAT_FIELDS]:
            moved.append(seat)
    if moved:
        # An upsert of rows that exist, of which only these fields are written:
        # bulk_update's CASE per seat and field took six times as long to build.
        Seat.objects.bulk_create(
            moved, update_conflicts=True, unique_fields=["id"], update_fields=SEAT_FIELDS
        )


def round_row(
    game: Game,
    seat: Seat,
    number: int,
    *,
    attempted: int | None,
    completed: int | None,
    points: int,
    went_out: bool,
    total: int,
    by_bot: bool = False,
) -> RoundScore:
    """One seat's line of one finished round: what stats count, written once.
    `by_bot`: a bot played the seat (stats leave the round out of people's)."""
    return RoundScore(
        game=game,
        seat=seat,
        player_id=seat.player_id,
        round_number=number,
        phase_attempted=attempted,
        phase_completed=completed,
        points=points,
        went_out=went_out,
        total=total,
        by_bot=by_bot,
    )


class Changed(Exception):
    """The game changed since it was read (its version moved on): nothing was saved."""


def bump(game: Game, *fields: str) -> None:
    """The one way a change of `game` is saved: its `fields` (all of them when none are
    named) and `updated_at` written with the version one up, only if the row still has
    the version `game` was read with — the ORM's compare-and-swap,
    `filter(pk=…, version=…).update(…)` (never `ratings_version`: the ratings' run
    owns it). Raises `Changed` otherwise, and nothing is
    written. Call it first in the transaction that writes the change's other rows: the
    UPDATE takes the row's lock, so a second writer waits there and then finds the
    version moved on. Every cached page and scoreboard is keyed by the version, so a
    write that changes what a game's pages show and skips this leaves them stale. A
    club's game moves its club on too (`bump_club`)."""
    expected = game.version
    game.updated_at = timezone.now()
    names = fields or tuple(
        field.name for field in Game._meta.concrete_fields if not field.primary_key
    )
    by_name = {field.name: field.attname for field in Game._meta.concrete_fields}
    values = {
        by_name[name]: getattr(game, by_name[name])
        for name in names
        if name not in ("version", "updated_at", "ratings_version")
    }
    written = Game.objects.filter(pk=game.pk, version=expected).update(
        version=expected + 1, updated_at=game.updated_at, **values
    )
    if written != 1:
        raise Changed
    game.version = expected + 1
    if game.club_id is not None:
        bump_club(game.club_id)


def bump_games_of(player: Player) -> None:
    """Every game `player` sits in one version on, in one statement, and their clubs and
    the member's own clubs (which list them by name): what changes the player (a new
    name, a claim that merges a guest into a member, an account's deletion) changes what
    those pages show. Call it in the transaction of that change. Their `updated_at`
    stays: the games themselves weren't played."""
    bump_all(Game.objects.filter(seats__player=player))
    if player.user_id is not None:
        Club.objects.filter(
            pk__in=ClubMember.objects.filter(user_id=player.user_id).values("club_id")
        ).update(version=F("version") + 1)


def bump_names_of(user: User) -> None:
    """What shows `user`'s username moves on (staff changed it): the games they sit in
    and their clubs (`bump_games_of`), and the clubs that invited them by it."""
    player = Player.objects.filter(user=user).first()
    if player is not None:
        bump_games_of(player)
    Club.objects.filter(pk__in=ClubInvitation.objects.filter(user=user).values("club_id")).update(
        version=F("version") + 1
    )


def bump_all(games: QuerySet[Game]) -> None:
    """Every game in `games` one version on, in one statement, and then their clubs: a
    change that isn't a game being played but changes what its pages show (a player's
    name, away mode, a seat's own setting). Their `updated_at` stays."""
    games.update(version=F("version") + 1)
    Club.objects.filter(pk__in=games.exclude(club=None).values("club_id")).update(
        version=F("version") + 1
    )


def bump_club(club_id: int) -> None:
    """The club one version on. A club's kept pages (games/clubs/page.py, year.py) are
    keyed by its version alone, so it moves on with every change of the club (its
    members, name, seasons: games/clubs/), of any of its games (`bump`, `bump_all`, and
    a game joining or leaving it) and of its members' ratings (the ratings' run:
    games/stats/rating_ledger.py `_moved_on`). In the transaction of that change;
    after the game's own row, whose lock is taken first everywhere. The UPDATE holds the
    club row's lock until commit, so two changes of one club queue one after the other."""
    Club.objects.filter(pk=club_id).update(version=F("version") + 1)


def save_seat_setting(seat: Seat, *fields: str) -> None:
    """Save `fields` of `seat`, a seated person's own setting that the table shows (the
    game's email mute, the players whose chat they mute), and move its game one version
    on in the same transaction, as `bump_games_of` does for a player: the table's pages
    keep the seats under the game's version (games/online/access.py `seating_to_show`).
    Its `updated_at` stays: the game itself wasn't played."""
    with transaction.atomic():
        seat.save(update_fields=list(fields))
        bump_all(Game.objects.filter(pk=seat.game_id))


def queue_rating(game: Game) -> None:
    """After commit, have the ratings take in `game`'s result: it finished, or a finished
    game changed (a correction re-rates from it on; undoing its end takes it out)."""
    publish_on_commit(app.tasks[RATE_TASK], game.pk)
