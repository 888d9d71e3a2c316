"""phase10site/wsgi.py: a worker moves what it loaded out of the collector's reach once,
after its first request."""

from __future__ import annotations

import gc
import importlib

from django.core.signals import request_finished
from django.db import close_old_connections


def test_a_worker_freezes_what_it_loaded_after_its_first_request_only(monkeypatch):
    calls: list[str] = []
    monkeypatch.setattr(gc, "collect", lambda *args: calls.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    # As Django's test client does: the end of a request here closes no connection.
    request_finished.disconnect(close_old_connections)
    from phase10site import wsgi

    wsgi = importlib.reload(wsgi)  # connected afresh, whatever ran before
    try:
        assert calls == []  # loading the application isn't enough: its first request is
        request_finished.send(sender=None)
        assert calls == ["collect", "freeze"]  # the garbage collected first, then frozen
        request_finished.send(sender=None)
        assert calls == ["collect", "freeze"]
    finally:
        request_finished.disconnect(wsgi._freeze_what_was_loaded)
        request_finished.connect(close_old_connections)


def test_a_worker_compiles_the_hot_partials_and_loads_the_broker_as_it_starts():
    """Not in the first move or round it answers (phase10site/wsgi.py)."""
    from django.template import engines

    from phase10site import celery

    jinja2 = engines["jinja2"].env
    jinja2.cache.clear()
    celery._pool.cache_clear()
    request_finished.disconnect(close_old_connections)
    from phase10site import wsgi

    wsgi = importlib.reload(wsgi)
    try:
        compiled = {name for _loader, name in jinja2.cache}
        assert {"games/online/board.html", "games/nights/game.html"} <= compiled
        assert compiled == set(jinja2.list_templates())
        assert celery._pool.cache_info().currsize == 1  # the pool found, its transport loaded
    finally:
        request_finished.disconnect(wsgi._freeze_what_was_loaded)
        request_finished.connect(close_old_connections)
