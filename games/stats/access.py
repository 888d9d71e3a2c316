"""Whose stats a member may see: their own, anyone they played with in a started game,
and anyone seated at a game night they score."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Exists, OuterRef, Q, QuerySet

from games.models import Game, Player, Seat

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# Games people actually played together: dealt (in progress or over). A lobby doesn't
# count — being in one says nothing about having played with its creator.
PLAYED = (Game.Status.ACTIVE, Game.Status.FINISHED)


def co_players(player: Player) -> QuerySet[Player]:
    """Everyone who sat with `player` in a started game (in progress or finished), and
    the player. People only: a bot is nobody's co-player."""
    shared = Seat.objects.filter(
        Seat.of_people(), game__status__in=PLAYED, game__seats__player=player
    ).values("player")
    return Player.objects.filter(Q(pk__in=shared) | Q(pk=player.pk))


def visible_players(viewer: Player, user: User) -> QuerySet[Player]:
    """The Players whose page `user` (whose Player is `viewer`) may see: themselves,
    anyone who sat with them in a started game, and anyone seated at a game night they
    score. (Creating an online game makes nobody its scorer.)"""
    scored = Seat.objects.filter(
        Q(game__creator=user) | Q(game__co_scorers=user),
        game__mode=Game.Mode.NIGHT,
        player=OuterRef("pk"),
        accepted=True,  # a member seated by username shows nothing before they say yes
    )
    return Player.objects.filter(
        Q(pk=viewer.pk) | Q(pk__in=co_players(viewer).values("pk")) | Q(Exists(scored))
    )
