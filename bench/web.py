"""Every page people use, under load: gunicorn + PostgreSQL + Redis on this machine.

    python bench/web.py [--seconds 5] [--rounds 3] [--connections 8] [--workers 4]
                        [--others 10000] [--explain] [--breakdown] [--only PAGE]

Prints figures, asserts nothing. The data is what players have, not a fresh install:
four members with turn emails on and verified addresses (so a move writes an outbox row
and publishes it to Redis for real), 4-seat online games 150+ moves in, a rated 500-game
history, game nights finished and in progress — and, for the second half of the run,
`--others` (10,000) other people's games in the database.

Each page is compared with a bare view on the same stack (bench/web_site.py: logged in,
same middleware and session, one query, no template), so the ratios say what the page
itself costs. With wrk (`apt-get install wrk`) against the bare view under wrk:

- table page: GET of an online game by the player whose turn it is (4 seats, 150+ moves);
- unchanged poll: GET of the table's poll URL with the current version: 204;
- my games (/play/), game nights (/nights/), a game night's page (a finished night:
  scoreboard, rounds, QR code and score chart), the live scoreboard (/s/<token>/, a
  night in progress, as a visitor without an account), stats (/accounts/stats/, 500
  finished games).

From a small threaded Python client, against the bare view under the same client
(each request needs the answer to the one before it):

- action: a real draw or discard through the table's form, answered with the board, on
  4-seat games 150+ moves in; the turn goes round the four members, so every discard
  writes a turn email to the outbox and hands it to Redis;
- round entry: a round POSTed on a game night in progress (HTMX, as the form does),
  answered with the fresh scoreboard.

The measurements run in rounds, interleaved, and each page is measured between two
measurements of its bare view: its ratio is to those two together (the yardstick), so
the host's drift over a round (this shared machine's speed moves by a third within a
minute) hits a page and its yardstick alike. The server
CPU per request (gunicorn workers + PostgreSQL backends, from /proc) moves much less
with other people's load than requests per second do. Then the whole run is repeated
with the other games added, and each page's slowdown printed; `--explain` also prints
PostgreSQL's plans (EXPLAIN ANALYZE) of the list pages' queries, before and after.

Targets (issue 12): table ≥ 0.5, action ≥ 0.4, unchanged poll ≥ 0.9, my games, game
nights, a game night's page and the live scoreboard ≥ 0.5, round entry ≥ 0.4 of the
bare view; stats p50 ≤ 100 ms (one connection, 500 games); no page more than 1.2×
slower with the other games.

Needs PostgreSQL (DATABASE_URL, default the local phase10 role: see .ci/run) and Redis
on 127.0.0.1:6379 (`redis-server --daemonize yes --port 6379 --bind 127.0.0.1 --save ''`).
The bench creates its own database, `<name>_webbench`, and drops it at the end; it uses
Redis database 15 and empties it. Everything listens on and connects to 127.0.0.1 only;
every run is bounded in time and requests (about 13 minutes at the defaults).
"""

from __future__ import annotations

import argparse
import http.client
import os
import queue
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE_URL = "postgres://phase10:phase10@127.0.0.1:5432/phase10"
BROKER_URL = "redis://127.0.0.1:6379/15"
MEMBERS = 4  # bench0 … bench3: every seat of the online games, bench0 the viewer
SCORER = f"bench{MEMBERS - 1}"  # keeps the score of the nights the round-entry client plays
HISTORY_GAMES = 500  # bench0's finished games (the stats page)
CLUB_MEMBERS = 50  # the bench club: bench0 (its viewer) and 49 others
CLUB_GAMES = 1_000  # the club's finished game nights, over the last eighteen months
CLUB_ROUNDS = 10
TABLE_MOVES = 150
MAX_REQUESTS = 20_000  # a hard bound on each Python-client measurement
STATS_SAMPLES = 20  # one-connection requests of the stats page, per half
TARGETS = {
    "table page": 0.5,
    "unchanged poll": 0.9,
    "my games": 0.5,
    "game nights": 0.5,
    "a game night's page": 0.5,
    "live scoreboard": 0.5,
    "action": 0.4,
    "round entry": 0.4,
    "club page": 0.5,
    "club's year": 0.5,
}
STATS_P50_TARGET_MS = 100
SLOWDOWN_TARGET = 1.2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="measurements of each, interleaved")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--others", type=int, default=10_000, help="other people's games")
    parser.add_argument("--explain", action="store_true", help="print the list queries' plans")
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="also print each request's CPU inside the app, and its parts (bench/breakdown.py)",
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="PAGE",
        help="measure only the page of this printed name, quoted (repeatable), and its "
        "yardstick; --others 0 skips the half with the other games",
    )
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")
    _check_redis()

    base_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    bench_url = _with_database(base_url, urlsplit(base_url).path.lstrip("/") + "_webbench")
    os.environ.update(_environment(bench_url))
    _recreate_database(base_url, bench_url)
    server = None
    breakdown: Path | None = None
    try:
        _migrate()
        started = time.monotonic()
        fixtures = _set_up(args)
        _vacuum(bench_url)
        print(f"set-up: {time.monotonic() - started:.0f} s")
        port = _free_port()
        if args.breakdown:
            breakdown = Path(tempfile.mkdtemp(prefix="breakdown-"))
        server = _start_gunicorn(port, args.workers, breakdown)
        origin = f"http://127.0.0.1:{port}"
        _wait_until_up(origin)
        cpu = ServerCpu(server.pid, urlsplit(bench_url).path.lstrip("/"), base_url)
        _describe(fixtures, args)
        _warm_up(origin, fixtures, args)
        players = [_Seats(origin, fixtures, game) for game in fixtures.act_games]
        half = ("without other games", origin, fixtures, args, cpu, players)
        without = _run_half(*half, fixtures.nights[0])
        if args.explain:
            _explain(fixtures, "without other games")
        if not args.others:
            return
        started = time.monotonic()
        _add_other_games(args.others)
        _vacuum(bench_url)
        print(f"\n{args.others:,} other games added in {time.monotonic() - started:.0f} s")
        _warm_up(origin, fixtures, args)
        others = f"with {args.others:,} other games"
        with_others = _run_half(others, *half[1:], fixtures.nights[1])
        if args.explain:
            _explain(fixtures, others)
        _print_slowdown(without, with_others, args)
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)
            if breakdown is not None:
                from breakdown import report  # bench/breakdown.py, beside this file

                report(breakdown)
                shutil.rmtree(breakdown)
        _flush_broker()
        _drop_database(base_url, bench_url)


