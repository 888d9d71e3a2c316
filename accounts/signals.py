from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db.models.signals import post_save
from django.dispatch import receiver

from .middleware import SESSION_LANGUAGE
from .models import Profile


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def create_profile(sender, instance, created, **kwargs):  # type: ignore[no-untyped-def]
    if created:
        Profile.objects.get_or_create(user=instance)


@receiver(user_logged_in)
def remember_profile_language(sender, request, user, **kwargs):  # type: ignore[no-untyped-def]
    # Read once at login; UserLanguageMiddleware then needs no query per request.
    if request is not None and hasattr(request, "session"):
        profile = getattr(user, "profile", None)
        request.session[SESSION_LANGUAGE] = getattr(profile, "language", "") or ""
