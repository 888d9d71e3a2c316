"""The real thing: a Redis server and a `celery worker` process started by the test, a
move made through the web client, the turn email written by the worker's file backend.
Then Redis is stopped: a move still succeeds at once, and its email arrives through the
sweeper once Redis is back.

Needs `redis-server` on the PATH (CI installs it and sets REQUIRE_SERVICES=1, so a
missing Redis fails there instead of skipping). The test starts its own server on a free
port, so stopping it can't disturb anything else.
"""

import email
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from games.engine.absent import auto_discard
from games.models import Game, Notification
from games.notify import outbox
from games.online import services
from phase10site.celery import app as celery_app
from tests.conftest import require_or_skip
from tests.integration.conftest import SQLITE_DIR_ENV
from tests.notify.helpers import game_between

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
MAIL_WAIT = 30  # seconds: the longest the worker may take to write an email


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _wait_for(check, seconds: float, what: str):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.2)
    raise AssertionError(f"gave up waiting {seconds:g}s for {what}")


class RedisServer:
    """A throwaway redis-server this test owns: started and stopped by its pid."""

    def __init__(self, port: int, folder: Path) -> None:
        self.port, self.folder, self.process = port, folder, None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_for(lambda: _answers(self.port), 10, "redis-server to answer")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        _wait_for(lambda: not _answers(self.port), 10, "redis-server to stop")


@pytest.fixture
def redis_server(tmp_path):
    require_or_skip("Redis (redis-server)", shutil.which("redis-server") is not None)
    server = RedisServer(_free_port(), tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def broker(redis_server):
    """This process publishes to the test's Redis for real (not eagerly)."""
    url = f"redis://127.0.0.1:{redis_server.port}/0"
    keys = ("broker_url", "broker_write_url")
    saved = {key: celery_app.conf[key] for key in keys}
    celery_app.conf.update(dict.fromkeys(keys, url))
    celery_app.conf.task_always_eager = False
    yield url
    celery_app.conf.update(saved)


def _worker_environment(broker_url: str, mail_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"EMAIL_HOST", "EMAIL_BACKEND"}}
    env.update(CELERY_BROKER_URL=broker_url, MAIL_DIR=str(mail_dir), PYTHONUNBUFFERED="1")
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        # tests/integration/conftest.py made the test database <dir>/db.sqlite3.
        assert Path(settings["NAME"]).parent == Path(os.environ[SQLITE_DIR_ENV])
        env["VAR_DIR"] = os.environ[SQLITE_DIR_ENV]
        env.pop("DATABASE_URL", None)
    else:
        env["DATABASE_URL"] = (
            f"postgres://{settings['USER']}:{settings['PASSWORD']}@{settings['HOST'] or '127.0.0.1'}"
            f":{settings['PORT'] or 5432}/{settings['NAME']}"
        )
    return env


@pytest.fixture
def worker(broker, tmp_path):
    """`celery -A phase10site worker` in its own process, emails to a temp folder."""
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    log = tmp_path / "worker.log"
    with log.open("w") as output:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "phase10site",
                "worker",
                "--loglevel=INFO",
                "--concurrency=1",
                "--pool=solo",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env=_worker_environment(broker, mail_dir),
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_for(
            lambda: "ready." in log.read_text() or process.poll() is not None,
            60,
            "the worker to start",
        )
        assert process.poll() is None, log.read_text()
        yield mail_dir
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        print(log.read_text()[-5000:])  # shown when the test fails


def _mail_for(mail_dir: Path, notification: Notification):  # type: ignore[no-untyped-def]
    """The email the worker wrote for this outbox row, if any (file backend: one file
    per connection, messages separated by a line of dashes)."""
    for path in sorted(mail_dir.glob("*.log")):
        for chunk in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
            if not chunk.strip():
                continue
            message = email.message_from_bytes(chunk.lstrip())
            if message["X-Phase10-Notification"] == str(notification.pk):
                return message
    return None


def _subject(message) -> str:  # type: ignore[no-untyped-def]
    return str(email.header.make_header(email.header.decode_header(message["Subject"])))


def _turn_row(game: Game, user) -> Notification:  # type: ignore[no-untyped-def]
    return Notification.objects.get(
        game=game, recipient=user, kind=Notification.Kind.YOUR_TURN, move_number=game.move_number
    )


def _play_through_the_web(client, user, game: Game) -> tuple[Game, float]:  # type: ignore[no-untyped-def]
    """The current player draws and discards with the table's forms; returns the game
    and the longest request time."""
    client.force_login(user)
    url = reverse("games:online_act", args=[game.public_id])
    slowest = 0.0
    game.refresh_from_db()
    started = time.monotonic()
    response = client.post(url, {"move": game.move_number, "do": "draw"})
    slowest = max(slowest, time.monotonic() - started)
    assert response.status_code == 302, response.content[:500]
    game.refresh_from_db()
    state = services.load_state(game)
    card = str(auto_discard(state).card)
    started = time.monotonic()
    response = client.post(url, {"move": game.move_number, "do": "discard", "card": card})
    slowest = max(slowest, time.monotonic() - started)
    assert response.status_code == 302, response.content[:500]
    game.refresh_from_db()
    return game, slowest


def test_a_move_mails_the_next_player_through_redis_and_a_worker_even_across_a_redis_outage(
    client, alice, bob, redis_server, worker
):
    mail_dir = worker
    # CI runs at any hour: quiet hours (unit-tested with time travel) would hold the mail.
    for user in (alice, bob):
        user.profile.quiet_hours = False
        user.profile.save(update_fields=["quiet_hours"])
    game = game_between(alice, bob)  # bob plays first
    first = _turn_row(game, bob)
    message = _wait_for(lambda: _mail_for(mail_dir, first), MAIL_WAIT, "bob's turn email")
    assert message["To"] == "bob@example.com"
    assert _subject(message) == "Your turn — Friday game, round 1"

    # bob plays through the web client: alice's turn email comes through the worker.
    game, _slowest = _play_through_the_web(client, bob, game)
    to_alice = _turn_row(game, alice)
    message = _wait_for(lambda: _mail_for(mail_dir, to_alice), MAIL_WAIT, "alice's turn email")
    assert message["To"] == "alice@example.com"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    # Redis goes down. alice's move is still saved, fast; its email waits in the outbox.
    redis_server.stop()
    moves_before = game.move_number
    game, slowest = _play_through_the_web(client, alice, game)
    assert slowest < 2, f"a move took {slowest:.2f}s with the broker down"
    assert game.move_number == moves_before + 2
    to_bob = _turn_row(game, bob)
    assert to_bob.status == Notification.Status.PENDING

    # Redis is back; the sweeper (run here, a few minutes "later") hands the row over.
    redis_server.start()
    result = outbox.sweep(now=timezone.now() + timedelta(minutes=2))
    assert result["published"] == 1
    message = _wait_for(lambda: _mail_for(mail_dir, to_bob), MAIL_WAIT, "bob's delayed email")
    assert message["To"] == "bob@example.com"
    # The worker writes the email, then marks the row sent: wait for the mark too.
    sent = Notification.objects.filter(pk=to_bob.pk, status=Notification.Status.SENT)
    to_bob = _wait_for(sent.first, MAIL_WAIT, "bob's row marked sent")
    assert to_bob.attempts == 1
