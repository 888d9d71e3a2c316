"""Demo data for `make run`: a few users with known passwords (and, as the
other parts land, their games). Safe to run again: it only adds what is missing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, OutputWrapper
from django.db import transaction

if TYPE_CHECKING:
    from django.contrib.auth.models import User

DEMO_PASSWORD = "phase10demo"
DEMO_USERS = [
    ("alice", "alice@example.com", "en"),
    ("bob", "bob@example.com", "fi"),
    ("carol", "carol@example.com", "en"),
    ("deniz", "deniz@example.com", "tr"),
]


class Command(BaseCommand):
    help = "Create demo users (and their games) if they do not exist yet."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        users = []
        for username, email, language in DEMO_USERS:
            user, created = User.objects.get_or_create(username=username, defaults={"email": email})
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
                user.profile.email_verified = True
                user.profile.language = language
                user.profile.save()
            users.append(user)
        for extend in _extensions():
            extend(users, self.stdout)
        self.stdout.write(self.style.SUCCESS(f"Demo users (password: {DEMO_PASSWORD}):"))
        for user in users:
            self.stdout.write(f"  {user.username:8} {user.email}")


def _extensions() -> Iterator[Callable[[list[User], OutputWrapper], None]]:
    """Other apps add demo games through a `load_demo(users, stdout)` in their demo.py."""
    import importlib

    for module_name in ("games.nights.demo", "games.online.demo", "games.stats.demo"):
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            continue
        yield module.load_demo
