"""Online play under load: gunicorn + PostgreSQL on this machine, requests on loopback.

    python bench/web.py [--seconds 8] [--connections 8] [--workers 4]

Prints figures, asserts nothing. Each page is compared with a bare view on the same
stack (bench/web_site.py: logged in, same middleware and session, one query, no
template), so the ratios say what the page itself costs:

- the table page (GET, the player whose turn it is, 4 seats, 150+ moves in),
- an unchanged poll (GET with the current version: 204),
- both measured with wrk (`apt-get install wrk`) against the bare view under wrk;
- an action (POST draw / discard through the table's form, each answered with the
  fresh board), from a small threaded Python client, because every request depends on
  the answer to the one before; it is compared with the bare view under the same
  Python client.

Targets (issue 5): table ≥ 0.33 × bare, unchanged poll ≥ 0.8 × bare, action ≥ 0.25 × bare.

Needs PostgreSQL (DATABASE_URL, default the local phase10 role) and Redis (Celery's
broker: a move hands its notifications to it). The bench creates its own database,
`<name>_webbench`, and drops it at the end; it uses Redis database 15 and empties it.
Everything listens on and connects to 127.0.0.1 only; every run is bounded in time
and requests.
"""

from __future__ import annotations

import argparse
import http.client
import os
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
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE_URL = "postgres://phase10:phase10@127.0.0.1:5432/phase10"
BROKER_URL = "redis://127.0.0.1:6379/15"
TARGETS = {"table page": 0.33, "unchanged poll": 0.8, "action": 0.25}
MAX_ACTIONS = 20_000  # a hard bound on the Python client, whatever --seconds says


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="per measurement")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--rounds", type=int, default=3, help="measurements of each, interleaved")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")

    base_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    bench_url = _with_database(base_url, urlsplit(base_url).path.lstrip("/") + "_webbench")
    env = _environment(bench_url)
    os.environ.update(env)
    _recreate_database(base_url, bench_url)
    server = None
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT,
            env={**os.environ},
            check=True,
        )
        fixtures = _set_up()
        port = _free_port()
        server = _start_gunicorn(port, args.workers)
        origin = f"http://127.0.0.1:{port}"
        _wait_until_up(origin)
        cpu = ServerCpu(server.pid, urlsplit(bench_url).path.lstrip("/"), base_url)
        _run(origin, fixtures, args, cpu)
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)
        _flush_broker()
        _drop_database(base_url, bench_url)


# --- set-up -----------------------------------------------------------------------------------


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
    }


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
class Fixtures:
    table_url: str
    poll_url: str
    act_games: list[str]
    cookies: dict[str, str]  # username -> Cookie header
    csrf: str
    first_user: dict[str, str]  # act game public id -> username to play first
    table_moves: int = 0


def _set_up() -> Fixtures:
    """Users, sessions and games, made through the services like real ones."""
    import django

    sys.path[:0] = [str(ROOT / "bench"), str(ROOT)]
    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from games.online import lobby, services
    from phase10site.celery import app

    # The set-up plays moves too: keep its bot tasks out of the broker.
    app.conf.task_always_eager = False
    users = [get_user_model().objects.create_user(f"bench{n}", password="x") for n in range(2)]
    for user in users:
        user.profile.language = "en"
        user.profile.save()
    cookies: dict[str, str] = {}
    csrf = secrets.token_hex(16)  # an unmasked 32-character CSRF secret
    for user in users:
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        cookies[user.username] = (
            f"{settings.SESSION_COOKIE_NAME}={session}; {settings.CSRF_COOKIE_NAME}={csrf}"
        )

    table = lobby.create_game(users[0], name="Bench table", seats=4, bots=2, invite=users[1:])
    table = lobby.start_game(table, users[0], seed=11)
    table = _play_until(table, seat=0, moves=150)
    act_games, first = [], {}
    for seed in range(32):
        game = lobby.create_game(users[0], name=f"Bench {seed}", seats=2, invite=users[1:])
        game = lobby.start_game(game, users[0], seed=100 + seed)
        act_games.append(game.public_id)
        current = services.load_state(game).current_seat
        first[game.public_id] = game.seats.get(position=current).player.user.username
    return Fixtures(
        table_url=reverse("games:online_detail", args=[table.public_id]),
        poll_url=reverse("games:online_poll", args=[table.public_id]) + f"?v={table.version}",
        act_games=act_games,
        cookies=cookies,
        csrf=csrf,
        first_user=first,
        table_moves=table.move_number,
    )


