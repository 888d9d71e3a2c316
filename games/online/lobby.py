"""An online game before the deal: creating it, seats, invitations, bots, the start,
and a rematch (a new lobby with the same rules and people: the finished game's next game).

Like every change, each takes the game row's lock (`services.lock`) and bumps its
version, so an open lobby page sees the change on its next poll. A lobby game keeps
its seat count in `Game.state` as `{"lobby": {"seats": n}}` until it starts.

Two ways in: the invite link (anyone who has it takes a free seat) and an invitation by
username, which seats nobody until that person accepts it on My games — so nobody can be
put in a game, emailed about it or counted as someone's opponent without saying yes.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Prefetch
from django.utils.translation import gettext as _

from .. import engine
from ..clubs.membership import check_member, kept_club
from ..engine import Rules
from ..errors import Refused
from ..models import Club, Game, Invitation, Player, Seat
from ..notify import outbox
from ..players import find_member, seat_for_user
from ..scoring import bump, bump_club, game_rules, refresh_seats
from ..words import isolated
from . import services

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MIN_SEATS, MAX_SEATS = 2, 6
BOT_NAMES = ("Ada", "Grace", "Alan", "Hedy", "Edsger", "Barbara", "Claude", "Radia")


def lobby_size(game: Game) -> int:
    """The number of seats of a game (in the lobby: the number it was created with)."""
    if game.status == Game.Status.LOBBY:
        return int((game.state or {}).get("lobby", {}).get("seats", MIN_SEATS))
    return len((game.state or {}).get("players", ()))


@transaction.atomic
def create_game(
    creator: User,
    *,
    name: str = "",
    seats: int = 2,
    rules: Rules | None = None,
    time_limit: timedelta | None = None,
    bots: int = 0,
    invite: Sequence[User] = (),
    rated: bool = True,
    club: Club | None = None,
) -> Game:
    """A game in the lobby: the creator in seat 0 and `bots` after the seats kept for the
    `invite`d users, who are invited (they accept or decline), not seated. `rated`: the
    result moves the people's ratings (among themselves: bots never count). `club`: the
    club it belongs to, one of the creator's (Refused otherwise)."""
    check_member(club, creator)
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise Refused(_("A game has 2 to 6 seats."), code="seat_count")
    if 1 + len(invite) + bots > seats:
        raise Refused(_("There are more players and bots than seats."), code="seat_count")
    if any(user.pk == creator.pk for user in invite):
        raise Refused(_("You are already in this game."), code="already_seated")
    game = Game.objects.create(
        mode=Game.Mode.ONLINE,
        status=Game.Status.LOBBY,
        name=name,
        rules=(rules or Rules()).to_dict(),
        creator=creator,
        time_limit=time_limit,
        state={"lobby": {"seats": seats}},
        rated=rated,
        club=club,
    )
    Seat.objects.create(game=game, position=0, player=Player.for_user(creator))
    Invitation.objects.bulk_create(
        Invitation(game=game, user=user, invited_by=creator) for user in invite
    )
    # The bots sit after the invited people's seats, so those who accept (in any order)
    # fill the seats next to the creator.
    for n in range(bots):
        _add_bot(game, list(game.seats.select_related("player")), at=1 + len(invite) + n)
    if club is not None:
        bump_club(club.pk)  # a lobby is under way on its club's page
    return game


def invitations_for(user: User) -> list[Invitation]:
    """The invitations `user` hasn't answered, newest first, each with its game, who
    invited and who is seated (for My games). Three queries at most, however many; one
    when there are none (what My games mostly finds)."""
    # A game's start drops its invitations (`start_game`): a member with none in a lobby
    # mostly has none at all, which one plain EXISTS says, far cheaper than the joins below.
    if not Invitation.objects.filter(user=user).exists():
        return []
    invitations = list(
        Invitation.objects.filter(user=user, game__status=Game.Status.LOBBY)
        .select_related("game", "invited_by")
        .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related("player")))
        .order_by("-created_at", "-pk")
    )
    for invitation in invitations:
        invitation.seats_total = lobby_size(invitation.game)
    return invitations


def _lobby(game: Game | int, by: User | None = None) -> tuple[Game, list[Seat]]:
    """Lock a lobby game; Refused if it has started (or `by` isn't its creator)."""
    locked = services.lock(game)
    if locked.status != Game.Status.LOBBY:
        raise Refused(_("This game has already started."), code="started")
    if by is not None and locked.creator_id != by.pk:
        raise Refused(_("Only the game's creator can do that."), code="not_creator")
    return locked, list(locked.seats.select_related("player").order_by("position"))


