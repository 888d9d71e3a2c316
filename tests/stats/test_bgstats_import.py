"""Importing a BG Stats export (games/stats/bgstats.py): Phase 10 plays become finished
game nights with final scores only, once, their players matched by name."""

import json
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Club, Game, Player, RatingChange
from games.stats import bgstats, figures
from games.stats.scope import Scope
from tests.clubs.membership_helpers import make_club

from .factories import laid, make_game, missed, player
from .test_rating_ledger import recomputed, snapshot

pytestmark = pytest.mark.django_db


def score(ref, points, *, winner=False, seat=None):
    entry = {"playerRefId": ref, "score": str(points), "winner": winner, "startPlayer": False}
    if seat is not None:
        entry["seatOrder"] = seat
    return entry


def play(uuid, date, *scores, game=1):
    return {
        "uuid": uuid,
        "gameRefId": game,
        "playDate": date,
        "durationMin": 40,
        "ignored": False,
        "locationRefId": 1,
        "playerScores": list(scores),
    }


@pytest.fixture
def export():
    """BG Stats' tables: players, games, locations and plays, referring to each other
    by id. Two Phase 10 plays, a play of another game, a Phase 10 play without scores."""
    return {
        "about": "This is a Play file that can be read by Board Game Stats.",
        "players": [
            {"id": 1, "uuid": "p-1", "name": "Ann", "isAnonymous": False},
            {"id": 2, "uuid": "p-2", "name": "BOB", "isAnonymous": False},
            {"id": 3, "uuid": "p-3", "name": "dora", "isAnonymous": False},
            {"id": 4, "uuid": "p-4", "name": "Eve", "isAnonymous": False},
            {"id": 5, "uuid": "p-5", "name": "stranger", "isAnonymous": False},
        ],
        "locations": [{"id": 1, "uuid": "l-1", "name": "Kitchen table"}],
        "games": [
            {"id": 1, "uuid": "g-1", "name": "Phase 10", "bggId": 1258, "highestWins": False},
            {"id": 2, "uuid": "g-2", "name": "Catan", "bggId": 13, "highestWins": True},
            {"id": 3, "uuid": "g-3", "name": "Phase Ten (Dutch box)", "bggId": 1258},
        ],
        "plays": [
            play(
                "play-1",
                "2024-05-01 20:00:00",
                score(1, 120, winner=True, seat=1),
                score(2, 250, seat=2),
                score(3, 180, seat=3),
            ),
            play("play-2", "2024-05-08 20:00:00", score(4, 90, winner=True), score(1, 95), game=3),
            play("catan-1", "2024-05-02 20:00:00", score(1, 10, winner=True), score(2, 8), game=2),
            play("play-3", "2024-05-09 20:00:00", score(1, 50), {"playerRefId": 2, "score": ""}),
            play("play-4", "2024-05-10 20:00:00", score(1, 50, winner=True), score(5, 70)),
        ],
    }


@pytest.fixture
def known(alice, bob):
    """Alice has played with bob, and typed in a guest called dora."""
    a, b = player(alice), player(bob)
    dora = player("Dora", created_by=alice)
    make_game([a, b, dora], [[laid(1, out=True), missed(1, 40), missed(1, 30)]], winner=0)
    return {"alice": a, "bob": b, "dora": dora}


def upload(client, export, own_name="Ann"):
    data = json.dumps(export).encode()
    file = SimpleUploadedFile("BGStatsExport.json", data, content_type="application/json")
    return client.post(reverse("games:import_bgstats"), {"file": file, "own_name": own_name})


def imported():
    return list(
        Game.objects.filter(public_id__startswith=bgstats.ID_PREFIX).order_by("finished_at")
    )


def seats(game):
    return [
        (seat.player.name, seat.score, seat.rank, seat.is_winner)
        for seat in game.seats.select_related("player").order_by("position")
    ]


