from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save, pre_delete
from django.dispatch import receiver
from django.http import HttpRequest

from . import deletion
from .middleware import SESSION_LANGUAGE
from .models import Profile

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_profile(sender: type[User], instance: User, created: bool, **kwargs: Any) -> None:
    if created:
        Profile.objects.get_or_create(user=instance)


@receiver(pre_delete, sender=settings.AUTH_USER_MODEL)
def forget_deleted_user(sender: type[User], instance: User, **kwargs: Any) -> None:
    # Every way of deleting a user (the account page, the admin, a shell) keeps the
    # games they shared with others and anonymises their seats (accounts/deletion.py).
    # Django runs this inside the deletion's transaction.
    deletion.forget(instance)


@receiver(user_logged_in)
def remember_profile_language(
    sender: type[User], request: HttpRequest | None, user: User, **kwargs: Any
) -> None:
    # Read once at login; UserLanguageMiddleware then needs no query per request.
    if request is not None and hasattr(request, "session"):
        profile = getattr(user, "profile", None)
        request.session[SESSION_LANGUAGE] = getattr(profile, "language", "") or ""
