"""What happened: `play(state, action)` is `apply` that also says so, in order.

Callers (the move log, the turn log, emails) read the events instead of comparing two
states. Every event is public: a card drawn from the draw pile stays secret.

>>> from games.engine.cards import parse_cards
>>> from games.engine.game import arrange_deck, new_game
>>> deck = arrange_deck([parse_cards("R1 B1 G1 R2 B2 G2 Y5 Y6 Y7 Y8"), []], up_card="S",
...                     draw_pile=parse_cards("W"))
>>> state = new_game(2, decks=[deck])  # the up-card Skip skips seat 1: seat 0 plays
>>> outcome = play(state, Draw())
>>> outcome.events
(Drew(seat=0),)
>>> outcome = play(outcome.state, Discard("W"))
>>> [event.to_dict() for event in outcome.events]
[{'type': 'discarded', 'seat': 0, 'card': 'W'}]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from games.engine.actions import Action, Discard, Draw, Hit, LayDown
from games.engine.cards import Card, parse_cards, remove_card
from games.engine.game import apply
from games.engine.legal import skip_targets
from games.engine.melds import End, Group, group_from_dict
from games.engine.rules import ActionError
from games.engine.state import GameState, RoundSummary


@dataclass(frozen=True)
class _Event:
    """`to_dict()`: `{"type": TYPE, <each field>}` with cards as codes, groups and
    round summaries as their `to_dict()`, tuples as lists. `event_from_dict` reads it."""

    TYPE: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.TYPE}
        for field in fields(self):
            data[field.name] = _json(getattr(self, field.name))
        return data


@dataclass(frozen=True)
class Drew(_Event):
    """`seat` drew the top card of the draw pile (which card is secret)."""

    TYPE = "drew"
    seat: int


@dataclass(frozen=True)
class Took(_Event):
    """`seat` took `card`, the top of the discard pile."""

    TYPE = "took"
    seat: int
    card: Card


@dataclass(frozen=True)
class Laid(_Event):
    """`seat` laid down `phase` as `groups` (in a tie-breaker round: its goal, phase 10's)."""

    TYPE = "laid"
    seat: int
    phase: int
    groups: tuple[Group, ...]


@dataclass(frozen=True)
class HitCard(_Event):
    """`seat` hit `card` on group number `group` of `owner`'s laid groups; `end` is the
    end of a run it went on ("low"/"high"), None for a set or a colour group."""

    TYPE = "hit_card"
    seat: int
    owner: int
    group: int
    card: Card
    end: End | None


@dataclass(frozen=True)
class Discarded(_Event):
    """`seat` discarded `card`."""

    TYPE = "discarded"
    seat: int
    card: Card


@dataclass(frozen=True)
class Skipped(_Event):
    """`seat` loses its next turn: to the Skip `by` discarded, or (`by` None) because the
    up-card of a new deal is a Skip. A Skip discarded as the round ends skips nobody."""

    TYPE = "skipped"
    seat: int
    by: int | None


@dataclass(frozen=True)
class WentOut(_Event):
    """`seat` got rid of its last card: the round is over."""

    TYPE = "went_out"
    seat: int


@dataclass(frozen=True)
class RoundOver(_Event):
    """A round was scored (`summary`: its number, who went out, per seat points, phase
    attempted and phase laid); `scores` are the totals after it; `hands`: per seat, the
    cards left in its hand when the round ended (shown to everyone now: the points are
    theirs). The next round is dealt at once unless the game is over or a tie-breaker
    round starts."""

    TYPE = "round_over"
    summary: RoundSummary
    scores: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...] = ()


@dataclass(frozen=True)
class TiebreakStarted(_Event):
    """A tie-breaker round was dealt to the tied `seats`; `redeal`: it is dealt again
    because the last deal ran out of cards before anyone laid the goal down."""

    TYPE = "tiebreak_started"
    seats: tuple[int, ...]
    redeal: bool


@dataclass(frozen=True)
class GameOver(_Event):
    """`winner` won; `tiebreak`: by laying the tie-breaker goal down first."""

    TYPE = "game_over"
    winner: int
    tiebreak: bool


Event = (
    Drew
    | Took
    | Laid
    | HitCard
    | Discarded
    | Skipped
    | WentOut
    | RoundOver
    | TiebreakStarted
    | GameOver
)
EVENT_TYPES: dict[str, type[Event]] = {
    kind.TYPE: kind
    for kind in (
        Drew,
        Took,
        Laid,
        HitCard,
        Discarded,
        Skipped,
        WentOut,
        RoundOver,
        TiebreakStarted,
        GameOver,
    )
}


@dataclass(frozen=True)
class Outcome:
    """The state after a move, and what happened on the way, in order."""

    state: GameState
    events: tuple[Event, ...]


