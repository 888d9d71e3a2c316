"""The real URLs plus the bench's yardsticks, served only by bench/web.py's gunicorn.

The bare view is a logged-in request through the same middleware, session and
database as every page, doing one small query and rendering nothing.

The statements' yardsticks are what a move and a round must write through the ORM, the
way the services write them (issue 29: `filter(pk=…, version=…).update()`,
`bulk_create`), and nothing else: no form, no engine, no page. What the action and
round entry can reach is below what these reach.
"""

from dataclasses import replace

from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import include, path
from django.utils import timezone
from django.views.decorators.http import require_POST

from games.engine import Rules, Standing
from games.engine.progression import start
from games.models import Game, Move, Notification, RoundScore, Seat
from games.nights.services import NIGHT_FIELDS
from games.notify import outbox
from games.online.access import get_seating_for_user
from games.online.services import recent_moves
from games.scoring import bump, game_rules, refresh_seats, round_row


@login_required
def bare(request: HttpRequest) -> HttpResponse:
    version = Game.objects.filter(pk=1).values_list("version", flat=True).first()
    return HttpResponse(f"{version}", content_type="text/plain")


@login_required
@require_POST
def move_statements(request: HttpRequest, public_id: str) -> HttpResponse:
    """A move's statements, `do` a draw or a discard (the action's client alternates the
    two): the game read with its seats and their people (one query, as the action reads
    it), then in one transaction the game's compare-and-swap with the fields that move
    writes and the move's row; a discard also writes the next player's "your turn" row in
    the outbox, handed to Celery after commit. The state is written back as it was read
    (the engine's part is not measured)."""
    seating = get_seating_for_user(request.user, public_id)  # type: ignore[arg-type]
    game, seats = seating.game, seating.seats
    discard = request.POST.get("do") == "discard"
    number = game.move_number + 1
    move = Move(game=game, number=number, seat=seating.me.position, action={"type": "draw"})
    game.move_number = number
    game.recent_moves = recent_moves(game.recent_moves, [move])
    changed = ["state", "move_number", "recent_moves"]  # a draw's (`services._save`)
    rows = []
    if discard:
        following = seats[(seating.me.position + 1) % len(seats)]
        move.action = {"type": "discard"}
        game.current_player_id = following.player_id
        game.turn_started_at = timezone.now()
        changed += ["current_player", "turn_started_at"]
        recipient = following.player.user
        assert recipient is not None  # floor0 … are members, not guests
        context = {"discard_top": "R7", "round": game.rounds_played + 1}  # as a discard's
        rows.append(
            outbox.Row(game, number, recipient, Notification.Kind.YOUR_TURN, context=context)
        )
    with transaction.atomic():
        bump(game, *changed)
        Move.objects.bulk_create([move])
        if rows:
            outbox.write(rows, seats={seat.position: seat for seat in seats}, fresh=True)
    return HttpResponse(f"{game.version}", content_type="text/plain")


# A night's seats, rules and standing, read once per process: they stand for the
# scoreboard that round entry takes from the cache (its reading is not measured here).
# Each worker keeps its own, so the totals stored differ from worker to worker: nothing
# reads them, only their writing is measured.
_NIGHTS: dict[str, tuple[list[Seat], Rules, Standing]] = {}


@login_required
@require_POST
def round_statements(request: HttpRequest, public_id: str) -> HttpResponse:
    """A round's statements: the night read (one query, as its scorer's form reads it),
    then in one transaction the game's compare-and-swap with the fields a round writes,
    one round row per seat and the seats' totals (`scoring.refresh_seats`). The round
    adds 5 points to each seat, folded by hand, not by the engine."""
    nights = Game.objects.filter(mode=Game.Mode.NIGHT, creator_id=request.user.pk)
    game = get_object_or_404(nights, public_id=public_id)
    if public_id not in _NIGHTS:
        seats, rules = list(game.seats.order_by("position")), game_rules(game)
        _NIGHTS[public_id] = (seats, rules, start(len(seats), rules))
    seats, rules, standing = _NIGHTS[public_id]
    standing = replace(standing, scores=tuple(score + 5 for score in standing.scores))
    _NIGHTS[public_id] = (seats, rules, standing)
    number = game.rounds_played + 1
    game.rounds_played = number
    rows = [
        round_row(
            game,
            seat,
            number,
            attempted=1,
            completed=None,
            points=5,
            went_out=False,
            total=standing.scores[seat.position],
        )
        for seat in seats
    ]
    with transaction.atomic():
        bump(game, *NIGHT_FIELDS)
        RoundScore.objects.bulk_create(rows)
        refresh_seats(seats, rules, standing)
    return HttpResponse(f"{game.version}", content_type="text/plain")


urlpatterns = [
    path("bench/bare/", bare),
    path("bench/statements/move/<str:public_id>/", move_statements),
    path("bench/statements/round/<str:public_id>/", round_statements),
    path("", include("phase10site.urls")),
]
