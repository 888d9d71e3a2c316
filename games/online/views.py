"""Pages of online play: my games, a new game, the lobby, and the board with its moves,
hint, sort, resignation, rematch and email mute. (Taking a seat one was offered — the
invite link, an invitation by username — is `invitation_views`.)

Access: every page of a game goes through `_get_online_game_for_player` (a page that
only shows the game, through `access.seating_to_show`), which answers 404 to anyone
without a seat, so a game's existence doesn't leak. Reading a posted move
is `actions.read_action`; what the board shows is `board.board_html`.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.http import AuthenticatedHtmxHttpRequest, HtmxHttpRequest, is_authenticated
from phase10site import jinja

from .. import context_processors
from ..clubs import membership
from ..clubs.forms import add_club_field, club_of, starting_club
from ..errors import Refused, Stale
from ..models import Game
from ..scoring import save_seat_setting
from . import lobby, services
from .access import game_version_for, get_seating_for_user, seating_to_show
from .actions import BadInput, Choice, int_field, read_action
from .board import SORT_KEY, Seating, board_html, focus_after, hint_context
from .forms import InviteForm, OnlineGameForm, StartForm
from .my_games import my_games

GAME = "games/online/game.html"
HINT = "games/online/hint.html"  # Jinja2, like the board it is part of
LOBBY = "games/online/lobby.html"


# --- access -------------------------------------------------------------------------------


def _get_online_game_for_player(request: AuthenticatedHtmxHttpRequest, public_id: str) -> Seating:
    """The online game `public_id` with the user's seat, or 404 for anyone not seated."""
    return get_seating_for_user(request.user, public_id)


# --- My games and creating ------------------------------------------------------------------


@login_required
@require_GET
def online_list(request: AuthenticatedHtmxHttpRequest) -> HttpResponse:
    """Your turns (least time left, else longest waiting, first), the others, finished.
    Two queries for the lists (my_games.py; more only to draw them anew), one for the
    invitations when there are none (three when there are)."""
    games = my_games(request.user)
    invitations = lobby.invitations_for(request.user)
    context = {"invitations": invitations, "lists": games}
    return render(
        request,
        "games/online/list.html",
        context | context_processors.counted(request.user, games.your_turn_count),
    )


@login_required
@require_http_methods(["GET", "POST"])
def online_create(request: AuthenticatedHtmxHttpRequest) -> HttpResponse:
    form = OnlineGameForm(request.POST or None)
    clubs = membership.clubs_of(request.user)
    start = None if form.is_bound else starting_club(request.user, clubs, request.GET.get("club"))
    add_club_field(form, clubs, start)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = lobby.create_game(
                request.user,
                name=data["name"],
                seats=data["seats"],
                rules=data["rules"],
                time_limit=data["time_limit"],
                bots=data["bots"],
                invite=data["invite"],
                rated=data["rated"],
                club=club_of(form),
            )
        except Refused as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Game created. Invite your friends, then start it."))
            return redirect(game)
    return render(request, "games/online/new.html", {"form": form})


# --- the lobby --------------------------------------------------------------------------------


def _lobby_context(
    request: AuthenticatedHtmxHttpRequest, seating: Seating, **extra: Any
) -> dict[str, Any]:
    game = seating.game
    size = lobby.lobby_size(game)
    by_position = {seat.position: seat for seat in seating.seats}
    is_creator = game.creator_id == request.user.pk
    return {
        "game": game,
        "me": seating.me,
        "is_creator": is_creator,
        # Who was invited is the creator's to see (and withdraw), not everyone's.
        "invitations": list(game.invitations.select_related("user")) if is_creator else [],
        "slots": [(position, by_position.get(position)) for position in range(size)],
        "filled": len(seating.seats),
        "invite_url": request.build_absolute_uri(
            reverse("games:online_join", args=[game.invite_token])
        ),
        "invite_form": extra.pop("invite_form", None) or InviteForm(),
        "start_form": StartForm(),
        "poll_url": reverse("games:online_poll", args=[game.public_id]),
        **extra,
    }


def _lobby_response(
    request: AuthenticatedHtmxHttpRequest, seating: Seating, *, error: str = "", **extra: Any
) -> HttpResponse:
    if request.htmx:
        context = _lobby_context(request, seating, error=error, **extra)
        return render(request, f"{LOBBY}#lobby", context)
    if error:
        return render(request, LOBBY, _lobby_context(request, seating, error=error, **extra))
    return redirect(seating.game)


def _lobby_action(
    request: AuthenticatedHtmxHttpRequest,
    public_id: str,
    change: Any,
    seating: Seating | None = None,
    **extra: Any,
) -> HttpResponse:
    """Apply `change(seating)` to a lobby and answer with the fresh lobby (or the error,
    shown with `extra`, e.g. the invite form as typed)."""
    seating = seating or _get_online_game_for_player(request, public_id)
    try:
        change(seating)
    except Refused as error:
        if error.code == "started":
            return _redirect_or_refresh(request, seating.game)
        return _lobby_response(request, seating, error=error.message, **extra)
    return _lobby_response(request, _get_online_game_for_player(request, public_id))


