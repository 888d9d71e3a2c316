import socket
import threading
import time

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


@pytest.fixture
def hung_broker():
    """A broker that accepts connections and never answers (a stuck Redis, a proxy in
    front of a dead one): the address, as a redis:// URL."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])  # kept open, never read or written
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    stop.set()
    thread.join()
    for peer in accepted:
        peer.close()
    server.close()


def test_healthz_answers_503_quickly_when_the_broker_hangs(client, hung_broker):
    keys = ("broker_url", "broker_write_url")
    saved = {key: celery_app.conf[key] for key in keys}
    celery_app.conf.update(dict.fromkeys(keys, hung_broker))
    try:
        started = time.monotonic()
        response = client.get(reverse("healthz"))
        took = time.monotonic() - started
    finally:
        celery_app.conf.update(saved)
    assert response.status_code == 503
    assert response.json()["broker"] is False
    # The same fail-fast settings as a move's publish (one attempt, 1 s socket timeouts):
    # a probe answers in about a second instead of hanging for 30 and starving a worker.
    assert took < 5
