"""The BG Stats import's form: the file, and your name in it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.errors import Refused

from . import bgstats


class BGStatsImportForm(forms.Form):
    """A BG Stats export to import (bgstats.py); `export` is the file read."""

    file = forms.FileField(
        label=_("BG Stats export (JSON file)"),
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
    )
    own_name = forms.CharField(
        label=_("Your name in BG Stats"),
        max_length=40,
        required=False,
        help_text=_("Leave it empty if it is the name you have here."),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > bgstats.MAX_BYTES:
            raise forms.ValidationError(
                _("That file is too large: a BG Stats export up to 5 MB can be imported.")
            )
        try:
            self.cleaned_data["export"] = bgstats.read_file(upload.read())
        except Refused as error:
            raise forms.ValidationError(error.message) from error
        return upload
