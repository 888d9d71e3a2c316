"""The few functions that play an online game.

A move is saved one way, on SQLite and PostgreSQL alike: the engine `play`s it on a
copy of the game in memory, then one `transaction.atomic()` writes the game's row
first with `scoring.bump` (a compare-and-swap of its version), the `Move` and
`RoundScore` rows with `bulk_create`, the seats' totals, the outbox rows; after commit
Celery gets the emails and the next bot turn. `bump` before any other write rather than
`select_for_update()` first: its UPDATE takes the row lock anyway, and the table's view
has just read the game and its seats, so a move costs no second read and no extra
round trip. If the version moved on in between (another player's chat line, a pause),
nothing was written: the game is read again and the same function plays the move on
it (`_attempts`, a bounded loop); the move number the page showed still answers a
double click with `Stale`.

From its start a game's `state` is the engine snapshot (`GameState.to_dict`), which
holds every hand and the deck order and never leaves the server: pages get
`engine.player_view` of it. The lobby (before the deal) is `games.online.lobby`.

Move numbers: `Game.move_number` counts the actions applied; `Move.number` runs
1, 2, 3, … A client sends the move number it saw with every action, so a stale page or a
double click is answered with `Stale` and never applied twice.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from copy import copy
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from phase10site.celery import app, publish_on_commit

from .. import engine
from ..engine import (
    Action,
    ActionError,
    Discarded,
    Event,
    GameOver,
    GameState,
    Laid,
    RoundOver,
    RuleError,
    Skipped,
    TiebreakStarted,
    Took,
    WentOut,
)
from ..engine.bots import choose_action
from ..errors import Refused, Stale
from ..models import Game, Move, RoundScore, Seat
from ..notify import outbox
from ..players import seat_for_user
from ..scoring import Changed, bump, queue_rating, refresh_seats, round_row
from ..words import move_refusal

if TYPE_CHECKING:
    from django.contrib.auth.models import User

log = logging.getLogger(__name__)

# Bots wait a moment before each turn so people watching can follow the table.
BOT_DELAY_SECONDS = float(getattr(settings, "ONLINE_BOT_DELAY_SECONDS", 1.5))
# A bot turn is a handful of actions; the cap only guards against an engine surprise.
MAX_BOT_ACTIONS = 40
# A move's compare-and-swap loses only to a change that came in between (a chat line, a
# pause, another tab's move); each attempt reads the game again, so a few are plenty.
ATTEMPTS = 3
TIME_LIMITS = {
    "": None,
    "12h": timedelta(hours=12),
    "1d": timedelta(days=1),
    "2d": timedelta(days=2),
    "3d": timedelta(days=3),
    "7d": timedelta(days=7),
}
RECENT_MOVES = 10  # the board's log of recent turns
# The game's fields a move (or the deal) may change; a move writes those it changed.
GAME_FIELDS = (
    "state",
    "recent_moves",
    "seed",
    "status",
    "move_number",
    "current_player",
    "turn_started_at",
    "clock_stopped_at",
    "rounds_played",
    "winner",
    "tiebreak_winner",
    "finished_at",
    "round_reveal",
)


def moved_on_message() -> str:
    return _("The game moved on while you were looking. Here is the table as it is now.")


def paused_message() -> str:
    return _("The game is paused: nobody can move until someone seated resumes it.")


# --- reading ------------------------------------------------------------------------------


def load_state(game: Game) -> GameState:
    """The engine snapshot of a started game (server side only).

    The parsed state is kept on the instance while `game.state` is the same dict, so a
    request that acts and then shows the table reads the snapshot once."""
    cached: tuple[object, GameState] | None = getattr(game, "_engine_state", None)
    if cached is not None and cached[0] is game.state:
        return cached[1]
    state = GameState.from_dict(game.state or {})
    game._engine_state = (game.state, state)
    return state


# --- playing --------------------------------------------------------------------------------


@dataclass
class _Turn:
    """The actions applied to a copy of a game, saved in one transaction (`_save`)."""

    game: Game
    seats: list[Seat]
    state: GameState
    moves: list[Move] = field(default_factory=list)
    rounds: list[RoundOver] = field(default_factory=list)
    turn_ended: bool = False

    def step(self, action: Action, *, automatic: bool) -> None:
        state = self.state
        seat = state.current_seat
        try:
            outcome = engine.play(state, action)
        except RuleError as error:
            raise Refused(move_refusal(error), code=error.code) from error
        except ActionError as error:
            raise Refused(_("That isn't a move in this game."), code="malformed") from error
        self.moves.append(
            Move(
                game=self.game,
                number=self.game.move_number + len(self.moves) + 1,
                seat=seat,
                action=logged(action, outcome.events),
                automatic=automatic,
            )
        )
        self.rounds.extend(event for event in outcome.events if isinstance(event, RoundOver))
        self.turn_ended = any(isinstance(event, TURN_ENDS) for event in outcome.events)
        self.state = outcome.state


# A turn ends with a discard, or when the round (or the game) ends, or a tie-breaker is dealt.
TURN_ENDS = (Discarded, RoundOver, GameOver, TiebreakStarted)


def logged(action: Action, events: Sequence[Event]) -> dict[str, Any]:
    """The move log's form of an action: the engine's dict, made explicit where the
    engine inferred something public (the phase laid), plus a "log" of the public facts
    the engine reported (the card taken, who went out, who was skipped, the round and
    the game over). Replays ignore "log".

    >>> from games.engine import Discard, Card, Discarded, WentOut
    >>> logged(Discard(Card.parse("R7")), [Discarded(0, Card.parse("R7")), WentOut(0)])
    {'type': 'discard', 'card': 'R7', 'skip': None, 'log': {'went_out': True}}
    """
    data = engine.action_to_dict(action)
    notes: dict[str, Any] = {}
    for event in events:
        match event:
            case Took(card=card):
                notes["card"] = str(card)  # it lay face up: everyone saw it
            case Laid(phase=phase):
                # Naming the phase laid is accepted by `apply` and replays the same.
                data["phase"] = notes["phase"] = phase
            case Skipped(seat=skipped, by=by) if by is not None:
                notes["skipped"] = skipped
            case WentOut():
                notes["went_out"] = True
            case RoundOver(summary=summary):
                notes["round_over"] = summary.round_number
            case GameOver():
                notes["game_over"] = True
    if notes:
        data["log"] = notes
    return data


def action_of(data: Mapping[str, Any]) -> Action:
    """The engine action of a logged move (its "log" notes left out)."""
    return engine.action_from_dict({key: value for key, value in data.items() if key != "log"})


def perform(
    game: Game | int,
    seat: int,
    action: Action | Mapping[str, Any],
    *,
    expected_move: int,
    automatic: bool = False,
    seats: Sequence[Seat] | None = None,
) -> Game:
    """Apply one action for `seat`, if the game is still at `expected_move`.

    Raises Stale (the game moved on: show the fresh table), Refused (not your
    turn, game not active) or Refused (the engine's reason). Returns the saved game, a
    copy: the caller's `game` is left as it was read.

    A caller that has just read the game and its `seats` (the table's view, with their
    players, users and profiles) passes both: the move is played on them without reading
    the game again.
    """

    def play(read: Game, read_seats: list[Seat]) -> _Turn:
        return _play(read, read_seats, seat, action, expected_move, automatic)

    known = (game, list(seats)) if isinstance(game, Game) and seats is not None else None
    turn = _attempts(game, known, play)
    assert turn is not None  # `play` always returns a turn or raises
    return turn.game


def _attempts(
    game: Game | int,
    known: tuple[Game, list[Seat]] | None,
    play: Callable[[Game, list[Seat]], _Turn | None],
) -> _Turn | None:
    """Play (`play`, on a copy of the game) and save a move, reading the game again and
    playing again when its compare-and-swap finds that someone else's change came
    first; `known`: the game and its seats as the caller just read them. The saved
    turn, or None if `play` found nothing to do."""
    for _attempt in range(ATTEMPTS):
        read, seats = known or _read(game.pk if isinstance(game, Game) else game)
        known = None
        turn = play(copy(read), seats)
        if turn is None:
            return None
        try:
            with transaction.atomic():
                _save(turn)
        except Changed:
            continue
        return turn
    raise Stale(moved_on_message(), code="stale")


def _read(pk: int) -> tuple[Game, list[Seat]]:
    """The online game `pk` and its seats with their players, users and profiles (the
    outbox and the turn clock read them)."""
    game = Game.objects.get(pk=pk, mode=Game.Mode.ONLINE)
    return game, list(game.seats.select_related("player__user__profile").order_by("position"))


def _play(
    game: Game,
    seats: list[Seat],
    seat: int,
    action: Action | Mapping[str, Any],
    expected_move: int,
    automatic: bool,
) -> _Turn:
    """Check what the caller saw and apply `action` to `game` in memory."""
    _check_current(game, expected_move)
    state = load_state(game)
    if seat != state.current_seat:
        raise Refused(_("It isn't your turn."), code="not_your_turn")
    if isinstance(action, Mapping):
        try:
            action = action_of(action)
        except ActionError as error:
            raise Refused(_("That isn't a move in this game."), code="malformed") from error
    turn = _Turn(game, seats, state)
    turn.step(action, automatic=automatic)
    return turn


def play_turn(game: Game | int, *, expected_move: int, for_person: bool = False) -> bool:
    """Let the bot play the rest of the current turn, if the game is still at
    `expected_move`; returns whether it did.

    Bot seats are played this way by `games.tasks.bot_turn`. With `for_person`, a
    person's seat is played too (its moves marked automatic): the time limit uses this.
    Duplicate or late calls find another move number and do nothing.
    """

    def play(read: Game, seats: list[Seat]) -> _Turn | None:
        if read.status != Game.Status.ACTIVE or read.move_number != expected_move:
            return None
        if read.paused_at is not None:
            return None  # resuming queues the bot again (games/online/pause.py)
        state = load_state(read)
        seat = state.current_seat
        if not (seats[seat].is_bot or for_person):
            return None
        rng = random.Random(f"{read.seed}/bot/{read.move_number}")
        turn = _Turn(read, seats, state)
        for _n in range(MAX_BOT_ACTIONS):
            _bot_step(turn, seat, rng)
            if turn.turn_ended:
                break
        return turn

    try:
        return _attempts(game, None, play) is not None
    except Stale:
        return False  # changed under it again and again: `requeue_stalled_bots` retries


def _bot_step(turn: _Turn, seat: int, rng: random.Random) -> None:
    action = choose_action(engine.player_view(turn.state, seat), rng)
    try:
        turn.step(action, automatic=True)
    except Refused as error:
        # The engine's own bot should never be refused; if it is, a plain legal move
        # keeps the game going instead of stalling it for the people waiting.
        log.warning("bot move %r refused in game %s: %s", action, turn.game.pk, error.message)
        turn.step(engine.legal_actions(turn.state)[-1], automatic=True)


@transaction.atomic
def resign(game: Game, user: User) -> None:
    """The user leaves a game in progress; a bot plays their seat from now on."""
    locked = lock(game)
    if locked.status != Game.Status.ACTIVE:
        raise Refused(_("This game isn't in progress."), code="not_active")
    seats = seats_of(locked)
    seat = seat_for_user(seats, user)
    if seat is None or seat.resigned:
        raise Refused(_("You aren't playing in this game."), code="not_seated")
    seat.resigned = True
    seat.is_bot = True
    seat.save(update_fields=["resigned", "is_bot"])
    state = load_state(locked)
    bump(locked)  # nobody's turn starts or ends here: no email to write
    queue_bot_if_due(locked, seats, state)


def queue_stalled_bot(game: Game, seats: Sequence[Seat]) -> bool:
    """Queue the bot again when its turn has waited much longer than a bot takes (a lost
    task, a broker that was down). Harmless if the first task still runs: the move
    number decides. `seats` are the game's seats in position order."""
    if game.status != Game.Status.ACTIVE or game.turn_started_at is None or game.paused_at:
        return False
    if timezone.now() - game.turn_started_at < timedelta(seconds=30 + BOT_DELAY_SECONDS):
        return False
    current = (game.state or {}).get("current_seat")
    if current is None or not seats[current].is_bot:
        return False
    _queue_bot(game)
    return True


def requeue_stalled_bots() -> int:
    """Queue again every bot whose turn has waited far longer than a bot takes (its task
    was lost, or the broker was down when the move committed). Finds them through the
    waiting-turn index; a duplicate task is harmless because the move number decides."""
    cutoff = timezone.now() - timedelta(seconds=30 + BOT_DELAY_SECONDS)
    waiting = Game.objects.filter(
        status=Game.Status.ACTIVE,
        mode=Game.Mode.ONLINE,
        turn_started_at__lte=cutoff,
        paused_at__isnull=True,
    ).filter(Exists(Seat.objects.filter(game=OuterRef("pk"), is_bot=True)))
    queued = 0
    for game in waiting.prefetch_related("seats"):
        if queue_stalled_bot(game, list(game.seats.all())):
            queued += 1
    return queued


# --- saving ---------------------------------------------------------------------------------


def lock(game: Game | int) -> Game:
    pk = game.pk if isinstance(game, Game) else game
    return Game.objects.select_for_update().get(pk=pk, mode=Game.Mode.ONLINE)


def _check_current(game: Game, expected_move: int) -> None:
    if game.status == Game.Status.FINISHED:
        raise Stale(_("The game is over."), code="game_over")
    if game.status != Game.Status.ACTIVE:
        raise Refused(_("This game hasn't started yet."), code="not_active")
    if game.paused_at is not None:
        raise Refused(paused_message(), code="paused")
    if game.move_number != expected_move:
        raise Stale(moved_on_message(), code="stale")


def seats_of(game: Game) -> list[Seat]:
    return list(game.seats.select_related("player").order_by("position"))


def _save(turn: _Turn) -> None:
    """Save what `turn` did (inside the caller's transaction); `Changed` if the game's
    version moved on since it was read, and then nothing is written."""
    game, seats, state = turn.game, turn.seats, turn.state
    before = _move_fields(game)
    game.move_number += len(turn.moves)
    game.recent_moves = recent_moves(game.recent_moves, turn.moves)
    rounds = [row for over in turn.rounds for row in _round_rows(game, seats, over, state)]
    if turn.rounds:
        over = turn.rounds[-1]
        hands = [[str(card) for card in hand] for hand in over.hands]
        game.round_reveal = {"round": over.summary.round_number, "hands": hands}
    store(game, seats, state, turn_ended=turn.turn_ended)
    # Only the fields the move changed (the move number always does): a draw writes three.
    changed = [name for name, value in _move_fields(game).items() if value != before[name]]
    bump(game, *changed)  # first: it takes the row lock and checks the version
    Move.objects.bulk_create(turn.moves)
    if rounds:
        RoundScore.objects.bulk_create(rounds)
    if turn.rounds or state.game_over:
        refresh_seats(seats, state.rules, state.standing)
    outbox.after_move(game, state, turn.moves, seats=seats, saved=True)
    queue_bot_if_due(game, seats, state)
    if state.game_over:
        queue_rating(game)


def _move_fields(game: Game) -> dict[str, Any]:
    """The values of the game's fields a move may change (`GAME_FIELDS`)."""
    fields = Game._meta.concrete_fields
    return {
        field.name: getattr(game, field.attname) for field in fields if field.name in GAME_FIELDS
    }


def recent_moves(recent: list[list[Any]], moves: Iterable[Move]) -> list[list[Any]]:
    """`Game.recent_moves` after appending `moves` (see the field)."""
    added = [[move.number, move.seat, move.action, move.automatic] for move in moves]
    return (recent + added)[-RECENT_MOVES:]


def store(game: Game, seats: Sequence[Seat], state: GameState, *, turn_ended: bool) -> None:
    game.state = state.to_dict()
    game._engine_state = (game.state, state)
    game.rounds_played = len(state.standing.attempted)
    if state.game_over:
        game.status = Game.Status.FINISHED
        game.winner_id = seats[state.winner].player_id if state.winner is not None else None
        game.tiebreak_winner = state.winner if state.tiebreak else None
        game.finished_at = timezone.now()
        game.current_player = None
        game.turn_started_at = None
        return
    game.current_player_id = seats[state.current_seat].player_id
    if turn_ended or game.turn_started_at is None:
        game.turn_started_at = timezone.now()
        # A turn that starts while its player is away starts with its clock stopped.
        seat = seats[state.current_seat]
        away = not seat.is_bot and _away(seat, game.turn_started_at)
        game.clock_stopped_at = game.turn_started_at if away else None


def _away(seat: Seat, at: datetime) -> bool:
    """Whether the person playing `seat` is away at `at` (no query when the seat was
    read with its player's user and profile, as the table's view and `_read` do)."""
    user = seat.player.user
    profile = getattr(user, "profile", None) if user is not None else None
    return profile is not None and profile.away_until is not None and profile.away_until > at


def _round_rows(
    game: Game, seats: Sequence[Seat], over: RoundOver, state: GameState
) -> Iterable[RoundScore]:
    # One action ends at most one round, so the standing's totals are that round's totals.
    # A seat a bot plays as the round ends (a bot's, or a person's who resigned in this
    # round or before) is the bot's round: stats leave it out of the person's.
    # The cards left in each hand are kept with the row: the round's end shows them.
    summary = over.summary
    for seat, line in zip(seats, summary.seats, strict=True):
        row = round_row(
            game,
            seat,
            summary.round_number,
            attempted=line.phase,
            completed=summary.laid[seat.position],
            points=line.points,
            went_out=line.went_out,
            total=state.scores[seat.position],
            by_bot=seat.is_bot,
        )
        row.cards_left = [str(card) for card in over.hands[seat.position]]
        yield row


def queue_bot_if_due(game: Game, seats: Sequence[Seat], state: GameState) -> None:
    if not state.game_over and seats[state.current_seat].is_bot:
        _queue_bot(game)


def _queue_bot(game: Game) -> None:
    # A broker that is down must not undo, fail or slow the move that was just saved;
    # the beat job `requeue_stalled_bots` (and the board) queue a stalled bot again.
    # By name: the task module imports this one.
    bot_turn = app.tasks["games.bot_turn"]
    publish_on_commit(bot_turn, game.pk, game.move_number, countdown=BOT_DELAY_SECONDS)
