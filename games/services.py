"""The few functions that change an online game.

Every change follows one pattern: `transaction.atomic()` → lock the game row with
`select_for_update()` → check what the caller saw (the move number, the status) →
engine `apply` → save the snapshot and append the `Move`s → refresh the denormalised
rows (`Seat`, `RoundScore`) → bump `Game.version` → call the notifications hook inside
the transaction → after commit, queue the next bot turn.

A lobby game (status "lobby") keeps its seat count in `Game.state` as
`{"lobby": {"seats": n}}` until it starts; from then on `state` is the engine snapshot
(`GameState.to_dict`), which holds every hand and the deck order and never leaves the
server: pages get `engine.player_view` of it.

Move numbers: `Game.move_number` counts the actions applied; `Move.number` runs
1, 2, 3, … A client sends the move number it saw with every action, so a stale page or a
double click is answered with `StaleMove` and never applied twice.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from . import engine, notifications
from .engine import (
    Action,
    ActionError,
    Discard,
    Draw,
    GameState,
    LayDown,
    RoundSummary,
    RuleError,
    Rules,
    standing_ranks,
)
from .engine.bots import choose_action
from .models import Game, Move, Player, RoundScore, Seat

log = logging.getLogger(__name__)

MIN_SEATS, MAX_SEATS = 2, 6
# Bots wait a moment before each turn so people watching can follow the table.
BOT_DELAY_SECONDS = float(getattr(settings, "ONLINE_BOT_DELAY_SECONDS", 1.5))
# A bot turn is a handful of actions; the cap only guards against an engine surprise.
MAX_BOT_ACTIONS = 40
BOT_NAMES = ("Ada", "Grace", "Alan", "Hedy", "Edsger", "Barbara", "Claude", "Radia")
TIME_LIMITS = {
    "": None,
    "12h": timedelta(hours=12),
    "1d": timedelta(days=1),
    "2d": timedelta(days=2),
    "3d": timedelta(days=3),
    "7d": timedelta(days=7),
}


class OnlineError(Exception):
    """A change refused, with a sentence for the player in `message`."""

    def __init__(self, message: str, *, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class StaleMove(OnlineError):
    """The client's move number is behind: someone (or a double click) got there first."""


class IllegalMove(OnlineError):
    """The engine refused the move; `message` is its RuleError, translated."""


def moved_on_message() -> str:
    return _("The game moved on while you were looking. Here is the table as it is now.")


# --- reading ------------------------------------------------------------------------------


def game_rules(game: Game) -> Rules:
    return Rules.from_dict(game.rules or {})


def load_state(game: Game) -> GameState:
    """The engine snapshot of a started game (server side only).

    The parsed state is kept on the instance while `game.state` is the same dict, so a
    request that acts and then shows the table reads the snapshot once."""
    cached = getattr(game, "_engine_state", None)
    if cached is not None and cached[0] is game.state:
        return cached[1]  # type: ignore[no-any-return]
    state = GameState.from_dict(game.state)
    game._engine_state = (game.state, state)  # type: ignore[attr-defined]
    return state


def lobby_size(game: Game) -> int:
    """The number of seats of a game (in the lobby: the number it was created with)."""
    if game.status == Game.Status.LOBBY:
        return int((game.state or {}).get("lobby", {}).get("seats", MIN_SEATS))
    return len((game.state or {}).get("players", ()))


def find_member(username: str) -> Any:
    """The active user called `username` (any case), or None: who can be invited to a
    game or made a co-scorer."""
    return (
        get_user_model().objects.filter(username__iexact=username.strip(), is_active=True).first()
    )


def seat_for_user(seats: Iterable[Seat], user: Any) -> Seat | None:
    for seat in seats:
        if seat.player.user_id == user.pk:
            return seat
    return None


# --- creating and the lobby -----------------------------------------------------------------


