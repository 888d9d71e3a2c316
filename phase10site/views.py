from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .celery import app as celery_app


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return bool(cursor.fetchone() == (1,))
    except Exception:
        return False


def _broker_ok() -> bool:
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
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
