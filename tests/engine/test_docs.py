"""The small examples in the engine's docstrings are part of its documentation: keep them true,
and the contributors' rules (docs/rules.md) name what the engine has."""

import dataclasses
import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import games.engine
from games.engine import Rules
from games.engine.phases import GOALS, describe_phase

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"

MODULES = ["games.engine"] + [
    f"games.engine.{info.name}" for info in pkgutil.iter_modules(games.engine.__path__)
]


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_contributors_rules_list_every_option_of_the_engine():
    text = RULES_DOC.read_text(encoding="utf-8")
    missing = [f.name for f in dataclasses.fields(Rules) if f"| `{f.name}` |" not in text]
    assert missing == []


def test_the_contributors_rules_give_each_phases_goal_as_the_engine_has_it():
    text = RULES_DOC.read_text(encoding="utf-8")
    missing = [n for n in GOALS if f"| {n} | {describe_phase(n)} |" not in text]
    assert missing == []
