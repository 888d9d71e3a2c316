"""Engine benchmarks: print figures, never assert them.

    python bench/engine.py [--hands 10000] [--games 20] [--seed 1] [--repeat 3]

Every figure is given twice: wall-clock time (`time.perf_counter_ns`) and CPU time of
this process (`time.thread_time_ns` per call, `time.process_time_ns` per game). The
budget is judged on CPU time: on a shared machine other processes steal the core from
under a wall-clock timer, but they don't add to this process's CPU time.

- find_phase: median and worst time per phase over random 11-card hands (each hand
  timed a few times, the fastest kept; the worst single run is printed too);
- apply: median time of one move, over the moves of bot games; play (apply and the
  events it caused) over the same moves;
- a whole 4-bot game (default rules): median time, bots' thinking included.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import apply, find_phase, full_deck, new_game, play, player_view  # noqa: E402
from games.engine.bots import choose_action  # noqa: E402
from games.engine.rules import Rules  # noqa: E402
from games.engine.simulate import play_game  # noqa: E402

wall = time.perf_counter_ns
cpu = time.thread_time_ns


def timed[T](call: Callable[[], T]) -> tuple[int, int, T]:
    """(wall ns, CPU ns, result) of one call, each clock's own reading cost included."""
    cpu_start = cpu()
    wall_start = wall()
    result = call()
    wall_end = wall()
    cpu_end = cpu()
    return wall_end - wall_start, cpu_end - cpu_start, result


def clock_overhead() -> tuple[int, int]:
    """What `timed` reports for an empty call (median): subtracted from every figure.

    Reading the CPU clock is a system call (about 1 µs here), so it is not negligible
    against a 20 µs call."""
    samples = [timed(lambda: None) for _ in range(20_000)]
    return (
        int(statistics.median(s[0] for s in samples)),
        int(statistics.median(s[1] for s in samples)),
    )


def us(ns: float) -> str:
    return f"{ns / 1000:.1f} µs"


def bench_find_phase(hands: int, seed: int, repeat: int, overhead: tuple[int, int]) -> None:
    rng = random.Random(seed)
    deck = full_deck()
    samples = [rng.sample(deck, 11) for _ in range(hands)]
    print(f"find_phase over {hands} random 11-card hands (seed {seed}), each timed {repeat}x:")
    print("               CPU (budget)                      wall")
    print("  phase    median     worst  worst(1 run)    median     worst  worst(1 run)  found")
    for phase in range(1, 11):
        gc.collect()
        best_wall, best_cpu = [], []  # per hand, the fastest of `repeat` runs
        single_wall, single_cpu = [], []  # per hand, the first run (GC pauses included)
        found = 0
        for hand in samples:
            runs = [timed(partial(find_phase, hand, phase)) for _ in range(repeat)]
            walls = [run[0] - overhead[0] for run in runs]
            cpus = [run[1] - overhead[1] for run in runs]
            best_wall.append(min(walls))
            best_cpu.append(min(cpus))
            single_wall.append(walls[0])
            single_cpu.append(cpus[0])
            found += runs[0][2] is not None
        print(
            f"  {phase:>5} {us(statistics.median(best_cpu)):>9} {us(max(best_cpu)):>9}"
            f" {us(max(single_cpu)):>13} {us(statistics.median(best_wall)):>9}"
            f" {us(max(best_wall)):>9} {us(max(single_wall)):>13} {found / hands:>6.1%}"
        )


def bench_apply(games: int, seed: int, overhead: tuple[int, int]) -> None:
    timings: dict[str, tuple[list[int], list[int]]] = {"apply": ([], []), "play": ([], [])}
    moves = 0
    for index in range(games):
        state = new_game(4, seed=seed + index)
        rngs = [random.Random(seat) for seat in range(4)]
        while not state.game_over:
            action = choose_action(player_view(state, state.current_seat), rngs[state.current_seat])
            # apply first, as before play existed, so its figure stays comparable (the
            # second call of the two finds warmer caches).
            wall_ns, cpu_ns, after = timed(partial(apply, state, action))
            timings["apply"][0].append(wall_ns - overhead[0])
            timings["apply"][1].append(cpu_ns - overhead[1])
            wall_ns, cpu_ns, outcome = timed(partial(play, state, action))
            timings["play"][0].append(wall_ns - overhead[0])
            timings["play"][1].append(cpu_ns - overhead[1])
            assert after == outcome.state
            state = after
            moves += 1
    for name, (walls, cpus) in timings.items():
        print(f"{name} over {moves} moves of {games} 4-bot games:")
        for clock, times in (("CPU (budget)", cpus), ("wall", walls)):
            print(
                f"  {clock:<12} median {us(statistics.median(times))},"
                f" 99th percentile {us(statistics.quantiles(times, n=100)[98])}"
            )


def bench_games(games: int, seed: int) -> None:
    walls, cpus, rounds = [], [], []
    for index in range(games):
        cpu_start, wall_start = time.process_time_ns(), wall()
        report = play_game(4, Rules(), seed + index)
        walls.append(wall() - wall_start)
        cpus.append(time.process_time_ns() - cpu_start)
        rounds.append(report.rounds)
    print(f"whole 4-bot game over {games} games, {statistics.mean(rounds):.1f} rounds per game:")
    for name, times in (("CPU (budget)", cpus), ("wall", walls)):
        print(
            f"  {name:<12} median {statistics.median(times) / 1e6:.0f} ms"
            f" (min {min(times) / 1e6:.0f}, max {max(times) / 1e6:.0f})"
        )


def load() -> str:
    return ", ".join(f"{value:.1f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--repeat", type=int, default=3, help="timings per hand (the fastest counts)"
    )
    args = parser.parse_args()
    overhead = clock_overhead()
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {load()}")
    print(f"clock reading cost subtracted: wall {us(overhead[0])}, CPU {us(overhead[1])}")
    bench_find_phase(args.hands, args.seed, args.repeat, overhead)
    bench_apply(args.games, args.seed, overhead)
    bench_games(args.games, args.seed)
    print(f"load average at the end: {load()}")


if __name__ == "__main__":
    main()
