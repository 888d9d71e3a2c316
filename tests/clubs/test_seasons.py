"""Season rows: how they come to exist, what admins may change, and closing one that is
over (games/clubs/seasons.py, the beat task games.close_seasons)."""

from datetime import date

import pytest

from games import scoring
from games.clubs import seasons
from games.clubs.seasons import SeasonSettings
from games.errors import Refused
from games.models import Club, Game, Player, Season, Seat
from games.tasks import close_seasons
from phase10site.celery import app

from .season_helpers import At, club_of, game, history, utc

pytestmark = pytest.mark.django_db


def settings_of(season: Season, **changes) -> SeasonSettings:
    values = {
        "name": season.name,
        "starts": season.starts,
        "ends": season.ends,
        "points": season.points,
        "best_of": season.best_of,
    }
    return SeasonSettings(**(values | changes))


def version(club: Club) -> int:
    return Club.objects.values_list("version", flat=True).get(pk=club.pk)


# --- which season ---------------------------------------------------------------------


def test_the_first_season_is_the_calendar_year_and_asking_again_finds_the_same_row(
    alice, time_machine
):
    time_machine.move_to(utc(2026, 7, 1, 12), tick=False)
    club = club_of(alice)
    before = version(club)
    season = seasons.current_season(club)
    assert (season.starts, season.ends, season.points, season.best_of) == (
        date(2026, 1, 1),
        date(2026, 12, 31),
        [3, 2, 1, 0],
        None,
    )
    assert seasons.season_on(club, date(2026, 12, 31)) == season
    assert Season.objects.filter(club=club).count() == 1
    assert version(club) == before + 1  # a new season is a change of the club


def test_a_new_season_fills_only_the_days_the_clubs_other_seasons_leave_free(alice):
    club = club_of(alice)
    Season.objects.create(club=club, starts=date(2026, 3, 1), ends=date(2026, 8, 31))
    spring = seasons.season_on(club, date(2026, 1, 15))
    autumn = seasons.season_on(club, date(2026, 11, 2))
    assert (spring.starts, spring.ends) == (date(2026, 1, 1), date(2026, 2, 28))
    assert (autumn.starts, autumn.ends) == (date(2026, 9, 1), date(2026, 12, 31))


def test_custom_dates_decide_which_games_count(alice, bob, carol, time_machine):
    time_machine.move_to(utc(2026, 7, 1, 12), tick=False)
    seeded = history(alice, bob, carol)
    club = seeded.club
    season = seasons.current_season(club)
    club.version = version(club)
    seasons.update_season(
        club,
        season.pk,
        settings_of(season, name="Spring on", starts=date(2026, 4, 1)),
        version=club.version,
    )
    season.refresh_from_db()
    # From 1 April: night3, online4, night5. bob 3 + 3 + 2, alice 2 + 1 + 3, carol 3 + 2.
    rows = seasons.standings(club, season)
    assert [(row.name, row.points, row.games) for row in rows] == [
        ("bob", 8, 3),
        ("alice", 6, 3),
        ("carol", 5, 2),
    ]
    # The days before it make a season of their own: night1 and online2. bob and carol
    # have 2 points, no win, place 2 and 1 game each: the name decides.
    early = seasons.season_on(club, date(2026, 3, 1))
    assert (early.starts, early.ends) == (date(2026, 1, 1), date(2026, 3, 31))
    assert [(row.name, row.points) for row in seasons.standings(club, early)] == [
        ("alice", 6),
        ("bob", 2),
        ("carol", 2),
        ("Dora", 1),
    ]


# --- what admins may change -------------------------------------------------------------


@pytest.fixture
def club_in_july(alice, bob, time_machine):
    time_machine.move_to(utc(2026, 7, 1, 12), tick=False)
    club = club_of(alice, bob)
    seasons.current_season(club)
    club.version = version(club)
    return club


