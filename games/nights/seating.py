"""Who can sit at a new game night, and a member's answer to a seat they were given.

The new-night form offers the people the host has played with and the guests they
typed in (`known_players`, labelled by `player_labels`: guests of the same name told
apart). Anyone else with an account can be seated by username; a member seated by
someone they never played with has a seat that waits for their answer
(`Seat.accepted` false): until they accept, the night counts in nobody's stats or
ratings for them (`Seat.of_people`). Declining turns the seat into a guest of the
host with the member's name, so the night's scores stay as they were and the member
has no part in it any more.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from ..errors import Refused
from ..models import Club, ClubMember, Game, Player, RoundScore, Seat
from ..scoring import bump, queue_rating

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# A game that was dealt (a lobby is no game played).
PLAYED = (Game.Status.ACTIVE, Game.Status.FINISHED)


def _played_with(user: User) -> QuerySet[Seat, Any]:
    """The players of the seats people took in games `user` played, scored or
    co-scored (a pending seat is not taken yet)."""
    my_games = Game.objects.filter(
        Q(creator=user) | Q(co_scorers=user) | Q(seats__player__user=user, seats__accepted=True),
        status__in=PLAYED,
    ).values("pk")
    # A guest is only ever seated at a game night: an online game's Player without a
    # user is a bot's (online/lobby.py), never a guest to offer.
    return Seat.objects.filter(
        Seat.of_people(),
        Q(player__user__isnull=False) | Q(game__mode=Game.Mode.NIGHT),
        game__in=my_games,
    ).values("player")


def known_players(user: User, *, latest: int | None = None) -> list[Player]:
    """People `user` has played with (a game night, or an online game that started),
    and the guests they typed in, by name. Never a bot, nor a deleted account's
    anonymised Player. Each has `last_played` (the latest game night or game they sat
    in, for telling guests of one name apart). `latest`: only that many, those played
    with most recently. One query."""
    last_played = (
        Seat.objects.filter(player=OuterRef("pk"), game__status__in=PLAYED)
        .order_by("-game__created_at")
        .values("game__created_at")[:1]
    )
    players = (
        Player.objects.filter(Q(pk__in=_played_with(user)) | Q(created_by=user, user__isnull=True))
        .exclude(user=user)
        .exclude(anonymised=True)
        .annotate(last_played=Subquery(last_played))
        .select_related("user", "created_by")
    )
    if latest is not None:
        players = players.order_by(F("last_played").desc(nulls_last=True), "-pk")[:latest]
    return sorted(players, key=lambda player: (player.name.casefold(), player.pk))


# The new night's seat lists offer at most this many players, the latest played with
# (six lists of a thousand names are a slow page and a long scroll); anyone else is
# typed: a member's username, or a guest's name, which seats the host's guest of that
# name (nights/services.py).
OFFERED = 40


def club_first(club: Club, user: User, known: Sequence[Player]) -> tuple[list[Player], set[int]]:
    """A club night's seat list: the club's members and guests (guests: people without
    an account seated at its nights) by name, then the rest of `known`; and the members
    among them `known` doesn't have, to be seated as if typed by username (their seat
    waits for their answer if they never played with `user`). One query."""
    guests = Seat.objects.filter(
        game__club=club, game__mode=Game.Mode.NIGHT, is_bot=False, player__user__isnull=True
    ).values("player")
    members = ClubMember.objects.filter(club=club).values("user")
    ours = (
        Player.objects.filter(Q(user__in=members) | Q(pk__in=guests))
        .exclude(user=user)
        .exclude(anonymised=True)
        .select_related("user", "created_by")
    )
    by_pk = {player.pk: player for player in known}
    club_people = sorted(
        (by_pk.get(player.pk, player) for player in ours),
        key=lambda player: (player.name.casefold(), player.pk),
    )
    listed = {player.pk for player in club_people}
    ask = {p.pk for p in club_people if p.user_id is not None and p.pk not in by_pk}
    return club_people + [p for p in known if p.pk not in listed], ask


def player_labels(known: Sequence[Player], viewer: User) -> dict[int, str]:
    """What the seat list says for each known player: a member's name; a guest's name
    marked as a guest, and for guests who share a name, whose guest and when they last
    played ("Rose (guest of ana, last played 3 May)")."""
    names = Counter(player.name.casefold() for player in known if player.is_guest)
    labels = {}
    for player in known:
        if not player.is_guest:
            labels[player.pk] = player.name
        elif names[player.name.casefold()] < 2:
            labels[player.pk] = _("%(name)s (guest)") % {"name": player.name}
        else:
            labels[player.pk] = _guest_label(player, viewer)
    return labels


def _guest_label(player: Player, viewer: User) -> str:
    played = getattr(player, "last_played", None)
    host = player.created_by
    if played is None:
        when = _("never played")
    else:
        day = date_format(timezone.localtime(played), "MONTH_DAY_FORMAT")
        when = _("last played %(day)s") % {"day": day}
    if host is None:
        return _("%(name)s (guest, %(when)s)") % {"name": player.name, "when": when}
    if host.pk == viewer.pk:
        return _("%(name)s (your guest, %(when)s)") % {"name": player.name, "when": when}
    return _("%(name)s (guest of %(host)s, %(when)s)") % {
        "name": player.name,
        "host": host.get_username(),
        "when": when,
    }


def pending_players(host: User, players: Sequence[Player]) -> set[int]:
    """The members among `players` (not the host) who never played with the host: their
    seats wait for their answer. One query (none without such members)."""
    members = [p.pk for p in players if p.user_id is not None and p.user_id != host.pk]
    if not members:
        return set()
    known = set(_played_with(host).filter(player__in=members).values_list("player", flat=True))
    return set(members) - known


def answer(game: Game, user: User, *, accept: bool) -> Game:
    """`user` accepts the seat they were given at `game`, or declines it (the seat goes
    to a guest of the host with their name). Refused when no seat waits for them."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        seat = (
            Seat.objects.select_related("player")
            .filter(game=locked, player__user=user, accepted=False)
            .first()
        )
        if seat is None:
            raise Refused(_("No seat at this game night waits for your answer."))
        if accept:
            seat.accepted = True
            seat.save(update_fields=["accepted"])
        else:
            _give_to_guest(locked, seat)
        # Under the row lock, the version is the one just read: this can't be stale.
        bump(locked, "winner")
        if locked.status == Game.Status.FINISHED:
            # Who is rated in the game changed: the ratings take it in again.
            queue_rating(locked)
        return locked


def _give_to_guest(game: Game, seat: Seat) -> None:
    """The seat, its rounds and a win go to the host's guest of the member's name (the
    same guest name at a host's table is the same person, as when it is typed in)."""
    member = seat.player
    guest = None
    if game.creator_id is not None:
        guest = (
            Player.objects.filter(
                created_by_id=game.creator_id, user__isnull=True, name__iexact=member.name
            )
            .exclude(anonymised=True)
            .exclude(seats__game=game)
            .first()
        )
    guest = guest or Player.objects.create(name=member.name, created_by_id=game.creator_id)
    Seat.objects.filter(pk=seat.pk).update(player=guest, accepted=True)
    RoundScore.objects.filter(game=game, player=member).update(player=guest)
    if game.winner_id == member.pk:
        game.winner = guest  # saved with the version's bump
