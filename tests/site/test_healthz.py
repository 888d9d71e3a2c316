import pytest
from django.db import connection
from django.urls import reverse

from phase10site import views
from phase10site.celery import app as celery_app

pytestmark = pytest.mark.django_db(transaction=True)


def test_healthz_answers_200_when_database_and_broker_answer(client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": True, "broker": True}


def test_healthz_answers_503_when_the_broker_is_down(client):
    # Port 1 on loopback: nothing listens, so the connection is really refused.
    keys = ("broker_url", "broker_write_url")
    saved = {key: celery_app.conf[key] for key in keys}
    celery_app.conf.update(dict.fromkeys(keys, "redis://127.0.0.1:1/0"))
    try:
        response = client.get(reverse("healthz"))
    finally:
        celery_app.conf.update(saved)
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": True, "broker": False}


def test_healthz_answers_503_when_the_database_is_down(client, monkeypatch):
    # A real connection of the same backend to a database that is not there
    # (a missing file for SQLite, a closed port for PostgreSQL).
    settings_dict = {**connection.settings_dict}
    if connection.vendor == "sqlite":
        settings_dict["NAME"] = "/nonexistent-dir/phase10.sqlite3"
    else:
        settings_dict.update(HOST="127.0.0.1", PORT="1", OPTIONS={})
    unreachable = type(connection)(settings_dict, alias="unreachable")
    monkeypatch.setattr(views, "connection", unreachable)
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": False, "broker": True}
