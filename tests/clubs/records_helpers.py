"""A club's seeded history for the records and year-in-review tests (part C3), with every
figure worked out by hand in the docstring of `seed`.

Games are written straight into the tables (tests/stats/factories.py), then given their
club, finish time and, where a test needs it, a tie or a seat not yet accepted.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.utils import timezone

from accounts import claims
from games.models import (
    Club,
    ClubMember,
    Game,
    Player,
    RatedGame,
    RatingChange,
    RoundScore,
    Seat,
)
from games.scoring import bump_all
from tests.stats.factories import laid, make_game, missed, player


def at(year: int, month: int, day: int, hour: int = 20, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def club_game(club: Club | None, when: datetime, players, rounds, **options) -> Game:  # type: ignore[no-untyped-def]
    """make_game's game, in `club`, finished at `when`."""
    game = make_game(players, rounds, **options)
    if game.status == Game.Status.FINISHED:
        game.finished_at = when
    game.club = club
    Game.objects.filter(pk=game.pk).update(finished_at=game.finished_at, club=club)
    return game


def make_club(name: str, *users, admin=None) -> Club:  # type: ignore[no-untyped-def]
    club = Club.objects.create(name=name, created_by=admin or users[0])
    ClubMember.objects.bulk_create(
        ClubMember(club=club, user=user, is_admin=user == (admin or users[0])) for user in users
    )
    return club


def rating(player: Player, game: Game, before: float, after: float) -> RatingChange:
    """A rating change with hand-picked ordinals (sigma 0: the ordinal is mu), and the
    game's RatedGame row, as the ledger leaves them."""
    RatedGame.objects.get_or_create(game=game, defaults={"finished_at": game.finished_at})
    return RatingChange.objects.create(
        player=player,
        game=game,
        finished_at=game.finished_at,
        rank=1,
        mu_before=before,
        sigma_before=0,
        mu_after=after,
        sigma_after=0,
        ordinal_before=before,
        ordinal_after=after,
    )


@dataclass
class History:
    club: Club
    alice: Player
    bob: Player
    carol: Player
    dora: Player
    games: dict[str, Game]


