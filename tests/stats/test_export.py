"""Your data out: CSV of your games and rounds, a finished game as JSON.
`history` is the five hand-worked games of tests/stats/conftest.py."""

import csv
import io
import json

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _csv(response):
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    text = b"".join(response.streaming_content).decode()
    return list(csv.reader(io.StringIO(text)))


def test_the_games_csv_has_a_row_per_game_you_played(alice_client, history):
    rows = _csv(alice_client.get(reverse("games:export_games_csv")))
    header, games = rows[0], rows[1:]
    assert header[:3] == ["game", "name", "mode"]
    assert len(games) == 5  # four finished and one still being played
    first = dict(zip(header, games[0], strict=True))
    assert first["game"] == history["g1"].public_id
    assert (first["mode"], first["variant"], first["status"]) == ("night", "standard", "finished")
    assert (first["rounds"], first["players"], first["your score"]) == ("4", "2", "30")
    assert (first["you won"], first["winner"], first["your rank"]) == ("yes", "alice", "1")
    variants = [dict(zip(header, row, strict=True))["variant"] for row in games]
    assert variants == ["standard", "standard", "all-advance", "pick-a-phase", "standard"]


def test_the_rounds_csv_has_every_players_rounds_of_your_games(alice_client, history):
    rows = _csv(alice_client.get(reverse("games:export_rounds_csv")))
    assert rows[0][:4] == ["game", "round", "seat", "player"]
    assert len(rows) - 1 == 4 * 2 + 3 * 3 + 3 * 2 + 3 * 2 + 1 * 2
    g1 = history["g1"].public_id
    assert rows[1] == [g1, "1", "1", "alice", "1", "1", "0", "yes", "0", "no"]
    assert rows[2] == [g1, "1", "2", "bob", "1", "", "50", "no", "50", "no"]


def test_the_csv_export_only_has_your_games(client, carol, history):
    client.force_login(carol)
    rows = _csv(client.get(reverse("games:export_games_csv")))
    assert [row[0] for row in rows[1:]] == [history["g2"].public_id]


def test_exports_need_a_login(client, history):
    for name in ("games:export_games_csv", "games:export_rounds_csv"):
        assert client.get(reverse(name)).status_code == 302


def test_a_finished_game_downloads_as_json(alice_client, history):
    response = alice_client.get(reverse("games:export_game_json", args=[history["g2"].public_id]))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert (data["mode"], data["rounds_played"], data["winner"]) == ("online", 3, 1)
    assert [(p["name"], p["score"], p["rank"]) for p in data["players"]] == [
        ("alice", 95, 3),
        ("bob", 10, 1),
        ("carol", 50, 2),
    ]
    assert [r["round"] for r in data["rounds"]] == [1, 2, 3]
    assert data["rounds"][2]["results"][0] == {
        "seat": 0,
        "phase_attempted": 1,
        "phase_completed": 1,
        "points": 15,
        "went_out": False,
        "total": 95,
        "by_bot": False,
        "cards_left": [],  # a round scored by hand keeps no cards
    }


def test_an_online_games_json_has_each_hand_left_at_every_rounds_end(client, alice, bob):
    from games.engine import Rules
    from games.models import RoundScore
    from tests.online.helpers import play_on, started_game

    game = play_on(started_game(alice, bob, bots=1, seed=5, rules=Rules(phases=(1, 2))))
    client.force_login(alice)
    data = client.get(reverse("games:export_game_json", args=[game.public_id])).json()
    exported = {
        (line["round"], result["seat"]): result["cards_left"]
        for line in data["rounds"]
        for result in line["results"]
    }
    rows = RoundScore.objects.filter(game=game)
    assert exported == {(row.round_number, row.seat.position): row.cards_left for row in rows}
    assert any(exported.values())


def test_only_the_games_players_and_scorers_get_the_json(client, carol, stranger, history):
    url = reverse("games:export_game_json", args=[history["g1"].public_id])
    for user in (carol, stranger):
        client.force_login(user)
        assert client.get(url).status_code == 404
    client.force_login(carol)
    url = reverse("games:export_game_json", args=[history["g2"].public_id])
    assert client.get(url).status_code == 200


