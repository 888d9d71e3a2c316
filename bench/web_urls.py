"""The real URLs plus the bench's yardstick, served only by bench/web.py's gunicorn.

The bare view is a logged-in request through the same middleware, session and
database as every page, doing one small query and rendering nothing.
"""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from games.models import Game


@login_required
def bare(request: HttpRequest) -> HttpResponse:
    version = Game.objects.filter(pk=1).values_list("version", flat=True).first()
    return HttpResponse(f"{version}", content_type="text/plain")


urlpatterns = [
    path("bench/bare/", bare),
    path("", include("phase10site.urls")),
]
