"""Import a BG Stats export's Phase 10 plays as a member's game nights (the same as the
upload page, games/stats/bgstats.py): `manage.py import_bgstats alice export.json`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.errors import Refused
from games.stats import bgstats


class Command(BaseCommand):
    help = "Import the Phase 10 plays of a BG Stats export (JSON) as a member's game nights."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", help="the member who imports (scorer of the nights)")
        parser.add_argument("file", type=Path, help="the BG Stats export, a .json file")
        parser.add_argument("--name", default="", help="the member's own name in BG Stats")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"No member is called {options['username']!r}.")
        try:
            export = bgstats.read_file(options["file"].read_bytes())
            result = bgstats.import_export(user, export, own_name=options["name"])
        except OSError as error:
            raise CommandError(str(error)) from error
        except Refused as error:
            raise CommandError(error.message) from error
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {result.imported} plays; {result.already} imported before, "
                f"{result.skipped} left out, {result.not_yours} without you, "
                f"{result.ignored} marked ignored, "
                f"{result.other_games} of other games."
            )
        )
        for why in result.left_out:
            self.stdout.write(why)
