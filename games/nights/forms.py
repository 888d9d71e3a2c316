"""Forms of a game night. Every form that changes a game carries the game's
version, so a stale page or a double tap is refused instead of applied twice."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.datastructures import MultiValueDict
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.progression import MAX_ROUND_POINTS

from ..players import find_member
from ..words import isolated
from .scoreboard import RoundEntry, Scoreboard


class NightVersionForm(forms.Form):
    """The bare version: undo, rematch."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)


class NightUndoForm(NightVersionForm):
    """Undo; after the night's end, `confirm` says the scorer has seen what it changes."""

    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)


class NightRoundForm(forms.Form):
    """One round of a game night: who went out, who completed their phase, the points.

    Field names carry seat positions (went_out=2, points_2, completed_2); anything that
    isn't a seat of this game is refused by the choices. The rules (went out → 0 points
    and a completed phase, …) are checked by the engine in the game-night services; this
    form only checks that what was typed is a score at all (a multiple of 5 from 0 to the
    engine's `MAX_ROUND_POINTS`), so a typo gets a message at its field.
    """

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    # A correction after the night's end is saved only once the scorer has seen what it
    # changes: the confirmation posts the same values again with confirm=1.
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(
        self, board: Scoreboard, *args: Any, number: int | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.board = board
        self.number = number or board.round_number
        self.phases = board.phases_attempted_in(self.number)
        pick = board.rules.pick_a_phase
        done_before = board.phases_done_before(self.number) if pick else ()
        self.fields["version"].initial = board.version
        # Every round entry builds this form: its words are lazy, looked up only when
        # shown (a label or an error); the round form's partial writes its own labels.
        # NOBODY: the deck ran out with no one out; nobody scores 0 by default then.
        self.fields["went_out"] = forms.TypedChoiceField(
            label=_WENT_OUT,
            coerce=_seat_or_nobody,
            choices=[(seat.position, seat.name) for seat in board.seats] + [(NOBODY, _NOBODY)],
            widget=forms.RadioSelect,
            error_messages={"required": _CHOOSE_WHO_WENT_OUT},
        )
        for seat in board.seats:
            self.fields[f"completed_{seat.position}"] = (
                self._laid_field(done_before[seat.position])
                if pick
                else forms.BooleanField(label=_COMPLETED, required=False)
            )
            points = forms.IntegerField(
                label=_points_of(seat.name),
                required=False,
                error_messages={"invalid": _TYPE_POINTS},
                widget=forms.NumberInput,  # a class: the field makes it, no copy of one
            )
            points.widget.attrs.update(POINTS_ATTRS)
            self.fields[f"points_{seat.position}"] = points
        if number is not None and not self.is_bound:
            self._load_round(number)

    @property
    def is_edit(self) -> bool:
        return self.number <= len(self.board.rounds)

    def _laid_field(self, done: frozenset[int]) -> forms.Field:
        """Pick-a-phase: only the phases this player hasn't completed yet can be laid."""
        choices = [("", "—")] + [
            (phase, str(phase)) for phase in self.board.rules.phases_left(done)
        ]
        return forms.TypedChoiceField(
            label=_LAID_PHASE, coerce=int, choices=choices, required=False, empty_value=None
        )

    def _load_round(self, number: int) -> None:
        cells = self.board.rounds[number - 1].cells
        for position, cell in enumerate(cells):
            self.initial[f"points_{position}"] = cell.points
            if self.board.rules.pick_a_phase:
                self.initial[f"completed_{position}"] = cell.completed
            else:
                self.initial[f"completed_{position}"] = cell.completed is not None
            if cell.went_out:
                self.initial["went_out"] = position
        self.initial.setdefault("went_out", NOBODY)

    def posted_values(self) -> list[tuple[str, str]]:
        """The round's values as posted (not the version, nor `confirm`), for a
        confirmation to post them again unchanged."""
        carried = []
        for name in self.fields:
            if name in ("version", "confirm"):
                continue
            values = self.data.getlist(name) if isinstance(self.data, MultiValueDict) else []
            if not values and name in self.data:
                values = [self.data[name]]
            carried += [(name, str(value)) for value in values]
        return carried

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        # A browser's post is a QueryDict, which can repeat a key; a plain dict can't.
        if isinstance(self.data, MultiValueDict) and len(self.data.getlist("went_out")) > 1:
            self.add_error("went_out", _("Only one player can go out in a round."))
        # None: nobody went out (the form's "none"), or the field has an error.
        went_out = cleaned.get("went_out")
        points = []
        for seat in self.board.seats:
            field = f"points_{seat.position}"
            value = cleaned.get(field)
            if value is None and field not in self.errors:
                if seat.position == went_out:
                    value = 0  # going out scores 0: no need to type it
                else:
                    self.add_error(
                        field, _("Enter the points of %(name)s.") % {"name": isolated(seat.name)}
                    )
            elif value is not None and value < 0:
                self.add_error(field, _("Points can't be negative."))
            elif value is not None and value > MAX_ROUND_POINTS:
                # The engine's bound (it refuses such a round too), said before the save.
                self.add_error(
                    field,
                    _(
                        "%(name)s can't have more than %(most)s points in one round: a hand "
                        "holds at most 10 cards then."
                    )
                    % {"name": isolated(seat.name), "most": MAX_ROUND_POINTS},
                )
            elif value is not None and value % 5:
                self.add_error(field, _("Points are multiples of 5 (cards count 5, 10, 15 or 25)."))
            points.append(value or 0)
        completed = {
            seat.position: self._completed_phase(seat.position, cleaned)
            for seat in self.board.seats
            if cleaned.get(f"completed_{seat.position}")
        }
        if not self.errors:
            self.entry = RoundEntry(went_out=went_out, points=tuple(points), completed=completed)
        return cleaned

    def _completed_phase(self, position: int, cleaned: dict[str, Any]) -> int | None:
        if self.board.rules.pick_a_phase:
            return int(cleaned[f"completed_{position}"])
        return self.phases[position]


NOBODY = "none"  # went_out=none: the deck ran out and nobody went out (offline.js posts it too)
# The round form's points field as its partial writes it (entry_forms.py, round_form.html).
POINTS_ATTRS = {
    "inputmode": "numeric",
    "min": 0,
    "max": MAX_ROUND_POINTS,
    "step": 5,
    "class": "points",
}
_WENT_OUT = gettext_lazy("Went out")
_NOBODY = gettext_lazy("Nobody")
_CHOOSE_WHO_WENT_OUT = gettext_lazy("Choose the player who went out, or nobody.")
_COMPLETED = gettext_lazy("Completed")
_LAID_PHASE = gettext_lazy("Laid phase")
_TYPE_POINTS = gettext_lazy("Type the points as a whole number.")


def _points_label(name: str) -> str:
    return _("Points of %(name)s") % {"name": name}


_points_of = lazy(_points_label, str)


def _seat_or_nobody(value: str) -> int | None:
    return None if value == NOBODY else int(value)


class NightTiebreakForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    def __init__(self, board: Scoreboard, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["version"].initial = board.version
        self.fields["winner"] = forms.TypedChoiceField(
            label=_("Who laid down the tie-breaker goal first?"),
            coerce=int,
            choices=[(seat.position, seat.name) for seat in board.tied],
            error_messages={
                "required": _("Choose who won the tie-breaker."),
                "invalid_choice": _("Only the tied players play the tie-breaker."),
            },
        )


class NightCoScorerForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    username = forms.CharField(
        label=gettext_lazy("Username of a member"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )

    def clean_username(self) -> object:
        user = find_member(self.cleaned_data["username"])
        if user is None:
            raise forms.ValidationError(_("There is no member with that username."))
        return user
