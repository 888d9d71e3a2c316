"""The Celery app: tasks come from each app's tasks.py, the beat schedule lives here."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from celery import Celery, Task
from celery.schedules import crontab
from django.db import transaction
from kombu import Connection, pools

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "phase10site.settings")

log = logging.getLogger(__name__)

app = Celery("phase10site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["phase10site"])

# Periodic jobs. Each is idempotent: it claims its work with a conditional
# UPDATE, so two overlapping runs (or two beats by mistake) never act twice.
app.conf.beat_schedule = {
    "clear-expired-sessions": {
        "task": "phase10site.tasks.clear_expired_sessions",
        "schedule": crontab(hour=4, minute=17),
    },
    # Game emails (games/notifications.py). The sweeper publishes outbox rows the
    # broker missed and retries that are due; the others write outbox rows whose
    # unique key makes a second run a no-op.
    "sweep-notifications": {"task": "games.sweep_notifications", "schedule": 60.0},
    "send-reminders": {"task": "games.send_reminders", "schedule": 300.0},
    "send-digests": {"task": "games.send_digests", "schedule": crontab(minute="*/10")},
    "enforce-time-limits": {"task": "games.enforce_time_limits", "schedule": 120.0},
    "requeue-stalled-bots": {"task": "games.requeue_stalled_bots", "schedule": 60.0},
    # Ratings (games/stats/rating_ledger.py): finished games whose task was lost, and
    # corrected ones, are taken in (each game once, in the order they finished).
    "sweep-ratings": {"task": "games.sweep_ratings", "schedule": 300.0},
    # Club seasons (games/clubs/seasons.py): a season over (its last day passed in the
    # site's time zone) has its final table kept, within the quarter hour.
    "close-seasons": {"task": "games.close_seasons", "schedule": 900.0},
}


# One connection attempt, no retries. kombu's default retries a refused connection for
# about two seconds; a request must never wait that long on a dead broker.
FAST_FAIL = {"max_retries": 0, "socket_timeout": 1, "socket_connect_timeout": 1}
# Every connection of the pool busy (more threads publishing than broker_pool_limit):
# give up after this long, as with a dead broker.
POOL_TIMEOUT = 1.0


@contextmanager
def broker_connection() -> Iterator[Connection]:
    """A connection to the broker for `apply_async(connection=...)`, from this process's
    pool: it connects on first use and stays open for the next request.

    Opening a Redis connection costs many times what a publish on an open one does
    (bench/README.md). The pool is kombu's, keyed by the broker URL and FAST_FAIL (so a
    changed `broker_write_url` gets a pool of its own). A dead broker raises after one
    attempt of at most a second; the connection that failed is closed, so the next
    caller connects afresh rather than inheriting a dead socket.
    """
    pool = _pool(app.conf.broker_write_url, app.conf.broker_url)
    # PooledConnection.__exit__ closes the connection when the block raised.
    with pool.acquire(block=True, timeout=POOL_TIMEOUT) as connection:
        yield connection


@lru_cache(maxsize=8)
def _pool(write_url: str | None, url: str | None) -> Any:
    """This process's connection pool for the broker at these URLs: found once, not on
    every publish (building a kombu Connection only to look its pool up is not free)."""
    return pools.connections[app.connection_for_write(transport_options=FAST_FAIL)]


# kombu empties its pools in a forked child (a worker process); so does this cache.
os.register_at_fork(after_in_child=_pool.cache_clear)


def warm() -> None:
    """Load now what a process's first publish would: the app's tasks (finalized), its
    result backend (none: found through the package's entry points all the same) and
    the broker's transport, whose pool `broker_connection` takes connections from.
    Importing kombu's Redis transport (and redis-py with it) takes a noticeable amount of
    CPU, which the first move after a web worker started would otherwise wait for. Connects to
    nothing: a dead broker is found at the first publish, as before."""
    app.finalize(auto=True)
    _pool(app.conf.broker_write_url, app.conf.broker_url)
    app.backend  # noqa: B018  # loaded on first use, and apply_async uses it


def publish(task: Task[..., Any], *args: Any, countdown: float | None = None) -> bool:
    """Hand `task(*args)` to the broker without waiting on it; False if it is down.

    Callers decide what a lost task means: the notification outbox and the stalled-bot
    job retry from the database, an account email can be asked for again."""
    try:
        with broker_connection() as connection:
            # Celery passes `connection` on to send_task and reads countdown=None as "now";
            # celery-types' apply_async stub knows neither.
            task.apply_async(args=args, countdown=countdown, connection=connection, retry=False)  # type: ignore[call-arg, arg-type]  # stub narrower than Celery
    except Exception as error:  # kombu, redis, OSError
        if app.conf.task_always_eager:
            raise  # tasks run inline (tests, debugging): let their errors surface
        log.warning("broker unavailable, %s not queued: %s", task.name, error)
        return False
    return True


def publish_on_commit(task: Task[..., Any], *args: Any, countdown: float | None = None) -> None:
    """`publish` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: publish(task, *args, countdown=countdown))
