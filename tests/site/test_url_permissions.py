"""Who may open what: every URL pattern the project resolves, asked by four people —
anonymous, a stranger (an account with no part in the object), a participant (seated,
invited, the one a token or a claim is for) and the owner (the creator, the scorer) —
on real objects: a game night, online games in the lobby, active and finished, a share
link, an invite link, an invitation, a guest claim, signed tokens.

A URL pattern with no rows fails `test_every_url_pattern_has_rows`, listing it: add its
rows to ROWS (who gets which status), or to SKIPPED with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any
from uuid import uuid4

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts import claims
from accounts.emails import verification_token
from games.clubs import membership, seasons, tv
from games.engine import Rules
from games.models import Club, ClubMember, Game, Invitation, Player, Season, YearShare
from games.nights import services as nights
from games.notify.emails import unsubscribe_token
from games.online import lobby
from tests.conftest import PASSWORD
from tests.nights.helpers import post_round
from tests.online.helpers import started_game
from tests.site.test_csp import inline_code

pytestmark = pytest.mark.django_db

ANONYMOUS, STRANGER, PARTICIPANT, OWNER = "anonymous", "stranger", "participant", "owner"
PERSONAS = (ANONYMOUS, STRANGER, PARTICIPANT, OWNER)

# Route prefixes and URL names left out, with the reason.
SKIPPED_PREFIXES = {
    "admin/": "Django's admin: staff only behind its own login (tests/site/test_admin.py)",
    "static/": "static files: public by nature",
    "media/": "uploaded files: the site has none",
}
SKIPPED = {
    "set_language": "Django's own i18n view: no object behind it, anyone may switch language "
    "(tests/site/test_pages.py)",
}


# --- the URL patterns -----------------------------------------------------------------------


def url_patterns(
    patterns: Sequence[URLPattern | URLResolver] | None = None,
    prefix: str = "",
    namespace: str = "",
) -> Iterator[tuple[str, str]]:
    """(route, key) of every pattern, include()s walked; the key is the namespaced name,
    or "route:<route>" for a pattern without a name."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            inner = ":".join(part for part in (namespace, pattern.namespace or "") if part)
            yield from url_patterns(pattern.url_patterns, route, inner)
        elif pattern.name:
            yield route, f"{namespace}:{pattern.name}" if namespace else pattern.name
        else:
            yield route, f"route:{route}"


def checked_patterns() -> dict[str, str]:
    """key -> route of every pattern this test must have rows for."""
    return {
        key: route
        for route, key in url_patterns()
        if not route.startswith(tuple(SKIPPED_PREFIXES)) and key not in SKIPPED
    }


# --- the objects ----------------------------------------------------------------------------


def _user(username: str):  # type: ignore[no-untyped-def]
    user = get_user_model().objects.create_user(
        username=username, email=f"{username}@example.com", password=PASSWORD
    )
    user.profile.email_verified = True
    user.profile.save()
    return user


