"""The project's cache: Django's local-memory cache (each process its own), keeping values
that can't change as they are instead of pickling them.

What the app caches is drawn HTML (boards, a night's game, the lists' lines, QR codes,
charts) and a night's scoreboard, a frozen dataclass of tuples. Django's LocMemCache
pickles every value on `set` and unpickles it on every `get`, so that a caller changing
what it got can't change the cache: for a string that is cheap, for a scoreboard it was
most of a round entry's cache time (bench/README.md, issue 12's sixth pass). A value
that can't be changed needs no such copy: strings, numbers, frozen dataclasses and tuples
of them are kept as they are; anything else is pickled, as Django does. A frozen dataclass
is taken at its word: a scoreboard's fields hold only tuples, frozensets and more frozen
dataclasses all the way down (tests/site/test_cache.py walks one). The keys are the app's
own, so they are not checked for memcached's rules on every call either.
"""

from __future__ import annotations

import pickle
from collections import OrderedDict
from threading import Lock
from typing import TYPE_CHECKING, Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache

# How long what is kept under a game's version lives (a board, a night's scoreboard, game,
# card, rating changes and chart; the templates' `{% cache 600 … %}` blocks must match). Every
# change of a game bumps its version, so this only bounds what the version doesn't cover:
# a renamed player or a claimed guest shows in a game that no longer changes once it has
# passed.
VERSION_SECONDS = 600

_IMMUTABLE = (str, bytes, int, float, bool, type(None))


class _Pickled(bytes):
    """A value kept pickled: one that could change in the caller's hands."""


def _frozen(value: object) -> bool:
    """Whether `value` can't be changed in place: a string, a number, None, a frozen
    dataclass (taken at its word: its fields aren't walked, a scoreboard has hundreds),
    or a tuple or frozenset of such values."""
    if isinstance(value, _IMMUTABLE):
        return not isinstance(value, _Pickled)
    if isinstance(value, (tuple, frozenset)):
        return all(_frozen(item) for item in value)
    params = getattr(type(value), "__dataclass_params__", None)
    return params is not None and params.frozen


class InProcessCache(LocMemCache):
    """LocMemCache that keeps immutable values unpickled (see the module's docstring)."""

    if TYPE_CHECKING:  # LocMemCache's own, which django-stubs leave out
        _cache: OrderedDict[str, object]
        _lock: Lock

        def _has_expired(self, key: str) -> bool: ...
        def _set(self, key: str, value: object, timeout: float | None = ...) -> None: ...
        def _delete(self, key: str) -> bool: ...

    def validate_key(self, key: str) -> None:
        """The app's keys, not a user's: LocMemCache itself takes any string."""

    def add(
        self,
        key: str,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        key = self.make_and_validate_key(key, version=version)
        kept = _kept(value, self.pickle_protocol)
        with self._lock:
            if self._has_expired(key):
                self._set(key, kept, timeout)
                return True
            return False

    def get(self, key: str, default: Any = None, version: int | None = None) -> Any:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            if self._has_expired(key):
                self._delete(key)
                return default
            value = self._cache[key]
            self._cache.move_to_end(key, last=False)
        return pickle.loads(value) if isinstance(value, _Pickled) else value

    def set(
        self,
        key: str,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> None:
        key = self.make_and_validate_key(key, version=version)
        kept = _kept(value, self.pickle_protocol)
        with self._lock:
            self._set(key, kept, timeout)

    def incr(self, key: str, delta: int = 1, version: int | None = None) -> int:
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            if self._has_expired(key):
                self._delete(key)
                raise ValueError(f"Key '{key}' not found")
            value: Any = self._cache[key]
            new_value: int = (pickle.loads(value) if isinstance(value, _Pickled) else value) + delta
            self._cache[key] = _kept(new_value, self.pickle_protocol)
            self._cache.move_to_end(key, last=False)
        return new_value


def _kept(value: object, protocol: int) -> object:
    return value if _frozen(value) else _Pickled(pickle.dumps(value, protocol))
