"""Stats page benchmark: print figures, never assert them.

    python bench/stats.py [--games 500] [--requests 30]

Builds a throwaway SQLite database (in a temporary VAR_DIR) with one player's
`--games` finished games (tests/stats/factories.bulk_history: two players,
six rounds each), then times the whole stats request through Django's test
client (middleware, queries, template, charts) and counts its queries.
Target: under 100 ms for 500 games. Wall-clock time includes waiting for the CPU
on a busy machine; "cpu" (this process's CPU time: Python and SQLite, which runs
in-process) is what the page itself costs.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# A private database: the bench never touches var/db.sqlite3 or DATABASE_URL.
os.environ["VAR_DIR"] = tempfile.mkdtemp(prefix="phase10-bench-")
os.environ.pop("DATABASE_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "phase10site.settings")
# Production-like: with DEBUG on, Django also records (and, on SQLite, quotes with
# an extra round trip) every query, which is not what users wait for.
os.environ["DEBUG"] = "false"
os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)
os.environ["SECURE_SSL_REDIRECT"] = "false"
os.environ["STATIC_MANIFEST"] = "false"
# Django's test client calls itself "testserver". (No setup_test_environment():
# its instrumented template rendering would slow the page it measures.)
os.environ["ALLOWED_HOSTS"] = "testserver"

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from games.models import Player  # noqa: E402
from games.stats import rating_ledger  # noqa: E402
from tests.stats.factories import bulk_history  # noqa: E402


def time_page(client: Client, url: str, params: dict[str, str], requests: int) -> None:
    for _ in range(3):  # warm caches: templates, URL resolver, SQLite pages
        client.get(url, params)
    timings, cpu = [], []
    for _ in range(requests):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url, params)
        timings.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        assert response.status_code == 200
    with CaptureQueriesContext(connection) as queries:
        client.get(url, params)
    timings.sort()
    label = "&".join(f"{k}={v}" for k, v in params.items()) or "(all games)"
    print(
        f"  {url:28} {label:22} median {statistics.median(timings):6.1f} ms  "
        f"p90 {timings[int(len(timings) * 0.9) - 1]:6.1f} ms  min {timings[0]:6.1f} ms  "
        f"cpu {statistics.median(cpu):6.1f} ms  "
        f"{len(queries)} queries  {len(response.content) // 1024} KiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--requests", type=int, default=30)
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    User = get_user_model()
    alice = User.objects.create_user("alice", "alice@example.com", "x")
    bob = User.objects.create_user("bob", "bob@example.com", "x")
    start = time.perf_counter()
    bulk_history([Player.for_user(alice), Player.for_user(bob)], args.games)
    print(
        f"{args.games} finished games, 2 seats x 6 rounds each, built in "
        f"{time.perf_counter() - start:.1f} s (SQLite, {connection.vendor})"
    )
    # Rated, as the task would have done game by game: the pages show the rating section.
    rating_ledger.run(from_scratch=True)
    client = Client()
    client.force_login(alice)
    stats_url = reverse("games:stats")
    time_page(client, stats_url, {}, args.requests)
    time_page(client, stats_url, {"mode": "night", "period": "year"}, args.requests)
    # The variant filter reads Game.rules with JSON lookups (every fifth game all-advance).
    time_page(client, stats_url, {"variant": "standard"}, args.requests)
    time_page(client, stats_url, {"variant": "all_advance"}, args.requests)
    bob_url = reverse("games:player_stats", args=[Player.for_user(bob).pk])
    time_page(client, bob_url, {}, args.requests)
    time_page(client, reverse("games:leaderboard"), {}, args.requests)
    time_page(client, reverse("games:leaderboard"), {"sort": "rating"}, args.requests)
    time_page(client, reverse("games:leaderboard"), {"variant": "standard"}, args.requests)


if __name__ == "__main__":
    main()
