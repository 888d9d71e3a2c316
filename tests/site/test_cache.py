"""The project's cache (phase10site/cache.py): values that can't change are kept as they
are, anything else is copied as Django's LocMemCache copies it."""

from __future__ import annotations

import dataclasses
import time

import time_machine
from django.core.cache import cache, caches
from django.utils.safestring import SafeString

from games.engine import Rules
from games.nights.scoreboard import RoundEntry, load_scoreboard
from games.nights.services import add_round, create_game
from phase10site.cache import InProcessCache


def test_the_default_cache_is_the_in_process_one():
    assert isinstance(caches["default"], InProcessCache)


def test_strings_and_frozen_values_come_back_as_the_same_object():
    html = SafeString("<p>board</p>")
    cache.set("html", html)
    pair = (1, "two", frozenset({3}))
    cache.set("pair", pair)
    assert cache.get("html") is html
    assert isinstance(cache.get("html"), SafeString)
    assert cache.get("pair") is pair


def test_a_scoreboard_is_kept_unpickled_and_nothing_in_it_can_change(alice):
    game = create_game(alice, players=["Ann", "Bo"], first_dealer=0, rules=Rules(), name="Night")
    for _round in range(3):  # Ann goes out with her phase, Bo keeps 25 points
        entry = RoundEntry(went_out=0, points=(0, 25), completed={0: None})
        game = add_round(game, entry, version=game.version)
    board = load_scoreboard(game)
    assert len(board.rounds) == 3
    cache.set("board", board)
    assert cache.get("board") is board
    # Kept as it is, shared by every request: a frozen dataclass all the way down.
    assert _changeable(board) == []


def _changeable(value: object, path: str = "board") -> list[str]:
    """Where in `value` something could be changed in place (a list, a dict, a set, an
    object that isn't a frozen dataclass)."""
    if isinstance(value, (str, bytes, int, float, bool, type(None))):
        return []
    if isinstance(value, (tuple, frozenset)):
        return [
            found for i, item in enumerate(value) for found in _changeable(item, f"{path}[{i}]")
        ]
    if dataclasses.is_dataclass(value) and type(value).__dataclass_params__.frozen:
        return [
            found
            for field in dataclasses.fields(value)
            for found in _changeable(getattr(value, field.name), f"{path}.{field.name}")
        ]
    return [f"{path}: {type(value).__name__}"]


def test_a_value_that_could_change_is_copied_both_ways():
    value = {"rows": [1, 2]}
    cache.set("dict", value)
    value["rows"].append(3)  # the caller's own object, changed after the set
    got = cache.get("dict")
    assert got == {"rows": [1, 2]}
    got["rows"].append(4)  # and what a get hands out
    assert cache.get("dict") == {"rows": [1, 2]}
    cache.set("tuple of lists", ([1],))
    assert cache.get("tuple of lists") is not cache.get("tuple of lists")


def test_add_incr_and_expiry_behave_as_django_documents():
    assert cache.add("n", 1, timeout=60)
    assert not cache.add("n", 5, timeout=60)
    assert cache.incr("n", 2) == 3
    assert cache.get("n") == 3
    assert cache.add("list", [1], timeout=60)
    assert cache.get("list") == [1]
    with time_machine.travel(time.time() + 61):
        assert cache.get("n") is None
        assert cache.get("list", "gone") == "gone"
