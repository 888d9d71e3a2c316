from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import select_template
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games import pictures

from .celery import broker_connection


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """How to play. The rules are long prose, so each language has its own template
    (templates/rules/<language>.html) rather than hundreds of msgids; a language
    without one gets English. The pictures of cards are the same in all of them."""
    language = get_language() or "en"
    text = select_template([f"rules/{language}.html", "rules/en.html"])
    context = {
        "text": text,
        "deck": pictures.DECK,
        "phases": pictures.phase_pictures(),
        "groups": pictures.GROUPS,
        "scores": pictures.SCORES,
    }
    return render(request, "rules/page.html", context)


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            # Raw: the health check asks the server for a row, whatever tables there are.
            cursor.execute("SELECT 1")
            return bool(cursor.fetchone() == (1,))
    except Exception:
        return False


def _broker_ok() -> bool:
    """One round trip to the broker with the same fail-fast settings as a publish (one
    attempt, FAST_FAIL's socket timeouts): a hung broker that accepts connections but never
    answers fails the check in about a second instead of holding the worker."""
    try:
        with broker_connection() as conn:
            conn.ensure_connection(max_retries=0)
            client = getattr(conn.default_channel, "client", None)
            if client is not None:  # Redis: connecting alone proves nothing
                client.ping()
        return True
    except Exception:
        return False


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and the broker answer, 503 otherwise (for load balancers)."""
    checks = {"database": _database_ok(), "broker": _broker_ok()}
    healthy = all(checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503
    )
