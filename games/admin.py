from typing import Any

from django.contrib import admin
from django.db import transaction
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import ChatMessage, Game, Move, Notification, Player, RoundScore, Seat
from .online import chat
from .scoring import bump, bump_club, bump_games_of


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]  # TabularInline[Seat, Game] fails at run time: Django 6.1 has no InlineModelAdmin.__class_getitem__
    """A game's seats, read only: who sits where and every total are the services'
    (a night's from its rounds, an online game's from its snapshot)."""

    model = Seat
    extra = 0
    can_delete = False
    fields = readonly_fields = (
        "position",
        "player",
        "is_bot",
        "score",
        "phase",
        "phases_completed",
        "rank",
        "is_winner",
        "resigned",
        "accepted",
    )

    def has_add_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        return False


# The snapshot holds every hand and the draw pile, and the seed with the public move log
# recomputes them: only the engine writes these two, and while a game is being played
# nobody sees them, not even staff (no form field, no read-only value, no list column,
# no search). Once the game is over they are shown, read-only, for checking a replay.
SECRET_FIELDS = ["seed", "state"]
# What staff may change on a game: none of it is worked out from rounds or moves.
GAME_EDITABLE = ["name", "creator", "rated", "co_scorers"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # ModelAdmin[Game] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    """Every field the services derive (the version, the status, totals, the turn, the
    board's copies of the log and the chat) is read only; what staff may change is
    saved through `scoring.bump`, so every open page and kept scoreboard sees it."""

    list_display = ["__str__", "mode", "status", "rounds_played", "creator", "updated_at"]
    list_filter = ["mode", "status"]
    search_fields = ["name", "public_id"]
    inlines = [SeatInline]
    raw_id_fields = ["creator"]
    exclude = SECRET_FIELDS

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> list[str]:
        if obj is None:
            return []
        fields = [
            field.name
            for field in Game._meta.get_fields()
            if field.concrete and field.name not in (*GAME_EDITABLE, *SECRET_FIELDS, "id")
        ]
        if obj.status == Game.Status.FINISHED:
            fields += SECRET_FIELDS
        return fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games start from their pages, with seats and rules

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        # The admin's view is one transaction: a change in between raises Changed and
        # rolls it back, co-scorers included (saved after this).
        bump(obj, *(name for name in GAME_EDITABLE if name != "co_scorers"))

    def delete_model(self, request: HttpRequest, obj: Game) -> None:
        self.delete_queryset(request, Game.objects.filter(pk=obj.pk))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        """A deleted game leaves its club's pages: the clubs move on (scoring.bump_club)."""
        with transaction.atomic():
            clubs = sorted(set(queryset.exclude(club=None).values_list("club_id", flat=True)))
            super().delete_queryset(request, queryset)
            for club_id in clubs:
                bump_club(club_id)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # ModelAdmin[Player] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    list_display = ["name", "user", "created_by", "created_at"]
    search_fields = ["name", "user__username"]
    raw_id_fields = ["user", "created_by"]

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change:  # the games' pages show the player's name
            bump_games_of(obj)


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # ModelAdmin[Model] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    """Rows the services write and pages are drawn from: shown, never changed here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(RoundScore)
class RoundScoreAdmin(ReadOnlyAdmin):
    """A night's rounds are changed on its page (a correction refolds every later round);
    an online game's are its moves' result."""

    list_display = [
        "game",
        "round_number",
        "player",
        "phase_attempted",
        "phase_completed",
        "points",
    ]
    list_select_related = ["game", "player"]


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    """An online game's log: its snapshot is the engine's replay of it."""

    list_display = ["game", "number", "seat", "automatic", "created_at"]


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # ModelAdmin[ChatMessage] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    """Table talk, for the record: read only, never deleted. A message is hidden as the
    game's creator hides it on the board, through games/online/chat.py, which keeps the
    board's copy on the game row in step (the "Hide" action)."""

    list_display = ["created_at", "game", "seat", "move_number", "text", "hidden_at"]
    list_filter = ["hidden_at"]
    search_fields = ["game__public_id", "text"]
    actions = ["hide"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ChatMessage | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: ChatMessage | None = None) -> bool:
        return False

    def has_hide_permission(self, request: HttpRequest) -> bool:
        """Staff who may change chat messages (the rows are read only here otherwise)."""
        return request.user.has_perm("games.change_chatmessage")

    @admin.action(permissions=["hide"], description=_("Hide the selected messages for everyone"))
    def hide(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        shown = queryset.filter(hidden_at=None).select_related("game")
        count = sum(chat.hide_for_staff(message) for message in shown)
        self.message_user(
            request,
            ngettext(
                "%(count)d message is hidden now.", "%(count)d messages are hidden now.", count
            )
            % {"count": count},
        )


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