class World:
    """The objects rows are about, each made on first use: alice owns, bob takes part,
    the stranger has an account and nothing else; carol is a bystander some objects need."""

    def __init__(self, alice, bob, stranger) -> None:  # type: ignore[no-untyped-def]
        self.owner, self.participant, self.stranger = alice, bob, stranger
        self.people = {ANONYMOUS: None, STRANGER: stranger, PARTICIPANT: bob, OWNER: alice}

    @cached_property
    def carol(self):  # type: ignore[no-untyped-def]
        return _user("carol")

    # Game nights: alice keeps score; bob plays in the first one.
    @cached_property
    def night(self) -> Game:
        players = [Player.for_user(self.owner), Player.for_user(self.participant), "Dora"]
        game = nights.create_game(self.owner, players=players, first_dealer=0, rules=Rules())
        scorer = Client()
        scorer.force_login(self.owner)
        post_round(scorer, game, went_out=0, points=[0, 25, 50], completed=[0])
        game.refresh_from_db()
        return game

    @cached_property
    def alice_player(self) -> Player:
        """alice's Player, once she and bob have finished a game together."""
        self.finished  # noqa: B018
        return Player.for_user(self.owner)

    @cached_property
    def guest(self) -> Player:
        """A guest at the night with bob."""
        return self.night.seats.get(player__name="Dora").player

    def _night_with_guest(self, name: str) -> Player:
        self.night  # noqa: B018  (alice and bob have played together: the night above)
        game = nights.create_game(
            self.owner, players=[Player.for_user(self.owner), name], first_dealer=0, rules=Rules()
        )
        return game.seats.get(position=1).player

    @cached_property
    def lone_guest(self) -> Player:
        """A guest at one of alice's nights without bob: someone alice may invite bob to be."""
        return self._night_with_guest("Eve")

    @cached_property
    def lookalike(self) -> Player:
        """A guest with bob's name at a night of alice's (bob wasn't there): suggested to bob."""
        return self._night_with_guest("bob")

    @cached_property
    def claim(self) -> claims.GuestClaim:
        """alice invites bob to take over the guest Eve's games."""
        return claims.invite(self.owner, self.lone_guest, self.participant.get_username())

    # Online games, alice's: bob sits in each (the active game: his turn first).
    @cached_property
    def lobby(self) -> Game:
        """Four seats: alice, bob; carol invited; one free."""
        game = lobby.create_game(self.owner, seats=4, invite=[self.participant, self.carol])
        lobby.accept_invitation(game, self.participant)
        game.refresh_from_db()
        return game

    @cached_property
    def carols_invitation(self) -> Invitation:
        return Invitation.objects.get(game=self.lobby, user=self.carol)

    @cached_property
    def invited(self) -> Game:
        """bob is invited to this lobby and hasn't answered."""
        return lobby.create_game(self.owner, seats=3, invite=[self.participant])

    @cached_property
    def active(self) -> Game:
        game = started_game(self.owner, self.participant, seed=7)
        game.refresh_from_db()
        return game

    @cached_property
    def finished(self) -> Game:
        game = started_game(self.owner, self.participant, seed=8)
        Game.objects.filter(pk=game.pk).update(
            status=Game.Status.FINISHED, finished_at=timezone.now()
        )
        game.refresh_from_db()
        return game

    # A club (games/clubs/): alice is its admin, bob a member; its current season exists.
    @cached_property
    def seasons_club(self) -> Club:
        club = Club.objects.create(name="Thursday Club", created_by=self.owner)
        ClubMember.objects.create(club=club, user=self.owner, is_admin=True)
        ClubMember.objects.create(club=club, user=self.participant)
        seasons.current_season(club)
        club.refresh_from_db()
        return club

    # Clubs: alice made them; bob is a member of the first and invited to the second.
    @cached_property
    def club(self) -> Club:
        club = membership.create_club(self.owner, "Friday club")
        membership.join(self.participant, club.invite_token)
        club.refresh_from_db()
        return club

    @cached_property
    def season(self) -> Season:
        return seasons.current_season(self.seasons_club)

    # Clubs' records and years (part C3): alice's club, bob a member.
    @cached_property
    def records_club(self):  # type: ignore[no-untyped-def]
        from tests.clubs.records_helpers import make_club

        return make_club("Records club", self.owner, self.participant)

    @cached_property
    def year_share(self) -> YearShare:
        """The link to alice's year, this year (her Player made: sharing asks for games)."""
        Player.for_user(self.owner)
        return YearShare.objects.create(user=self.owner, year=timezone.localdate().year)

    @cached_property
    def bobs_membership(self) -> ClubMember:
        return ClubMember.objects.get(club=self.club, user=self.participant)

    @cached_property
    def inviting_club(self) -> Club:
        club = membership.create_club(self.owner, "Sunday club")
        membership.invite(club, self.owner, self.participant.get_username())
        return club

    # Signed links, all bob's.
    @cached_property
    def unsubscribe(self) -> str:
        return unsubscribe_token(self.participant, self.active)

    @cached_property
    def reset(self) -> tuple[str, str]:
        user = self.participant
        return urlsafe_base64_encode(force_bytes(user.pk)), default_token_generator.make_token(user)


# --- what each person gets ------------------------------------------------------------------


@dataclass(frozen=True)
class Go:
    """A redirect to exactly this place (a plain 302 in a row: any place; for anonymous,
    a plain 302 must be the log-in page)."""

    to: Callable[[World], str]


Expected = int | Go
LOGIN = 302


def expect(anonymous: Expected, stranger: Expected, participant: Expected, owner: Expected):  # type: ignore[no-untyped-def]
    return {ANONYMOUS: anonymous, STRANGER: stranger, PARTICIPANT: participant, OWNER: owner}


def everyone(status: Expected) -> dict[str, Expected]:
    return expect(status, status, status, status)


# The usual page: log in first; an account without a part gets 404 (the object's
# existence doesn't leak); the participant and the owner get it.
MEMBERS = expect(LOGIN, 404, 200, 200)
LOGGED_IN = expect(LOGIN, 200, 200, 200)


