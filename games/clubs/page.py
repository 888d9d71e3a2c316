"""A club's page: what is under way, the recent games, the members and guests, and the
forms, drawn once and kept.

A request asks only for the club with the viewer's membership (access.club_for_member,
one query); the body — with the season's table, the members' ratings over the season
and the records' summary — comes from the cache under a key of the club's version, the
site's date, the language, the time zone, whether the viewer is an admin and their CSRF
cookie (cache_keys.club_page). The club's version moves on with every change to the
club (a member, an invitation, the name, the join link, a season), to any of its games
(games/scoring.py `bump_club`) and to its members' ratings (the ratings' run): what was
kept before is never read again. Drawing it (a miss) takes a fixed number of queries,
however many members and games the club has.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.db.models import Count, F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString

from games import cache_keys
from games.models import Club, ClubInvitation, ClubMember, Game, Player
from games.online.lobby import lobby_size
from phase10site.context_processors import request_csrf_token

from . import records, seasons

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpRequest

BODY = "clubs/_detail_body.html"
UNDERWAY = (Game.Status.LOBBY, Game.Status.ACTIVE)
# The finished games the page lists, newest first.
RECENT = 10


@dataclass(frozen=True)
class Underway:
    """A game of the club that isn't over, and who it waits for."""

    game: Game
    # Online, dealt: whose turn it is and since when (None while paused).
    turn_of: str | None = None
    since: datetime | None = None
    # A night: who keeps the score and the round being played.
    scorer: str | None = None
    round: int | None = None
    # A lobby: seats taken of how many.
    seated: int = 0
    seats: int = 0


@dataclass(frozen=True)
class Guest:
    player: Player
    games: int


def underway(club: Club) -> list[Underway]:
    """The club's lobbies and games in play, newest first. One query."""
    games = (
        Game.objects.filter(club=club, status__in=UNDERWAY)
        .select_related("current_player")
        .annotate(
            seated=Count("seats"),
            scorer=Coalesce(F("creator__player__name"), F("creator__username")),
        )
        .order_by("-created_at", "-pk")
    )
    rows = []
    for game in games:
        seated: int = game.seated
        if game.status == Game.Status.LOBBY:
            rows.append(Underway(game, seated=seated, seats=lobby_size(game)))
        elif game.mode == Game.Mode.NIGHT:
            scorer: str | None = game.scorer
            rows.append(Underway(game, scorer=scorer, round=game.rounds_played + 1))
        else:
            player = game.current_player
            paused = game.paused_at is not None
            rows.append(
                Underway(
                    game,
                    turn_of=None if player is None or paused else player.name,
                    since=None if paused else game.turn_started_at,
                )
            )
    return rows


def recent(club: Club) -> list[Game]:
    """The club's last RECENT finished games with their winners. One query."""
    return list(
        Game.objects.filter(club=club, status=Game.Status.FINISHED)
        .select_related("winner")
        .order_by(F("finished_at").desc(nulls_last=True), "-pk")[:RECENT]
    )


def members(club: Club) -> list[ClubMember]:
    """The members, admins first, then in the order they joined; each with `name` (the
    name they play under). One query."""
    return list(
        ClubMember.objects.filter(club=club)
        .select_related("user")
        .annotate(name=Coalesce(F("user__player__name"), F("user__username")))
        .order_by("-is_admin", "joined_at", "pk")
    )


def guests(club: Club) -> list[Guest]:
    """The club's guests: people without an account seated at its game nights (an
    online game's Player without an account is a bot's), with how many of the club's
    games they sat in, by name. One query."""
    players = (
        Player.objects.filter(
            user__isnull=True,
            anonymised=False,
            seats__game__club=club,
            seats__game__mode=Game.Mode.NIGHT,
            seats__is_bot=False,
        )
        .annotate(games=Count("seats"))
        .order_by("name", "pk")
    )
    return [Guest(player, player.games) for player in players]


def invited(club: Club) -> list[str]:
    """The usernames of who was invited and hasn't answered yet. One query."""
    return list(
        ClubInvitation.objects.filter(club=club)
        .order_by("created_at", "pk")
        .values_list("user__username", flat=True)
    )


def body(request: HttpRequest, club: Club) -> SafeString:
    """The page's body for this member: from the cache, or drawn and kept. A request
    without a usable CSRF cookie is drawn and not kept (its forms' token would not be
    valid for the next request)."""
    csrf = cache_keys.csrf_cookie(request)
    link = join_url(request, club)
    key = None
    if csrf is not None:
        key = cache_keys.club_page(
            club,
            today=seasons.site_today(),
            admin=club.viewer_is_admin,
            link=link,
            csrf=csrf,
        )
        kept: str | None = cache.get(key)
        if kept is not None:
            return SafeString(kept)
    context = _context(club, link) | {"csrf_token": request_csrf_token(request)}
    html = str(render_to_string(BODY, context))
    if key is not None:
        cache.set(key, html, cache_keys.VERSION_SECONDS)
    return SafeString(html)


def join_url(request: HttpRequest, club: Club) -> str:
    return request.build_absolute_uri(reverse("games:club_join", args=[club.invite_token]))


def _context(club: Club, link: str) -> dict[str, Any]:
    people = members(club)
    table = seasons.current_table(club)
    return records.summary_context(club, seasons.site_today()) | {
        "table": table,
        "ratings": seasons.member_ratings(club, table.season),
        "club": club,
        "underway": underway(club),
        "recent": recent(club),
        "members": people,
        "guests": guests(club),
        "invited": invited(club),
        "candidates": [member for member in people if not member.is_admin],
        "join_url": link,
    }


def clubs_for(user: User) -> list[Club]:
    """The clubs `user` is in, by name, each with `member_count` and `underway_count`
    (its lobbies and games in play), for /clubs/. One query."""
    return list(
        Club.objects.filter(members__user=user)
        .annotate(
            member_count=_count(ClubMember.objects.filter(club=OuterRef("pk"))),
            underway_count=_count(Game.objects.filter(club=OuterRef("pk"), status__in=UNDERWAY)),
        )
        .order_by("name", "pk")
    )


def _count(rows: QuerySet[Any, Any]) -> Coalesce:
    """How many `rows` there are, as a subquery (two counts over joins would multiply
    each other's rows)."""
    counted = rows.order_by().values("club").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted), 0)
