from django.contrib import admin

from .models import Game, Move, Player, RoundScore, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "mode", "status", "rounds_played", "creator", "updated_at"]
    list_filter = ["mode", "status"]
    search_fields = ["name", "public_id"]
    inlines = [SeatInline]
    raw_id_fields = ["creator", "winner", "current_player"]
    # The engine snapshot holds every hand: never shown, not even to staff.
    exclude = ["state"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_by", "created_at"]
    search_fields = ["name", "user__username"]
    raw_id_fields = ["user", "created_by"]


@admin.register(RoundScore)
class RoundScoreAdmin(admin.ModelAdmin):
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
class MoveAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "seat", "automatic", "created_at"]
    raw_id_fields = ["game"]
