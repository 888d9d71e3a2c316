"""A night's public pages, by its share token: read-only, for whoever has the link.

The share page follows the live scoreboard on a phone; the TV view shows it for a big
screen at the table (large type, a dark background, six players on 1920 × 1080 without
scrolling, kept out of search engines). Both poll their `live/` address with the
version they show: 204 after one query while nothing changed, else the new scoreboard
(no more polling once the game is over)."""

from __future__ import annotations

import functools

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.functional import SimpleLazyObject
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts.http import HtmxHttpRequest

from ..models import Game
from . import page
from .scoreboard import load_scoreboard

SHARE = "games/nights/share.html"
TV = "games/nights/tv.html"


def _context(game: Game) -> dict[str, object]:
    # Read lazily: the template draws the board once per version and language ({% cache %}),
    # so later visitors and polls of that version don't read the rounds.
    board = functools.cache(functools.partial(load_scoreboard, game))
    return {
        "game": game,
        "board": SimpleLazyObject(board),
        **page.parts(),
    }


def _live(request: HtmxHttpRequest, token: str, template: str) -> HttpResponse:
    """The poll: unchanged, 204 after a single query and no template; changed, the new
    scoreboard, whose markup carries the new version."""
    version = (
        Game.objects.filter(share_token=token, mode=Game.Mode.NIGHT)
        .values_list("version", flat=True)
        .first()
    )
    if version is None:
        raise Http404
    if request.GET.get("version") == str(version):
        return HttpResponse(status=204)
    game = get_object_or_404(Game, share_token=token, mode=Game.Mode.NIGHT)
    return render(request, f"{template}#live", _context(game))


def _noindex(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@require_GET
def night_share(request: HtmxHttpRequest, token: str) -> HttpResponse:
    game = get_object_or_404(Game, share_token=token, mode=Game.Mode.NIGHT)
    return render(request, SHARE, _context(game))


@require_GET
@never_cache
def night_share_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    return _live(request, token, SHARE)


@require_GET
def night_tv(request: HtmxHttpRequest, token: str) -> HttpResponse:
    game = get_object_or_404(Game, share_token=token, mode=Game.Mode.NIGHT)
    return _noindex(render(request, TV, _context(game)))


@require_GET
@never_cache
def night_tv_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    return _noindex(_live(request, token, TV))
