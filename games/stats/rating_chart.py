"""The rating over time, as an accessible SVG line chart (charts.py draws it).

>>> rating_ticks(1000, 1000)
[990, 1000, 1010]
>>> rating_ticks(984, 1213)
[950, 1000, 1050, 1100, 1150, 1200, 1250]
>>> rating_ticks(900, 1900)
[800, 1000, 1200, 1400, 1600, 1800, 2000]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from django.utils.formats import date_format
from django.utils.safestring import SafeString
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from . import charts, ratings
from .rating_stats import RatingPoint


def rating_ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round-numbered ticks around the ratings charted (not from 0, as charts' own:
    a rating moves by tens around a thousand or more)."""
    span = max(high - low, 50)
    raw = span / count
    step = next(s for s in (10, 25, 50, 100, 200, 250, 500, 1000) if s >= raw or s == 1000)
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    if first == last:
        first, last = first - step, last + step
    return list(range(int(first), int(last) + 1, step))


def rating_chart(points: Sequence[RatingPoint], name: str) -> charts.LineChart | None:
    """The rating after each rated game (x: rated games played), from the start (game 0:
    everyone's first rating)."""
    if not points:
        return None
    start = ratings.initial().shown
    values: list[tuple[float, float | None]] = [(0, start)]
    values += [(p.game_number, p.shown) for p in points]
    dates = {p.game_number: p.finished_at for p in points}
    last = points[-1]
    shown = [value for _x, value in values if value is not None]

    def game_label(x: float) -> str:
        return str(int(x))

    chart = charts.line_chart(
        title=_("Rating over time"),
        description=_(
            "Rating after each rated game (%(name)s): %(start)s at the start, %(last)s "
            "after game %(number)s (%(date)s)."
        )
        % {
            "name": name,
            "start": start,
            "last": last.shown,
            "number": last.game_number,
            "date": date_format(localtime(last.finished_at), "SHORT_DATE_FORMAT"),
        },
        x_label=_("Rated games played"),
        y_label=_("Rating"),
        series=[charts.Series(label=name, values=values)],
        x_values=[x for x, _y in values],
        x_format=game_label,
        y_ticks=rating_ticks(min(shown), max(shown)),
    )
    # The data table also says when each game was played.
    chart.table_head.insert(1, _("Date"))
    for row, (x, _y) in zip(chart.table_rows, values, strict=True):
        when = dates.get(int(x))
        row.insert(1, date_format(localtime(when), "SHORT_DATE_FORMAT") if when else "–")
    return chart


def rating_chart_svg(points: Sequence[RatingPoint], name: str) -> SafeString:
    """The chart as markup (empty without rated games)."""
    return charts.render(rating_chart(points, name))
