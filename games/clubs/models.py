"""A club's rows: the club, its members and invitations, its seasons, and the links
that share a member's year. They belong to the `games` app (its models module imports
them, so Django finds them). A game is a club's through `Game.club`.

A club's guests are not rows of their own: they are the people without an account
(`Player.is_guest`) seated at the club's games, so a claimed guest becomes a member's
history with nothing to move.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.ids import new_public_id, new_token

# The points a season gives each place (1st, 2nd, ...) unless its admins choose others;
# places past the list's end score 0.
DEFAULT_POINTS = [3, 2, 1, 0]


def default_points() -> list[int]:
    return list(DEFAULT_POINTS)


class Club(models.Model):
    """People who play together. `invite_token` is the join link's (an admin can make
    a new one, which retires the old link). `version` moves on whenever who is in the
    club, its name or its seasons change (not its games: their own versions say that)."""

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    name = models.CharField(_("name"), max_length=60)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="clubs_created",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    invite_token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    version = models.PositiveIntegerField(default=0)

    # Not a column: set by `access.club_for_member` for the member who asked.
    viewer_is_admin: bool

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class ClubMember(models.Model):
    """A member of a club. The creator is an admin; admins name other admins."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    is_admin = models.BooleanField(_("admin"), default=False)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("club member")
        verbose_name_plural = _("club members")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="club_member_unique"),
        ]
        indexes = [models.Index(fields=["user", "club"], name="club_member_user_idx")]

    def __str__(self) -> str:
        return f"{self.club} · {self.user}"


class ClubInvitation(models.Model):
    """A member asked someone by username to join. Accepting makes them a member and
    deletes the row; declining deletes it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("club invitation")
        verbose_name_plural = _("club invitations")
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="club_invitation_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.club} → {self.user}"


class Season(models.Model):
    """A stretch of a club's games, `starts` to `ends` (both days included, in the
    site's time zone; a game counts on the day it finished). The calendar year unless
    the admins set other dates. Its league table gives `points[i]` to place i + 1 and,
    when `best_of` is set, counts only each person's best `best_of` games.

    When the season is over its table is worked out once more and kept
    (`final_table`, `champion`, `closed_at`): later corrections don't rewrite it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=60, blank=True)
    starts = models.DateField(_("starts"))
    ends = models.DateField(_("ends"))
    points = models.JSONField(_("points per place"), default=default_points)
    best_of = models.PositiveSmallIntegerField(_("best games counted"), null=True, blank=True)
    champion = models.ForeignKey(
        "games.Player", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    final_table = models.JSONField(default=list, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["club", "starts"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends__gte=models.F("starts")), name="season_dates"
            ),
        ]
        indexes = [models.Index(fields=["club", "starts"], name="season_club_idx")]

    def __str__(self) -> str:
        return self.name or f"{self.starts:%Y}"


class YearShare(models.Model):
    """A member shares their year in review by an unguessable link; revoking deletes
    the row (the old link answers 404), sharing again makes a new token."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="year_shares"
    )
    year = models.PositiveSmallIntegerField(_("year"))
    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("shared year")
        verbose_name_plural = _("shared years")
        constraints = [
            models.UniqueConstraint(fields=["user", "year"], name="year_share_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.year}"
