"""Set-up for the game-email tests: real games through games.online.services, outbox rows
read back from the database, and a clock the tests move (time-machine)."""

from datetime import UTC, datetime, timedelta

from games.engine import Draw, Rules
from games.engine.absent import auto_discard
from games.models import Game, Notification
from games.online import lobby, services

Kind = Notification.Kind
Status = Notification.Status

# 14:00 UTC: outside everyone's quiet hours in the time zones the tests use (a test that
# sends a game email without moving the clock fails when the suite runs at night).
AFTERNOON = datetime(2026, 3, 10, 14, 0, tzinfo=UTC)

# An SMTP server that isn't there: the connection is refused at once, a real send error.
DEAD_SMTP = {
    "default": {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {"host": "127.0.0.1", "port": 1, "timeout": 2},
    }
}
LOCMEM = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}


def game_between(
    *users,
    name: str = "Friday game",
    seed: int = 7,
    time_limit: timedelta | None = None,
    rules: Rules | None = None,
    bots: int = 0,
) -> Game:
    """An active online game: users[0] created it and invited the others, who accepted;
    everyone is seated in order."""
    creator, *others = users
    game = lobby.create_game(
        creator,
        name=name,
        seats=len(users) + bots,
        rules=rules or Rules(),
        time_limit=time_limit,
        invite=others,
        bots=bots,
    )
    for user in others:
        lobby.accept_invitation(game, user)
    return lobby.start_game(game, creator, seed=seed)


def current_seat(game: Game) -> int:
    game.refresh_from_db()
    return services.load_state(game).current_seat


def whose_turn(game: Game):  # type: ignore[no-untyped-def]
    game.refresh_from_db()
    return game.current_player.user if game.current_player else None


def play_turn(game: Game) -> Game:
    """The current player draws from the pile and discards the card the time limit
    would (never a Skip while a numbered card is left, so the turn passes on)."""
    game.refresh_from_db()
    seat = services.load_state(game).current_seat
    game = services.perform(game, seat, Draw(), expected_move=game.move_number)
    state = services.load_state(game)
    return services.perform(game, seat, auto_discard(state), expected_move=game.move_number)


def rows(**filters) -> list[Notification]:  # type: ignore[no-untyped-def]
    return list(Notification.objects.filter(**filters).order_by("pk"))


def sent_to(mailoutbox, user) -> list:  # type: ignore[no-untyped-def]
    return [message for message in mailoutbox if message.to == [user.email]]


def deal(game: Game, hands: list[str], up_card: str, draw_pile: str = "") -> Game:
    """Re-deal round 1 of a just-started game from a stacked deck (same seats, rules
    and seed), so a test can play known cards. Nothing has been played yet."""
    from games.engine import arrange_deck, new_game, parse_cards

    assert game.move_number == 0
    deck = arrange_deck(
        [parse_cards(hand) for hand in hands],
        up_card=up_card,
        draw_pile=parse_cards(draw_pile),
        dealer=game.first_dealer,
    )
    state = services.load_state(game)
    stacked = new_game(
        list(state.players), state.rules, seed=game.seed, decks=[deck], dealer=game.first_dealer
    )
    game.state = stacked.to_dict()
    game.save(update_fields=["state"])
    return game


def act(game: Game, *actions) -> Game:  # type: ignore[no-untyped-def]
    """The current player does `actions` in turn."""
    for action in actions:
        game.refresh_from_db()
        seat = services.load_state(game).current_seat
        game = services.perform(game, seat, action, expected_move=game.move_number)
    return game
