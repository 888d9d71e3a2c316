"""Demo history for `make run`: two dozen finished game nights among the demo users
and a guest, so every stat and chart has something to show.

The rounds are made up (seeded, so the same every time) but always legal: each one
goes through the engine's progression, which also decides phases, totals and the
winner, exactly as a game night would. Safe to run again: it does nothing
once the first demo night exists.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from games.engine.progression import (
    RoundResult,
    Standing,
    advance,
    settle_tiebreak,
    standing_ranks,
    start,
)
from games.engine.rules import Rules
from games.models import Game, Player, RoundScore, Seat

from . import rating_ledger

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.core.management.base import OutputWrapper

PREFIX = "Club night"
GUEST_NAME = "Ed"

# How often a phase is laid in a round, and how each player's luck differs.
PHASE_ODDS = {1: 0.7, 2: 0.6, 3: 0.55, 4: 0.5, 5: 0.45, 6: 0.4, 7: 0.5, 8: 0.35, 9: 0.5, 10: 0.45}
SKILL = {"alice": 0.08, "bob": 0.0, "carol": 0.04, "deniz": -0.04, GUEST_NAME: -0.02}
# Everyone has a nemesis: bob and colour groups, deniz and long runs.
NEMESIS = {("bob", 8): -0.2, ("deniz", 6): -0.2, ("alice", 9): -0.15}

# (who, rules, days ago): alice and bob score; Ed came to some of alice's nights.
NIGHTS: list[tuple[tuple[str, ...], dict[str, Any], float]] = [
    (("alice", "bob", "carol"), {}, 420),
    (("alice", "bob", "deniz"), {}, 380),
    (("alice", "carol", GUEST_NAME), {}, 300),
    (("alice", "bob"), {"phases": [1, 2, 3, 4, 5]}, 250),
    (("bob", "carol", "deniz"), {}, 210),
    (("alice", "bob", "carol", "deniz"), {"all_advance": True}, 180),
    (("alice", "deniz", GUEST_NAME), {}, 150),
    (("alice", "bob", "carol"), {"pick_a_phase": True, "phases": [1, 2, 3, 4, 5]}, 120),
    (("alice", "bob"), {}, 95),
    (("alice", "carol", "deniz"), {"phases": [2, 4, 6, 8, 10]}, 80),
    (("alice", "bob", GUEST_NAME), {}, 64),
    (("bob", "carol"), {"all_advance": True}, 50),
    (("alice", "bob", "carol", "deniz"), {}, 41),
    (("alice", "deniz"), {"pick_a_phase": True}, 33),
    (("alice", "bob", "carol"), {}, 27),
    (("alice", "carol", GUEST_NAME), {"all_advance": True}, 21),
    (("alice", "bob", "deniz"), {}, 16),
    (("alice", "bob"), {"phases": [1, 3, 5, 7, 9]}, 12),
    (("alice", "carol", "deniz", GUEST_NAME), {}, 8),
    (("alice", "bob", "carol"), {}, 5),
    (("alice", "bob", "deniz"), {"pick_a_phase": True, "phases": [1, 2, 3, 4, 5]}, 3),
    (("alice", "bob", "carol", "deniz"), {}, 1),
]


def load_demo(users: list[User], stdout: OutputWrapper) -> None:
    creators = {user.username: user for user in users}
    if "alice" not in creators or Game.objects.filter(name__startswith=PREFIX).exists():
        return
    rng = random.Random(10)
    players = {name: Player.for_user(user) for name, user in creators.items()}
    players[GUEST_NAME] = Player.objects.create(name=GUEST_NAME, created_by=creators["alice"])
    now = timezone.now()
    with transaction.atomic():
        for number, (who, rules, days_ago) in enumerate(NIGHTS, start=1):
            scorer = creators["bob"] if who[0] == "bob" else creators["alice"]
            finished_at = now - timedelta(days=days_ago, hours=rng.randint(0, 5))
            _night(rng, f"{PREFIX} {number}", [players[n] for n in who], rules, scorer, finished_at)
    stdout.write(f"Stats demo: {len(NIGHTS)} finished game nights with a guest ({GUEST_NAME}).")
    # Every demo game (these and the other demos' finished ones) rated at once, as the
    # task would have done game by game.
    rated = rating_ledger.run()
    stdout.write(f"Ratings: {rated} games rated.")


def _odds(name: str, phase: int) -> float:
    return PHASE_ODDS[phase] + SKILL.get(name, 0) + NEMESIS.get((name, phase), 0)


def _points(rng: random.Random, laid: bool) -> int:
    return 5 * (rng.randint(1, 8) if laid else rng.randint(4, 24))


def _round(rng: random.Random, rules: Rules, standing: Standing, names: list[str]) -> RoundResult:
    completed: dict[int, int] = {}
    for seat, name in enumerate(names):
        if rules.pick_a_phase:
            left = [p for p in rules.phases if p not in standing.completed[seat]]
            phase = rng.choice(left) if left else None
        else:
            phase = standing.phase[seat]
        if phase is not None and rng.random() < _odds(name, phase):
            completed[seat] = phase
    if not completed:
        # Somebody always goes out at a real table: the luckiest player lays down.
        seat = max(range(len(names)), key=lambda s: SKILL.get(names[s], 0) + rng.random())
        phase = standing.phase[seat]
        if rules.pick_a_phase:
            phase = next(p for p in rules.phases if p not in standing.completed[seat])
        if phase is None:
            return RoundResult(went_out=None, completed={}, points=[5] * len(names))
        completed[seat] = phase
    went_out = rng.choice(sorted(completed))
    points = [
        0 if seat == went_out else _points(rng, seat in completed) for seat in range(len(names))
    ]
    return RoundResult(went_out=went_out, completed=completed, points=points)


def _night(
    rng: random.Random,
    name: str,
    players: list[Player],
    options: dict[str, Any],
    scorer: User,
    finished_at: datetime,
) -> None:
    rules = Rules.from_dict(options) if options else Rules()
    names = [p.name if p.user is None else p.user.username for p in players]
    standing = start(len(players), rules)
    results: list[RoundResult] = []
    tiebreak_winner = None
    while not standing.game_over and len(results) < 60:
        if standing.tiebreak_needed:
            tiebreak_winner = rng.choice(standing.tiebreak_seats)
            standing = settle_tiebreak(standing, tiebreak_winner)
            break
        result = _round(rng, rules, standing, names)
        standing = advance(rules, standing, result)
        results.append(result)
    assert standing.winner is not None, "every demo night is played to the end"
    game = Game.objects.create(
        mode=Game.Mode.NIGHT,
        name=name,
        status=Game.Status.FINISHED,
        rules=rules.to_dict(),
        creator=scorer,
        rounds_played=len(results),
        tiebreak_winner=tiebreak_winner,
        winner=players[standing.winner],
        finished_at=finished_at,
    )
    Game.objects.filter(pk=game.pk).update(
        created_at=finished_at - timedelta(hours=2), updated_at=finished_at
    )
    done = [len(c) for c in standing.completed]
    ranks = standing_ranks(rules, standing)
    seats = Seat.objects.bulk_create(
        Seat(
            game=game,
            position=s,
            player=player,
            score=standing.scores[s],
            phase=None,
            phases_completed=done[s],
            rank=ranks[s],
            is_winner=s == standing.winner,
        )
        for s, player in enumerate(players)
    )
    totals = [0] * len(players)
    rows = []
    for number, (result, attempted) in enumerate(
        zip(results, standing.attempted, strict=True), start=1
    ):
        for s, seat in enumerate(seats):
            totals[s] += result.points[s]
            rows.append(
                RoundScore(
                    game=game,
                    seat=seat,
                    player=players[s],
                    round_number=number,
                    phase_attempted=attempted[s],
                    phase_completed=result.completed.get(s),
                    points=result.points[s],
                    went_out=result.went_out == s,
                    total=totals[s],
                )
            )
    RoundScore.objects.bulk_create(rows)
