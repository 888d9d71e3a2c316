"""New-night form and TV view benchmark: print figures, never assert them.

    python bench/night_setup.py [--nights 300] [--requests 30]

Builds a throwaway SQLite database (in a temporary VAR_DIR) where alice has scored
`--nights` game nights, each with two members and two guests of her own (half of the
guests sharing a name with another, so their labels need their last night), then times
the new-night form (whose seat lists offer the 40 she played with last), the TV view of a
six-player night and its unchanged poll, and counts their queries.
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
os.environ["DEBUG"] = "false"
os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)
os.environ["SECURE_SSL_REDIRECT"] = "false"
os.environ["STATIC_MANIFEST"] = "false"
os.environ["ALLOWED_HOSTS"] = "testserver"

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import reverse  # noqa: E402

from games.engine import Rules  # noqa: E402
from games.models import Player  # noqa: E402
from games.nights import seating  # noqa: E402
from games.nights import services as nights  # noqa: E402
from games.nights.scoreboard import RoundEntry  # noqa: E402


def time_page(client: Client, url: str, requests: int, status: int = 200) -> None:
    for _ in range(3):  # warm caches: templates, URL resolver, SQLite pages
        client.get(url)
    timings, cpu = [], []
    for _ in range(requests):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        timings.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        assert response.status_code == status, response.status_code
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    timings.sort()
    print(
        f"  {url[:44]:44} median {statistics.median(timings):6.1f} ms  "
        f"p90 {timings[int(len(timings) * 0.9) - 1]:6.1f} ms  "
        f"cpu {statistics.median(cpu):6.1f} ms  {len(queries)} queries  "
        f"{len(response.content) // 1024} KiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=300)
    parser.add_argument("--requests", type=int, default=30)
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    User = get_user_model()
    alice = User.objects.create_user("alice", "alice@example.com", "x")
    me = Player.for_user(alice)
    start = time.perf_counter()
    for number in range(args.nights):
        members = [
            Player.for_user(User.objects.create_user(f"m{number}-{n}", f"m{number}-{n}@x.org"))
            for n in range(2)
        ]
        twin = Player.objects.create(name=f"Rose {number // 2}", created_by=alice)
        nights.create_game(
            alice,
            players=[me, *members, twin, f"Guest {number}"],
            first_dealer=0,
            rules=Rules(),
        )
    six = nights.create_game(
        alice, players=[me, "Ann", "Bo", "Cy", "Di", "Ed"], first_dealer=0, rules=Rules()
    )
    for number in range(20):
        out = number % 6
        entry = RoundEntry(
            went_out=out,
            points=tuple(0 if seat == out else 5 * (seat + 1) for seat in range(6)),
            completed={out: None},
        )
        six = nights.add_round(six, entry, version=six.version)
    known = len(seating.known_players(alice))
    print(
        f"{args.nights} nights, {known} people and guests known, built in "
        f"{time.perf_counter() - start:.1f} s (SQLite)"
    )
    client = Client()
    client.force_login(alice)
    time_page(client, reverse("games:night_create"), args.requests)
    viewer = Client()
    tv = reverse("games:night_tv", args=[six.share_token])
    time_page(viewer, tv, args.requests)
    live = reverse("games:night_tv_live", args=[six.share_token])
    time_page(viewer, f"{live}?version={six.version}", args.requests, status=204)


if __name__ == "__main__":
    main()
