"""The TV view: a night's live scoreboard for a big screen at the table (large type, a
dark background, six players on 1920 × 1080 without scrolling). Public through the
share token like the share page, read-only, kept out of search engines, and updated by
the same version poll (204 while nothing changed)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.functional import SimpleLazyObject
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts.http import HtmxHttpRequest

from ..models import Game
from .scoreboard import load_scoreboard

TV = "games/nights/tv.html"


def _noindex(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _context(game: Game) -> dict[str, object]:
    # Read lazily: the template draws the board once per version and language ({% cache %}),
    # so later visitors and polls of that version don't read the rounds.
    return {"game": game, "board": SimpleLazyObject(lambda: load_scoreboard(game))}


@require_GET
def night_tv(request: HtmxHttpRequest, token: str) -> HttpResponse:
    game = get_object_or_404(Game, share_token=token, mode=Game.Mode.TABLE)
    return _noindex(render(request, TV, _context(game)))


@require_GET
@never_cache
def night_tv_live(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The TV view polls this with the version it shows: 204 after one query while
    nothing changed, else the new scoreboard (no more polling once the game is over)."""
    version = (
        Game.objects.filter(share_token=token, mode=Game.Mode.TABLE)
        .values_list("version", flat=True)
        .first()
    )
    if version is None:
        raise Http404
    if request.GET.get("version") == str(version):
        return _noindex(HttpResponse(status=204))
    game = get_object_or_404(Game, share_token=token, mode=Game.Mode.TABLE)
    return _noindex(render(request, f"{TV}#live", _context(game)))
