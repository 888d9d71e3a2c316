from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import ChatMessage, Game, Move, Notification, Player, RoundScore, Seat


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]  # TabularInline[Seat, Game] fails at run time: Django 6.1 has no InlineModelAdmin.__class_getitem__
    model = Seat
    extra = 0
    raw_id_fields = ["player"]


# The snapshot holds every hand and the draw pile, and the seed with the public move log
# recomputes them: only the engine writes these two, and while a game is being played
# nobody sees them, not even staff (no form field, no read-only value, no list column,
# no search). Once the game is over they are shown, read-only, for checking a replay.
SECRET_FIELDS = ["seed", "state"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # ModelAdmin[Game] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    list_display = ["__str__", "mode", "status", "rounds_played", "creator", "updated_at"]
    list_filter = ["mode", "status"]
    search_fields = ["name", "public_id"]
    inlines = [SeatInline]
    raw_id_fields = ["creator", "winner", "current_player"]
    exclude = SECRET_FIELDS

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> list[str]:
        fields = list(super().get_readonly_fields(request, obj))
        if obj is None:
            return fields
        if obj.mode == Game.Mode.ONLINE and obj.status == Game.Status.ACTIVE:
            # The services end an online game; marking it finished here would show its seed.
            fields.append("status")
        if obj.status == Game.Status.FINISHED:
            fields += SECRET_FIELDS
        return fields


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


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # ModelAdmin[ChatMessage] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    """Table talk, for the record: read only. Hiding is the game creator's, on the board
    (games/online/chat.py keeps the board's copy on the game row in step)."""

    list_display = ["created_at", "game", "seat", "move_number", "text", "hidden_at"]
    list_filter = ["hidden_at"]
    search_fields = ["game__public_id", "text"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ChatMessage | None = None) -> bool:
        return False


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
