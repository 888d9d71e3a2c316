"""A game night with no signal (issue 16): the installable web app's service worker, the
page it shows for what needs a connection, and the rounds a phone kept while offline.

A round entered offline is kept on the phone (static/js/offline.js) and sent here once
the connection is back, in order, each with a key the phone gave it, the version it was
entered against and the number it was entered as. The answer is JSON:

- `applied`: saved as the next round (the version moved, e.g. by the rounds sent before
  it, but no one else took its number);
- `already_applied`: its key was saved before (a retry, a second tab), or the same round
  with the same values is there already (the answer to the online post was lost);
- `conflict` (409): the version moved and another scorer took its number meanwhile; the
  answer says what differs, and the host decides (keep theirs as a correction of that
  round, or discard it);
- `refused` (422): the rules refuse it (the night is over, a tie-breaker is due, …).

The winner and the tie-breaker are decided here, by the same services as any round.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from django import forms
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from ..errors import Refused, Stale
from ..models import Game, QueuedRound
from ..words import isolated
from . import services
from .forms import NightRoundForm
from .scoreboard import Scoreboard, load_scoreboard

if TYPE_CHECKING:
    from uuid import UUID

    from accounts.http import AuthenticatedHttpRequest

# What the service worker keeps from its installation on (the pages are kept as they
# are opened). A new list is a new service worker: the browser updates it.
PRECACHED_STATIC = (
    "css/site.css",
    "js/site.js",
    "js/offline.js",
    "js/night.js",
    "django_htmx/htmx-2.min.js",
    "icons/favicon.svg",
    "icons/icon-192.png",
    "manifest.json",
)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js, at the site's root so its scope is every page; never cached by HTTP, so
    a new version reaches phones on their next visit."""
    precache = [reverse("games:offline"), *_static_urls(PRECACHED_STATIC)]
    context = {
        "static_prefix": static(""),
        "precache": precache,
        "cache_name": hashlib.sha256(" ".join(precache).encode()).hexdigest()[:12],
    }
    response = render(request, "sw.js", context, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


def _static_urls(paths: tuple[str, ...]) -> list[str]:
    """The files' addresses; one renamed or gone (not in collectstatic's manifest) is
    left out rather than failing the service worker."""
    urls = []
    for path in paths:
        try:
            urls.append(static(path))
        except ValueError:
            continue
    return urls


@require_GET
def offline_page(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page that was never opened with a connection."""
    return render(request, "offline.html")


class QueuedRoundForm(forms.Form):
    """What the phone adds to the round form's own fields."""

    key = forms.UUIDField()
    number = forms.IntegerField(min_value=1)
    version = forms.IntegerField(min_value=0)


@login_required
@require_POST
@never_cache
def night_queued_round(request: AuthenticatedHttpRequest, public_id: str) -> HttpResponse:
    scorer = Q(creator=request.user) | Q(co_scorers=request.user)
    night = Game.objects.filter(scorer, mode=Game.Mode.NIGHT).distinct()
    game = get_object_or_404(night, public_id=public_id)
    sent = QueuedRoundForm(request.POST)
    if not sent.is_valid():
        return _answer(
            game, "refused", 0, _("This round can't be read: enter it again."), status=400
        )
    key, number = sent.cleaned_data["key"], sent.cleaned_data["number"]
    if (applied := _applied(game, key)) is not None:
        return _answer(game, "already_applied", applied)
    board = load_scoreboard(game)
    if sent.cleaned_data["version"] != game.version and number <= len(board.rounds):
        return _taken(request, game, board, key, number)
    form = NightRoundForm(board, request.POST)
    if not form.is_valid():
        errors = [str(error) for field_errors in form.errors.values() for error in field_errors]
        return _answer(game, "refused", number, " ".join(errors), status=422)
    try:
        services.add_round(game, form.entry, version=game.version, key=key)
    except Stale:
        # Another change got in between (a second tab sending the same round?).
        if (applied := _applied(game, key)) is not None:
            return _answer(game, "already_applied", applied)
        return _answer(game, "retry", number, services.stale_message(), status=503)
    except Refused as error:
        return _answer(game, "refused", number, error.message, status=422)
    return _answer(game, "applied", form.number)


def _applied(game: Game, key: UUID) -> int | None:
    return (
        QueuedRound.objects.filter(game=game, key=key)
        .values_list("round_number", flat=True)
        .first()
    )


def _taken(
    request: HttpRequest, game: Game, board: Scoreboard, key: UUID, number: int
) -> HttpResponse:
    """The version moved and round `number` is there already: the same round (its
    answer was lost on the way) or another scorer's."""
    form = NightRoundForm(board, request.POST, number=number)
    if form.is_valid() and _same(board, number, form):
        QueuedRound.objects.get_or_create(game=game, key=key, defaults={"round_number": number})
        return _answer(game, "already_applied", number)
    message = _(
        "Round %(number)s was entered on another phone while yours waited to be sent. "
        "Keep yours as a correction of round %(number)s, or discard it."
    ) % {"number": number}
    differences = _differences(board, number, form) if form.is_valid() else []
    return _answer(game, "conflict", number, message, status=409, differences=differences)


def _differences(board: Scoreboard, number: int, form: NightRoundForm) -> list[str]:
    """What the host's round `number` says unlike the one on the server, a sentence per
    difference (who went out, then each player's points and phase), so the host can
    choose without laying the two rounds side by side."""
    cells = board.rounds[number - 1].cells
    entry = form.entry
    name = {seat.position: isolated(seat.name) for seat in board.seats}
    nobody = pgettext("nobody went out", "nobody")
    differences = []
    theirs_out = next((position for position, cell in enumerate(cells) if cell.went_out), None)
    if theirs_out != entry.went_out:
        differences.append(
            _("Went out: %(theirs)s on the other phone, %(mine)s on yours.")
            % {
                "theirs": nobody if theirs_out is None else name[theirs_out],
                "mine": nobody if entry.went_out is None else name[entry.went_out],
            }
        )
    for position, cell in enumerate(cells):
        words = {"name": name[position], "theirs": cell.points, "mine": entry.points[position]}
        if cell.points != entry.points[position]:
            differences.append(
                _("%(name)s: %(theirs)s points on the other phone, %(mine)s on yours.") % words
            )
        mine = entry.completed.get(position)
        words.update(theirs=cell.completed, mine=mine)
        if cell.completed == mine:
            continue
        if mine is None:
            text = _("%(name)s: phase %(theirs)s completed on the other phone, not on yours.")
        elif cell.completed is None:
            text = _("%(name)s: phase %(mine)s completed on yours, not on the other phone.")
        else:
            text = _(
                "%(name)s: phase %(theirs)s completed on the other phone, phase %(mine)s on yours."
            )
        differences.append(text % words)
    return differences


def _same(board: Scoreboard, number: int, form: NightRoundForm) -> bool:
    cells = board.rounds[number - 1].cells
    entry = form.entry
    went_out = next((position for position, cell in enumerate(cells) if cell.went_out), None)
    completed = {position: cell.completed for position, cell in enumerate(cells) if cell.completed}
    points = tuple(cell.points for cell in cells)
    return (entry.went_out, entry.points, dict(entry.completed)) == (went_out, points, completed)


def _answer(
    game: Game,
    outcome: str,
    number: int,
    message: str = "",
    *,
    status: int = 200,
    differences: list[str] | None = None,
) -> JsonResponse:
    """The outcome, the round's number, a sentence for the host (and for a conflict, what
    differs), and what a correction of that round needs: its form's address and the
    game's version now."""
    game.refresh_from_db(fields=["version"])
    edit_url = reverse("games:night_edit_round", args=[game.public_id, number]) if number else ""
    answer = {
        "status": outcome,
        "number": number,
        "message": message,
        "version": game.version,
        "edit_url": edit_url,
        "differences": differences or [],
    }
    return JsonResponse(answer, status=status)
