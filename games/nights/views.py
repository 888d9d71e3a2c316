"""Score tracker pages: game nights at a real table.

Private pages (/nights/…) are for the scorer, co-scorers and seated members; everyone
else gets 404, so a game's existence doesn't leak. The pages behind the share link
(/s/<token>/: the live scoreboard and its TV view) are in share_views.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.cache.utils import make_template_fragment_key
from django.core.paginator import Paginator
from django.db.models import (
    Case,
    Exists,
    F,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Value,
    When,
    prefetch_related_objects,
)
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.http import AuthenticatedHtmxHttpRequest, AuthenticatedHttpRequest
from accounts.models import RatingMark

from ..errors import Refused, Stale
from ..models import Game, Seat
from . import seating, services
from .corrections import Correction
from .forms import (
    NightCoScorerForm,
    NightRoundForm,
    NightTiebreakForm,
    NightUndoForm,
    NightVersionForm,
)
from .qr import qr_svg
from .scoreboard import Scoreboard, load_scoreboard

if TYPE_CHECKING:
    from django.contrib.auth.models import User

DETAIL = "games/nights/detail.html"
CORRECTION = "games/nights/correction.html"
GAMES_PER_PAGE = 20
# A version's scoreboard and its drawing (the templates' {% cache %} blocks) are the same
# for every viewer: every change bumps the version. A renamed player or a claimed guest
# shows in a night that no longer changes once this has passed.
SCOREBOARD_SECONDS = 600


# --- access -------------------------------------------------------------------------------


def _nights_of(user) -> QuerySet[Game]:  # type: ignore[no-untyped-def]
    co_scoring = Game.co_scorers.through.objects.filter(game=OuterRef("pk"), user=user)
    seated = Seat.objects.filter(game=OuterRef("pk"), player__user=user)
    return (
        Game.objects.filter(mode=Game.Mode.TABLE)
        # awaiting: a seat in it waits for the user's answer (nights/seating.py).
        .annotate(
            co_scoring=Exists(co_scoring),
            seated=Exists(seated),
            awaiting=seating.awaits_answer(user),
        )
        .select_related("creator")
    )


def _night_ids_of(user: User) -> QuerySet[Any, Any]:
    """The ids of the games `user` created, co-scores or sits in, as one UNION.

    The list filters on this rather than on creator OR co-scorer OR seated: an OR
    across three tables makes PostgreSQL read every game (bench/README.md has the
    plans); each branch of the UNION is an index lookup of its own."""
    created = Game.objects.filter(creator=user).values("pk")
    co_scored = Game.co_scorers.through.objects.filter(user=user).values("game_id")
    seated = Seat.objects.filter(player__user=user).values("game_id")
    return created.union(co_scored, seated)


# A night's page is the page scorers open most: its game, with the ratings' revision (a
# finished night's ratings section is drawn once per version and revision), is one
# hand-written query, as the ORM spends three times longer compiling it than the
# database running it (bench/README.md).
_NIGHT_SQL = (
    f"SELECT g.*, (SELECT m.revision FROM {RatingMark._meta.db_table} m WHERE m.id = 1)"
    f" AS mark_revision FROM {Game._meta.db_table} g WHERE g.public_id = %s AND g.mode = %s"
)


def _get_night_for_viewer(request: AuthenticatedHtmxHttpRequest, public_id: str) -> Game:
    """A game the user may look at (scorer, co-scorer or seated member), else 404.

    Its scorer (the one who looks most) costs a plain lookup by public id; anyone else
    the query that also asks whether they co-score or sit at the table. The ratings'
    revision (for a finished night's page) comes with the game: one query, not two."""
    found = list(Game.objects.raw(_NIGHT_SQL, [public_id, Game.Mode.TABLE.value]))
    revision = getattr(found[0], "mark_revision", None) if found else None
    if found and found[0].creator_id == request.user.pk:
        plain: Game = found[0]
        plain.creator = request.user
        plain.can_edit = True
        plain.ratings_revision = revision
        # No `awaiting` annotation needed: the host's own seat never waits for an answer.
        return plain
    games = _nights_of(request.user).filter(
        Q(creator=request.user) | Q(co_scoring=True) | Q(seated=True)
    )
    game = get_object_or_404(games, public_id=public_id)
    game.ratings_revision = revision
    # co_scoring: annotated by _nights_of (a queryset annotation django-stubs loses here).
    game.can_edit = game.creator_id == request.user.pk or bool(getattr(game, "co_scoring", False))
    return game


def _get_night_for_scorer(request: AuthenticatedHtmxHttpRequest, public_id: str) -> Game:
    """A game the user may change (scorer or co-scorer), else 404 — viewers included."""
    games = _nights_of(request.user).filter(Q(creator=request.user) | Q(co_scoring=True))
    game = get_object_or_404(games, public_id=public_id)
    game.can_edit = True
    return game


def _scoreboard(game: Game) -> Scoreboard:
    """`game`'s scoreboard at its version, read from the rounds once per version."""
    # public_id: never reused, unlike a primary key after a database is recreated.
    key = f"night-scoreboard:{game.public_id}:{game.version}"
    board: Scoreboard | None = cache.get(key)
    if board is None:
        board = load_scoreboard(game)
        cache.set(key, board, SCOREBOARD_SECONDS)
    return board


def _refuse_stale(request: AuthenticatedHtmxHttpRequest, game: Game) -> HttpResponse | None:
    """Every changing form carries the version it was built from; an older one (another
    scorer's change, a double tap, a tab left open) is refused with the current game.
    The services check again under the row lock, for the race between here and there."""
    form = NightVersionForm(request.POST)
    if form.is_valid() and form.cleaned_data["version"] == game.version:
        return None
    return _render_game(request, game, notice=services.stale_message(), level="error")


# --- pages ----------------------------------------------------------------------------------


@login_required
@require_GET
def night_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    # Only what the cards ask (co_scoring: the rematch form; awaiting: the seat's answer),
    # not whether the user sits there: each annotation is a subquery per night.
    co_scoring = Game.co_scorers.through.objects.filter(game=OuterRef("pk"), user=request.user)
    games = (
        Game.objects.filter(mode=Game.Mode.TABLE, pk__in=_night_ids_of(request.user))
        .annotate(co_scoring=Exists(co_scoring), awaiting=seating.awaits_answer(request.user))
        .select_related("creator")
        # A seat waiting for the user's answer comes first (list.html asks it).
        .order_by(
            F("awaiting").desc(),
            Case(When(status=Game.Status.ACTIVE, then=Value(0)), default=Value(1)),
            "-updated_at",
        )
    )
    page = Paginator(games, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    # Each night's card is drawn once per version, language and time zone (list.html
    # caches it under its key); only the nights whose card isn't cached need their
    # seats and players.
    suffix = f"{get_language()}:{timezone.get_current_timezone_name()}"
    cards = [(f"{game.public_id}:{game.version}:{suffix}", game) for game in page]
    drawn = cache.get_many([_card_cache_key(key) for key, _game in cards])
    prefetch_related_objects(
        [game for key, game in cards if _card_cache_key(key) not in drawn],
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
    )
    return render(request, "games/nights/list.html", {"page": page, "cards": cards})


def _card_cache_key(card_key: str) -> str:
    """Where list.html's {% cache 600 night_card card_key %} keeps a card."""
    return make_template_fragment_key("night_card", [card_key])


@login_required
@require_GET
def night_detail(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    game = _get_night_for_viewer(request, public_id)
    # ?saved=<n>: where a plain (no JavaScript) round save lands, its summary on top.
    saved = request.GET.get("saved", "")
    number = int(saved) if saved.isdigit() and game.can_edit else 0
    return _render_game(request, game, saved=number if number == game.rounds_played else 0)


@login_required
@require_POST
def night_add_round(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    game = _get_night_for_scorer(request, public_id)
    if stale := _refuse_stale(request, game):
        return stale
    board = _scoreboard(game)
    form = NightRoundForm(board, request.POST)
    if form.is_valid():
        try:
            changed = services.add_round(game, form.entry, version=form.cleaned_data["version"])
        except Refused as error:
            if isinstance(error, Stale) or error.field is None:
                # Not about one of the typed values (game over, tie-breaker due, stale).
                return _render_game(request, game, notice=error.message, level="error")
            form.add_error(error.field, error.message)
        else:
            changed.can_edit = True
            return _saved(request, changed, form.number)
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
    context = {"game": game, "board": board, "form": form}
    if request.htmx and request.method == "GET":
        return render(request, "games/nights/round.html#round_form", context)
    if request.htmx:
        return _render_game(request, game, board=board, form=form)
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
            messages.success(request, _("%(name)s can now keep score too.") % {"name": name})
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
    url = request.path
    confirming = {"correction": correction, "correction_url": url, "carried": values or []}
    if request.htmx:
        return _render_game(request, game, board=correction.before, confirming=confirming)
    return render(request, CORRECTION, {"game": game, **confirming})


def _changed(request: AuthenticatedHtmxHttpRequest, game: Game, notice: str) -> HttpResponse:
    """After a change: HTMX gets the fresh game inline, a plain form post a redirect."""
    if request.htmx:
        game.refresh_from_db()
        return _render_game(request, game, notice=notice, level="success")
    messages.success(request, notice)
    return redirect(game)


def _saved(request: AuthenticatedHtmxHttpRequest, game: Game, number: int) -> HttpResponse:
    """After a new round: the fresh game with the round's summary on top (the standings,
    who deals and who plays first); a plain form post is sent to that summary. `game` is
    the row as the service saved it under its lock, not read again."""
    if request.htmx:
        return _render_game(request, game, saved=number)
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
) -> HttpResponse:
    if notice and level == "error":
        # A refused change: show what the game looks like now, with fresh forms.
        game.refresh_from_db()
        board = None
    board = board or _scoreboard(game)
    can_edit = getattr(game, "can_edit", False)
    context = {
        "game": game,
        "board": board,
        "can_edit": can_edit,
        "notice": notice,
        "level": level,
        "saved": saved,
        **(confirming or {}),
    }
    if can_edit:
        # Only the forms the page shows: none to enter a round once the rounds are over.
        context.update(
            form=form or (None if board.rounds_over else NightRoundForm(board)),
            tiebreak_form=tiebreak_form
            or (NightTiebreakForm(board) if board.tiebreak_needed else None),
        )
    if game.status == Game.Status.FINISHED:
        # The ratings' section is drawn once per version and ratings run (detail.html);
        # before the first run, the mark's row may not exist yet: revision 0.
        # (_get_night_for_viewer reads it with the game; after a change it is read here.)
        if hasattr(game, "ratings_revision"):  # None: the mark's row isn't there yet
            revision = game.ratings_revision
        else:
            revision = RatingMark.objects.filter(pk=1).values_list("revision", flat=True).first()
        context["ratings_revision"] = revision or 0
    if request.htmx and not full_page:
        return render(request, f"{DETAIL}#game", context)
    share_url = request.build_absolute_uri(reverse("games:night_share", args=[game.share_token]))
    context.update(
        share_url=share_url,
        qr=qr_svg(share_url, title=_("QR code of the live scoreboard link")),
        # Read only when detail.html draws the share panel anew (it is cached per version).
        co_scorers=game.co_scorers.all() if can_edit else [],
        co_scorer_form=co_scorer_form or NightCoScorerForm(initial={"version": game.version}),
    )
    return render(request, DETAIL, context)
