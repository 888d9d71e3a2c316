"""Server-rendered SVG line charts, with no dependency.

The site needs three small line charts. A library (pygal, matplotlib) would bring
its own styles, fonts and scripts to fight; these few hundred lines lay out the
axes and lines and draw them with a <title>, a <desc>, axis labels, a legend and a
visually-hidden data table as the text alternative.

In a right-to-left language (Arabic) a chart is mirrored, as the page is: time runs
from right to left and the value axis stands on the right, where a reader starts.

>>> nice_ticks(0, 237)
[0, 50, 100, 150, 200, 250]
>>> nice_ticks(1, 10, count=5)
[0, 2, 4, 6, 8, 10]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import count

from django.core.cache import cache
from django.utils.formats import date_format, number_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import get_language_bidi
from django.utils.translation import gettext as _

from games import cache_keys
from games.models import Game, RoundScore

from . import figures

# Okabe–Ito colours: told apart by colour-blind readers, dark enough on white.
# Each series also gets its own dash pattern and marker, so colour is never alone.
COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#8a6d00", "#4b4b4b"]
DASHES = ["", "6 3", "2 3", "8 3 2 3", "4 4", "1 2"]
MARKERS = ["circle", "square", "diamond", "triangle", "circle", "square"]

WIDTH, HEIGHT = 420, 260
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 60, 16, 14, 46
_ids = count(1)


@dataclass
class Series:
    label: str
    values: list[tuple[float, float | None]]  # (x, y); y None = no value at x
    colour: str = ""
    dash: str = ""
    marker: str = "circle"
    path: str = ""
    dots: list[tuple[str, str]] = field(default_factory=list)  # marker path, tooltip


@dataclass
class Tick:
    value: float
    label: str
    position: float


@dataclass
class LineChart:
    title: str
    description: str
    x_label: str
    y_label: str
    series: list[Series]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    table_head: list[str]  # the first column is the x value
    table_rows: list[list[str]]
    id: str = ""
    width: int = WIDTH
    height: int = HEIGHT
    left: int = MARGIN_LEFT
    right: int = WIDTH - MARGIN_RIGHT
    top: int = MARGIN_TOP
    bottom: int = HEIGHT - MARGIN_BOTTOM
    rtl: bool = False  # mirrored: x grows leftwards, the value axis on the right

    def x(self, position: float) -> float:
        """A horizontal position laid out left to right, where it is drawn."""
        return round(self.width - position, 1) if self.rtl else position

    @property
    def x_label_y(self) -> int:
        return self.height - 6

    @property
    def y_label_x(self) -> float:
        return self.x(14)

    @property
    def axis_x(self) -> float:
        return self.x(self.left)

    @property
    def tick_label_x(self) -> float:
        return self.x(self.left - 6)

    @property
    def tick_anchor(self) -> str:
        # The SVG is drawn with direction="ltr": "end" is the right-hand end.
        return "start" if self.rtl else "end"

    @property
    def middle_x(self) -> float:
        return self.x((self.left + self.right) / 2)

    @property
    def middle_y(self) -> float:
        return (self.top + self.bottom) / 2

    @property
    def legend(self) -> bool:
        return len(self.series) > 1


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round-numbered ticks (1, 2 or 5 × 10ⁿ apart, at least 1) from at most `low` to at
    least `high`."""
    low, high = min(low, 0), max(high, low + 1)
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    # Never below 1: every value charted here (points, phases, games) is whole.
    step = max(1, next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw))
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value < high + step:
        ticks.append(int(value) if float(value).is_integer() else round(value, 6))
        if value >= high:
            break
        value += step
    return ticks


def _marker(shape: str, x: float, y: float) -> str:
    """An SVG path for one data point's marker, centred on (x, y)."""
    if shape == "square":
        return f"M{x - 3.5:.1f} {y - 3.5:.1f}h7v7h-7z"
    if shape == "diamond":
        return f"M{x:.1f} {y - 4.5:.1f}l4.5 4.5l-4.5 4.5l-4.5 -4.5z"
    if shape == "triangle":
        return f"M{x:.1f} {y - 4.5:.1f}l4.5 8h-9z"
    return f"M{x - 3.5:.1f} {y:.1f}a3.5 3.5 0 1 0 7 0a3.5 3.5 0 1 0 -7 0"


