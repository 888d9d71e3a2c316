"""Engine benchmarks: print figures, never assert them.

    python bench/engine.py [--hands 10000] [--games 20] [--seed 1]

- find_phase: median and worst time per phase over random 11-card hands (each hand
  timed a few times, the fastest kept, so a busy machine's pauses don't count; the
  worst single run is printed too);
- apply: median time of one move, over the moves of bot games;
- a whole 4-bot game (default rules): median time, bots' thinking included.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import apply, find_phase, full_deck, new_game, player_view  # noqa: E402
from games.engine.bots import choose_action  # noqa: E402
from games.engine.rules import Rules  # noqa: E402
from games.engine.simulate import play_game  # noqa: E402


def bench_find_phase(hands: int, seed: int, repeat: int) -> None:
    rng = random.Random(seed)
    deck = full_deck()
    samples = [rng.sample(deck, 11) for _ in range(hands)]
    print(f"find_phase over {hands} random 11-card hands (seed {seed}), each timed {repeat}x:")
    print("  phase   median     worst  worst(1 run)  found")
    for phase in range(1, 11):
        gc.collect()
        best = []  # per hand, the fastest of `repeat` runs: other processes' noise removed
        single = []  # per hand, the first run, noise and garbage collection included
        found = 0
        for hand in samples:
            runs = []
            for _ in range(repeat):
                start = time.perf_counter_ns()
                result = find_phase(hand, phase)
                runs.append(time.perf_counter_ns() - start)
            best.append(min(runs))
            single.append(runs[0])
            found += result is not None
        print(
            f"  {phase:>5} {statistics.median(best) / 1000:>7.1f} µs"
            f" {max(best) / 1000:>7.0f} µs {max(single) / 1000:>9.0f} µs {found / hands:>6.1%}"
        )


def bench_apply(games: int, seed: int) -> None:
    times = []
    for index in range(games):
        state = new_game(4, seed=seed + index)
        rngs = [random.Random(seat) for seat in range(4)]
        while not state.game_over:
            action = choose_action(player_view(state, state.current_seat), rngs[state.current_seat])
            start = time.perf_counter_ns()
            state = apply(state, action)
            times.append(time.perf_counter_ns() - start)
    print(
        f"apply over {len(times)} moves of {games} 4-bot games: median "
        f"{statistics.median(times) / 1000:.1f} µs, 99th percentile "
        f"{statistics.quantiles(times, n=100)[98] / 1000:.0f} µs"
    )


def bench_games(games: int, seed: int) -> None:
    reports = [play_game(4, Rules(), seed + index) for index in range(games)]
    seconds = [report.seconds for report in reports]
    rounds = [report.rounds for report in reports]
    print(
        f"whole 4-bot game over {games} games: median {statistics.median(seconds) * 1000:.0f} ms"
        f" (min {min(seconds) * 1000:.0f}, max {max(seconds) * 1000:.0f}),"
        f" {statistics.mean(rounds):.1f} rounds per game"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--repeat", type=int, default=3, help="timings per hand (the fastest counts)"
    )
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}")
    bench_find_phase(args.hands, args.seed, args.repeat)
    bench_apply(args.games, args.seed)
    bench_games(args.games, args.seed)


if __name__ == "__main__":
    main()