# --- set-up -----------------------------------------------------------------------------------


def _check_redis() -> None:
    try:
        import redis

        redis.Redis.from_url(BROKER_URL, socket_connect_timeout=1).ping()
    except Exception as error:
        sys.exit(
            f"Redis is needed at {BROKER_URL} ({error}): "
            "redis-server --daemonize yes --port 6379 --bind 127.0.0.1 --save ''"
        )


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def _environment(database_url: str) -> dict[str, str]:
    return {
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "web_site",
        "PYTHONPATH": os.pathsep.join([str(ROOT / "bench"), str(ROOT)]),
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "STATIC_MANIFEST": "false",
        "CELERY_BROKER_URL": BROKER_URL,
        "VAR_DIR": tempfile.mkdtemp(prefix="phase10-webbench-"),
        "LOG_LEVEL": "WARNING",
        # whitenoise's note that `collectstatic` never ran: no static file is measured.
        "PYTHONWARNINGS": "ignore:No directory at:UserWarning",
    }


def _migrate() -> None:
    """The bench database (DATABASE_URL, set by `_environment`) migrated, as a deploy does."""
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env={**os.environ},
        check=True,
    )


def _admin_connection(base_url: str):  # type: ignore[no-untyped-def]
    import psycopg

    parts = urlsplit(base_url)
    return psycopg.connect(
        host=parts.hostname,
        port=parts.port or 5432,
        user=parts.username,
        password=parts.password,
        dbname=parts.path.lstrip("/"),
        autocommit=True,
    )


def _recreate_database(base_url: str, bench_url: str) -> None:
    name = urlsplit(bench_url).path.lstrip("/")
    with _admin_connection(base_url) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def _drop_database(base_url: str, bench_url: str) -> None:
    name = urlsplit(bench_url).path.lstrip("/")
    with _admin_connection(base_url) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _flush_broker() -> None:
    try:
        import redis

        redis.Redis.from_url(BROKER_URL).flushdb()
    except Exception as error:  # the bench result stands; say what was left behind
        print(f"(could not empty {BROKER_URL}: {error})")


@dataclass
class Night:
    """A game night the round-entry client scores; SCORER keeps its score."""

    public_id: str
    version: int
    rounds: int


@dataclass
class Fixtures:
    cookies: dict[str, str]  # username -> Cookie header
    csrf: str
    table_url: str
    poll_url: str
    table_moves: int
    act_games: list[tuple[str, str, int]]  # public id, whose turn, move number
    night_url: str  # a finished night
    night_rounds: int
    share_url: str  # a night in progress
    nights: tuple[list[Night], list[Night]]  # to score, one list per half
    history: int = HISTORY_GAMES
    viewer_id: int = 0
    club_url: str = ""  # the bench club's page, CLUB_MEMBERS members, CLUB_GAMES games
    club_year_url: str = ""  # its year in review, this year
    # The statements' yardsticks (bench/web_urls.py): floor0's online games and nights.
    move_floors: list[str] = field(default_factory=list)
    round_floors: list[str] = field(default_factory=list)


def _set_up(args: argparse.Namespace) -> Fixtures:
    """Members, sessions, online games and game nights, made through the services."""
    import django

    sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
    warnings.filterwarnings("ignore", "No directory at", UserWarning)  # as for gunicorn
    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse
    from django.utils import timezone

    from games.models import Player
    from games.online import services
    from games.stats import rating_ledger
    from phase10site.celery import app
    from tests.stats.factories import bulk_history

    # The set-up plays moves too; no worker runs, so what it publishes waits in Redis.
    app.conf.task_always_eager = False
    members: list[Any] = []
    floor_members: list[Any] = []
    for name in [f"bench{n}" for n in range(MEMBERS)] + [f"floor{n}" for n in range(MEMBERS)]:
        user = get_user_model().objects.create_user(name, email=f"{name}@example.com", password="x")
        profile = user.profile
        # Turn emails on (the default), a verified address and no quiet hours, so every
        # turn that starts writes an outbox row and publishes it at once.
        profile.email_verified, profile.quiet_hours, profile.language = True, False, "en"
        profile.save()
        (members if name.startswith("bench") else floor_members).append(user)
    csrf = secrets.token_hex(16)  # an unmasked 32-character CSRF secret
    cookies: dict[str, str] = {}
    for user in members + floor_members:
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        cookies[user.username] = (
            f"{settings.SESSION_COOKIE_NAME}={session}; {settings.CSRF_COOKIE_NAME}={csrf}"
        )

    table = _play_until(_online_game(members, "Bench table", seed=11), TABLE_MOVES)
    act_games = []
    for n in range(args.connections):
        game = _play_until(_online_game(members, f"Bench {n}", seed=100 + n), TABLE_MOVES)
        current = services.load_state(game).current_seat
        user = game.seats.get(position=current).player.user.username
        act_games.append((game.public_id, user, game.move_number))

    # The statements' yardsticks play on games and nights of their own, of other members
    # (floor0 …), so that nothing of bench0's lists or stats grows with them.
    move_floors = [
        _play_until(_online_game(floor_members, f"Floor {n}", seed=200 + n), TABLE_MOVES).public_id
        for n in range(args.connections)
    ]
    round_floors = [
        _scored_night(floor_members[0], f"Floor night {n}").public_id
        for n in range(args.connections)
    ]

    bulk_history([Player.for_user(members[0]), Player.for_user(members[1])], HISTORY_GAMES)
    club = _club(members[0])
    # Rated, as a member's finished games are: the stats page draws its rating section
    # (the rating, its chart, the opponents gained and lost most against) from these,
    # the club's pages their ratings and climbs.
    rating_ledger.run()

    finished = _night(members[0], "Finished night", until_over=True)
    live = _night(members[0], "Live night", rounds=8)
    # About thirty rounds each: enough for every round-entry measurement of a half at
    # some 100 rounds a second (the client stops with "ran out of nights" otherwise).
    # SCORER's, not bench0's: the nights the first half finishes would otherwise join
    # bench0's stats and lists and make the second half's pages slower for that alone.
    per_half = max(160, 20 * args.connections)
    scorer = members[MEMBERS - 1]
    nights = [
        [_scored_night(scorer, f"Night {half}-{n}") for n in range(per_half)] for half in range(2)
    ]
    return Fixtures(
        cookies=cookies,
        csrf=csrf,
        table_url=reverse("games:online_detail", args=[table.public_id]),
        poll_url=reverse("games:online_poll", args=[table.public_id]) + f"?v={table.version}",
        table_moves=table.move_number,
        act_games=act_games,
        night_url=finished.get_absolute_url(),
        night_rounds=finished.rounds_played,
        share_url=reverse("games:night_share", args=[live.share_token]),
        nights=(nights[0], nights[1]),
        viewer_id=members[0].pk,
        club_url=reverse("games:club_detail", args=[club.public_id]),
        club_year_url=reverse("games:club_year", args=[club.public_id, timezone.now().year]),
        move_floors=move_floors,
        round_floors=round_floors,
    )


