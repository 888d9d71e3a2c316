"""The figures of a player's stats page, kept in the cache between requests.

Counting a long history is the page's dear part (the phases and rounds of every game),
and it only changes when a game in scope does. So each request asks only for the games'
`extent` (figures.extent: how many, and the sums of their versions and ids), and the
figures are read from the cache under a key made of that extent and everything else they
show (cache_keys.player_figures): a finished game, a corrected round or a renamed
opponent moves every version it touches, hence the key, and what was kept before is
simply never read again.

The charts are kept as markup, with ids of their own (charts.named: the same in every
process, and none of the numbers the page's other charts are given).
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
    # The charts' markup ("" for none).
    win_rate_chart: str
    phase_chart: str
    last_game_chart: str


def player_figures(
    scope: Scope, *, name: str, own: bool, last_game: Callable[[], Game | None]
) -> PlayerFigures:
    """The page's figures for `scope`: one query when they are kept, eight when not.
    `name` is how the charts call the player, `own` whether it is the viewer's page;
    `last_game` gives the latest game in scope (from figures.recent_seats), whose score
    is charted, and is only called when the figures are counted."""
    key = cache_keys.player_figures(scope, figures.extent(scope), name=name, own=own)
    kept: PlayerFigures | None = cache.get(key)
    if kept is None:
        kept = _count(scope, key, name=name, own=own, last_game=last_game())
        cache.set(key, kept, cache_keys.VERSION_SECONDS)
    return kept


def _count(
    scope: Scope, key: str, *, name: str, own: bool, last_game: Game | None
) -> PlayerFigures:
    summary = figures.summary(scope)
    return PlayerFigures(
        key=key,
        summary=summary,
        phases=figures.phase_stats(scope),
        rivals=figures.head_to_head(scope),
        win_rate_chart=_markup(
            charts.win_rate_chart(figures.win_rate_over_time(scope, summary.played), name),
            "win-rate",
        ),
        phase_chart=_markup(
            charts.phase_chart(figures.phase_by_round(scope), name, own=own), "phases"
        ),
        last_game_chart=""
        if last_game is None
        else _markup(charts.score_chart(last_game), "last-game"),
    )


def _markup(chart: charts.LineChart | None, name: str) -> str:
    return str(charts.render(charts.named(chart, name)))
