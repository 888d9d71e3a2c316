"""The variant fields both new-game forms offer (docs/rules.md, "Options"):
which phases are played and how players move on. Game nights and online games
ask the same questions, with the same words, and read the answers the same way."""

import re

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

PHASE_LISTS = {
    "all": tuple(range(1, 11)),
    "first5": (1, 2, 3, 4, 5),
    "first8": (1, 2, 3, 4, 5, 6, 7, 8),
    "even": (2, 4, 6, 8, 10),
    "odd": (1, 3, 5, 7, 9),
}


def phases_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        label=gettext_lazy("Phases"),
        choices=[
            ("all", gettext_lazy("All ten")),
            ("first5", gettext_lazy("First five (1–5)")),
            ("first8", gettext_lazy("First eight (1–8)")),
            ("even", gettext_lazy("Even (2, 4, 6, 8, 10)")),
            ("odd", gettext_lazy("Odd (1, 3, 5, 7, 9)")),
            ("custom", gettext_lazy("My own list")),
        ],
        initial="all",
    )


def custom_phases_field() -> forms.CharField:
    return forms.CharField(
        label=gettext_lazy("My own list of phases"),
        required=False,
        max_length=40,
        help_text=gettext_lazy(
            'With "My own list": the phases in playing order, e.g. 1, 3, 7, 10.'
        ),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "placeholder": "1, 3, 7, 10"}),
    )


def progression_field(standard: str = "standard") -> forms.ChoiceField:
    return forms.ChoiceField(
        label=gettext_lazy("Moving on"),
        choices=[
            (standard, gettext_lazy("Complete your phase to move on")),
            ("all_advance", gettext_lazy("Everyone moves on every round")),
            ("pick_a_phase", gettext_lazy("Pick any phase not done yet")),
        ],
        initial=standard,
        widget=forms.RadioSelect,
    )


def phase_list(choice: str, custom: str) -> tuple[int, ...]:
    """The phases a form's answers mean, or a ValidationError saying what's wrong.

    >>> phase_list("even", "")
    (2, 4, 6, 8, 10)
    >>> phase_list("custom", "1, 3; 7 10")
    (1, 3, 7, 10)
    """
    if choice != "custom":
        return PHASE_LISTS[choice]
    parts = [part for part in re.split(r"[\s,;]+", custom) if part]
    if not parts:
        raise forms.ValidationError(_("List the phases to play, e.g. 1, 3, 7, 10."))
    # isdecimal: the digits int() reads (Arabic-Indic ones too), not "²" as isdigit would.
    if not all(part.isdecimal() and 1 <= int(part) <= 10 for part in parts):
        raise forms.ValidationError(_("Phases are numbered 1 to 10."))
    phases = tuple(int(part) for part in parts)
    if len(set(phases)) != len(phases):
        raise forms.ValidationError(_("Each phase can be listed only once."))
    return phases
