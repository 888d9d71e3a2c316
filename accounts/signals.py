from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest

from .middleware import SESSION_LANGUAGE
from .models import Profile

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_profile(sender: type[User], instance: User, created: bool, **kwargs: Any) -> None:
    if created:
        Profile.objects.get_or_create(user=instance)


@receiver(user_logged_in)
def remember_profile_language(
    sender: type[User], request: HttpRequest | None, user: User, **kwargs: Any
) -> None:
    # Read once at login; UserLanguageMiddleware then needs no query per request.
    if request is not None and hasattr(request, "session"):
        profile = getattr(user, "profile", None)
        request.session[SESSION_LANGUAGE] = getattr(profile, "language", "") or ""
