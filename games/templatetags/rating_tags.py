"""Ratings on any page: `{% load rating_tags %}`, then `{% rating_changes game %}` (what a
finished game did to its people's ratings, "+23", on both modes' game pages) and
`{% rating_panel player own=True %}` (the stats page's rating section)."""

from typing import Any

from django import template
from django.utils.translation import gettext as _

from games.models import Game, Player

from ..stats import rating_chart, rating_stats, ratings

register = template.Library()


@register.inclusion_tag("games/stats/rating_changes.html")
def rating_changes(game: Game) -> dict[str, Any]:
    """Each person's rating after the game and its change, best place first; nothing
    before the game is over and rated. One query (none for a game in progress)."""
    if game.status != Game.Status.FINISHED:
        return {"rows": []}
    return {"rows": rating_stats.game_changes(game)}


@register.inclusion_tag("games/stats/rating_panel.html")
def rating_panel(player: Player, *, own: bool = False) -> dict[str, Any]:
    """The stats page's rating section: the rating now, its chart, and the opponents it
    gained and lost most against. Three queries (one before the first rated game)."""
    rating = rating_stats.player_rating(player)
    if rating is None:
        return {"rating": None, "own": own}
    name = _("you") if own else player.name
    best, worst = rating_stats.opponents(player)
    return {
        "rating": rating,
        "own": own,
        "chart": rating_chart.rating_chart_svg(rating_stats.history(player, rating.games), name),
        "best": best,
        "worst": worst,
        "provisional_games": rating_stats.PROVISIONAL_GAMES,
        "rating_start": ratings.SCALE_BASE,
    }
