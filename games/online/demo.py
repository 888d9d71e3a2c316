"""Demo online games for `make run`: alice, bob and two bots a few rounds in, with alice
to play and a word or two of table talk; and a short game alice finished against two
bots, to replay. Every move goes through the services, so each game replays from its
seed like a real one. Safe to run again: a demo game that exists already is left alone."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..engine import Discard, Rules, player_view
from ..engine.bots import choose_action
from ..models import Game
from . import chat, lobby, services

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.core.management.base import OutputWrapper

NAME = "Demo: online with bots"
FINISHED = "Demo: a finished game to replay"
SEED = 2024
MOVES = 120  # a few rounds in: laid groups, scores and a round result to look at


def load_demo(users: list[User], stdout: OutputWrapper) -> None:
    by_name = {user.username: user for user in users}
    alice, bob = by_name.get("alice"), by_name.get("bob")
    if alice is None or bob is None:
        return
    if Game.objects.filter(creator=alice, mode=Game.Mode.ONLINE, name=NAME).exists():
        return
    game = lobby.create_game(alice, name=NAME, seats=4, bots=2, invite=[bob])
    lobby.accept_invitation(game, bob)  # the demo's bob says yes
    game = lobby.start_game(game, alice, seed=SEED)
    chat.post(game, bob, "Good luck, everyone!")
    game = _play_until_alice(game, alice)
    chat.post(game, alice, "Coffee break after this round?")
    stdout.write(
        f"  online game {NAME!r}: round {game.rounds_played + 1}, move {game.move_number}, "
        "alice to play"
    )
    # Two phases: a whole game in a few rounds, with a replay and every round's hands.
    game = lobby.create_game(alice, name=FINISHED, seats=3, bots=2, rules=Rules(phases=(1, 2)))
    game = _play_until_alice(lobby.start_game(game, alice, seed=SEED), alice, moves=None)
    stdout.write(f"  online game {FINISHED!r}: {game.move_number} moves, finished")


def _play_until_alice(game: Game, alice: User, moves: int | None = MOVES) -> Game:
    """Play on until it is alice's turn `moves` moves in, or (None) to the game's end."""
    rng = random.Random(SEED)
    seats = {seat.position: seat for seat in game.seats.select_related("player")}
    for _turn in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        state = services.load_state(game)
        seat = seats[state.current_seat]
        if (
            moves is not None
            and seat.player.user_id == alice.pk
            and game.move_number >= moves
            and not state.drawn
        ):
            return game
        if seat.is_bot:
            services.play_turn(game, expected_move=game.move_number)
            continue
        # The people's turns are played here by the engine's bot, as if by them.
        while True:
            state = services.load_state(game)
            if state.current_seat != seat.position or state.game_over:
                break
            action = choose_action(player_view(state, seat.position), rng)
            game = services.perform(game, seat.position, action, expected_move=game.move_number)
            if isinstance(action, Discard):
                break
    return game
