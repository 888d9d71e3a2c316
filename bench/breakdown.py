"""Where a request's CPU goes inside the app, measured in the bench's own gunicorn workers.

`python bench/web.py --breakdown …` starts gunicorn with this file as its config
(`-c bench/breakdown.py`): each worker times every request inside the WSGI app (thread
CPU: what the worker itself spends, without gunicorn's socket work around it), the
garbage collector's share of that, and the functions named in FUNCTIONS, per call. At
exit each worker writes its figures to $BREAKDOWN_DIR; `report()` adds them up.

The figures cover the whole run (both halves), so they say most with `--only` and
`--others 0`. A worker's first requests of each kind (templates compiled, caches
filled) are left out. The timers and wrappers cost a little themselves: take a
`--breakdown` run's ratios with that in mind, and the figures to report from a run
without it. Nothing here runs in production: only this config loads it.
"""

from __future__ import annotations

import functools
import gc
import importlib
import json
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

# module:function, CPU per call. An action and a round entry, by their parts.
FUNCTIONS = [
    "games.online.access:get_seating_for_user",
    "games.online.services:perform",
    "games.notify.outbox:publish_queued",
    "games.online.board:board_html",
    "games.online.board:board_context",
    "games.nights.views:_get_night_for_scorer",
    "games.nights.views:_scoreboard",
    "games.nights.services:enter_round",
    "games.nights.views:_render_game",
]
SKIP_FIRST = 3  # a worker's first requests of each kind: warming up, not measured
_ID = re.compile(r"/[A-Za-z0-9_-]{12,}(?=/)")  # a public id or a token in a path

_requests: Counter[str] = Counter()
_seen: Counter[str] = Counter()
_cpu_ns: Counter[str] = Counter()
_gc_ns: Counter[str] = Counter()
_calls: Counter[str] = Counter()
_call_ns: Counter[str] = Counter()
_collecting = [0, 0]  # the current collection's start; all collections' CPU so far


def _on_gc(phase: str, _info: dict[str, Any]) -> None:
    if phase == "start":
        _collecting[0] = time.thread_time_ns()
    else:
        _collecting[1] += time.thread_time_ns() - _collecting[0]


def _timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.thread_time_ns()
        try:
            return function(*args, **kwargs)
        finally:
            _calls[name] += 1
            _call_ns[name] += time.thread_time_ns() - started

    return timed


def _wrap_functions(names: Iterable[str]) -> None:
    """Each function replaced by its timed self, in its module and in every module of
    the project that imported it by name."""
    for name in names:
        module_name, attribute = name.split(":")
        original = getattr(importlib.import_module(module_name), attribute)
        timed = _timed(name, original)
        for module in list(sys.modules.values()):
            if getattr(module, "__name__", "").split(".")[0] in {"games", "accounts"}:
                for key, value in list(vars(module).items()):
                    if value is original:
                        setattr(module, key, timed)


def _measured(app: Callable[..., Any]) -> Callable[..., Any]:
    def measured(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        kind = f"{environ['REQUEST_METHOD']} {_ID.sub('/<id>', environ['PATH_INFO'])}"
        started, collected = time.thread_time_ns(), _collecting[1]
        result = app(environ, start_response)
        try:
            return list(result)  # the body drawn here, not later
        finally:
            # What gunicorn would do once the body is sent: Django's request_finished
            # (the database connection closed, caches) runs in the request it ends.
            if hasattr(result, "close"):
                result.close()
            _seen[kind] += 1
            if _seen[kind] > SKIP_FIRST:
                _requests[kind] += 1
                _cpu_ns[kind] += time.thread_time_ns() - started
                _gc_ns[kind] += _collecting[1] - collected

    return measured


# --- gunicorn's hooks ----------------------------------------------------------------------


def post_worker_init(worker: Any) -> None:
    gc.callbacks.append(_on_gc)
    _wrap_functions(FUNCTIONS)
    worker.wsgi = _measured(worker.wsgi)


def worker_exit(_server: Any, _worker: Any) -> None:
    figures = {
        "requests": {
            kind: [count, _cpu_ns[kind], _gc_ns[kind]] for kind, count in _requests.items()
        },
        "functions": {name: [_calls[name], _call_ns[name]] for name in _calls},
    }
    path = Path(os.environ["BREAKDOWN_DIR"]) / f"worker-{os.getpid()}.json"
    path.write_text(json.dumps(figures))


# --- the bench's side ----------------------------------------------------------------------


def report(directory: Path) -> None:
    """Print the workers' figures, added up."""
    requests: dict[str, list[int]] = {}
    functions: dict[str, list[int]] = {}
    for path in sorted(directory.glob("worker-*.json")):
        figures = json.loads(path.read_text())
        for table, into in ((figures["requests"], requests), (figures["functions"], functions)):
            for name, values in table.items():
                into[name] = [
                    a + b for a, b in zip(into.get(name, [0] * len(values)), values, strict=True)
                ]
    if not requests:
        print("\nbreakdown: no figures (did the workers exit cleanly?)")
        return
    print("\n== inside the app: thread CPU per request (gunicorn's own work around it left out)")
    print(f"{'request':46} {'n':>7} {'ms':>7} {'of it GC':>9}")
    for kind, (count, cpu, collected) in sorted(requests.items(), key=lambda kv: -kv[1][0]):
        print(f"{kind:46} {count:7} {cpu / count / 1e6:7.2f} {collected / count / 1e6:9.2f}")
    print(f"\n{'function (CPU per call)':46} {'calls':>7} {'ms':>7}")
    for name, (calls, cpu) in sorted(functions.items(), key=lambda kv: kv[0]):
        print(f"{name:46} {calls:7} {cpu / calls / 1e6:7.2f}")
