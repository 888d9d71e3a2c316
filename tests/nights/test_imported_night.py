"""A night imported from BG Stats (games/stats/bgstats.py) has final scores and no rounds:
its page, share page and TV view show the result kept in its seats, and nobody can
change it."""

import pytest
from django.urls import reverse

from games.engine import Rules
from games.errors import Refused
from games.models import Game, Player
from games.nights import services
from games.nights.scoreboard import RoundEntry
from games.stats import bgstats

pytestmark = pytest.mark.django_db


def scores(ref, points, *, winner=False):
    return {"playerRefId": ref, "score": str(points), "winner": winner}


@pytest.fixture
def night(alice, django_capture_on_commit_callbacks):
    """Alice (Ann in BG Stats) imported one play: Cleo won on 40, Ann 95, Ben 120."""
    export = {
        "players": [
            {"id": 1, "name": "Ann"},
            {"id": 2, "name": "Ben"},
            {"id": 3, "name": "Cleo"},
        ],
        "games": [{"id": 1, "name": "Phase 10", "bggId": 1258}],
        "plays": [
            {
                "uuid": "play-1",
                "gameRefId": 1,
                "playDate": "2024-05-01 20:00:00",
                "durationMin": 40,
                "playerScores": [scores(1, 95), scores(2, 120), scores(3, 40, winner=True)],
            }
        ],
    }
    with django_capture_on_commit_callbacks(execute=True):
        bgstats.import_export(alice, export, own_name="Ann")
    return Game.objects.get(public_id__startswith=bgstats.ID_PREFIX)


def test_its_page_shows_the_final_scores_ranks_and_winner_and_no_round(alice_client, night):
    page = alice_client.get(night.get_absolute_url()).content.decode()
    assert "<bdi>Cleo</bdi> won." in page
    assert "Final standings" in page
    standings = page[page.index('<ol class="standings">') : page.index("</ol>")]
    names = [chunk.split("</bdi>")[0] for chunk in standings.split("<strong><bdi>")[1:]]
    assert names == ["Cleo", "alice", "Ben"]
    assert ">40</span>" in standings and ">95</span>" in standings and ">120</span>" in standings
    assert "its rounds aren't known" in page
    assert "Round 1" not in page and "deals" not in page
    assert "0 of 10 phases" not in page
    # Its ratings moved like any finished night's.
    ratings = page[page.index('class="rating-changes"') : page.index('class="history"')]
    assert [ratings.count(name) for name in ("Cleo", "alice", "Ben")] == [1, 1, 1]


def test_its_page_offers_no_change(alice_client, night):
    page = alice_client.get(night.get_absolute_url()).content.decode()
    assert "Undo" not in page and "Rematch" not in page and 'name="went_out"' not in page
    url = reverse("games:night_add_round", args=[night.public_id])
    assert alice_client.post(url, {"version": night.version}).status_code == 404


def test_the_services_refuse_to_fold_rounds_over_its_final_scores(night):
    entry = RoundEntry(went_out=0, points=(0, 20, 30), completed={0: 1})
    with pytest.raises(Refused):
        services.add_round(night, entry, version=night.version)
    night.refresh_from_db()
    assert (night.status, night.rounds_played) == (Game.Status.FINISHED, 0)
    assert sorted(night.seats.values_list("score", flat=True)) == [40, 95, 120]


def test_its_share_page_and_tv_view_show_the_result_and_do_not_poll(client, night):
    for name in ("games:night_share", "games:night_tv"):
        page = client.get(reverse(name, args=[night.share_token])).content.decode()
        assert "<bdi>Cleo</bdi> won." in page
        assert "hx-trigger" not in page
        assert "Round 1" not in page


def test_the_nights_list_says_final_scores_only_and_sorts_it_by_the_day_it_was_played(
    alice, alice_client, night
):
    played_today = nights_today(alice)
    assert night.updated_at == night.finished_at  # 2024, not the day of the import
    page = alice_client.get(reverse("games:night_list")).content.decode()
    assert "final scores only" in page and "0 rounds" not in page
    assert page.index(played_today.get_absolute_url()) < page.index(night.get_absolute_url())


def nights_today(user) -> Game:
    """A night of `user`'s, finished today."""
    game = services.create_game(
        user, players=[Player.for_user(user), "Zoe"], first_dealer=0, rules=Rules(phases=(1,))
    )
    entry = RoundEntry(went_out=0, points=(0, 50), completed={0: 1})
    return services.add_round(game, entry, version=game.version)
