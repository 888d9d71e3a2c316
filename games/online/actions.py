"""A posted board form, read: an engine action to play, or a choice to put to the player.

The board posts plain fields (`do`, card codes, seat and group numbers). Nothing here
trusts them: codes that aren't cards are refused with a message, and every rule (which
cards make the phase, where a card fits, whom a Skip may skip) is the engine's — this
module only asks it and turns its answer into an action or a choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from .. import engine
from ..engine import (
    Action,
    ActionError,
    Card,
    Discard,
    Draw,
    GameState,
    Hit,
    LayDown,
    RuleError,
    parse_cards,
)
from ..engine.legal import phases_needed
from ..engine.melds import ENDS
from ..words import group_label, group_words, move_refusal, phase_goal_words


class BadInput(ValueError):
    """The form sent something that can't be a move; `str()` is for the player."""


@dataclass(frozen=True)
class Choice:
    """More than one move fits what the player selected: the board asks which.

    kind: "lay" (options: phase, groups of card codes, the `groups` field's value),
    "hit" (options: seat, group, end, label) or "skip" (options: seat, name)."""

    kind: str
    card: str | None = None
    options: list[dict[str, Any]] = field(default_factory=list)


def read_action(post: QueryDict, state: GameState, seat: int) -> Action | Choice:
    """The engine action the board's form asks for, or a `Choice` to put to the player.

    Reads only what `seat` may know of `state` (its own hand and the laid groups)."""
    do = post.get("do")
    if do == "draw":
        return Draw()
    if do == "take":
        return Draw(from_discard=True)
    if do == "lay":
        return _lay_down(post, state, seat)
    if do == "hit":
        return _hit(post, state, seat)
    if do == "discard":
        return _discard(post, state)
    raise BadInput(_("Choose what to do."))


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


def _one_card(post: QueryDict) -> Card:
    cards = cards_from(post.getlist("cards") or [post.get("card", "")])
    if len(cards) != 1:
        raise BadInput(_("Select exactly one card."))
    return cards[0]


def _lay_down(post: QueryDict, state: GameState, seat: int) -> LayDown | Choice:
    phase = int_field(post.get("phase"))
    text = post.get("groups")
    if text:
        groups = groups_from(text)
        _check_in_hand(state, seat, [card for group in groups for card in group])
        if phase is None:
            # Groups that make several open phases (a run of 8: phase 4 and phase 5) are
            # the player's choice; the engine refuses to guess.
            made = engine.phases_made(groups, phases_needed(state, seat), state.rules)
            if len(made) > 1:
                return Choice("lay", options=[_lay_option(p, groups) for p in made])
        return LayDown(groups, phase=phase)
    cards = cards_from(post.getlist("cards"))
    if not cards:
        raise BadInput(_("Select the cards of your phase first."))
    # Before any arrangement is looked for: made-up cards must cost no solver time.
    _check_in_hand(state, seat, cards)
    phases = [p for p in phases_needed(state, seat) if phase is None or p == phase]
    choices = engine.lay_down_choices(cards, phases, state.rules)
    if len(choices) == 1:
        return choices[0]
    if not choices:
        goals = "; ".join(
            _("phase %(number)s: %(goal)s") % {"number": p, "goal": phase_goal_words(p)}
            for p in phases[:3]
        )
        raise BadInput(
            _("Those cards don't make your phase (%(goals)s). Select all the cards to lay down.")
            % {"goals": goals}
        )
    return Choice("lay", options=[_lay_option(option.phase, option.groups) for option in choices])


def _check_in_hand(state: GameState, seat: int, cards: Sequence[Card]) -> None:
    """The engine's own check that `cards` are in `seat`'s hand, with its message."""
    try:
        engine.hand_without(state.hands[seat], cards)
    except RuleError as error:
        raise BadInput(move_refusal(error)) from error


def _lay_option(phase: int | None, groups: Sequence[Sequence[Card]]) -> dict[str, Any]:
    return {
        "phase": phase,
        "groups": [[str(card) for card in group] for group in groups],
        "value": "|".join(" ".join(str(card) for card in group) for group in groups),
    }


def _hit(post: QueryDict, state: GameState, seat: int) -> Hit | Choice:
    card = _one_card(post)
    target, group = int_field(post.get("seat")), int_field(post.get("group"))
    if target is not None and group is not None:
        end = post.get("end") or None
        if end is not None and end not in ENDS:
            raise BadInput(_("That isn't an end of a run."))
        return Hit(target, group, card, end)
    if card not in state.hands[seat]:
        raise BadInput(_("That card isn't in your hand."))
    options = [hit for hit in engine.hit_options(state) if hit.card == card]
    if not options:
        raise BadInput(_("That card doesn't fit on any group on the table."))
    if len(options) == 1:
        return options[0]
    return Choice(
        "hit",
        card=str(card),
        options=[
            {
                "card": str(card),
                "seat": hit.seat,
                "group": hit.group,
                "end": hit.end,
                "label": _hit_label(state, seat, hit),
            }
            for hit in options
        ],
    )


def _hit_label(state: GameState, seat: int, hit: Hit) -> str:
    group = state.laid[hit.seat][hit.group]
    text = group_words(
        group.kind, number=group.number, colour=group.colour, low=group.low, size=len(group)
    )
    return group_label(text, mine=hit.seat == seat, owner=state.players[hit.seat], end=hit.end)


def _discard(post: QueryDict, state: GameState) -> Discard | Choice:
    card = _one_card(post)
    skip = int_field(post.get("skip"))
    if skip is not None or not card.is_skip:
        return Discard(card, skip=skip)
    targets = sorted(
        {
            option.skip
            for option in engine.discard_options(state)
            if option.card.is_skip and option.skip is not None
        }
    )
    if not targets:
        return Discard(card)
    return Choice(
        "skip",
        card=str(card),
        options=[{"seat": target, "name": state.players[target]} for target in targets],
    )
