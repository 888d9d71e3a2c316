"""`{% load stats_charts %}{% score_chart game %}`: a game's score chart on any page."""

from django import template
from django.utils.safestring import SafeString

from games.models import Game

from .. import charts

register = template.Library()


@register.simple_tag
def score_chart(game: Game) -> SafeString:
    """Cumulative score per round, one line per player (nothing before round 1)."""
    return charts.score_chart_svg(game)