def _online_game(members, name: str, *, seed: int):  # type: ignore[no-untyped-def]
    """A 4-seat game of the members, bench0 in seat 0, joined through the invite link."""
    from games.online import lobby

    game = lobby.create_game(members[0], name=name, seats=MEMBERS)
    for user in members[1:]:
        lobby.join(game, user, game.invite_token)
    return lobby.start_game(game, members[0], seed=seed)


def _play_until(game, moves: int):  # type: ignore[no-untyped-def]
    """Absent-player turns (the time limit's) until bench0 is to draw, `moves` moves in."""
    from games.online import services

    for _n in range(10_000):
        game.refresh_from_db()
        state = services.load_state(game)
        if state.current_seat == 0 and not state.drawn and game.move_number >= moves:
            return game
        services.play_turn(game, expected_move=game.move_number, for_person=True)
    raise RuntimeError("the bench game never came back to seat 0")


def _entry(number: int, seats: int, *, also: bool):  # type: ignore[no-untyped-def]
    """Round `number`: its player goes out with their phase; with `also`, the next one
    completes theirs too. Points are multiples of 5 that a hand can hold."""
    from games.nights.scoreboard import RoundEntry

    out = number % seats
    completed = {out: None, (out + 1) % seats: None} if also else {out: None}
    points = tuple(0 if seat == out else 5 * ((seat + number) % 9 + 1) for seat in range(seats))
    return RoundEntry(went_out=out, points=points, completed=completed)


def _night(user, name: str, *, rounds: int = 0, until_over: bool = False):  # type: ignore[no-untyped-def]
    """bench0 and three guests; two phases completed a round, so it ends near round 20."""
    from games.engine import Rules
    from games.models import Game, Player
    from games.nights import services

    players = [Player.for_user(user), f"{name} Ann", f"{name} Ben", f"{name} Cid"]
    game = services.create_game(user, players=players, first_dealer=0, rules=Rules(), name=name)
    number = 0
    while (until_over and game.status != Game.Status.FINISHED) or number < rounds:
        game = services.add_round(game, _entry(number, 4, also=True), version=game.version)
        number += 1
    return game


def _scored_night(user, name: str) -> Night:  # type: ignore[no-untyped-def]
    """A night three rounds in where only the player going out completes a phase: some
    thirty rounds are left to enter before anyone completes phase 10."""
    from games.engine import Rules
    from games.models import Player
    from games.nights import services

    players = [Player.for_user(user), f"{name} Ann", f"{name} Ben", f"{name} Cid"]
    game = services.create_game(user, players=players, first_dealer=0, rules=Rules(), name=name)
    for number in range(3):
        game = services.add_round(game, _entry(number, 4, also=False), version=game.version)
    return Night(game.public_id, game.version, 3)


