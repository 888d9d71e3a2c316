"""A game night's rounds entered one after another, in process: what each answer costs and
weighs, the middle rounds against the round that ends the night.

    .venv/bin/python bench/night_rounds.py [--nights 20]

The way bench/web.py's round-entry client plays (issue 12): a scorer enters rounds on
nights three rounds in, where only the player going out completes a phase, until each
night ends (some thirty rounds), POSTed as the HTMX round form posts them and answered
with the night's game. In process (Django's test client; no gunicorn, no socket), on
PostgreSQL like web.py (DATABASE_URL, else the `phase10` role on 127.0.0.1; its own
database, dropped at the end) with Redis as the broker (database 15, emptied at the end).
Prints each kind of round's thread CPU per request (median and mean) and the answer's
size by round number: a night's answer should not grow with its rounds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]

import web  # noqa: E402  (bench/web.py: the same data and set-up)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=20)
    args = parser.parse_args()
    web._check_redis()
    base_url = os.environ.get("DATABASE_URL") or web.DEFAULT_DATABASE_URL
    bench_url = web._with_database(base_url, urlsplit(base_url).path.lstrip("/") + "_roundsbench")
    os.environ.update(web._environment(bench_url))
    os.environ["ALLOWED_HOSTS"] = "testserver"  # Django's test client
    web._recreate_database(base_url, bench_url)
    try:
        web._migrate()
        _measure(args.nights)
    finally:
        web._flush_broker()
        web._drop_database(base_url, bench_url)


def _measure(nights: int) -> None:
    import django

    warnings.filterwarnings("ignore", "No directory at", UserWarning)
    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from phase10site.celery import app

    app.conf.task_always_eager = False
    scorer = get_user_model().objects.create_user(web.SCORER, password="x")
    client = Client(headers={"HX-Request": "true"})
    client.force_login(scorer)
    to_score = [web._scored_night(scorer, f"Night {n}") for n in range(nights + 1)]
    # The first night warms the templates and the caches up; it isn't counted.
    _play(client, to_score[0], {}, {})
    cpu: dict[str, list[float]] = {"a round in the middle": [], "the round that ends it": []}
    sizes: dict[int, list[int]] = {}
    for night in to_score[1:]:
        _play(client, night, cpu, sizes)
    print(f"{nights} nights of {web.MEMBERS} players, in process (test client), PostgreSQL")
    print(f"{'round':24} {'n':>5} {'median ms':>10} {'mean ms':>8}")
    for kind, times in cpu.items():
        print(
            f"{kind:24} {len(times):5d} {statistics.median(times):10.2f}"
            f" {statistics.mean(times):8.2f}"
        )
    share = sum(cpu["the round that ends it"]) / sum(sum(t) for t in cpu.values())
    print(f"the rounds that end a night: {share:.1%} of all the rounds' CPU")
    print("answer's size by round number (KB):")
    numbers = sorted(sizes)
    picked = [n for n in numbers if n in (4, 5, 10, 15, 20, 25, 30) or n == numbers[-1]]
    print("  " + ", ".join(f"{n}: {statistics.mean(sizes[n]) / 1024:.1f}" for n in picked))


def _play(client, night, cpu: dict[str, list[float]], sizes: dict[int, list[int]]) -> None:  # type: ignore[no-untyped-def]
    path = f"/nights/{night.public_id}/rounds/"
    while True:
        entry = web._entry(night.rounds, web.MEMBERS, also=False)
        data = {"version": night.version, "went_out": entry.went_out}
        data |= {f"points_{seat}": points for seat, points in enumerate(entry.points)}
        data |= {f"completed_{seat}": "on" for seat in entry.completed}
        started = time.thread_time()
        answer = client.post(path, data)
        spent = (time.thread_time() - started) * 1000
        text = answer.content.decode()
        if answer.status_code != 200 or "saved." not in text:
            raise RuntimeError(f"round {night.rounds + 1} refused: {text[:300]}")
        number = night.rounds + 1
        sizes.setdefault(number, []).append(len(answer.content))
        over = 'name="went_out"' not in text  # no round form: the night has ended
        if cpu:
            cpu["the round that ends it" if over else "a round in the middle"].append(spent)
        if over:
            return
        version = web._Scorer.VERSION.search(text)
        assert version is not None
        night.version, night.rounds = int(version.group(1)), number


if __name__ == "__main__":
    main()
