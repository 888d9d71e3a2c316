"""Claiming a guest: turning a name typed in at game night into a user's history.

- The scorer of a game night invites the guest's real person (`invite`); they accept.
- A user asks to be a guest with their name (`request`); the scorer approves.

Either way `accept` merges the guest Player into the user's Player in one
transaction: every row that points at the guest (seats, rounds, wins…) is moved,
then the guest is deleted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Exists, Min, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game, Player, Seat
from games.scoring import bump_games_of
from games.stats import rating_ledger
from games.stats.access import co_players
from games.words import isolated

from .models import GuestClaim

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class ClaimError(ValueError):
    """A claim that can't go ahead; `str()` is a sentence for the user."""


def scored_guests(user: User) -> QuerySet[Player]:
    """Guests seated in a game night this user scores (created)."""
    return Player.objects.filter(
        user__isnull=True,
        anonymised=False,
        seats__game__creator=user,
        seats__game__mode=Game.Mode.NIGHT,
    ).distinct()


def can_invite(user: User, guest: Player) -> bool:
    return guest.is_guest and scored_guests(user).filter(pk=guest.pk).exists()


def suggested_guests(user: User) -> QuerySet[Player]:
    """Guests who might be this user: the same name as their Player or username
    (any case), seated in game nights scored by the user or by someone they played
    with. Strangers' guests are never suggested, nor bots (online games have none)."""
    me = Player.for_user(user)
    scorers = co_players(me).filter(user__isnull=False).values("user")
    return (
        Player.objects.filter(user__isnull=True, anonymised=False)
        .filter(Q(name__iexact=me.name) | Q(name__iexact=user.get_username()))
        .filter(
            Q(seats__game__creator__in=scorers) | Q(seats__game__creator=user),
            seats__game__mode=Game.Mode.NIGHT,
        )
        .exclude(Exists(Seat.objects.filter(player=me, game__seats__player=OuterRef("pk"))))
        .annotate(
            games=Count("seats", distinct=True),
            scorers=Count("seats__game__creator", distinct=True),
            scorer=Min("seats__game__creator__username"),
        )
        .order_by("name", "pk")
    )


def scorer_of(guest: Player) -> User | None:
    """Who approves a request for this guest: whoever typed the name in, else the
    creator of the guest's latest game night."""
    if guest.created_by_id is not None:
        return guest.created_by
    seat = (
        Seat.objects.filter(player=guest, game__mode=Game.Mode.NIGHT)
        .select_related("game__creator")
        .order_by("-game__created_at")
        .first()
    )
    return seat.game.creator if seat else None


def _shares_a_game(guest: Player, player: Player) -> bool:
    return Seat.objects.filter(player=guest, game__seats__player=player).exists()


def find_invitee(text: str) -> tuple[User | None, str]:
    """A username or an email address → (user or None, email). Raises ClaimError.

    An address matches only the account that confirmed it: anyone can type any address
    at sign-up. Unmatched, the claim waits for whoever confirms the address."""
    User = get_user_model()
    text = text.strip()
    if "@" in text:
        owner = User.objects.filter(email__iexact=text, profile__email_verified=True).first()
        return owner, text.lower()
    user = User.objects.filter(username__iexact=text).first()
    if user is None:
        raise ClaimError(_("Nobody here has the username “%(name)s”.") % {"name": isolated(text)})
    return user, ""


def invite(scorer: User, guest: Player, who: str) -> GuestClaim:
    """The scorer invites a guest's real person, by username or email address."""
    if not can_invite(scorer, guest):
        raise ClaimError(_("Only the scorer of a game night with this guest can invite them."))
    user, email = find_invitee(who)
    if user is not None:
        target = Player.objects.filter(user=user).first()
        if target is not None and _shares_a_game(guest, target):
            raise ClaimError(
                _("%(user)s and %(guest)s played in the same game, so they can't be one person.")
                % {"user": target.name, "guest": guest.name}
            )
    pending = GuestClaim.objects.filter(guest=guest, status=GuestClaim.Status.PENDING)
    if user is not None and pending.filter(user=user).exists():
        raise ClaimError(_("There is already an open invitation for this person."))
    if user is None and pending.filter(email__iexact=email).exists():
        raise ClaimError(_("There is already an open invitation for this address."))
    return GuestClaim.objects.create(
        guest=guest,
        guest_name=guest.name,
        kind=GuestClaim.Kind.INVITE,
        user=user,
        email=email or (user.email if user else ""),
        created_by=scorer,
        approver=user,
    )