@dataclass(frozen=True)
class Row:
    name: str
    expected: Mapping[str, Expected]
    args: Callable[[World], Sequence[Any]] = lambda world: ()
    method: str = "get"
    data: Callable[[World], dict[str, Any]] = lambda world: {}
    about: str = ""
    htmx: bool = False
    id: str = field(init=False)

    def __post_init__(self) -> None:
        label = f"{self.name}[{self.about}]" if self.about else self.name
        object.__setattr__(self, "id", f"{label}-{self.method}")
        assert set(self.expected) == set(PERSONAS), f"{self.id}: a status for each of {PERSONAS}"


def night_id(world: World) -> list[Any]:
    return [world.night.public_id]


def version(game: str) -> Callable[[World], dict[str, Any]]:
    return lambda world: {"version": getattr(world, game).version}


def night_round(world: World) -> dict[str, Any]:
    night = world.night
    return {
        "version": night.version,
        "went_out": 1,
        "points_0": 10,
        "points_1": 0,
        "points_2": 35,
        "completed_1": "on",
    }


def game_id(game: str) -> Callable[[World], list[Any]]:
    return lambda world: [getattr(world, game).public_id]


def game_url(game: str) -> Callable[[World], str]:
    return lambda world: getattr(world, game).get_absolute_url()


def saved_round_url(night: Any) -> str:
    return f"{night.get_absolute_url()}?saved={night.rounds_played + 1}#round-summary"


def chat_url(game: str) -> Callable[[World], str]:
    return lambda world: getattr(world, game).get_absolute_url() + "#chat"


def watch_token(game: str) -> Callable[[World], list[Any]]:
    """The game's spectator link token (made on first use)."""

    def token(world: World) -> list[Any]:
        watched = getattr(world, game)
        if not watched.spectator_token:
            watched.spectator_token = f"watch-{game}"
            Game.objects.filter(pk=watched.pk).update(spectator_token=watched.spectator_token)
        return [watched.spectator_token]

    return token


def to(name: str) -> Callable[[World], str]:
    return lambda world: reverse(name)


def this_year_review(world: World) -> str:
    return reverse("games:year_review", args=[timezone.localdate().year])


def club_id(club: str = "club") -> Callable[[World], list[Any]]:
    return lambda world: [getattr(world, club).public_id]


def club_page(club: str = "club") -> Go:
    return Go(lambda world: reverse("games:club_detail", args=club_id(club)(world)))


CLUBS = Go(to("games:club_list"))
# A change to the club: a stranger gets 404, a member goes back to the club's page (a
# member who isn't an admin with the sentence that says no).
CLUB_CHANGE = expect(LOGIN, 404, club_page(), club_page())


SET_PASSWORD = Go(
    lambda world: reverse("accounts:password_reset_confirm", args=[world.reset[0], "set-password"])
)

