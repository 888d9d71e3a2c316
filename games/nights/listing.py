"""Your game nights (`/nights/`): a page of the nights a member scores, co-scores or
sits at, a seat waiting for their answer first, then those in progress, then the latest.

A page is the page's nights, only the columns their cards show, with whether a seat
waits for the member's answer and whether they co-score; the first page (the one most
visits ask for) reads the count of them all with its rows (a window), Django's Paginator
counts them for the others. The nights are found through the member's three ways in
(created, co-scored, seated), each an index lookup of its own, in a UNION the games are
then looked up from by id: an OR across the three makes PostgreSQL read every game
(bench/README.md has the plans). The header's your-turn count is the context
processor's, as on every page.

A page's rows are kept under the extent of the member's nights (`_extent`: how many,
the sums of their versions and ids; any change to any of them moves it on), so a visit
that finds nothing changed asks the database only for those three numbers; a creator's
name (the seat's question) is bounded by `VERSION_SECONDS` like other names no version
covers.

Each night's card is the same for everyone at a version, language and time zone
(`ListedNight.key`): drawn once (list.html's partial `card`) and kept in the cache; only
the nights whose card isn't cached need their seats and players. The page's nights with
their forms (a seat's answer, a rematch) are kept as well, under a key made of the cards'
keys, the forms and the member's CSRF cookie (games/cache_keys.py): a page seen again
reads no seats.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db.models import Case, Count, Exists, F, OuterRef, QuerySet, Sum, Value, When, Window
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from phase10site.context_processors import request_csrf_token

from .. import cache_keys
from ..models import Game, Seat

if TYPE_CHECKING:
    from django.contrib.auth.models import User

GAMES_PER_PAGE = 20
CARD_TEMPLATE = "games/nights/list.html#card"
ITEMS_TEMPLATE = "games/nights/list.html#items"

_CO_SCORER = Game.co_scorers.through
# What a card shows (and its key), besides the member's part in the night.
_COLUMNS = "id public_id name status rounds_played version created_at updated_at creator_id"


def _member_nights(user: User) -> QuerySet[Game]:
    """The game nights `user` created, co-scores or sits at."""
    created = Game.objects.filter(creator=user).values("pk")
    co_scored = _CO_SCORER.objects.filter(user=user).values("game_id")
    seated = Seat.objects.filter(player__user=user).values("game_id")
    return Game.objects.filter(mode=Game.Mode.NIGHT, pk__in=created.union(co_scored, seated))


def _page_rows(user: User) -> QuerySet[Game, dict[str, Any]]:
    """The member's nights as their cards' rows, in the list's order."""
    waiting = Seat.objects.filter(game=OuterRef("pk"), player__user=user, accepted=False)
    co_scoring = _CO_SCORER.objects.filter(game=OuterRef("pk"), user=user)
    rows: QuerySet[Game, dict[str, Any]] = (
        _member_nights(user)
        .values(
            *_COLUMNS.split(),
            # No creator (a deleted account): no name (_listed).
            creator_name=F("creator__username"),
            awaiting=Exists(waiting),
            co_scoring=Exists(co_scoring),
        )
        .order_by(
            "-awaiting",
            Case(When(status=Game.Status.ACTIVE, then=Value(0)), default=Value(1)),
            "-updated_at",
        )
    )
    return rows


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


def nights_page(request: HttpRequest, number: str | None) -> NightsPage:
    """Page `number` of the member's nights, as Paginator.get_page reads it (not a
    number: page 1; out of range: the last page), each with its card from the cache or
    its seats. The page's rows are kept under the extent of the member's nights
    (`_extent`, one query): read again only when it moved on."""
    user: User = request.user  # type: ignore[assignment]  # a member: @login_required
    number = number or "1"
    key = cache_keys.night_rows(user.pk, _extent(user), number)
    kept: tuple[list[dict[str, Any]], int, int] | None = cache.get(key)
    if kept is None:
        kept = _read_page(user, number)
        cache.set(key, kept, cache_keys.VERSION_SECONDS)
    read, count, wanted = kept
    zone = (get_language() or "", timezone.get_current_timezone_name())
    nights = [_listed(row, user, *zone) for row in read]
    listed = NightsPage(nights, wanted, _Counted(count))
    listed.items_html = _items_html(request, nights)
    return listed


def _extent(user: User) -> tuple[int, int, int]:
    """The member's nights in three numbers: how many, the sums of their versions and of
    their ids. Every change to a night bumps its version (games/scoring.py): its rounds,
    status, name, seats, a seat's answer, a co-scorer added; so the second moves on with
    any change a page's rows show (their order too), the first and third when a night
    comes into the list or leaves it. As the stats page keys its figures
    (stats/figures.py `extent`)."""
    row = _member_nights(user).aggregate(nights=Count("pk"), versions=Sum("version"), ids=Sum("pk"))
    return (row["nights"], int(row["versions"] or 0), int(row["ids"] or 0))


def _read_page(user: User, number: str) -> tuple[list[dict[str, Any]], int, int]:
    """Page `number`'s rows, the count of them all and the page's number."""
    rows = _page_rows(user)
    if number == "1":  # the page most visits ask for
        # Its rows carry the count of them all, for the pager: one query, not two.
        read = list(rows.annotate(count=Window(Count("*")))[:GAMES_PER_PAGE])
        counts = [row.pop("count") for row in read]
        return read, counts[0] if counts else 0, 1
    paginator = Paginator(rows, GAMES_PER_PAGE)
    page = paginator.get_page(number)
    return list(page.object_list), paginator.count, page.number


class _Counted(Paginator):  # type: ignore[type-arg]  # not generic at run time
    """The pager of a first page whose rows were read with the count of them all."""

    def __init__(self, count: int) -> None:
        super().__init__([], GAMES_PER_PAGE)
        self.known = count

    @property
    def count(self) -> int:  # known, not counted
        return self.known


class NightsPage(Page[ListedNight]):
    """A page of nights, with its nights drawn (list.html's partial `items`)."""

    items_html: SafeString = SafeString("")


def _listed(row: dict[str, Any], user: User, language: str, zone: str) -> ListedNight:
    """A row of `_page_rows` as a card, in `language` and time `zone`."""
    night = ListedNight(**row)
    night.creator_name = night.creator_name or ""
    night.can_rematch = night.creator_id == user.pk or night.co_scoring
    night.key = cache_keys.night_card(night.public_id, night.version, language, zone)
    return night


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
