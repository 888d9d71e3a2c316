"""The SVG charts: titles, axis labels, text alternatives, and the section a finished
night's page draws the score chart in. `history` is the five hand-worked games of tests/stats/conftest.py."""

import re

import pytest

from games.models import Game
from games.stats import charts, figures
from games.stats.scope import Scope
from phase10site.jinja import render

pytestmark = pytest.mark.django_db


def test_the_score_chart_has_one_line_per_player_from_zero(history):
    chart = charts.score_chart(history["g2"])
    assert [s.label for s in chart.series] == ["alice", "bob", "carol"]
    assert chart.series[0].values == [(0, 0), (1, 45), (2, 80), (3, 95)]
    assert (chart.x_label, chart.y_label) == ("Round", "Total score")
    assert "Final scores: alice 95, bob 10, carol 50." in chart.description


def test_a_chart_is_an_image_with_a_title_a_description_and_a_data_table(history):
    markup = charts.score_chart_svg(history["g1"])
    svg = markup.split("</svg>")[0]
    assert 'role="img"' in svg
    ids = re.search(r'aria-labelledby="([^"]+)"', svg).group(1).split()
    assert [f'id="{i}"' in svg for i in ids] == [True, True]
    assert "<title" in svg and "<desc" in svg
    assert ">Round</text>" in svg and ">Total score</text>" in svg
    table = markup.split('<table class="visually-hidden">')[1]
    assert "<caption>Score after each round</caption>" in table
    # Round 0 and four rounds, one column per player.
    assert table.count("<tr>") == 1 + 5
    assert '<th scope="row">4</th><td>30</td><td>115</td>' in table


def test_a_chart_runs_right_to_left_in_arabic(history):
    from django.utils import translation

    with translation.override("en"):
        ltr = charts.score_chart(history["g2"])
    with translation.override("ar"):
        rtl = charts.score_chart(history["g2"])
        markup = charts.render(rtl)
    # Round 0 at the left in English, at the right in Arabic; later rounds leftwards.
    first, last = ltr.x_ticks[0].position, ltr.x_ticks[-1].position
    assert first < last
    assert [t.position for t in rtl.x_ticks] == [charts.WIDTH - t.position for t in ltr.x_ticks]
    # The value axis and its labels stand on the right.
    assert rtl.axis_x > charts.WIDTH / 2 > ltr.axis_x
    assert f'<line x1="{rtl.axis_x}" x2="{rtl.axis_x}"' in markup
    assert 'text-anchor="start"' in markup


def test_lines_differ_by_dash_and_marker_not_only_colour(history):
    chart = charts.score_chart(history["g2"])
    assert len({s.colour for s in chart.series}) == 3
    assert len({s.dash for s in chart.series}) == 3
    assert len({s.marker for s in chart.series}) == 3


def test_names_are_escaped_in_the_svg(history):
    dora = history["dora"]
    dora.name = "<script>x</script>"
    dora.save()
    markup = charts.score_chart_svg(history["g3"])
    assert "<script>" not in markup
    assert "&lt;script&gt;" in markup


def test_a_nights_chart_section_draws_the_chart_or_says_when_it_will(history, alice):
    def section(game: Game) -> str:
        context = {"game": game, "chart": charts.score_chart_svg(game)}
        return render("games/nights/score_chart.html", context)

    page = section(history["g1"])
    assert 'class="chart-svg"' in page and "How the game went" in page
    empty = Game.objects.create(mode="night", status="active", creator=alice)
    page = section(empty)
    assert "appears after the first round" in page
    assert "<svg" not in page


def test_the_win_rate_chart_is_in_percent_with_dates_in_the_table(history):
    points = figures.win_rate_over_time(Scope.parse(history["alice"], None, None), 4)
    chart = charts.win_rate_chart(points, "alice")
    assert [y for _x, y in chart.series[0].values] == [100, 50, pytest.approx(200 / 3), 75]
    assert [t.label for t in chart.y_ticks] == ["0", "25", "50", "75", "100"]
    assert chart.table_head[:2] == ["Games played", "Date"]
    assert len(chart.table_rows) == 4


def test_the_phase_chart_compares_with_opponents(history):
    rows = figures.phase_by_round(Scope.parse(history["alice"], None, None))
    chart = charts.phase_chart(rows, "alice")
    assert [s.label for s in chart.series] == ["alice", "Opponents"]
    assert chart.y_label == "Phase"
    assert charts.phase_chart([], "alice") is None
    assert chart.description.startswith(
        "The phase alice was on in each round, on average over their games, "
        "next to their opponents' average. In round "
    )
    assert chart.series[0].dots[0][1] == "alice: 1, 1.0"


def test_the_phase_chart_on_your_own_page_speaks_to_you(history):
    rows = figures.phase_by_round(Scope.parse(history["alice"], None, None))
    chart = charts.phase_chart(rows, "you", own=True)
    assert chart.description.startswith(
        "The phase you were on in each round, on average over your games, "
        "next to your opponents' average. In round "
    )


def test_nice_ticks_cover_the_data():
    assert charts.nice_ticks(0, 95) == [0, 20, 40, 60, 80, 100]
    assert charts.nice_ticks(0, 0) == [0, 1]
    ticks = charts.nice_ticks(0, 1234)
    assert ticks[0] == 0 and ticks[-1] >= 1234 and len(ticks) <= 7


@pytest.mark.parametrize(
    "module",
    ["games.stats.charts", "games.stats.figures", "games.stats.export", "games.stats.scope"],
)
def test_the_docstring_examples_hold(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0
    assert result.failed == 0
