"""The production settings, checked in a real subprocess with a production-like
environment (DEBUG off, a real key, HTTPS origin)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _manage(*args, **env):
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "k" * 20 + "-a-long-production-secret-0123456789",
    "ALLOWED_HOSTS": "phase10.example.com",
    "CSRF_TRUSTED_ORIGINS": "https://phase10.example.com",
    "SITE_URL": "https://phase10.example.com",
}


def test_check_deploy_reports_nothing_in_production_mode():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_the_app_refuses_to_start_with_debug_off_and_no_secret_key():
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    result = _manage("check", **env)
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


# The footer's language form, answered by the production settings.
_SET_LANGUAGE = """
from django.test import Client
response = Client(HTTP_HOST="phase10.example.com").post(
    "/i18n/setlang/", {"language": "fi", "next": "/"}, secure=True
)
print(response.status_code, response.cookies["django_language"].output())
"""


def test_the_language_cookie_is_secure_http_only_and_same_site_in_production():
    result = _manage("shell", "--no-imports", "-c", _SET_LANGUAGE, **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    status, cookie = result.stdout.strip().split(" ", 1)
    assert status == "302" and cookie.startswith("Set-Cookie: django_language=fi;")
    attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
    assert {"secure", "httponly", "samesite"} <= attributes
    assert "SameSite=Lax" in cookie


def test_the_language_cookie_is_same_site_and_http_only_in_development(client):
    response = client.post("/i18n/setlang/", {"language": "fi", "next": "/"})
    cookie = response.cookies["django_language"]
    assert cookie["samesite"] == "Lax" and cookie["httponly"]
    # Development runs over plain HTTP, where a Secure cookie would never come back.
    assert not cookie["secure"]


# What the PostgreSQL connections are told, read from the settings alone (no server).
_DATABASE_OPTIONS = """
from django.conf import settings
options = settings.DATABASES["default"]["OPTIONS"]
print(options.get("server_side_binding"), options.get("prepare_threshold"), options["options"])
"""


def test_postgresql_statements_are_prepared_unless_switched_off():
    url = {"DATABASE_URL": "postgres://u:p@127.0.0.1:5432/phase10"}
    on = _manage("shell", "-v", "0", "-c", _DATABASE_OPTIONS, **url)
    off = _manage("shell", "-v", "0", "-c", _DATABASE_OPTIONS, DATABASE_PREPARE="0", **url)
    assert on.stdout.split() == ["True", "2", "-c", "random_page_cost=1.1"], on.stderr
    assert off.stdout.split() == ["None", "None", "-c", "random_page_cost=1.1"], off.stderr


def test_a_query_run_twice_is_prepared_on_its_postgresql_connection(db):
    from django.db import connection

    from tests.conftest import require_postgres

    require_postgres("prepared statements are PostgreSQL's")
    with connection.cursor() as cursor:
        for _run in range(3):
            cursor.execute("SELECT %s + 1 AS prepared_probe", [41])
            assert cursor.fetchone() == (42,)
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert any("prepared_probe" in statement for statement in prepared)
