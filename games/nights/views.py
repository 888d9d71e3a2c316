"""Game night pages: a real deck at a real table.

Private pages (/nights/…) are for the scorer, co-scorers and seated members; everyone
else gets 404, so a game's existence doesn't leak. The pages behind the share link
(/s/<token>/: the live scoreboard and its TV view) are in share_views.py.
"""

from __future__ import annotations

import time
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.http import AuthenticatedHtmxHttpRequest, AuthenticatedHttpRequest
from phase10site.jinja import render as render_jinja

from .. import cache_keys
from ..errors import Refused, Stale
from ..models import Game
from ..words import isolated
from . import listing, page, services
from .corrections import Correction
from .forms import (
    NightCoScorerForm,
    NightRoundForm,
    NightTiebreakForm,
    NightUndoForm,
)
from .qr import qr_svg
from .scoreboard import Scoreboard, load_scoreboard

DETAIL = "games/nights/detail.html"
CORRECTION = "games/nights/correction.html"


# --- access -------------------------------------------------------------------------------


def _get_night_for_viewer(
    request: AuthenticatedHtmxHttpRequest, public_id: str
) -> tuple[Game, Scoreboard]:
    """A game the user may look at (scorer, co-scorer or seated member), else 404, with
    its scoreboard. The game is read by its public id alone; a viewer who isn't its
    scorer is asked whether they co-score it. Who sits at it (and whose seat waits for
    an answer) is on its scoreboard at the version just read: every change of its seats
    moves the version on."""
    user = request.user
    game = get_object_or_404(Game, public_id=public_id, mode=Game.Mode.NIGHT)
    if game.creator_id == user.pk:
        game.creator = user
        game.can_edit = True
    else:
        game.can_edit = game.co_scorers.filter(pk=user.pk).exists()
    board = _scoreboard(game)
    seat = board.seat_of(user.pk)
    if not game.can_edit and seat is None:
        raise Http404
    return game, board


def _get_night_for_scorer(request: AuthenticatedHtmxHttpRequest, public_id: str) -> Game:
    """A game the user may change (scorer or co-scorer), else 404 — viewers included.
    Its scorer (who changes it most) is found first, by a plain lookup."""
    user = request.user
    nights = Game.objects.filter(public_id=public_id, mode=Game.Mode.NIGHT)
    try:
        game = nights.get(creator=user)
    except Game.DoesNotExist:
        game = get_object_or_404(nights.select_related("creator"), co_scorers=user)
    else:
        game.creator = user
    game.can_edit = True
    return game


def _scoreboard(game: Game, *, keep: bool = True) -> Scoreboard:
    """`game`'s scoreboard at its version. The latest one read is kept per night: at an
    earlier version (another worker saved the rounds since), the whole night is read.
    Not `keep`: a new round's post, which keeps the scoreboard it makes instead."""
    kept: Scoreboard | None = cache.get(cache_keys.night_scoreboard(game))
    if kept is not None and kept.version == game.version:
        return kept
    board = load_scoreboard(game)
    if keep and (kept is None or kept.version < game.version):
        _keep_scoreboard(game, board)
    return board


def _keep_scoreboard(game: Game, board: Scoreboard) -> None:
    """Cache `board`, the scoreboard of `game` at its version, where `_scoreboard` looks
    for it; no longer than its seats' names were read ago."""
    seconds = cache_keys.VERSION_SECONDS - (time.time() - board.read_at)
    if seconds > 1:
        cache.set(cache_keys.night_scoreboard(game), board, seconds)


def _refuse_stale(request: AuthenticatedHtmxHttpRequest, game: Game) -> HttpResponse | None:
    """Every changing form carries the version it was built from; an older one (another
    scorer's change, a double tap, a tab left open) is refused with the current game.
    The services check again under the row lock, for the race between here and there.
    (The posted number is read as NightVersionForm reads it, without building a form for
    it: every round entry starts here.)"""
    try:
        posted = int(request.POST.get("version", ""))
    except ValueError:
        posted = None
    if posted == game.version:
        return None
    return _render_game(request, game, notice=services.stale_message(), level="error")


# --- pages ----------------------------------------------------------------------------------


@login_required
@require_GET
def night_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    page = listing.nights_page(request, request.GET.get("page"))
    return render(request, "games/nights/list.html", {"page": page})