def _number(value: float | None, decimals: int = 0) -> str:
    if value is None:
        return "–"
    return number_format(value, decimal_pos=decimals, use_l10n=True)


def line_chart(
    *,
    title: str,
    description: str,
    x_label: str,
    y_label: str,
    series: Sequence[Series],
    x_values: Sequence[float],
    x_format: Callable[[float], str] = lambda x: _number(x),
    y_format: Callable[[float | None], str] = lambda y: _number(y),
    y_range: tuple[float, float] | None = None,
    y_ticks: Sequence[float] | None = None,
) -> LineChart:
    """Lay out a line chart: scale the values into the plot area, build the paths,
    ticks and the data table (one row per x value, one column per series)."""
    chart = LineChart(
        title=title,
        description=description,
        x_label=x_label,
        y_label=y_label,
        series=list(series),
        x_ticks=[],
        y_ticks=[],
        table_head=[x_label, *(s.label for s in series)],
        table_rows=[],
        id=f"chart-{next(_ids)}",
        rtl=get_language_bidi(),
    )
    ys = [y for s in series for _x, y in s.values if y is not None]
    if y_ticks is None:
        low, high = y_range or ((min(ys, default=0)), max(ys, default=1))
        y_ticks = nice_ticks(low, high)
    y_low, y_high = y_ticks[0], y_ticks[-1]
    x_low, x_high = min(x_values, default=0), max(x_values, default=1)
    if x_high == x_low:
        x_high = x_low + 1

    def sx(x: float) -> float:
        ltr = chart.left + (x - x_low) / (x_high - x_low) * (chart.right - chart.left)
        return chart.x(round(ltr, 1))

    def sy(y: float) -> float:
        span = (y_high - y_low) or 1
        return round(chart.bottom - (y - y_low) / span * (chart.bottom - chart.top), 1)

    # Whole-numbered ticks read better without decimals ("8", not "8.0").
    chart.y_ticks = [
        Tick(v, _number(v) if float(v).is_integer() else y_format(v), sy(v)) for v in y_ticks
    ]
    step = max(1, math.ceil(len(x_values) / 8))
    shown = list(x_values[::step])
    if x_values and shown[-1] != x_values[-1]:
        if len(shown) > 1 and abs(sx(x_values[-1]) - sx(shown[-1])) < 24:
            shown.pop()
        shown.append(x_values[-1])
    chart.x_ticks = [Tick(v, x_format(v), sx(v)) for v in shown]

    for index, line in enumerate(chart.series):
        line.colour = line.colour or COLOURS[index % len(COLOURS)]
        line.dash = line.dash or DASHES[index % len(DASHES)]
        line.marker = MARKERS[index % len(MARKERS)]
        commands, pen_down = [], False
        for x, y in line.values:
            if y is None:
                pen_down = False
                continue
            commands.append(f"{'L' if pen_down else 'M'}{sx(x)} {sy(y)}")
            pen_down = True
            tip = _("%(series)s: %(x)s, %(y)s") % {
                "series": line.label,
                "x": x_format(x),
                "y": y_format(y),
            }
            line.dots.append((_marker(line.marker, sx(x), sy(y)), tip))
        line.path = " ".join(commands)
        # Many points: a plain line reads better than a row of beads.
        if len(line.dots) > 24:
            line.dots = []

    by_x: dict[float, list[str]] = {x: [] for x in x_values}
    for line in chart.series:
        values = dict(line.values)
        for x in x_values:
            by_x[x].append(y_format(values.get(x)))
    chart.table_rows = [[x_format(x), *cells] for x, cells in by_x.items()]
    return chart


def named(chart: LineChart | None, name: str) -> LineChart | None:
    """`chart` with the id `chart-<name>` rather than a number: for a chart drawn once
    on its page, whose markup is kept (games/stats/page.py) and so must not depend on
    which process drew it."""
    return None if chart is None else replace(chart, id=f"chart-{name}")


