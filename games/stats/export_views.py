"""Pages of the ratings that the stats pages don't already draw: the rating history as
CSV. (The stats page's rating section and a game's rating changes are template tags,
`accounts/templatetags/rating_tags.py`.)"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import StreamingHttpResponse
from django.views.decorators.http import require_GET

from games.models import Player

from . import export
from .http import AuthenticatedHttpRequest


@login_required
@require_GET
def export_ratings_csv(request: AuthenticatedHttpRequest) -> StreamingHttpResponse:
    """Your rating history: one row per rated game, before and after."""
    return export.csv_response(
        "phase10-ratings.csv", export.ratings_rows(Player.for_user(request.user))
    )
