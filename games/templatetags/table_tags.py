"""Words for the score tracker's pages: phase goals and a game's variant."""

from django import template
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games.engine import Rules
from games.phase_words import phase_goal_words

register = template.Library()

# RULES.md: "Tie-breaker goal: the goal of phase 10".
TIEBREAK_PHASE = 10


@register.filter
def phase_goal(number: int | None) -> str:
    """The same words as the online table's (games.phase_words)."""
    return phase_goal_words(number)


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
