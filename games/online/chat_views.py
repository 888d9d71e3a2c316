"""The chat of an online game (table talk): posting a message, the creator hiding one, a
player muting another's. The messages themselves are drawn with the board (its recent
turns, `board.board_html`), so the other pages get them by their poll.

Access: the people seated at the game; anyone else gets 404, as for the board.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHtmxHttpRequest

from ..errors import Refused
from . import chat
from .access import get_seating_for_user
from .actions import int_field
from .board import Seating, board_html

GAME = "games/online/game.html"
# htmx fires this on the page after a message went in: static/js/chat.js empties the box.
POSTED_EVENT = "chat-posted"


def _get_started_game_for_player(request: AuthenticatedHtmxHttpRequest, public_id: str) -> Seating:
    """The started online game `public_id` with the user's seat; 404 for anyone not
    seated, or a game still in its lobby (it has no chat)."""
    return get_seating_for_user(request.user, public_id, started=True)


def _answer(
    request: AuthenticatedHtmxHttpRequest,
    public_id: str,
    *,
    error: str = "",
    draft: str = "",
    done: str = "",
    focus: str = "",
) -> HttpResponse:
    """The fresh board (under htmx), else the game page: a redirect, or the page with
    the error and the message as typed."""
    seating = _get_started_game_for_player(request, public_id)
    if request.htmx:
        return HttpResponse(
            board_html(
                request, seating, focus=focus, notice=done, chat_draft=draft, chat_error=error
            )
        )
    if error:
        html = board_html(request, seating, chat_draft=draft, chat_error=error)
        return render(request, GAME, {"game": seating.game, "board_html": html})
    if done:
        messages.success(request, done)
    return redirect(seating.game.get_absolute_url() + "#chat")


@login_required
@require_POST
def online_chat(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    """Post a message (`text`) to the game's chat."""
    seating = _get_started_game_for_player(request, public_id)
    text = request.POST.get("text", "")
    try:
        chat.post(seating.game, request.user, text)
    except Refused as error:
        return _answer(
            request,
            public_id,
            error=error.message,
            draft=text.replace("\x00", "")[: chat.MAX_LENGTH],
            focus="chat",
        )
    response = _answer(request, public_id, focus="chat")
    if request.htmx:
        response["HX-Trigger"] = POSTED_EVENT
    return response


@login_required
@require_POST
def online_chat_hide(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    """The game's creator hides a message (`message`, its id) for everyone."""
    seating = _get_started_game_for_player(request, public_id)
    try:
        chat.hide(seating.game, request.user, int_field(request.POST.get("message")) or 0)
    except Refused as error:
        return _answer(request, public_id, error=error.message)
    return _answer(request, public_id, done=_("The message is hidden."))


@login_required
@require_POST
def online_chat_mute(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    """Mute (`muted=on`) or unmute the messages of the player at `seat`, for oneself."""
    seating = _get_started_game_for_player(request, public_id)
    position = int_field(request.POST.get("seat"))
    muted = request.POST.get("muted") == "on"
    try:
        chat.set_muted(seating.me, seating.seats, -1 if position is None else position, muted)
    except Refused as error:
        return _answer(request, public_id, error=error.message)
    done = _("You won't see their messages.") if muted else _("You see their messages again.")
    return _answer(request, public_id, done=done)