def test_each_phase_10_play_becomes_a_finished_night_with_its_final_scores(
    alice_client, alice, known, export, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(alice_client, export)
    assert response.status_code == 302
    first, second, third = imported()
    assert seats(first) == [
        ("alice", 120, 1, True),
        ("bob", 250, 3, False),
        ("Dora", 180, 2, False),
    ]
    assert (first.status, first.mode, first.creator, first.rounds_played) == (
        Game.Status.FINISHED,
        Game.Mode.NIGHT,
        None,  # no scorer: nobody can change an imported night
        0,
    )
    assert first.winner.name == "alice"
    assert first.name == "Kitchen table"
    assert first.finished_at.isoformat() == "2024-05-01T20:40:00+00:00"  # start + duration
    assert not first.round_scores.exists()
    assert seats(second) == [("Eve", 90, 1, True), ("alice", 95, 2, False)]
    # Rated like any other night.
    assert RatingChange.objects.filter(game=first).count() == 3
    messages = [str(m) for m in response.wsgi_request._messages]
    assert messages == [
        "3 Phase 10 plays imported.",
        "The play of 05/09/2024 was left out: BOB has no final score.",  # play-3
    ]
    assert third.seats.count() == 2


def test_imported_nights_count_in_games_wins_and_scores_but_not_in_rounds_or_phases(
    alice_client, known, export
):
    upload(alice_client, export)
    summary = figures.summary(Scope.parse(known["alice"], None, None))
    # The game known played, plus three imported: won the known one, play-1 and play-4.
    assert (summary.played, summary.won) == (4, 3)
    assert summary.average_rounds == 1  # the known game's one round; imported: unknown
    assert summary.best_score == 0
    phases = figures.phase_stats(Scope.parse(known["alice"], None, None))
    assert [(row.phase, row.rounds) for row in phases] == [(1, 1)]


def test_names_match_the_importers_known_players_ignoring_case_and_others_become_guests(
    alice_client, alice, known, export, stranger
):
    upload(alice_client, export)
    first, second, third = imported()
    by_name = {seat.player.name: seat.player for seat in first.seats.select_related("player")}
    assert by_name["alice"] == known["alice"]  # "Ann": the own name given on the form
    assert by_name["bob"] == known["bob"]  # "BOB": a member alice played with
    assert by_name["Dora"] == known["dora"]  # "dora": alice's guest
    eve = second.seats.get(position=0).player
    assert (eve.name, eve.is_guest, eve.created_by) == ("Eve", True, alice)
    # A member alice never played with is not matched by name: a guest of hers instead.
    other = third.seats.get(position=1).player
    assert other.is_guest and other.created_by == alice and other.user is None


def test_without_an_own_name_the_importers_display_name_is_theirs(alice_client, known, export):
    export["players"][0]["name"] = "ALICE"
    upload(alice_client, export, own_name="")
    first = imported()[0]
    assert first.seats.get(position=0).player == known["alice"]


def test_importing_the_same_file_twice_adds_nothing(alice_client, known, export):
    upload(alice_client, export)
    games, players = Game.objects.count(), Player.objects.count()
    response = upload(alice_client, export)
    assert (Game.objects.count(), Player.objects.count()) == (games, players)
    messages = [str(m) for m in response.wsgi_request._messages]
    assert "0 Phase 10 plays imported." in messages
    assert "3 plays were imported before: left as they were." in messages


def test_a_later_export_with_more_plays_imports_only_the_new_ones(alice, known, export):
    first = bgstats.import_export(alice, {**export, "plays": export["plays"][:1]}, own_name="Ann")
    again = bgstats.import_export(alice, export, own_name="Ann")
    assert (first.imported, again.imported, again.already, again.skipped) == (1, 2, 1, 1)
    assert again.other_games == 1


def test_a_play_another_member_imported_already_is_not_imported_twice(alice, bob, known, export):
    bgstats.import_export(alice, export, own_name="Ann")
    result = bgstats.import_export(bob, export, own_name="BOB")
    # Bob is only in play-1, which alice's import seated him at (as a member she knows).
    assert (result.imported, result.already, result.not_yours) == (0, 1, 2)
    assert Game.objects.filter(seats__player__user=bob, public_id__startswith="bgs").count() == 1


def test_imported_plays_older_than_rated_games_are_rated_in_finishing_order(
    alice, known, export, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        bgstats.import_export(alice, export, own_name="Ann")
    assert snapshot() == recomputed()


def test_the_sweep_rates_an_imported_night_whose_rating_task_was_lost(alice, known, export):
    from games.stats import rating_ledger

    rating_ledger.run(sweep=True)  # the known game rated; the sweep has run since
    bgstats.import_export(alice, export, own_name="Ann")  # its task never runs
    assert not RatingChange.objects.filter(game__in=imported()).exists()
    # The nights say they last changed when they were played, long before that sweep.
    assert rating_ledger.run(sweep=True) == 4  # the three nights, then the known game again
    assert RatingChange.objects.filter(game__in=imported()).count() == 3 + 2 + 2
    assert snapshot() == recomputed()


@pytest.mark.parametrize(
    "content, error",
    [
        (b"not json at all", "isn't a BG Stats export (JSON) we can read"),
        (b"\xff\xfe\x00", "isn't a BG Stats export (JSON) we can read"),
        (b'{"plays": []}', "it has no players, games and plays"),
        (b"[1, 2, 3]", "it has no players, games and plays"),
        (b"[" * 100_000, "isn't a BG Stats export (JSON) we can read"),
    ],
)
def test_a_file_that_isnt_an_export_is_refused_with_a_clear_message(
    alice_client, known, content, error
):
    file = SimpleUploadedFile("export.json", content)
    response = alice_client.post(reverse("games:import_bgstats"), {"file": file})
    assert response.status_code == 200
    assert error in " ".join(response.context["form"].errors["file"])
    assert not imported()


def test_a_file_over_5_mb_is_refused(alice_client, known):
    file = SimpleUploadedFile("export.json", b" " * (bgstats.MAX_BYTES + 1))
    response = alice_client.post(reverse("games:import_bgstats"), {"file": file})
    assert "That file is too large" in " ".join(response.context["form"].errors["file"])


def test_a_file_without_phase_10_plays_says_so(alice_client, known, export):
    export["plays"] = [p for p in export["plays"] if p["gameRefId"] == 2]
    response = upload(alice_client, export)
    assert [str(m) for m in response.wsgi_request._messages] == ["The file has no Phase 10 plays."]


def test_the_import_page_shows_the_form(alice_client, django_assert_max_num_queries):
    # What any logged-in page costs (session, user, the header's counts, the profile).
    with django_assert_max_num_queries(8):
        response = alice_client.get(reverse("games:import_bgstats"))
    assert response.status_code == 200
    assert 'enctype="multipart/form-data"' in response.content.decode()


def test_the_management_command_imports_a_file(alice, known, export, tmp_path):
    path = tmp_path / "BGStatsExport.json"
    path.write_text(json.dumps(export))
    out = StringIO()
    call_command("import_bgstats", "alice", str(path), "--name", "Ann", stdout=out)
    assert "Imported 3 plays" in out.getvalue()
    assert "The play of 05/09/2024 was left out: BOB has no final score." in out.getvalue()
    assert len(imported()) == 3


def test_a_play_without_the_importer_is_left_out(alice_client, known, export):
    export["plays"].append(
        play("play-5", "2024-05-11 20:00:00", score(2, 50, winner=True), score(4, 70))
    )
    response = upload(alice_client, export)
    assert len(imported()) == 3
    messages = [str(m) for m in response.wsgi_request._messages]
    assert "1 play left out: you aren't in it (your name in BG Stats: “Ann”)." in messages


def test_nobody_can_change_an_imported_night_and_its_players_see_it(
    alice_client, client, bob, known, export
):
    upload(alice_client, export)
    game = imported()[0]
    url = reverse("games:night_add_round", args=[game.public_id])
    response = alice_client.post(url, {"version": game.version, "went_out": 0})
    assert response.status_code == 404
    game.refresh_from_db()
    assert (game.status, game.version) == (Game.Status.FINISHED, 1)
    client.force_login(bob)
    assert client.get(game.get_absolute_url()).status_code == 200


def test_a_play_imported_meanwhile_by_someone_else_is_counted_as_imported_before(
    alice, bob, known, export, monkeypatch
):
    bgstats.import_export(bob, export, own_name="BOB")  # play-1, where alice is "Ann"
    # As if bob's import committed between alice's check and her insert.
    monkeypatch.setattr(bgstats, "_imported_before", lambda keys: set())
    result = bgstats.import_export(alice, export, own_name="Ann")
    assert (result.imported, result.already) == (2, 1)
    assert len(imported()) == 3


def test_the_stats_page_of_someone_with_only_imported_nights_shows_them(
    alice_client, alice, export
):
    upload(alice_client, export)
    response = alice_client.get(reverse("games:stats"))
    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-stat="played">3<' in page
    assert 'data-stat="rounds">–<' in page  # rounds per game: unknown
    assert response.context["phases"] == []


def test_a_play_marked_ignored_in_bg_stats_is_left_out(alice, known, export):
    export["plays"][0]["ignored"] = True
    result = bgstats.import_export(alice, export, own_name="Ann")
    assert (result.imported, result.ignored) == (2, 1)


def test_odd_values_in_a_file_leave_those_plays_out_rather_than_fail(alice, known, export):
    export["players"].append({"id": [6], "name": "List"})
    export["games"].append({"id": {"x": 1}, "name": "Phase 10"})
    export["plays"] += [
        play("odd-1", "yesterday", score(1, 10, winner=True), score(2, 20)),
        play("odd-2", "2024-06-01 20:00:00", score(1, 10), score([6], 20)),
        play("odd-3", "2024-06-02 20:00:00", score(1, "ten"), score(2, 20)),
        {**play("odd-4", "2024-06-03", score(1, 10)), "gameRefId": [1]},
        "not a play",
    ]
    result = bgstats.import_export(alice, export, own_name="Ann")
    assert (result.imported, result.skipped) == (3, 4)
    assert result.other_games == 3  # Catan, and the two plays of no game we know


def many(export, count):
    """`export` with `count` Phase 10 plays among the same people."""
    plays = [
        play(
            f"many-{n}",
            f"2024-07-{n % 28 + 1:02d} 20:00:00",
            score(1, n * 5, winner=True),
            score(2, 90),
        )
        for n in range(count)
    ]
    return {**export, "plays": plays}


def test_an_import_takes_the_same_number_of_queries_for_3_plays_as_for_60(
    alice_client, known, export
):
    counts = []
    for count in (3, 60):
        Game.objects.filter(public_id__startswith=bgstats.ID_PREFIX).delete()
        with CaptureQueriesContext(connection) as queries:
            upload(alice_client, many(export, count))
        counts.append(len(queries))
    assert len(imported()) == 60
    assert counts[0] == counts[1]


@pytest.mark.parametrize(
    "change",
    [
        {"score": "1e30"},  # no column holds it
        {"playDate": "9999-12-31 23:59:00", "durationMin": 60},  # nor a date past 9999
    ],
)
def test_a_play_with_numbers_out_of_any_range_is_left_out_not_a_server_error(
    alice_client, known, export, change
):
    target = export["plays"][0]
    for key, value in change.items():
        if key == "score":
            target["playerScores"][1][key] = value
        else:
            target[key] = value
    response = upload(alice_client, export)
    assert response.status_code == 302
    assert [game.winner.name for game in imported()] == ["Eve", "alice"]  # not play-1's
    said = [str(m) for m in response.wsgi_request._messages]
    assert len([sentence for sentence in said if "was left out" in sentence]) == 2


def test_a_play_of_a_million_minutes_is_taken_as_lasting_a_week(alice_client, known, export):
    export["plays"][0]["durationMin"] = 10**12
    upload(alice_client, export)
    assert imported()[0].finished_at.isoformat() == "2024-05-08T20:00:00+00:00"


def test_ranks_out_of_range_are_not_taken_the_scores_decide(alice_client, known, export):
    for entry, rank in zip(export["plays"][0]["playerScores"], [70_000, 1, 2], strict=True):
        entry["rank"] = rank
    upload(alice_client, export)
    assert seats(imported()[0]) == [
        ("alice", 120, 1, True),
        ("bob", 250, 3, False),
        ("Dora", 180, 2, False),
    ]


def test_the_exports_own_player_is_the_importer_whatever_the_name_on_the_form(
    alice_client, known, export
):
    export["userInfo"] = {"meRefId": 1}  # "Ann": the phone's owner
    export["players"].append({"id": 6, "uuid": "p-6", "name": "alice"})  # someone else
    export["plays"].append(
        play("play-6", "2024-05-12 20:00:00", score(6, 10, winner=True), score(2, 70))
    )
    response = upload(alice_client, export, own_name="")  # alice's name here: "alice"
    first, second, third = imported()
    assert first.seats.get(position=0).player == known["alice"]
    assert [str(m) for m in response.wsgi_request._messages][-1] == (
        "1 play left out: you aren't in it (your name in BG Stats: “Ann”)."
    )


def test_the_upload_page_says_how_many_plays_were_marked_ignored(alice_client, known, export):
    export["plays"][0]["ignored"] = True
    export["plays"][1]["ignored"] = True
    response = upload(alice_client, export)
    assert len(imported()) == 1
    messages = [str(m) for m in response.wsgi_request._messages]
    assert "2 plays left out: they are marked as ignored in BG Stats." in messages


def test_a_play_with_an_empty_score_is_named_with_whose_score_is_missing(
    alice_client, known, export
):
    export["plays"][0]["playerScores"][2]["score"] = ""  # dora's, in play-1
    response = upload(alice_client, export)
    assert [game.public_id for game in imported()] == [
        bgstats._key("play-2"),
        bgstats._key("play-4"),
    ]
    messages = [str(m) for m in response.wsgi_request._messages]
    assert messages[1:] == [
        "The play of 05/01/2024 was left out: dora has no final score.",
        "The play of 05/09/2024 was left out: BOB has no final score.",
    ]


@pytest.mark.parametrize("where", ["players", "locations"])
def test_a_nul_character_in_a_name_refuses_the_file_and_changes_nothing(
    alice_client, known, export, where
):
    export[where][0]["name"] = "Kitchen\x00table"
    players = Player.objects.count()
    response = upload(alice_client, export)
    assert response.status_code == 200
    assert "has a NUL character, which can't be stored: nothing was imported" in " ".join(
        response.context["form"].errors["file"]
    )
    assert (imported(), Player.objects.count()) == ([], players)


@pytest.mark.parametrize(
    "date", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-12:00", "9999-12-31 23:59:59"]
)
def test_a_play_dated_beyond_what_a_calendar_holds_is_left_out_with_its_date(
    alice_client, known, export, date
):
    export["plays"][0]["playDate"] = date
    response = upload(alice_client, export)
    assert response.status_code == 302
    assert len(imported()) == 2
    messages = [str(m) for m in response.wsgi_request._messages]
    assert f"A play dated “{date}” was left out: that date can't be read." in messages


def test_in_arabic_the_name_and_date_of_a_play_left_out_keep_their_own_direction(
    alice, known, export
):
    from django.utils import translation

    with translation.override("ar"):
        result = bgstats.import_export(alice, export, own_name="Ann")
    [why] = result.left_out
    assert "\u2068BOB\u2069" in why
    assert why.count("\u2068") == 2  # the date too


def test_an_import_into_a_club_moves_the_club_on(alice, bob, known, export):
    """The club's kept pages are keyed by its version: new games in it move it on."""
    club = make_club(alice, bob)
    before = Club.objects.get(pk=club.pk).version
    bgstats.import_export(alice, export, own_name="Ann", club=club)
    assert Game.objects.filter(club=club).count() == len(imported())
    assert Club.objects.get(pk=club.pk).version > before
