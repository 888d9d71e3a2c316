from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # Register the tasks in every process (web too): services and the outbox hand
        # work to them by name through Celery's registry, never by importing them.
        from . import tasks  # noqa: F401