@login_required
@require_GET
def night_detail(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    game, board = _get_night_for_viewer(request, public_id)
    seat = board.seat_of(request.user.pk)
    # ?saved=<n>: where a plain (no JavaScript) round save lands, its summary on top.
    saved = request.GET.get("saved", "")
    # isdecimal: the digits int() reads, not "²" as isdigit would; and few of them.
    number = int(saved) if saved.isdecimal() and len(saved) <= 6 else 0
    number = number if game.can_edit else 0
    return _render_game(
        request,
        game,
        board=board,
        saved=number if number == game.rounds_played else 0,
        # The seat's question (nights/seating.py) on top of the page.
        awaiting=seat is not None and not seat.accepted,
    )


@login_required
@require_POST
def night_add_round(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    game = _get_night_for_scorer(request, public_id)
    if stale := _refuse_stale(request, game):
        return stale
    board = _scoreboard(game, keep=False)
    form = NightRoundForm(board, request.POST)
    if form.is_valid():
        try:
            # The service folds the round onto the form's scoreboard and hands back the
            # new one: the page is drawn from it, the rounds are not read back.
            changed, fresh = services.enter_round(
                game, form.entry, version=form.cleaned_data["version"], board=board
            )
        except Refused as error:
            if isinstance(error, Stale) or error.field is None:
                # Not about one of the typed values (game over, tie-breaker due, stale).
                return _render_game(request, game, notice=error.message, level="error")
            form.add_error(error.field, error.message)
        else:
            changed.can_edit = True
            _keep_scoreboard(changed, fresh)
            return _saved(request, changed, form.number, fresh)
    return _render_game(request, game, board=board, form=form)


@login_required
@require_http_methods(["GET", "POST"])
def night_edit_round(
    request: AuthenticatedHtmxHttpRequest, public_id: str, number: int
) -> HttpResponse:
    game = _get_night_for_scorer(request, public_id)
    if request.method == "POST" and (stale := _refuse_stale(request, game)):
        return stale
    board = _scoreboard(game)
    if not 1 <= number <= len(board.rounds):
        raise Http404
    form = NightRoundForm(board, request.POST or None, number=number)
    if request.method == "POST" and form.is_valid():
        try:
            if board.rounds_over and not form.cleaned_data["confirm"]:
                correction = services.preview_edit(game, number, form.entry)
                return _confirm(request, game, correction, form.posted_values())
            services.edit_round(game, number, form.entry, version=form.cleaned_data["version"])
        except Stale as error:
            return _render_game(request, game, notice=error.message, level="error")
        except Refused as error:
            form.add_error(error.field, error.message)
        else:
            done = _("Round %(number)s corrected; the rounds after it were recomputed.") % {
                "number": number
            }
            return _changed(request, game, done)
    if request.htmx and request.method == "POST":
        return _render_game(request, game, board=board, form=form)
    context = page.round_context(game, board, form)
    if request.htmx:
        return HttpResponse(render_jinja(page.ROUND_FORM, context, request))
    return render(request, "games/nights/round.html", context)


@login_required
@require_POST
def night_undo(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    game = _get_night_for_scorer(request, public_id)
    if stale := _refuse_stale(request, game):
        return stale
    form = NightUndoForm(request.POST)
    confirmed = form.is_valid() and form.cleaned_data["confirm"]
    try:
        if _scoreboard(game).rounds_over and not confirmed:
            return _confirm(request, game, services.preview_undo(game))
        services.undo_last(game, version=game.version)
    except Refused as error:
        return _render_game(request, game, notice=error.message, level="error")
    return _changed(request, game, _("The last entry was undone."))


@login_required
@require_POST
def night_tiebreak(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    game = _get_night_for_scorer(request, public_id)
    if stale := _refuse_stale(request, game):
        return stale
    board = _scoreboard(game)
    if not board.tiebreak_needed:
        return _render_game(request, game, notice=_("No tie-breaker round is due."), level="error")
    form = NightTiebreakForm(board, request.POST)
    if not form.is_valid():
        return _render_game(request, game, board=board, tiebreak_form=form)
    data = form.cleaned_data
    try:
        services.record_tiebreak(game, data["winner"], version=data["version"])
    except Refused as error:
        return _render_game(request, game, notice=error.message, level="error")
    return _changed(request, game, _("Tie-breaker recorded."))


@login_required
@require_POST
def night_add_co_scorer(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    game = _get_night_for_scorer(request, public_id)
    form = NightCoScorerForm(request.POST)
    if form.is_valid():
        try:
            services.add_co_scorer(
                game, form.cleaned_data["username"], version=form.cleaned_data["version"]
            )
        except Stale as error:
            messages.error(request, error.message)
            return redirect(game)
        except Refused as error:
            form.add_error(error.field, error.message)
        else:
            name = form.cleaned_data["username"].get_username()
            messages.success(
                request, _("%(name)s can now keep score too.") % {"name": isolated(name)}
            )
            return redirect(game)
    return _render_game(request, game, co_scorer_form=form, full_page=True)


@login_required
@require_POST
def night_rematch(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    game = _get_night_for_scorer(request, public_id)
    if stale := _refuse_stale(request, game):
        return stale
    try:
        new = services.rematch(game, request.user, version=game.version)
    except Refused as error:
        return _render_game(request, game, notice=error.message, level="error")
    messages.success(request, _("Rematch! Same players, same rules."))
    return redirect(new)


# --- rendering ----------------------------------------------------------------------------


def _confirm(
    request: AuthenticatedHtmxHttpRequest,
    game: Game,
    correction: Correction,
    values: list[tuple[str, str]] | None = None,
) -> HttpResponse:
    """A correction after the night's end, not saved yet: what it would change, and a
    form that posts the same `values` again with confirm=1 and the version they were
    checked against (a change in between makes it stale, as any form)."""
    confirming = page.correction_context(game, correction, request.path, values or [])
    if request.htmx:
        return _render_game(request, game, board=correction.before, confirming=confirming)
    return render(request, CORRECTION, confirming)


def _changed(request: AuthenticatedHtmxHttpRequest, game: Game, notice: str) -> HttpResponse:
    """After a change: HTMX gets the fresh game inline, a plain form post a redirect."""
    if request.htmx:
        game.refresh_from_db()
        return _render_game(request, game, notice=notice, level="success")
    messages.success(request, notice)
    return redirect(game)


def _saved(
    request: AuthenticatedHtmxHttpRequest, game: Game, number: int, board: Scoreboard
) -> HttpResponse:
    """After a new round: the fresh game with the round's summary on top (the standings,
    who deals and who plays first); a plain form post is sent to that summary. `game` is
    the row as the service saved it, `board` its scoreboard as the service computed it:
    neither is read again. The page the form was on shows the rounds before this one (its
    version's): only the new round's row and the totals are sent for its table, unless it
    had none ("No rounds yet.")."""
    if request.htmx:
        return _render_game(
            request, game, board=board, saved=number, history_kept=len(board.rounds) > 1
        )
    return redirect(f"{game.get_absolute_url()}?saved={number}#round-summary")


def _render_game(
    request: AuthenticatedHtmxHttpRequest,
    game: Game,
    *,
    board: Scoreboard | None = None,
    form: NightRoundForm | None = None,
    tiebreak_form: NightTiebreakForm | None = None,
    co_scorer_form: NightCoScorerForm | None = None,
    notice: str = "",
    level: str = "",
    full_page: bool = False,
    confirming: dict[str, object] | None = None,
    saved: int = 0,
    history_kept: bool = False,
    awaiting: bool = False,
) -> HttpResponse:
    if notice and level == "error":
        # A refused change: show what the game looks like now, with fresh forms.
        game.refresh_from_db()
        board = None
    board = board or _scoreboard(game)
    can_edit = getattr(game, "can_edit", False)
    context = page.game_context(
        game,
        board,
        can_edit=can_edit,
        form=form,
        tiebreak=tiebreak_form,
        notice=notice,
        level=level,
        saved=saved,
        confirming=confirming,
        # A finished night shows its rating changes, kept per `ratings_version` (page.py).
        with_ratings=game.status == Game.Status.FINISHED,
        history_kept=history_kept,
    )
    html = page.game_html(request, context)
    if request.htmx and not full_page:
        return HttpResponse(html)
    share_url = request.build_absolute_uri(reverse("games:night_share", args=[game.share_token]))
    context.update(
        share_url=share_url,
        # Called only when detail.html draws the share panel anew (kept per version).
        qr=partial(qr_svg, share_url, title=_("QR code of the live scoreboard link")),
        # Read only when detail.html draws the share panel anew (it is cached per version).
        co_scorers=game.co_scorers.all() if can_edit else [],
        co_scorer_form=co_scorer_form or NightCoScorerForm(initial={"version": game.version}),
        game_html=html,
        awaiting=awaiting,
    )
    return render(request, DETAIL, context)
