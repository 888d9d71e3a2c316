"""The stats pages: your own (a prompt to log in for visitors), another player's, and
the leaderboard. The number of queries doesn't depend on how many games anyone played
(tests/stats/test_stats_queries.py)."""

from __future__ import annotations

import zoneinfo
from typing import TYPE_CHECKING, Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts.http import AuthenticatedHttpRequest, is_authenticated
from games import cache_keys
from games.clubs import year
from games.models import Player, Seat

from . import figures, page, rating_stats
from .access import visible_players
from .leaderboard import MIN_GAMES, ranked
from .scope import MODES, PERIODS, VARIANTS, Scope

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _get_player_for_user(user: User, me: Player, player_id: int) -> Player:
    """A Player whose page `user` may see (access.visible_players), else 404."""
    return get_object_or_404(
        visible_players(me, user).select_related("user__profile"), pk=player_id
    )


def _links(
    request: HttpRequest, key: str, choices: dict[str, Any], current: str
) -> list[dict[str, Any]]:
    """Links to this page with `key` set to each choice (the other filters kept)."""
    result = []
    for value, label in choices.items():
        query = request.GET.copy()
        query[key] = value
        result.append(
            {"label": label, "url": f"?{query.urlencode()}", "selected": value == current}
        )
    return result


def _filter_links(request: HttpRequest, scope: Scope) -> dict[str, list[dict[str, Any]]]:
    return {
        "mode_links": _links(request, "mode", MODES, scope.mode),
        "period_links": _links(request, "period", PERIODS, scope.period),
        "variant_links": _links(request, "variant", VARIANTS, scope.variant),
    }


def _scope(request: HttpRequest, player: Player) -> Scope:
    get = request.GET.get
    return Scope.parse(player, get("mode"), get("period"), get("variant"))


def _avatar_colour(request: AuthenticatedHttpRequest, player: Player) -> str:
    # Your own Player's user is the request's (already loaded); others come with
    # user__profile from _get_player_for_user. A guest has none (and no query).
    if player.user_id == request.user.pk:
        return request.user.profile.avatar_colour
    user = player.user
    return "" if user is None else user.profile.avatar_colour


def _user_time_zone(user: User) -> zoneinfo.ZoneInfo:
    """The viewer's zone from their profile (dates in the charts' text), UTC if unknown."""
    try:
        return zoneinfo.ZoneInfo(user.profile.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _stats_page(request: AuthenticatedHttpRequest, player: Player, me: Player) -> HttpResponse:
    """One player's stats page (your own, or someone you played with)."""
    scope = _scope(request, player)
    with timezone.override(_user_time_zone(request.user)):
        return _render_stats(request, scope, player, me)


def _render_stats(
    request: AuthenticatedHttpRequest, scope: Scope, player: Player, me: Player
) -> HttpResponse:
    # Asked for only when the page's recent games aren't kept (player.html's
    # `stats_recent`), or to chart the last game when the figures are counted.
    recent: list[Seat] = SimpleLazyObject(lambda: figures.recent_seats(scope, viewer=me))  # type: ignore[assignment]
    own = player.pk == me.pk
    kept = page.player_figures(
        scope,
        name=_("you") if own else player.name,
        own=own,
        last_game=lambda: recent[0].game if recent else None,
    )
    summary, phases, rivals = kept.summary, kept.phases, kept.rivals
    context: dict[str, Any] = {
        "player": player,
        "own": own,
        "avatar_colour": _avatar_colour(request, player),
        "scope": scope,
        "summary": summary,
        "win_rate_percent": None if summary.win_rate is None else round(summary.win_rate * 100),
        "phases": phases,
        "nemesis": figures.nemesis(phases),
        "rivals": rivals,
        "most_frequent": rivals[0] if rivals else None,
        "recent": recent,
        "parts": cache_keys.stats_parts(kept.key, me),
        "review_year": _review_year(),
        # Drawn by page.py (every text in them escaped).
        "last_game_chart": SafeString(kept.last_game_chart),
        "win_rate_chart": SafeString(kept.win_rate_chart),
        "phase_chart": SafeString(kept.phase_chart),
        **_filter_links(request, scope),
    }
    return render(request, "games/stats/player.html", context)


def _review_year() -> int:
    """The year in review the page points to (clubs/year.py `featured_year`)."""
    today = timezone.localdate()
    return year.featured_year(today) or today.year


@require_GET
def stats(request: HttpRequest) -> HttpResponse:
    """Your own stats; a prompt to log in for visitors."""
    if not is_authenticated(request):
        return render(request, "games/stats/login.html")
    me = Player.for_user(request.user)
    return _stats_page(request, me, me)


@login_required
@require_GET
def player_stats(request: AuthenticatedHttpRequest, player_id: int) -> HttpResponse:
    me = Player.for_user(request.user)
    player = _get_player_for_user(request.user, me, player_id)
    if player.pk == me.pk:
        return redirect("games:stats")
    return _stats_page(request, player, me)


@login_required
@require_GET
def leaderboard(request: AuthenticatedHttpRequest) -> HttpResponse:
    me = Player.for_user(request.user)
    scope = _scope(request, me)
    sort = "rating" if request.GET.get("sort") == "rating" else "wins"
    context = {
        "me": me,
        "scope": scope,
        "rows": rating_stats.with_ratings(ranked(scope), by_rating=sort == "rating"),
        "sort": sort,
        "sort_links": _links(request, "sort", rating_stats.SORTS, sort),
        "min_games": MIN_GAMES,
        "provisional_games": rating_stats.PROVISIONAL_GAMES,
        **_filter_links(request, scope),
    }
    return render(request, "games/stats/leaderboard.html", context)
