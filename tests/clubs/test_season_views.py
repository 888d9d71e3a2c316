"""The season page, its settings form and the club's TV view (games/clubs/season_views.py)."""

from datetime import date

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.clubs import seasons, tv
from games.engine import Rules
from games.models import Club, Game, Player, Rating, RatingChange, Season
from games.nights import services as nights
from tests.nights.helpers import post_round

from .season_helpers import At, club_of, game, history, utc

pytestmark = pytest.mark.django_db


@pytest.fixture
def in_july(time_machine):
    time_machine.move_to(utc(2026, 7, 1, 12), tick=False)


def client_of(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def season_url(club: Club) -> str:
    return reverse("games:club_season", args=[club.public_id])


def settings_url(club: Club, season: Season) -> str:
    return reverse("games:club_season_settings", args=[club.public_id, season.pk])


def test_a_member_sees_the_table_its_tie_rules_and_the_ratings(alice, bob, carol, in_july):
    seeded = history(alice, bob, carol)
    page = client_of(bob).get(season_url(seeded.club))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Season <bdi>2026</bdi>" in text
    assert [row.name for row in page.context["table"].rows] == ["alice", "bob", "carol", "Dora"]
    assert "Ties: more wins, then the better average place" in text
    assert "Points per place: 3, 2, 1, 0" in text
    assert page.context["form"] is None  # bob isn't an admin
    assert [row.name for row in page.context["ratings"]] == ["alice", "bob", "carol"]


def test_a_stranger_gets_404_and_so_does_another_clubs_season(alice, bob, stranger, in_july):
    club = club_of(alice, bob)
    other = seasons.current_season(club_of(stranger, name="Other"))
    assert client_of(stranger).get(season_url(club)).status_code == 404
    detail = reverse("games:club_season_detail", args=[club.public_id, other.pk])
    assert client_of(alice).get(detail).status_code == 404


def test_members_ratings_now_and_their_change_over_the_seasons_club_games(alice, bob, in_july):
    club = club_of(alice, bob)
    ann, bo = Player.for_user(alice), Player.for_user(bob)
    first = game(club, [At(ann, 1), At(bo, 2)], finished=utc(2026, 3, 1, 20))
    last = game(club, [At(ann, 2), At(bo, 1)], finished=utc(2026, 4, 1, 20))
    earlier = game(club, [At(ann, 1), At(bo, 2)], finished=utc(2025, 4, 1, 20))
    elsewhere = game(None, [At(ann, 1), At(bo, 2)], finished=utc(2026, 3, 15, 20))

    def change(played, who, before, after):  # type: ignore[no-untyped-def]
        RatingChange.objects.create(
            player=who,
            game=played,
            finished_at=played.finished_at,
            rank=1,
            mu_before=25,
            sigma_before=8,
            mu_after=25,
            sigma_after=8,
            ordinal_before=before,
            ordinal_after=after,
        )

    change(earlier, ann, 0.0, 1.0)
    change(first, ann, 1.0, 2.0)  # shown 1025 -> 1050
    change(elsewhere, ann, 2.0, 2.4)
    change(last, ann, 2.4, 1.8)  # -> 1045: +20 over the season
    Rating.objects.create(player=ann, mu=26.0, sigma=8.0, games=6)  # shown 1000 + 25 * 2 = 1050
    Rating.objects.create(player=bo, mu=25.0, sigma=8.0, games=2)
    rows = seasons.member_ratings(club, seasons.current_season(club))
    assert [(row.name, row.shown, row.provisional, row.change_text) for row in rows] == [
        ("alice", 1050, False, "+20"),
        ("bob", 1025, True, ""),
    ]


# --- the admins' form -------------------------------------------------------------------


def form_data(season: Season, club: Club, **changes):  # type: ignore[no-untyped-def]
    club.refresh_from_db()
    data = {
        "name": season.name,
        "starts": season.starts.isoformat(),
        "ends": season.ends.isoformat(),
        "points": "3, 2, 1, 0",
        "best_of": "",
        "version": club.version,
    }
    return data | changes


def test_an_admin_saves_the_seasons_settings_and_the_table_follows(alice, bob, carol, in_july):
    seeded = history(alice, bob, carol)
    club = seeded.club
    admin = client_of(alice)
    page = admin.get(season_url(club))
    season = page.context["season"]
    assert page.context["form"] is not None
    response = admin.post(settings_url(club, season), form_data(season, club, best_of="2"))
    assert response.status_code == 302
    page = admin.get(response.url)
    assert "Season saved." in page.content.decode()
    assert "Only each person's best 2 games count towards their points." in page.content.decode()
    assert [row.points for row in page.context["table"].rows] == [6, 6, 5, 1]


def test_a_bad_form_says_what_is_wrong_and_changes_nothing(alice, in_july):
    club = club_of(alice)
    season = seasons.current_season(club)
    admin = client_of(alice)
    response = admin.post(settings_url(club, season), form_data(season, club, points="3, x"))
    assert response.status_code == 400
    assert "Points are whole numbers separated by commas" in response.content.decode()
    Season.objects.create(club=club, name="Next", starts=date(2027, 1, 1), ends=date(2027, 6, 30))
    response = admin.post(settings_url(club, season), form_data(season, club, ends="2027-02-01"))
    assert response.status_code == 400
    assert "These dates overlap the season Next" in response.content.decode()
    season.refresh_from_db()
    assert (season.points, season.ends) == ([3, 2, 1, 0], date(2026, 12, 31))


def test_a_double_click_saves_once_and_says_the_club_changed(alice, in_july):
    club = club_of(alice)
    season = seasons.current_season(club)
    admin = client_of(alice)
    data = form_data(season, club, name="Summer")
    assert admin.post(settings_url(club, season), data).status_code == 302
    again = admin.post(settings_url(club, season), data | {"name": "Winter"}, follow=True)
    assert "The club changed since you opened this page" in again.content.decode()
    season.refresh_from_db()
    assert season.name == "Summer"


def test_only_admins_may_post_the_settings(alice, bob, in_july):
    club = club_of(alice, bob)
    season = seasons.current_season(club)
    response = client_of(bob).post(settings_url(club, season), form_data(season, club, name="Mine"))
    assert response.status_code == 404
    season.refresh_from_db()
    assert season.name == ""


def test_a_closed_season_shows_its_kept_table_and_no_form_and_is_listed_with_its_champion(
    alice, bob, carol, time_machine
):
    time_machine.move_to(utc(2026, 7, 1, 12), tick=False)
    seeded = history(alice, bob, carol)
    season = seasons.current_season(seeded.club)
    time_machine.move_to(utc(2027, 1, 2, 12), tick=False)
    seasons.close_due()
    admin = client_of(alice)
    detail = reverse("games:club_season_detail", args=[seeded.club.public_id, season.pk])
    page = admin.get(detail)
    assert page.context["form"] is None
    assert "Over: the final table." in page.content.decode()
    assert [row.points for row in page.context["table"].rows] == [12, 10, 7, 1]
    current = admin.get(season_url(seeded.club)).content.decode()  # 2027's season
    assert "Champion: <bdi>alice</bdi>" in current  # 2026
    assert "Champion: <bdi>bob</bdi>" in current  # 2025: night0


# --- queries ------------------------------------------------------------------------------


def add_games(club: Club, count: int, people: int) -> None:
    players = [Player.objects.create(name=f"Guest {number}") for number in range(people)]
    for number in range(count):
        seated = [players[(number + seat) % people] for seat in range(3)]
        game(club, [At(who, rank) for rank, who in enumerate(seated, 1)], finished=utc(2026, 2, 1))


@pytest.mark.parametrize(("games", "people"), [(2, 3), (40, 25)])
def test_the_season_page_takes_the_same_queries_however_many_games_and_people(
    alice, bob, in_july, django_assert_max_num_queries, games, people
):
    club = club_of(alice, bob)
    add_games(club, games, people)
    member = client_of(bob)
    member.get(season_url(club))  # the season exists from here on
    cache.clear()
    # session, user, club, season, extent, seats (the table isn't kept), ratings, seasons,
    # the header's count of games waiting
    with django_assert_max_num_queries(9):
        assert member.get(season_url(club)).status_code == 200
    # The table and the header's count kept: no seats read.
    with django_assert_max_num_queries(7):
        assert member.get(season_url(club)).status_code == 200


@pytest.mark.parametrize("games", [2, 40])
def test_the_club_page_gets_the_tables_context_in_two_queries_when_kept(
    alice, bob, in_july, django_assert_num_queries, games
):
    from django.template.loader import render_to_string

    club = club_of(alice, bob)
    add_games(club, games, 10)
    render_to_string("clubs/_season_table.html", {"table": seasons.current_table(club)})
    with django_assert_num_queries(2):
        table = seasons.current_table(club)
        html = render_to_string("clubs/_season_table.html", {"table": table})
    assert "Guest 1" in html


def test_a_finished_game_moves_the_kept_table_on(alice, bob, in_july):
    club = club_of(alice, bob)
    ann, bo = Player.for_user(alice), Player.for_user(bob)
    game(club, [At(ann, 1), At(bo, 2)], finished=utc(2026, 3, 1))
    member = client_of(bob)
    assert [r.points for r in member.get(season_url(club)).context["table"].rows] == [3, 2]
    game(club, [At(ann, 2), At(bo, 1)], finished=utc(2026, 3, 2))
    game(club, [At(ann, 2), At(bo, 1)], finished=utc(2026, 3, 3))
    text = member.get(season_url(club)).content.decode()
    assert text.index(">bob<") < text.index(">alice<")  # bob 6, alice 5


# --- the TV view --------------------------------------------------------------------------


def tv_url(club: Club, live: bool = False) -> str:
    return reverse("games:club_tv_live" if live else "games:club_tv", args=[club.public_id])


def test_the_tv_follows_a_round_saved_in_one_of_the_clubs_nights(alice, bob, in_july):
    club = club_of(alice, bob)
    ann, bo = Player.for_user(alice), Player.for_user(bob)
    game(club, [At(ann, 1), At(bo, 2)], finished=utc(2026, 3, 1))
    night = nights.create_game(alice, players=[ann, bo, "Dora"], first_dealer=0, rules=Rules())
    Game.objects.filter(pk=night.pk).update(club=club)
    screen = client_of(bob)
    page = screen.get(tv_url(club))
    assert page.status_code == 200 and page["X-Robots-Tag"] == "noindex, nofollow"
    shown = page.context["live_version"]
    assert f"?version={shown}" in page.content.decode()
    assert screen.get(tv_url(club, live=True), {"version": shown}).status_code == 204

    post_round(client_of(alice), night, went_out=0, points=[0, 25, 50], completed=[0])
    changed = screen.get(tv_url(club, live=True), {"version": shown})
    assert changed.status_code == 200
    text = changed.content.decode()
    assert 'id="live"' in text and "<html" not in text
    assert f"?version={shown}" not in text
    (live_night,) = changed.context["nights"]
    assert [(seat.name, seat.score) for seat in live_night.seats] == [
        ("alice", 0),
        ("bob", 25),
        ("Dora", 50),
    ]
    assert "1 round" in text


@pytest.mark.parametrize("games", [1, 30])
def test_the_tvs_poll_answers_204_in_the_same_few_queries(
    alice, bob, in_july, django_assert_num_queries, games
):
    club = club_of(alice, bob)
    add_games(club, games, 5)
    screen = client_of(bob)
    shown = screen.get(tv_url(club)).context["live_version"]
    # session, user, the club with the membership
    with django_assert_num_queries(3):
        assert screen.get(tv_url(club, live=True), {"version": shown}).status_code == 204


def test_a_stranger_gets_404_from_the_tv_and_its_poll(alice, stranger, in_july):
    club = club_of(alice)
    assert client_of(stranger).get(tv_url(club)).status_code == 404
    assert client_of(stranger).get(tv_url(club, live=True), {"version": "x"}).status_code == 404


def test_the_live_version_moves_with_the_clubs_version(alice, in_july):
    club = club_of(alice)
    before = tv.live_version(club)
    club.version += 1
    assert tv.live_version(club) != before


def test_the_tv_draws_the_new_season_on_the_first_poll_of_the_new_year(alice, time_machine):
    time_machine.move_to(utc(2026, 12, 31, 23, 50), tick=False)
    club = club_of(alice)
    screen = client_of(alice)
    shown = screen.get(tv_url(club)).context["live_version"]
    assert screen.get(tv_url(club, live=True), {"version": shown}).status_code == 204
    time_machine.move_to(utc(2027, 1, 1, 0, 1), tick=False)
    page = screen.get(tv_url(club, live=True), {"version": shown})
    assert page.status_code == 200
    assert page.context["season"].starts == date(2027, 1, 1)


@pytest.mark.parametrize("games", [1, 30])
def test_the_tv_page_takes_the_same_queries_however_many_games_and_nights(
    alice, bob, in_july, django_assert_max_num_queries, games
):
    club = club_of(alice, bob)
    add_games(club, games, 8)
    for _night in range(games % 7):
        game(club, [At(Player.for_user(alice), 1), At(Player.for_user(bob), 2)], finished=None)
    screen = client_of(bob)
    screen.get(tv_url(club))
    # session, user, club, season, extent of its games, nights in play, extent of all
    with django_assert_max_num_queries(7):
        assert screen.get(tv_url(club)).status_code == 200


def test_a_forged_form_without_the_version_says_so_and_changes_nothing(alice, in_july):
    club = club_of(alice)
    season = seasons.current_season(club)
    data = form_data(season, club, name="Forged")
    del data["version"]
    response = client_of(alice).post(settings_url(club, season), data)
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()
    season.refresh_from_db()
    assert season.name == ""
