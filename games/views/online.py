"""Online play pages: "My games", creating a game, the lobby and the table.

Every page of a game is for its seated players only; everyone else gets 404, so a
game's existence doesn't leak. The table is built from `engine.player_view` of the
viewer's seat and database rows, never from the snapshot itself: other hands and the
deck order can't reach a template.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.contrib import messages
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.urls import get_script_prefix, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from .. import engine, services
from ..engine import Card, Discard, Draw, Hit, LayDown, phase_shortfall
from ..models import Game, Seat
from ..online_forms import (
    BadInput,
    InviteForm,
    OnlineGameForm,
    StartForm,
    cards_from,
    groups_from,
    int_field,
    lay_down_choices,
)
from ..phase_words import phase_goal_words

TABLE = "games/online_table.html"
LOBBY = "games/online_lobby.html"
FINISHED_SHOWN = 20
SORT_KEY = "online_hand_sort"


# --- access -------------------------------------------------------------------------------


def _online_games_of(user: Any) -> QuerySet[Game]:
    seated = Seat.objects.filter(game=OuterRef("pk"), player__user=user)
    return Game.objects.filter(mode=Game.Mode.ONLINE).filter(Exists(seated))


@dataclass
class Table:
    """A game as one seated user sees it."""

    game: Game
    seats: list[Seat]
    me: Seat


def _get_game_for_user(request: HttpRequest, public_id: str) -> Table:
    """The online game `public_id` with the user's seat, or 404 for anyone not seated."""
    # Two plain queries (the game, its seats) rather than one with a subquery: every
    # page and poll of a game starts here.
    game = get_object_or_404(Game, public_id=public_id, mode=Game.Mode.ONLINE)
    seats = list(Seat.objects.filter(game=game).select_related("player").order_by("position"))
    me = services.seat_for_user(seats, request.user)
    if me is None:
        raise Http404
    return Table(game, seats, me)


# --- My games and creating ------------------------------------------------------------------


@login_required
@require_GET
def online_list(request: HttpRequest) -> HttpResponse:
    """Games where it's your turn (longest waiting first), then the others, then finished."""
    games = _online_games_of(request.user).select_related("current_player")
    current = list(games.exclude(status=Game.Status.FINISHED).prefetch_related("seats__player"))
    finished = list(
        games.filter(status=Game.Status.FINISHED)
        .select_related("winner")
        .prefetch_related("seats__player")
        .order_by("-finished_at")[:FINISHED_SHOWN]
    )
    your_turn, others = [], []
    for game in current:
        me = services.seat_for_user(game.seats.all(), request.user)
        game.my_seat = me
        game.your_turn = (
            game.status == Game.Status.ACTIVE
            and me is not None
            and not me.is_bot
            and game.current_player_id == me.player_id
        )
        (your_turn if game.your_turn else others).append(game)
    your_turn.sort(key=lambda game: game.turn_started_at or game.updated_at)
    others.sort(key=lambda game: game.updated_at, reverse=True)
    for game in finished:
        game.my_seat = services.seat_for_user(game.seats.all(), request.user)
    return render(
        request,
        "games/online_list.html",
        {"your_turn": your_turn, "others": others, "finished": finished},
    )


@login_required
@require_http_methods(["GET", "POST"])
def online_create(request: HttpRequest) -> HttpResponse:
    form = OnlineGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = services.create_game(
                request.user,
                name=data["name"],
                seats=data["seats"],
                rules=data["rules"],
                time_limit=data["time_limit"],
                bots=data["bots"],
                invite=data["invite"],
            )
        except services.OnlineError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Game created. Invite your friends, then start it."))
            return redirect(game)
    return render(request, "games/online_new.html", {"form": form})


# --- the lobby --------------------------------------------------------------------------------