def _club(viewer):  # type: ignore[no-untyped-def]
    """The bench club: `viewer` (who plays none of its games, so the other pages measure
    what they did before) and CLUB_MEMBERS - 1 others, five of the club's guests, and
    CLUB_GAMES finished game nights of four, CLUB_ROUNDS rounds each, over eighteen months."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.models import Club, ClubMember, Game, Player, RoundScore, Seat

    club = Club.objects.create(name="Bench club", created_by=viewer)
    others = [
        get_user_model().objects.create_user(f"clubber{n}", email=f"clubber{n}@example.com")
        for n in range(CLUB_MEMBERS - 1)
    ]
    ClubMember.objects.bulk_create(
        [ClubMember(club=club, user=viewer, is_admin=True)]
        + [ClubMember(club=club, user=user) for user in others]
    )
    players = [Player.for_user(user) for user in others]
    players += Player.objects.bulk_create(
        Player(name=f"Guest {n}", created_by=others[0]) for n in range(5)
    )
    now = timezone.now()
    rows = [_club_rounds(position) for position in range(4)]
    games = Game.objects.bulk_create(
        Game(
            mode=Game.Mode.NIGHT,
            name=f"Club night {n}",
            status=Game.Status.FINISHED,
            club=club,
            # A member who keeps the score, not the viewer: bench0's own lists stay as
            # they were.
            creator=others[0],
            rounds_played=CLUB_ROUNDS,
            finished_at=now - timedelta(hours=13 * n),
            winner=players[(n * 7) % len(players)],
        )
        for n in range(CLUB_GAMES)
    )
    seats = Seat.objects.bulk_create(
        Seat(
            game=game,
            position=position,
            player=players[(n * 7 + position * 13) % len(players)],
            rank=position + 1,
            is_winner=position == 0,
            phases_completed=sum(
                completed for _phase, completed, _points, _total in rows[position]
            ),
            score=rows[position][-1][3],
        )
        for n, game in enumerate(games)
        for position in range(4)
    )
    scores = [
        RoundScore(
            game_id=seat.game_id,
            seat=seat,
            player_id=seat.player_id,
            round_number=number,
            phase_attempted=phase,
            phase_completed=phase if completed else None,
            points=points,
            went_out=points == 0,
            total=total,
        )
        for seat in seats
        for number, (phase, completed, points, total) in enumerate(rows[seat.position], start=1)
    ]
    RoundScore.objects.bulk_create(scores, batch_size=5000)
    return club


def _club_rounds(position: int) -> list[tuple[int, bool, int, int]]:
    """The rounds of the seat at `position` in every bench club night: (phase tried,
    completed, points, running total). Seat 0 completes a phase each round and goes
    out; the others fewer and fewer, so the places follow the seats."""
    rows, phase, total = [], 1, 0
    for number in range(1, CLUB_ROUNDS + 1):
        completed = phase <= 10 and (number + position) % (position + 1) == 0
        points = 0 if position == 0 else 5 * (position + number % 4)
        total += points
        rows.append((phase, completed, points, total))
        phase += completed
    return rows


def _add_other_games(count: int) -> None:
    """`count` games of 400 other people, none with a bench member: online ones in play
    (with an engine snapshot) and finished, game nights in progress and finished, four
    seats each and six rounds of scores on the finished ones."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.utils import timezone

    from games.models import Game, Player, RoundScore, Seat

    User = get_user_model()
    password = make_password(None)
    users = User.objects.bulk_create(
        User(username=f"other{n}", email=f"other{n}@example.com", password=password)
        for n in range(400)
    )
    players = Player.objects.bulk_create(Player(user=user, name=user.username) for user in users)
    sample = Game.objects.filter(mode=Game.Mode.ONLINE, status=Game.Status.ACTIVE).first()
    state = sample.state if sample is not None else None
    now = timezone.now()
    games = []
    for n in range(count):
        online = n % 2 == 0
        playing = n % 5 == 0
        games.append(
            Game(
                mode=Game.Mode.ONLINE if online else Game.Mode.NIGHT,
                name=f"Other {n}",
                status=Game.Status.ACTIVE if playing else Game.Status.FINISHED,
                creator=users[n % len(users)],
                rounds_played=6,
                finished_at=None if playing else now - timedelta(hours=n),
                winner=None if playing else players[n % len(players)],
                state=state if online and playing else None,
                move_number=TABLE_MOVES if online and playing else 0,
                current_player=players[n % len(players)] if online and playing else None,
                turn_started_at=now - timedelta(minutes=n) if online and playing else None,
            )
        )
    games = Game.objects.bulk_create(games, batch_size=1000)
    seats = Seat.objects.bulk_create(
        (
            Seat(
                game=game,
                position=position,
                player=players[(n + position * 97) % len(players)],
                score=25 * position,
                phases_completed=6 - position,
                is_winner=game.status == Game.Status.FINISHED and position == 0,
            )
            for n, game in enumerate(games)
            for position in range(4)
        ),
        batch_size=2000,
    )
    scores = (
        RoundScore(
            game_id=seat.game_id,
            seat=seat,
            player_id=seat.player_id,
            round_number=number,
            phase_attempted=number,
            phase_completed=number if seat.position < 2 else None,
            points=5 * seat.position,
            went_out=seat.position == 0,
            total=5 * seat.position * number,
        )
        for seat in seats
        if seat.game.status == Game.Status.FINISHED
        for number in range(1, 7)
    )
    RoundScore.objects.bulk_create(scores, batch_size=5000)


def _vacuum(bench_url: str) -> None:
    """VACUUM ANALYZE, as autovacuum would do after such a load, so that each half is
    planned with statistics of its own data."""
    with _admin_connection(bench_url) as connection:
        connection.execute("VACUUM ANALYZE")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start_gunicorn(port: int, workers: int, breakdown: Path | None) -> subprocess.Popen[bytes]:
    command = [
        str(Path(sys.executable).parent / "gunicorn"),
        "phase10site.wsgi:application",
        f"--bind=127.0.0.1:{port}",
        f"--workers={workers}",
        "--worker-class=sync",
        "--log-level=warning",
        "--timeout=60",
    ]
    environment = {**os.environ}
    if breakdown is not None:
        command.append(f"--config={Path(__file__).with_name('breakdown.py')}")
        environment["BREAKDOWN_DIR"] = str(breakdown)
    return subprocess.Popen(command, cwd=ROOT, env=environment, start_new_session=True)


