"""Games that belong to a club: the "Club" choice of a new night, a new online game and
the BG Stats import; its default (the club of your latest game that had one); a club
night's seat list; rematches keep the club; a club you aren't in is refused."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from games.clubs import membership
from games.engine import Rules
from games.errors import Refused
from games.models import Game, Player, Seat
from games.nights import services as nights
from games.online import lobby
from tests.clubs.membership_helpers import club_night, finish, make_club
from tests.online.helpers import started_game

pytestmark = pytest.mark.django_db

NIGHT = reverse("games:night_create")
ONLINE = reverse("games:online_create")
IMPORT = reverse("games:import_bgstats")
ONLINE_FORM = {
    "seats": 2,
    "bots": 1,
    "phases": "all",
    "progression": "normal",
    "natural_card": "phase",
    "skip_target": "next",
}


def _client(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def _night_data(me: Player, club: object, guest: str = "Dora") -> dict[str, object]:
    return {
        "player_0": me.pk,
        "guest_1": guest,
        "first_dealer": 0,
        "phases": "all",
        "advance": "standard",
        "club": "" if club is None else club,
    }


# --- the default and the choices ----------------------------------------------------------


def test_the_club_choice_starts_at_the_club_of_your_latest_game_that_had_one(alice, bob):
    friday = make_club(alice, bob, name="Friday club")
    sunday = make_club(alice, name="Sunday club")
    club_night(sunday, alice, [Player.for_user(alice), "Dora"])
    club_night(friday, bob, [Player.for_user(bob), Player.for_user(alice)])  # latest
    nights.create_game(  # later still, but of no club
        alice, players=[Player.for_user(alice), "Eve"], first_dealer=0, rules=Rules()
    )
    client = _client(alice)

    for url in (NIGHT, ONLINE, IMPORT):
        form = client.get(url).context["form"]
        assert form["club"].initial == str(friday.pk), url
        assert [label for _value, label in form.fields["club"].choices] == [
            "No club",
            "Friday club",
            "Sunday club",
        ]
    chosen = client.get(NIGHT, {"club": sunday.public_id}).context["form"]
    assert chosen["club"].initial == str(sunday.pk)


def test_a_club_you_left_is_no_longer_the_default(alice, bob):
    club = make_club(alice, bob)
    club_night(club, bob, [Player.for_user(bob), Player.for_user(alice)])
    membership.leave(club, alice)

    form = _client(alice).get(NIGHT).context["form"]

    assert form["club"].initial == ""
    assert form.fields["club"].choices == [("", "No club")]


def test_someone_in_no_club_gets_a_hidden_choice(alice):
    html = _client(alice).get(NIGHT).content.decode()

    assert '<input type="hidden" name="club"' in html
    assert "No club" not in html


# --- a new night ---------------------------------------------------------------------------


def test_a_night_set_up_for_a_club_is_the_clubs(alice):
    club = make_club(alice)
    me = Player.for_user(alice)

    response = _client(alice).post(NIGHT, _night_data(me, club.pk))

    assert response.status_code == 302
    assert Game.objects.get().club == club


@pytest.mark.parametrize("forged", ["other", "9999", "x"])
def test_a_night_for_a_club_you_arent_in_is_refused_and_nothing_is_saved(alice, bob, forged):
    others = make_club(bob, name="Bob's club")
    value = {"other": others.pk, "9999": 9999, "x": "x"}[forged]

    response = _client(alice).post(NIGHT, _night_data(Player.for_user(alice), value))

    assert response.status_code == 200
    assert response.context["form"].errors["club"] == ["You aren't in that club."]
    assert not Game.objects.exists()


def test_the_services_refuse_a_club_the_creator_isnt_in(alice, bob):
    others = make_club(bob, name="Bob's club")

    with pytest.raises(Refused):
        nights.create_game(
            alice,
            players=[Player.for_user(alice), "Dora"],
            first_dealer=0,
            rules=Rules(),
            club=others,
        )
    with pytest.raises(Refused):
        lobby.create_game(alice, seats=2, club=others)
    assert not Game.objects.exists()


def test_a_club_night_offers_the_clubs_members_and_guests_first(alice, bob, carol):
    club = make_club(alice, bob)  # bob never played with alice
    club_night(club, alice, [Player.for_user(alice), "Dora"], finished=True)
    nights.create_game(  # alice's other table: carol and a guest Zara
        alice,
        players=[Player.for_user(alice), Player.for_user(carol), "Zara"],
        first_dealer=0,
        rules=Rules(),
    )
    client = _client(alice)

    plain = client.get(NIGHT).context["form"]  # the club is the default: it's her last
    outside = client.get(NIGHT, {"club": "none-of-hers"}).context["form"]
    labels = [label for _value, label in plain.fields["player_1"].choices][2:]

    assert labels == ["bob", "Dora (guest)", "carol", "Zara (guest)"]
    assert plain["club"].initial == str(club.pk) and outside["club"].initial == str(club.pk)


def test_a_club_member_who_never_played_with_you_is_asked_first(alice, bob):
    club = make_club(alice, bob)
    bobs = Player.for_user(bob)
    data = _night_data(Player.for_user(alice), club.pk) | {"guest_1": "", "player_1": bobs.pk}

    response = _client(alice).post(NIGHT, data)

    assert response.status_code == 302
    seat = Seat.objects.get(player=bobs)
    assert seat.game.club == club and not seat.accepted


def test_a_rematch_keeps_the_club(alice):
    club = make_club(alice)
    old = club_night(club, alice, [Player.for_user(alice), "Dora"], finished=True)

    new = nights.rematch(old, alice, version=old.version)

    assert new.club == club


def test_a_rematch_by_someone_who_left_the_club_is_of_no_club(alice, bob):
    club = make_club(alice, bob)
    old = club_night(club, bob, [Player.for_user(bob), "Dora"], finished=True)
    membership.leave(club, bob)

    new = nights.rematch(old, bob, version=old.version)

    assert new.club is None and Game.objects.get(pk=old.pk).club == club


# --- a new online game ---------------------------------------------------------------------


def test_an_online_game_set_up_for_a_club_is_the_clubs(alice):
    club = make_club(alice)

    response = _client(alice).post(ONLINE, ONLINE_FORM | {"club": club.pk})

    assert response.status_code == 302, response.context["form"].errors
    assert Game.objects.get().club == club


def test_an_online_game_for_a_club_you_arent_in_is_refused(alice, bob):
    others = make_club(bob, name="Bob's club")

    response = _client(alice).post(ONLINE, ONLINE_FORM | {"club": others.pk})

    assert response.context["form"].errors["club"] == ["You aren't in that club."]
    assert not Game.objects.exists()


def test_next_game_keeps_the_club(alice, bob):
    club = make_club(alice, bob)
    game = started_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(club=club)
    game = finish(Game.objects.get(pk=game.pk))

    new = lobby.rematch(game, bob)

    assert new.club == club


# --- the BG Stats import -------------------------------------------------------------------


def _export() -> bytes:
    return json.dumps(
        {
            "players": [{"id": 1, "name": "alice"}, {"id": 2, "name": "Dora"}],
            "locations": [],
            "games": [{"id": 1, "name": "Phase 10", "bggId": 1258}],
            "plays": [
                {
                    "uuid": "play-1",
                    "gameRefId": 1,
                    "playDate": "2024-05-01 20:00:00",
                    "playerScores": [
                        {"playerRefId": 1, "score": "120", "winner": True},
                        {"playerRefId": 2, "score": "250", "winner": False},
                    ],
                }
            ],
        }
    ).encode()


def _upload(client: Client, club: object) -> object:
    file = SimpleUploadedFile("BGStatsExport.json", _export(), content_type="application/json")
    return client.post(IMPORT, {"file": file, "own_name": "alice", "club": club})


def test_imported_nights_become_the_clubs(alice):
    club = make_club(alice)

    response = _upload(_client(alice), club.pk)

    assert response.status_code == 302
    assert [game.club for game in Game.objects.all()] == [club]


def test_an_import_into_a_club_you_arent_in_is_refused_and_imports_nothing(alice, bob):
    others = make_club(bob, name="Bob's club")

    response = _upload(_client(alice), others.pk)

    assert response.context["form"].errors["club"] == ["You aren't in that club."]
    assert not Game.objects.exists()
