"""The year in review: a member's own, the link that shares it (made and deleted by
its owner, opened by anyone who has it) and a club's, members only
(games/clubs/year.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHttpRequest
from games import cache_keys
from games.errors import Refused
from games.models import Player, YearShare

from . import access, year


def _open_year(number: int) -> int:
    """`number` if a review of it may be asked for, else 404 (a year to come, or one
    before the site's games)."""
    if not year.is_open(number, timezone.localdate()):
        raise Http404
    return number


def _navigation(number: int, name: str, *args: object) -> dict[str, str | None]:
    """Links to the year before and the year after (none past this year)."""
    today = timezone.localdate()

    def link(other: int) -> str | None:
        if not year.is_open(other, today):
            return None
        return reverse(name, args=[*args, other])

    return {"previous_url": link(number - 1), "next_url": link(number + 1)}


@login_required
@require_GET
def year_review(request: AuthenticatedHttpRequest, number: int) -> HttpResponse:
    """The member's own year, with the link that shares it (outside the kept part:
    its forms carry the CSRF token)."""
    _open_year(number)
    player = Player.for_user(request.user)
    key, review = year.lazy_person_year(player, number)
    shared = year.shared_link(request.user, number)
    context: dict[str, Any] = {
        "year": number,
        "review": review,
        "player": player,
        "own": True,
        "shared_page": False,
        "share_url": None
        if shared is None
        else request.build_absolute_uri(reverse("games:year_shared", args=[shared.token])),
        "parts": cache_keys.clubs_parts(key, "own", player.name),
        **_navigation(number, "games:year_review"),
    }
    return render(request, "clubs/year.html", context)


@login_required
@require_POST
def year_share(request: AuthenticatedHttpRequest, number: int) -> HttpResponse:
    _open_year(number)
    try:
        year.share(request.user, number)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("Your year is shared: anyone with the link can see it."))
    return redirect("games:year_review", number)


@login_required
@require_POST
def year_stop_sharing(request: AuthenticatedHttpRequest, number: int) -> HttpResponse:
    _open_year(number)
    try:
        year.stop_sharing(request.user, number)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("You stopped sharing your year: the link no longer works."))
    return redirect("games:year_review", number)


@require_GET
def year_shared(request: HttpRequest, token: str) -> HttpResponse:
    """A shared year, for anyone with the link: no log-in, only what the owner's own
    games say (guests by first name, no game's name or page)."""
    shared = get_object_or_404(YearShare.objects.select_related("user__player"), token=token)
    player = getattr(shared.user, "player", None)
    if player is None:
        raise Http404
    key, review = year.lazy_person_year(player, shared.year)
    context = {
        "year": shared.year,
        "review": review,
        "player": player,
        "own": False,
        "shared_page": True,
        "parts": cache_keys.clubs_parts(key, "shared", player.name),
        "previous_url": None,
        "next_url": None,
    }
    response = render(request, "clubs/year.html", context)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


@login_required
@require_GET
def club_year(request: AuthenticatedHttpRequest, public_id: str, number: int) -> HttpResponse:
    _open_year(number)
    club = access.club_for_member(request.user, public_id)
    key, review = year.lazy_club_year(club, number)
    context = {
        "club": club,
        "year": number,
        "review": review,
        "parts": cache_keys.clubs_parts(key, "club", club.name),
        **_navigation(number, "games:club_year", club.public_id),
    }
    return render(request, "clubs/club_year.html", context)
