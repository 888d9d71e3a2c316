"""The club page: what is under way and who it waits for, the recent games, the members
and guests, the forms; kept between requests and moved on by every change; a query
count that doesn't grow with the club."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from games.clubs import membership, seasons
from games.engine import Rules
from games.models import ClubMember, Game, Player
from games.nights import services as nights
from games.online import lobby
from games.stats import rating_ledger
from tests.clubs.membership_helpers import (
    club_night,
    finish,
    make_club,
    make_users,
    many_finished_nights,
)
from tests.nights.helpers import post_round
from tests.stats.factories import laid, make_game, missed

# The queries of a club page drawn anew (test_the_page_asks_the_same_few_queries_...).
DRAWN = 17
pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _client(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def _page(client: Client, club, language: str = "en") -> str:  # type: ignore[no-untyped-def]
    response = client.get(
        reverse("games:club_detail", args=[club.public_id]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    return response.content.decode()


def _body(html: str) -> str:
    return html.split('<div class="club">')[1].split("</main>")[0]


def _text(html: str) -> str:
    """The page's words, without tags (names are in <bdi>)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_a_stranger_gets_404_and_a_member_the_page(alice, bob, stranger):
    club = make_club(alice, bob)
    url = reverse("games:club_detail", args=[club.public_id])

    assert _client(stranger).get(url).status_code == 404
    assert _client(bob).get(url).status_code == 200
    assert _client(bob).get("/clubs/forged-id/").status_code == 404


def test_what_is_under_way_says_who_it_waits_for(alice, bob, carol):
    club = make_club(alice, bob, carol)
    night = club_night(club, alice, [Player.for_user(alice), Player.for_user(bob)])
    scorer = Client()
    scorer.force_login(alice)
    post_round(scorer, night, went_out=0, points=[0, 25], completed=[0])
    online = lobby.create_game(alice, seats=2, invite=[bob], club=club)
    lobby.accept_invitation(online, bob)
    online = lobby.start_game(online, alice, seed=7)
    waiting = lobby.create_game(carol, seats=3, club=club)
    online.refresh_from_db()
    since = date_format(timezone.localtime(online.turn_started_at), "SHORT_DATETIME_FORMAT")

    text = _text(_page(_client(carol), club))

    assert "alice keeps the score · round 2" in text
    assert f"Waiting for {online.current_player.name} since {since}" in text
    assert "Waiting for players: 1 of 3 seats taken" in text
    assert waiting.get_absolute_url() in _page(_client(carol), club)


def test_a_night_whose_scorer_deleted_their_account_says_only_the_round(alice, bob):
    club = make_club(alice, bob)
    night = club_night(club, bob, [Player.for_user(bob), "Dora"])
    Game.objects.filter(pk=night.pk).update(creator=None, version=night.version + 1)

    text = _text(_page(_client(alice), club))

    assert "Round 1" in text and "keeps the score" not in text


def test_the_recent_games_are_the_last_ten_finished_with_their_winners(alice, bob):
    club = make_club(alice, bob)
    players = [Player.for_user(alice), Player.for_user(bob)]
    many_finished_nights(club, players, 12)  # Night 0 finished today, Night 11 eleven days ago
    club_night(club, alice, players)  # under way: not among the finished

    html = _page(_client(bob), club)
    recent = html.split('id="club-recent"')[1].split("</section>")[0]

    assert [f"Night {n}<" in recent for n in range(12)] == [True] * 10 + [False] * 2
    assert _text(recent).count(" won · ") == 10
    assert "alice won" in _text(recent) and "bob won" in _text(recent)


def test_members_show_their_admins_and_guests_are_the_people_without_an_account_seated(
    alice, bob, carol
):
    club = make_club(alice, bob)
    club_night(club, alice, [Player.for_user(alice), "Dora", "Eve"], finished=True)
    club_night(club, alice, [Player.for_user(alice), "Dora"])  # alice's Dora again
    nights.create_game(  # not the club's: its guest isn't the club's
        alice, players=[Player.for_user(alice), "Zed"], first_dealer=0, rules=Rules()
    )
    bots = lobby.create_game(alice, seats=3, bots=1, club=club)  # a bot is nobody's guest
    membership.invite(club, alice, "carol")

    html = _page(_client(bob), club)
    members = html.split('id="club-members"')[1].split("<h3>")[0]

    assert re.findall(r"<li><bdi>(\w+)</bdi>(.*?)</li>", members) == [
        ("alice", ' <span class="pill ok">admin</span>'),
        ("bob", ""),
    ]
    text = _text(html)
    assert "Invited, waiting for an answer: carol" in text
    assert "Dora 2 games" in text and "Eve 1 game" in text
    assert "Zed" not in text
    bot_name = bots.seats.get(is_bot=True).player.name
    assert bot_name not in text.split("Guests")[1]