def play(state: GameState, action: Action) -> Outcome:
    """`apply(state, action)` and the events it caused; raises as `apply` does.

    A move's events, in this order: what the player did (Drew / Took, Laid, HitCard,
    Discarded), then Skipped (a Skip's target), WentOut, RoundOver, then either GameOver
    or, for the next deal, TiebreakStarted and Skipped (by None) for a Skip up-card.
    """
    after = apply(state, action)
    return Outcome(after, _events(state, action, after))


def _events(before: GameState, action: Action, after: GameState) -> tuple[Event, ...]:
    seat = before.current_seat
    events: list[Event] = []
    # _end_round is the only place a new RoundSummary is made; every other move keeps it.
    summary = after.last_round if after.last_round is not before.last_round else None
    dealt = after.deals != before.deals
    if isinstance(action, Draw):
        top = before.discard_top
        events.append(Took(seat, top) if action.from_discard and top is not None else Drew(seat))
    elif isinstance(action, LayDown):
        phase = after.laid_phase[seat]
        assert phase is not None  # apply accepted the lay-down
        events.append(Laid(seat, phase, after.laid[seat]))
    elif isinstance(action, Hit):
        end = _hit_end(before, action)
        events.append(HitCard(seat, action.seat, action.group, action.card, end))
    else:
        events.append(Discarded(seat, action.card))
        # A Skip discarded as the round ends skips nobody: the next deal starts afresh.
        target = None if summary is not None or dealt else _skipped_by(before, action)
        if target is not None:
            events.append(Skipped(target, by=seat))
    if summary is not None:
        if summary.went_out is not None:
            events.append(WentOut(summary.went_out))
        events.append(RoundOver(summary, after.scores, _hands_left(before, action)))
    if after.game_over:
        assert after.winner is not None  # a game never ends without a winner
        events.append(GameOver(after.winner, tiebreak=after.tiebreak))
    elif dealt:
        if after.in_tiebreak_round:
            seats = after.standing.tiebreak_seats
            events.append(TiebreakStarted(seats, redeal=before.in_tiebreak_round))
        if after.discard_pile[0].is_skip:
            events.append(Skipped(after.standing.first_player, by=None))
    return tuple(events)


def _hands_left(before: GameState, action: Action) -> tuple[tuple[Card, ...], ...]:
    """The hands as the round ended with `action`: a discard or a hit is the only move
    that ends a round (going out, or the last discard before the piles ran out), and it
    took one card from the mover's hand. (A tie-breaker's lay-down ends the game without
    a scored round.)"""
    hands = list(before.hands)
    if isinstance(action, (Discard, Hit)):
        seat = before.current_seat
        hands[seat] = remove_card(hands[seat], action.card) or ()
    return tuple(hands)


def _hit_end(state: GameState, action: Hit) -> End | None:
    """The end of a run the card went on (apply accepted it: it fits there)."""
    group = state.laid[action.seat][action.group]
    if group.kind != "run":
        return None
    return action.end if action.end is not None else group.hit_ends(action.card)[0]


def _skipped_by(state: GameState, action: Discard) -> int | None:
    """Whom the Skip `action` discards skips (the engine's target, or the one named).

    With skip_target "next" the engine names the next player (with two players, the
    other one: the discarder then plays again); with "choose" the action names the seat,
    and names none when every other player is already due to be skipped.
    """
    if not action.card.is_skip:
        return None
    if action.skip is not None:
        return action.skip
    targets = skip_targets(state)
    if state.rules.skip_target == "next" and targets and targets[0] not in state.skipped:
        return targets[0] if targets[0] != state.current_seat else None
    return None


# --- JSON -----------------------------------------------------------------------------


def _json(value: object) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, (Group, RoundSummary)):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_json(item) for item in value]
    return value


def _read(name: str, value: Any) -> Any:
    if name == "card":
        return Card.parse(value)
    if name == "groups":
        return tuple(group_from_dict(group) for group in value)
    if name == "summary":
        return RoundSummary.from_dict(value)
    if name in ("seats", "scores"):
        return tuple(int(item) for item in value)
    if name == "hands":
        return tuple(tuple(parse_cards(hand)) for hand in value)
    return value


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Read an event's `to_dict()` back; ActionError if it isn't one.

    >>> event_from_dict(Took(1, Card.parse("G9")).to_dict())
    Took(seat=1, card=Card('G9'))
    """
    if not isinstance(data, Mapping):
        raise ActionError(f"Not an event: {data!r}.")
    name = data.get("type")
    kind = EVENT_TYPES.get(name) if isinstance(name, str) else None
    if kind is None:
        raise ActionError(f"Unknown event type {name!r}.")
    try:
        # A field with a default may be missing from an older dict (RoundOver's hands).
        return kind(
            **{
                field.name: _read(field.name, data[field.name])
                for field in fields(kind)
                if field.name in data or field.default is MISSING
            }
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ActionError(f"Not a {kind.TYPE} event: {data!r}.") from exc
