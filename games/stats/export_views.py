"""Your data out: your games, rounds and rating history as CSV, a finished game as JSON
(what goes in them: export.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from accounts.http import AuthenticatedHttpRequest
from games.models import Game, Player

from . import export

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _get_game_for_user(user: User, public_id: str) -> Game:
    """A finished game the user played in or scored, else 404."""
    return get_object_or_404(
        Game.objects.filter(status=Game.Status.FINISHED)
        .filter(Q(seats__player__user=user) | Q(creator=user) | Q(co_scorers=user))
        .distinct(),
        public_id=public_id,
    )


@login_required
@require_GET
def export_games_csv(request: AuthenticatedHttpRequest) -> StreamingHttpResponse:
    """Every game you played in, one row each, with your result."""
    return export.csv_response(
        "phase10-games.csv", export.games_rows(Player.for_user(request.user))
    )


@login_required
@require_GET
def export_rounds_csv(request: AuthenticatedHttpRequest) -> StreamingHttpResponse:
    """Every round of every game you played in, one row per player per round."""
    return export.csv_response(
        "phase10-rounds.csv", export.rounds_rows(Player.for_user(request.user))
    )


@login_required
@require_GET
def export_ratings_csv(request: AuthenticatedHttpRequest) -> StreamingHttpResponse:
    """Your rating history: one row per rated game, before and after."""
    return export.csv_response(
        "phase10-ratings.csv", export.ratings_rows(Player.for_user(request.user))
    )


@login_required
@require_GET
def export_game_json(request: AuthenticatedHttpRequest, public_id: str) -> JsonResponse:
    game = _get_game_for_user(request.user, public_id)
    data = {
        **export.game_dict(game),
        "ratings": export.game_ratings(game),
        "chat": export.game_chat(game, Player.for_user(request.user)),
    }
    response = JsonResponse(data, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="phase10-game-{game.public_id}.json"'
    return response
