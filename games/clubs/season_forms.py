"""The form admins set a season with: its name, dates, points per place and best N."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.errors import Refused
from games.models import Season

from . import seasons


class SeasonForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=60,
        required=False,
        help_text=_("Empty: the year it starts in."),
    )
    starts = forms.DateField(label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}))
    ends = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))
    points = forms.CharField(
        label=_("Points per place"),
        max_length=60,
        help_text=_("First place first, like 3, 2, 1, 0. Places past the list score 0."),
    )
    best_of = forms.IntegerField(
        label=_("Count each person's best games"),
        required=False,
        min_value=1,
        max_value=seasons.MAX_BEST_OF,
        help_text=_("Empty: every game counts."),
    )
    # The club's version the form was drawn at: a second click, or a form left open
    # while another admin saved, is refused.
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)

    @classmethod
    def for_season(cls, season: Season, version: int) -> SeasonForm:
        return cls(
            initial={
                "name": season.name,
                "starts": season.starts,
                "ends": season.ends,
                "points": seasons.points_text(season.points),
                "best_of": season.best_of,
                "version": version,
            }
        )

    def clean_points(self) -> list[int]:
        try:
            return seasons.parse_points(self.cleaned_data["points"])
        except Refused as error:
            raise forms.ValidationError(error.message) from error

    def settings(self) -> seasons.SeasonSettings:
        data: dict[str, Any] = self.cleaned_data
        return seasons.SeasonSettings(
            name=data["name"].strip(),
            starts=data["starts"],
            ends=data["ends"],
            points=data["points"],
            best_of=data["best_of"],
        )