def _redirect_or_refresh(request: AuthenticatedHtmxHttpRequest, to: Any) -> HttpResponse:
    """Go to `to` (a game or a URL): a redirect, or under htmx a full-page load."""
    if request.htmx:
        response = HttpResponse(status=200)
        response["HX-Redirect"] = resolve_url(to)
        return response
    return redirect(to)


@login_required
@require_POST
def online_invite(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    seating = _get_online_game_for_player(request, public_id)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _lobby_response(request, seating, error=_("Type a username."), invite_form=form)
    username = form.cleaned_data["username"]
    return _lobby_action(
        request,
        public_id,
        lambda t: lobby.invite_user(t.game, request.user, username),
        seating,
        invite_form=form,
    )


@login_required
@require_POST
def online_withdraw_invitation(
    request: AuthenticatedHtmxHttpRequest, public_id: str, invitation_id: int
) -> HttpResponse:
    return _lobby_action(
        request,
        public_id,
        lambda t: lobby.withdraw_invitation(t.game, request.user, invitation_id),
    )


@login_required
@require_POST
def online_add_bot(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    return _lobby_action(request, public_id, lambda t: lobby.add_bot(t.game, request.user))


@login_required
@require_POST
def online_remove_seat(
    request: AuthenticatedHtmxHttpRequest, public_id: str, position: int
) -> HttpResponse:
    return _lobby_action(
        request, public_id, lambda t: lobby.remove_seat(t.game, request.user, position)
    )


@login_required
@require_POST
def online_revoke_link(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    return _lobby_action(request, public_id, lambda t: lobby.revoke_link(t.game, request.user))


@login_required
@require_POST
def online_leave(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    seating = _get_online_game_for_player(request, public_id)
    try:
        lobby.leave(seating.game, request.user)
    except Refused as error:
        return _lobby_response(request, seating, error=error.message)
    if seating.game.creator_id == request.user.pk:
        messages.info(request, _("The game was cancelled."))
    else:
        messages.info(request, _("You left the game."))
    return _redirect_or_refresh(request, "games:online_list")


@login_required
@require_POST
def online_start(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    seating = _get_online_game_for_player(request, public_id)
    form = StartForm(request.POST)
    fill = form.is_valid() and form.cleaned_data["fill_with_bots"]
    try:
        lobby.start_game(seating.game, request.user, fill_with_bots=fill)
    except Refused as error:
        if error.code == "started":
            return _redirect_or_refresh(request, seating.game)
        return _lobby_response(request, seating, error=error.message)
    return _redirect_or_refresh(request, seating.game)


# --- the seating ----------------------------------------------------------------------------------


@login_required
@require_GET
def online_detail(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    seating = seating_to_show(request.user, public_id)
    if seating.game.status == Game.Status.LOBBY:
        return render(request, LOBBY, _lobby_context(request, seating))
    services.queue_stalled_bot(seating.game, seating.seats)
    hint = hint_context(seating) if request.GET.get("hint") else None
    return _game_page(request, seating, hint=hint)


def _session_user_id(request: HttpRequest) -> str | None:
    # The poll reads the user id from the session instead of loading the user, so an
    # unchanged poll costs the session and one small query (see online_poll).
    try:
        return request.session.get(SESSION_KEY)
    except Exception:  # pragma: no cover - a broken session store: treat as logged out
        return None


@never_cache
@require_GET
def online_poll(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The seating (or lobby) asks every few seconds with the version it shows.

    Unchanged: 204, no template, no user row — the session and one query. Changed: the
    fresh partial, built through the full login check."""
    user_id = _session_user_id(request)
    if user_id is None:
        return redirect_to_login(request.get_full_path())
    row = game_version_for(user_id, public_id)
    if row is None:
        raise Http404
    version, status = row
    if request.GET.get("v") == str(version):
        return HttpResponse(status=204)
    if not is_authenticated(request):
        return redirect_to_login(request.get_full_path())
    seating = seating_to_show(request.user, public_id)
    if request.GET.get("in") == "lobby":
        if status != Game.Status.LOBBY:
            return _redirect_or_refresh(request, seating.game)
        return render(request, f"{LOBBY}#lobby", _lobby_context(request, seating))
    if status == Game.Status.LOBBY:
        return _redirect_or_refresh(request, seating.game)
    return HttpResponse(board_html(request, seating))


@login_required
@require_GET
def online_hint(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    seating = seating_to_show(request.user, public_id)
    if seating.game.status == Game.Status.LOBBY:
        return redirect(seating.game)
    hint = hint_context(seating)
    if request.htmx:
        return HttpResponse(jinja.render(HINT, {"hint": hint}, request))
    return _game_page(request, seating, hint=hint)


@login_required
@require_POST
def online_sort(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    seating = _get_online_game_for_player(request, public_id)
    order = request.POST.get("sort")
    if order in ("colour", "number"):
        request.session[SORT_KEY] = order
    return _board_response(request, seating)


@login_required
@require_POST
def online_resign(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    seating = _get_online_game_for_player(request, public_id)
    try:
        services.resign(seating.game, request.user)
    except Refused as error:
        return _board_response(request, seating, error=error.message)
    notice = _("You resigned. A bot plays your seat from now on.")
    seating = _get_online_game_for_player(request, public_id)
    if request.htmx:  # the board has no messages list: the notice goes in the board
        return _board_response(request, seating, notice=notice, focus="notice")
    messages.info(request, notice)
    return _board_response(request, seating)


@login_required
@require_POST
def online_rematch(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    """The finished board's "Next game": to the next game's lobby, set up by the first
    tap (a double tap, or the other players' taps, go to the same one)."""
    seating = _get_online_game_for_player(request, public_id)
    try:
        new = lobby.rematch(seating.game, request.user)
    except Refused as error:
        return _board_response(request, seating, error=error.message)
    if new.creator_id == request.user.pk:
        messages.success(
            request, _("Rematch set up and the others invited: start it when everyone is in.")
        )
    else:
        messages.success(request, _("You joined the game."))
    return _redirect_or_refresh(request, new)


@login_required
@require_POST
def online_act(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    """Every move on the board posts here: `move` (the move number the page showed),
    `do` (draw, take, lay, hit, discard) and the cards or targets it needs."""
    seating = _get_online_game_for_player(request, public_id)
    game = seating.game
    expected = int_field(request.POST.get("move"))
    if game.status != Game.Status.ACTIVE or expected != game.move_number:
        return _board_response(request, seating, error=_moved_on(game))
    if seating.me.is_bot:
        return _board_response(request, seating, error=_("A bot plays your seat now."))
    state = services.load_state(game)
    if state.current_seat != seating.me.position:
        return _board_response(request, seating, error=_("It isn't your turn."))
    try:
        action = read_action(request.POST, state, seating.me.position)
    except BadInput as error:
        return _board_response(request, seating, error=str(error))
    if isinstance(action, Choice):
        return _board_response(request, seating, choice=action, focus="choice")
    before = (game.rounds_played, game.status)
    try:
        saved = services.perform(
            game, seating.me.position, action, expected_move=expected, seats=seating.seats
        )
    except Stale as error:
        return _board_response(
            request, _get_online_game_for_player(request, public_id), error=error.message
        )
    except Refused as error:
        return _board_response(request, seating, error=error.message)
    if not request.htmx:
        return redirect(saved)
    focus = focus_after(action)
    if (saved.rounds_played, saved.status) != before:
        # A round ended: the seats' totals and ranks changed with it.
        seating = _get_online_game_for_player(request, public_id)
        return _board_response(request, seating, focus="status")
    if saved.version != game.version + 1:
        # Someone else's change came first (a resignation, say): the move was played on
        # the game read again, and the seats are shown as they are now.
        seating = _get_online_game_for_player(request, public_id)
        return _board_response(request, seating, focus=focus)
    return _board_response(request, Seating(saved, seating.seats, seating.me), focus=focus)


@login_required
@require_POST
def online_mute(request: AuthenticatedHtmxHttpRequest, public_id: str) -> HttpResponse:
    """Mute (or unmute) this game's emails for the player; back to the game page."""
    seating = _get_online_game_for_player(request, public_id)
    seat = seating.me
    seat.muted = request.POST.get("muted", "on" if not seat.muted else "") == "on"
    save_seat_setting(seat, "muted")
    messages.success(
        request,
        _("You won't get emails about this game.")
        if seat.muted
        else _("You will get emails about this game again."),
    )
    return redirect(seating.game)


def _moved_on(game: Game) -> str:
    if game.status == Game.Status.FINISHED:
        return _("The game is over.")
    return services.moved_on_message()


def _board_response(
    request: AuthenticatedHtmxHttpRequest,
    seating: Seating,
    *,
    error: str = "",
    notice: str = "",
    choice: Choice | None = None,
    focus: str = "",
) -> HttpResponse:
    """The board after the player's request: under htmx the board alone, telling where
    focus goes next (`board.FOCUS_PLACES`; empty: it stays on the control used)."""
    if seating.game.status == Game.Status.LOBBY:
        return redirect(seating.game)
    if request.htmx:
        html = board_html(request, seating, focus=focus, error=error, notice=notice, choice=choice)
        return HttpResponse(html)
    if error or choice:
        return _game_page(request, seating, error=error, choice=choice)
    return redirect(seating.game)


def _game_page(
    request: AuthenticatedHtmxHttpRequest, seating: Seating, **extra: Any
) -> HttpResponse:
    """The whole page around the board (header, menu, messages)."""
    return render(
        request, GAME, {"game": seating.game, "board_html": board_html(request, seating, **extra)}
    )