def render(chart: LineChart | None) -> SafeString:
    """The chart as markup: an SVG for the eyes (role="img", named by its <title> and
    <desc>), a legend, and a visually-hidden data table for screen readers.

    Built here rather than in a template: it is a few hundred small elements, and
    the stats page renders three of them within its time budget. Every text is
    escaped; coordinates are formatted by Python, never localised ("12,5" would
    break the SVG in a language with a decimal comma).
    """
    if chart is None:
        return SafeString("")
    c, e = chart, escape
    out = [
        f'<figure class="chart" id="{c.id}">',
        f'<svg class="chart-svg" viewBox="0 0 {c.width} {c.height}" role="img" direction="ltr"'
        f' aria-labelledby="{c.id}-title {c.id}-desc" focusable="false">',
        f'<title id="{c.id}-title">{e(c.title)}</title>',
        f'<desc id="{c.id}-desc">{e(c.description)}</desc>',
        '<g class="chart-grid">',
        *(
            f'<line x1="{c.axis_x}" x2="{c.x(c.right)}" y1="{t.position}" y2="{t.position}"/>'
            for t in c.y_ticks
        ),
        '</g><g class="chart-axis">',
        f'<line x1="{c.axis_x}" x2="{c.axis_x}" y1="{c.top}" y2="{c.bottom}"/>',
        f'<line x1="{c.axis_x}" x2="{c.x(c.right)}" y1="{c.bottom}" y2="{c.bottom}"/>',
        '</g><g class="chart-ticks" aria-hidden="true">',
        *(
            f'<text x="{c.tick_label_x}" y="{t.position}" dy="4" text-anchor="{c.tick_anchor}">'
            f"{e(t.label)}</text>"
            for t in c.y_ticks
        ),
        *(
            f'<text x="{t.position}" y="{c.bottom}" dy="17" text-anchor="middle">{e(t.label)}</text>'
            for t in c.x_ticks
        ),
        '</g><g class="chart-labels">',
        f'<text x="{c.middle_x}" y="{c.x_label_y}" text-anchor="middle">{e(c.x_label)}</text>',
        f'<text transform="translate({c.y_label_x} {c.middle_y}) rotate(-90)"'
        f' text-anchor="middle">{e(c.y_label)}</text>',
        "</g>",
    ]
    for line in c.series:
        dash = f' stroke-dasharray="{line.dash}"' if line.dash else ""
        out.append(f'<g class="chart-series" stroke="{line.colour}" fill="{line.colour}">')
        out.append(
            f'<path d="{line.path}" fill="none" stroke-width="2.5" stroke-linejoin="round"'
            f' stroke-linecap="round"{dash}/>'
        )
        out.extend(
            f'<path d="{marker}" stroke="none"><title>{e(tip)}</title></path>'
            for marker, tip in line.dots
        )
        out.append("</g>")
    out.append("</svg>")
    if c.legend:
        out.append('<figcaption class="chart-legend" aria-hidden="true">')
        for line in c.series:
            dash = f' stroke-dasharray="{line.dash}"' if line.dash else ""
            out.append(
                '<span class="chart-key"><svg width="28" height="10" viewBox="0 0 28 10">'
                f'<line x1="1" x2="27" y1="5" y2="5" stroke="{line.colour}" stroke-width="3"'
                f"{dash}/></svg>{e(line.label)}</span>"
            )
        out.append("</figcaption>")
    out.append(f'<table class="visually-hidden"><caption>{e(c.title)}</caption><thead><tr>')
    out.extend(f'<th scope="col">{e(heading)}</th>' for heading in c.table_head)
    out.append("</tr></thead><tbody>")
    for first, *cells in c.table_rows:
        out.append(f'<tr><th scope="row">{e(first)}</th>')
        out.extend(f"<td>{e(cell)}</td>" for cell in cells)
        out.append("</tr>")
    out.append("</tbody></table></figure>")
    return mark_safe("".join(out))  # noqa: S308  (every text above went through escape)


# --- the charts ---------------------------------------------------------------


