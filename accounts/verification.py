"""A member's email address gets game emails only once they have confirmed it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from phase10site.celery import publish_on_commit

from . import tasks
from .models import Profile

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def address_changed(user: User) -> None:
    """`user`'s address changed (and is saved): no game email goes to it until it is
    confirmed, and the link to confirm it goes out once the change commits. The profile
    page and the user admin both save an address this way."""
    Profile.objects.filter(user=user).update(email_verified=False)
    if hasattr(user, "profile"):
        user.profile.email_verified = False
    if user.email:
        publish_on_commit(tasks.send_verification_email, user.pk)
