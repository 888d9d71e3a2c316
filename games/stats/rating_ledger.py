"""Which games the ratings have taken in: every finished game exactly once, in the order
the games finished (`finished_at`, then the game's id), whatever order the tasks run in.

A rating depends on every earlier game of everyone one has played, so games are rated
in order and a game that comes in late re-rates from its place on. The bookkeeping:

- `RatingMark` (one row) says how far the ratings have got: the last game rated, and
  the earliest game to work out again when something needs that (a claimed guest).
- `RatedGame` (one row per game taken in) remembers the game's place when it was rated;
  `RatingChange` rows hold each person's place, rating before and after.

A run (`run`) claims the mark with a conditional UPDATE on its revision, so two runs
never rate at once and a duplicated task rates nothing twice. Then it finds where it
must start again (the mark's redo point; a game finished or corrected behind the mark:
`_redo_points` compares what was rated with what the game says now), rewinds to there
(`_rewind`: every rating back to what it was before that game), and rates every game
after the mark in order (`_rate_forward`). Starting from scratch is the same run with
the whole history rewound, so `recompute_ratings` and the task give the same numbers.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count, F, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.utils import timezone

from games.models import (
    Club,
    ClubMember,
    Game,
    Player,
    RatedGame,
    Rating,
    RatingChange,
    RatingMark,
    Seat,
)
from phase10site.celery import app, publish_on_commit

from . import ratings
from .ratings import Skill

log = logging.getLogger(__name__)

# A game's place in the rating order.
Key = tuple[datetime, int]

TASK = "games.rate_games"
# A conditional UPDATE that finds the mark moved on waits for the other run to finish
# (its row lock), then tries again with what that run left.
CLAIM_ATTEMPTS = 3
# Games read and rated per batch (also keeps each IN (...) list short).
BATCH = 500
# The sweep looks again at games changed since its last run, and this much before it:
# a transaction that saved a game then may have committed only after the sweep read.
SWEEP_SLACK = timedelta(minutes=10)


def queue(game_id: int | None = None) -> None:
    """After commit, have a run take in `game_id` (or just catch up). By name: the task
    module imports this one."""
    publish_on_commit(app.tasks[TASK], game_id)


def run(game_id: int | None = None, *, sweep: bool = False, from_scratch: bool = False) -> int:
    """Bring the ratings up to date; returns the number of games rated.

    `game_id`: a game that finished or changed (its task). `sweep`: look at every game
    changed since the last sweep (beat). `from_scratch`: forget every rating and rate
    the whole history again (`recompute_ratings`). When other runs keep the ratings
    claimed, gives up (0): they, or the next sweep, take the game in."""
    for _attempt in range(CLAIM_ATTEMPTS):
        with transaction.atomic():
            mark = _claim()
            if mark is not None:
                return _run(mark, game_id, sweep=sweep, from_scratch=from_scratch)
    log.warning("ratings stayed claimed by other runs; game %s left to the sweep", game_id)
    return 0


def redo_for(player: Player) -> None:
    """Ask the next run to work every rating out again from `player`'s first rated game
    on (a claimed guest's history joins someone else's). In the caller's transaction,
    so the request is kept even if the task is lost; `queue()` it after."""
    first = (
        RatingChange.objects.filter(player=player)
        .order_by("finished_at", "game_id")
        .values_list("finished_at", "game_id")
        .first()
    )
    if first is None:
        return
    start: Key = first
    mark = _locked_mark()
    if mark.redo_from_at is None or start < (mark.redo_from_at, mark.redo_from_game or 0):
        mark.redo_from_at, mark.redo_from_game = start
        mark.revision += 1
        mark.save(update_fields=["redo_from_at", "redo_from_game", "revision", "updated_at"])


# --- the mark ---------------------------------------------------------------------------


def _mark() -> RatingMark:
    mark, _created = RatingMark.objects.get_or_create(pk=1)
    return mark


def _locked_mark() -> RatingMark:
    _mark()
    return RatingMark.objects.select_for_update().get(pk=1)


def _claim() -> RatingMark | None:
    """Claim the ratings for this transaction: move the mark's revision on, if nobody
    moved it since it was read (one row updated). Returns the mark as it is now."""
    seen = _mark().revision
    claimed = RatingMark.objects.filter(pk=1, revision=seen).update(revision=F("revision") + 1)
    if claimed != 1:
        return None
    # The row is ours until commit: this read is what every later run will build on.
    return RatingMark.objects.get(pk=1)


def _rated_to(mark: RatingMark) -> Key | None:
    if mark.rated_to_at is None or mark.rated_to_game is None:
        return None
    return (mark.rated_to_at, mark.rated_to_game)


def _run(mark: RatingMark, game_id: int | None, *, sweep: bool, from_scratch: bool) -> int:
    now = timezone.now()
    rated_to = _rated_to(mark)
    # The games whose rating changes this run writes or takes away (`_moved_on` at the
    # end, once: the run locks no game or club row while it rates).
    moved: set[int] = set()
    if from_scratch:
        moved.update(RatedGame.objects.values_list("game_id", flat=True))
        _forget_all()
        rated_to = None
    else:
        points = [] if mark.redo_from_at is None else [(mark.redo_from_at, mark.redo_from_game)]
        if game_id is not None:
            points += _redo_points(Game.objects.filter(pk=game_id), rated_to)
        if sweep:
            points += _redo_points(_changed_since(mark.swept_at), rated_to)
        if points:
            rated_to = _rewind(min((at, game or 0) for at, game in points), moved)
    rated, rated_to = _rate_forward(rated_to, moved)
    _moved_on(sorted(moved))
    mark.rated_to_at, mark.rated_to_game = rated_to or (None, None)
    mark.redo_from_at = mark.redo_from_game = None
    if sweep or from_scratch:
        mark.swept_at = now
    mark.save()
    return rated


# --- what needs rating again --------------------------------------------------------------


def _after(key: Key | None) -> Q:
    """Games strictly after `key` in the rating order."""
    if key is None:
        return Q()
    at, game = key
    return Q(finished_at__gt=at) | Q(finished_at=at, pk__gt=game)


def _from(key: Key) -> Q:
    """Rating rows (`RatingChange`, `RatedGame`) at `key` or after it."""
    at, game = key
    return Q(finished_at__gt=at) | Q(finished_at=at, game_id__gte=game)


def _changed_since(swept_at: datetime | None) -> QuerySet[Game]:
    """Games a sweep looks at: finished or rated ones that changed since the last sweep
    (every change of a game saves its `updated_at`), and every finished game not rated
    yet, whatever its dates: an imported night's `updated_at` is its play date, so a
    lost task of its import would otherwise leave it out for good."""
    finished = Q(status=Game.Status.FINISHED)
    games = Game.objects.filter(finished | Q(rated_game__isnull=False))
    if swept_at is not None:
        games = games.filter(
            Q(updated_at__gte=swept_at - SWEEP_SLACK) | finished & Q(rated_game__isnull=True)
        )
    return games


def _redo_points(games: QuerySet[Game], rated_to: Key | None) -> list[Key]:
    """Where the ratings must start again for `games`: a game finished behind the mark
    and never rated, or a rated game whose result or place changed since (or that is no
    longer finished). A game behind the mark that moves nobody is just recorded."""
    points: list[Key] = []
    late: list[RatedGame] = []
    for game in (
        games.defer("state", "recent_moves")
        .select_related("rated_game")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.only(
                    "game_id", "player_id", "is_bot", "resigned", "rank", "accepted"
                ),
            ),
            Prefetch(
                "rating_changes", queryset=RatingChange.objects.only("game_id", "player_id", "rank")
            ),
        )
    ):
        current = _current(game)
        rated = getattr(game, "rated_game", None)
        if rated is None:
            if current is None or rated_to is None or current[0] > rated_to:
                continue  # not finished, or the forward pass takes it in
            if current[1]:
                points.append(current[0])
            else:
                late.append(RatedGame(game=game, finished_at=current[0][0]))
            continue
        was = {(change.player_id, change.rank) for change in game.rating_changes.all()}
        rated_key: Key = (rated.finished_at, game.pk)
        if current is None:
            points.append(rated_key)  # no longer finished: out of the ratings
        elif current[0] != rated_key or set(current[1]) != was:
            points.append(min(rated_key, current[0]))
    RatedGame.objects.bulk_create(late)
    return points


def _current(game: Game) -> tuple[Key, list[tuple[int, int]]] | None:
    """A finished game's place in the order and its people's places; None when the
    ratings should not hold it (not finished)."""
    if game.status != Game.Status.FINISHED or game.finished_at is None:
        return None
    placed = ratings.placings(list(game.seats.all()), rated=game.rated)
    return (game.finished_at, game.pk), [(p.player_id, p.rank) for p in placed]


# --- going back ---------------------------------------------------------------------------


def _forget_all() -> None:
    RatingChange.objects.all().delete()
    RatedGame.objects.all().delete()
    Rating.objects.all().delete()


def _rewind(start: Key, moved: set[int]) -> Key | None:
    """Every rating back to what it was before the game at `start`: the later changes
    and rated games are deleted. Returns the last game still rated (the new mark)."""
    later = RatingChange.objects.filter(_from(start))
    affected = sorted(set(later.order_by().values_list("player_id", flat=True).distinct()))
    for first in range(0, len(affected), BATCH):
        _restore(affected[first : first + BATCH], start)
    later.delete()
    rewound = RatedGame.objects.filter(_from(start))
    moved.update(rewound.values_list("game_id", flat=True))  # rated again, or no longer
    rewound.delete()
    last = RatedGame.objects.order_by("-finished_at", "-game_id").first()
    return None if last is None else (last.finished_at, last.game_id)


def _restore(player_ids: Sequence[int], start: Key) -> None:
    """These players' ratings as they were after their last game before `start` (no
    rating if they had none): mu and sigma after it, and their rated games so far."""
    earlier = RatingChange.objects.filter(player=OuterRef("pk")).exclude(_from(start))
    latest = earlier.order_by("-finished_at", "-game_id")
    restored = Player.objects.filter(pk__in=player_ids).annotate(
        mu=Subquery(latest.values("mu_after")[:1]),
        sigma=Subquery(latest.values("sigma_after")[:1]),
        games=Subquery(earlier.order_by().values("player").annotate(n=Count("pk")).values("n")[:1]),
    )
    rows = [
        Rating(player_id=p.pk, mu=p.mu, sigma=p.sigma, games=p.games)
        for p in restored
        if p.mu is not None
    ]
    Rating.objects.filter(player_id__in=player_ids).delete()
    Rating.objects.bulk_create(rows)


# --- going forward ------------------------------------------------------------------------


def _rate_forward(rated_to: Key | None, moved: set[int]) -> tuple[int, Key | None]:
    """Rate every finished game after `rated_to` that isn't rated yet, in order.
    Returns how many were taken in and the new mark."""
    rows = (
        Game.objects.filter(
            _after(rated_to),
            status=Game.Status.FINISHED,
            finished_at__isnull=False,
            rated_game__isnull=True,
        )
        .order_by("finished_at", "pk")
        .values_list("pk", "finished_at", "rated")
    )
    pending = [(pk, at, rated) for pk, at, rated in rows if at is not None]
    skills: dict[int, Rating] = {}
    for start in range(0, len(pending), BATCH):
        _rate_batch(pending[start : start + BATCH], skills)
    moved.update(pk for pk, _at, _rated in pending)
    if skills:
        Rating.objects.bulk_create(
            skills.values(),
            update_conflicts=True,
            unique_fields=["player"],
            update_fields=["mu", "sigma", "games", "updated_at"],
        )
    if not pending:
        return 0, rated_to
    last_pk, last_at, _rated = pending[-1]
    return len(pending), (last_at, last_pk)


def _rate_batch(batch: Sequence[tuple[int, datetime, bool]], skills: dict[int, Rating]) -> None:
    """Rate these games (in this order), updating `skills` (loaded as players appear)."""
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(game_id__in=[pk for pk, _at, _rated in batch]).only(
        "game_id", "position", "player_id", "is_bot", "resigned", "rank", "accepted"
    ):
        seats.setdefault(seat.game_id, []).append(seat)
    _load(skills, {seat.player_id for rows in seats.values() for seat in rows})
    changes: list[RatingChange] = []
    for pk, finished_at, rated in batch:
        game_seats = sorted(seats.get(pk, []), key=lambda seat: seat.position)
        placed = ratings.placings(game_seats, rated=rated)
        changes.extend(_rate_game(pk, finished_at, placed, skills))
    RatedGame.objects.bulk_create(
        RatedGame(game_id=pk, finished_at=finished_at) for pk, finished_at, _rated in batch
    )
    RatingChange.objects.bulk_create(changes)


def _moved_on(game_ids: Sequence[int]) -> None:
    """These games' rating changes were written or taken away: their `ratings_version`
    one on, which a finished game's kept rating changes are keyed by (its pages' forms
    carry the version, which stays); then the clubs that show them one version on (the
    games' clubs, and every club of the people who sat at them: a club page shows its
    members' ratings), as every change to what a club's pages show does
    (games/scoring.py `bump_club`). At the end of the run, game rows before club rows,
    as a move takes them: the run holds them only until it commits."""
    batches = [game_ids[first : first + BATCH] for first in range(0, len(game_ids), BATCH)]
    for batch in batches:
        Game.objects.filter(pk__in=batch).update(ratings_version=F("ratings_version") + 1)
    for batch in batches:
        of_games = Game.objects.filter(pk__in=batch).values("club_id")
        of_players = ClubMember.objects.filter(user__player__seats__game__in=batch)
        shown = Q(pk__in=of_games) | Q(pk__in=of_players.values("club_id"))
        Club.objects.filter(shown).update(version=F("version") + 1)


def _load(skills: dict[int, Rating], player_ids: Iterable[int]) -> None:
    missing = [pk for pk in player_ids if pk not in skills]
    for start in range(0, len(missing), BATCH):
        for rating in Rating.objects.filter(player_id__in=missing[start : start + BATCH]):
            skills[rating.player_id] = rating


def _rate_game(
    game_id: int,
    finished_at: datetime,
    placed: Sequence[ratings.Placing],
    skills: dict[int, Rating],
) -> list[RatingChange]:
    """One game's rating changes; `skills` holds everyone's rating after it."""
    if not placed:
        return []
    start = ratings.initial()
    before = [_skill(skills.get(p.player_id), start) for p in placed]
    after = ratings.rate(before, [p.rank for p in placed])
    changes = []
    for placing, old, new in zip(placed, before, after, strict=True):
        current = skills.get(placing.player_id)
        games = 1 if current is None else current.games + 1
        skills[placing.player_id] = Rating(
            player_id=placing.player_id, mu=new.mu, sigma=new.sigma, games=games
        )
        changes.append(_change(game_id, finished_at, placing, old, new))
    return changes


def _skill(rating: Rating | None, start: Skill) -> Skill:
    return start if rating is None else Skill(rating.mu, rating.sigma)


def _change(
    game_id: int, finished_at: datetime, placing: ratings.Placing, old: Skill, new: Skill
) -> RatingChange:
    return RatingChange(
        player_id=placing.player_id,
        game_id=game_id,
        finished_at=finished_at,
        rank=placing.rank,
        mu_before=old.mu,
        sigma_before=old.sigma,
        mu_after=new.mu,
        sigma_after=new.sigma,
        ordinal_before=old.ordinal,
        ordinal_after=new.ordinal,
    )


def summary() -> dict[str, Any]:
    """How far the ratings have got (for the command's report)."""
    mark = _mark()
    return {
        "rated_to": _rated_to(mark),
        "games": RatedGame.objects.count(),
        "players": Rating.objects.count(),
        "changes": RatingChange.objects.count(),
    }
