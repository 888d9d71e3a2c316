"""Integration tests run a real Celery worker in another process, so the test
database must be one that process can open.

PostgreSQL: the worker connects to pytest's test database (test_<name>) itself.
SQLite: pytest-django's default test database lives in memory, invisible to another
process. When this folder is collected, the session's SQLite test database becomes a
file, `<dir>/db.sqlite3`; the worker gets VAR_DIR=<dir>, so settings.py opens that
very file, with the same options (WAL, IMMEDIATE transactions, busy timeout).
"""

import os
import shutil
import tempfile
from pathlib import Path

SQLITE_DIR_ENV = "PHASE10_TEST_SQLITE_DIR"


def pytest_configure(config):  # type: ignore[no-untyped-def]
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        return
    folder = Path(tempfile.mkdtemp(prefix="phase10-test-db-"))
    os.environ[SQLITE_DIR_ENV] = str(folder)
    database.setdefault("TEST", {})["NAME"] = str(folder / "db.sqlite3")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