def _play_until(game, *, seat: int, moves: int):  # type: ignore[no-untyped-def]
    from games.online import services

    for _n in range(10_000):
        game.refresh_from_db()
        state = services.load_state(game)
        if state.current_seat == seat and not state.drawn and game.move_number >= moves:
            return game
        services.play_turn(game, expected_move=game.move_number, for_person=True)
    raise RuntimeError("the bench game never came back to seat 0")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start_gunicorn(port: int, workers: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "phase10site.wsgi:application",
            f"--bind=127.0.0.1:{port}",
            f"--workers={workers}",
            "--worker-class=sync",
            "--log-level=warning",
            "--timeout=60",
        ],
        cwd=ROOT,
        env={**os.environ},
        start_new_session=True,
    )


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
        return tuple(self._ticks(pids) / self.ticks for pids in self._pids())  # type: ignore[return-value]

    @staticmethod
    def _ticks(pids: list[int]) -> int:
        total = 0
        for pid in pids:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime + stime
        return total


WRK_SCRIPT = """
wrk.headers["Cookie"] = os.getenv("BENCH_COOKIE")
if os.getenv("BENCH_HTMX") == "1" then wrk.headers["HX-Request"] = "true" end
done = function(summary, latency, requests)
  io.write(string.format("BENCH %d %d %d %d %d %d\\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(95), summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
"""


