from celery import shared_task
from django.core.management import call_command


@shared_task
def clear_expired_sessions() -> None:
    """Delete expired sessions (Django leaves this to a periodic job)."""
    call_command("clearsessions")
