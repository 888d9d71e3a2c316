"""A phase's goal in words, one wording for every page: the online table, its move
errors and the score tracker ("a set of 3 + a run of 4")."""

from functools import lru_cache

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from .engine import phase_goal_text
from .engine.phases import GOALS


def phase_goal_words(number: int | None) -> str:
    """The goal of phase `number`, or "" for no phase (or one that doesn't exist)."""
    if number not in GOALS:
        return ""
    return _phase_goal_words(number, get_language())


@lru_cache(maxsize=256)
def _phase_goal_words(number: int, language: str) -> str:
    # Cached per language: every player's phase is spelled out on every board.
    words = {
        "set": lambda size: _("a set of %(n)s") % {"n": size},
        "run": lambda size: _("a run of %(n)s") % {"n": size},
        "colour": lambda size: _("%(n)s cards of one colour") % {"n": size},
    }
    return " + ".join(words[kind](size) for kind, size in phase_goal_text(number))
