"""The clubs' forms, and the "Club" choice of the forms that make a game (a new night, a
new online game, a BG Stats import)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy

from games.models import Club

from . import membership

if TYPE_CHECKING:
    from django.contrib.auth.models import User

NAME_LENGTH = 60


class ClubNameForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Club name"), max_length=NAME_LENGTH)


class InviteForm(forms.Form):
    username = forms.CharField(
        label=gettext_lazy("Invite by username"),
        max_length=150,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}
        ),
    )


class AdminForm(forms.Form):
    member = forms.IntegerField(min_value=1)


def starting_club(user: User, clubs: list[Club], choose: str | None) -> Club | None:
    """Where a new game's club choice starts: the club `choose` (a public id: the club's
    page links to the new game's form with it), else the club of `user`'s most recent
    game that had one. `clubs`: the user's (membership.clubs_of). One query at most."""
    if not clubs:
        return None
    chosen = next((club for club in clubs if club.public_id == choose), None)
    if chosen is not None:
        return chosen
    last = membership.last_club_id(user)
    return next((club for club in clubs if club.pk == last), None)


def add_club_field(form: forms.Form, clubs: list[Club], start: Club | None) -> None:
    """Give `form` a "Club" choice: none, or one of `clubs` (the user's: hidden when
    they are in none), starting at `start`. A club not among them (a forged id, one
    they left since) is the field's error; `club_of` reads the Club chosen."""
    by_pk = {str(club.pk): club for club in clubs}
    field = forms.TypedChoiceField(
        label=gettext_lazy("Club"),
        choices=[("", gettext_lazy("No club")), *((str(c.pk), c.name) for c in clubs)],
        coerce=lambda pk: by_pk[pk],
        empty_value=None,
        required=False,
        initial="" if start is None else str(start.pk),
        help_text=gettext_lazy("The game counts in the club's seasons and stats."),
        error_messages={"invalid_choice": gettext_lazy("You aren't in that club.")},
    )
    if not clubs:
        field.widget = forms.HiddenInput()
    form.fields["club"] = field


def club_of(form: forms.Form) -> Club | None:
    """The club a valid form with `add_club_field` chose."""
    club: Any = form.cleaned_data.get("club")
    return club if isinstance(club, Club) else None
