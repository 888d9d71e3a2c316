"""The only code that changes a game night (a real deck at a real table).

Every change runs in one transaction that locks the game row, checks the version the
scorer's form was built from, rewrites the rounds and then recomputes everything else
(phases, totals, ranks, dealer, winner, tie-breaker) from the rounds through the
engine's progression helper. So an edit of round 2 fixes round 9, and nothing here
knows the rules of Phase 10: the engine decides, this module stores. A new round of
a night in play (its last one included), the change made most, is folded onto the
scoreboard its form was checked against instead, its version checked by a
compare-and-swap (appending.py).

The read side (`scoreboard.load_scoreboard`) folds the same rows through the same
engine call, so the scoreboard can never disagree with what the services stored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING
from uuid import UUID

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import RoundResult, RuleError, Rules, Standing
from games.engine.progression import advance, settle_tiebreak, start

from ..errors import Refused, Stale
from ..models import Game, Player, QueuedRound, RoundScore, Seat
from ..scoring import ROUND_FIELDS, bump, game_rules, queue_rating, refresh_seats, round_row
from ..words import isolated
from . import seating
from .appending import append_round, appendable
from .corrections import Correction, Kind
from .refusals import check_engine, round_error
from .scoreboard import (
    RoundEntry,
    Scoreboard,
    entries_from_rows,
    recorded_tiebreak,
    scoreboard_of,
    scoreboard_rounds,
    settle,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# A second "Start" within this window with the same table is a double tap, not a new game.
DOUBLE_SUBMIT_WINDOW = timedelta(seconds=30)


def stale_message() -> str:
    return _(
        "This game changed since you opened the form (another scorer or a double tap). "
        "Here is the current scoreboard: check it and enter your change again."
    )


# --- changing -----------------------------------------------------------------------------


def create_game(
    creator: User,
    *,
    players: Sequence[Player | str | User],
    first_dealer: int,
    rules: Rules,
    name: str = "",
) -> Game:
    """A new game night; `players` in seating order, a str being a guest's name and a
    User a member seated by username (whose seat waits for their answer if they never
    played with the creator: nights/seating.py)."""
    with transaction.atomic():
        # Serialise one user's creations so a double tap finds the first game below.
        get_user_model().objects.select_for_update().filter(pk=creator.pk).first()
        seated = [_resolve_player(creator, player) for player in players]
        if len({player.pk for player in seated}) != len(seated):
            raise Refused(_("Each player can have only one seat."))
        check_engine(lambda: start(len(seated), rules, dealer=first_dealer))
        duplicate = _just_created(creator, seated, first_dealer, rules, name)
        if duplicate is not None:
            return duplicate
        game = Game.objects.create(
            mode=Game.Mode.TABLE,
            status=Game.Status.ACTIVE,
            name=name,
            rules=rules.to_dict(),
            first_dealer=first_dealer,
            creator=creator,
        )
        # Only a member typed in by username can be someone the creator never played
        # with (the list offers people they did; a rematch passes such a member as a User).
        typed = [
            p
            for p, given in zip(seated, players, strict=True)
            if not isinstance(given, (Player, str))
        ]
        pending = seating.pending_players(creator, typed)
        seats = Seat.objects.bulk_create(
            Seat(game=game, position=position, player=player, accepted=player.pk not in pending)
            for position, player in enumerate(seated)
        )
        _save(_Locked(game, seats, [], []), [])
        return game


def add_round(game: Game, entry: RoundEntry, *, version: int, key: UUID | None = None) -> Game:
    """`key`: a round a phone queued offline; it is recorded with the round, once."""
    return enter_round(game, entry, version=version, key=key)[0]


def enter_round(
    game: Game,
    entry: RoundEntry,
    *,
    version: int,
    key: UUID | None = None,
    board: Scoreboard | None = None,
) -> tuple[Game, Scoreboard]:
    """`add_round`, which also returns the new scoreboard (the page draws it without
    reading the rounds back). `board`: the scoreboard at `version` (the round form's);
    with it, a new round of a night in play (its last one included) is folded onto its
    standing and written in three statements (one on PostgreSQL), the rounds before it
    never read (appending.py)."""
    # A round a phone queued offline (`key`) goes the long way, recorded with its key.
    if board is not None and key is None and appendable(game, board, version):
        number = len(board.rounds) + 1
        result = _round_result(board.rules, board.standing, entry)
        try:
            standing = advance(board.rules, board.standing, result)
        except RuleError as error:
            raise round_error(error, game, number, number, result) from error
        appended = append_round(game, board, result, standing)
        if appended is None:
            raise Stale(stale_message(), code="stale")
        if standing.game_over:
            queue_rating(appended[0])  # as _save queues it: after commit
        return appended
    with transaction.atomic():
        locked = _lock(game, version)
        # A tie-breaker result set aside by a correction was for a tie at the end of the
        # rounds as they were; a tie after a new round is a new tie, to be played.
        _forget_tiebreak(locked.game)
        fresh = _save(locked, [*locked.entries, entry], changed=len(locked.entries) + 1)
        if key is not None:
            QueuedRound.objects.create(game=game, key=key, round_number=len(locked.entries) + 1)
        return locked.game, fresh


def edit_round(game: Game, number: int, entry: RoundEntry, *, version: int) -> Game:
    """Replace round `number`; every later round is recomputed from it. A recorded
    tie-breaker result is kept: it counts while its tied seats are still the tie."""
    with transaction.atomic():
        locked = _lock(game, version)
        _save(locked, _edited(locked.entries, number, entry), changed=number)
        return locked.game


def undo_last(game: Game, *, version: int) -> Game:
    """Take back the last thing entered: the tie-breaker's winner, else the last round."""
    with transaction.atomic():
        locked = _lock(game, version)
        entries, _kind = _undone(locked)
        _save(locked, entries)
        return locked.game


def preview_edit(game: Game, number: int, entry: RoundEntry) -> Correction:
    """What `edit_round` would change: the rounds with the change folded through the
    engine, nothing saved (refused as `edit_round` would refuse it)."""
    current = _load(Game.objects.get(pk=game.pk))
    before = _scoreboard(current, current.entries)
    after = _scoreboard(current, _edited(current.entries, number, entry), changed=number)
    return Correction(Kind.EDIT, number, before, after, recorded_tiebreak(current.game))


def preview_undo(game: Game) -> Correction:
    """What `undo_last` would change, nothing saved."""
    current = _load(Game.objects.get(pk=game.pk))
    before = _scoreboard(current, current.entries)
    entries, kind = _undone(current)  # changes `current.game` in memory only
    number = len(current.entries) if kind == Kind.UNDO_ROUND else None
    after = _scoreboard(current, entries)
    return Correction(kind, number, before, after, recorded_tiebreak(current.game))


def record_tiebreak(game: Game, winner: int, *, version: int) -> Game:
    """The seat `winner` laid down the tie-breaker goal first: the game is over. The
    result is stored with the tied seats it was played by."""
    with transaction.atomic():
        locked = _lock(game, version)
        game, seats = locked.game, locked.seats
        _results, standing = _replay(game, len(seats), locked.entries)
        check_engine(
            lambda: settle_tiebreak(standing, winner), names=[seat.player.name for seat in seats]
        )
        game.tiebreak_winner = winner
        game.tiebreak_seats = list(standing.tiebreak_seats)
        _save(locked, locked.entries)
        return game


def add_co_scorer(game: Game, user: User, *, version: int) -> Game:
    with transaction.atomic():
        game = _lock(game, version).game
        if user.pk == game.creator_id or game.co_scorers.filter(pk=user.pk).exists():
            raise Refused(
                _("%(name)s already keeps score in this game.")
                % {"name": isolated(user.get_username())},
                field="username",
            )
        game.co_scorers.add(user)
        bump(game)
        return game


def rematch(game: Game, by: User, *, version: int) -> Game:
    """A new game night with the same players in the same seats and the same rules.

    The deal passes one seat on from the last game's first dealer, and whoever kept score
    last time keeps score again. Someone who has since deleted their account is left
    out (their Player is anonymised: nobody can play as them again); the deal then
    passes to the next player. The old game's version is bumped so a double tap on
    "Rematch" is refused as stale instead of starting two games.
    """
    with transaction.atomic():
        locked = _lock(game, version)
        old, seats = locked.game, locked.seats
        # From the seat after the last first dealer, all the way round.
        dealing_order = [seats[(old.first_dealer + 1 + n) % len(seats)] for n in range(len(seats))]
        players = [seat.player for seat in seats if not seat.player.anonymised]
        dealer = next((seat.player for seat in dealing_order if not seat.player.anonymised), None)
        # A member who hasn't said yes to the last night is asked again for this one.
        waiting = {seat.player.pk: seat.player.user for seat in seats if not seat.accepted}
        new = create_game(  # too few players left: the engine refuses, with its reason
            by,
            players=[waiting.get(player.pk) or player for player in players],
            first_dealer=0 if dealer is None else players.index(dealer),
            rules=game_rules(old),
            name=old.name,
        )
        # The creator may have deleted their account since (Game.creator is then None).
        scorers = {old.creator_id, *old.co_scorers.values_list("pk", flat=True)} - {by.pk}
        new.co_scorers.add(*(pk for pk in scorers if pk is not None))
        bump(old)
        return new


# --- inside the transaction -------------------------------------------------------------


@dataclass
class _Locked:
    game: Game
    seats: list[Seat]
    rows: list[RoundScore]
    entries: list[RoundEntry]


def _lock(game: Game, version: int) -> _Locked:
    locked = Game.objects.select_for_update().get(pk=game.pk)
    if locked.version != version:
        raise Stale(stale_message(), code="stale")
    return _load(locked)


def _load(game: Game) -> _Locked:
    """`game` with its seats and rounds: under `_lock` to change them, or unlocked for a
    preview (on a copy of the game that is changed in memory and never saved)."""
    seats = list(Seat.objects.filter(game=game).select_related("player").order_by("position"))
    rows = list(RoundScore.objects.filter(game=game).order_by("round_number"))
    return _Locked(game, seats, rows, entries_from_rows(seats, rows))


def _edited(entries: Sequence[RoundEntry], number: int, entry: RoundEntry) -> list[RoundEntry]:
    if not 1 <= number <= len(entries):
        raise Refused(_("There is no round %(number)s.") % {"number": number})
    edited = list(entries)
    edited[number - 1] = entry
    return edited


def _undone(locked: _Locked) -> tuple[list[RoundEntry], Kind]:
    """The rounds after "Undo": the tie-breaker's result goes while it decides the game;
    else the last round goes, and a result set aside with it (its tie came at the end of
    the rounds as they were)."""
    game, entries = locked.game, list(locked.entries)
    _results, standing = _replay(game, len(locked.seats), entries)
    if game.tiebreak_winner is not None and standing.game_over and standing.tiebreak_seats:
        _forget_tiebreak(game)
        return entries, Kind.UNDO_TIEBREAK
    if not entries:
        raise Refused(_("There is no round to undo yet."))
    _forget_tiebreak(game)
    return entries[:-1], Kind.UNDO_ROUND


def _forget_tiebreak(game: Game) -> None:
    game.tiebreak_winner = None
    game.tiebreak_seats = []


def _scoreboard(
    current: _Locked, entries: Sequence[RoundEntry], *, changed: int | None = None
) -> Scoreboard:
    results, standing = _replay(current.game, len(current.seats), entries, changed=changed)
    return scoreboard_of(current.game, current.seats, results, standing)


def _save(
    locked: _Locked, entries: Sequence[RoundEntry], *, changed: int | None = None
) -> Scoreboard:
    """Recompute everything from `entries`, then store rounds, seats and game; returns
    the scoreboard as stored (what `load_scoreboard` reads back at the new version)."""
    game, seats = locked.game, locked.seats
    was_over = game.status == Game.Status.FINISHED
    if was_over and not locked.rows:
        # Finished without rounds: imported final scores (stats/bgstats.py), which
        # folding rounds would wipe.
        raise Refused(_("Only this night's final scores are known: it can't be changed."))
    results, standing = _replay(game, len(seats), entries, changed=changed)
    _write_rounds(locked, _round_rows(game, seats, results, standing))
    refresh_seats(seats, game_rules(game), standing)
    game.rounds_played = len(results)
    if standing.game_over:
        game.status = Game.Status.FINISHED
        game.winner = seats[standing.winner].player if standing.winner is not None else None
        game.finished_at = game.finished_at or timezone.now()
    else:
        game.status = Game.Status.ACTIVE
        game.winner = None
        game.finished_at = None
    bump(game)
    if was_over or standing.game_over:
        # A correction of a finished game re-rates from it on (a change that leaves its
        # result as it was re-rates nothing).
        queue_rating(game)
    return scoreboard_of(game, seats, results, standing)


def _write_rounds(locked: _Locked, rows: Iterable[RoundScore]) -> None:
    """Write only the rows that differ: a new round inserts one row per seat, an edit
    updates the rows it moved, an undo deletes a round."""
    old = {(row.round_number, row.seat_id): row for row in locked.rows}
    create, update = [], []
    for row in rows:
        current = old.pop((row.round_number, row.seat_id), None)
        if current is None:
            create.append(row)
        elif any(getattr(current, field) != getattr(row, field) for field in ROUND_FIELDS):
            for field in ROUND_FIELDS:
                setattr(current, field, getattr(row, field))
            update.append(current)
    if old:
        RoundScore.objects.filter(pk__in=[row.pk for row in old.values()]).delete()
    if update:
        RoundScore.objects.bulk_update(update, ROUND_FIELDS)
    if create:
        RoundScore.objects.bulk_create(create)


def _replay(
    game: Game, players: int, entries: Sequence[RoundEntry], *, changed: int | None = None
) -> tuple[list[RoundResult], Standing]:
    """Fold the entered rounds through the engine; returns the results and the final standing.

    Outside pick-a-phase a completed phase is whatever phase the seat was on, so it is
    read from the standing round by round rather than trusted from the stored rows.
    """
    rules = game_rules(game)
    standing = start(players, rules, dealer=game.first_dealer)
    results = []
    for number, entry in enumerate(entries, start=1):
        result = _round_result(rules, standing, entry)
        try:
            standing = advance(rules, standing, result)
        except RuleError as error:
            raise round_error(error, game, number, changed, result) from error
        results.append(result)
    # The recorded tie-breaker result counts only for the tie it was played for; where
    # an edit changed the tie it is set aside, not erased (the edit may be reverted).
    return results, settle(standing, recorded_tiebreak(game))


def _round_result(rules: Rules, standing: Standing, entry: RoundEntry) -> RoundResult:
    """`entry` as the engine's round, on `standing` (the standing before it)."""
    completed = {
        seat: phase if rules.pick_a_phase else standing.phase[seat]
        for seat, phase in entry.completed.items()
    }
    # A seat with no phase left is on None: it goes to the engine as it is, whose
    # check refuses it with a sentence for the scorer, rather than being dropped.
    return RoundResult(went_out=entry.went_out, completed=completed, points=entry.points)  # type: ignore[arg-type]  # None on purpose, see above


def _round_rows(
    game: Game, seats: Sequence[Seat], results: Sequence[RoundResult], standing: Standing
) -> Iterable[RoundScore]:
    for board_round in scoreboard_rounds(results, standing):
        for seat, cell in zip(seats, board_round.cells, strict=True):
            yield round_row(
                game,
                seat,
                board_round.number,
                attempted=cell.attempted,
                completed=cell.completed,
                points=cell.points,
                went_out=cell.went_out,
                total=cell.total,
            )


def _resolve_player(creator: User, player: Player | str | User) -> Player:
    if isinstance(player, Player):
        return player
    if not isinstance(player, str):
        return Player.for_user(player)
    name = player.strip()
    # The same guest name at this user's table is the same person: their history adds up.
    existing = Player.objects.filter(
        created_by=creator, user__isnull=True, name__iexact=name
    ).first()
    return existing or Player.objects.create(name=name, created_by=creator)


def _just_created(
    creator: User,
    players: Sequence[Player],
    first_dealer: int,
    rules: Rules,
    name: str,
) -> Game | None:
    recent = Game.objects.filter(
        creator=creator,
        mode=Game.Mode.TABLE,
        created_at__gte=timezone.now() - DOUBLE_SUBMIT_WINDOW,
        rounds_played=0,
        first_dealer=first_dealer,
        name=name,
    ).prefetch_related("seats")
    wanted = [player.pk for player in players]
    for game in recent:
        seated = [seat.player_id for seat in sorted(game.seats.all(), key=lambda s: s.position)]
        if seated == wanted and game_rules(game) == rules:
            return game
    return None
