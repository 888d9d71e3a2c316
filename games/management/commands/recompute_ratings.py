"""Work every rating out again from the first finished game on.

The same code as the task that rates each game as it finishes (`rating_ledger.run`,
with the whole history rewound), so it gives the same numbers; run it after changing
the rating model or to repair ratings after games were deleted by hand."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from games.stats import rating_ledger


class Command(BaseCommand):
    help = "Recompute every player's rating from scratch, game by game in finishing order."

    def handle(self, *args: Any, **options: Any) -> None:
        start = time.perf_counter()
        rated = rating_ledger.run(from_scratch=True)
        seconds = time.perf_counter() - start
        summary = rating_ledger.summary()
        self.stdout.write(
            self.style.SUCCESS(
                f"Rated {rated} games in {seconds:.1f} s: {summary['players']} players, "
                f"{summary['changes']} rating changes."
            )
        )
