"""A club's seasons: the league table with the members' ratings, the admins' settings,
past seasons and their champions, and the TV view that follows the club's games live.
Members only (access.club_for_member: 404 to everyone else)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHtmxHttpRequest

from ..errors import Refused
from ..models import Club, Season
from . import access, seasons, tv
from .season_forms import SeasonForm

SEASON = "clubs/season.html"
TV = "clubs/tv.html"


def _season_page(
    request: AuthenticatedHtmxHttpRequest,
    club: Club,
    season: Season,
    *,
    form: SeasonForm | None = None,
    status: int = 200,
) -> HttpResponse:
    editable = club.viewer_is_admin and season.closed_at is None and not seasons.is_over(season)
    if editable and form is None:
        form = SeasonForm.for_season(season, club.version)
    context = {
        "club": club,
        "season": season,
        "is_current": season.starts <= seasons.site_today() <= season.ends,
        "is_over": seasons.is_over(season),
        "table": seasons.season_table(club, season),
        "ratings": seasons.member_ratings(club, season),
        "others": [
            (other, seasons.champion_name(other)) for other in seasons.other_seasons(club, season)
        ],
        "form": form if editable else None,
    }
    return render(request, SEASON, context, status=status)


@login_required
@require_GET
def club_season(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    club = access.club_for_member(request.user, public_id)
    return _season_page(request, club, seasons.current_season(club))


@login_required
@require_GET
def club_season_detail(
    request: AuthenticatedHtmxHttpRequest, public_id: str, season_id: int
) -> HttpResponse:
    club = access.club_for_member(request.user, public_id)
    season = seasons.club_season(club, season_id)
    if season is None:
        raise Http404
    return _season_page(request, club, season)


@login_required
@require_POST
def club_season_settings(
    request: AuthenticatedHtmxHttpRequest, public_id: str, season_id: int
) -> HttpResponse:
    club = access.club_for_member(request.user, public_id)
    season = seasons.club_season(club, season_id)
    if season is None or not club.viewer_is_admin:
        raise Http404
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            seasons.update_season(
                club, season.pk, form.settings(), version=form.cleaned_data["version"]
            )
        except Refused as error:
            if error.field is None:
                messages.error(request, error.message)
                return redirect(reverse("games:club_season_detail", args=[public_id, season.pk]))
            form.add_error(error.field, error.message)
        else:
            messages.success(request, _("Season saved."))
            return redirect(reverse("games:club_season_detail", args=[public_id, season.pk]))
    return _season_page(request, club, season, form=form, status=400)


def _noindex(response: HttpResponse) -> HttpResponse:
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _tv_context(club: Club, live_version: str | None = None) -> dict[str, object]:
    season = seasons.current_season(club)
    return {
        "club": club,
        "season": season,
        "table": seasons.season_table(club, season),
        "nights": tv.nights_in_progress(club),
        # After current_season: a new season moves the club's version on.
        "live_version": live_version or tv.live_version(club),
    }


@login_required
@require_GET
def club_tv(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    club = access.club_for_member(request.user, public_id)
    return _noindex(render(request, TV, _tv_context(club)))


@login_required
@require_GET
@never_cache
def club_tv_live(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    """The TV's poll: 204 while the version it sends is the club's (two queries after the
    session's), else the new table and nights, whose markup carries the new version."""
    club = access.club_for_member(request.user, public_id)
    shown = tv.live_version(club)
    if request.GET.get("version") == shown:
        return _noindex(HttpResponse(status=204))
    return _noindex(render(request, f"{TV}#live", _tv_context(club, shown)))
