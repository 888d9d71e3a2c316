"""The only code that changes a game night (a real deck at a real table).

Every change checks the version the scorer's form was built from, rewrites the rounds
and recomputes everything else (phases, totals, ranks, dealer, winner, tie-breaker)
from the rounds through the engine's progression helper. So an edit of round 2 fixes
round 9, and nothing here knows the rules of Phase 10: the engine decides, this module
stores. A new round of a night in play (its last one included), the change made most,
is folded onto the scoreboard its form was checked against instead: that scoreboard is
the night at the form's version, since every change moves the version on.

Every change is written by `_store`, one transaction: the game's end with its version's
bump first (`scoring.bump`, the compare-and-swap that refuses a stale form), then the
round rows that changed and the seats.

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

from games.engine import RoundResult, RuleError, Rules, Standing, standing_ranks
from games.engine.progression import advance, settle_tiebreak, start

from ..clubs.membership import check_member, kept_club
from ..errors import Refused, Stale
from ..models import Club, Game, Player, QueuedRound, RoundScore, Seat
from ..scoring import (
    ROUND_FIELDS,
    Changed,
    bump,
    game_rules,
    queue_rating,
    refresh_seats,
    round_row,
)
from ..words import isolated
from . import seating
from .corrections import Correction, Kind
from .refusals import check_engine, round_error
from .scoreboard import (
    RoundEntry,
    Scoreboard,
    ScoreboardRound,
    entries_from_rows,
    recorded_tiebreak,
    scoreboard_after,
    scoreboard_of,
    scoreboard_rounds,
    settle,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# A second "Start" within this window with the same table is a double tap, not a new game.
DOUBLE_SUBMIT_WINDOW = timedelta(seconds=30)

# What a change of a night's rounds writes on its game row, with the version's bump.
NIGHT_FIELDS = (
    "rounds_played",
    "status",
    "winner",
    "finished_at",
    "tiebreak_winner",
    "tiebreak_seats",
)


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
    club: Club | None = None,
) -> Game:
    """A new game night; `players` in seating order, a str being a guest's name and a
    User a member seated by username (whose seat waits for their answer if they never
    played with the creator: nights/seating.py). `club`: the club it belongs to, one of
    the creator's (Refused otherwise)."""
    with transaction.atomic():
        # Serialise one user's creations so a double tap finds the first game below.
        get_user_model().objects.select_for_update().filter(pk=creator.pk).first()
        check_member(club, creator)
        seated = [_resolve_player(creator, player) for player in players]
        if len({player.pk for player in seated}) != len(seated):
            raise Refused(_("Each player can have only one seat."))
        check_engine(lambda: start(len(seated), rules, dealer=first_dealer))
        duplicate = _just_created(creator, seated, first_dealer, rules, name, club)
        if duplicate is not None:
            return duplicate
        game = Game.objects.create(
            mode=Game.Mode.NIGHT,
            status=Game.Status.ACTIVE,
            name=name,
            rules=rules.to_dict(),
            first_dealer=first_dealer,
            creator=creator,
            club=club,
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
        _save(_Night(game, seats, [], []), [])
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
    standing, the rounds before it never read."""
    if board is not None and _continues(game, board, version):
        seats = _seats_at(game, board)
        number = len(board.rounds) + 1
        result = _round_result(board.rules, board.standing, entry)
        try:
            standing = advance(board.rules, board.standing, result)
        except RuleError as error:
            raise round_error(error, game, number, number, result) from error
        ranks = standing_ranks(board.rules, standing)
        fresh = scoreboard_after(board, result, standing, ranks, version=version + 1)
        rows = list(_rows_of(game, seats, fresh.rounds[-1]))
        _store(game, seats, board.rules, standing, rounds=number, create=rows, key=key)
        return game, fresh
    night = _read(game, version)
    # A tie-breaker result set aside by a correction was for a tie at the end of the
    # rounds as they were; a tie after a new round is a new tie, to be played.
    _forget_tiebreak(night.game)
    fresh = _save(night, [*night.entries, entry], changed=len(night.entries) + 1, key=key)
    return night.game, fresh


def edit_round(game: Game, number: int, entry: RoundEntry, *, version: int) -> Game:
    """Replace round `number`; every later round is recomputed from it. A recorded
    tie-breaker result is kept: it counts while its tied seats are still the tie."""
    night = _read(game, version)
    _save(night, _edited(night.entries, number, entry), changed=number)
    return night.game


def undo_last(game: Game, *, version: int) -> Game:
    """Take back the last thing entered: the tie-breaker's winner, else the last round."""
    night = _read(game, version)
    entries, _kind = _undone(night)
    _save(night, entries)
    return night.game


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
    night = _read(game, version)
    game, seats = night.game, night.seats
    _results, standing = _replay(game, len(seats), night.entries)
    check_engine(
        lambda: settle_tiebreak(standing, winner), names=[seat.player.name for seat in seats]
    )
    game.tiebreak_winner = winner
    game.tiebreak_seats = list(standing.tiebreak_seats)
    _save(night, night.entries)
    return game


def add_co_scorer(game: Game, user: User, *, version: int) -> Game:
    game = _current(game, version)
    if user.pk == game.creator_id or game.co_scorers.filter(pk=user.pk).exists():
        raise Refused(
            _("%(name)s already keeps score in this game.")
            % {"name": isolated(user.get_username())},
            field="username",
        )
    with transaction.atomic():
        _bump(game)
        game.co_scorers.add(user)
    return game


def rematch(game: Game, by: User, *, version: int) -> Game:
    """A new game night with the same players in the same seats and the same rules.

    The deal passes one seat on from the last game's first dealer, and whoever kept score
    last time keeps score again. Someone who has since deleted their account is left
    out (their Player is anonymised: nobody can play as them again); the deal then
    passes to the next player. The old game's version is bumped so a double tap on
    "Rematch" is refused as stale instead of starting two games.
    """
    night = _read(game, version)
    old, seats = night.game, night.seats
    with transaction.atomic():
        # The old night's version first: a double tap's second rematch is stale here.
        _bump(old)
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
            club=kept_club(old, by),
        )
        # The creator may have deleted their account since (Game.creator is then None).
        scorers = {old.creator_id, *old.co_scorers.values_list("pk", flat=True)} - {by.pk}
        new.co_scorers.add(*(pk for pk in scorers if pk is not None))
        return new