def _free_position(game: Game, seats: Sequence[Seat]) -> int:
    taken = {seat.position for seat in seats}
    for position in range(lobby_size(game)):
        if position not in taken:
            return position
    raise Refused(_("Every seat is taken."), code="full")


def _add_bot(game: Game, seats: Sequence[Seat], at: int | None = None) -> Seat:
    used = {seat.player.name for seat in seats}
    name = next((n for n in BOT_NAMES if n not in used), f"Bot {len(seats) + 1}")
    player = Player.objects.create(name=name)
    position = _free_position(game, seats) if at is None else at
    return Seat.objects.create(game=game, position=position, player=player, is_bot=True)


def _take_seat(game: Game, seats: Sequence[Seat], user: User) -> Seat:
    """Seat `user` in the first free seat (their invitation, if any, is used up)."""
    seat = Seat.objects.create(
        game=game, position=_free_position(game, seats), player=Player.for_user(user)
    )
    Invitation.objects.filter(game=game, user=user).delete()
    bump(game)
    return seat


@transaction.atomic
def add_bot(game: Game, by: User) -> Seat:
    locked, seats = _lobby(game, by)
    seat = _add_bot(locked, seats)
    bump(locked)
    return seat


@transaction.atomic
def invite_user(game: Game, by: User, username: str) -> Invitation:
    """Invite a member by username: they see it on My games and accept or decline."""
    locked, seats = _lobby(game, by)
    user = find_member(username)
    if user is None:
        raise Refused(_("There is no player called “%(name)s”.") % {"name": isolated(username)})
    if seat_for_user(seats, user) is not None:
        raise Refused(
            _("%(name)s is already in this game.") % {"name": isolated(user.get_username())}
        )
    invited = list(locked.invitations.values_list("user_id", flat=True))
    if user.pk in invited:
        raise Refused(_("%(name)s is already invited.") % {"name": isolated(user.get_username())})
    if len(seats) + len(invited) >= lobby_size(locked):
        raise Refused(_("Every seat is taken or promised to someone invited."), code="full")
    invitation = Invitation.objects.create(game=locked, user=user, invited_by=by)
    bump(locked)
    return invitation


def no_invitation_message() -> str:
    return _("This invitation is no longer open.")


@transaction.atomic
def accept_invitation(game: Game | int, user: User) -> Seat:
    """Take a free seat as invited (the game still in the lobby, a seat still free)."""
    locked, seats = _lobby(game)
    # Under the game's lock: a start, a withdrawal or a decline in another tab has
    # either happened (no row) or waits for this one.
    if not Invitation.objects.filter(game=locked, user=user).exists():
        raise Refused(no_invitation_message(), code="no_invitation")
    return seat_for_user(seats, user) or _take_seat(locked, seats, user)


def _delete_invitation(locked: Game, **lookup: object) -> None:
    """Delete the locked game's invitation that matches, or refuse if it is gone."""
    deleted, _by_model = Invitation.objects.filter(game=locked, **lookup).delete()
    if not deleted:
        raise Refused(no_invitation_message(), code="no_invitation")
    bump(locked)


@transaction.atomic
def decline_invitation(game: Game | int, user: User) -> None:
    _delete_invitation(services.lock(game), user=user)


@transaction.atomic
def withdraw_invitation(game: Game, by: User, invitation_id: int) -> None:
    """The creator takes back an invitation nobody has answered yet."""
    locked, _seats = _lobby(game, by)
    _delete_invitation(locked, pk=invitation_id)


@transaction.atomic
def join(game: Game, user: User, token: str) -> Seat:
    """Take a free seat through the invite link; joining twice is harmless."""
    locked, seats = _lobby(game)
    if not token or not secrets.compare_digest(locked.invite_token, token):
        raise Refused(_("This invite link is no longer valid."), code="bad_token")
    return seat_for_user(seats, user) or _take_seat(locked, seats, user)


@transaction.atomic
def leave(game: Game, user: User) -> None:
    """A player leaves the lobby; the creator leaving cancels the game."""
    locked, seats = _lobby(game)
    if locked.creator_id == user.pk:
        bots = [seat.player_id for seat in seats if seat.is_bot]
        locked.delete()
        Player.objects.filter(pk__in=bots, user=None).delete()
        if locked.club_id is not None:
            bump_club(locked.club_id)
        return
    seat = seat_for_user(seats, user)
    if seat is not None:
        seat.delete()
        bump(locked)


