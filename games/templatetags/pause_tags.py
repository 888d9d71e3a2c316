"""Away mode and the turn clock in templates (games/online/pause.py)."""

from django import template

from games.models import Seat
from games.online.pause import seat_away_words

register = template.Library()


@register.filter
def away(seat: Seat, viewer: Seat | None = None) -> str:
    """ "away until Friday" for a seat whose person is away (its player, user and
    profile loaded with it), said in the time zone of the `viewer`'s seat; else ""."""
    return seat_away_words(seat, viewer)