# --- reading and writing ----------------------------------------------------------------


@dataclass
class _Night:
    game: Game
    seats: list[Seat]
    rows: list[RoundScore]
    entries: list[RoundEntry]


def _current(game: Game, version: int) -> Game:
    """`game` as stored now, refused as stale unless at `version`. Not locked: `_store`'s
    compare-and-swap refuses the change if anything moved on after this read."""
    current = Game.objects.get(pk=game.pk)
    if current.version != version:
        raise Stale(stale_message(), code="stale")
    return current


def _read(game: Game, version: int) -> _Night:
    return _load(_current(game, version))


def _load(game: Game) -> _Night:
    """`game` with its seats and rounds: to change them, or for a preview (on a copy of
    the game that is changed in memory and never saved)."""
    rows = list(RoundScore.objects.filter(game=game).order_by("round_number"))
    seats = _seats(game)
    return _Night(game, seats, rows, entries_from_rows(seats, rows))


def _seats(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).select_related("player").order_by("position"))


def _seats_at(game: Game, board: Scoreboard) -> list[Seat]:
    """The night's seats as stored at `board`'s version, not read again: what a round
    writes of them (the totals, phases, ranks, the winner) is what `board` shows, since
    every change of a night moves its version on."""
    return [
        Seat(
            id=seat.seat_id,
            game=game,
            position=seat.position,
            player_id=seat.player_id,
            score=seat.total,
            phase=seat.phase,
            phases_completed=len(seat.completed),
            rank=seat.rank,
            is_winner=seat.is_winner,
            accepted=seat.accepted,
        )
        for seat in board.seats
    ]


def _continues(game: Game, board: Scoreboard, version: int) -> bool:
    """Whether a new round can be folded onto `board`: the night is in play at the
    form's version, with no tie-breaker result recorded (set aside or not: a new round
    forgets it, which the full fold does)."""
    return (
        board.version == version == game.version
        and game.status == Game.Status.ACTIVE
        and not board.rounds_unknown
        and not board.rounds_over
        and game.tiebreak_winner is None
        and not game.tiebreak_seats
    )


def _bump(game: Game, *fields: str) -> None:
    try:
        bump(game, *fields)
    except Changed as error:
        raise Stale(stale_message(), code="stale") from error