def test_an_admin_sets_name_dates_points_and_best_n(club_in_july):
    club = club_in_july
    season = seasons.current_season(club)
    new = SeasonSettings("Summer", date(2026, 6, 1), date(2026, 9, 30), [10, 5, 2], 8)
    seasons.update_season(club, season.pk, new, version=club.version)
    season.refresh_from_db()
    assert (season.name, season.starts, season.ends, season.points, season.best_of) == (
        "Summer",
        date(2026, 6, 1),
        date(2026, 9, 30),
        [10, 5, 2],
        8,
    )
    assert version(club) == club.version


def test_a_second_click_of_the_same_form_changes_nothing_more(club_in_july):
    club = club_in_july
    season = seasons.current_season(club)
    drawn_at = club.version
    seasons.update_season(club, season.pk, settings_of(season, name="One"), version=drawn_at)
    with pytest.raises(Refused, match="changed since you opened"):
        seasons.update_season(club, season.pk, settings_of(season, name="Two"), version=drawn_at)
    season.refresh_from_db()
    assert season.name == "One"


def test_dates_that_overlap_another_season_are_refused_and_nothing_changes(club_in_july):
    club = club_in_july
    season = seasons.current_season(club)
    Season.objects.create(club=club, name="Winter", starts=date(2027, 1, 1), ends=date(2027, 2, 28))
    overlapping = settings_of(season, ends=date(2027, 1, 15))
    with pytest.raises(Refused, match="overlap the season Winter") as refused:
        seasons.update_season(club, season.pk, overlapping, version=club.version)
    assert refused.value.field == "starts"
    season.refresh_from_db()
    assert season.ends == date(2026, 12, 31)
    assert version(club) == club.version  # the refused change's bump was rolled back


def test_a_season_can_not_end_before_it_starts(club_in_july):
    club = club_in_july
    season = seasons.current_season(club)
    backwards = settings_of(season, starts=date(2026, 5, 1), ends=date(2026, 4, 1))
    with pytest.raises(Refused, match="end before it starts"):
        seasons.update_season(club, season.pk, backwards, version=club.version)


def test_a_season_that_is_over_can_not_be_changed(club_in_july, time_machine):
    club = club_in_july
    season = seasons.current_season(club)
    time_machine.move_to(utc(2027, 1, 2, 12), tick=False)
    with pytest.raises(Refused, match="This season is over"):
        seasons.update_season(
            club, season.pk, settings_of(season, name="Late"), version=club.version
        )
    seasons.close(season.pk)
    with pytest.raises(Refused, match="This season is over"):
        seasons.update_season(
            club, season.pk, settings_of(season, name="Late"), version=version(club)
        )


def test_another_clubs_season_is_no_season_of_this_one(club_in_july, carol):
    club = club_in_july
    theirs = seasons.current_season(club_of(carol, name="Other"))
    with pytest.raises(Refused, match="no such season"):
        seasons.update_season(
            club, theirs.pk, settings_of(theirs, name="Mine"), version=club.version
        )
    assert seasons.club_season(club, theirs.pk) is None


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "at least first place"),
        ("3, two, 1", "whole numbers"),
        ("1 " * 11, "at most 10"),
        ("500", "at most 100"),
        ("-1, 0", "whole numbers"),
    ],
)
def test_points_per_place_are_whole_numbers(typed, message):
    with pytest.raises(Refused, match=message):
        seasons.parse_points(typed)


# --- closing ------------------------------------------------------------------------------


def test_the_beat_closes_a_season_that_is_over_once_and_keeps_its_table(
    alice, bob, carol, time_machine
):
    time_machine.move_to(utc(2026, 7, 1, 12), tick=False)
    seeded = history(alice, bob, carol)
    season = seasons.current_season(seeded.club)
    time_machine.move_to(utc(2026, 12, 31, 23), tick=False)  # the last day still
    assert close_seasons.delay().get() == 1  # 2025's (night0), made and closed by the job
    season.refresh_from_db()
    assert season.closed_at is None
    time_machine.move_to(utc(2027, 1, 1, 0, 5), tick=False)
    assert close_seasons.delay().get() == 1
    assert close_seasons.delay().get() == 0  # a second run finds it closed
    season.refresh_from_db()
    assert season.closed_at == utc(2027, 1, 1, 0, 5)
    assert season.champion == seeded.ann
    assert seasons.champion_name(season) == "alice"
    assert [(row["name"], row["points"]) for row in season.final_table] == [
        ("alice", 12),
        ("bob", 10),
        ("carol", 7),
        ("Dora", 1),
    ]
    last_year = Season.objects.get(club=seeded.club, starts=date(2025, 1, 1))
    assert seasons.champion_name(last_year) == "bob"


