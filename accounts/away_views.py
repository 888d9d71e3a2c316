"""The away mode page (accounts/away.py): going away until a day, and coming back early."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from games.errors import Refused

from . import away
from .forms import AwayForm
from .http import AuthenticatedHttpRequest


def _page(request: AuthenticatedHttpRequest, form: AwayForm) -> HttpResponse:
    user = request.user
    now = timezone.now()
    period = away.current(user, now)
    year = away.today(user.profile, now).year
    context: dict[str, Any] = {
        "form": form,
        "period": period,
        "year": year,
        "days_left": away.days_left(user, year),
        "max_days": away.MAX_DAYS_A_YEAR,
    }
    return render(request, "accounts/away.html", context)


def _day_words(day: date) -> str:
    return date_format(day, "DATE_FORMAT")


@login_required
@require_http_methods(["GET", "POST"])
def away_mode(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method != "POST":
        period = away.current(request.user)
        initial = {"until": period.last_day} if period is not None else {}
        return _page(request, AwayForm(initial=initial))
    form = AwayForm(request.POST)
    if not form.is_valid():
        return _page(request, form)
    try:
        period = away.go_away(request.user, form.cleaned_data["until"])
    except Refused as error:
        form.add_error("until", error.message)
        return _page(request, form)
    messages.success(
        request,
        _("You are away until the end of %(day)s.") % {"day": _day_words(period.last_day)},
    )
    return redirect("accounts:away")


@login_required
@require_POST
def away_end(request: AuthenticatedHttpRequest) -> HttpResponse:
    try:
        given_back = away.come_back(request.user)
    except Refused as error:
        messages.info(request, error.message)
        return redirect("accounts:away")
    text = _("Welcome back: your turn clocks are ticking again.")
    if given_back:
        text += " " + ngettext(
            "%(count)s day of away mode is yours again.",
            "%(count)s days of away mode are yours again.",
            given_back,
        ) % {"count": given_back}
    messages.success(request, text)
    return redirect("accounts:away")
