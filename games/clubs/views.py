"""Clubs: your clubs and invitations, a new club, the club's page, the join link, and the
members' changes (invite, leave, admins, a new join link, the name).

A club is fetched through `access.club_for_member` (404 to anyone else). Every change
is a POST that calls one service in games/clubs/membership.py and goes back to the club's
page (or /clubs/) with what happened, or what was refused, as a message.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.http import AuthenticatedHttpRequest
from games.errors import Refused
from games.models import Club, ClubMember
from games.words import isolated

from . import access, membership, page
from .forms import AdminForm, ClubNameForm, InviteForm

LIST = "clubs/list.html"


def _list(request: AuthenticatedHttpRequest, form: ClubNameForm | None = None) -> HttpResponse:
    return render(
        request,
        LIST,
        {
            "clubs": page.clubs_for(request.user),
            "invitations": membership.invitations_for(request.user),
            "form": form or ClubNameForm(),
        },
    )


@login_required
def club_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Your clubs, the invitations waiting for you and the form for a new club."""
    return _list(request)


@login_required
@require_http_methods(["GET", "POST"])
def club_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method != "POST":
        return redirect("games:club_list")
    form = ClubNameForm(request.POST)
    if form.is_valid():
        try:
            club = membership.create_club(request.user, form.cleaned_data["name"])
        except Refused as error:
            form.add_error(error.field, error.message)
        else:
            messages.success(request, _("Club created. Invite the people you play with."))
            return redirect("games:club_detail", club.public_id)
    return _list(request, form)


@login_required
def club_detail(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    club = access.club_for_member(request.user, public_id)
    return render(request, "clubs/detail.html", {"club": club, "body": page.body(request, club)})


# --- joining and invitations ----------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def club_join(request: AuthenticatedHttpRequest, token: str) -> HttpResponse:
    """The join link: the club's name and who is in it, and a button to join."""
    club = get_object_or_404(Club, invite_token=token)
    people = list(
        ClubMember.objects.filter(club=club).select_related("user").order_by("joined_at", "pk")
    )
    if any(member.user_id == request.user.pk for member in people):
        return redirect("games:club_detail", club.public_id)
    if request.method == "POST":
        try:
            membership.join(request.user, token)
        except Refused as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Welcome to the club!"))
            return redirect("games:club_detail", club.public_id)
    return render(request, "clubs/join.html", {"club": club, "people": people})


@login_required
@require_POST
def club_accept_invitation(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    try:
        club = membership.accept_invitation(request.user, public_id)
    except Refused as error:
        messages.error(request, error.message)
        return redirect("games:club_list")
    messages.success(request, _("Welcome to the club!"))
    return redirect("games:club_detail", club.public_id)


@login_required
@require_POST
def club_decline_invitation(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    try:
        membership.decline_invitation(request.user, public_id)
    except Refused as error:
        messages.error(request, error.message)
    else:
        messages.info(request, _("Invitation declined."))
    return redirect("games:club_list")


@login_required
@require_POST
def club_invite(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    club = access.club_for_member(request.user, public_id)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _back(club, request, error=_("Type the username of the person to invite."))
    try:
        invitation = membership.invite(club, request.user, form.cleaned_data["username"])
    except Refused as error:
        return _back(club, request, error=error.message)
    name = isolated(invitation.user.get_username())
    return _back(club, request, notice=_("%(name)s is invited.") % {"name": name})


# --- leaving and the admins' changes --------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def club_leave(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    """GET: what leaving means (and who becomes admin); POST: leave."""
    club = access.club_for_member(request.user, public_id)
    if request.method == "POST":
        try:
            successor = membership.leave(club, request.user)
        except Refused as error:
            messages.error(request, error.message)
            return redirect("games:club_list")
        notice = _("You left %(club)s.") % {"club": isolated(club.name)}
        if successor is not None:
            notice += " " + _("%(name)s is its admin now.") % {
                "name": isolated(successor.user.get_username())
            }
        messages.success(request, notice)
        return redirect("games:club_list")
    heir = membership.heir(club, request.user)
    return render(request, "clubs/leave.html", {"club": club, "heir": heir})


@login_required
@require_POST
def club_make_admin(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    club = access.club_for_member(request.user, public_id)
    form = AdminForm(request.POST)
    if not form.is_valid():
        return _back(club, request, error=_("That person isn't in this club."))
    try:
        member = membership.make_admin(club, request.user, form.cleaned_data["member"])
    except Refused as error:
        return _back(club, request, error=error.message)
    name = isolated(member.user.get_username())
    return _back(club, request, notice=_("%(name)s is an admin now.") % {"name": name})


@login_required
@require_POST
def club_new_link(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    club = access.club_for_member(request.user, public_id)
    try:
        membership.new_join_link(club, request.user)
    except Refused as error:
        return _back(club, request, error=error.message)
    return _back(club, request, notice=_("New join link made: the old one no longer works."))


@login_required
@require_POST
def club_rename(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    club = access.club_for_member(request.user, public_id)
    form = ClubNameForm(request.POST)
    if not form.is_valid():
        return _back(club, request, error=_("A club's name is 1 to 60 characters long."))
    try:
        membership.rename(club, request.user, form.cleaned_data["name"])
    except Refused as error:
        return _back(club, request, error=error.message)
    return _back(club, request, notice=_("Club renamed."))


def _back(
    club: Club, request: AuthenticatedHttpRequest, *, error: str = "", notice: str = ""
) -> HttpResponse:
    if error:
        messages.error(request, error)
    elif notice:
        messages.success(request, notice)
    return redirect("games:club_detail", club.public_id)
