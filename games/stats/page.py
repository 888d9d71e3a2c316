"""The figures of a player's stats page, kept in the cache between requests.

Counting a long history is the page's dear part (the phases and rounds of every game),
and it only changes when a game in scope does. So each request counts the summary, with
the games' `extent` (figures.Totals: how many, and the sums of their versions and ids,
in the same query), and the rest is read from the cache under a key made of that extent
and everything else the figures show (cache_keys.player_figures): a finished game, a
corrected round or a renamed opponent moves every version it touches, hence the key,
and what was kept before is simply never read again.

The charts are kept as laid out (charts.LineChart), not as markup: each request draws
them with ids of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache

from games import cache_keys
from games.models import Game

from . import charts, figures
from .scope import Scope


@dataclass(frozen=True)
class PlayerFigures:
    key: str  # cache_keys.player_figures: what the page's kept parts vary on too
    summary: figures.Summary
    phases: list[figures.PhaseStat]
    rivals: list[figures.HeadToHead]
    win_rate_chart: charts.LineChart | None
    phase_chart: charts.LineChart | None
    last_game_chart: charts.LineChart | None


def player_figures(
    scope: Scope, *, name: str, own: bool, last_game: Callable[[], Game | None]
) -> PlayerFigures:
    """The page's figures for `scope`: one query when they are kept, seven when not.
    `name` is how the charts call the player, `own` whether it is the viewer's page;
    `last_game` gives the latest game in scope (from figures.recent_seats), whose score
    is charted, and is only called when the figures are counted."""
    totals = figures.totals(scope)
    key = cache_keys.player_figures(scope, totals.extent, name=name, own=own)
    kept: PlayerFigures | None = cache.get(key)
    if kept is None:
        kept = _count(scope, totals, key, name=name, own=own, last_game=last_game())
        cache.set(key, kept, cache_keys.VERSION_SECONDS)
    return kept


def _count(
    scope: Scope,
    totals: figures.Totals,
    key: str,
    *,
    name: str,
    own: bool,
    last_game: Game | None,
) -> PlayerFigures:
    return PlayerFigures(
        key=key,
        summary=totals.summary(figures.longest_streak(scope)),
        phases=figures.phase_stats(scope),
        rivals=figures.head_to_head(scope),
        win_rate_chart=charts.win_rate_chart(
            figures.win_rate_over_time(scope, totals.played), name
        ),
        phase_chart=charts.phase_chart(figures.phase_by_round(scope), name, own=own),
        last_game_chart=None if last_game is None else charts.score_chart(last_game),
    )
