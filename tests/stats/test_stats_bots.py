"""Stats count only the rounds a person played: a bot's rounds (a bot's own seat, or a
seat whose person resigned) are left out of people's stats, and bots are never anyone's
opponent, rival or guest. Deleted accounts are not guests either.

`table`, worked out by hand:

G1 online, 10 days ago: alice, bob, the bot "Ada"; alice resigns after round 1 and the
   bot playing her seat wins the game.
   R1 alice misses 1 (50), bob lays 1 out, Ada misses 1 (40)
   R2 (bot for alice) lays 1 out, bob misses 2 (30), Ada lays 1 (10)
   R3 (bot for alice) lays 2 out, bob misses 2 (25), Ada misses 2 (35)
G2 online, 5 days ago: alice and the bot "Abe"; alice wins.
   R1 alice lays 1 out, Abe misses 1 (45)
   R2 alice misses 2 (20), Abe lays 1 out
   R3 alice lays 2 out, Abe misses 2 (15)
"""

import pytest
from django.urls import reverse

from games.models import Game, Player
from games.stats import figures
from games.stats.access import co_players
from games.stats.leaderboard import ranked
from games.stats.scope import Scope

from .factories import laid, make_game, missed, player

pytestmark = pytest.mark.django_db

THREE = {"phases": [1, 2, 3]}


@pytest.fixture
def table(alice, bob):
    a, b = player(alice), player(bob)
    ada, abe = player("Ada"), player("Abe")
    g1 = make_game(
        [a, b, ada],
        [
            [missed(1, 50), laid(1, out=True), missed(1, 40)],
            [laid(1, out=True), missed(2, 30), laid(1, 10)],
            [laid(2, out=True), missed(2, 25), missed(2, 35)],
        ],
        winner=0,
        mode=Game.Mode.ONLINE,
        rules=THREE,
        days_ago=10,
        bots=(2,),
        resigned={0: 1},
    )
    g2 = make_game(
        [a, abe],
        [
            [laid(1, out=True), missed(1, 45)],
            [missed(2, 20), laid(1, out=True)],
            [laid(2, out=True), missed(2, 15)],
        ],
        winner=0,
        mode=Game.Mode.ONLINE,
        rules=THREE,
        days_ago=5,
        bots=(1,),
    )
    return {"alice": a, "bob": b, "ada": ada, "abe": abe, "g1": g1, "g2": g2}


def scope(table, who="alice"):
    return Scope.parse(table[who], None, None)


def test_a_game_won_by_the_bot_after_its_person_resigned_is_not_their_win(table):
    summary = figures.summary(scope(table))
    # G1 counts as played (and lost: they left it); only G2 is a win.
    assert (summary.played, summary.won) == (2, 1)
    assert summary.longest_streak == 1
    points = figures.win_rate_over_time(scope(table), played=2)
    assert [(p.game_number, p.wins) for p in points] == [(1, 0), (2, 1)]


def test_a_resigned_game_s_final_score_is_not_the_person_s(table):
    # G1's final total (50) is mostly the bot's play: scores and game lengths come
    # from the games the person finished.
    summary = figures.summary(scope(table))
    assert summary.average_score == 20
    assert summary.best_score == 20
    assert summary.average_rounds == 3


def test_the_phase_table_counts_only_the_rounds_the_person_played(table):
    phases = {row.phase: row for row in figures.phase_stats(scope(table))}
    # Phase 1: G1 round 1 (missed; the bot laid it in round 2), G2 round 1 (laid).
    assert (phases[1].rounds, phases[1].completed) == (2, 1)
    # Phase 2: G2 rounds 2 and 3; G1 round 3 was the bot's.
    assert (phases[2].rounds, phases[2].completed) == (2, 1)
    assert set(phases) == {1, 2}


def test_the_phase_per_round_chart_counts_only_the_rounds_the_person_played(table):
    rows = {row.round_number: row for row in figures.phase_by_round(scope(table))}
    # Round 2: only G2 is alice's (phase 2); G1's round 2 was the bot's (phase 1).
    assert rows[2].mine == 2
    assert rows[1].mine == 1


def test_bots_are_nobody_s_opponent_in_head_to_head(table):
    rows = figures.head_to_head(scope(table))
    # Ada and Abe sort before bob and played as often: without the fix a bot was the
    # "most frequent opponent".
    assert [(r.name, r.games, r.wins, r.losses, r.is_guest) for r in rows] == [
        ("bob", 1, 0, 0, False)
    ]


def test_a_resigned_person_s_seat_that_a_bot_won_is_no_win_against_them(table):
    rows = figures.head_to_head(scope(table, who="bob"))
    assert [(r.name, r.games, r.wins, r.losses) for r in rows] == [("alice", 1, 0, 0)]


def test_the_leaderboard_leaves_bots_out_and_counts_only_people_s_wins(table):
    rows = ranked(scope(table))
    assert [(r.name, r.games, r.wins) for r in rows] == [("alice", 2, 1), ("bob", 1, 0)]
    assert co_players(table["alice"]).filter(pk__in=[table["ada"].pk]).count() == 0


def test_a_deleted_player_is_not_a_guest(table):
    bob_player = table["bob"]
    Player.objects.filter(pk=bob_player.pk).update(
        name="Deleted player", user=None, anonymised=True
    )
    h2h = figures.head_to_head(scope(table))
    assert [(r.name, r.is_guest) for r in h2h] == [("Deleted player", False)]
    board = ranked(scope(table))
    assert [(r.name, r.is_guest) for r in board] == [("alice", False), ("Deleted player", False)]


def test_the_stats_page_shows_no_bot_as_a_rival_or_a_guest(alice_client, table):
    page = alice_client.get(reverse("games:stats")).content.decode()
    most_frequent = page.split('data-stat="most-frequent"')[1].split("</dd>")[0]
    assert ">bob<" in most_frequent
    head_to_head = page.split('id="h2h-heading"')[1].split("</table>")[0]
    assert "Ada" not in head_to_head and "Abe" not in head_to_head
    assert ">guest<" not in page
    # The recent games say alice left G1, not that she won it; bots are marked as bots.
    recent = page.split('id="recent-heading"')[1].split("</ol>")[0]
    assert recent.count(">Won<") == 1
    assert "Resigned" in recent
    assert "Ada (bot)" in recent and "Abe (bot)" in recent


def test_a_bot_has_no_player_page(alice_client, table):
    response = alice_client.get(reverse("games:player_stats", args=[table["ada"].pk]))
    assert response.status_code == 404


def test_a_person_who_only_resigned_has_no_score_to_show(client, carol):
    make_game(
        [player(carol), player("Ava")],
        [[missed(1, 50), laid(1, out=True)], [laid(1, out=True), missed(2, 5)]],
        winner=0,
        mode=Game.Mode.ONLINE,
        rules=THREE,
        bots=(1,),
        resigned={0: 1},
    )
    client.force_login(carol)
    page = client.get(reverse("games:stats")).content.decode()
    assert 'data-stat="played">1<' in page and 'data-stat="won">0<' in page
    for stat in ("average-score", "best-score", "rounds"):
        assert f'data-stat="{stat}">–<' in page