def test_only_admins_get_the_admin_forms_and_everyone_the_join_link(alice, bob):
    club = make_club(alice, bob)
    join = reverse("games:club_join", args=[club.invite_token])

    admin, member = _page(_client(alice), club), _page(_client(bob), club)

    assert join in admin and join in member
    assert reverse("games:club_invite", args=[club.public_id]) in member
    for name in ("club_make_admin", "club_new_link", "club_rename"):
        url = reverse(f"games:{name}", args=[club.public_id])
        assert url in admin and url not in member
    assert "{# season table: C2 #}" not in admin  # the spots for later are template comments


def test_the_kept_page_moves_on_with_a_game_a_member_and_a_name(alice, bob, carol):
    club = make_club(alice, bob)
    night = club_night(club, alice, [Player.for_user(alice), Player.for_user(bob)])
    client = _client(bob)
    assert "round 1" in _text(_page(client, club))
    assert _body(_page(client, club)) == _body(_page(client, club))  # kept, token and all

    scorer = Client()
    scorer.force_login(alice)
    post_round(scorer, night, went_out=0, points=[0, 25], completed=[0])
    assert "round 2" in _text(_page(client, club))

    finish(Game.objects.get(pk=night.pk))
    text = _text(_page(client, club))
    assert "No game is under way." in text and "alice won" in text

    membership.join(carol, club.invite_token)
    assert "<bdi>carol</bdi>" in _page(client, club)

    membership.rename(club, alice, "Saturday club")
    assert "<h1>Saturday club</h1>" in _page(client, club)


def test_each_language_gets_its_own_kept_page(alice):
    club = make_club(alice)
    client = _client(alice)

    english, finnish = _page(client, club, "en"), _page(client, club, "fi")

    assert "Members" in english and '<html lang="fi"' in finnish
    assert english.split("<main")[1] != finnish.split("<main")[1]


def test_the_kept_forms_token_is_good_for_the_next_post(alice, carol):
    club = make_club(alice)
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    _page(client, club)  # drawn and kept
    kept = _page(client, club)
    token = TOKEN.findall(kept.split('id="club-invite"')[1])[0]

    response = client.post(
        reverse("games:club_invite", args=[club.public_id]),
        {"username": "carol", "csrfmiddlewaretoken": token},
    )

    assert response.status_code == 302
    assert club.invitations.filter(user=carol).exists()


@pytest.mark.parametrize("size", [2, 20])
def test_the_page_asks_the_same_few_queries_however_big_the_club(
    alice, size, django_assert_num_queries
):
    others = make_users(f"member{size}-", size - 1)
    club = make_club(alice, *others)
    players = [Player.for_user(user) for user in [alice, *others]][:4]
    many_finished_nights(club, players, size)
    guests = [Player.objects.create(name=f"Guest {n}") for n in range(size)]
    many_finished_nights(club, guests[:2], size)
    for n in range(size // 2):
        club_night(club, alice, [Player.for_user(alice), f"Someone {n}"])
    # The season's row is made the first time anything asks for it (a page of the
    # club's or the beat job), once a year; here before the counted requests.
    seasons.current_season(club)
    client = _client(alice)
    client.get(reverse("games:club_list"))  # the session's language is read once

    # Drawn: the session, the user, the club with the membership and the ratings'
    # revision; then members, the season, its games' extent and its table; the records'
    # extent and their four queries; the members' ratings; under way, recent, guests
    # and invitations.
    with django_assert_num_queries(DRAWN):
        _page(client, club)
    # Kept: only the first three.
    with django_assert_num_queries(3):
        _page(client, club)
    assert ClubMember.objects.filter(club=club).count() == size


def test_a_ratings_run_draws_the_kept_page_again(alice, bob, django_assert_num_queries):
    """The members' ratings are written by a run after a game's last version bump, and
    ratings are global: a game outside the club moves the ratings the club page shows.
    The run moves the clubs of the people it rated on (rating_ledger `_moved_on`)."""
    club = make_club(alice, bob)
    seasons.current_season(club)
    client = _client(alice)
    client.get(reverse("games:club_list"))
    before = _ratings(_page(client, club))
    assert "–" in before  # nobody rated yet
    with django_assert_num_queries(3):
        _page(client, club)
    players = [Player.for_user(alice), Player.for_user(bob)]
    make_game(players, [[laid(1, out=True), missed(1, 30)]], winner=0)  # no club's
    rating_ledger.run()
    after = _ratings(_page(client, club))
    assert after != before and "provisional" in after
    with django_assert_num_queries(3):
        _page(client, club)


def _ratings(page: str) -> str:
    return page[page.index('<table class="season-ratings">') :].split("</table>")[0]
