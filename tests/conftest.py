"""Personas and shared fixtures. alice, bob and carol play together; the
stranger has an account but no access to their games."""

import os
import shutil
from contextlib import contextmanager

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.utils import translation

from phase10site.celery import app as celery_app

PASSWORD = "correct-horse-battery"


@pytest.fixture(scope="session")
def django_db_modify_db_settings_xdist_suffix(request):
    """With pytest-xdist (`make test` runs the tests in two processes) each process needs
    a test database of its own. PostgreSQL's get the process's name as a suffix,
    test_<name>_gw0, test_<name>_gw1, as pytest-django does. SQLite's is each process's
    own already: in memory, or a file in a temporary folder the process made
    (tests/integration/conftest.py), whose name stays db.sqlite3 because the Celery
    worker the integration test starts opens <VAR_DIR>/db.sqlite3."""
    from django.conf import settings

    worker = getattr(request.config, "workerinput", {}).get("workerid")
    if not worker:
        return
    for database in settings.DATABASES.values():
        if database["ENGINE"] == "django.db.backends.sqlite3":
            continue
        test = database.setdefault("TEST", {})
        test["NAME"] = f"{test.get('NAME') or 'test_' + database['NAME']}_{worker}"


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """PostgreSQL: no autovacuum on the test database's tables. Tests roll their writes
    back, which leaves only dead rows; autovacuum then records each table as empty, and
    the planner, believing it, picks plans that take seconds each on a test's few
    hundred games (a CI run's stats tests crawled). Production tables hold their rows."""
    from django.db import connection

    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
                for (table,) in cursor.fetchall():
                    name = connection.ops.quote_name(table)
                    cursor.execute(f"ALTER TABLE {name} SET (autovacuum_enabled = false)")


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    # A request in another language leaves it active in the test's thread (Django
    # activates a language per request and never deactivates it): the next test, in
    # whatever order, starts in the default language.
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _empty_cache():
    # Boards, QR codes and charts are cached per process; each test starts without them.
    cache.clear()


@contextmanager
def celery_tasks_inline():
    # Unit tests run tasks in-process; tests/integration starts a real worker.
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = False


@pytest.fixture(autouse=True)
def _celery_runs_tasks_inline(settings):
    with celery_tasks_inline():
        yield


def _make_user(username: str):
    user = get_user_model().objects.create_user(
        username=username, email=f"{username}@example.com", password=PASSWORD
    )
    user.profile.email_verified = True
    user.profile.save()
    return user


@pytest.fixture
def alice(db):
    return _make_user("alice")


@pytest.fixture
def bob(db):
    return _make_user("bob")


@pytest.fixture
def carol(db):
    return _make_user("carol")


@pytest.fixture
def stranger(db):
    return _make_user("stranger")


@pytest.fixture
def alice_client(client, alice):
    client.force_login(alice)
    return client


def chromium_path() -> str | None:
    return shutil.which("chromium") or (
        "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None
    )


def require_or_skip(what: str, available: bool) -> None:
    """Skip when a real service is missing on a developer's machine; CI sets
    REQUIRE_SERVICES=1 so a missing service fails instead of hiding tests."""
    if available:
        return
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(f"{what} is required (REQUIRE_SERVICES=1) but not available")
    pytest.skip(f"{what} not available")


def require_postgres(why: str) -> None:
    """Skip a test that needs PostgreSQL on SQLite; CI's PostgreSQL pass sets
    REQUIRE_POSTGRES=1, so a run that silently fell back to SQLite fails instead."""
    from django.db import connection

    if connection.vendor == "postgresql":
        return
    if os.environ.get("REQUIRE_POSTGRES") == "1":
        pytest.fail(f"{why}: PostgreSQL is required (REQUIRE_POSTGRES=1), got {connection.vendor}")
    pytest.skip(why)


FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = FAST_HASHERS
