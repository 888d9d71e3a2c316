"""The engine is pure Python: its tests must also run without Django (`-p no:django`)."""

import types

import pytest


@pytest.fixture
def settings():
    # Stands in for pytest-django's `settings`, which the project-wide autouse fixtures
    # (tests/conftest.py) request; no engine code path reads Django settings.
    return types.SimpleNamespace()