def _wrk(
    name: str,
    origin: str,
    path: str,
    cookie: str,
    args: argparse.Namespace,
    *,
    htmx: bool = False,
    expect: int = 200,
) -> Result:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT)
    env = {**os.environ, "BENCH_COOKIE": cookie, "BENCH_HTMX": "1" if htmx else "0"}
    # One check that the URL answers what it should before loading it.
    status = _get_status(origin, path, cookie, htmx)
    if status != expect:
        raise RuntimeError(f"{name}: {path} answered {status}, expected {expect}")
    output = subprocess.run(
        [
            "wrk",
            "--threads=2",
            f"--connections={args.connections}",
            f"--duration={max(1, int(args.seconds))}s",
            "--timeout=10s",
            f"--script={script.name}",
            origin + path,
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
        name, requests, duration_us / 1e6, p50 / 1000, p95 / 1000, errors=bad_status + socket_errors
    )


def _get_status(origin: str, path: str, cookie: str, htmx: bool) -> int:
    connection = http.client.HTTPConnection(urlsplit(origin).netloc, timeout=10)
    headers = {"Cookie": cookie}
    if htmx:
        headers["HX-Request"] = "true"
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read()
    return response.status


class _Player:
    """One client thread: plays whole turns (draw, then discard) of its own games."""

    MOVE = re.compile(r'name="move" value="(\d+)"')
    CARD = re.compile(r'name="cards" value="([A-Z0-9]+)"')

    def __init__(self, origin: str, fixtures: Fixtures, games: list[str]) -> None:
        self.netloc = urlsplit(origin).netloc
        self.fixtures = fixtures
        self.games = {public_id: fixtures.first_user[public_id] for public_id in games}
        self.moves = dict.fromkeys(games, 0)
        self.drawn = dict.fromkeys(games, False)
        self.hand: dict[str, list[str]] = {}
        self.latencies: list[float] = []
        self.errors = 0
        self.connection = http.client.HTTPConnection(self.netloc, timeout=30)

    def post(self, path: str, user: str, body: str) -> str:
        headers = {
            "Cookie": self.fixtures.cookies[user],
            "X-CSRFToken": self.fixtures.csrf,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
            "Origin": f"http://{self.netloc}",
            "Referer": f"http://{self.netloc}/",
        }
        started = time.perf_counter()
        self.connection.request("POST", path, body=body, headers=headers)
        response = self.connection.getresponse()
        text = response.read().decode()
        self.latencies.append(time.perf_counter() - started)
        if response.status != 200 or "moved on" in text or 'class="message error"' in text:
            self.errors += 1
        return text

    def get(self, path: str, user: str) -> None:
        started = time.perf_counter()
        self.connection.request("GET", path, headers={"Cookie": self.fixtures.cookies[user]})
        response = self.connection.getresponse()
        response.read()
        self.latencies.append(time.perf_counter() - started)
        if response.status != 200:
            self.errors += 1

    def act(self, public_id: str) -> None:
        user = self.games[public_id]
        path = f"/play/{public_id}/act/"
        if not self.drawn[public_id]:
            text = self.post(path, user, f"move={self.moves[public_id]}&do=draw")
            self.drawn[public_id] = True
        else:
            card = self.hand[public_id][0]
            skips = [c for c in self.hand[public_id] if c != "S"]
            card = skips[0] if skips else card
            text = self.post(path, user, f"move={self.moves[public_id]}&do=discard&cards={card}")
            self.drawn[public_id] = False
            if "Your turn: draw a card." not in text:  # a Skip with two players: again
                self.games[public_id] = next(name for name in self.fixtures.cookies if name != user)
        move = self.MOVE.search(text)
        self.moves[public_id] = int(move.group(1)) if move else self.moves[public_id]
        self.hand[public_id] = self.CARD.findall(text)


def _players(origin: str, fixtures: Fixtures, count: int) -> list[_Player]:
    """The client threads' players; they keep their games' move numbers across rounds."""
    games = fixtures.act_games
    return [_Player(origin, fixtures, games[n::count]) for n in range(count)]


def _python_client(
    name: str, players: list[_Player], args: argparse.Namespace, *, bare: bool
) -> Result:
    for player in players:
        player.latencies, player.errors = [], 0
    stop = time.monotonic() + args.seconds
    total = [0]
    lock = threading.Lock()

    def run(player: _Player) -> None:
        turn = 0
        while time.monotonic() < stop:
            with lock:
                if total[0] >= MAX_ACTIONS:
                    return
                total[0] += 1
            if bare:
                player.get("/bench/bare/", "bench0")
            else:
                public_id = list(player.games)[turn % len(player.games)]
                player.act(public_id)
                if not player.drawn[public_id]:
                    turn += 1

    started = time.perf_counter()
    threads = [threading.Thread(target=run, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    latencies = sorted(latency for player in players for latency in player.latencies)
    return Result(
        name,
        len(latencies),
        seconds,
        statistics.median(latencies) * 1000,
        latencies[int(len(latencies) * 0.95) - 1] * 1000,
        errors=sum(player.errors for player in players),
    )


def _measured(cpu: ServerCpu, measure):  # type: ignore[no-untyped-def]
    app_before, db_before = cpu.seconds()
    result = measure()
    app_after, db_after = cpu.seconds()
    result.db_cpu_seconds = db_after - db_before
    result.cpu_seconds = app_after - app_before + result.db_cpu_seconds
    return result


def _run(origin: str, fixtures: Fixtures, args: argparse.Namespace, cpu: ServerCpu) -> None:
    cookie = fixtures.cookies["bench0"]
    print(
        f"gunicorn {args.workers} sync workers, PostgreSQL, {args.connections} connections, "
        f"{args.rounds} rounds of {args.seconds:.0f} s each, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"table game: 4 seats, {fixtures.table_moves} moves in; actions: 2-seat games\n")
    # Warm every worker (templates, URL resolver, connection pool) before measuring.
    for path in ("/bench/bare/", fixtures.table_url, fixtures.poll_url):
        for _n in range(args.workers * 4):
            _get_status(origin, path, cookie, htmx=path == fixtures.poll_url)
    bare_players = _players(origin, fixtures, args.connections)
    action_players = _players(origin, fixtures, args.connections)
    measures = {
        "bare view (wrk)": lambda: _wrk("bare view (wrk)", origin, "/bench/bare/", cookie, args),
        "table page": lambda: _wrk("table page", origin, fixtures.table_url, cookie, args),
        "unchanged poll": lambda: _wrk(
            "unchanged poll", origin, fixtures.poll_url, cookie, args, htmx=True, expect=204
        ),
        "bare view (Python client)": lambda: _python_client(
            "bare view (Python client)", bare_players, args, bare=True
        ),
        "action": lambda: _python_client("action", action_players, args, bare=False),
    }
    baselines = {
        "table page": "bare view (wrk)",
        "unchanged poll": "bare view (wrk)",
        "action": "bare view (Python client)",
    }
    # Interleaved, so a burst of load from elsewhere hits every kind of request alike;
    # each ratio is taken within a round, against that round's bare view.
    rounds: list[dict[str, Result]] = []
    for _round in range(args.rounds):
        rounds.append({name: _measured(cpu, measure) for name, measure in measures.items()})
    print(
        f"{'':26} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'errors':>6}"
        f" {'ratio':>6} {'target':>7} {'CPU ms/req':>10} {'of it DB':>8} {'CPU ratio':>9}"
    )
    for name in measures:
        results = [one[name] for one in rounds]
        rate = statistics.median(r.rate for r in results)
        p50 = statistics.median(r.p50_ms for r in results)
        p95 = statistics.median(r.p95_ms for r in results)
        cpu_ms = statistics.median(r.cpu_ms for r in results)
        db_ms = statistics.median(r.db_cpu_ms for r in results)
        errors = sum(r.errors for r in results)
        base = baselines.get(name)
        ratio = cpu_ratio = ""
        if base:
            ratio = f"{statistics.median(one[name].rate / one[base].rate for one in rounds):.2f}"
            cpu_ratio = (
                f"{statistics.median(one[base].cpu_ms / one[name].cpu_ms for one in rounds):.2f}"
            )
        target = f"≥ {TARGETS[name]:.2f}" if name in TARGETS else ""
        print(
            f"{name:26} {rate:7.0f} {p50:7.1f} {p95:7.1f} {errors:6d}"
            f" {ratio:>6} {target:>7} {cpu_ms:10.2f} {db_ms:8.2f} {cpu_ratio:>9}"
        )
    print(
        "\nratio: throughput against the bare view in the same round (median of the rounds);"
        "\nCPU ratio: the bare view's server CPU per request divided by this one's."
        f"\nload average at the end: {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
