"""The ratings' tasks are published by name (`scoring.RATE_TASK`, `rating_ledger.TASK`,
the beat schedule): each name must be one a worker registers, or the message is
dropped."""

import pytest

from games import scoring, tasks
from games.stats import rating_ledger
from phase10site.celery import app

# Celery's Django fixup closes the database connections when it imports the tasks.
pytestmark = pytest.mark.django_db


def _worker_tasks() -> set[str]:
    app.loader.import_default_modules()  # what a worker imports as it starts
    return set(app.tasks)


def test_a_finished_games_rating_task_is_registered_under_the_name_it_is_published_by():
    assert rating_ledger.TASK == scoring.RATE_TASK == tasks.rate_games.name
    assert scoring.RATE_TASK in _worker_tasks()


def test_every_beat_job_names_a_task_a_worker_registers():
    scheduled = {job["task"] for job in app.conf.beat_schedule.values()}
    assert "games.sweep_ratings" in scheduled
    assert scheduled <= _worker_tasks()
