"""What a replay step costs: replaying a long game's move log in Python.

    python bench/replay.py [--games 5] [--players 6] [--seed 1]

Plays whole bot games (default rules), logs their moves as the move log holds them
(`action_to_dict` plus the log notes), then times `games.online.replay.outcomes` over
the whole log: the last step of a replay page is the worst case (every move replayed).
Prints figures (CPU time), asserts nothing.
"""

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "phase10site.settings")

import django  # noqa: E402

django.setup()

from games.engine import Rules, new_game, play, player_view  # noqa: E402
from games.engine.bots import choose_action  # noqa: E402
from games.online import replay, services  # noqa: E402


def logged_game(players: int, seed: int) -> tuple[object, list[replay.LoggedMove]]:
    state = first = new_game(players, Rules(), seed=seed)
    rng = random.Random(seed)
    moves: list[replay.LoggedMove] = []
    while not state.game_over:
        seat = state.current_seat
        action = choose_action(player_view(state, seat), rng)
        outcome = play(state, action)
        moves.append((len(moves) + 1, seat, services.logged(action, outcome.events), False))
        state = outcome.state
    return first, moves


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    per_move, whole, lengths = [], [], []
    for game in range(args.games):
        first, moves = logged_game(args.players, args.seed + game)
        start = time.process_time_ns()
        for _outcome in replay.outcomes(first, moves):  # type: ignore[arg-type]
            pass
        spent = time.process_time_ns() - start
        lengths.append(len(moves))
        whole.append(spent / 1e6)
        per_move.append(spent / len(moves) / 1e3)
    print(f"{args.games} games of {args.players} bots, {min(lengths)}-{max(lengths)} moves")
    print(
        f"last step (whole log replayed): median {statistics.median(whole):.1f} ms, "
        f"worst {max(whole):.1f} ms (CPU)"
    )
    print(f"per move: median {statistics.median(per_move):.1f} µs (CPU)")


if __name__ == "__main__":
    main()
