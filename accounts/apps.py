from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        # The tasks are registered in every process (web too): services hand work to them
        # by name through Celery's registry (the ratings' task, for one), never by import.
        from . import signals, tasks  # noqa: F401
