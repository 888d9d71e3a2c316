"""Play whole games between bots and print what happened.

    python -m games.engine.simulate --players 4 --games 1000 --seed 1 \\
        [--rules all_advance,pick_a_phase,phases=1-5,natural_card=group,skip_target=choose,
                 hit_others_same_turn,go_out_by_hitting] [--max-actions 20000]

`phases=` takes a range (1-5), a list joined by "+" (2+4+6+8+10), "even" or "odd".
A game that reaches --max-actions is stopped and reported, never looped forever.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.bots import choose_action
from games.engine.game import apply, new_game
from games.engine.rules import ActionError, Rules
from games.engine.state import GameState
from games.engine.view import player_view

DEFAULT_MAX_ACTIONS = 20_000


@dataclass(frozen=True)
class GameReport:
    seed: int
    winner: int | None
    rounds: int  # normal rounds played
    scores: tuple[int, ...]
    completed: tuple[int, ...]  # phases completed per seat
    attempted: Counter[int]  # phase -> seat-rounds spent on it
    laid: Counter[int]  # phase -> seat-rounds it was laid
    actions: int
    tiebreak: bool
    capped: bool
    seconds: float


def play_game(
    players: int, rules: Rules, seed: int, *, max_actions: int = DEFAULT_MAX_ACTIONS
) -> GameReport:
    """One game between bots, each with its own seeded random.Random."""
    started = time.perf_counter()
    state = new_game(players, rules, seed=seed)
    rngs = [random.Random(f"{seed}/bot/{seat}") for seat in range(players)]
    actions = 0
    while not state.game_over and actions < max_actions:
        seat = state.current_seat
        state = apply(state, choose_action(player_view(state, seat), rngs[seat]))
        actions += 1
    return _report(state, seed, actions, time.perf_counter() - started)


def _report(state: GameState, seed: int, actions: int, seconds: float) -> GameReport:
    attempted: Counter[int] = Counter()
    for row in state.standing.attempted:
        attempted.update(phase for phase in row if phase is not None)
    laid: Counter[int] = Counter()
    for done in state.completed:
        laid.update(done)
    return GameReport(
        seed=seed,
        winner=state.winner,
        rounds=len(state.standing.attempted),
        scores=state.scores,
        completed=tuple(len(done) for done in state.completed),
        attempted=attempted,
        laid=laid,
        actions=actions,
        tiebreak=state.tiebreak,
        capped=not state.game_over,
        seconds=seconds,
    )


def parse_rules(text: str) -> Rules:
    """`"all_advance,phases=1-5"` -> Rules(all_advance=True, phases=(1, 2, 3, 4, 5))."""
    options: dict[str, object] = {}
    for token in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = token.partition("=")
        if name == "phases":
            options["phases"] = _parse_phases(value)
        elif name in ("natural_card", "skip_target"):
            options[name] = value
        elif name in ("all_advance", "pick_a_phase", "hit_others_same_turn", "go_out_by_hitting"):
            options[name] = value.lower() not in ("0", "false", "no", "off")
        else:
            raise ActionError(f"Unknown rule option {name!r}.")
    return Rules(**options)  # type: ignore[arg-type]


def _parse_phases(value: str) -> tuple[int, ...]:
    if value == "even":
        return (2, 4, 6, 8, 10)
    if value == "odd":
        return (1, 3, 5, 7, 9)
    if "-" in value:
        low, _, high = value.partition("-")
        return tuple(range(int(low), int(high) + 1))
    return tuple(int(part) for part in value.split("+"))


def summarise(reports: Sequence[GameReport], players: int) -> str:
    """A plain-text summary of many games."""
    finished = [r for r in reports if not r.capped]
    lines = [
        f"games: {len(reports)}, finished: {len(finished)}, capped: {len(reports) - len(finished)}"
    ]
    if not reports:
        return "\n".join(lines)
    rounds = [r.rounds for r in reports]
    lines.append(
        f"rounds per game: mean {statistics.mean(rounds):.1f}, median {statistics.median(rounds)}, "
        f"min {min(rounds)}, max {max(rounds)}"
    )
    lines.append(f"tie-breakers: {sum(r.tiebreak for r in reports)}")
    if finished:
        winning = [r.scores[r.winner] for r in finished if r.winner is not None]
        everyone = [score for r in finished for score in r.scores]
        lines.append(
            f"winning score: mean {statistics.mean(winning):.0f}, median "
            f"{statistics.median(winning)}; all scores: mean {statistics.mean(everyone):.0f}"
        )
        wins = Counter(r.winner for r in finished)
        lines.append("wins by seat: " + ", ".join(f"{s}: {wins[s]}" for s in range(players)))
    done = [count for r in reports for count in r.completed]
    lines.append(f"phases completed per player: mean {statistics.mean(done):.2f}")
    attempted: Counter[int] = Counter()
    laid: Counter[int] = Counter()
    for r in reports:
        attempted.update(r.attempted)
        laid.update(r.laid)
    lines.append(
        "phase success per seat-round: "
        + ", ".join(f"{p}: {laid[p] / attempted[p]:.0%}" for p in sorted(attempted) if attempted[p])
    )
    seconds = [r.seconds for r in reports]
    actions = [r.actions for r in reports]
    lines.append(
        f"time per game: mean {statistics.mean(seconds) * 1000:.0f} ms, median "
        f"{statistics.median(seconds) * 1000:.0f} ms; actions per game: mean "
        f"{statistics.mean(actions):.0f}"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine.simulate", description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--rules", default="", help="comma-separated options, e.g. all_advance,phases=1-5"
    )
    parser.add_argument("--max-actions", type=int, default=DEFAULT_MAX_ACTIONS)
    args = parser.parse_args(argv)
    try:
        rules = parse_rules(args.rules)
    except (ActionError, ValueError) as error:
        parser.error(str(error))
    print(f"{args.games} games, {args.players} bots, seed {args.seed}, rules {rules}")
    reports = []
    for index in range(args.games):
        report = play_game(
            args.players, rules, args.seed * 1_000_003 + index, max_actions=args.max_actions
        )
        if report.capped:
            print(f"game {index} (seed {report.seed}) stopped after {report.actions} actions")
        reports.append(report)
    print(summarise(reports, args.players))
    return 0


if __name__ == "__main__":
    sys.exit(main())
