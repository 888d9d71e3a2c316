"""Ratings benchmark: print figures, never assert them.

    python bench/ratings.py [--games 10000] [--players 200] [--seed 1]

Builds a throwaway SQLite database (in a temporary VAR_DIR) with `--games` finished
games among `--players` people (2 to 6 seats each, a tie in one game of eight, a bot
in one of ten, a resignation in one of twenty; seats and ranks only, which is all a
rating reads), then times:

- `recompute_ratings`: every rating from scratch (rewind everything, rate each game in
  finishing order, write the rating changes). Target: under 30 s for 10,000 games.
- one game's task after that (the incremental path: claim, look at the game, rate it).
- a late game: one that finished in the middle of the history, so the ratings rewind
  to it and re-rate everything after it.

"cpu" is this process's CPU time (Python and SQLite, which runs in-process).
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# A private database: the bench never touches var/db.sqlite3 or DATABASE_URL.
os.environ["VAR_DIR"] = tempfile.mkdtemp(prefix="phase10-bench-")
os.environ.pop("DATABASE_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "phase10site.settings")
os.environ["DEBUG"] = "false"  # no query log: it would grow with every insert
os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.models import Game, Player, RatingChange, Seat  # noqa: E402
from games.stats import rating_ledger  # noqa: E402


def build(games: int, players: int, seed: int) -> list[Game]:
    """`games` finished games among `players` people (and one bot), an hour apart."""
    rng = random.Random(seed)
    creator, _new = get_user_model().objects.get_or_create(username="bench")
    people = list(Player.objects.exclude(name="Ada").order_by("pk")[:players])
    if not people:
        people = Player.objects.bulk_create(Player(name=f"P{n}") for n in range(players))
    bot, _new = Player.objects.get_or_create(name="Ada")
    now = timezone.now()
    rows = Game.objects.bulk_create(
        Game(
            mode=Game.Mode.NIGHT if n % 2 else Game.Mode.ONLINE,
            status=Game.Status.FINISHED,
            creator=creator,
            finished_at=now - timedelta(hours=games - n),
        )
        for n in range(games)
    )
    seats = []
    for n, game in enumerate(rows):
        seated = rng.sample(people, rng.randint(2, 6))
        ranks = list(range(1, len(seated) + 1))
        if n % 8 == 0:
            ranks[-1] = ranks[-2]  # a tie for the last place
        for position, (person, rank) in enumerate(zip(seated, ranks, strict=True)):
            resigned = n % 20 == 0 and position == 0
            seats.append(
                Seat(
                    game=game,
                    position=position,
                    player=person,
                    rank=rank,
                    is_bot=resigned,
                    resigned=resigned,
                )
            )
        if n % 10 == 0:
            seats.append(Seat(game=game, position=len(seated), player=bot, is_bot=True, rank=1))
    Seat.objects.bulk_create(seats, batch_size=2000)
    return rows


def timed(label: str, call):  # type: ignore[no-untyped-def]
    start, start_cpu = time.perf_counter(), time.process_time()
    result = call()
    wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    print(f"  {label:44} {wall:7.2f} s wall  {cpu:7.2f} s cpu  ({result} games rated)")
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    games = build(args.games, args.players, args.seed)
    seats = Seat.objects.count()
    print(
        f"{args.games} finished games, {seats} seats among {args.players} people, built in "
        f"{time.perf_counter() - start:.1f} s ({connection.vendor})"
    )
    timed("recompute_ratings (from scratch)", lambda: rating_ledger.run(from_scratch=True))
    print(f"    {RatingChange.objects.count()} rating changes written")
    again = {n: v for n, v in enumerate(RatingChange.objects.values_list("mu_after", flat=True))}

    new = build(1, args.players, args.seed + 1)[0]
    timed("one more game's task (incremental)", lambda: rating_ledger.run(new.pk))
    timed("the same task again (nothing to do)", lambda: rating_ledger.run(new.pk))

    middle = games[len(games) // 2]
    late = Game.objects.create(
        mode=Game.Mode.NIGHT,
        status=Game.Status.FINISHED,
        creator=middle.creator,
        finished_at=middle.finished_at + timedelta(minutes=30),
    )
    people = list(Player.objects.exclude(name="Ada")[:3])
    Seat.objects.bulk_create(
        Seat(game=late, position=n, player=p, rank=n + 1) for n, p in enumerate(people)
    )
    timed("a late game from the middle (rewind, re-rate)", lambda: rating_ledger.run(late.pk))

    Game.objects.filter(pk__in=[new.pk, late.pk]).delete()
    rating_ledger.run(from_scratch=True)
    same = {n: v for n, v in enumerate(RatingChange.objects.values_list("mu_after", flat=True))}
    print(f"  recomputed twice, identical numbers: {same == again}")


if __name__ == "__main__":
    main()