def score_chart(game: Game) -> LineChart | None:
    """Cumulative score per round, one line per player; None before the first round.
    One query."""
    rows = list(
        RoundScore.objects.filter(game=game)
        .order_by("seat__position", "round_number")
        .values_list("seat__position", "player__name", "round_number", "total")
    )
    if not rows:
        return None
    lines: dict[int, Series] = {}
    rounds: set[int] = set()
    for position, name, round_number, total in rows:
        line = lines.setdefault(position, Series(label=name, values=[(0, 0)]))
        line.values.append((round_number, total))
        rounds.add(round_number)
    finals = ", ".join(
        _("%(name)s %(score)s") % {"name": s.label, "score": s.values[-1][1]}
        for s in lines.values()
    )
    return line_chart(
        title=_("Score after each round"),
        description=_("Total score of each player after each round. Final scores: %(finals)s.")
        % {"finals": finals},
        x_label=_("Round"),
        y_label=_("Total score"),
        series=list(lines.values()),
        x_values=[0, *sorted(rounds)],
    )


# A game's rounds change only with its version (every saved, corrected or undone round
# bumps it), so its chart is drawn once per version and language, then read from the
# cache (for VERSION_SECONDS: its players' names are drawn with it).


def score_chart_svg(game: Game) -> SafeString:
    """The score chart of a game as markup, for the game pages (empty before round 1).
    Taken from the cache when this version was drawn already: no query then."""
    key = cache_keys.score_chart(game)
    markup = cache.get(key)
    if markup is None:
        markup = str(render(score_chart(game)))
        cache.set(key, markup, cache_keys.VERSION_SECONDS)
    return SafeString(markup)


def phase_chart(
    rows: Sequence[figures.PhaseByRound], name: str, *, own: bool = False
) -> LineChart | None:
    """The average phase a player was on in each round, against their opponents.
    `own`: the viewer's own page, which says "you" in whole sentences of its own."""
    if not rows:
        return None
    mine = Series(label=name, values=[(r.round_number, r.mine) for r in rows])
    others = Series(label=_("Opponents"), values=[(r.round_number, r.others) for r in rows])
    last = next((r for r in reversed(rows) if r.mine is not None), rows[-1])
    return line_chart(
        title=_("Phase reached per round"),
        description=(
            _(
                "The phase you were on in each round, on average over your games, "
                "next to your opponents' average. In round %(round)s: %(mine)s."
            )
            if own
            else _(
                "The phase %(name)s was on in each round, on average over their games, "
                "next to their opponents' average. In round %(round)s: %(mine)s."
            )
        )
        % {"name": name, "round": last.round_number, "mine": _number(last.mine, 1)},
        x_label=_("Round"),
        y_label=_("Phase"),
        series=[mine, others],
        x_values=[r.round_number for r in rows],
        y_format=lambda y: _number(y, 1),
        y_ticks=[0, 2, 4, 6, 8, 10],
    )


def win_rate_chart(points: Sequence[figures.WinRatePoint], name: str) -> LineChart | None:
    """The running win rate after each game (x: games played)."""
    if not points:
        return None
    dates = {p.game_number: p.finished_at for p in points}
    line = Series(label=name, values=[(p.game_number, p.rate * 100) for p in points])
    first, last = points[0], points[-1]

    def game_label(x: float) -> str:
        return str(int(x))

    description = _(
        "Share of games won so far, after each game: %(first)s%% after game %(first_n)s "
        "(%(first_date)s), %(last)s%% after game %(last_n)s (%(last_date)s)."
    ) % {
        "first": _number(first.rate * 100),
        "first_n": first.game_number,
        "first_date": date_format(localtime(first.finished_at), "SHORT_DATE_FORMAT"),
        "last": _number(last.rate * 100),
        "last_n": last.game_number,
        "last_date": date_format(localtime(last.finished_at), "SHORT_DATE_FORMAT"),
    }
    chart = line_chart(
        title=_("Win rate over time"),
        description=description,
        x_label=_("Games played"),
        y_label=_("Win rate (%)"),
        series=[line],
        x_values=[p.game_number for p in points],
        x_format=game_label,
        y_ticks=[0, 25, 50, 75, 100],
    )
    # The data table also says when each game was played.
    chart.table_head.insert(1, _("Date"))
    for row, point in zip(chart.table_rows, points, strict=True):
        row.insert(1, date_format(localtime(dates[point.game_number]), "SHORT_DATE_FORMAT"))
    return chart