def _wait_until_up(origin: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection(urlsplit(origin).netloc, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)  # waiting for a server to start, not timing anything
    raise RuntimeError("gunicorn did not answer /healthz in 30 s")


# --- measuring ----------------------------------------------------------------------------------


@dataclass
class Result:
    name: str
    requests: int
    seconds: float
    p50_ms: float
    p95_ms: float
    errors: int = 0
    cpu_seconds: float = 0.0  # gunicorn workers + PostgreSQL backends, during the run
    db_cpu_seconds: float = 0.0  # the PostgreSQL backends' share of it
    note: str = ""
    broker_connections: int = 0  # new connections Redis accepted during the run
    # A page's yardstick: its baseline measured just before and just after it, as one.
    yardstick: Result | None = None

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def cpu_ms(self) -> float:
        return self.cpu_seconds * 1000 / self.requests if self.requests else 0.0

    @property
    def db_cpu_ms(self) -> float:
        return self.db_cpu_seconds * 1000 / self.requests if self.requests else 0.0


class ServerCpu:
    """CPU time used by the server side (gunicorn's workers, PostgreSQL's backends for
    the bench database), read from /proc. On a shared machine the other processes'
    load changes the throughput from one second to the next; CPU time per request
    does not depend on it nearly as much."""

    def __init__(self, gunicorn_pid: int, database: str, base_url: str) -> None:
        self.gunicorn_pid = gunicorn_pid
        self.database = database
        self.base_url = base_url
        self.ticks = os.sysconf("SC_CLK_TCK")
        # Each process's ticks when last read, by pid and start time: a PostgreSQL backend
        # that ends (the pool closes a connection) keeps what it had used when last read,
        # rather than taking it out of the sum and making a measurement's CPU negative.
        # What it used after that read is lost: the figure can be a little low.
        self.seen: tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]] = ({}, {})

    def _pids(self) -> tuple[list[int], list[int]]:
        workers = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    stat = Path(f"/proc/{entry}/stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == self.gunicorn_pid:
                    workers.append(int(entry))
        with _admin_connection(self.base_url) as connection:
            rows = connection.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.database]
            ).fetchall()
        return workers, [row[0] for row in rows]

    def seconds(self) -> tuple[float, float]:
        """CPU seconds so far of (gunicorn's workers, PostgreSQL's backends)."""
        counted = zip(self._pids(), self.seen, strict=True)
        return tuple(self._ticks(pids, seen) / self.ticks for pids, seen in counted)  # type: ignore[return-value]

    @staticmethod
    def _ticks(pids: list[int], seen: dict[tuple[int, int], int]) -> int:
        """The ticks of `pids` now, and of those `seen` before that have ended since."""
        for pid in pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            seen[pid, int(fields[19])] = int(fields[11]) + int(fields[12])  # utime + stime
        return sum(seen.values())


WRK_SCRIPT = """
local cookie = os.getenv("BENCH_COOKIE")
if cookie ~= nil and cookie ~= "" then wrk.headers["Cookie"] = cookie end
if os.getenv("BENCH_HTMX") == "1" then wrk.headers["HX-Request"] = "true" end
done = function(summary, latency, requests)
  io.write(string.format("BENCH %d %d %d %d %d %d\\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(95), summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
"""


@dataclass
class Page:
    """A GET measured with wrk."""

    name: str
    path: str
    cookie: str  # "" for a visitor
    htmx: bool = False
    expect: int = 200