def _lobby_context(request: HttpRequest, table: Table, **extra: Any) -> dict[str, Any]:
    game = table.game
    size = services.lobby_size(game)
    by_position = {seat.position: seat for seat in table.seats}
    return {
        "game": game,
        "me": table.me,
        "is_creator": game.creator_id == request.user.pk,
        "slots": [(position, by_position.get(position)) for position in range(size)],
        "filled": len(table.seats),
        "invite_url": request.build_absolute_uri(
            reverse("games:online_join", args=[game.invite_token])
        ),
        "invite_form": extra.pop("invite_form", None) or InviteForm(),
        "start_form": StartForm(),
        "poll_url": reverse("games:online_poll", args=[game.public_id]),
        **extra,
    }


def _lobby_response(
    request: HttpRequest, table: Table, *, error: str = "", **extra: Any
) -> HttpResponse:
    if request.htmx:
        context = _lobby_context(request, table, error=error, **extra)
        return render(request, f"{LOBBY}#lobby", context)
    if error:
        return render(request, LOBBY, _lobby_context(request, table, error=error, **extra))
    return redirect(table.game)


def _lobby_action(
    request: HttpRequest, public_id: str, change: Any, table: Table | None = None, **extra: Any
) -> HttpResponse:
    """Apply `change(table)` to a lobby and answer with the fresh lobby (or the error,
    shown with `extra`, e.g. the invite form as typed)."""
    table = table or _get_game_for_user(request, public_id)
    try:
        change(table)
    except services.OnlineError as error:
        if error.code == "started":
            return _redirect_or_refresh(request, table.game)
        return _lobby_response(request, table, error=error.message, **extra)
    return _lobby_response(request, _get_game_for_user(request, public_id))


def _redirect_or_refresh(request: HttpRequest, to: Any) -> HttpResponse:
    """Go to `to` (a game or a URL): a redirect, or under htmx a full-page load."""
    if request.htmx:
        response = HttpResponse(status=200)
        response["HX-Redirect"] = resolve_url(to)
        return response
    return redirect(to)


@login_required
@require_POST
def online_invite(request: HttpRequest, public_id: str) -> HttpResponse:
    table = _get_game_for_user(request, public_id)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _lobby_response(request, table, error=_("Type a username."), invite_form=form)
    username = form.cleaned_data["username"]
    return _lobby_action(
        request,
        public_id,
        lambda t: services.invite_user(t.game, request.user, username),
        table,
        invite_form=form,
    )


@login_required
@require_POST
def online_add_bot(request: HttpRequest, public_id: str) -> HttpResponse:
    return _lobby_action(request, public_id, lambda t: services.add_bot(t.game, request.user))


@login_required
@require_POST
def online_remove_seat(request: HttpRequest, public_id: str, position: int) -> HttpResponse:
    return _lobby_action(
        request, public_id, lambda t: services.remove_seat(t.game, request.user, position)
    )


@login_required
@require_POST
def online_revoke_link(request: HttpRequest, public_id: str) -> HttpResponse:
    return _lobby_action(request, public_id, lambda t: services.revoke_link(t.game, request.user))


@login_required
@require_POST
def online_leave(request: HttpRequest, public_id: str) -> HttpResponse:
    table = _get_game_for_user(request, public_id)
    try:
        services.leave(table.game, request.user)
    except services.OnlineError as error:
        return _lobby_response(request, table, error=error.message)
    if table.game.creator_id == request.user.pk:
        messages.info(request, _("The game was cancelled."))
    else:
        messages.info(request, _("You left the game."))
    return _redirect_or_refresh(request, "games:online_list")


@login_required
@require_POST
def online_start(request: HttpRequest, public_id: str) -> HttpResponse:
    table = _get_game_for_user(request, public_id)
    form = StartForm(request.POST)
    fill = form.is_valid() and form.cleaned_data["fill_with_bots"]
    try:
        services.start_game(table.game, request.user, fill_with_bots=fill)
    except services.OnlineError as error:
        if error.code == "started":
            return _redirect_or_refresh(request, table.game)
        return _lobby_response(request, table, error=error.message)
    return _redirect_or_refresh(request, table.game)


