"""Your game nights (`/nights/`): a page of the nights a member scores, co-scores or
sits at, a seat waiting for their answer first, then those in progress, then the latest.

One hand-written query (`_PAGE_SQL`) reads the page's nights, only the columns their
cards show, with how many nights there are in all (`COUNT(*) OVER ()`, for the pager)
and the member's your-turn count (the header's, `YOUR_TURN_SQL`): one round trip
instead of three (the pager's count, the ORM's page with two EXISTS annotations, the
header's count), and no ORM, whose building cost more than PostgreSQL's running them.
Only a page past the end (or below 1) costs a count of its own and the last page's read.

The nights are found through the member's three ways in (created, co-scored, seated),
each an index lookup of its own (`_MINE_SQL`): an OR across three tables makes
PostgreSQL read every game (bench/README.md has the plans).

Each night's card is the same for everyone at a version, language and time zone
(`ListedNight.key`): drawn once (list.html's partial `card`) and kept in the cache; only
the nights whose card isn't cached need their seats and players. The page's nights with
their forms (a seat's answer, a rematch) are kept as well, under a key made of the cards'
keys, the forms and the member's CSRF cookie (games/cache_keys.py): a page seen again is
one cache read, its forms holding the token of the request that drew it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db import connection
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from phase10site.context_processors import request_csrf_token

from .. import cache_keys
from ..context_processors import YOUR_TURN_SQL, your_turn_params
from ..models import Game, Player, Seat

if TYPE_CHECKING:
    from django.contrib.auth.models import User

GAMES_PER_PAGE = 20
# A page number past this is past the end for anyone (and its offset past PostgreSQL's).
_LAST_READ = 2**31 // GAMES_PER_PAGE
CARD_TEMPLATE = "games/nights/list.html#card"
ITEMS_TEMPLATE = "games/nights/list.html#items"

_GAME, _SEAT, _PLAYER = (model._meta.db_table for model in (Game, Seat, Player))
_CO_SCORER = Game.co_scorers.through._meta.db_table
_USER = Game._meta.get_field("creator").related_model._meta.db_table

# The member's Player (one per user), as a subquery rather than a join: PostgreSQL
# plans it faster (planning is about half of these queries' time).
_PLAYER_OF = f"(SELECT id FROM {_PLAYER} WHERE user_id = %s)"
_COLUMNS = "id, public_id, name, status, rounds_played, version, created_at, updated_at"
# The member's game nights, with the columns a card shows: those they created, then
# those they co-score or sit at and didn't create. The first are read through the
# creator's index; only the others are looked up one by one, so the many games of other
# people cost nothing (with `id IN (created UNION co-scored UNION seated)` PostgreSQL
# read every game night to join them, a cost that grew with everyone's games).
_MINE_SQL = (
    f"SELECT {_COLUMNS}, creator_id FROM {_GAME} WHERE creator_id = %s AND mode = %s"
    f" UNION ALL SELECT {_COLUMNS}, creator_id FROM {_GAME} WHERE mode = %s AND id IN"
    f" (SELECT x.game_id FROM (SELECT game_id FROM {_CO_SCORER} WHERE user_id = %s"
    f" UNION ALL SELECT game_id FROM {_SEAT} WHERE player_id = {_PLAYER_OF}) x"
    f" WHERE x.game_id NOT IN (SELECT id FROM {_GAME} WHERE creator_id = %s))"
)
_COUNT_SQL = f"SELECT COUNT(*) FROM ({_MINE_SQL}) g"
# The page in the inner query (with whether a seat in it waits for the member's answer,
# which orders it); the creator's name and whether the member co-scores only for the
# page's nights.
_PAGE_SQL = (
    f"SELECT t.{_COLUMNS.replace(', ', ', t.')}, t.creator_id, u.username, t.awaiting,"
    f" EXISTS(SELECT 1 FROM {_CO_SCORER} c WHERE c.game_id = t.id AND c.user_id = %s),"
    f" t.total, ({YOUR_TURN_SQL})"
    " FROM (SELECT g.*,"
    f" g.id IN (SELECT game_id FROM {_SEAT} WHERE player_id = {_PLAYER_OF} AND NOT accepted)"
    " AS awaiting,"
    " COUNT(*) OVER () AS total"
    f" FROM ({_MINE_SQL}) g"
    " ORDER BY awaiting DESC, CASE WHEN g.status = %s THEN 0 ELSE 1 END, g.updated_at DESC"
    " LIMIT %s OFFSET %s) t"
    f" LEFT JOIN {_USER} u ON u.id = t.creator_id"
    " ORDER BY t.awaiting DESC, CASE WHEN t.status = %s THEN 0 ELSE 1 END, t.updated_at DESC"
)


def _mine_params(user: User) -> list[Any]:
    """The parameters of _MINE_SQL, in order."""
    table = Game.Mode.NIGHT.value
    return [user.pk, table, table, user.pk, user.pk, user.pk]


@dataclass(slots=True)
class ListedNight:
    """A night's card in the list: what it shows, and what the member may do there."""

    id: int
    public_id: str
    name: str
    status: str
    rounds_played: int
    version: int
    created_at: datetime
    updated_at: datetime
    creator_id: int | None
    creator_name: str  # for the seat's question: "<creator> gave you a seat…"
    awaiting: bool  # a seat in it waits for the member's answer (nights/seating.py)
    co_scoring: bool  # the member co-scores it
    can_rematch: bool = False  # the member scores or co-scores it (the rematch form)
    key: str = ""  # its card's key in the cache (cache_keys.night_card)
    card: SafeString | None = None  # its card's HTML (_add_cards)
    seat_list: list[Seat] = field(default_factory=list)  # only when its card was drawn

    def get_absolute_url(self) -> str:
        return reverse("games:night_detail", args=[self.public_id])


