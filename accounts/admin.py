from django.contrib import admin

from .models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "email_verified", "language", "time_zone"]
    list_filter = ["email_verified", "language"]
    search_fields = ["user__username", "user__email"]
