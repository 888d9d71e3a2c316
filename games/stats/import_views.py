"""Importing plays from elsewhere into game nights: a BG Stats export (bgstats.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from accounts.http import AuthenticatedHttpRequest
from games.clubs import membership
from games.clubs.forms import add_club_field, club_of, starting_club
from games.errors import Refused
from games.models import Player
from games.words import isolated

from . import bgstats
from .forms import BGStatsImportForm


@login_required
@require_http_methods(["GET", "POST"])
def import_bgstats(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Upload a BG Stats export: its Phase 10 plays become your finished game nights."""
    form = BGStatsImportForm(request.POST or None, request.FILES or None)
    clubs = membership.clubs_of(request.user)
    add_club_field(form, clubs, starting_club(request.user, clubs, request.GET.get("club")))
    if request.method == "POST" and form.is_valid():
        own_name = form.cleaned_data["own_name"].strip() or Player.for_user(request.user).name
        try:
            result = bgstats.import_export(
                request.user,
                form.cleaned_data["export"],
                own_name=own_name,
                club=club_of(form),
            )
        except Refused as error:
            form.add_error(error.field, error.message)
        else:
            for level, text in result_messages(result, result.own_name or own_name):
                messages.add_message(request, level, text)
            return redirect("games:import_bgstats")
    return render(request, "games/stats/import.html", {"form": form})


# Plays left out are named one sentence each up to this many, then counted.
LEFT_OUT_NAMED = 10


def result_messages(result: bgstats.ImportResult, own_name: str) -> list[tuple[int, str]]:
    """What an import did, one sentence per kind of play (and per play left out)."""
    found = result.imported + result.already + result.skipped + result.not_yours + result.ignored
    if not found:
        return [(messages.WARNING, _("The file has no Phase 10 plays."))]
    said = [
        (
            messages.SUCCESS,
            ngettext(
                "%(count)s Phase 10 play imported.",
                "%(count)s Phase 10 plays imported.",
                result.imported,
            )
            % {"count": result.imported},
        )
    ]
    if result.already:
        said.append(
            (
                messages.INFO,
                ngettext(
                    "%(count)s play was imported before: left as it was.",
                    "%(count)s plays were imported before: left as they were.",
                    result.already,
                )
                % {"count": result.already},
            )
        )
    said += [(messages.WARNING, why) for why in result.left_out[:LEFT_OUT_NAMED]]
    unnamed = result.skipped - len(result.left_out[:LEFT_OUT_NAMED])
    if unnamed:
        said.append(
            (
                messages.WARNING,
                ngettext(
                    "%(count)s play left out: it needs 2 to 6 players, each once, "
                    "with a final score.",
                    "%(count)s plays left out: a play needs 2 to 6 players, each once, "
                    "with a final score.",
                    unnamed,
                )
                % {"count": unnamed},
            )
        )
    if result.ignored:
        said.append(
            (
                messages.INFO,
                ngettext(
                    "%(count)s play left out: it is marked as ignored in BG Stats.",
                    "%(count)s plays left out: they are marked as ignored in BG Stats.",
                    result.ignored,
                )
                % {"count": result.ignored},
            )
        )
    if result.not_yours:
        said.append(
            (
                messages.WARNING,
                ngettext(
                    "%(count)s play left out: you aren't in it (your name in BG Stats: "
                    "“%(name)s”).",
                    "%(count)s plays left out: you aren't in them (your name in BG Stats: "
                    "“%(name)s”).",
                    result.not_yours,
                )
                % {"count": result.not_yours, "name": isolated(own_name)},
            )
        )
    return said
