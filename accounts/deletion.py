"""Deleting an account: the person goes, the games they shared stay.

A game belongs to everyone who played it, so nothing another person played may vanish
with one account. Whatever deletes a user — the account page, the admin, a shell —
`forget` runs first (signals.py), in the deletion's transaction:

- lobbies: the ones the user created are cancelled (nobody has played anything in
  them yet); from the others they leave; their invitations go with the account;
- clubs: they leave each one as a member who leaves does (the longest-standing member
  becomes admin if they were the last; every game stays the club's), and the
  invitations waiting for them go;
- games in progress: the user resigns, and a bot plays the seat to the end;
- their Player stays, with every seat, round and win, under an anonymous name that
  can't be claimed (`Player.anonymised`), also in the online games' snapshots, whose
  names the boards show.

Then the user row goes: the profile, email notifications and guest claims with it;
the games they created or scored and the guests they typed in stay (SET_NULL).
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext as _

from games.clubs import membership
from games.errors import Refused
from games.models import Club, Game, Player, Seat
from games.online import lobby, services
from games.scoring import bump, bump_games_of

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def deleted_name() -> str:
    # Stored, so in the site's language rather than the leaving user's.
    with translation.override(settings.LANGUAGE_CODE):
        return _("Deleted player")


def delete_account(user: User) -> None:
    """Delete `user` (see the module's docstring for what stays)."""
    with transaction.atomic():
        user.delete()


def forget(user: User) -> None:
    """Take `user` out of every game before their row is deleted (signals.py)."""
    lobbies = (
        Game.objects.filter(mode=Game.Mode.ONLINE, status=Game.Status.LOBBY)
        .filter(Q(creator=user) | Q(seats__player__user=user))
        .distinct()
    )
    for game in lobbies:
        # Refused: it started meanwhile, and the user resigns from it below.
        with suppress(Refused):
            lobby.leave(game, user)
    playing = Game.objects.filter(
        mode=Game.Mode.ONLINE,
        status=Game.Status.ACTIVE,
        seats__player__user=user,
        seats__resigned=False,
    ).distinct()
    for game in playing:
        with suppress(Refused):  # it ended meanwhile
            services.resign(game, user)
    player = Player.objects.filter(user=user).first()
    if player is not None:
        _anonymise(player)
    # Last: a club's row is locked after its games' rows, as a move locks them.
    for club in Club.objects.filter(members__user=user).order_by("pk"):
        membership.leave(club, user)
    for club in Club.objects.filter(invitations__user=user).order_by("pk"):
        membership.decline_invitation(user, club.public_id)


def _anonymise(player: Player) -> None:
    name = deleted_name()
    player.name, player.user, player.anonymised = name, None, True
    player.save(update_fields=["name", "user", "anonymised"])
    bump_games_of(player)
    seats = Seat.objects.filter(player=player, game__mode=Game.Mode.ONLINE).exclude(
        game__status=Game.Status.LOBBY
    )
    for game_id, position in seats.values_list("game_id", "position"):
        # Under the game's lock, like any move: the snapshot is rewritten whole.
        game = services.lock(game_id)
        players = (game.state or {}).get("players")
        if isinstance(players, list) and position < len(players):
            players[position] = name
            bump(game, "state")
