"""Who is in a club: creating one, the join link, invitations by username, leaving, the
admins, the club's name, and which of a member's clubs a new game belongs to.

Each change takes the club row's lock, makes its change and bumps `Club.version` in one
transaction (`games.scoring.bump_club`), so a kept club page never shows an old member list.
A change that can't be made raises `Refused` with a sentence for the page; a change
made twice (a double click, a second tab) is either harmless or refused, never made
twice.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.errors import Refused
from games.ids import new_token
from games.models import Club, ClubInvitation, ClubMember, Game, Player
from games.players import find_member
from games.scoring import bump_club
from games.words import isolated

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# A second "Create" with the same name this soon after the first is the same click twice:
# it gets the club the first one made.
DOUBLE_CLICK = timedelta(seconds=30)


def no_invitation_message() -> str:
    return _("This invitation is no longer open.")


def not_member_message() -> str:
    return _("You aren't in that club.")


@transaction.atomic
def create_club(user: User, name: str) -> Club:
    """A new club with `user` as its first member and admin."""
    name = name.strip()
    if not name:
        raise Refused(_("Give the club a name."), code="no_name", field="name")
    # One user's creations one at a time, so a double click finds the first club here.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    just_made = Club.objects.filter(
        created_by=user,
        name=name,
        created_at__gte=timezone.now() - DOUBLE_CLICK,
        members__user=user,
    ).first()
    if just_made is not None:
        return just_made
    club = Club.objects.create(name=name, created_by=user)
    _add_member(club, user, admin=True)
    return club


def _add_member(club: Club, user: User, *, admin: bool = False) -> None:
    """A new member, with the Player they play as (made now if they never played): a
    club night offers its members by their Players (nights/seating.py `club_first`)."""
    ClubMember.objects.create(club=club, user=user, is_admin=admin)
    Player.for_user(user)


def _lock(club: Club | int) -> Club:
    return Club.objects.select_for_update().get(pk=club if isinstance(club, int) else club.pk)


def _member(club: Club, user: User) -> ClubMember:
    membership = ClubMember.objects.filter(club=club, user=user).first()
    if membership is None:
        raise Refused(_("You aren't in this club any more."), code="not_member")
    return membership


def _as_admin(club: Club, user: User) -> Club:
    """The club, locked, if `user` is one of its admins; else Refused."""
    locked = _lock(club)
    if not _member(locked, user).is_admin:
        raise Refused(_("Only the club's admins can do that."), code="not_admin")
    return locked


# --- invitations --------------------------------------------------------------------------


@transaction.atomic
def invite(club: Club, by: User, username: str) -> ClubInvitation:
    """Invite a member by username: they see it on /clubs/ and accept or decline."""
    locked = _lock(club)
    _member(locked, by)
    user = find_member(username)
    if user is None:
        raise Refused(
            _("There is no player called “%(name)s”.") % {"name": isolated(username.strip())},
            code="unknown",
            field="username",
        )
    name = isolated(user.get_username())
    if ClubMember.objects.filter(club=locked, user=user).exists():
        raise Refused(
            _("%(name)s is already in this club.") % {"name": name}, code="member", field="username"
        )
    if ClubInvitation.objects.filter(club=locked, user=user).exists():
        raise Refused(
            _("%(name)s is already invited.") % {"name": name}, code="invited", field="username"
        )
    invitation = ClubInvitation.objects.create(club=locked, user=user, invited_by=by)
    bump_club(locked.pk)
    return invitation


def invitations_for(user: User) -> list[ClubInvitation]:
    """The club invitations `user` hasn't answered, newest first, with the club and who
    invited. One query."""
    return list(
        ClubInvitation.objects.filter(user=user)
        .select_related("club", "invited_by")
        .order_by("-created_at", "-pk")
    )


def _locked_by_public_id(public_id: str) -> Club:
    club = Club.objects.select_for_update().filter(public_id=public_id).first()
    if club is None:
        raise Refused(no_invitation_message(), code="no_invitation")
    return club


@transaction.atomic
def accept_invitation(user: User, public_id: str) -> Club:
    """Become a member of the club that invited `user`. Accepting twice is harmless: a
    member gets the club back."""
    club = _locked_by_public_id(public_id)
    answered, _by_model = ClubInvitation.objects.filter(club=club, user=user).delete()
    if not ClubMember.objects.filter(club=club, user=user).exists():
        if not answered:
            raise Refused(no_invitation_message(), code="no_invitation")
        _add_member(club, user)
    if answered:
        bump_club(club.pk)
    return club


@transaction.atomic
def decline_invitation(user: User, public_id: str) -> None:
    club = _locked_by_public_id(public_id)
    answered, _by_model = ClubInvitation.objects.filter(club=club, user=user).delete()
    if not answered:
        raise Refused(no_invitation_message(), code="no_invitation")
    bump_club(club.pk)


@transaction.atomic
def join(user: User, token: str) -> Club:
    """Join through the join link; joining twice is harmless. An invitation `user` had
    to the club is answered by joining."""
    club = Club.objects.select_for_update().filter(invite_token=token).first() if token else None
    if club is None:
        raise Refused(_("This invite link is no longer valid."), code="bad_token")
    if ClubMember.objects.filter(club=club, user=user).exists():
        return club
    _add_member(club, user)
    ClubInvitation.objects.filter(club=club, user=user).delete()
    bump_club(club.pk)
    return club


# --- leaving and the admins ---------------------------------------------------------------


def heir(club: Club, user: User) -> ClubMember | None:
    """Who becomes admin if `user` leaves `club`: when they are its last admin and others
    remain, the member who joined first. None otherwise. One query (two for an admin)."""
    membership = ClubMember.objects.filter(club=club, user=user).first()
    if membership is None or not membership.is_admin:
        return None
    others = ClubMember.objects.filter(club=club).exclude(pk=membership.pk)
    if others.filter(is_admin=True).exists():
        return None
    return others.select_related("user").order_by("joined_at", "pk").first()


@transaction.atomic
def leave(club: Club, user: User) -> ClubMember | None:
    """`user` leaves `club`; every game stays the club's. Returns the member who became
    admin in their place (the last admin left while others remain), or None."""
    locked = _lock(club)
    membership = _member(locked, user)
    successor = heir(locked, user)
    if successor is not None:
        successor.is_admin = True
        successor.save(update_fields=["is_admin"])
    membership.delete()
    bump_club(locked.pk)
    return successor


@transaction.atomic
def make_admin(club: Club, by: User, member_id: int) -> ClubMember:
    """An admin names another member admin (`member_id`: their ClubMember row)."""
    locked = _as_admin(club, by)
    member = ClubMember.objects.filter(club=locked, pk=member_id).select_related("user").first()
    if member is None:
        raise Refused(_("That person isn't in this club."), code="not_member")
    if member.is_admin:
        name = isolated(member.user.get_username())
        raise Refused(_("%(name)s is already an admin.") % {"name": name}, code="admin")
    member.is_admin = True
    member.save(update_fields=["is_admin"])
    bump_club(locked.pk)
    return member


@transaction.atomic
def new_join_link(club: Club, by: User) -> str:
    """A new join link: the old one stops working at once."""
    locked = _as_admin(club, by)
    locked.invite_token = new_token()
    locked.save(update_fields=["invite_token"])
    bump_club(locked.pk)
    return locked.invite_token


@transaction.atomic
def rename(club: Club, by: User, name: str) -> Club:
    locked = _as_admin(club, by)
    name = name.strip()
    if not name:
        raise Refused(_("Give the club a name."), code="no_name", field="name")
    if name != locked.name:
        locked.name = name
        locked.save(update_fields=["name"])
        bump_club(locked.pk)
    return locked


# --- a club's games -----------------------------------------------------------------------


def clubs_of(user: User) -> list[Club]:
    """The clubs `user` is in, by name (a new game's choice of club). One query."""
    return list(Club.objects.filter(members__user=user).order_by("name", "pk"))


def last_club_id(user: User) -> int | None:
    """The club of `user`'s most recent game that had one, if they are still in it: what
    a new game's club choice starts at. One query."""
    return (
        Game.objects.filter(seats__player__user=user, club__members__user=user)
        .order_by("-created_at", "-pk")
        .values_list("club_id", flat=True)
        .first()
    )


def kept_club(game: Game, user: User) -> Club | None:
    """The club a rematch or next game of `game` belongs to: `game`'s, while `user` (who
    sets it up) is still in it. One query; none for a game of no club."""
    if game.club_id is None:
        return None
    return Club.objects.filter(pk=game.club_id, members__user=user).first()


def check_member(club: Club | None, user: User) -> None:
    """Refuse a new game for `club` unless `user` is one of its members (a forged id,
    or a club they left since the form was drawn). One query; none without a club."""
    if club is not None and not ClubMember.objects.filter(club=club, user=user).exists():
        raise Refused(not_member_message(), code="not_member", field="club")
