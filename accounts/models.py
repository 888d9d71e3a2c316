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

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return str(self.user)
