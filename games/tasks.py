"""Background jobs of the games app. Each is idempotent: a duplicate or late run finds
the game already moved on and does nothing."""

from celery import shared_task


@shared_task(name="games.bot_turn", ignore_result=True)
def bot_turn(game_id: int, expected_move: int) -> bool:
    """Play a bot seat's turn if the game is still at `expected_move` (services queue it
    after commit, a moment after the previous move)."""
    from . import services

    return services.play_turn(game_id, expected_move=expected_move)


@shared_task(name="games.requeue_stalled_bots", ignore_result=True)
def requeue_stalled_bots() -> int:
    """Beat: bots whose task was lost (or never reached the broker) play again."""
    from . import services

    return services.requeue_stalled_bots()


# --- game emails (games/notifications.py): the outbox's task and its beat jobs -----------


@shared_task(name="games.send_notification", ignore_result=True)
def send_notification(notification_id: int) -> str:
    """Send one outbox row. Claims it first, so a duplicate delivery sends nothing."""
    from . import notifications

    return notifications.send(notification_id)


@shared_task(name="games.sweep_notifications", ignore_result=True)
def sweep_notifications() -> dict[str, int]:
    from . import notifications

    return notifications.sweep()


@shared_task(name="games.send_reminders", ignore_result=True)
def send_reminders() -> int:
    from . import notifications

    return notifications.send_reminders()


@shared_task(name="games.send_digests", ignore_result=True)
def send_digests() -> int:
    from . import notifications

    return notifications.send_digests()


@shared_task(name="games.enforce_time_limits", ignore_result=True)
def enforce_time_limits() -> dict[str, int]:
    from . import notifications

    return notifications.enforce_time_limits()
