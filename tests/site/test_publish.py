"""Publishing to the broker: pooled connections to a live Redis, fail-fast on a dead one.

The live tests start a throwaway redis-server on a free port (it counts the connections
it receives, and nothing else connects to it); CI installs Redis and sets
REQUIRE_SERVICES=1, so a missing redis-server fails there instead of skipping.
"""

import shutil
import socket
import subprocess
import time

import pytest
import redis

from games.tasks import send_notification as task
from phase10site.celery import app as celery_app
from phase10site.celery import broker_connection, publish
from tests.conftest import require_or_skip

pytestmark = pytest.mark.services


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Redis:
    """A redis-server this test owns (started and stopped by its pid), and a client."""

    def __init__(self, port: int, folder: str) -> None:
        self.port, self.folder = port, folder
        self.url = f"redis://127.0.0.1:{port}/0"
        self.client = redis.Redis(port=port, socket_timeout=2)
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no", "--dir", self.folder],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if self.client.ping():
                    return
            except redis.ConnectionError:
                time.sleep(0.05)  # waiting for a server to start, not timing anything
        raise AssertionError("redis-server did not answer within 10 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

    def connections_received(self) -> int:
        """Connections the server has accepted since it started (our client's included)."""
        return int(self.client.info("stats")["total_connections_received"])

    def queued(self) -> int:
        return int(self.client.llen("celery"))


@pytest.fixture
def live_redis(tmp_path):
    require_or_skip("Redis (redis-server)", shutil.which("redis-server") is not None)
    server = Redis(_free_port(), str(tmp_path))
    server.start()
    yield server
    server.stop()


@pytest.fixture
def broker_at(live_redis):
    """Celery publishes for real (not eagerly) to `url`; restored afterwards."""
    keys = ("broker_url", "broker_write_url", "task_always_eager")
    saved = {key: celery_app.conf[key] for key in keys}

    def use(url: str) -> None:
        celery_app.conf.update(broker_url=url, broker_write_url=url, task_always_eager=False)

    yield use
    celery_app.conf.update(saved)


def test_publishes_to_a_live_broker_reuse_one_connection(live_redis, broker_at):
    broker_at(live_redis.url)
    before = live_redis.connections_received()
    assert publish(task, 1)
    opened = live_redis.connections_received() - before
    assert opened >= 1  # the first publish connects...
    assert publish(task, 2) and publish(task, 3)
    # ...and the next ones go over the same connection: the server accepted no other.
    assert live_redis.connections_received() - before == opened
    assert live_redis.queued() == 3


def test_a_caller_publishing_several_tasks_shares_the_pooled_connection(live_redis, broker_at):
    broker_at(live_redis.url)
    assert publish(task, 1)
    before = live_redis.connections_received()
    with broker_connection() as connection:
        for pk in (2, 3, 4):
            task.apply_async((pk,), connection=connection, retry=False)
    assert live_redis.connections_received() == before
    assert live_redis.queued() == 4


def test_a_publish_to_a_dead_broker_gives_up_at_once_without_raising(broker_at):
    # Port 1 on loopback: nothing listens, the connection is refused for real.
    broker_at("redis://127.0.0.1:1/0")
    for _attempt in range(2):  # the failed connection isn't kept half-open for the next
        started = time.monotonic()
        assert publish(task, 1) is False
        took = time.monotonic() - started
        assert took < 2, f"a publish waited {took:.2f}s on a dead broker"


def test_publishing_works_again_once_a_broker_that_died_is_back(live_redis, broker_at):
    broker_at(live_redis.url)
    assert publish(task, 1)  # the pool now holds an open connection...
    live_redis.stop()  # ...to a server that goes away
    started = time.monotonic()
    assert publish(task, 2) is False
    assert time.monotonic() - started < 2
    live_redis.start()
    assert publish(task, 3)
    assert live_redis.queued() == 1  # a fresh server: only the publish after the restart
