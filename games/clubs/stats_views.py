"""A club's stats page: the phase that stops the group most, its records, the members'
head-to-head grid and its games over time (games/clubs/records.py), members only."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from accounts.http import AuthenticatedHttpRequest
from games import cache_keys

from . import access, records, year


@login_required
@require_GET
def club_stats(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    club = access.club_for_member(request.user, public_id)
    kept = records.club_figures(club)
    today = timezone.localdate()
    context = {
        "club": club,
        "figures": kept,
        "parts": cache_keys.clubs_parts(kept.key, club.name),
        "review_year": year.featured_year(today) or today.year,
    }
    return render(request, "clubs/stats.html", context)
