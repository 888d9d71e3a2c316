"""Pages of claiming a guest (accounts/claims.py): the claims to answer and the guests
who might be you, an invitation from a game night's scorer, a request to be a guest,
and the answers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.models import Player
from games.stats.access import visible_players
from games.words import isolated
from phase10site.celery import publish_on_commit

from . import claims, tasks
from .forms import InviteForm
from .http import AuthenticatedHttpRequest
from .models import GuestClaim

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _get_claim_for_user(user: User, claim_id: int) -> GuestClaim:
    """A pending claim this user may answer, else 404."""
    return get_object_or_404(claims.claims_for(user), pk=claim_id)


@login_required
@require_GET
def claim_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    user = request.user
    pending = GuestClaim.objects.filter(status=GuestClaim.Status.PENDING).select_related(
        "guest", "user", "created_by", "approver"
    )
    mine = pending.filter(created_by=user)
    context = {
        "to_answer": claims.claims_for(user).select_related("guest", "user", "created_by"),
        "suggested": claims.suggested_guests(user).annotate(
            requested=Exists(
                GuestClaim.objects.filter(
                    guest=OuterRef("pk"), user=user, status=GuestClaim.Status.PENDING
                )
            )
        ),
        "sent": mine.exclude(approver=user),
    }
    return render(request, "accounts/claims.html", context)


@login_required
@require_POST
def invite_guest(request: AuthenticatedHttpRequest, player_id: int) -> HttpResponse:
    """The scorer invites a guest's real person (by username or email)."""
    me = Player.for_user(request.user)
    guest = get_object_or_404(visible_players(me, request.user), pk=player_id)
    if not claims.can_invite(request.user, guest):
        raise Http404
    form = InviteForm(request.POST)
    if form.is_valid():
        try:
            with transaction.atomic():
                claim = claims.invite(request.user, guest, form.cleaned_data["who"])
                claim_id = claim.pk
                publish_on_commit(tasks.send_claim_invitation, claim_id)
        except claims.ClaimError as error:
            messages.error(request, str(error))
        else:
            # Echo what the scorer typed: whether an address has an account stays private.
            messages.success(
                request,
                _("We invited %(who)s to take over %(guest)s's games.")
                % {
                    "who": isolated(form.cleaned_data["who"].strip()),
                    "guest": isolated(guest.name),
                },
            )
    else:
        messages.error(request, _("Enter a username or an email address."))
    return redirect("games:player_stats", player_id=guest.pk)


@login_required
@require_POST
def request_claim(request: AuthenticatedHttpRequest, player_id: int) -> HttpResponse:
    """'That guest is me': ask the scorer to merge a suggested guest into your account."""
    guest = get_object_or_404(claims.suggested_guests(request.user), pk=player_id)
    try:
        claim = claims.request_claim(request.user, guest)
    except claims.ClaimError as error:
        messages.error(request, str(error))
    else:
        if claim is None:
            messages.success(
                request, _("%(guest)s's games are now yours.") % {"guest": isolated(guest.name)}
            )
        else:
            messages.success(
                request,
                _("We asked %(scorer)s to confirm that %(guest)s is you.")
                % {"scorer": isolated(str(claim.approver)), "guest": isolated(guest.name)},
            )
    return redirect("accounts:claims")


@login_required
@require_POST
def claim_accept(request: AuthenticatedHttpRequest, claim_id: int) -> HttpResponse:
    claim = _get_claim_for_user(request.user, claim_id)
    try:
        player = claims.accept(claim, request.user)
    except claims.ClaimError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("%(guest)s's games now belong to %(player)s.")
            % {"guest": claim.guest_name, "player": player.name},
        )
    return redirect("accounts:claims")


@login_required
@require_POST
def claim_decline(request: AuthenticatedHttpRequest, claim_id: int) -> HttpResponse:
    claim = _get_claim_for_user(request.user, claim_id)
    try:
        claims.decline(claim, request.user)
    except claims.ClaimError as error:
        messages.error(request, str(error))
    else:
        messages.info(
            request, _("Declined: %(guest)s stays a guest.") % {"guest": claim.guest_name}
        )
    return redirect("accounts:claims")
