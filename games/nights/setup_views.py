"""Setting up a game night: the new-night form, and a member's answer to a seat they
were given by someone they never played with (nights/seating.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.http import AuthenticatedHtmxHttpRequest, AuthenticatedHttpRequest

from ..clubs import membership
from ..clubs.forms import add_club_field, club_of, starting_club
from ..errors import Refused
from ..models import Game, Player
from . import seating, services
from .setup_forms import NightGameForm


@login_required
@require_http_methods(["GET", "POST"])
def night_create(request: AuthenticatedHtmxHttpRequest) -> HttpResponse:
    me = Player.for_user(request.user)
    known = seating.known_players(request.user, latest=seating.OFFERED)
    clubs = membership.clubs_of(request.user)
    if request.method == "POST":
        club = next((c for c in clubs if str(c.pk) == request.POST.get("club")), None)
    else:
        club = starting_club(request.user, clubs, request.GET.get("club"))
    # A club's night offers its members and guests first.
    people, ask = seating.club_first(club, request.user, known) if club else (known, set())
    labels = seating.player_labels(people, request.user)
    form = NightGameForm(me, people, labels, request.POST or None, ask=ask)
    add_club_field(form, clubs, club)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.create_game(
                request.user,
                players=form.players,
                first_dealer=form.dealer_position,
                rules=form.cleaned_data["rules"],
                name=form.cleaned_data["name"],
                club=club_of(form),
            )
        except Refused as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Game night started. Good luck, everyone!"))
            if game.seats.filter(accepted=False).exists():
                messages.info(
                    request,
                    _(
                        "Members who never played with you were asked first: the night "
                        "counts in their stats once they accept."
                    ),
                )
            return redirect(game)
    return render(request, "games/nights/new.html", {"form": form})


@login_required
@require_POST
def night_seat_answer(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """Accept (answer=accept) or decline the seat waiting for the user; 404 unless they
    are seated in this night (after declining they aren't)."""
    game = get_object_or_404(
        Game.objects.filter(seats__player__user=request.user),
        public_id=public_id,
        mode=Game.Mode.NIGHT,
    )
    accept = request.POST.get("answer") == "accept"
    try:
        seating.answer(game, request.user, accept=accept)
    except Refused as error:
        messages.error(request, error.message)
        return redirect(game)
    if accept:
        messages.success(request, _("You're in: this game night counts in your stats."))
        return redirect(game)
    messages.success(
        request,
        _("You declined: your seat is a guest's with your name, and the night isn't yours."),
    )
    return redirect("games:night_list")