def seed(alice, bob, carol, *, claim: bool = True) -> History:  # type: ignore[no-untyped-def]
    """The Thursday club (alice, bob, carol) and its games, in the order they finished.
    Dora Quinn is a guest; Caz a guest whom carol claims (G2 becomes carol's); a bot
    plays seat 4 of G3; carol resigns G4 after its first round; in G5 alice and carol
    tie for second; carol hasn't accepted her seat in G6. G7 is no club's; G8 is in
    play. Every round: (phase tried, laid?, points) per seat.

    G0 night 2024-11-20, 3 rounds: B wins on 30 (A 35). B 1 behind after round 1.
    G1 night 2025-01-10 20:00, 3 rounds: A wins on 10; B 45 (2nd), Dora 85 (3rd).
    G2 night 2025-01-10 22:00, 2 rounds: Caz→carol wins on 15; A 20, B 30.
    G3 online 2025-02-05, 5 rounds: C wins on 55 from 2 phases behind after round 2.
    G4 online 2025-03-01, 2 rounds: A wins on 0; B 2nd; C resigned (last).
    G5 night 2025-06-15, 2 rounds: B wins on 5; A and C tie 2nd; Dora 3rd.
    G6 night 2025-06-20, 1 round: B wins on 0 (ties G4's 0, later); C not accepted.
    G7 night 2025-07-01, no club, 1 round: A wins on 0 against B.
    G8 night in play (club): never counts.

    Records, all time: lowest winning total 0 (alice, G4: G6's 0 came later); fewest
    rounds 1 (bob, G6); longest streak 2 (carol, G2–G3, after the claim: bob's G5–G6 is
    as long and later); biggest comeback 2 (carol, G3).
    """
    a, b, c = player(alice), player(bob), player(carol)
    dora = player("Dora Quinn", created_by=alice)
    caz = player("Caz", created_by=alice)
    bot = Player.objects.create(name="Bot")
    club = make_club("Thursday club", alice, bob, carol)
    g: dict[str, Game] = {}
    g["G0"] = club_game(
        club,
        at(2024, 11, 20),
        [a, b],
        [
            [laid(1, out=True), missed(1, 30)],
            [missed(2, 25), laid(1, out=True)],
            [missed(2, 10), laid(2, out=True)],
        ],
        winner=1,
        name="G0",
    )
    g["G1"] = club_game(
        club,
        at(2025, 1, 10, 20),
        [a, b, dora],
        [
            [laid(1, out=True), missed(1, 25), missed(1, 30)],
            [laid(2, 10), laid(1, out=True), laid(1, 15)],
            [laid(3, out=True), missed(2, 20), missed(2, 40)],
        ],
        winner=0,
        name="G1",
    )
    g["G2"] = club_game(
        club,
        at(2025, 1, 10, 22),
        [a, b, caz],
        [
            [missed(1, 20), laid(1, out=True), laid(1, 10)],
            [laid(1, out=True), missed(2, 30), missed(2, 5)],
        ],
        winner=2,
        name="G2",
    )
    g["G3"] = club_game(
        club,
        at(2025, 2, 5),
        [a, b, c, bot],
        [
            [laid(1, out=True), laid(1, 5), missed(1, 30), missed(1, 20)],
            [laid(2, out=True), missed(2, 10), missed(1, 25), laid(1, 5)],
            [missed(3, 30), missed(2, 15), laid(1, out=True), missed(2, 20)],
            [missed(3, 25), missed(2, 20), laid(2, out=True), missed(2, 25)],
            [missed(3, 35), missed(2, 30), laid(3, out=True), missed(2, 30)],
        ],
        winner=2,
        mode=Game.Mode.ONLINE,
        bots=(3,),
        name="G3",
    )
    g["G4"] = club_game(
        club,
        at(2025, 3, 1),
        [a, b, c],
        [
            [laid(1, out=True), missed(1, 20), missed(1, 25)],
            [laid(2, out=True), laid(1, 10), laid(1, 5)],
        ],
        winner=0,
        mode=Game.Mode.ONLINE,
        resigned={2: 1},
        name="G4",
    )
    g["G5"] = club_game(
        club,
        at(2025, 6, 15),
        [a, b, c, dora],
        [
            [missed(1, 20), laid(1, out=True), missed(1, 10), missed(1, 15)],
            [laid(1, out=True), laid(2, 5), laid(1, 10), missed(1, 30)],
        ],
        winner=1,
        name="G5",
    )
    # A and C: one phase and 20 points each, a tie the engine ranks as one place.
    Seat.objects.filter(game=g["G5"], position=2).update(rank=2)
    Seat.objects.filter(game=g["G5"], position=3).update(rank=3)
    g["G6"] = club_game(
        club,
        at(2025, 6, 20),
        [a, b, c],
        [[missed(1, 25), laid(1, out=True), missed(1, 30)]],
        winner=1,
        name="G6",
    )
    Seat.objects.filter(game=g["G6"], position=2).update(accepted=False)
    g["G7"] = club_game(
        None,
        at(2025, 7, 1),
        [a, b],
        [[laid(1, out=True), missed(1, 40)]],
        winner=0,
        name="G7",
    )
    g["G8"] = club_game(
        club,
        at(2025, 7, 2),
        [a, b],
        [[laid(1, out=True), missed(1, 40)]],
        winner=0,
        status=Game.Status.ACTIVE,
        name="G8",
    )
    # carol claims Caz: G2's seat and rounds become hers (the claim re-rates; the
    # ratings below are hand-picked instead).
    if claim:
        claims.accept(claims.invite(alice, caz, carol.get_username()), carol)
    RatingChange.objects.all().delete()
    RatedGame.objects.all().delete()
    for game in g.values():
        game.refresh_from_db()
    # Ratings of 2025 (ordinals; shown = 1000 + 25 × ordinal): alice 0 → 1.0 → 1.2
    # (+30), bob 0 → -0.4 (-10), carol 0 → 2.0 (+50).
    rating(a, g["G1"], 0.0, 1.0)
    rating(b, g["G1"], 0.0, -0.4)
    rating(c, g["G3"], 0.0, 2.0)
    rating(a, g["G3"], 1.0, 1.2)
    return History(club, a, b, c, dora, g)


def correct(game: Game) -> None:
    """What a correction leaves: the game's rows changed and its version (and its
    club's) one up."""
    bump_all(Game.objects.filter(pk=game.pk))


def bulk_club_games(club: Club, players: list[Player], count: int, rounds: int = 4) -> None:
    """`count` finished four-seat club nights of `players` in turn, in bulk (query
    counts): seat 0 wins, laying a phase each round."""
    now = timezone.now()
    games = Game.objects.bulk_create(
        Game(
            mode=Game.Mode.NIGHT,
            status=Game.Status.FINISHED,
            club=club,
            creator=players[0].user,
            rounds_played=rounds,
            finished_at=now - timedelta(hours=n + 1),
            winner=players[n % len(players)],
        )
        for n in range(count)
    )
    seats = Seat.objects.bulk_create(
        Seat(
            game=game,
            position=position,
            player=players[(n + position) % len(players)],
            rank=position + 1,
            is_winner=position == 0,
            score=10 * position,
        )
        for n, game in enumerate(games)
        for position in range(min(4, len(players)))
    )
    RoundScore.objects.bulk_create(
        RoundScore(
            game_id=seat.game_id,
            seat=seat,
            player_id=seat.player_id,
            round_number=number,
            phase_attempted=number if seat.position == 0 else 1,
            phase_completed=number if seat.position == 0 else None,
            points=0 if seat.position == 0 else 10,
        )
        for seat in seats
        for number in range(1, rounds + 1)
    )
