"""Forms of online play, and turning a player's card selection into engine actions.

The table page posts plain fields (card codes, seat and group numbers). Nothing here
trusts them: codes that aren't cards are refused with a message, and everything else
goes through the engine, which checks the cards are in the hand and the groups valid.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from .engine import ActionError, Card, LayDown, RuleError, Rules, parse_cards, phase_goal
from .engine.cards import WILD
from .engine.solver import validate_phase
from .services import MAX_SEATS, MIN_SEATS, TIME_LIMITS, find_member
from .variants import custom_phases_field, phase_list, phases_field, progression_field


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
        help_text=gettext_lazy("Usernames separated by commas. You also get an invite link."),
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

    PLAYER_FIELDS = ("name", "seats", "bots", "invite", "time_limit")

    def player_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.PLAYER_FIELDS]

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name not in self.PLAYER_FIELDS]

    def clean_invite(self) -> list[Any]:
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
        users = []
        for name in names:
            user = find_member(name)
            if user is None:
                raise forms.ValidationError(
                    _("There is no player called “%(name)s”.") % {"name": name}
                )
            users.append(user)
        return users

    def clean_time_limit(self) -> Any:
        return TIME_LIMITS.get(self.cleaned_data["time_limit"] or "")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
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


# --- the table's actions ---------------------------------------------------------------------


class BadInput(ValueError):
    """The form sent something that can't be a move; `str()` is for the player."""


def cards_from(values: Sequence[str]) -> list[Card]:
    """Card codes from a form; BadInput (never a 500) when one isn't a card."""
    try:
        return parse_cards([str(value)[:4] for value in values])
    except ActionError as error:
        raise BadInput(_("That isn't a card.")) from error


def groups_from(text: str) -> list[list[Card]]:
    """An explicit lay-down from a choice form: groups of codes separated by "|"."""
    groups = [part for part in text.split("|") if part.strip()]
    if not groups or len(groups) > 2:
        raise BadInput(_("That isn't a way to lay down a phase."))
    return [cards_from(group.split()) for group in groups]


def int_field(value: Any) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if 0 <= number < 10_000_000 else None


def lay_down_choices(cards: Sequence[Card], phases: Sequence[int], rules: Rules) -> list[LayDown]:
    """Every essentially different way the selected `cards`, all of them, make one of
    `phases`. Arrangements that differ only in which set holds a Wild count once;
    a Wild at the low or the high end of a run does not (it decides later hits).

    >>> lay_down_choices(parse_cards("R3 R4 R5 R6 G9 B9 Y9"), [2], Rules())
    [LayDown(groups=((Card('G9'), Card('B9'), Card('Y9')), (Card('R3'), Card('R4'), Card('R5'), Card('R6'))), phase=2)]
    >>> len(lay_down_choices(parse_cards("R3 R4 R5 W G9 B9 Y9"), [2], Rules()))
    2
    """
    found: dict[tuple[Any, ...], LayDown] = {}
    for phase in phases:
        parts = phase_goal(phase)
        if len(cards) < sum(part.size for part in parts) or len(cards) > 11:
            continue
        for assignment in itertools.product(range(len(parts)), repeat=len(cards)):
            chosen: list[list[Card]] = [[] for _ in parts]
            for card, part in zip(cards, assignment, strict=True):
                chosen[part].append(card)
            options = [
                _arrangements(part.kind, part.size, group)
                for part, group in zip(parts, chosen, strict=True)
            ]
            for groups in itertools.product(*options):
                key = (
                    phase,
                    tuple(sorted(_meaning(parts[i].kind, g) for i, g in enumerate(groups))),
                )
                if key in found:
                    continue
                try:
                    validate_phase(phase, groups, rules)
                except RuleError:
                    continue
                found[key] = LayDown([list(group) for group in groups], phase=phase)
    return list(found.values())


def _arrangements(kind: str, size: int, cards: list[Card]) -> list[tuple[Card, ...]]:
    if len(cards) < size or any(card.is_skip for card in cards):
        return []
    naturals = [card for card in cards if card.is_natural]
    wilds = [card for card in cards if card.is_wild]
    if kind == "set":
        return [tuple(naturals + wilds)] if len({c.number for c in naturals}) <= 1 else []
    if kind == "colour":
        return [tuple(naturals + wilds)] if len({c.colour for c in naturals}) <= 1 else []
    if not naturals:
        return [tuple(wilds)]
    by_number = {card.number: card for card in naturals}
    if len(by_number) != len(naturals):
        return []
    low, high = min(by_number), max(by_number)
    gaps = high - low + 1 - len(naturals)
    spare = len(wilds) - gaps
    if spare < 0:
        return []
    runs = []
    for below in range(spare + 1):
        above = spare - below
        if low - below < 1 or high + above > 12:
            continue
        run: list[Card] = [WILD] * below
        run += [by_number.get(n, WILD) for n in range(low, high + 1)]
        run += [WILD] * above
        runs.append(tuple(run))
    return runs


def _meaning(kind: str, group: Sequence[Card]) -> tuple[Any, ...]:
    """What matters about a laid group for the rest of the round."""
    naturals = [card for card in group if card.is_natural]
    if kind == "set":
        return ("set", naturals[0].number if naturals else 0)
    if kind == "colour":
        return ("colour", naturals[0].colour if naturals else "")
    if not naturals:
        return ("run", 0, len(group))
    first = next(i for i, card in enumerate(group) if card.is_natural)
    low = (group[first].number or 0) - first
    return ("run", low, low + len(group) - 1)
