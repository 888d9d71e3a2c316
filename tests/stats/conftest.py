"""`history`: five small games whose stats are worked out by hand (test_stats.py).

G1 table, phases 1-3, 100 days ago: alice 30 (wins), bob 115
   R1 alice lays 1 and goes out, bob misses 1 (50)
   R2 alice misses 2 (30), bob lays 1 and goes out
   R3 alice lays 2 and goes out, bob lays 2 (25)
   R4 alice lays 3 and goes out, bob misses 3 (40)
G2 online, phases 1-3, 10 days ago: alice 95, bob 10 (wins), carol 50
   R1 alice misses 1 (45), bob lays 1 out, carol lays 1 (20)
   R2 alice misses 1 (35), bob lays 2 (10), carol lays 2 out
   R3 alice lays 1 (15), bob lays 3 out, carol misses 3 (30)
G3 table, all-advance, phases 1-3, 5 days ago: alice 35 (wins), guest dora 40
   R1 alice lays 1 out, dora misses 1 (40)
   R2 alice misses 2 (25), dora lays 2 out
   R3 alice lays 3 (10), dora lays 3 out
G4 table, pick-a-phase, phases 1-2, 2 days ago: alice 20 (wins), bob 45
   R1 alice picks 2 and goes out, bob lays nothing (30)
   R2 alice lays nothing (20), bob picks 1 and goes out
   R3 alice picks 1 and goes out, bob picks 2 (15)
G5 table, still being played: alice and bob (never counted)
"""

import pytest

from games.models import Game

from .factories import laid, make_game, missed, nothing, picked, player

THREE = {"phases": [1, 2, 3]}


@pytest.fixture
def history(alice, bob, carol):
    a, b, c = player(alice), player(bob), player(carol)
    dora = player("dora", created_by=alice)
    games = {
        "g1": make_game(
            [a, b],
            [
                [laid(1, out=True), missed(1, 50)],
                [missed(2, 30), laid(1, out=True)],
                [laid(2, out=True), laid(2, 25)],
                [laid(3, out=True), missed(3, 40)],
            ],
            winner=0,
            rules=THREE,
            days_ago=100,
        ),
        "g2": make_game(
            [a, b, c],
            [
                [missed(1, 45), laid(1, out=True), laid(1, 20)],
                [missed(1, 35), laid(2, 10), laid(2, out=True)],
                [laid(1, 15), laid(3, out=True), missed(3, 30)],
            ],
            winner=1,
            mode=Game.Mode.ONLINE,
            rules=THREE,
            days_ago=10,
        ),
        "g3": make_game(
            [a, dora],
            [
                [laid(1, out=True), missed(1, 40)],
                [missed(2, 25), laid(2, out=True)],
                [laid(3, 10), laid(3, out=True)],
            ],
            winner=0,
            rules={**THREE, "all_advance": True},
            days_ago=5,
        ),
        "g4": make_game(
            [a, b],
            [
                [picked(2, out=True), nothing(30)],
                [nothing(20), picked(1, out=True)],
                [picked(1, out=True), picked(2, 15)],
            ],
            winner=0,
            rules={"phases": [1, 2], "pick_a_phase": True},
            days_ago=2,
        ),
        "g5": make_game(
            [a, b], [[missed(1, 50), laid(1, out=True)]], winner=1, status=Game.Status.ACTIVE
        ),
    }
    # Fixed ids: a random one starting with "-" or "=" is written "'-…" in the CSV
    # (spreadsheet_safe), and the exports' tests compare ids as they are.
    for key, game in games.items():
        game.public_id = f"game-{key}"
        game.save(update_fields=["public_id"])
    return {"alice": a, "bob": b, "carol": c, "dora": dora, **games}
