import zoneinfo

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

AVATAR_COLOURS = [
    ("#c0392b", _("Red")),
    ("#2471a3", _("Blue")),
    ("#1e8449", _("Green")),
    ("#b7950b", _("Gold")),
    ("#7d3c98", _("Purple")),
    ("#ca6f1e", _("Orange")),
    ("#17202a", _("Ink")),
]

TIME_ZONES = sorted(zoneinfo.available_timezones())


class Profile(models.Model):
    class Notify(models.TextChoices):
        EACH_TURN = "turn", _("An email for each turn")
        DIGEST = "digest", _("One daily digest")
        OFF = "off", _("No game emails")

    """What a user chooses about themselves; created with the user (signals.py)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    # Only verified addresses ever get notifications.
    email_verified = models.BooleanField(_("email verified"), default=False)
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES, blank=True)
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default="UTC",
        # Choices live in the form: the zone list changes with tzdata releases.
    )
    avatar_colour = models.CharField(
        _("avatar colour"), max_length=7, choices=AVATAR_COLOURS, default="#2471a3"
    )
    # Notification preferences (used by games/notifications).
    notify = models.CharField(
        _("game emails"), max_length=8, choices=Notify.choices, default=Notify.EACH_TURN
    )
    reminder_hours = models.PositiveSmallIntegerField(
        _("remind me after"),
        default=24,
        choices=[(12, _("12 hours")), (24, _("24 hours")), (48, _("48 hours")), (0, _("Never"))],
    )
    digest_hour = models.PositiveSmallIntegerField(
        _("digest hour"), default=8, choices=[(h, f"{h:02d}:00") for h in range(24)]
    )
    quiet_hours = models.BooleanField(
        _("quiet hours"), default=True, help_text=_("No emails between 22:00 and 08:00.")
    )
    # Away mode (accounts/away.py): until this instant the user's turn clocks stand
    # still. Cleared when they come back early, or by the jobs once it has passed.
    away_until = models.DateTimeField(_("away until"), null=True, blank=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return str(self.user)


class AwayPeriod(models.Model):
    """One stretch of away mode, in the user's own calendar days (both ends counted):
    at most `away.MAX_DAYS_A_YEAR` of them a calendar year. Coming back early moves
    `last_day` back to that day."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="away_periods",
        verbose_name=_("user"),
    )
    first_day = models.DateField(_("first day"))
    last_day = models.DateField(_("last day"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("away period")
        verbose_name_plural = _("away periods")
        ordering = ["first_day", "pk"]
        indexes = [models.Index(fields=["user", "last_day"], name="away_period_user_idx")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.first_day} – {self.last_day}"


class GuestClaim(models.Model):
    """A proposal to merge a guest Player into a user's Player.

    Two ways in: the scorer of a game night invites the guest's real person
    (`INVITE`, the invited user accepts), or a user asks to be a guest with their
    name (`REQUEST`, the scorer approves). Accepting merges the guest's seats and
    rounds into the user's Player and deletes the guest (accounts/claims.py).
    """

    class Kind(models.TextChoices):
        INVITE = "invite", _("Invitation from the scorer")
        REQUEST = "request", _("Request from the player")

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for an answer")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")

    # SET_NULL: the guest is deleted by the merge; the claim stays as a record.
    guest = models.ForeignKey(
        "games.Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="claims",
        verbose_name=_("guest"),
    )
    guest_name = models.CharField(_("guest name"), max_length=40)
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    # The account the guest would become; empty for an invitation by email to an
    # address without an account yet (whoever verifies that address may accept).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="guest_claims",
        verbose_name=_("user"),
    )
    email = models.EmailField(_("email"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="guest_claims_sent",
        verbose_name=_("created by"),
    )
    # Who must say yes: the invited user (INVITE) or the scorer (REQUEST).
    approver = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="guest_claims_to_approve",
        verbose_name=_("approver"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)

    class Meta:
        verbose_name = _("guest claim")
        verbose_name_plural = _("guest claims")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "approver"])]

    def __str__(self) -> str:
        return f"{self.guest_name} → {self.user or self.email} ({self.status})"

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING
