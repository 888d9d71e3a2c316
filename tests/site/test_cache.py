"""The cache: CACHES from CACHE_URL (Django's own backends), every key from
games/cache_keys.py, and a board served from Redis when CACHE_URL names one."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, override_settings

from games import cache_keys
from games.engine import Rules
from games.nights.scoreboard import RoundEntry, load_scoreboard
from games.nights.services import add_round, create_game
from phase10site.settings import cache_settings
from tests.conftest import require_or_skip

ROOT = Path(__file__).resolve().parents[2]
# A Redis database for this test's keys (each game's keys are its own: nothing is cleared).
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/1")


def test_the_default_cache_is_djangos_local_memory_one_with_room_for_a_busy_server():
    default = cache_settings("locmem://")
    assert default["default"]["OPTIONS"] == {"MAX_ENTRIES": 3000}
    with override_settings(CACHES=default):
        assert type(caches["default"]) is LocMemCache
    bigger = cache_settings("locmem://?max_entries=20000")
    assert bigger["default"]["OPTIONS"] == {"MAX_ENTRIES": 20000}


def test_a_redis_url_gives_djangos_redis_cache():
    redis = cache_settings("redis://cache.internal:6379/2")
    assert redis["default"]["LOCATION"] == "redis://cache.internal:6379/2"
    with override_settings(CACHES=redis):
        assert type(caches["default"]) is RedisCache


def test_a_cache_url_of_another_kind_is_refused():
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        cache_settings("memcached://127.0.0.1:11211")


def test_a_scoreboard_comes_back_from_the_cache_equal_to_what_was_kept(alice):
    game = create_game(alice, players=["Ann", "Bo"], first_dealer=0, rules=Rules(), name="Night")
    entry = RoundEntry(went_out=0, points=(0, 25), completed={0: None})
    game = add_round(game, entry, version=game.version)
    board = load_scoreboard(game)
    cache.set(cache_keys.night_scoreboard(game), board)
    kept = cache.get(cache_keys.night_scoreboard(game))
    assert kept == board and kept is not board  # pickled, as Django's backends all do


def test_every_cache_block_in_the_templates_is_one_cache_keys_names():
    used = {
        match
        for path in [*ROOT.glob("*/templates/**/*.html"), *ROOT.glob("templates/**/*.html")]
        for match in re.findall(r"{% cache \S+ (\w+)", path.read_text())
    }
    assert used and used == set(cache_keys.FRAGMENTS)


def test_every_module_that_uses_the_cache_takes_its_keys_from_cache_keys():
    callers = [
        path
        for folder in ("games", "accounts", "phase10site")
        for path in (ROOT / folder).rglob("*.py")
        if re.search(r"\bcache\.(get|set|add|delete|get_many|set_many|incr)\w*\(", path.read_text())
    ]
    assert callers
    for path in callers:
        text = path.read_text()
        assert "cache_keys" in text, path
        assert not re.search(r"\bcache\.\w+\(\s*f?[\"']", text), path  # no key written there


@pytest.mark.services
@pytest.mark.django_db
def test_a_board_is_served_from_redis(alice, bob):
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
        available = True
    except redis.RedisError:
        available = False
    require_or_skip(f"Redis at {REDIS_URL}", available)
    from tests.online.helpers import started_game
    from tests.online.test_table import table_url

    with override_settings(CACHES=cache_settings(REDIS_URL)):
        game = started_game(alice, bob)
        client = Client()
        client.force_login(bob)
        client.get("/")  # the CSRF cookie, as a browser has it from its first page
        client.get(table_url(game))
        server = redis.Redis.from_url(REDIS_URL)
        (stored,) = server.keys(f"*board:{game.public_id}:*")
        key = stored.decode().split(":", 2)[2]  # Django's ":<version>:" prefix off
        drawn = caches["default"].get(key)
        assert 'id="board"' in drawn
        caches["default"].set(key, drawn.replace("Your hand", "Hand from Redis"))
        assert "Hand from Redis" in client.get(table_url(game)).content.decode()
        server.delete(stored)
