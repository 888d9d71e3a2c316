"""The WSGI application (gunicorn phase10site.wsgi)."""

import gc
import os

from django.core.signals import request_finished
from django.core.wsgi import get_wsgi_application
from django.template import engines

from phase10site import celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "phase10site.settings")
application = get_wsgi_application()


def _load_what_first_requests_would() -> None:
    """A worker compiles the hot Jinja2 partials (phase10site/jinja.py: the board, the
    night's game) and loads the broker's transport as it starts, not in the first move
    or round it answers: each worker's first requests paid for it, mid-game (the cost is
    in bench/README.md, issue 12's eighth pass). A template with an error now stops the
    worker from starting, rather than failing the pages that draw it."""
    jinja2 = engines["jinja2"].env  # type: ignore[attr-defined]  # Django's Jinja2 backend has it
    for name in jinja2.list_templates():
        jinja2.get_template(name)
    celery.warm()


_load_what_first_requests_would()


def _freeze_what_was_loaded(**_kwargs: object) -> None:
    """Once a process has answered its first request (Django's URLs, templates and
    catalogues loaded by then), what it holds is moved out of the garbage collector's
    reach (gc.freeze): those objects live as long as the process, and a full collection
    no longer walks them all, which made a round entry's collections several times
    cheaper (bench/README.md, issue 12's sixth pass)."""
    request_finished.disconnect(_freeze_what_was_loaded)
    gc.collect()
    gc.freeze()


request_finished.connect(_freeze_what_was_loaded)
