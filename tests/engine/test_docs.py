"""The small examples in the engine's docstrings are part of its documentation: keep them true."""

import doctest
import importlib
import pkgutil

import pytest

import games.engine

MODULES = ["games.engine"] + [
    f"games.engine.{info.name}" for info in pkgutil.iter_modules(games.engine.__path__)
]


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
