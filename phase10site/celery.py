"""The Celery app: tasks come from each app's tasks.py, the beat schedule lives here."""

import os

from celery import Celery
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "phase10site.settings")

app = Celery("phase10site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["phase10site"])

# Periodic jobs. Each is idempotent: it claims its work with a conditional
# UPDATE, so two overlapping runs (or two beats by mistake) never act twice.
app.conf.beat_schedule = {
    "clear-expired-sessions": {
        "task": "phase10site.tasks.clear_expired_sessions",
        "schedule": crontab(hour=4, minute=17),
    },
    # Game emails (games/notifications.py). The sweeper publishes outbox rows the
    # broker missed and retries that are due; the others write outbox rows whose
    # unique key makes a second run a no-op.
    "sweep-notifications": {"task": "games.sweep_notifications", "schedule": 60.0},
    "send-reminders": {"task": "games.send_reminders", "schedule": 300.0},
    "send-digests": {"task": "games.send_digests", "schedule": crontab(minute="*/10")},
    "enforce-time-limits": {"task": "games.enforce_time_limits", "schedule": 120.0},
    "requeue-stalled-bots": {"task": "games.requeue_stalled_bots", "schedule": 60.0},
}
