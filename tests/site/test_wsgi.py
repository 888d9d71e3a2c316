"""phase10site/wsgi.py: a worker moves what it loaded out of the collector's reach once,
after its first request."""

from __future__ import annotations

import gc
import importlib

from django.core.signals import request_finished


def test_a_worker_freezes_what_it_loaded_after_its_first_request_only(db, monkeypatch):
    frozen: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda *args: 0)
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(1))
    from phase10site import wsgi

    wsgi = importlib.reload(wsgi)  # connected afresh, whatever ran before
    try:
        assert frozen == []  # loading the application isn't enough: its first request is
        request_finished.send(sender=None)
        assert frozen == [1]
        request_finished.send(sender=None)
        assert frozen == [1]
    finally:
        request_finished.disconnect(wsgi._freeze_what_was_loaded)