def test_a_correction_after_the_season_closed_leaves_the_kept_table_as_it_was(
    alice, bob, carol, time_machine
):
    time_machine.move_to(utc(2026, 7, 1, 12), tick=False)
    seeded = history(alice, bob, carol)
    season = seasons.current_season(seeded.club)
    time_machine.move_to(utc(2027, 1, 3, 12), tick=False)
    seasons.close(season.pk)
    kept = seasons.standings(seeded.club, Season.objects.get(pk=season.pk))
    # night5 corrected: bob won it, not alice.
    night5 = seeded.games["night5"]
    Seat.objects.filter(game=night5, player=seeded.bo).update(rank=1)
    Seat.objects.filter(game=night5, player=seeded.ann).update(rank=3)
    scoring.bump(night5, "name")
    season.refresh_from_db()
    assert seasons.standings(seeded.club, season) == kept
    assert [(row.name, row.points) for row in kept][:2] == [("alice", 12), ("bob", 10)]
    # Worked out again, it would be otherwise: the kept copy is what counts.
    assert [(row.name, row.points) for row in seasons._work_out(seeded.club.pk, season)][:2] == [
        ("bob", 11),
        ("alice", 11),
    ]


def test_the_beat_gives_a_season_to_past_days_played_without_one_and_closes_it(
    alice, bob, time_machine
):
    time_machine.move_to(utc(2026, 7, 1, 12), tick=False)
    club = club_of(alice, bob)
    ann, bo = Player.for_user(alice), Player.for_user(bob)
    game(club, [At(ann, 1), At(bo, 2)], finished=utc(2024, 5, 1, 20))
    game(club, [At(ann, 2), At(bo, 1)], finished=utc(2024, 6, 1, 20))
    game(club, [At(ann, 1), At(bo, 2)], finished=utc(2026, 6, 30, 20))  # this season: open
    assert seasons.close_due() == 1
    (kept,) = Season.objects.filter(club=club, closed_at__isnull=False)
    assert (kept.starts, kept.ends, kept.champion) == (date(2024, 1, 1), date(2024, 12, 31), ann)
    # alice and bob: 5 points and 1 win each, average 1.5, 2 games: by name.
    assert [(row["name"], row["points"]) for row in kept.final_table] == [("alice", 5), ("bob", 5)]
    assert Season.objects.filter(club=club, closed_at__isnull=True).count() == 1  # 2026


def test_the_closing_task_is_on_the_beat_schedule():
    scheduled = {job["task"] for job in app.conf.beat_schedule.values()}
    assert "games.close_seasons" in scheduled and "games.close_seasons" in app.tasks


def test_a_season_nobody_played_closes_without_a_champion(alice, time_machine):
    club = club_of(alice)
    season = Season.objects.create(club=club, starts=date(2025, 1, 1), ends=date(2025, 12, 31))
    time_machine.move_to(utc(2026, 1, 2, 12), tick=False)
    assert seasons.close(season.pk) is True
    assert seasons.close(season.pk) is False
    season.refresh_from_db()
    assert (season.final_table, season.champion, seasons.champion_name(season)) == ([], None, None)
    assert Game.objects.count() == 0


def test_ending_the_current_season_early_starts_a_new_one_the_next_day(club_in_july, time_machine):
    club = club_in_july
    season = seasons.current_season(club)
    early = settings_of(season, name="First half", ends=date(2026, 7, 15))
    seasons.update_season(club, season.pk, early, version=club.version)
    time_machine.move_to(utc(2026, 7, 16, 12), tick=False)
    second = seasons.current_season(club)
    assert second.pk != season.pk
    assert (second.starts, second.ends) == (date(2026, 7, 16), date(2026, 12, 31))
