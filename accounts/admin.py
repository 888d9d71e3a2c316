from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.models import User
from django.http import HttpRequest

from games.scoring import bump_names_of

from . import verification
from .models import Profile

admin.site.unregister(User)


@admin.register(User)
class UserAdmin(DjangoUserAdmin):  # type: ignore[type-arg]  # UserAdmin[User] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    """Django's, saved the way the member's own change would be: a new username moves
    on what shows it (`bump_names_of`: the games and clubs kept under versions), a new
    address must be confirmed again before it gets game emails (`verification`)."""

    def save_model(self, request: HttpRequest, obj: User, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change:
            return
        if "username" in form.changed_data:
            bump_names_of(obj)
        if "email" in form.changed_data:
            verification.address_changed(obj)


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # ModelAdmin[Profile] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    list_display = ["user", "email_verified", "language", "time_zone"]
    list_filter = ["email_verified", "language"]
    search_fields = ["user__username", "user__email"]
    # Away mode's end is the member's away periods' (accounts/away.py): set there, it stops
    # their turn clocks and their games' pages say so. Shown here, changed there.
    readonly_fields = ["away_until"]
