"""Which games a stats figure is about: whose (a Player), and the filters the stats page
and the leaderboard offer (mode, period, variant). Every filter is SQL: the variant is
read from `Game.rules` with JSON lookups, so no game is loaded to be filtered.

Unknown filter values fall back to the defaults, so a hand-edited link can't break a page:

>>> Scope.parse(player=None, mode="nonsense", period="30d").mode
'both'
>>> Scope.parse(player=None, mode=None, period=None, variant="pick_a_phase").variant
'pick_a_phase'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game, Player, Seat

MODES = {
    "both": _("Both"),
    Game.Mode.NIGHT.value: _("Game nights"),
    Game.Mode.ONLINE.value: _("Online"),
}
OLD_MODES = {"table": Game.Mode.NIGHT.value}
PERIODS = {"all": _("All time"), "30d": _("Last 30 days"), "year": _("Last year")}
PERIOD_LENGTH = {"all": None, "30d": timedelta(days=30), "year": timedelta(days=365)}
# The variants of games/words.py's `variant_words`: how players move on, and shorter
# games (fewer than ten phases, whatever the moving on).
VARIANTS = {
    "all": _("All variants"),
    "standard": _("Standard"),
    "all_advance": _("Everyone moves on"),
    "pick_a_phase": _("Pick a phase"),
    "shorter": _("Shorter games"),
}

# A person's seat that they won: they stayed to the end (a bot won a resigned seat).
WON = Q(is_winner=True, resigned=False)
# Seats whose final score is the person's own: they played the game to the end.
FINISHED_BY_THEM = Q(resigned=False)


def _flag(name: str, prefix: str) -> Q:
    """A true option in `Game.rules` (a missing key is the default: false)."""
    return Q(**{f"{prefix}rules__{name}": True})


def _not_flag(name: str, prefix: str) -> Q:
    # Not the negation of _flag: NOT (NULL = true) is NULL in SQL, which drops a game
    # whose rules don't name the option.
    key = f"{prefix}rules__{name}"
    return Q(**{f"{key}__isnull": True}) | Q(**{key: False})


def pick_a_phase_q(prefix: str = "game__") -> Q:
    return _flag("pick_a_phase", prefix)


def not_pick_a_phase_q(prefix: str = "game__") -> Q:
    return _not_flag("pick_a_phase", prefix)


def shorter_q(prefix: str = "game__") -> Q:
    """Fewer than ten phases: the list has no tenth entry (no list means all ten). A
    list of ten distinct phases 1–10 is all of them, so its length says it all."""
    return Q(**{f"{prefix}rules__phases__isnull": False, f"{prefix}rules__phases__9__isnull": True})


def _all_ten_q(prefix: str) -> Q:
    return Q(**{f"{prefix}rules__phases__isnull": True}) | Q(
        **{f"{prefix}rules__phases__9__isnull": False}
    )


def variant_q(variant: str, prefix: str = "game__") -> Q:
    """The games of `variant` (a VARIANTS key), as a filter through `prefix`."""
    if variant == "standard":
        return _not_flag("all_advance", prefix) & not_pick_a_phase_q(prefix) & _all_ten_q(prefix)
    if variant == "all_advance":
        return _flag("all_advance", prefix)
    if variant == "pick_a_phase":
        return pick_a_phase_q(prefix)
    if variant == "shorter":
        return shorter_q(prefix)
    return Q()


@dataclass(frozen=True)
class Scope:
    """Whose stats (a Player) over which finished games (mode, period and variant).
    `window`: only the games finished from its first moment up to (not including) its
    second, e.g. a calendar year (games/clubs/year.py)."""

    player: Player | None
    mode: str = "both"
    period: str = "all"
    variant: str = "all"
    now: datetime = field(default_factory=timezone.now)
    window: tuple[datetime, datetime] | None = None

    @classmethod
    def parse(
        cls,
        player: Player | None,
        mode: str | None,
        period: str | None,
        variant: str | None = None,
    ) -> Scope:
        """Unknown values fall back to the defaults: a filter link can't break the page.
        Links from before game nights were called so say `mode=table`."""
        mode = OLD_MODES.get(mode or "", mode)
        return cls(
            player=player,
            mode=mode if mode in MODES else "both",
            period=period if period in PERIODS else "all",
            variant=variant if variant in VARIANTS else "all",
        )

    @property
    def since(self) -> datetime | None:
        length = PERIOD_LENGTH[self.period]
        return None if length is None else self.now - length

    def games_q(self, prefix: str = "game__") -> Q:
        """The finished games in scope, as a filter on a model that reaches Game via `prefix`."""
        q = Q(**{f"{prefix}status": Game.Status.FINISHED})
        if self.mode != "both":
            q &= Q(**{f"{prefix}mode": self.mode})
        if self.since is not None:
            q &= Q(**{f"{prefix}finished_at__gte": self.since})
        if self.variant != "all":
            q &= variant_q(self.variant, prefix)
        if self.window is not None:
            start, end = self.window
            q &= Q(**{f"{prefix}finished_at__gte": start, f"{prefix}finished_at__lt": end})
        return q

    def seats(self) -> QuerySet[Seat]:
        # A seat waiting for its member's answer (games/nights/seating.py) isn't theirs yet.
        return Seat.objects.filter(self.games_q(), player=self.player, accepted=True)

    def phase_games(self) -> QuerySet[Seat, Any]:
        """The ids of the games in scope whose rounds say which phase was tried:
        all but pick-a-phase. (A subquery: the rules are read once per game, not
        once per round.)"""
        return self.seats().filter(not_pick_a_phase_q()).values("game")
