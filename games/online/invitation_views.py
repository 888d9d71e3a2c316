"""Taking a seat one was offered: the invite link (anyone who has it), and an invitation
by username, which its person accepts or declines on My games.

An invitation is looked up by the game and the person answering it, so answering one you
don't have (or one already gone: answered in another tab, withdrawn, the game started)
says only that it is no longer open — the same for any game id, so nothing leaks.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.http import AuthenticatedHtmxHttpRequest

from ..errors import Refused
from ..models import Game, Invitation
from ..players import seat_for_user
from . import lobby

LIST = "games/online/list.html"


@login_required
@require_http_methods(["GET", "POST"])
def online_join(request: AuthenticatedHtmxHttpRequest, token: str) -> HttpResponse:
    """The invite link: who is in, and a button to take a seat."""
    game = get_object_or_404(Game, mode=Game.Mode.ONLINE, invite_token=token)
    seats = list(game.seats.select_related("player").order_by("position"))
    if seat_for_user(seats, request.user) is not None:
        return redirect(game)
    if game.status != Game.Status.LOBBY:
        raise Http404
    error = ""
    if request.method == "POST":
        try:
            lobby.join(game, request.user, token)
        except Refused as refused:
            error = refused.message
        else:
            messages.success(request, _("You joined the game."))
            return redirect(game)
    return render(
        request,
        "games/online/join.html",
        {
            "game": game,
            "seats": seats,
            "free": lobby.lobby_size(game) - len(seats),
            "error": error,
        },
    )


def _invited_game_id(request: AuthenticatedHtmxHttpRequest, public_id: str) -> int | None:
    """The id of the online game `public_id` if the user has an invitation to it."""
    return (
        Invitation.objects.filter(user=request.user, game__public_id=public_id)
        .values_list("game_id", flat=True)
        .first()
    )


def _answered(
    request: AuthenticatedHtmxHttpRequest, *, error: str = "", notice: str = ""
) -> HttpResponse:
    """Back to My games; under htmx, the invitations that are left (and the error)."""
    if request.htmx:
        context = {"invitations": lobby.invitations_for(request.user), "invitation_error": error}
        return render(request, f"{LIST}#invitations", context)
    if error:
        messages.error(request, error)
    elif notice:
        messages.info(request, notice)
    return redirect("games:online_list")


@login_required
@require_POST
def online_accept_invitation(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    game_id = _invited_game_id(request, public_id)
    if game_id is None:
        return _answered(request, error=lobby.no_invitation_message())
    try:
        seat = lobby.accept_invitation(game_id, request.user)
    except Refused as refused:
        return _answered(request, error=refused.message)
    messages.success(request, _("You joined the game."))
    if request.htmx:
        return HttpResponseClientRedirect(seat.game.get_absolute_url())
    return redirect(seat.game)


@login_required
@require_POST
def online_decline_invitation(
    request: AuthenticatedHtmxHttpRequest, public_id: str
) -> HttpResponse:
    game_id = _invited_game_id(request, public_id)
    if game_id is None:
        return _answered(request, error=lobby.no_invitation_message())
    try:
        lobby.decline_invitation(game_id, request.user)
    except Refused as refused:
        return _answered(request, error=refused.message)
    return _answered(request, notice=_("Invitation declined."))
