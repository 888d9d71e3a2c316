"""Background jobs of the games app. Each is idempotent: a duplicate or late run finds
the game already moved on and does nothing."""

from celery import shared_task


@shared_task(name="games.bot_turn", ignore_result=True)
def bot_turn(game_id: int, expected_move: int) -> bool:
    """Play a bot seat's turn if the game is still at `expected_move` (services queue it
    after commit, a moment after the previous move)."""
    from . import services

    return services.play_turn(game_id, expected_move=expected_move)
