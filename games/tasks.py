"""Background jobs of the games app. Each is idempotent: a duplicate or late run finds
the game already moved on (or the outbox row already claimed) and does nothing.

Services and the outbox publish these by name, so nothing imports this module but
Celery's autodiscovery."""

from celery import shared_task

from .clubs import seasons
from .notify import jobs, outbox
from .online import services
from .stats import rating_ledger


@shared_task(name="games.bot_turn", ignore_result=True)
def bot_turn(game_id: int, expected_move: int) -> bool:
    """Play a bot seat's turn if the game is still at `expected_move` (services queue it
    after commit, a moment after the previous move)."""
    return services.play_turn(game_id, expected_move=expected_move)


@shared_task(name="games.requeue_stalled_bots", ignore_result=True)
def requeue_stalled_bots() -> int:
    """Beat: bots whose task was lost (or never reached the broker) play again."""
    return services.requeue_stalled_bots()


# --- game emails (games/notify/): the outbox's task and its beat jobs ------------------


@shared_task(name="games.send_notification", ignore_result=True)
def send_notification(notification_id: int) -> str:
    """Send one outbox row. Claims it first, so a duplicate delivery sends nothing."""
    return outbox.send(notification_id)


@shared_task(name="games.sweep_notifications", ignore_result=True)
def sweep_notifications() -> dict[str, int]:
    return outbox.sweep()


@shared_task(name="games.send_reminders", ignore_result=True)
def send_reminders() -> int:
    return jobs.send_reminders()


@shared_task(name="games.send_digests", ignore_result=True)
def send_digests() -> int:
    return jobs.send_digests()


@shared_task(name="games.enforce_time_limits", ignore_result=True)
def enforce_time_limits() -> dict[str, int]:
    return jobs.enforce_time_limits()


# --- ratings (games/stats/rating_ledger.py) -------------------------------------------
# Published by name (`rating_ledger.queue`, `scoring.queue_rating`). No shim for their old
# names ("accounts.rate_games", "accounts.sweep_ratings"): a message queued under one
# before a deploy is dropped by the new workers, and the sweep (beat, every five minutes)
# takes in every finished game such a message was about.


@shared_task(name="games.rate_games", ignore_result=True)
def rate_games(game_id: int | None = None) -> int:
    """Take a finished (or corrected) game into the ratings, and every game finished
    before it that isn't yet. Claims the ratings first: a duplicate rates nothing twice."""
    return rating_ledger.run(game_id)


@shared_task(name="games.sweep_ratings", ignore_result=True)
def sweep_ratings() -> int:
    """Beat: games whose task was lost (or never reached the broker), and corrections."""
    return rating_ledger.run(sweep=True)


# --- club seasons (games/clubs/seasons.py) --------------------------------------------


@shared_task(name="games.close_seasons", ignore_result=True)
def close_seasons() -> int:
    """Beat: keep the final table of every club season that is over. Claims each season
    with a conditional UPDATE: a second run closes nothing twice."""
    return seasons.close_due()
