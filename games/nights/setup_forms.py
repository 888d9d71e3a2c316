"""The new-night form: up to six seats in the order of play, the first dealer and the
variant. Each seat is someone from the list (people the host played with, their
guests), a member's username, or a new guest's name; each row has a place in the
order of play (`order_N`), so rows can be reordered without JavaScript."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import Rules
from games.engine.progression import MAX_PLAYERS, MIN_PLAYERS

from ..models import Player
from ..players import find_member
from ..variants import custom_phases_field, phase_list, phases_field, progression_field
from ..words import isolated

if TYPE_CHECKING:
    from django.contrib.auth.models import User

ORDER_CHOICES = [(place, str(place)) for place in range(1, MAX_PLAYERS + 1)]


class NightGameForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name (optional)"),
        max_length=80,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("e.g. Friday at Bob's")}),
    )
    first_dealer = forms.TypedChoiceField(
        label=gettext_lazy("Deals first"),
        coerce=int,
        choices=[(row, row + 1) for row in range(MAX_PLAYERS)],
        initial=0,
        widget=forms.RadioSelect,
    )
    phases = phases_field()
    custom_phases = custom_phases_field()
    advance = progression_field()

    def __init__(
        self,
        me: Player,
        known: list[Player],
        labels: dict[int, str],
        *args: Any,
        ask: set[int] | frozenset[int] = frozenset(),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.me = me
        self.known = {str(player.pk): player for player in [me, *known]}
        # Members offered (a club's) whom the host may never have played with: seated as
        # if typed by username, so their seat waits for their answer if so.
        self.ask = ask
        choices = [("", "—"), (str(me.pk), _("You (%(name)s)") % {"name": me.name})]
        choices += [(str(player.pk), labels[player.pk]) for player in known]
        for row in range(MAX_PLAYERS):
            self.fields[f"order_{row}"] = forms.TypedChoiceField(
                label=_("Place in the order of play"),
                coerce=int,
                choices=ORDER_CHOICES,
                required=False,
                initial=row + 1,
            )
            self.fields[f"player_{row}"] = forms.ChoiceField(
                label=_("Someone you've played with"),
                choices=choices,
                required=False,
                initial=str(me.pk) if row == 0 else "",
            )
            self.fields[f"member_{row}"] = forms.CharField(
                label=_("or a member's username"),
                max_length=150,
                required=False,
                widget=forms.TextInput(
                    attrs={
                        "placeholder": _("or a username"),
                        "autocomplete": "off",
                        "autocapitalize": "none",
                        "spellcheck": "false",
                    }
                ),
            )
            self.fields[f"guest_{row}"] = forms.CharField(
                label=_("or a new guest's name"),
                max_length=40,
                required=False,
                widget=forms.TextInput(
                    attrs={"placeholder": _("or a guest's name"), "autocomplete": "off"}
                ),
            )

    def rows_in_order(self) -> list[int]:
        """The rows in the order of play: by the place each row was given (as posted),
        then by row."""
        places = {}
        for row in range(MAX_PLAYERS):
            raw = self.data.get(f"order_{row}") if self.is_bound else None
            try:
                places[row] = int(raw) if raw not in (None, "") else row + 1
            except (TypeError, ValueError):
                places[row] = row + 1
        return sorted(range(MAX_PLAYERS), key=lambda row: (places[row], row))

    def seat_rows(self) -> list[dict[str, object]]:
        return [
            {
                "number": place,
                "order": self[f"order_{row}"],
                "player": self[f"player_{row}"],
                "member": self[f"member_{row}"],
                "guest": self[f"guest_{row}"],
                "dealer": self["first_dealer"][row],
            }
            for place, row in enumerate(self.rows_in_order(), start=1)
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        self.players: list[Player | str | User] = []
        self.dealer_position = 0
        seen: set[str] = set()
        for row in self.rows_in_order():
            player = self._seat(row, cleaned, seen)
            if player is None:
                continue
            if row == cleaned.get("first_dealer"):
                self.dealer_position = len(self.players)
            self.players.append(player)
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            self.add_error(None, _("Choose 2 to 6 players."))
        dealer_row = cleaned.get("first_dealer")
        if dealer_row is not None and not self._row_filled(dealer_row, cleaned):
            self.add_error("first_dealer", _("The first dealer must be one of the players."))
        cleaned["rules"] = self._rules(cleaned)
        return cleaned

    def _row_filled(self, row: int, cleaned: dict[str, Any]) -> bool:
        return any(
            str(cleaned.get(f"{kind}_{row}") or "").strip()
            for kind in ("player", "member", "guest")
        )

    def _seat(
        self, row: int, cleaned: dict[str, Any], seen: set[str]
    ) -> Player | str | User | None:
        choice = cleaned.get(f"player_{row}") or ""
        username = str(cleaned.get(f"member_{row}") or "").strip()
        guest = str(cleaned.get(f"guest_{row}") or "").strip()
        given = [
            name
            for name, value in (("player", choice), ("member", username), ("guest", guest))
            if value
        ]
        if len(given) > 1:
            self.add_error(
                f"{given[-1]}_{row}",
                _(
                    "One way per seat: someone from the list, a member's username or a guest's name."
                ),
            )
            return None
        if not given:
            return None
        player: Player | str | User
        field = f"{given[0]}_{row}"
        if choice:
            player = self.known[str(choice)]
            key = f"user:{player.user_id}" if player.user_id else f"id:{player.pk}"
            if player.pk in self.ask and player.user is not None:
                player = player.user
        elif username:
            member = find_member(username)
            if member is None:
                self.add_error(
                    field,
                    _("There is no member with the username “%(name)s”.")
                    % {"name": isolated(username)},
                )
                return None
            player = member
            key = f"user:{member.pk}"
        else:
            player = guest
            key = f"guest:{guest.casefold()}"
        if key in seen:
            self.add_error(field, _("This player already has a seat."))
            return None
        seen.add(key)
        return player

    def _rules(self, cleaned: dict[str, Any]) -> Rules | None:
        advance = cleaned.get("advance")
        try:
            phases = phase_list(str(cleaned.get("phases")), str(cleaned.get("custom_phases") or ""))
        except forms.ValidationError as error:
            self.add_error("custom_phases", error)
            return None
        except KeyError:
            return None
        if advance is None:
            return None
        # The other options only matter online; a table game stores their defaults.
        return Rules(
            phases=phases,
            all_advance=advance == "all_advance",
            pick_a_phase=advance == "pick_a_phase",
        )
