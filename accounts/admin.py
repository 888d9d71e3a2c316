from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.models import User
from django.http import HttpRequest

from games.models import Player
from games.scoring import bump_games_of

from .models import Profile

admin.site.unregister(User)


@admin.register(User)
class UserAdmin(DjangoUserAdmin):  # type: ignore[type-arg]  # UserAdmin[User] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    """Django's, and a new username moves on what shows it: a club's members' list
    ("@name") and the pages of the member's games, which are kept under versions."""

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        player = Player.objects.filter(user=obj).first() if change else None
        if player is not None and "username" in form.changed_data:
            bump_games_of(player)


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # ModelAdmin[Profile] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    list_display = ["user", "email_verified", "language", "time_zone"]
    list_filter = ["email_verified", "language"]
    search_fields = ["user__username", "user__email"]
    # Away mode's end is the member's away periods' (accounts/away.py): set there, it stops
    # their turn clocks and their games' pages say so. Shown here, changed there.
    readonly_fields = ["away_until"]
