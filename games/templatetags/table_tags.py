"""Words for the score tracker's pages: phase goals and a game's variant."""

from django import template
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games.engine import Rules

register = template.Library()

# Phase goals from shared/RULES.md, "The ten phases".
_GOALS = {
    1: lambda: _("2 sets of 3"),
    2: lambda: _("1 set of 3 + 1 run of 4"),
    3: lambda: _("1 set of 4 + 1 run of 4"),
    4: lambda: _("1 run of 7"),
    5: lambda: _("1 run of 8"),
    6: lambda: _("1 run of 9"),
    7: lambda: _("2 sets of 4"),
    8: lambda: _("7 cards of one colour"),
    9: lambda: _("1 set of 5 + 1 set of 2"),
    10: lambda: _("1 set of 5 + 1 set of 3"),
}
# RULES.md: "Tie-breaker goal: the goal of phase 10".
TIEBREAK_PHASE = 10


@register.filter
def phase_goal(number: int | None) -> str:
    goal = _GOALS.get(number)  # type: ignore[arg-type]
    return goal() if goal else ""


@register.simple_tag
def tiebreak_goal() -> str:
    return phase_goal(TIEBREAK_PHASE)


@register.filter
def variant(rules: Rules) -> str:
    """'All ten phases', 'Phases 1–5 · everyone moves on', …"""
    phases = tuple(rules.phases)
    named = {
        tuple(range(1, 11)): _("All ten phases"),
        (1, 2, 3, 4, 5): _("First five phases"),
        (1, 2, 3, 4, 5, 6, 7, 8): _("First eight phases"),
        (2, 4, 6, 8, 10): _("Even phases"),
        (1, 3, 5, 7, 9): _("Odd phases"),
    }
    text = named.get(phases) or _("Phases %(list)s") % {
        "list": ", ".join(str(phase) for phase in phases)
    }
    if rules.all_advance:
        text = _("%(phases)s · everyone moves on every round") % {"phases": text}
    elif rules.pick_a_phase:
        text = _("%(phases)s · pick a phase") % {"phases": text}
    return text


@register.filter
def night_name(game) -> str:  # type: ignore[no-untyped-def]
    """The game's name, or its date when the scorer didn't give one."""
    if game.name:
        return str(game.name)
    return _("Game night of %(date)s") % {"date": date_format(game.created_at, "DATE_FORMAT")}


@register.filter
def join_names(seats) -> str:  # type: ignore[no-untyped-def]
    """'Ann and Bo', 'Ann, Bo and Cy'."""
    names = [seat.name for seat in seats]
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}