def _store(
    game: Game,
    seats: Sequence[Seat],
    rules: Rules,
    standing: Standing,
    *,
    create: Sequence[RoundScore] = (),
    update: Sequence[RoundScore] = (),
    delete: Sequence[RoundScore] = (),
    rounds: int,
    key: UUID | None = None,
) -> None:
    """The one way a change of a night's rounds is written, all or nothing: the game's
    end as `standing` has it (`rounds` played) with its version's bump, refused as stale
    if the game moved on since it was read; then the round rows that changed and the
    seats. `key`: a round a phone queued offline, recorded with it once. A night that
    finishes, or a finished one that changes, goes to the ratings after commit."""
    was_over = game.status == Game.Status.FINISHED
    game.rounds_played = rounds
    if standing.game_over:
        game.status = Game.Status.FINISHED
        game.winner_id = seats[standing.winner].player_id if standing.winner is not None else None
        game.finished_at = game.finished_at or timezone.now()
    else:
        game.status = Game.Status.ACTIVE
        game.winner = None
        game.finished_at = None
    with transaction.atomic():
        _bump(game, *NIGHT_FIELDS)
        if delete:
            RoundScore.objects.filter(pk__in=[row.pk for row in delete]).delete()
        if update:
            RoundScore.objects.bulk_update(update, ROUND_FIELDS)
        if create:
            RoundScore.objects.bulk_create(create)
        refresh_seats(seats, rules, standing)
        if key is not None:
            QueuedRound.objects.create(game=game, key=key, round_number=rounds)
    if was_over or standing.game_over:
        # A correction of a finished game re-rates from it on (a change that leaves its
        # result as it was re-rates nothing).
        queue_rating(game)


def _edited(entries: Sequence[RoundEntry], number: int, entry: RoundEntry) -> list[RoundEntry]:
    if not 1 <= number <= len(entries):
        raise Refused(_("There is no round %(number)s.") % {"number": number})
    edited = list(entries)
    edited[number - 1] = entry
    return edited


def _undone(night: _Night) -> tuple[list[RoundEntry], Kind]:
    """The rounds after "Undo": the tie-breaker's result goes while it decides the game;
    else the last round goes, and a result set aside with it (its tie came at the end of
    the rounds as they were)."""
    game, entries = night.game, list(night.entries)
    _results, standing = _replay(game, len(night.seats), entries)
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
    current: _Night, entries: Sequence[RoundEntry], *, changed: int | None = None
) -> Scoreboard:
    results, standing = _replay(current.game, len(current.seats), entries, changed=changed)
    return scoreboard_of(current.game, current.seats, results, standing)


def _save(
    night: _Night,
    entries: Sequence[RoundEntry],
    *,
    changed: int | None = None,
    key: UUID | None = None,
) -> Scoreboard:
    """Recompute everything from `entries`, then store what differs (`_store`); returns
    the scoreboard as stored (what `load_scoreboard` reads back at the new version)."""
    game, seats = night.game, night.seats
    if game.status == Game.Status.FINISHED and not night.rows:
        # Finished without rounds: imported final scores (stats/bgstats.py), which
        # folding rounds would wipe.
        raise Refused(_("Only this night's final scores are known: it can't be changed."))
    results, standing = _replay(game, len(seats), entries, changed=changed)
    rows = (
        row
        for board_round in scoreboard_rounds(results, standing)
        for row in _rows_of(game, seats, board_round)
    )
    create, update, delete = _changes(night.rows, rows)
    rules = game_rules(game)
    _store(
        game,
        seats,
        rules,
        standing,
        rounds=len(results),
        create=create,
        update=update,
        delete=delete,
        key=key,
    )
    return scoreboard_of(game, seats, results, standing)


def _changes(
    stored: Iterable[RoundScore], rows: Iterable[RoundScore]
) -> tuple[list[RoundScore], list[RoundScore], list[RoundScore]]:
    """The rows to create, update and delete to turn `stored` into `rows`: a new round
    creates one row per seat, an edit updates the rows it moved, an undo deletes a round."""
    old = {(row.round_number, row.seat_id): row for row in stored}
    create, update = [], []
    for row in rows:
        current = old.pop((row.round_number, row.seat_id), None)
        if current is None:
            create.append(row)
        elif any(getattr(current, field) != getattr(row, field) for field in ROUND_FIELDS):
            for field in ROUND_FIELDS:
                setattr(current, field, getattr(row, field))
            update.append(current)
    return create, update, list(old.values())


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


def _rows_of(
    game: Game, seats: Sequence[Seat], board_round: ScoreboardRound
) -> Iterable[RoundScore]:
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
    club: Club | None,
) -> Game | None:
    recent = Game.objects.filter(
        creator=creator,
        club=club,
        mode=Game.Mode.NIGHT,
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
