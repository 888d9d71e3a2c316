"""The engine is pure Python: its tests must run without Django (`-p no:django`)."""

import pytest


@pytest.fixture(autouse=True)
def _celery_runs_tasks_inline():
    # Shadows the project-wide autouse fixture, which needs pytest-django's `settings`;
    # no engine code path touches Celery or settings.
    yield