@transaction.atomic
def create_game(
    creator: Any,
    *,
    name: str = "",
    seats: int = 2,
    rules: Rules | None = None,
    time_limit: timedelta | None = None,
    bots: int = 0,
    invite: Sequence[Any] = (),
) -> Game:
    """A game in the lobby: the creator in seat 0, then the invited users, then `bots`."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise OnlineError(_("A game has 2 to 6 seats."), code="seat_count")
    if 1 + len(invite) + bots > seats:
        raise OnlineError(_("There are more players and bots than seats."), code="seat_count")
    game = Game.objects.create(
        mode=Game.Mode.ONLINE,
        status=Game.Status.LOBBY,
        name=name,
        rules=(rules or Rules()).to_dict(),
        creator=creator,
        time_limit=time_limit,
        state={"lobby": {"seats": seats}},
    )
    Seat.objects.create(game=game, position=0, player=Player.for_user(creator))
    for position, user in enumerate(invite, start=1):
        if user.pk == creator.pk:
            raise OnlineError(_("You are already in this game."), code="already_seated")
        Seat.objects.create(game=game, position=position, player=Player.for_user(user))
    for _n in range(bots):
        _add_bot(game, list(game.seats.select_related("player")))
    return game


def _lock_current(game: Game | int, seats: Sequence[Seat] | None) -> tuple[Game, list[Seat]]:
    if isinstance(game, Game) and seats is not None and game.state is not None:
        version = (
            Game.objects.select_for_update()
            .filter(pk=game.pk)
            .values_list("version", flat=True)
            .first()
        )
        if version == game.version:
            return game, list(seats)
    locked = _lock(game)
    return locked, _seats(locked, players=False)


def _lock(game: Game | int) -> Game:
    pk = game.pk if isinstance(game, Game) else game
    return Game.objects.select_for_update().get(pk=pk, mode=Game.Mode.ONLINE)


def _lobby(game: Game | int, by: Any = None) -> tuple[Game, list[Seat]]:
    """Lock a lobby game; OnlineError if it has started (or `by` isn't its creator)."""
    locked = _lock(game)
    if locked.status != Game.Status.LOBBY:
        raise OnlineError(_("This game has already started."), code="started")
    if by is not None and locked.creator_id != by.pk:
        raise OnlineError(_("Only the game's creator can do that."), code="not_creator")
    return locked, list(locked.seats.select_related("player").order_by("position"))


def _free_position(game: Game, seats: Sequence[Seat]) -> int:
    taken = {seat.position for seat in seats}
    for position in range(lobby_size(game)):
        if position not in taken:
            return position
    raise OnlineError(_("Every seat is taken."), code="full")


def _add_bot(game: Game, seats: Sequence[Seat]) -> Seat:
    used = {seat.player.name for seat in seats}
    name = next((n for n in BOT_NAMES if n not in used), f"Bot {len(seats) + 1}")
    player = Player.objects.create(name=name)
    return Seat.objects.create(
        game=game, position=_free_position(game, seats), player=player, is_bot=True
    )


def _bump(game: Game, *fields: str) -> None:
    game.version += 1
    game.save(update_fields=["version", "updated_at", *fields])


@transaction.atomic
def add_bot(game: Game, by: Any) -> Seat:
    locked, seats = _lobby(game, by)
    seat = _add_bot(locked, seats)
    _bump(locked)
    return seat


@transaction.atomic
def invite_user(game: Game, by: Any, username: str) -> Seat:
    """Seat a user by username straight away (they can leave from the lobby)."""
    locked, seats = _lobby(game, by)
    user = find_member(username)
    if user is None:
        raise OnlineError(_("There is no player called “%(name)s”.") % {"name": username})
    if seat_for_user(seats, user) is not None:
        raise OnlineError(_("%(name)s is already in this game.") % {"name": user.get_username()})
    seat = Seat.objects.create(
        game=locked, position=_free_position(locked, seats), player=Player.for_user(user)
    )
    _bump(locked)
    return seat


@transaction.atomic
def join(game: Game, user: Any, token: str) -> Seat:
    """Take a free seat through the invite link; joining twice is harmless."""
    locked, seats = _lobby(game)
    if not token or not secrets.compare_digest(locked.invite_token, token):
        raise OnlineError(_("This invite link is no longer valid."), code="bad_token")
    seat = seat_for_user(seats, user)
    if seat is not None:
        return seat
    seat = Seat.objects.create(
        game=locked, position=_free_position(locked, seats), player=Player.for_user(user)
    )
    _bump(locked)
    return seat


@transaction.atomic
def leave(game: Game, user: Any) -> None:
    """A player leaves the lobby; the creator leaving cancels the game."""
    locked, seats = _lobby(game)
    if locked.creator_id == user.pk:
        bots = [seat.player_id for seat in seats if seat.is_bot]
        locked.delete()
        Player.objects.filter(pk__in=bots, user=None).delete()
        return
    seat = seat_for_user(seats, user)
    if seat is not None:
        seat.delete()
        _bump(locked)


@transaction.atomic
def remove_seat(game: Game, by: Any, position: int) -> None:
    locked, seats = _lobby(game, by)
    seat = next((seat for seat in seats if seat.position == position), None)
    if seat is None or seat.player.user_id == by.pk:
        raise OnlineError(_("That seat can't be emptied."), code="bad_seat")
    seat.delete()
    if seat.is_bot:
        Player.objects.filter(pk=seat.player_id, user=None).delete()
    _bump(locked)


@transaction.atomic
def revoke_link(game: Game, by: Any) -> str:
    """A new invite token: the old link stops working at once."""
    locked, _seats = _lobby(game, by)
    locked.invite_token = secrets.token_urlsafe(16)
    _bump(locked, "invite_token")
    return locked.invite_token


@transaction.atomic
def start_game(
    game: Game, by: Any, *, fill_with_bots: bool = False, seed: int | None = None
) -> Game:
    """Deal round 1. Needs 2+ filled seats; `fill_with_bots` gives empty seats to bots."""
    locked, seats = _lobby(game, by)
    if fill_with_bots:
        while len(seats) < lobby_size(locked):
            seats.append(_add_bot(locked, seats))
            seats.sort(key=lambda seat: seat.position)
    if len(seats) < MIN_SEATS:
        raise OnlineError(_("At least two seats must be filled to start."), code="too_few")
    # Seats left empty close up, so positions are the engine's seats 0..n-1. Ascending
    # order never collides with the (game, position) unique constraint.
    for position, seat in enumerate(seats):
        if seat.position != position:
            seat.position = position
            seat.save(update_fields=["position"])
    locked.seed = secrets.randbits(62) if seed is None else seed
    state = engine.new_game(
        [seat.player.name for seat in seats],
        game_rules(locked),
        seed=locked.seed,
        dealer=locked.first_dealer,
    )
    locked.status = Game.Status.ACTIVE
    locked.move_number = 0
    _store(locked, seats, state, turn_ended=True)
    _refresh_seats(seats, state)
    _bump(locked, *_GAME_FIELDS)
    notifications.after_move(locked, None, state, [])
    _queue_bot_if_due(locked, seats, state)
    return locked


# --- playing --------------------------------------------------------------------------------


@dataclass
class _Turn:
    """The actions applied to a locked game in one transaction."""

    game: Game
    seats: list[Seat]
    before: GameState
    state: GameState
    moves: list[Move] = field(default_factory=list)
    rounds: list[RoundSummary] = field(default_factory=list)
    turn_ended: bool = False

    def step(self, action: Action, *, automatic: bool) -> None:
        state = self.state
        seat = state.current_seat
        try:
            after = engine.apply(state, action)
        except RuleError as error:
            raise IllegalMove(rule_message(error), code=error.code) from error
        except ActionError as error:
            raise IllegalMove(_("That isn't a move in this game."), code="malformed") from error
        self.moves.append(
            Move(
                game=self.game,
                number=self.game.move_number + len(self.moves) + 1,
                seat=seat,
                action=_logged(action, state, after, seat),
                automatic=automatic,
            )
        )
        if after.last_round is not None and after.last_round != state.last_round:
            self.rounds.append(after.last_round)
        round_changed = (after.round_number, after.deals) != (state.round_number, state.deals)
        self.turn_ended = isinstance(action, Discard) or round_changed or after.game_over
        self.state = after


def _logged(action: Action, before: GameState, after: GameState, seat: int) -> dict[str, Any]:
    """The move log's form of an action: the engine's dict, made explicit where the
    engine inferred something public (the phase laid), plus a "log" of public facts
    the turn log shows (who went out, who was skipped). Replays ignore "log"."""
    data = engine.action_to_dict(action)
    notes: dict[str, Any] = {}
    if isinstance(action, Draw) and action.from_discard and before.discard_top is not None:
        notes["card"] = str(before.discard_top)  # it lay face up: everyone saw it
    if isinstance(action, LayDown):
        # Naming the phase laid is accepted by `apply` and replays the same.
        data["phase"] = notes["phase"] = after.laid_phase[seat]
    if after.last_round is not None and after.last_round != before.last_round:
        notes["round_over"] = after.last_round.round_number
        if after.last_round.went_out == seat:
            notes["went_out"] = True
    if isinstance(action, Discard) and action.card.is_skip and "round_over" not in notes:
        skipped = _skipped_by(before, action)
        if skipped is not None:
            notes["skipped"] = skipped
    if after.game_over and not before.game_over:
        notes["game_over"] = True
    if notes:
        data["log"] = notes
    return data


def _skipped_by(state: GameState, action: Discard) -> int | None:
    if action.skip is not None:
        return action.skip
    targets = engine.skip_targets(state)
    if state.rules.skip_target == "next" and targets and targets[0] not in state.skipped:
        return targets[0] if targets[0] != state.current_seat else None
    return None


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

    Raises StaleMove (the game moved on: show the fresh table), OnlineError (not your
    turn, game not active) or IllegalMove (the engine's reason). Returns the saved game.

    A caller that has just read the game and its `seats` (the table's view) may pass
    both: under the lock only the version is read, and if it is unchanged their copy is
    used instead of reading the snapshot again (every change bumps the version).
    """
    with transaction.atomic():
        locked, seats = _lock_current(game, seats)
        _check_current(locked, expected_move)
        state = load_state(locked)
        if seat != state.current_seat:
            raise OnlineError(_("It isn't your turn."), code="not_your_turn")
        if isinstance(action, Mapping):
            try:
                action = action_of(action)
            except ActionError as error:
                raise IllegalMove(_("That isn't a move in this game."), code="malformed") from error
        turn = _Turn(locked, seats, state, state)
        turn.step(action, automatic=automatic)
        _save(turn)
    return locked


def play_turn(game: Game | int, *, expected_move: int, for_person: bool = False) -> bool:
    """Let the bot play the rest of the current turn, if the game is still at
    `expected_move`; returns whether it did.

    Bot seats are played this way by `games.tasks.bot_turn`. With `for_person`, a
    person's seat is played too (its moves marked automatic): the time limit uses this.
    Duplicate or late calls find another move number and do nothing.
    """
    with transaction.atomic():
        locked = _lock(game)
        if locked.status != Game.Status.ACTIVE or locked.move_number != expected_move:
            return False
        seats = _seats(locked, players=False)
        state = load_state(locked)
        seat = state.current_seat
        if not (seats[seat].is_bot or for_person):
            return False
        rng = random.Random(f"{locked.seed}/bot/{locked.move_number}")
        turn = _Turn(locked, seats, state, state)
        for _n in range(MAX_BOT_ACTIONS):
            _bot_step(turn, seat, rng)
            if turn.turn_ended:
                break
        _save(turn)
    return True


def _bot_step(turn: _Turn, seat: int, rng: random.Random) -> None:
    action = choose_action(engine.player_view(turn.state, seat), rng)
    try:
        turn.step(action, automatic=True)
    except IllegalMove as error:
        # The engine's own bot should never be refused; if it is, a plain legal move
        # keeps the game going instead of stalling it for the people waiting.
        log.warning("bot move %r refused in game %s: %s", action, turn.game.pk, error.message)
        turn.step(engine.legal_actions(turn.state)[-1], automatic=True)


@transaction.atomic
def resign(game: Game, user: Any) -> None:
    """The user leaves a game in progress; a bot plays their seat from now on."""
    locked = _lock(game)
    if locked.status != Game.Status.ACTIVE:
        raise OnlineError(_("This game isn't in progress."), code="not_active")
    seats = _seats(locked)
    seat = seat_for_user(seats, user)
    if seat is None or seat.resigned:
        raise OnlineError(_("You aren't playing in this game."), code="not_seated")
    seat.resigned = True
    seat.is_bot = True
    seat.save(update_fields=["resigned", "is_bot"])
    state = load_state(locked)
    _bump(locked)  # nobody's turn starts or ends here: no email to write
    _queue_bot_if_due(locked, seats, state)


@transaction.atomic
def rematch(game: Game, by: Any, *, version: int) -> Game:
    """A new lobby game with the same rules and seats (resigned seats left open)."""
    locked = _lock(game)
    if locked.status != Game.Status.FINISHED:
        raise OnlineError(_("The game isn't over yet."), code="not_finished")
    if locked.version != version:
        raise StaleMove(moved_on_message(), code="stale")
    seats = _seats(locked)
    me = seat_for_user(seats, by)
    if me is None or me.resigned:
        raise OnlineError(_("You aren't playing in this game."), code="not_seated")
    people = [
        seat.player.user for seat in seats if not seat.is_bot and seat.player_id != me.player_id
    ]
    bots = sum(1 for seat in seats if seat.is_bot and not seat.resigned)
    new = create_game(
        by,
        name=locked.name,
        seats=len(seats),
        rules=game_rules(locked),
        time_limit=locked.time_limit,
        bots=bots,
        invite=people,
    )
    _bump(locked)
    return new


def queue_stalled_bot(game: Game, seats: Sequence[Seat]) -> bool:
    """Queue the bot again when its turn has waited much longer than a bot takes (a lost
    task, a broker that was down). Harmless if the first task still runs: the move
    number decides. `seats` are the game's seats in position order."""
    if game.status != Game.Status.ACTIVE or game.turn_started_at is None:
        return False
    if timezone.now() - game.turn_started_at < timedelta(seconds=30 + BOT_DELAY_SECONDS):
        return False
    current = (game.state or {}).get("current_seat")
    if current is None or not seats[current].is_bot:
        return False
    _queue_bot(game)
    return True


# --- saving ---------------------------------------------------------------------------------

_GAME_FIELDS = (
    "state",
    "recent_moves",
    "seed",
    "status",
    "move_number",
    "current_player",
    "turn_started_at",
    "rounds_played",
    "winner",
    "tiebreak_winner",
    "finished_at",
)


def _check_current(game: Game, expected_move: int) -> None:
    if game.status == Game.Status.FINISHED:
        raise StaleMove(_("The game is over."), code="game_over")
    if game.status != Game.Status.ACTIVE:
        raise OnlineError(_("This game hasn't started yet."), code="not_active")
    if game.move_number != expected_move:
        raise StaleMove(moved_on_message(), code="stale")


def _seats(game: Game, *, players: bool = True) -> list[Seat]:
    seats = Seat.objects.filter(game=game).order_by("position")
    return list(seats.select_related("player") if players else seats)


def _save(turn: _Turn) -> None:
    game, seats, state = turn.game, turn.seats, turn.state
    Move.objects.bulk_create(turn.moves)
    game.move_number += len(turn.moves)
    game.recent_moves = recent_moves(game.recent_moves, turn.moves)
    if turn.rounds:
        RoundScore.objects.bulk_create(
            [row for summary in turn.rounds for row in _round_rows(game, seats, summary, state)]
        )
    if turn.rounds or state.game_over:
        _refresh_seats(seats, state)
    _store(game, seats, state, turn_ended=turn.turn_ended)
    _bump(game, *_GAME_FIELDS)
    notifications.after_move(game, turn.before, state, turn.moves)
    _queue_bot_if_due(game, seats, state)


RECENT_MOVES = 10  # the table's log of recent turns


def recent_moves(recent: list[list[Any]], moves: Iterable[Move]) -> list[list[Any]]:
    """`Game.recent_moves` after appending `moves` (see the field)."""
    added = [[move.number, move.seat, move.action, move.automatic] for move in moves]
    return (recent + added)[-RECENT_MOVES:]


def _store(game: Game, seats: Sequence[Seat], state: GameState, *, turn_ended: bool) -> None:
    game.state = state.to_dict()
    game._engine_state = (game.state, state)  # type: ignore[attr-defined]
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


def _round_rows(
    game: Game, seats: Sequence[Seat], summary: RoundSummary, state: GameState
) -> Iterable[RoundScore]:
    # One action ends at most one round, so the standing's totals are that round's totals.
    for seat, line in zip(seats, summary.seats, strict=True):
        yield RoundScore(
            game=game,
            seat=seat,
            player_id=seat.player_id,
            round_number=summary.round_number,
            phase_attempted=line.phase,
            phase_completed=summary.laid[seat.position],
            points=line.points,
            went_out=line.went_out,
            total=state.scores[seat.position],
        )


def _refresh_seats(seats: Sequence[Seat], state: GameState) -> None:
    standing = state.standing
    ranks = standing_ranks(state.rules, standing)
    for seat in seats:
        position = seat.position
        seat.score = standing.scores[position]
        seat.phase = standing.phase[position]
        seat.phases_completed = len(standing.completed[position])
        seat.rank = ranks[position]
        seat.is_winner = position == standing.winner
    Seat.objects.bulk_update(seats, ["score", "phase", "phases_completed", "rank", "is_winner"])


def _queue_bot_if_due(game: Game, seats: Sequence[Seat], state: GameState) -> None:
    if not state.game_over and seats[state.current_seat].is_bot:
        _queue_bot(game)


def _queue_bot(game: Game) -> None:
    from phase10site.celery import publish_on_commit

    from .tasks import bot_turn

    # A broker that is down must not undo, fail or slow the move that was just saved;
    # the beat job `requeue_stalled_bots` (and the table page) queue a stalled bot again.
    publish_on_commit(bot_turn, game.pk, game.move_number, countdown=BOT_DELAY_SECONDS)


def requeue_stalled_bots() -> int:
    """Queue again every bot whose turn has waited far longer than a bot takes (its task
    was lost, or the broker was down when the move committed). Finds them through the
    waiting-turn index; a duplicate task is harmless because the move number decides."""
    cutoff = timezone.now() - timedelta(seconds=30 + BOT_DELAY_SECONDS)
    waiting = Game.objects.filter(
        status=Game.Status.ACTIVE, mode=Game.Mode.ONLINE, turn_started_at__lte=cutoff
    ).filter(Exists(Seat.objects.filter(game=OuterRef("pk"), is_bot=True)))
    queued = 0
    for game in waiting.prefetch_related("seats"):
        if queue_stalled_bot(game, list(game.seats.all())):
            queued += 1
    return queued


# --- the engine's reasons, translated --------------------------------------------------------


def rule_message(error: RuleError) -> str:
    """A translated sentence for an engine RuleError (the engine's text is English)."""
    messages = {
        "game_over": _("The game is over."),
        "already_drawn": _("You have already drawn this turn."),
        "discard_empty": _("The discard pile is empty."),
        "skip_from_discard": _("A Skip can never be taken from the discard pile."),
        "draw_pile_empty": _("The draw pile is empty: take the top discard."),
        "draw_first": _("Draw a card first."),
        "already_laid": _("You have already laid down your phase this round."),
        "cards_not_in_hand": _("You don't have all those cards in your hand."),
        "card_not_in_hand": _("That card isn't in your hand."),
        "keep_a_card": _("You must keep a card to discard."),
        "wrong_phase": _("Those groups aren't the phase you are on."),
        "no_phase": _("You have no phase left to lay down."),
        "no_phase_made": _("Those groups don't make any phase you still need."),
        "hit_before_laying": _("You can hit only after laying down your phase."),
        "no_such_group": _("That group isn't on the table."),
        "hit_others_same_turn": _(
            "In the turn you lay down your phase you may hit only your own groups."
        ),
        "skip_without_skip": _("Only a Skip card skips a player."),
        "skip_next_only": _("In this game a Skip always skips the next player."),
        "skip_target": _("That player can't be skipped."),
        "skip_target_needed": _("Say which player to skip."),
        "hit_does_not_fit": _("That card doesn't fit on that group."),
        "hit_needs_end": _("Say which end of the run the card goes on."),
        "group_empty": _("A group needs at least one card."),
        "group_has_skip": _("Skip cards can't be part of any group."),
        "set_mixed": _("All the cards of a set must have the same number."),
        "colour_mixed": _("All the cards of a colour group must have the same colour."),
        "run_too_long": _("A run can't be longer than 12 cards."),
        "run_not_consecutive": _("A run's cards must be consecutive numbers."),
        "run_below_1": _("A run can't go below 1."),
        "run_above_12": _("A run can't go above 12."),
        "phase_group_count": _("That is the wrong number of groups for your phase."),
        "group_too_small": _("A group has too few cards for your phase."),
        "natural_card": _("Your phase needs at least one natural (non-Wild) card."),
    }
    return messages.get(error.code) or _("That isn't allowed: %(reason)s") % {"reason": error}