ROWS: list[Row] = [
    # --- the site ---
    Row("home", everyone(200)),
    Row("rules", everyone(200)),
    Row("healthz", everyone(200)),
    Row("games:service_worker", everyone(200)),
    Row("games:offline", everyone(200)),
    # --- accounts: each person's own, whoever they are ---
    Row("accounts:signup", expect(200, Go(to("home")), Go(to("home")), Go(to("home")))),
    Row("accounts:login", expect(200, 302, 302, 302)),
    Row("accounts:logout", everyone(Go(to("home"))), method="post"),
    Row("accounts:profile", LOGGED_IN),
    Row("accounts:profile_identity", LOGGED_IN, method="post", about="empty form"),
    Row("accounts:profile_notifications", LOGGED_IN, method="post", about="empty form"),
    Row("accounts:profile_time_zone", expect(LOGIN, 302, 302, 302), method="post"),
    Row("accounts:profile_delete", LOGGED_IN),
    Row("accounts:profile_delete", LOGGED_IN, method="post", about="no password"),
    Row("accounts:away", LOGGED_IN),
    Row("accounts:away", LOGGED_IN, method="post", about="empty form"),
    Row("accounts:away_end", expect(LOGIN, *[Go(to("accounts:away"))] * 3), method="post"),
    Row("games:stats", everyone(200)),
    Row("games:leaderboard", LOGGED_IN),
    Row("games:export_games_csv", LOGGED_IN),
    Row("games:export_rounds_csv", LOGGED_IN),
    Row("games:export_ratings_csv", LOGGED_IN),
    Row("games:import_bgstats", LOGGED_IN),
    Row("games:import_bgstats", LOGGED_IN, method="post", about="no file"),
    Row("games:export_game_json", MEMBERS, args=game_id("finished"), about="finished"),
    Row("games:export_game_json", expect(LOGIN, 404, 404, 404), game_id("active"), about="active"),
    Row("accounts:claims", LOGGED_IN),
    Row("accounts:resend_verification", expect(LOGIN, 302, 302, 302), method="post"),
    Row("accounts:password_change", LOGGED_IN),
    Row("accounts:password_change_done", LOGGED_IN),
    Row("accounts:password_reset", everyone(200)),
    Row("accounts:password_reset_done", everyone(200)),
    Row("accounts:password_reset_complete", everyone(200)),
    # Signed links: the token is the credential, whoever follows it.
    Row(
        "accounts:verify_email",
        everyone(Go(to("home"))),
        args=lambda world: [verification_token(world.participant)],
        about="bob's link",
    ),
    Row(
        "accounts:password_reset_confirm",
        # On to the set-password form (the token goes into the session); for bob, logging
        # in since the link was made voided it (the token covers his last log-in).
        expect(SET_PASSWORD, SET_PASSWORD, 200, SET_PASSWORD),
        args=lambda world: list(world.reset),
        about="bob's link",
    ),
    Row(
        "accounts:password_reset_confirm",
        everyone(200),  # "The link was invalid"
        args=lambda world: [world.reset[0], "1-not-a-token"],
        about="forged",
    ),
    # Players' pages: only people who played together.
    Row(
        "games:player_stats",
        expect(LOGIN, 404, 200, Go(to("games:stats"))),
        args=lambda world: [world.alice_player.pk],
        about="alice",
    ),
    Row("games:player_stats", MEMBERS, args=lambda world: [world.guest.pk], about="guest"),
    # Guest claims: the scorer invites; the invited answers; a look-alike asks.
    Row(
        "accounts:invite_guest",
        expect(
            LOGIN,
            404,
            404,
            Go(lambda world: reverse("games:player_stats", args=[world.lone_guest.pk])),
        ),
        args=lambda world: [world.lone_guest.pk],
        method="post",
        data=lambda world: {"who": world.carol.get_username()},
    ),
    Row(
        "accounts:request_claim",
        expect(LOGIN, 404, Go(to("accounts:claims")), 404),
        args=lambda world: [world.lookalike.pk],
        method="post",
    ),
    Row(
        "accounts:claim_accept",
        expect(LOGIN, 404, Go(to("accounts:claims")), 404),
        args=lambda world: [world.claim.pk],
        method="post",
    ),
    Row(
        "accounts:claim_decline",
        expect(LOGIN, 404, Go(to("accounts:claims")), 404),
        args=lambda world: [world.claim.pk],
        method="post",
    ),
    # --- game nights: alice scores, bob is seated (he may look, not change) ---
    Row("games:night_list", LOGGED_IN),
    Row("games:night_create", LOGGED_IN),
    Row("games:night_detail", MEMBERS, args=night_id),
    Row(
        "games:night_add_round",
        # The saved round's summary, on the game's page.
        expect(LOGIN, 404, 404, Go(lambda world: saved_round_url(world.night))),
        args=night_id,
        method="post",
        data=night_round,
    ),
    Row(
        "games:night_queued_round",
        expect(LOGIN, 404, 404, 200),  # 200: the JSON answer "applied"
        args=night_id,
        method="post",
        data=lambda world: night_round(world) | {"key": str(uuid4()), "number": 2},
    ),
    Row(
        "games:night_edit_round",
        expect(LOGIN, 404, 404, 200),
        args=lambda world: [world.night.public_id, 1],
    ),
    Row(
        "games:night_edit_round",
        expect(LOGIN, 404, 404, Go(game_url("night"))),
        args=lambda world: [world.night.public_id, 1],
        method="post",
        data=night_round,
    ),
    Row(
        "games:night_edit_round",
        expect(LOGIN, 404, 404, 404),
        args=lambda world: [world.night.public_id, 9],
        about="no such round",
    ),
    Row(
        "games:night_undo",
        expect(LOGIN, 404, 404, Go(game_url("night"))),
        args=night_id,
        method="post",
        data=version("night"),
    ),
    Row(
        "games:night_tiebreak",
        expect(LOGIN, 404, 404, 200),  # 200: "No tie-breaker round is due."
        args=night_id,
        method="post",
        data=lambda world: {"version": world.night.version, "winner": 0},
    ),
    Row(
        "games:night_co_scorer",
        expect(LOGIN, 404, 404, Go(game_url("night"))),
        args=night_id,
        method="post",
        data=lambda world: {"version": world.night.version, "username": world.carol.username},
    ),
    Row(
        "games:night_rematch",
        expect(LOGIN, 404, 404, 302),
        args=night_id,
        method="post",
        data=version("night"),
    ),
    Row(
        "games:night_seat_answer",  # nothing waits for bob's or alice's answer: a message
        expect(LOGIN, 404, Go(game_url("night")), Go(game_url("night"))),
        args=night_id,
        method="post",
        data=lambda world: {"answer": "accept"},
    ),
    # The share link: whoever has it, logged in or not.
    Row("games:night_tv", everyone(200), args=lambda world: [world.night.share_token]),
    Row("games:night_tv", everyone(404), args=lambda world: ["not-the-token"], about="forged"),
    Row(
        "games:night_tv_live",
        everyone(204),
        args=lambda world: [world.night.share_token],
        data=version("night"),
        about="unchanged",
    ),
    Row("games:night_share", everyone(200), args=lambda world: [world.night.share_token]),
    Row("games:night_share", everyone(404), args=lambda world: ["not-the-token"], about="forged"),
    Row(
        "games:night_share_live",
        everyone(200),
        args=lambda world: [world.night.share_token],
        data=lambda world: {"version": 0},
    ),
    Row(
        "games:night_share_live",
        everyone(204),
        args=lambda world: [world.night.share_token],
        data=version("night"),
        about="unchanged",
    ),
    # --- a club's seasons: alice is its admin, bob a member ---
    Row("games:club_season", MEMBERS, args=lambda world: [world.seasons_club.public_id]),
    Row(
        "games:club_season_detail",
        MEMBERS,
        args=lambda world: [world.seasons_club.public_id, world.season.pk],
    ),
    Row(
        "games:club_season_detail",
        expect(LOGIN, 404, 404, 404),
        args=lambda world: [world.seasons_club.public_id, world.season.pk + 1000],
        about="no such season",
    ),
    Row(
        "games:club_season_settings",
        # Only admins: a member gets 404 as a stranger does.
        expect(
            LOGIN,
            404,
            404,
            Go(
                lambda world: reverse(
                    "games:club_season_detail", args=[world.seasons_club.public_id, world.season.pk]
                )
            ),
        ),
        args=lambda world: [world.seasons_club.public_id, world.season.pk],
        method="post",
        data=lambda world: {
            "name": "Summer",
            "starts": world.season.starts.isoformat(),
            "ends": world.season.ends.isoformat(),
            "points": "3, 2, 1",
            "version": world.seasons_club.version,
        },
    ),
    Row("games:club_tv", MEMBERS, args=lambda world: [world.seasons_club.public_id]),
    Row(
        "games:club_tv_live",
        MEMBERS,
        args=lambda world: [world.seasons_club.public_id],
        data=lambda world: {"version": "0"},
    ),
    Row(
        "games:club_tv_live",
        expect(LOGIN, 404, 204, 204),
        args=lambda world: [world.seasons_club.public_id],
        data=lambda world: {"version": tv.live_version(world.seasons_club)},
        about="unchanged",
    ),
    # --- clubs: alice is the admin, bob a member ---
    Row("games:club_list", LOGGED_IN),
    Row("games:club_create", expect(LOGIN, CLUBS, CLUBS, CLUBS)),
    Row(
        "games:club_create",
        expect(LOGIN, 302, 302, 302),  # to the new club's page
        method="post",
        data=lambda world: {"name": "Tuesday club"},
    ),
    Row("games:club_create", LOGGED_IN, method="post", about="no name"),
    Row("games:club_detail", MEMBERS, args=club_id()),
    Row(
        "games:club_join",
        expect(LOGIN, 200, club_page(), club_page()),
        args=lambda world: [world.club.invite_token],
    ),
    Row(
        "games:club_join",
        expect(LOGIN, club_page(), club_page(), club_page()),
        args=lambda world: [world.club.invite_token],
        method="post",
    ),
    Row("games:club_join", expect(LOGIN, 404, 404, 404), args=lambda world: ["forged"]),
    Row(
        "games:club_invite",
        CLUB_CHANGE,
        args=club_id(),
        method="post",
        data=lambda world: {"username": world.carol.get_username()},
    ),
    Row(
        "games:club_accept_invitation",
        # alice is in the club already: accepting is harmless; the stranger has none.
        expect(LOGIN, CLUBS, club_page("inviting_club"), club_page("inviting_club")),
        args=club_id("inviting_club"),
        method="post",
    ),
    Row(
        "games:club_decline_invitation",
        expect(LOGIN, CLUBS, CLUBS, CLUBS),
        args=club_id("inviting_club"),
        method="post",
    ),
    Row("games:club_leave", MEMBERS, args=club_id()),
    Row("games:club_leave", expect(LOGIN, 404, CLUBS, CLUBS), args=club_id(), method="post"),
    Row(
        "games:club_make_admin",
        CLUB_CHANGE,
        args=club_id(),
        method="post",
        data=lambda world: {"member": world.bobs_membership.pk},
    ),
    Row("games:club_new_link", CLUB_CHANGE, args=club_id(), method="post"),
    Row(
        "games:club_rename",
        CLUB_CHANGE,
        args=club_id(),
        method="post",
        data=lambda world: {"name": "Friday night club"},
    ),
    # --- online games: alice created them, bob has a seat ---
    Row("games:online_list", LOGGED_IN),
    Row("games:online_create", LOGGED_IN),
    Row(
        "games:online_join",
        expect(LOGIN, 200, Go(game_url("lobby")), Go(game_url("lobby"))),
        args=lambda world: [world.lobby.invite_token],
        about="lobby",
    ),
    Row(
        "games:online_join",
        expect(LOGIN, 404, Go(game_url("active")), Go(game_url("active"))),
        args=lambda world: [world.active.invite_token],
        about="started",
    ),
    Row("games:online_join", expect(LOGIN, 404, 404, 404), args=lambda world: ["forged"]),
    *(
        Row("games:online_detail", MEMBERS, args=game_id(game), about=game)
        for game in ("lobby", "active", "finished")
    ),
    Row(
        "games:online_poll",
        MEMBERS,
        args=game_id("lobby"),
        data=lambda world: {"in": "lobby", "v": 0},
        about="lobby",
    ),
    Row(
        "games:online_poll",
        MEMBERS,
        args=game_id("active"),
        data=lambda world: {"v": 0},
        about="active",
    ),
    Row(
        "games:online_poll",
        expect(LOGIN, 404, 204, 204),
        args=game_id("active"),
        data=lambda world: {"v": world.active.version},  # what the page shows: nothing new
        about="unchanged",
        htmx=True,
    ),
    Row(
        "games:online_poll",
        MEMBERS,
        args=game_id("finished"),
        data=lambda world: {"v": 0},
        about="finished",
    ),
    # A move: bob's turn; alice is told it isn't hers.
    Row(
        "games:online_act",
        expect(LOGIN, 404, Go(game_url("active")), 200),
        args=game_id("active"),
        method="post",
        data=lambda world: {"move": 0, "do": "draw"},
        about="active",
    ),
    Row(
        "games:online_act",
        expect(LOGIN, 404, 200, 200),
        args=game_id("finished"),
        method="post",
        data=lambda world: {"move": world.finished.move_number, "do": "draw"},
        about="finished",
    ),
    Row(
        "games:online_act",
        expect(LOGIN, 404, Go(game_url("lobby")), Go(game_url("lobby"))),
        args=game_id("lobby"),
        method="post",
        data=lambda world: {"move": 0, "do": "draw"},
        about="lobby",
    ),
    Row("games:online_hint", MEMBERS, args=game_id("active"), about="active"),
    Row(
        "games:online_hint",
        expect(LOGIN, 404, Go(game_url("lobby")), Go(game_url("lobby"))),
        args=game_id("lobby"),
        about="lobby",
    ),
    Row(
        "games:online_sort",
        expect(LOGIN, 404, Go(game_url("active")), Go(game_url("active"))),
        args=game_id("active"),
        method="post",
        data=lambda world: {"sort": "colour"},
    ),
    Row(
        "games:online_resign",
        expect(LOGIN, 404, Go(game_url("active")), Go(game_url("active"))),
        args=game_id("active"),
        method="post",
        about="active",
    ),
    Row(
        "games:online_resign",
        expect(LOGIN, 404, 200, 200),  # 200: the board says the game is over
        args=game_id("finished"),
        method="post",
        about="finished",
    ),
    Row(
        "games:online_rematch",
        expect(LOGIN, 404, 302, 302),  # to the new game's lobby
        args=game_id("finished"),
        method="post",
        data=version("finished"),
        about="finished",
    ),
    Row(
        "games:online_rematch",
        expect(LOGIN, 404, 200, 200),  # 200: "The game isn't over yet."
        args=game_id("active"),
        method="post",
        data=version("active"),
        about="active",
    ),
    # The lobby: only its creator changes it; bob may leave.
    Row(
        "games:online_start",
        expect(LOGIN, 404, 200, Go(game_url("lobby"))),
        args=game_id("lobby"),
        method="post",
    ),
    Row(
        "games:online_leave",
        expect(LOGIN, 404, Go(to("games:online_list")), Go(to("games:online_list"))),
        args=game_id("lobby"),
        method="post",
        about="lobby",
    ),
    Row(
        "games:online_leave",
        expect(LOGIN, 404, 200, 200),  # 200: the refusal ("the game has started")
        args=game_id("active"),
        method="post",
        about="started",
    ),
    Row(
        "games:online_invite",
        expect(LOGIN, 404, 200, Go(game_url("lobby"))),
        args=game_id("lobby"),
        method="post",
        data=lambda world: {"username": world.stranger.get_username()},
    ),
    Row(
        "games:online_withdraw_invitation",
        expect(LOGIN, 404, 200, Go(game_url("lobby"))),
        args=lambda world: [world.lobby.public_id, world.carols_invitation.pk],
        method="post",
    ),
    Row(
        "games:online_revoke_link",
        expect(LOGIN, 404, 200, Go(game_url("lobby"))),
        args=game_id("lobby"),
        method="post",
    ),
    Row(
        "games:online_add_bot",
        expect(LOGIN, 404, 200, Go(game_url("lobby"))),
        args=game_id("lobby"),
        method="post",
    ),
    Row(
        "games:online_remove_seat",
        expect(LOGIN, 404, 200, Go(game_url("lobby"))),
        args=lambda world: [world.lobby.public_id, 1],  # bob's seat
        method="post",
    ),
    # An invitation by username: only the invited person's answer counts; anyone else
    # hears that there is no such invitation, the same for every game id.
    Row(
        "games:online_accept_invitation",
        expect(
            LOGIN, Go(to("games:online_list")), Go(game_url("invited")), Go(to("games:online_list"))
        ),
        args=game_id("invited"),
        method="post",
    ),
    Row(
        "games:online_decline_invitation",
        expect(
            LOGIN,
            Go(to("games:online_list")),
            Go(to("games:online_list")),
            Go(to("games:online_list")),
        ),
        args=game_id("invited"),
        method="post",
    ),
    # Pausing (online/pause_views.py): people seated vote or resume; the stranger gets 404.
    *[
        Row(
            f"games:online_{name}",
            expect(LOGIN, 404, Go(game_url(game)), Go(game_url(game))),
            args=game_id(game),
            method="post",
            about=game,
        )
        for name in ("pause", "pause_decline", "resume")
        for game in ("active", "lobby")
    ],
    Row(
        "games:online_mute",
        expect(LOGIN, 404, Go(game_url("active")), Go(game_url("active"))),
        args=game_id("active"),
        method="post",
    ),
    # The chat: the people seated at a started game; a message after the end is refused
    # (the page says the chat closed), a lobby has none.
    Row(
        "games:online_chat",
        expect(LOGIN, 404, Go(chat_url("active")), Go(chat_url("active"))),
        args=game_id("active"),
        method="post",
        data=lambda world: {"text": "hello"},
        about="active",
    ),
    Row(
        "games:online_chat",
        expect(LOGIN, 404, 200, 200),
        args=game_id("finished"),
        method="post",
        data=lambda world: {"text": "gg"},
        about="finished",
    ),
    Row(
        "games:online_chat",
        expect(LOGIN, 404, 404, 404),
        args=game_id("lobby"),
        method="post",
        data=lambda world: {"text": "hello"},
        about="lobby",
    ),
    Row(
        "games:online_chat_hide",
        expect(LOGIN, 404, 200, 200),  # 200: only the creator hides; no such message
        args=game_id("active"),
        method="post",
        data=lambda world: {"message": 0},
    ),
    Row(
        "games:online_chat_mute",
        expect(LOGIN, 404, Go(chat_url("active")), 200),  # seat 0 is the owner's own
        args=game_id("active"),
        method="post",
        data=lambda world: {"seat": 0, "muted": "on"},
    ),
    # Watching (online/spectate_views.py): a replay once the game is over, for the people
    # seated; the spectator link, made by anyone seated, for whoever has it.
    Row("games:online_replay", MEMBERS, args=game_id("finished"), about="finished"),
    Row("games:online_replay", expect(LOGIN, 404, 404, 404), args=game_id("active"), about="on"),
    Row(
        "games:online_spectators",
        expect(LOGIN, 404, Go(game_url("active")), Go(game_url("active"))),
        args=game_id("active"),
        method="post",
        data=lambda world: {"do": "make"},
    ),
    Row("games:online_spectate", everyone(200), args=watch_token("active")),
    Row("games:online_spectate", everyone(404), args=lambda world: ["forged"], about="forged"),
    Row(
        "games:online_spectate_poll",
        everyone(204),
        args=watch_token("active"),
        data=lambda world: {"v": world.active.version},
        about="unchanged",
    ),
    Row(
        "games:online_spectate_poll",
        everyone(200),
        args=watch_token("active"),
        data=lambda world: {"v": 0},
    ),
    Row("games:online_spectate_replay", everyone(200), args=watch_token("finished")),
    Row("games:online_spectate_replay", everyone(404), args=watch_token("active"), about="on"),
    # A club's stats and year: its members only. A member's own year, and the link that
    # shares it: whoever has it, no log-in.
    Row("games:club_stats", MEMBERS, args=lambda world: [world.records_club.public_id]),
    Row(
        "games:club_year",
        MEMBERS,
        args=lambda world: [world.records_club.public_id, timezone.localdate().year],
    ),
    Row("games:year_review", LOGGED_IN, args=lambda world: [timezone.localdate().year]),
    *[
        Row(
            f"games:year_{name}",
            expect(LOGIN, *[Go(this_year_review)] * 3),  # a message says what happened
            args=lambda world: [timezone.localdate().year],
            method="post",
        )
        for name in ("share", "stop_sharing")
    ],
    Row("games:year_shared", everyone(200), args=lambda world: [world.year_share.token]),
    Row("games:year_shared", everyone(404), args=lambda world: ["forged"], about="forged"),
    # One-click unsubscribe: the signed token is the credential (RFC 8058), no session.
    Row("games:unsubscribe", everyone(200), args=lambda world: [world.unsubscribe]),
    Row("games:unsubscribe", everyone(200), args=lambda world: [world.unsubscribe], method="post"),
    Row("games:unsubscribe", everyone(400), args=lambda world: ["forged"], about="forged"),
]


