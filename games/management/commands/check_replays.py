"""Replay every online game from its seed and move log (`games.online.replay`, the same
replay a finished game's replay page steps through) and compare with its snapshot.

    python manage.py check_replays [--game=PUBLIC_ID ...]

Write `--game=PUBLIC_ID`, with "=": a public id is random URL-safe text and may start
with "-" (one in 64 does), and `--game -x1…` would read it as another option.

Prints one line per mismatch and exits with status 1 if there was any; a game that
can't be replayed at all (a move the engine refuses) counts as a mismatch too.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.online import replay, services


class Command(BaseCommand):
    help = "Check that replaying each online game's seed and moves reproduces its snapshot."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--game",
            action="append",
            default=[],
            metavar="PUBLIC_ID",
            help='Only this game; repeat for more. Write --game=PUBLIC_ID: an id may start with "-".',
        )

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.filter(mode=Game.Mode.ONLINE).exclude(status=Game.Status.LOBBY)
        if options["game"]:
            games = games.filter(public_id__in=options["game"])
        checked = mismatches = 0
        for game in games.order_by("pk").iterator(chunk_size=100):
            checked += 1
            problem = replay_problem(game)
            if problem:
                mismatches += 1
                self.stdout.write(f"MISMATCH {game.public_id} ({game}): {problem}")
                self.stdout.write(f"  check it again with: check_replays --game={game.public_id}")
        self.stdout.write(f"{checked} game(s) checked, {mismatches} mismatch(es).")
        if mismatches:
            raise CommandError(f"{mismatches} game(s) don't replay to their snapshot.")


def replay_problem(game: Game) -> str:
    """'' when the seed and the move log reproduce `game.state`, else what differs."""
    if not game.state or game.seed is None:
        return "no snapshot or no seed"
    moves = replay.logged_moves(game)
    if [number for number, *_rest in moves] != list(range(1, len(moves) + 1)):
        return "the move numbers have gaps"
    if len(moves) != game.move_number:
        return f"{len(moves)} moves logged but the game is at move {game.move_number}"
    tail = [list(move) for move in moves[-services.RECENT_MOVES :]]
    if game.recent_moves != tail:
        return "its recent moves aren't the move log's last moves"
    try:
        state = replay.first_state(game)
        for outcome in replay.outcomes(state, moves):
            state = outcome.state
    except replay.ReplayError as error:
        return str(error)
    except ValueError as error:  # RuleError / ActionError: the log doesn't replay
        return f"replay failed: {error}"
    replayed, snapshot = state.to_dict(), game.state
    if replayed != snapshot:
        keys = sorted(key for key in replayed if replayed.get(key) != snapshot.get(key))
        return "the snapshot differs in " + ", ".join(keys or ["its keys"])
    return ""
