"""Forms of online play before the deal: a new game's options, an invitation, the start.
(The board's moves are read by `games.online.actions`.)"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ..engine import ActionError, Rules
from ..players import find_member
from ..variants import custom_phases_field, phase_list, phases_field, progression_field
from ..words import isolated
from .lobby import MAX_SEATS, MIN_SEATS
from .services import TIME_LIMITS

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class OnlineGameForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80, required=False)
    seats = forms.TypedChoiceField(
        label=gettext_lazy("Seats"),
        choices=[(n, str(n)) for n in range(MIN_SEATS, MAX_SEATS + 1)],
        coerce=int,
        initial=3,
    )
    bots = forms.TypedChoiceField(
        label=gettext_lazy("Bots"),
        choices=[(n, str(n)) for n in range(0, MAX_SEATS)],
        coerce=int,
        initial=0,
        help_text=gettext_lazy("Computer players take these seats now; more can join later."),
    )
    invite = forms.CharField(
        label=gettext_lazy("Invite by username"),
        required=False,
        help_text=gettext_lazy(
            "Usernames separated by commas: each gets an invitation to accept or decline. "
            "You also get an invite link."
        ),
    )
    time_limit = forms.ChoiceField(
        label=gettext_lazy("Time limit per turn"),
        choices=[
            ("", gettext_lazy("None")),
            ("12h", gettext_lazy("12 hours")),
            ("1d", gettext_lazy("1 day")),
            ("2d", gettext_lazy("2 days")),
            ("3d", gettext_lazy("3 days")),
            ("7d", gettext_lazy("7 days")),
        ],
        required=False,
        help_text=gettext_lazy("When it runs out, the app plays that turn for the player."),
    )
    rated = forms.BooleanField(
        label=gettext_lazy("Rated game"),
        required=False,
        initial=True,
        help_text=gettext_lazy(
            "The result moves the players' ratings. Bots are never rated: with bots, "
            "the people are rated among themselves."
        ),
    )
    phases = phases_field()
    custom_phases = custom_phases_field()
    progression = progression_field("normal")
    natural_card = forms.ChoiceField(
        label=gettext_lazy("Natural (non-Wild) cards needed"),
        choices=[
            ("phase", gettext_lazy("One in the phase (standard)")),
            ("group", gettext_lazy("One in every group")),
        ],
        initial="phase",
    )
    skip_target = forms.ChoiceField(
        label=gettext_lazy("A Skip skips"),
        choices=[
            ("next", gettext_lazy("The next player (standard)")),
            ("choose", gettext_lazy("A player the discarder chooses")),
        ],
        initial="next",
    )
    hit_others_same_turn = forms.BooleanField(
        label=gettext_lazy("Hit other players' groups in the turn you lay down"), required=False
    )
    go_out_by_hitting = forms.BooleanField(
        label=gettext_lazy("Go out by hitting your last card"), required=False
    )

    PLAYER_FIELDS = ("name", "seats", "bots", "invite", "time_limit", "rated")

    def player_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.PLAYER_FIELDS]

    def rule_fields(self) -> list[forms.BoundField]:
        # The club (games/clubs/forms.py) is drawn on its own, above the players.
        shown_apart = (*self.PLAYER_FIELDS, "club")
        return [self[name] for name in self.fields if name not in shown_apart]

    def clean_invite(self) -> list[User]:
        names = list(dict.fromkeys(self.cleaned_data["invite"].replace(",", " ").split()))
        if len(names) >= MAX_SEATS:  # before any query: a long list is refused outright
            raise forms.ValidationError(
                ngettext(
                    "Invite at most %(count)s player.",
                    "Invite at most %(count)s players.",
                    MAX_SEATS - 1,
                )
                % {"count": MAX_SEATS - 1}
            )
        users: dict[int, User] = {}  # "bob BOB" is one person, invited once
        for name in names:
            user = find_member(name)
            if user is None:
                raise forms.ValidationError(
                    _("There is no player called “%(name)s”.") % {"name": isolated(name)}
                )
            users.setdefault(user.pk, user)
        return list(users.values())

    def clean_time_limit(self) -> timedelta | None:
        return TIME_LIMITS.get(self.cleaned_data["time_limit"] or "")

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        try:
            phases = phase_list(data.get("phases") or "all", data.get("custom_phases") or "")
        except forms.ValidationError as error:
            self.add_error("custom_phases", error)
            return data
        progression = data.get("progression", "normal")
        try:
            data["rules"] = Rules(
                phases=phases,
                all_advance=progression == "all_advance",
                pick_a_phase=progression == "pick_a_phase",
                natural_card=data.get("natural_card") or "phase",
                hit_others_same_turn=bool(data.get("hit_others_same_turn")),
                go_out_by_hitting=bool(data.get("go_out_by_hitting")),
                skip_target=data.get("skip_target") or "next",
            )
        except ActionError:
            self.add_error("custom_phases", _("Phases are numbers 1 to 10, each listed once."))
        seats, bots = data.get("seats"), data.get("bots")
        invited = data.get("invite") or []
        if seats is not None and bots is not None and 1 + len(invited) + bots > seats:
            self.add_error("bots", _("There are more players and bots than seats."))
        return data


class InviteForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Username"), max_length=150)


class StartForm(forms.Form):
    fill_with_bots = forms.BooleanField(
        label=gettext_lazy("Give the empty seats to bots"), required=False, initial=True
    )