# --- the tests ------------------------------------------------------------------------------


def test_every_url_pattern_has_rows():
    patterns = checked_patterns()
    covered = {row.name for row in ROWS}
    missing = sorted(f"{key}  ({route})" for key, route in patterns.items() if key not in covered)
    assert not missing, (
        "URL patterns without permission rows in tests/site/test_url_permissions.py — add "
        "what anonymous, stranger, participant and owner get to ROWS (or the pattern to "
        "SKIPPED with a reason):\n  " + "\n  ".join(missing)
    )
    gone = sorted(covered - set(patterns))
    assert not gone, f"rows for URL names that no longer exist: {gone}"


def _response(client: Client, row: Row, world: World):  # type: ignore[no-untyped-def]
    url = reverse(row.name, args=row.args(world))
    headers = {"HX-Request": "true"} if row.htmx else {}
    if row.method == "post":
        return client.post(url, row.data(world), headers=headers)
    return client.get(url, row.data(world), headers=headers)  # data: the query string


def _problem(persona: str, expected: Expected, response, world: World) -> str:  # type: ignore[no-untyped-def]
    status = response.status_code
    where = response.get("Location", "")
    if isinstance(expected, Go):
        if status != 302 or where != expected.to(world):
            return f"{persona}: expected a redirect to {expected.to(world)}, got {status} {where}"
    elif status != expected:
        return f"{persona}: expected {expected}, got {status} {where}"
    elif persona == ANONYMOUS and status == 302 and not where.startswith(reverse("accounts:login")):
        return f"{persona}: expected the log-in page, got a redirect to {where}"
    html = status == 200 and response.get("Content-Type", "").startswith("text/html")
    if html and (refused := inline_code(response.content.decode())):
        return f"{persona}: the page has what the Content-Security-Policy refuses: {refused}"
    return ""


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.id)
def test_who_gets_what(row, alice, bob, stranger):
    world = World(alice, bob, stranger)
    args = row.args(world), row.data(world)  # the objects exist before the first request
    assert args
    problems = []
    for persona in PERSONAS:
        # Each person on the same objects: what one changes is rolled back for the next.
        with transaction.atomic():
            client = Client()
            if world.people[persona] is not None:
                client.force_login(world.people[persona])
            response = _response(client, row, world)
            transaction.set_rollback(True)
        cache.clear()  # boards drawn for a version that was rolled back
        if problem := _problem(persona, row.expected[persona], response, world):
            problems.append(problem)
    assert not problems, f"{row.id}:\n  " + "\n  ".join(problems)
