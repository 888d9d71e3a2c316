"""Shared set-up for the online-play tests: games made through the services."""

import dataclasses
import random

from games.engine import Rules, player_view
from games.engine.bots import choose_action
from games.models import Game
from games.online import lobby, services


def started_game(creator, *others, bots=0, rules=None, seed=7, seats=None, club=None) -> Game:
    """An active game (of `club`, if given): the creator in seat 0, then `others`
    (invited, and each accepted), then bots; dealt from `seed`."""
    game = lobby.create_game(
        creator,
        name="Test game",
        seats=seats or 1 + len(others) + bots,
        rules=rules or Rules(),
        bots=bots,
        invite=others,
        club=club,
    )
    for user in others:
        lobby.accept_invitation(game, user)
    return lobby.start_game(game, creator, seed=seed)


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


def set_state(game: Game, state) -> Game:
    """Put an arranged engine state on a started game (view tests with known hands)."""
    names = tuple(seat.player.name for seat in game.seats.select_related("player"))
    game.state = dataclasses.replace(state, players=names).to_dict()
    game.current_player = game.seats.get(position=state.current_seat).player
    game.version += 1
    game.save()
    return game


def arranged_state(hands, *, up_card="G9", draw_pile=(), rules=None, dealer=0):
    """A new round 1 with these hands (short notation), the up-card and top of the pile."""
    from games.engine import arrange_deck, new_game, parse_cards

    deck = arrange_deck(
        [parse_cards(hand) for hand in hands],
        up_card=up_card,
        draw_pile=parse_cards(" ".join(draw_pile)),
        dealer=dealer,
    )
    names = [f"Player {n + 1}" for n in range(len(hands))]
    return new_game(names, rules or Rules(), decks=[deck], dealer=dealer)


def play_until_turn_of(game: Game, seat: int, *, min_moves: int = 0) -> Game:
    """Play bots and people (the engine's bot for both) until it is `seat`'s turn, not
    yet drawn, after at least `min_moves` moves."""
    for _n in range(10_000):
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        state = services.load_state(game)
        if state.current_seat == seat and not state.drawn and game.move_number >= min_moves:
            return game
        services.play_turn(game, expected_move=game.move_number, for_person=True)
    raise AssertionError("never reached that turn")


def play_on(
    game: Game, *, rounds: int | None = None, seed: int = 1, time_limit: bool = False
) -> Game:
    """Play on until `rounds` rounds are over, or to the end of the game: the bots, and
    the people (their own moves, as the engine's bot would choose them; with
    `time_limit`, the time limit plays their turns instead)."""
    rng = random.Random(seed)
    for _n in range(10_000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE or (
            rounds is not None and game.rounds_played >= rounds
        ):
            return game
        seat = game.seats.get(position=services.load_state(game).current_seat)
        if seat.is_bot or time_limit:
            services.play_turn(game, expected_move=game.move_number, for_person=True)
        else:
            play_human_turn(game, rng)
    raise AssertionError("the game never got there")