def test_a_game_still_being_played_is_not_exported_as_json(alice_client, history):
    url = reverse("games:export_game_json", args=[history["g5"].public_id])
    assert alice_client.get(url).status_code == 404


def test_csv_cells_that_a_spreadsheet_would_read_as_a_formula_are_escaped(alice_client, alice):
    from games.models import Game

    from .factories import laid, make_game, missed, player

    game = make_game(
        [player(alice), player("@SUM(1+1)", created_by=alice)],
        [[laid(1, out=True), missed(1, 5)]],
        winner=0,
        rules={"phases": [1]},
        name='=HYPERLINK("http://example.com")',
    )
    # An id made before ids stopped starting so (one in 64 did): still guarded.
    Game.objects.filter(pk=game.pk).update(public_id="-xYz1234")
    games = _csv(alice_client.get(reverse("games:export_games_csv")))
    row = dict(zip(games[0], games[1], strict=True))
    assert row["game"] == "'-xYz1234"
    assert row["name"] == '\'=HYPERLINK("http://example.com")'
    assert row["your score"] == "0"  # numbers are numbers
    rounds = _csv(alice_client.get(reverse("games:export_rounds_csv")))
    assert [r[3] for r in rounds[1:]] == ["alice", "'@SUM(1+1)"]
    assert all(r[0] == "'-xYz1234" for r in rounds[1:])
    # In JSON a string is a string: nothing to escape.
    data = json.loads(
        alice_client.get(reverse("games:export_game_json", args=["-xYz1234"])).content
    )
    assert (data["id"], data["name"]) == ("-xYz1234", '=HYPERLINK("http://example.com")')
    assert data["players"][1]["name"] == "@SUM(1+1)"


def test_the_export_says_who_resigned_and_which_seats_and_rounds_bots_played(alice_client, alice):
    from .factories import laid, make_game, missed, player

    game = make_game(
        [player(alice), player("Ada")],
        [[missed(1, 50), laid(1, out=True)], [laid(1, out=True), missed(2, 5)]],
        winner=0,
        rules={"phases": [1, 2]},
        bots=(1,),
        resigned={0: 1},
    )
    games = _csv(alice_client.get(reverse("games:export_games_csv")))
    row = dict(zip(games[0], games[1], strict=True))
    # The bot that took alice's seat won it, not alice.
    assert (row["you won"], row["you resigned"]) == ("no", "yes")
    rounds = _csv(alice_client.get(reverse("games:export_rounds_csv")))
    assert [(r[1], r[3], r[-1]) for r in rounds[1:]] == [
        ("1", "alice", "no"),
        ("1", "Ada", "yes"),
        ("2", "alice", "yes"),
        ("2", "Ada", "yes"),
    ]
    assert rounds[0][-1] == "played by a bot"
    data = json.loads(
        alice_client.get(reverse("games:export_game_json", args=[game.public_id])).content
    )
    assert [(p["name"], p["guest"], p["bot"], p["resigned"]) for p in data["players"]] == [
        ("alice", False, False, True),
        ("Ada", False, True, False),
    ]
    assert [r["by_bot"] for r in data["rounds"][0]["results"]] == [False, True]


@pytest.mark.parametrize("page", ["accounts:profile", "accounts:profile_delete", "games:stats"])
def test_every_place_that_offers_your_data_offers_your_rating_history_too(alice_client, page):
    html = alice_client.get(reverse(page)).content.decode()
    assert reverse("games:export_games_csv") in html
    assert reverse("games:export_ratings_csv") in html


def test_public_ids_never_start_as_a_formula_so_the_csv_shows_them_as_the_url_does(
    alice_client, alice
):
    from games.models import new_public_id
    from games.stats.export import spreadsheet_safe

    # One random id in 64 started with "-": 2,000 of them hold about 31 such ids.
    ids = [new_public_id() for _ in range(2000)]
    assert [i for i in ids if spreadsheet_safe(i) != i] == []
    assert {len(i) for i in ids} == {12}