def nights_page(request: HttpRequest, number: str | None) -> tuple[NightsPage, int | None]:
    """Page `number` of `user`'s nights (as Paginator.get_page: not a number, page 1;
    out of range, the last page), each with its card from the cache or its seats; and
    the member's your-turn count (None when the page is empty: not read)."""
    user: User = request.user  # type: ignore[assignment]  # a member: @login_required
    try:
        wanted = int(number)  # type: ignore[arg-type]  # None: TypeError, page 1
    except (TypeError, ValueError):
        wanted = 1
    rows = _read_page(user, wanted) if 1 <= wanted <= _LAST_READ else []
    total = rows[0][12] if rows else (0 if wanted == 1 else None)
    paginator: Paginator[ListedNight] = Paginator([], GAMES_PER_PAGE)
    if total is None:  # past the end or below 1: the last page
        with connection.cursor() as cursor:
            cursor.execute(_COUNT_SQL, _mine_params(user))
            (total,) = cursor.fetchone()
        paginator.count = total
        wanted = paginator.num_pages
        rows = _read_page(user, wanted) if total else []
    paginator.count = total
    zone = (get_language() or "", timezone.get_current_timezone_name())
    nights = [_listed(row, *zone) for row in rows]
    for night in nights:
        night.can_rematch = night.creator_id == user.pk or night.co_scoring
    page = NightsPage(nights, wanted, paginator)
    page.items_html = _items_html(request, nights)
    return page, (rows[0][13] if rows else None)


class NightsPage(Page[ListedNight]):
    """A page of nights, with its nights drawn (list.html's partial `items`)."""

    items_html: SafeString = SafeString("")


def _read_page(user: User, number: int) -> list[tuple[Any, ...]]:
    active = Game.Status.ACTIVE.value
    params = [user.pk, *your_turn_params(user), user.pk, *_mine_params(user)]
    params += [active, GAMES_PER_PAGE, (number - 1) * GAMES_PER_PAGE, active]
    with connection.cursor() as cursor:
        cursor.execute(_PAGE_SQL, params)
        rows: list[tuple[Any, ...]] = cursor.fetchall()
    return rows


def _listed(row: tuple[Any, ...], language: str, zone: str) -> ListedNight:
    """A row of _PAGE_SQL as a card, in `language` and time `zone`."""
    (pk, public_id, name, status, rounds, version, created, updated, creator_id) = row[:9]
    return ListedNight(
        id=pk,
        public_id=public_id,
        name=name,
        status=status,
        rounds_played=rounds,
        version=version,
        created_at=created,
        updated_at=updated,
        creator_id=creator_id,
        creator_name=row[9] or "",  # no creator (a deleted account): no name, as before
        awaiting=row[10],
        co_scoring=row[11],
        key=cache_keys.night_card(public_id, version, language, zone),
    )


def _items_html(request: HttpRequest, nights: list[ListedNight]) -> SafeString:
    """The page's nights as list.html's partial `items` draws them, from the cache under
    a key made of everything they show (each card's key, the forms each night offers
    this member, the CSRF cookie whose token the forms hold). Drawn when missing, from
    the nights' cards (`_add_cards`); drawn every time without a CSRF cookie."""
    if not nights:
        return SafeString("")
    keys = [night.key for night in nights]
    csrf = cache_keys.csrf_cookie(request)
    context = {"nights": nights, "csrf_token": request_csrf_token(request)}
    if csrf is None:
        _add_cards(nights)
        return render_to_string(ITEMS_TEMPLATE, context)
    forms: list[tuple[object, ...]] = [
        (night.awaiting, night.can_rematch, night.creator_name if night.awaiting else "")
        for night in nights
    ]
    page_key = cache_keys.night_items(keys, forms, csrf)
    html: str | None = cache.get(page_key)
    if html is None:
        _add_cards(nights)
        html = str(render_to_string(ITEMS_TEMPLATE, context))
        cache.set(page_key, html, cache_keys.VERSION_SECONDS)
    return SafeString(html)


def _add_cards(nights: list[ListedNight]) -> None:
    """Each night's card (list.html's partial `card`, under its `key`) from the cache;
    drawing (with its seats and players) only those not in the cache."""
    keys = [night.key for night in nights]
    drawn = cache.get_many(keys)
    missing = {night.id: night for night, key in zip(nights, keys, strict=True) if key not in drawn}
    if missing:
        seats = Seat.objects.filter(game_id__in=missing).select_related("player")
        for seat in seats.order_by("game_id", "position"):
            missing[seat.game_id].seat_list.append(seat)
        new = {night.key: _draw(night) for night in missing.values()}
        cache.set_many(new, cache_keys.VERSION_SECONDS)
        drawn.update(new)
    for night, key in zip(nights, keys, strict=True):
        night.card = mark_safe(drawn[key])  # noqa: S308  # list.html's own partial, as drawn


def _draw(night: ListedNight) -> str:
    return render_to_string(CARD_TEMPLATE, {"game": night})