@login_required
@require_http_methods(["GET", "POST"])
def online_join(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: who is in, and a button to take a seat."""
    game = get_object_or_404(Game, mode=Game.Mode.ONLINE, invite_token=token)
    seats = list(game.seats.select_related("player").order_by("position"))
    if services.seat_for_user(seats, request.user) is not None:
        return redirect(game)
    if game.status != Game.Status.LOBBY:
        raise Http404
    error = ""
    if request.method == "POST":
        try:
            services.join(game, request.user, token)
        except services.OnlineError as refused:
            error = refused.message
        else:
            messages.success(request, _("You joined the game."))
            return redirect(game)
    return render(
        request,
        "games/online_join.html",
        {
            "game": game,
            "seats": seats,
            "free": services.lobby_size(game) - len(seats),
            "error": error,
        },
    )


# --- the table ----------------------------------------------------------------------------------


@login_required
@require_GET
def online_detail(request: HttpRequest, public_id: str) -> HttpResponse:
    table = _get_game_for_user(request, public_id)
    if table.game.status == Game.Status.LOBBY:
        return render(request, LOBBY, _lobby_context(request, table))
    services.queue_stalled_bot(table.game, table.seats)
    hint = _hint(request, table) if request.GET.get("hint") else None
    return render(request, TABLE, _table_context(request, table, hint=hint))


def _session_user_id(request: HttpRequest) -> str | None:
    # The poll reads the user id from the session instead of loading the user, so an
    # unchanged poll costs the session and one small query (see online_poll).
    try:
        return request.session.get(SESSION_KEY)
    except Exception:  # pragma: no cover - a broken session store: treat as logged out
        return None


@never_cache
@require_GET
def online_poll(request: HttpRequest, public_id: str) -> HttpResponse:
    """The table (or lobby) asks every few seconds with the version it shows.

    Unchanged: 204, no template, no user row — the session and one query. Changed: the
    fresh partial, built through the full login check."""
    user_id = _session_user_id(request)
    if user_id is None:
        return redirect_to_login(request.get_full_path())
    row = (
        Game.objects.filter(
            public_id=public_id, mode=Game.Mode.ONLINE, seats__player__user_id=user_id
        )
        .values_list("version", "status")
        .first()
    )
    if row is None:
        raise Http404
    version, status = row
    if request.GET.get("v") == str(version):
        return HttpResponse(status=204)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    table = _get_game_for_user(request, public_id)
    if request.GET.get("in") == "lobby":
        if status != Game.Status.LOBBY:
            return _redirect_or_refresh(request, table.game)
        return render(request, f"{LOBBY}#lobby", _lobby_context(request, table))
    if status == Game.Status.LOBBY:
        return _redirect_or_refresh(request, table.game)
    return render(request, f"{TABLE}#board", _table_context(request, table))


@login_required
@require_GET
def online_hint(request: HttpRequest, public_id: str) -> HttpResponse:
    table = _get_game_for_user(request, public_id)
    if table.game.status == Game.Status.LOBBY:
        return redirect(table.game)
    hint = _hint(request, table)
    if request.htmx:
        return render(request, f"{TABLE}#hint", {"hint": hint})
    return render(request, TABLE, _table_context(request, table, hint=hint))


@login_required
@require_POST
def online_sort(request: HttpRequest, public_id: str) -> HttpResponse:
    table = _get_game_for_user(request, public_id)
    order = request.POST.get("sort")
    if order in ("colour", "number"):
        request.session[SORT_KEY] = order
    return _board_response(request, table)


@login_required
@require_POST
def online_resign(request: HttpRequest, public_id: str) -> HttpResponse:
    table = _get_game_for_user(request, public_id)
    try:
        services.resign(table.game, request.user)
    except services.OnlineError as error:
        return _board_response(request, table, error=error.message)
    notice = _("You resigned. A bot plays your seat from now on.")
    table = _get_game_for_user(request, public_id)
    if request.htmx:  # the board has no messages list: the notice goes in the board
        return _board_response(request, table, notice=notice)
    messages.info(request, notice)
    return _board_response(request, table)


@login_required
@require_POST
def online_rematch(request: HttpRequest, public_id: str) -> HttpResponse:
    table = _get_game_for_user(request, public_id)
    try:
        new = services.rematch(
            table.game, request.user, version=int_field(request.POST.get("version")) or 0
        )
    except services.StaleMove:
        return _board_response(
            request, table, error=_("A rematch was already set up: see My games.")
        )
    except services.OnlineError as error:
        return _board_response(request, table, error=error.message)
    messages.success(request, _("Rematch set up: start it when everyone is in."))
    return _redirect_or_refresh(request, new)


@login_required
@require_POST
def online_act(request: HttpRequest, public_id: str) -> HttpResponse:
    """Every move of the table posts here: `move` (the move number the page showed),
    `do` (draw, take, lay, hit, discard) and the cards or targets it needs."""
    table = _get_game_for_user(request, public_id)
    game = table.game
    expected = int_field(request.POST.get("move"))
    if game.status != Game.Status.ACTIVE or expected != game.move_number:
        return _board_response(request, table, error=_moved_on(game))
    if table.me.is_bot:
        return _board_response(request, table, error=_("A bot plays your seat now."))
    state = services.load_state(game)
    if state.current_seat != table.me.position:
        return _board_response(request, table, error=_("It isn't your turn."))
    try:
        action, choice = _action_from(request, _View(state, table.me.position))
    except BadInput as error:
        return _board_response(request, table, error=str(error))
    if action is None:
        return _board_response(request, table, choice=choice)
    before = (game.rounds_played, game.status)
    try:
        saved = services.perform(
            game, table.me.position, action, expected_move=expected, seats=table.seats
        )
    except services.StaleMove as error:
        return _board_response(request, _get_game_for_user(request, public_id), error=error.message)
    except services.OnlineError as error:
        return _board_response(request, table, error=error.message)
    if not request.htmx:
        return redirect(saved)
    if (saved.rounds_played, saved.status) != before:
        # A round ended: the seats' totals and ranks changed with it.
        return _board_response(request, _get_game_for_user(request, public_id))
    return _board_response(request, Table(saved, table.seats, table.me))


class _View:
    """`player_view` of the acting seat, computed only if the action needs it (a draw
    or a plain discard doesn't)."""

    def __init__(self, state: engine.GameState, seat: int) -> None:
        self.state, self.seat = state, seat
        self._view: dict[str, Any] | None = None

    def __call__(self) -> dict[str, Any]:
        if self._view is None:
            self._view = engine.player_view(self.state, self.seat)
        return self._view


def _moved_on(game: Game) -> str:
    if game.status == Game.Status.FINISHED:
        return _("The game is over.")
    return services.moved_on_message()


def _action_from(request: HttpRequest, view: _View) -> tuple[Any, dict[str, Any] | None]:
    """The engine action a table form asks for, or (None, a choice to put to the player)."""
    post = request.POST
    do = post.get("do")
    if do == "draw":
        return Draw(), None
    if do == "take":
        return Draw(from_discard=True), None
    if do == "lay":
        return _lay_down(post, view())
    if do == "hit":
        return _hit(post, view())
    if do == "discard":
        return _discard(post, view)
    raise BadInput(_("Choose what to do."))


def _one_card(post: Any) -> Card:
    cards = cards_from(post.getlist("cards") or [post.get("card", "")])
    if len(cards) != 1:
        raise BadInput(_("Select exactly one card."))
    return cards[0]


def _phases_to_lay(view: dict[str, Any]) -> list[int]:
    seat = view["seat"]
    phase = view["phase"][seat]
    if phase is not None:
        return [phase]
    rules = engine.Rules.from_dict(view["rules"])
    return [p for p in rules.phases if p not in view["completed"][seat]]


def _lay_down(post: Any, view: dict[str, Any]) -> tuple[Any, dict[str, Any] | None]:
    phase = int_field(post.get("phase"))
    if post.get("groups"):
        return LayDown(groups_from(post["groups"]), phase=phase), None
    cards = cards_from(post.getlist("cards"))
    if not cards:
        raise BadInput(_("Select the cards of your phase first."))
    phases = _phases_to_lay(view)
    if phase is not None:
        phases = [p for p in phases if p == phase]
    rules = engine.Rules.from_dict(view["rules"])
    choices = lay_down_choices(cards, phases, rules)
    if len(choices) == 1:
        return choices[0], None
    if not choices:
        goals = "; ".join(
            _("phase %(number)s: %(goal)s") % {"number": p, "goal": phase_goal_words(p)}
            for p in phases[:3]
        )
        raise BadInput(
            _("Those cards don't make your phase (%(goals)s). Select all the cards to lay down.")
            % {"goals": goals}
        )
    return None, {
        "kind": "lay",
        "options": [
            {
                "phase": option.phase,
                "groups": [[_card(c) for c in group] for group in option.groups],
                "value": "|".join(" ".join(str(c) for c in group) for group in option.groups),
            }
            for option in choices
        ],
    }


def _hit(post: Any, view: dict[str, Any]) -> tuple[Any, dict[str, Any] | None]:
    card = _one_card(post)
    seat, group = int_field(post.get("seat")), int_field(post.get("group"))
    if seat is not None and group is not None:
        end = post.get("end") or None
        if end not in (None, "low", "high"):
            raise BadInput(_("That isn't an end of a run."))
        return Hit(seat, group, card, end), None
    if str(card) not in view["hand"]:
        raise BadInput(_("That card isn't in your hand."))
    options = [hit for hit in view["legal"]["hits"] if hit["card"] == str(card)]
    if not options:
        raise BadInput(_("That card doesn't fit on any group on the table."))
    if len(options) == 1:
        return engine.action_from_dict(options[0]), None
    names = view["players"]
    return None, {
        "kind": "hit",
        "card": _card(card),
        "options": [
            {
                **option,
                "label": _group_label(view, names, option["seat"], option["group"], option["end"]),
            }
            for option in options
        ],
    }


def _discard(post: Any, lazy_view: _View) -> tuple[Any, dict[str, Any] | None]:
    card = _one_card(post)
    skip = int_field(post.get("skip"))
    if skip is not None or not card.is_skip:
        return Discard(card, skip=skip), None
    view = lazy_view()
    targets = {option["skip"] for option in view["legal"]["discards"] if option["card"] == "S"}
    targets.discard(None)
    if not targets:
        return Discard(card), None
    return None, {
        "kind": "skip",
        "card": _card(card),
        "options": [{"seat": seat, "name": view["players"][seat]} for seat in sorted(targets)],
    }


def _hint(request: HttpRequest, table: Table) -> dict[str, Any]:
    """Whether (and how) the phase can be laid from the hand now, by `find_phase`."""
    state = services.load_state(table.game)
    view = engine.player_view(state, table.me.position)
    rules = engine.Rules.from_dict(view["rules"])
    hand = engine.parse_cards(view["hand"])
    if view["laid_phase"][table.me.position] is not None:
        return {"text": _("Your phase is down: hit your cards on groups that take them.")}
    results = []
    for phase in _phases_to_lay(view):
        groups = engine.find_phase(hand, phase, rules)
        if groups is not None:
            results.append(
                {"phase": phase, "groups": [[_card(card) for card in group] for group in groups]}
            )
    if results:
        return {"text": _("You can lay down now:"), "options": results[:3]}
    shortest = min(phase_shortfall(hand, phase, rules) for phase in _phases_to_lay(view) or [10])
    return {"text": _("Not yet: you need at least %(count)s more card(s).") % {"count": shortest}}


# --- rendering ----------------------------------------------------------------------------------


def _board_response(
    request: HttpRequest,
    table: Table,
    *,
    error: str = "",
    notice: str = "",
    choice: dict[str, Any] | None = None,
) -> HttpResponse:
    if table.game.status == Game.Status.LOBBY:
        return redirect(table.game)
    context = _table_context(request, table, error=error, notice=notice, choice=choice)
    if request.htmx:
        return render(request, f"{TABLE}#board", context)
    if error or choice:
        return render(request, TABLE, context)
    return redirect(table.game)


COLOUR_SYMBOLS = {"R": "◆", "B": "●", "G": "▲", "Y": "★"}


def _colour_words() -> dict[str, tuple[str, str]]:
    # (name, initial) — the initial is translated so it matches the colour's name.
    return {
        "R": (_("red"), pgettext("initial of red", "R")),
        "B": (_("blue"), pgettext("initial of blue", "B")),
        "G": (_("green"), pgettext("initial of green", "G")),
        "Y": (_("yellow"), pgettext("initial of yellow", "Y")),
    }


def _card(card: Card | str) -> dict[str, Any]:
    """What a template needs to draw a card: number, colour initial and symbol, and a
    spoken name, so colour is never the only clue. `html` is the drawn card, built once
    per language and card (a table shows dozens of cards on every poll)."""
    code = str(card)
    language = get_language()
    cached = _CARDS.get((language, code))
    if cached is None:
        cached = _CARDS[(language, code)] = _card_parts(Card.parse(code))
    return cached


_CARDS: dict[tuple[str, str], dict[str, Any]] = {}


def _card_parts(card: Card) -> dict[str, Any]:
    code = str(card)
    if card.is_wild:
        parts = {"code": code, "big": "W", "mark": "✦", "colour": "wild", "name": _("Wild")}
    elif card.is_skip:
        parts = {"code": code, "big": "S", "mark": "⊘", "colour": "skip", "name": _("Skip")}
    else:
        name, initial = _colour_words()[card.colour or "R"]
        parts = {
            "code": code,
            "big": str(card.number),
            "mark": f"{initial}{COLOUR_SYMBOLS[card.colour or 'R']}",
            "colour": card.colour,
            "name": _("%(colour)s %(number)s") % {"colour": name, "number": card.number},
        }
    parts["html"] = format_html(
        '<span class="pcard c-{}" title="{}"><span class="pcard-big" aria-hidden="true">{}'
        '</span><span class="pcard-mark" aria-hidden="true">{}</span>'
        '<span class="visually-hidden">{}</span></span>',
        parts["colour"],
        parts["name"],
        parts["big"],
        parts["mark"],
        parts["name"],
    )
    # In the hand: the card as a checkbox to select it.
    parts["pick"] = format_html(
        '<label class="ot-pick"><input type="checkbox" name="cards" value="{}">{}</label>',
        code,
        parts["html"],
    )
    return parts


def card_words(code: str) -> str:
    return str(_card(code)["name"])


def _group_label(
    view: dict[str, Any], names: list[str], seat: int, index: int, end: str | None
) -> str:
    group = view["laid"][seat][index]
    what = _group_words(group)
    owner = _("your") if seat == view["seat"] else _("%(name)s's") % {"name": names[seat]}
    label = _("%(owner)s %(group)s") % {"owner": owner, "group": what}
    if end == "low":
        return _("%(group)s, low end") % {"group": label}
    if end == "high":
        return _("%(group)s, high end") % {"group": label}
    return label


def _group_words(group: dict[str, Any]) -> str:
    if group["kind"] == "set":
        if group["number"] is None:
            return _("set of Wilds")
        return _("set of %(number)ss") % {"number": group["number"]}
    if group["kind"] == "colour":
        if group["colour"] is None:
            return _("colour group of Wilds")
        return _("%(colour)s group") % {"colour": _colour_words()[group["colour"]][0]}
    if group["low"] is None:
        return _("run of Wilds")
    high = group["low"] + len(group["cards"]) - 1
    return _("run %(low)s–%(high)s") % {"low": group["low"], "high": high}


def _sorted_hand(hand: list[str], order: str) -> list[Card]:
    cards = engine.parse_cards(hand)
    if order == "colour":
        colours = "RBGY"
        return sorted(
            cards,
            key=lambda c: (
                colours.index(c.colour) if c.colour else 4 + (c.number is not None),
                c.number or 0,
            ),
        )
    return sorted(cards, key=Card.sort_key)


def _log_lines(moves: list[list[Any]], names: list[str]) -> list[dict[str, Any]]:
    lines = []
    for number, seat, data, automatic in moves:
        notes = data.get("log", {})
        name = names[seat] if seat < len(names) else "?"
        kind = data.get("type")
        if kind == "draw" and data.get("from_discard"):
            text = _("%(name)s took %(card)s from the discard pile") % {
                "name": name,
                "card": card_words(notes["card"]) if notes.get("card") else _("a card"),
            }
        elif kind == "draw":
            text = _("%(name)s drew from the draw pile") % {"name": name}
        elif kind == "lay_down":
            text = _("%(name)s laid down phase %(phase)s") % {
                "name": name,
                "phase": notes.get("phase") or data.get("phase") or "?",
            }
        elif kind == "hit":
            owner = data.get("seat", 0)
            text = _("%(name)s hit %(card)s on %(owner)s's group") % {
                "name": name,
                "card": card_words(data["card"]),
                "owner": names[owner] if owner < len(names) else "?",
            }
        else:
            text = _("%(name)s discarded %(card)s") % {
                "name": name,
                "card": card_words(data["card"]),
            }
            if "skipped" in notes and notes["skipped"] < len(names):
                text = _("%(name)s discarded a Skip: %(skipped)s loses a turn") % {
                    "name": name,
                    "skipped": names[notes["skipped"]],
                }
        if notes.get("went_out"):
            text = _("%(action)s and went out") % {"action": text}
        lines.append(
            {
                "number": number,
                "text": text,
                "automatic": automatic,
                "round_over": notes.get("round_over"),
            }
        )
    return lines


def _table_context(
    request: HttpRequest,
    table: Table,
    *,
    error: str = "",
    notice: str = "",
    choice: dict[str, Any] | None = None,
    hint: dict[str, Any] | None = None,
) -> dict[str, Any]:
    game, seats, me = table.game, table.seats, table.me
    state = services.load_state(game)
    # Everything below reads `view`, never `state`: the view is what this seat may know.
    view = engine.player_view(state, me.position)
    del state
    names = view["players"]
    moves = game.recent_moves  # the last services.RECENT_MOVES, oldest first
    order = request.session.get(SORT_KEY, "number")
    can_act = view["your_turn"] and not me.is_bot
    players = [_player(view, seat, me) for seat in seats]
    current = players[view["current_seat"]] if not view["game_over"] else None
    log = _log_lines(moves, names)
    last_round = _last_round(view, names, log)
    legal = view["legal"]
    return {
        "game": game,
        "me": me,
        "view": view,
        "players": players,
        "current": current,
        "my_phase_goal": phase_goal_words(view["phase"][me.position]),
        "hand": [_card(card) for card in _sorted_hand(view["hand"], order)],
        "sort": order,
        "discard_top": _card(view["discard_top"]) if view["discard_top"] else None,
        "can_act": can_act,
        "can_draw": can_act and legal["draw"],
        "can_take": can_act and legal["take_discard"],
        "can_lay": can_act and bool(legal["lay_down"]),
        "can_hit": can_act and bool(legal["hits"]),
        "can_discard": can_act and bool(legal["discards"]),
        "pick_phases": _phases_to_lay(view) if view["rules"]["pick_a_phase"] else [],
        "log": list(reversed(log)),
        "last_round": last_round,
        "standings": sorted(seats, key=lambda s: (s.rank or 99, s.position))
        if view["game_over"]
        else [],
        "error": error,
        "notice": notice,
        "choice": choice,
        "hint": hint,
        "poll": not view["game_over"],
        "urls": table_urls(game.public_id, get_script_prefix()),
    }


@lru_cache(maxsize=1024)
def table_urls(public_id: str, prefix: str) -> dict[str, str]:
    """The links and form targets of a game's table. The board is drawn on every
    change, by every seat, so they are reversed once per game (and script prefix)."""
    names = ["detail", "poll", "act", "hint", "sort", "resign", "rematch"]
    urls = {name: reverse(f"games:online_{name}", args=[public_id]) for name in names}
    urls["mute"] = reverse("games:notify_mute", args=[public_id])
    return urls


def _player(view: dict[str, Any], seat: Seat, me: Seat) -> dict[str, Any]:
    """One seat around the table: name, tags, facts and laid groups, as text."""
    position = seat.position
    game_over = view["game_over"]
    is_turn = not game_over and position == view["current_seat"]
    classes = ["ot-player"]
    tags = []
    if is_turn:
        classes.append("turn")
    if position == me.position:
        classes.append("me")
        tags.append(("", _("you")))
    if position not in view["playing"]:
        classes.append("out")
    if seat.is_bot:
        tags.append(("bot", _("resigned · bot plays") if seat.resigned else _("bot")))
    if position == view["dealer"] and not game_over:
        tags.append(("deal", _("dealer")))
    if is_turn:
        tags.append(("turn", _("to play")))
    if position in view["skipped"]:
        tags.append(("skip", _("skipped next")))
    facts = []
    phase = view["phase"][position]
    if phase is not None:
        facts.append((_("Phase %(number)s") % {"number": phase}, phase_goal_words(phase)))
    elif view["rules"]["pick_a_phase"]:
        done, total = len(view["completed"][position]), len(view["rules"]["phases"])
        facts.append((_("%(done)s of %(total)s phases") % {"done": done, "total": total}, ""))
    count = view["hand_counts"][position]
    facts.append((ngettext("%(count)s card", "%(count)s cards", count) % {"count": count}, ""))
    facts.append((_("%(score)s points") % {"score": view["scores"][position]}, ""))
    groups = [
        (
            _group_words(group),
            mark_safe("".join(_card(code)["html"] for code in group["cards"])),
        )
        for group in view["laid"][position]
    ]
    # Built here rather than looped over in the template: every seat's board shows
    # every player, on every change.
    return {
        "seat": seat,
        "name": view["players"][position],
        "is_turn": is_turn,
        "classes": " ".join(classes),
        "tags": format_html_join("", ' <small class="tag {}">{}</small>', tags),
        "facts": format_html_join(
            " ",
            "<span>{}{}</span>",
            (
                (text, format_html(' <small class="muted">{}</small>', note) if note else "")
                for text, note in facts
            ),
        ),
        "groups": format_html_join("", '<span class="ot-group" title="{}">{}</span>', groups),
    }


def _last_round(
    view: dict[str, Any], names: list[str], log: list[dict[str, Any]]
) -> dict[str, Any] | None:
    summary = view["last_round"]
    if summary is None:
        return None
    rows = []
    for position, line in enumerate(summary["seats"]):
        laid, now = summary["laid"][position], view["phase"][position]
        rows.append(
            {
                "name": names[position],
                "points": line["points"],
                "went_out": line["went_out"],
                "laid_text": "✓ " + _("phase %(number)s") % {"number": laid}
                if laid
                else "✗ " + _("not laid"),
                "next_text": _("→ phase %(number)s") % {"number": now}
                if now and not view["game_over"]
                else "",
                "total": view["scores"][position],
            }
        )
    recent = any(line["round_over"] == summary["round_number"] for line in log)
    return {"number": summary["round_number"], "rows": rows, "recent": recent}
