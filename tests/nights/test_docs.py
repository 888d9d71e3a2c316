"""The small examples in the docstrings of the game-night modules are part of their
documentation: keep them true."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["games.nights.scoreboard"])
def test_the_docstring_examples_hold(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