def request_claim(user: User, guest: Player) -> GuestClaim | None:
    """A user asks to be this (suggested) guest. When they scored the guest's games
    themselves there's nobody to ask: the merge happens at once (returns None)."""
    scorer = scorer_of(guest)
    if scorer is None:
        raise ClaimError(_("Nobody can approve this: the guest's game nights have no scorer."))
    if scorer.pk == user.pk:
        # One transaction: when the merge is refused (ClaimError, passed on to the
        # caller) no pending claim is left behind.
        with transaction.atomic():
            claim = GuestClaim.objects.create(
                guest=guest,
                guest_name=guest.name,
                kind=GuestClaim.Kind.REQUEST,
                user=user,
                created_by=user,
                approver=user,
            )
            accept(claim, user)
        return None
    claim, _created = GuestClaim.objects.get_or_create(
        guest=guest,
        user=user,
        kind=GuestClaim.Kind.REQUEST,
        status=GuestClaim.Status.PENDING,
        defaults={"guest_name": guest.name, "created_by": user, "approver": scorer},
    )
    return claim


def may_decide(claim: GuestClaim, user: User) -> bool:
    """The invited person answers an invitation; the scorer answers a request."""
    if not claim.is_pending:
        return False
    if claim.kind == GuestClaim.Kind.REQUEST:
        return claim.approver_id == user.pk
    if claim.user_id is not None:
        return claim.user_id == user.pk
    # An invitation by email to an address that had no account: whoever has
    # verified that address may take it.
    return bool(
        claim.email and user.email.lower() == claim.email.lower() and user.profile.email_verified
    )


def claims_for(user: User) -> QuerySet[GuestClaim]:
    """The pending claims this user may accept or decline."""
    q = Q(kind=GuestClaim.Kind.REQUEST, approver=user) | Q(kind=GuestClaim.Kind.INVITE, user=user)
    if user.email and user.profile.email_verified:
        q |= Q(kind=GuestClaim.Kind.INVITE, user__isnull=True, email__iexact=user.email)
    return GuestClaim.objects.filter(q, status=GuestClaim.Status.PENDING)


@transaction.atomic
def accept(claim: GuestClaim, decider: User) -> Player:
    """Merge the guest into the claimant's Player; returns that Player."""
    # Lock the claim, then the guest: two answers to one claim, or two claims on
    # one guest, queue here and the second finds the work done.
    claim = GuestClaim.objects.select_for_update().get(pk=claim.pk)
    if not may_decide(claim, decider):
        raise ClaimError(_("This claim has already been answered."))
    guest = (
        Player.objects.select_for_update().filter(pk=claim.guest_id).first()
        if claim.guest_id is not None
        else None
    )
    if guest is None or not guest.is_guest:
        raise ClaimError(_("This guest has already been claimed."))
    claimant = claim.user or decider
    target = Player.for_user(claimant)
    target = Player.objects.select_for_update().get(pk=target.pk)
    if _shares_a_game(guest, target):
        raise ClaimError(
            _(
                "%(user)s and %(guest)s played in the same game, so they can't be one person. "
                "Nothing was merged."
            )
            % {"user": target.name, "guest": guest.name}
        )
    # The guest's ratings join the claimant's: every rating is worked out again from
    # the guest's first rated game on (asked for here, done by the task after commit).
    rating_ledger.redo_for(guest)
    rating_ledger.queue()
    bump_games_of(guest)  # their pages show the member's name from now on
    _move_references(guest, target)
    now = timezone.now()
    claim.status, claim.user, claim.decided_at = GuestClaim.Status.ACCEPTED, claimant, now
    claim.save(update_fields=["status", "user", "decided_at"])
    GuestClaim.objects.filter(guest=guest, status=GuestClaim.Status.PENDING).exclude(
        pk=claim.pk
    ).update(status=GuestClaim.Status.CANCELLED, decided_at=now)
    guest.delete()
    return target


def _move_references(guest: Player, target: Player) -> None:
    """Point every foreign key that refers to the guest at the target instead:
    seats, round scores, games won, whose turn it is, and whatever refers to
    Players later. Claims keep their own record (guest_name)."""
    for relation in Player._meta.related_objects:
        if relation.related_model is GuestClaim or relation.many_to_many or relation.one_to_one:
            continue
        manager = relation.related_model._base_manager
        manager.filter(**{relation.field.name: guest}).update(**{relation.field.name: target})


@transaction.atomic
def decline(claim: GuestClaim, decider: User) -> None:
    claim = GuestClaim.objects.select_for_update().get(pk=claim.pk)
    if not may_decide(claim, decider):
        raise ClaimError(_("This claim has already been answered."))
    claim.status, claim.decided_at = GuestClaim.Status.DECLINED, timezone.now()
    claim.save(update_fields=["status", "decided_at"])