def _wrk(page: Page, origin: str, args: argparse.Namespace) -> Result:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT)
    env = {**os.environ, "BENCH_COOKIE": page.cookie, "BENCH_HTMX": "1" if page.htmx else "0"}
    # One check that the URL answers what it should before loading it.
    status = _get(origin, page.path, page.cookie, page.htmx)[0]
    if status != page.expect:
        raise RuntimeError(f"{page.name}: {page.path} answered {status}, expected {page.expect}")
    output = subprocess.run(
        [
            "wrk",
            "--threads=2",
            f"--connections={args.connections}",
            f"--duration={max(1, round(args.seconds))}s",
            "--timeout=10s",
            f"--script={script.name}",
            origin + page.path,
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    os.unlink(script.name)
    match = re.search(r"^BENCH (\d+) (\d+) (\d+) (\d+) (\d+) (\d+)$", output, re.M)
    if match is None:
        raise RuntimeError(f"wrk gave no figures:\n{output}")
    requests, duration_us, p50, p95, bad_status, socket_errors = map(int, match.groups())
    # wrk counts any non-2xx/3xx as an error; a 204 is a success here.
    return Result(
        page.name,
        requests,
        duration_us / 1e6,
        p50 / 1000,
        p95 / 1000,
        errors=bad_status + socket_errors,
    )


def _get(origin: str, path: str, cookie: str, htmx: bool = False) -> tuple[int, str]:
    connection = http.client.HTTPConnection(urlsplit(origin).netloc, timeout=30)
    headers = {"Cookie": cookie} if cookie else {}
    if htmx:
        headers["HX-Request"] = "true"
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read().decode()
    connection.close()
    return response.status, body


class _Client:
    """One thread's keep-alive connection; POSTs the way the pages' HTMX forms do."""

    def __init__(self, origin: str, fixtures: Fixtures) -> None:
        self.netloc = urlsplit(origin).netloc
        self.fixtures = fixtures
        self.connection = http.client.HTTPConnection(self.netloc, timeout=30)
        self.latencies: list[float] = []
        self.errors = 0

    def request(self, method: str, path: str, user: str, body: str = "") -> tuple[int, str]:
        headers = {"Cookie": self.fixtures.cookies[user]}
        if method == "POST":
            headers.update(
                {
                    "X-CSRFToken": self.fixtures.csrf,
                    "HX-Request": "true",
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Origin": f"http://{self.netloc}",
                    "Referer": f"http://{self.netloc}/",
                }
            )
        started = time.perf_counter()
        self.connection.request(method, path, body=body or None, headers=headers)
        response = self.connection.getresponse()
        text = response.read().decode()
        self.latencies.append(time.perf_counter() - started)
        return response.status, text

    def step(self) -> bool:
        """One request; False when there is nothing left to do."""
        raise NotImplementedError


class _Bare(_Client):
    def step(self) -> bool:
        status, _text = self.request("GET", "/bench/bare/", "bench0")
        self.errors += status != 200
        return True


class _Statements(_Client):
    """POSTs to one of the statements' yardsticks (bench/web_urls.py), on a game or night
    of its own, as floor0."""

    def __init__(self, origin: str, fixtures: Fixtures, path: str) -> None:
        super().__init__(origin, fixtures)
        self.path = path
        self.discard = False  # a move's: a draw, then a discard, as the action's client

    def step(self) -> bool:
        body = "do=discard" if self.discard else "do=draw"
        status, _text = self.request("POST", self.path, "floor0", body)
        self.errors += status != 200
        self.discard = not self.discard
        return True


class _Seats(_Client):
    """Plays every seat of its own 4-seat game, turn after turn: draw, then discard."""

    MOVE = re.compile(r'name="move" value="(\d+)"')
    CARD = re.compile(r'name="cards" value="([A-Z0-9]+)"')
    WAITING = re.compile(r"Waiting for (?:<bdi>)?([^.<]+)")

    def __init__(self, origin: str, fixtures: Fixtures, game: tuple[str, str, int]) -> None:
        super().__init__(origin, fixtures)
        self.public_id, self.user, self.move = game
        self.drawn = False
        self.hand: list[str] = []

    def step(self) -> bool:
        path = f"/play/{self.public_id}/act/"
        if not self.drawn:
            status, text = self.request("POST", path, self.user, f"move={self.move}&do=draw")
        else:
            # Never a Skip while there is another card: it would skip the next member.
            card = next((code for code in self.hand if code != "S"), self.hand[0])
            body = f"move={self.move}&do=discard&cards={card}"
            status, text = self.request("POST", path, self.user, body)
        failed = status != 200 or "moved on" in text or 'class="message error"' in text
        if failed:
            self.errors += 1
            if os.environ.get("BENCH_DEBUG"):
                error = re.search(r'class="message error"[^>]*>([^<]*)', text)
                print(f"action refused ({status}):", error.group(1) if error else text[:300])
            self._find_the_turn()
            return True
        if self.drawn:
            waiting = self.WAITING.search(text)
            self.user = waiting.group(1) if waiting else self.user
        self.drawn = not self.drawn
        self._read(text)
        return True

    def _read(self, text: str) -> None:
        move = self.MOVE.search(text)
        self.move = int(move.group(1)) if move else self.move
        self.hand = self.CARD.findall(text)

    def _find_the_turn(self) -> None:
        """After a refused move: whose turn it is, from the members' own boards."""
        for user in (name for name in self.fixtures.cookies if name.startswith("bench")):
            _status, text = self.request("GET", f"/play/{self.public_id}/", user)
            if "Your turn: draw a card." in text or "Your turn: lay down" in text:
                self.user, self.drawn = user, "Your turn: lay down" in text
                self._read(text)
                return


class _Scorer(_Client):
    """Enters rounds on game nights in progress, one night at a time, from a shared list."""

    VERSION = re.compile(r'name="version" value="(\d+)"')

    def __init__(self, origin: str, fixtures: Fixtures, nights: queue.Queue[Night]) -> None:
        super().__init__(origin, fixtures)
        self.nights = nights
        self.night: Night | None = None

    def step(self) -> bool:
        if self.night is None:
            try:
                self.night = self.nights.get_nowait()
            except queue.Empty:
                return False
        night = self.night
        entry = _entry(night.rounds, 4, also=False)
        fields = [f"version={night.version}", f"went_out={entry.went_out}"]
        fields += [f"points_{seat}={points}" for seat, points in enumerate(entry.points)]
        fields += [f"completed_{seat}=on" for seat in entry.completed]
        path = f"/nights/{night.public_id}/rounds/"
        status, text = self.request("POST", path, SCORER, "&".join(fields))
        # A refusal is the notice on top (role="status"); the offline rounds' hidden
        # alerts (class "message error" too) are on every scorer's page.
        refused = 'class="message error" role="status"' in text
        saved = status == 200 and "saved." in text and not refused
        self.errors += not saved
        version = self.VERSION.search(text)
        # Refused, or the round ended the night (no round form any more): the next night.
        if not saved or version is None or 'name="went_out"' not in text:
            self.night = None
            return True
        night.version, night.rounds = int(version.group(1)), night.rounds + 1
        return True


def _python_client(name: str, clients: list[_Client], args: argparse.Namespace) -> Result:
    for client in clients:
        client.latencies, client.errors = [], 0
    stop = time.monotonic() + args.seconds
    total = [0]
    lock = threading.Lock()
    ran_out = [False]

    def run(client: _Client) -> None:
        while time.monotonic() < stop:
            with lock:
                if total[0] >= MAX_REQUESTS:
                    return
                total[0] += 1
            if not client.step():
                ran_out[0] = True
                return

    started = time.perf_counter()
    threads = [threading.Thread(target=run, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    latencies = sorted(latency for client in clients for latency in client.latencies)
    if not latencies:
        return Result(name, 0, seconds, 0.0, 0.0, note="nothing to do")
    return Result(
        name,
        len(latencies),
        seconds,
        statistics.median(latencies) * 1000,
        latencies[max(0, int(len(latencies) * 0.95) - 1)] * 1000,
        errors=sum(client.errors for client in clients),
        note="ran out of nights" if ran_out[0] else "",
    )


def _measured(cpu: ServerCpu, measure: Callable[[], Result]) -> Result:
    app_before, db_before = cpu.seconds()
    broker_before = _broker_connections()
    result = measure()
    app_after, db_after = cpu.seconds()
    result.db_cpu_seconds = db_after - db_before
    result.cpu_seconds = app_after - app_before + result.db_cpu_seconds
    result.broker_connections = _broker_connections() - broker_before
    return result


def _broker_connections() -> int:
    """Connections Redis has accepted so far (ours, and anyone else's on this machine)."""
    import redis

    client = redis.Redis.from_url(BROKER_URL)
    try:
        return int(client.info("stats")["total_connections_received"]) - 1  # this one
    finally:
        client.close()


def _pages(fixtures: Fixtures) -> list[Page]:
    viewer = fixtures.cookies["bench0"]
    return [
        Page("bare view", "/bench/bare/", viewer),
        Page("table page", fixtures.table_url, viewer),
        Page("unchanged poll", fixtures.poll_url, viewer, htmx=True, expect=204),
        Page("my games", "/play/", viewer),
        Page("game nights", "/nights/", viewer),
        Page("a game night's page", fixtures.night_url, viewer),
        Page("live scoreboard", fixtures.share_url, ""),
        Page("stats", "/accounts/stats/", viewer),
        Page("club page", fixtures.club_url, viewer),
        Page("club's year", fixtures.club_year_url, viewer),
    ]


BASELINES = {"wrk": "bare view", "python": "bare view (Python client)"}


def _describe(fixtures: Fixtures, args: argparse.Namespace) -> None:
    print(
        f"gunicorn {args.workers} sync workers, PostgreSQL, Redis, {args.connections} "
        f"connections, {args.rounds} rounds of {args.seconds:.0f} s each, {os.cpu_count()} "
        f"cores, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"table game: 4 seats, {fixtures.table_moves} moves in; actions on "
        f"{len(fixtures.act_games)} such games; bench0 has {fixtures.history} finished games; "
        f"the game night's page: {fixtures.night_rounds} rounds, finished"
    )


def _warm_up(origin: str, fixtures: Fixtures, args: argparse.Namespace) -> None:
    """Every worker: templates, URL resolver, connection pool, caches. Each page's
    requests go out from `args.connections` threads at once: one at a time, gunicorn
    hands them mostly to the same worker."""

    def get(page: Page) -> None:
        for _n in range(args.workers):
            _get(origin, page.path, page.cookie, page.htmx)

    with ThreadPoolExecutor(max_workers=args.connections) as pool:
        for page in _pages(fixtures):
            list(pool.map(get, [page] * args.connections))


def _run_half(
    title: str,
    origin: str,
    fixtures: Fixtures,
    args: argparse.Namespace,
    cpu: ServerCpu,
    players: list[_Seats],
    nights: list[Night],
) -> dict[str, list[Result]]:
    """Every measurement, `args.rounds` times, interleaved; prints the table. `players`
    carry on with their games from one half to the next."""
    print(f"\n== {title} (load average {os.getloadavg()[0]:.1f})")
    bare = [_Bare(origin, fixtures) for _n in range(args.connections)]
    to_score: queue.Queue[Night] = queue.Queue()
    for night in nights:
        to_score.put(night)
    scorers = [_Scorer(origin, fixtures, to_score) for _n in range(args.connections)]
    measures: dict[str, tuple[str, Callable[[], Result]]] = {
        page.name: ("wrk", lambda page=page: _wrk(page, origin, args))  # type: ignore[misc]
        for page in _pages(fixtures)
    }
    measures["bare view (Python client)"] = (
        "python",
        lambda: _python_client("bare view (Python client)", bare, args),  # type: ignore[arg-type]
    )
    measures["action"] = ("python", lambda: _python_client("action", players, args))  # type: ignore[arg-type]
    measures["round entry"] = ("python", lambda: _python_client("round entry", scorers, args))  # type: ignore[arg-type]
    for name, clients in _floor_clients(origin, fixtures).items():
        measures[name] = ("python", lambda n=name, c=clients: _python_client(n, c, args))  # type: ignore[misc]
    if args.only:
        wanted = set(args.only)
        python = {name for name, (kind, _m) in measures.items() if kind == "python"}
        wanted |= set(BASELINES.values()) if wanted & python else {"bare view"}
        measures = {name: measure for name, measure in measures.items() if name in wanted}
    results: dict[str, list[Result]] = {name: [] for name in measures}
    for _round in range(args.rounds):
        latest: dict[str, Result] = {}  # each baseline's last measurement
        for name, (kind, measure) in measures.items():
            base = BASELINES[kind]
            if name == base:
                latest[base] = _measured(cpu, measure)
                results[base].append(latest[base])
                continue
            result = _measured(cpu, measure)
            after = _measured(cpu, measures[base][1])
            result.yardstick = _together(latest[base], after)
            results[name].append(result)
            results[base].append(after)
            latest[base] = after
    _print_half(results, {name: kind for name, (kind, _m) in measures.items()})
    if args.only and "stats" not in args.only:
        return results
    p50, cpu_ms = _serial(origin, "/accounts/stats/", fixtures.cookies["bench0"], cpu)
    mark = "" if p50 <= STATS_P50_TARGET_MS else " ✗"
    print(
        f"stats page, one connection, {fixtures.history} games: p50 {p50:.1f} ms "
        f"(target ≤ {STATS_P50_TARGET_MS}){mark}, server CPU {cpu_ms:.1f} ms per request"
    )
    return results


MOVE_FLOOR = "a move's statements alone"
ROUND_FLOOR = "a round's statements alone"


def _floor_clients(origin: str, fixtures: Fixtures) -> dict[str, list[_Client]]:
    """The statements' yardsticks, one game or night per connection: what a move and a
    round must write through the ORM, with nothing else (bench/web_urls.py)."""
    return {
        MOVE_FLOOR: [
            _Statements(origin, fixtures, f"/bench/statements/move/{public_id}/")
            for public_id in fixtures.move_floors
        ],
        ROUND_FLOOR: [
            _Statements(origin, fixtures, f"/bench/statements/round/{public_id}/")
            for public_id in fixtures.round_floors
        ],
    }


def _together(before: Result, after: Result) -> Result:
    """Two measurements of a baseline as one: its requests, time and CPU added up."""
    return Result(
        before.name,
        before.requests + after.requests,
        before.seconds + after.seconds,
        statistics.mean([before.p50_ms, after.p50_ms]),
        statistics.mean([before.p95_ms, after.p95_ms]),
        before.errors + after.errors,
        before.cpu_seconds + after.cpu_seconds,
        before.db_cpu_seconds + after.db_cpu_seconds,
    )


def _ratios(results: dict[str, list[Result]], name: str) -> tuple[float, float]:
    """(throughput ratio, CPU ratio) against the page's yardsticks (its baseline just
    before and just after it), each the median over the rounds."""
    pairs = [(r, r.yardstick) for r in results[name] if r.yardstick is not None]
    rate = statistics.median(r.rate / b.rate if b.rate else 0.0 for r, b in pairs)
    cpu = statistics.median(b.cpu_ms / r.cpu_ms if r.cpu_ms else 0.0 for r, b in pairs)
    return rate, cpu


def _print_half(results: dict[str, list[Result]], kinds: dict[str, str]) -> None:
    print(
        f"{'':26} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'errors':>6}"
        f" {'ratio':>6} {'target':>7} {'CPU ms/req':>10} {'of it DB':>8} {'CPU ratio':>9}"
    )
    for name, rounds in results.items():
        base = BASELINES[kinds[name]]
        ratio = cpu_ratio = ""
        if name != base:
            rate, cpu = _ratios(results, name)
            ratio, cpu_ratio = f"{rate:.2f}", f"{cpu:.2f}"
        target = f"≥ {TARGETS[name]:.2f}" if name in TARGETS else ""
        if name in TARGETS and ratio and float(ratio) < TARGETS[name]:
            target += " ✗"
        notes = {r.note for r in rounds if r.note}
        if name == "action":
            opened = statistics.median(r.broker_connections / r.requests for r in rounds)
            notes.add(f"{opened:.2f} new broker connections per action")
        print(
            f"{name:26} {statistics.median(r.rate for r in rounds):7.0f}"
            f" {statistics.median(r.p50_ms for r in rounds):7.1f}"
            f" {statistics.median(r.p95_ms for r in rounds):7.1f}"
            f" {sum(r.errors for r in rounds):6d} {ratio:>6} {target:>9}"
            f" {statistics.median(r.cpu_ms for r in rounds):10.2f}"
            f" {statistics.median(r.db_cpu_ms for r in rounds):8.2f} {cpu_ratio:>9}"
            + (f"  ({', '.join(sorted(notes))})" if notes else "")
        )


def _serial(origin: str, path: str, cookie: str, cpu: ServerCpu) -> tuple[float, float]:
    """One connection, one request at a time: (p50 ms, server CPU ms per request)."""
    for _n in range(3):
        _get(origin, path, cookie)
    latencies = []
    app_before, db_before = cpu.seconds()
    for _n in range(STATS_SAMPLES):
        started = time.perf_counter()
        status, _body = _get(origin, path, cookie)
        latencies.append((time.perf_counter() - started) * 1000)
        if status != 200:
            raise RuntimeError(f"{path} answered {status}")
    app_after, db_after = cpu.seconds()
    used = (app_after - app_before) + (db_after - db_before)
    return statistics.median(latencies), used * 1000 / STATS_SAMPLES


def _median(results: dict[str, list[Result]], name: str, key: str) -> float:
    return float(statistics.median(getattr(result, key) for result in results[name]))


def _print_slowdown(
    without: dict[str, list[Result]], with_others: dict[str, list[Result]], args: argparse.Namespace
) -> None:
    print(
        f"\n== with {args.others:,} other games: how much slower (target ≤ {SLOWDOWN_TARGET}×)\n"
        f"{'':26} {'CPU × bare':>13} {'slower':>8} {'DB ms/req':>14} {'throughput':>11}"
    )
    for name in without:
        if name.startswith("bare view"):
            continue
        rate_before, cpu_before = _ratios(without, name)
        rate_after, cpu_after = _ratios(with_others, name)
        # Each page's CPU per request as a multiple of its yardstick's (the bare view's):
        # a busier machine slows the bare view too, so this cancels out.
        cost_before = 1 / cpu_before if cpu_before else float("inf")
        cost_after = 1 / cpu_after if cpu_after else float("inf")
        slower = cost_after / cost_before
        mark = " ✗" if slower > SLOWDOWN_TARGET else "  "
        db_before = _median(without, name, "db_cpu_ms")
        db_after = _median(with_others, name, "db_cpu_ms")
        print(
            f"{name:26} {cost_before:5.1f} → {cost_after:5.1f} {slower:6.2f}×{mark}"
            f" {db_before:6.2f} → {db_after:5.2f} {rate_before / rate_after:10.2f}×"
        )
    print(
        "\nratio: throughput against the bare view just before and after (median of the rounds);"
        "\nCPU ratio: the bare view's server CPU per request divided by this one's;"
        "\nCPU × bare: the page's server CPU per request as a multiple of the bare view's,"
        "\nwithout → with the other games; slower: with ÷ without (judged); DB ms/req: the"
        "\nPostgreSQL backends' CPU per request; throughput: the ratio to the bare view"
        "\nwithout the other games ÷ with them (moves with the machine's load)."
        f"\nload average at the end: {os.getloadavg()[0]:.1f}"
    )


# --- query plans ----------------------------------------------------------------------------


def _explain(fixtures: Fixtures, title: str) -> None:
    """EXPLAIN ANALYZE of the queries that list games on /nights/ and /play/, as the
    views run them (captured through Django's test client in this process)."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(get_user_model().objects.get(pk=fixtures.viewer_id))
    for path in ("/nights/", "/play/"):
        with CaptureQueriesContext(connection) as queries:
            client.get(path)
        # Any query that names the tables counts, however it was written.
        tables = ("games_game", "games_seat")
        listing = [
            query["sql"]
            for query in queries.captured_queries
            if query["sql"].lstrip().startswith(("SELECT", "WITH"))
            and any(table in query["sql"] for table in tables)
        ]
        for sql in listing:
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql)
                plan = [row[0] for row in cursor.fetchall()]
            print(f"\n-- {path}, {title}:\n{sql}\n" + "\n".join(plan))


if __name__ == "__main__":
    main()
