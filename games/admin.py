from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import Game, Move, Notification, Player, RoundScore, Seat


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]  # TabularInline[Seat, Game] fails at run time: Django 6.1 has no InlineModelAdmin.__class_getitem__
    model = Seat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # ModelAdmin[Game] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    list_display = ["__str__", "mode", "status", "rounds_played", "creator", "updated_at"]
    list_filter = ["mode", "status"]
    search_fields = ["name", "public_id"]
    inlines = [SeatInline]
    raw_id_fields = ["creator", "winner", "current_player"]
    # The engine snapshot holds every hand: never shown, not even to staff.
    exclude = ["state"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # ModelAdmin[Player] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    list_display = ["name", "user", "created_by", "created_at"]
    search_fields = ["name", "user__username"]
    raw_id_fields = ["user", "created_by"]


@admin.register(RoundScore)
class RoundScoreAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # ModelAdmin[RoundScore] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    list_display = [
        "game",
        "round_number",
        "player",
        "phase_attempted",
        "phase_completed",
        "points",
    ]
    raw_id_fields = ["game", "seat", "player"]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # ModelAdmin[Move] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    list_display = ["game", "number", "seat", "automatic", "created_at"]
    raw_id_fields = ["game"]


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # ModelAdmin[Notification] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    """The email outbox: filter by status to see what failed and why (last error)."""

    list_display = [
        "created_at",
        "kind",
        "recipient",
        "game",
        "move_number",
        "ordinal",
        "status",
        "attempts",
        "send_after",
        "sent_at",
        "last_error",
    ]
    list_filter = ["status", "kind"]
    search_fields = ["recipient__username", "recipient__email", "game__name", "game__public_id"]
    raw_id_fields = ["game", "recipient"]
    date_hierarchy = "created_at"
    readonly_fields = ["created_at", "queued_at", "claimed_at", "sent_at"]
    actions = ["send_again"]

    @admin.action(description=_("Send the selected failed notifications again"))
    def send_again(self, request: HttpRequest, queryset: QuerySet[Notification]) -> None:
        # Only failed rows: a sent one must never go twice. The sweeper publishes them.
        count = queryset.filter(status=Notification.Status.FAILED).update(
            status=Notification.Status.PENDING, attempts=0, send_after=timezone.now()
        )
        self.message_user(
            request,
            ngettext(
                "%(count)d notification will be sent again.",
                "%(count)d notifications will be sent again.",
                count,
            )
            % {"count": count},
        )
