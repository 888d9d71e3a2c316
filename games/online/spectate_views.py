"""Pages for watching an online game: a finished game's replay (its players, and the
spectator link once the game is over), the spectator link itself (made and revoked by
any seated player) and what it shows: the board as a spectator sees it, never a hand.

Access: a replay shows every hand, so it exists only once the game is over, and only
for its players (`online_replay`, with the chat) or the spectator link
(`online_spectate_replay`, without: a spectator never reads the chat);
anyone else, and anyone before the end, gets 404. A spectator link that was revoked or
replaced answers 404. Spectator pages are kept out of search engines (`noindex`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHtmxHttpRequest, HtmxHttpRequest

from ..errors import Refused
from ..models import Game, Seat
from . import replay, spectators
from .access import get_seating_for_user, seats_with_profiles
from .board import Seating, board_html

REPLAY = "games/online/replay.html"
SPECTATE = "games/online/spectate.html"


def noindex[**P](view: Callable[P, HttpResponse]) -> Callable[P, HttpResponse]:
    """Search engines leave the page out (the <meta> in the templates says so too)."""

    @wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        response = view(*args, **kwargs)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response

    return wrapped


def _seating(request: AuthenticatedHtmxHttpRequest, public_id: str) -> Seating:
    """The online game `public_id` with the user's seat, or 404 for anyone not seated."""
    return get_seating_for_user(request.user, public_id)


def _watchable(token: str) -> QuerySet[Game]:
    """The started online game whose spectator link is `token` (none for an empty one)."""
    if not token:
        return Game.objects.none()
    # Excluding the empty token as well matches the unique index's condition.
    games = Game.objects.filter(mode=Game.Mode.ONLINE, spectator_token=token)
    return games.exclude(status=Game.Status.LOBBY).exclude(spectator_token="")


def _watched(token: str) -> Game:
    """The started online game whose spectator link is `token`, or 404."""
    return get_object_or_404(_watchable(token))


# --- the spectator link ----------------------------------------------------------------------


@login_required
@require_POST
def online_spectators(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    """A seated player makes a (new) spectator link (`do=make`) or revokes it (`do=revoke`)."""
    seating = _seating(request, public_id)
    do = request.POST.get("do")
    error = notice = ""
    if do not in ("make", "revoke"):
        error = _("Choose to make or to revoke the spectator link.")
    else:
        try:
            spectators.set_link(seating.game, request.user, make=do == "make")
        except Refused as refused:
            error = refused.message
        else:
            notice = (
                _("Anyone with the new link can watch this game.")
                if do == "make"
                else _("The spectator link no longer works.")
            )
            seating = _seating(request, public_id)
    if request.htmx:
        return HttpResponse(board_html(request, seating, error=error, notice=notice))
    if error:
        messages.error(request, error)
    else:
        messages.success(request, notice)
    return redirect(seating.game)


# --- what the spectator link shows ---------------------------------------------------------------


def _spectate_context(game: Game, token: str) -> dict[str, Any]:
    return {
        **spectators.board_context(game, seats_with_profiles(game)),
        "urls": {
            "poll": reverse("games:online_spectate_poll", args=[token]),
            "replay": reverse("games:online_spectate_replay", args=[token]),
        },
    }


@noindex
@require_GET
def online_spectate(request: HtmxHttpRequest, token: str) -> HttpResponse:
    game = _watched(token)
    return render(request, SPECTATE, _spectate_context(game, token))


@noindex
@never_cache
@require_GET
def online_spectate_poll(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The spectator's board asks every few seconds with the version it shows: 204 after
    one query while unchanged, else the fresh board."""
    version = _watchable(token).values_list("version", flat=True).first()
    if version is None:
        raise Http404
    if request.GET.get("v") == str(version):
        return HttpResponse(status=204)
    game = _watched(token)
    return render(request, f"{SPECTATE}#board", _spectate_context(game, token))


# --- replays ----------------------------------------------------------------------------------


def _replay_page(
    request: HttpRequest,
    game: Game,
    seats: list[Seat],
    url: str,
    back: str,
    *,
    reader: Seat | None,
) -> HttpResponse:
    """A replay step, with the table talk for `reader` (a player; None: a spectator)."""
    if game.status != Game.Status.FINISHED:
        raise Http404  # a replay shows every hand: not while the game is on
    moves = replay.logged_moves(game)
    try:
        number = int(request.GET.get("move", len(moves)))
    except ValueError:
        number = len(moves)
    context = replay.step_context(game, seats, moves, number, reader=reader)
    context["url"] = url
    context["back_url"] = back
    context["rounds"] = replay.rounds_record(game, seats)
    return render(request, REPLAY, context)


@login_required
@require_GET
def online_replay(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    seating = _seating(request, public_id)
    url = reverse("games:online_replay", args=[public_id])
    back = seating.game.get_absolute_url()
    return _replay_page(request, seating.game, seating.seats, url, back, reader=seating.me)


@noindex
@require_GET
def online_spectate_replay(request: HtmxHttpRequest, token: str) -> HttpResponse:
    game = _watched(token)
    url = reverse("games:online_spectate_replay", args=[token])
    back = reverse("games:online_spectate", args=[token])
    # A spectator can't read the chat, not even once the game is over.
    return _replay_page(request, game, seats_with_profiles(game), url, back, reader=None)
