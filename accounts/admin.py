from django.contrib import admin

from .models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # ModelAdmin[Profile] fails at run time: Django 6.1 has no ModelAdmin.__class_getitem__
    list_display = ["user", "email_verified", "language", "time_zone"]
    list_filter = ["email_verified", "language"]
    search_fields = ["user__username", "user__email"]
    # Away mode's end is the member's away periods' (accounts/away.py): set there, it stops
    # their turn clocks and their games' pages say so. Shown here, changed there.
    readonly_fields = ["away_until"]
