"""The board's pause buttons (games/online/pause.py): ask for or agree to a pause, say
no to one, resume. Like every page of a game, 404 for anyone without a seat."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHtmxHttpRequest

from ..errors import Refused
from ..models import Game
from . import pause
from .access import get_seating_for_user
from .board import Seating, board_html


def _seating(request: AuthenticatedHtmxHttpRequest, public_id: str) -> Seating:
    return get_seating_for_user(request.user, public_id)


def _answer(
    request: AuthenticatedHtmxHttpRequest, public_id: str, change: Callable[[Game], str]
) -> HttpResponse:
    """Make `change` (it returns the notice to show); the board under htmx, else back
    to the game page with the notice or the refusal as a message."""
    seating = _seating(request, public_id)
    if seating.game.status == Game.Status.LOBBY:
        return redirect(seating.game)
    error = notice = ""
    try:
        notice = change(seating.game)
    except Refused as refused:
        error = refused.message
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, notice)
        return redirect(seating.game)
    seating = _seating(request, public_id)
    return HttpResponse(board_html(request, seating, error=error, notice=notice, focus="notice"))


@login_required
@require_POST
def online_pause(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    """Ask for a pause, or agree to the one asked for."""

    def change(game: Game) -> str:
        if pause.agree(game, request.user):
            return _("The game is paused. Anyone seated can resume it.")
        return _("You agreed to a pause. It starts once everyone seated agrees.")

    return _answer(request, public_id, change)


@login_required
@require_POST
def online_pause_decline(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    def change(game: Game) -> str:
        pause.decline(game, request.user)
        return _("No pause: the game goes on.")

    return _answer(request, public_id, change)


@login_required
@require_POST
def online_resume(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    def change(game: Game) -> str:
        pause.resume(game, request.user)
        return _("The game goes on: the turn's clock starts again with the time it had left.")

    return _answer(request, public_id, change)