@transaction.atomic
def remove_seat(game: Game, by: User, position: int) -> None:
    locked, seats = _lobby(game, by)
    seat = next((seat for seat in seats if seat.position == position), None)
    if seat is None or seat.player.user_id == by.pk:
        raise Refused(_("That seat can't be emptied."), code="bad_seat")
    seat.delete()
    if seat.is_bot:
        Player.objects.filter(pk=seat.player_id, user=None).delete()
    bump(locked)


@transaction.atomic
def revoke_link(game: Game, by: User) -> str:
    """A new invite token: the old link stops working at once."""
    locked, _seats = _lobby(game, by)
    locked.invite_token = secrets.token_urlsafe(16)
    bump(locked, "invite_token")
    return locked.invite_token


@transaction.atomic
def start_game(
    game: Game, by: User, *, fill_with_bots: bool = False, seed: int | None = None
) -> Game:
    """Deal round 1. Needs 2+ filled seats; `fill_with_bots` gives empty seats to bots."""
    locked, seats = _lobby(game, by)
    if fill_with_bots:
        while len(seats) < lobby_size(locked):
            seats.append(_add_bot(locked, seats))
            seats.sort(key=lambda seat: seat.position)
    if len(seats) < MIN_SEATS:
        raise Refused(_("At least two seats must be filled to start."), code="too_few")
    # Seats left empty close up, so positions are the engine's seats 0..n-1. Ascending
    # order never collides with the (game, position) unique constraint.
    for position, seat in enumerate(seats):
        if seat.position != position:
            seat.position = position
            seat.save(update_fields=["position"])
    # Whoever hasn't answered by now isn't playing: their invitations go.
    locked.invitations.all().delete()
    locked.seed = secrets.randbits(62) if seed is None else seed
    state = engine.new_game(
        [seat.player.name for seat in seats],
        game_rules(locked),
        seed=locked.seed,
        dealer=locked.first_dealer,
    )
    locked.status = Game.Status.ACTIVE
    locked.move_number = 0
    services.store(locked, seats, state, turn_ended=True)
    refresh_seats(seats, state.rules, state.standing)
    bump(locked, *services.GAME_FIELDS)
    outbox.after_move(locked, state, [], started=True)
    services.queue_bot_if_due(locked, seats, state)
    return locked


@transaction.atomic
def rematch(game: Game, by: User) -> Game:
    """The next game, in one tap from the finished board: a new lobby with the same
    rules and bots, the game's other people invited again (they accept, as any
    invitation; resigned seats are left open).

    Once set up it is the game's next game for everyone (`Game.next_game`): a second tap, another tab or another player of the game
    gets that same lobby, not a second one. Someone invited to it takes their seat; a
    next game that has started without them (or dropped them) is refused."""
    locked = services.lock(game)
    if locked.status != Game.Status.FINISHED:
        raise Refused(_("The game isn't over yet."), code="not_finished")
    seats = services.seats_of(locked)
    me = seat_for_user(seats, by)
    if me is None or me.resigned:
        raise Refused(_("You aren't playing in this game."), code="not_seated")
    if locked.next_game is not None:
        return _into_next_game(locked.next_game, by)
    people = [
        seat.player.user
        for seat in seats
        if not seat.is_bot and seat.player_id != me.player_id and seat.player.user is not None
    ]
    bots = sum(1 for seat in seats if seat.is_bot and not seat.resigned)
    new = create_game(
        by,
        name=locked.name,
        seats=len(seats),
        rules=game_rules(locked),
        time_limit=locked.time_limit,
        bots=bots,
        invite=people,
        rated=locked.rated,
        club=kept_club(locked, by),
    )
    locked.next_game = new
    bump(locked, "next_game")
    return new


def _into_next_game(following: Game, user: User) -> Game:
    """`user`'s way into a finished game's next game: their seat there, or the one
    their invitation holds for them."""
    if seat_for_user(services.seats_of(following), user) is not None:
        return following
    try:
        accept_invitation(following, user)
    except Refused as error:
        if error.code not in ("started", "no_invitation", "full"):
            raise
        raise Refused(_("The next game was set up without you."), code="left_out") from error
    return following
