"""Shared set-up for the online-play tests: games made through the services."""

import random

from games import services
from games.engine import Rules, player_view
from games.engine.bots import choose_action
from games.models import Game


def started_game(creator, *others, bots=0, rules=None, seed=7, seats=None) -> Game:
    """An active game: the creator in seat 0, then `others`, then bots; dealt from `seed`."""
    game = services.create_game(
        creator,
        name="Test game",
        seats=seats or 1 + len(others) + bots,
        rules=rules or Rules(),
        bots=bots,
        invite=others,
    )
    return services.start_game(game, creator, seed=seed)


def seat_of(game: Game, user) -> int:
    return game.seats.get(player__user=user).position


def play_human_turn(game: Game, rng: random.Random) -> Game:
    """The current (human) seat plays its whole turn as the engine's bot would."""
    game.refresh_from_db()
    seat = services.load_state(game).current_seat
    while True:
        state = services.load_state(game)
        if game.status != Game.Status.ACTIVE or state.current_seat != seat:
            return game
        action = choose_action(player_view(state, seat), rng)
        game = services.perform(game, seat, action, expected_move=game.move_number)
        if type(action).__name__ == "Discard":
            return game
