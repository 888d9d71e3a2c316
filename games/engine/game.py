"""Playing a game: `new_game`, `apply`, `replay` (what is legal now: legal.py).

`apply` never changes the state it is given; it returns the next one, or raises
`RuleError` (a move not allowed now) or `ActionError` (a malformed move).

>>> from games.engine.cards import parse_cards
>>> deck = arrange_deck([parse_cards("R1 B1 G1 B2 R2 Y2 G5 G6 G7 Y9"),
...                      parse_cards("B3 B4 B5 B6 B7 B8 R10 R11 R12 S")], up_card="G9",
...                     draw_pile=parse_cards("W"))
>>> state = new_game(["Ann", "Bob"], decks=[deck])
>>> state.current_seat, str(state.discard_top)
(1, 'G9')
>>> state = apply(state, Draw())
>>> apply(state, Draw())
Traceback (most recent call last):
...
games.engine.rules.RuleError: You have already drawn this turn.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Unpack

from games.engine.actions import Action, Discard, Draw, Hit, LayDown
from games.engine.cards import (
    Card,
    full_deck,
    hand_points,
    is_full_deck,
    parse_cards,
    remove_card,
    remove_cards,
)
from games.engine.laying import hand_without, phase_laid
from games.engine.legal import can_draw, can_take_discard, skip_targets
from games.engine.melds import Group
from games.engine.progression import RoundResult, Standing, advance, settle_tiebreak, start
from games.engine.rules import ActionError, RuleError, Rules
from games.engine.state import GameState, RoundSummary, StateChanges, clockwise, evolve

HAND_SIZE = 10


# --- starting a game -----------------------------------------------------------------


def new_game(
    players: int | Sequence[str],
    rules: Rules | None = None,
    *,
    seed: int | None = None,
    decks: Sequence[Sequence[Card | str] | str] | None = None,
    dealer: int = 0,
) -> GameState:
    """A new game, with round 1 dealt.

    players: a count (2-6) or the players' names in seat order.
    seed:    every shuffle comes from it (None: a fresh random seed, kept in the state).
    decks:   108-card decks, top first, for rounds 1, 2, ... in turn (a tie-breaker
             deal counts as a round); later rounds are shuffled from the seed.
    dealer:  who deals round 1. Dealing is one card at a time from the seat left of the
             dealer, 10 each; then the up-card; the rest is the draw pile.

    >>> state = new_game(3, seed=7)
    >>> [len(hand) for hand in state.hands], state.draw_pile_size, state.current_seat
    ([10, 10, 10], 77, 1)
    """
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise ActionError("rules must be a Rules.")
    names = _player_names(players)
    if seed is None:
        # The one place entropy enters; it is stored so the game can be replayed.
        seed = random.SystemRandom().randrange(2**63)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ActionError("seed must be an integer.")
    stacked = tuple(_deck(deck) for deck in decks or ())
    standing = start(len(names), rules, dealer=dealer)
    empty = ((),) * len(names)
    state = GameState(
        rules=rules,
        players=names,
        seed=seed,
        standing=standing,
        hands=empty,
        draw_pile=(),
        discard_pile=(),
        laid=empty,
        laid_phase=(None,) * len(names),
        current_seat=standing.first_player,
        deals=0,
        decks=stacked,
    )
    return _deal(state)


def _player_names(players: int | Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, bool):
        raise ActionError("players must be a count or a list of names.")
    if isinstance(players, int):
        return tuple(f"Player {seat + 1}" for seat in range(players))
    if isinstance(players, str) or not all(isinstance(name, str) for name in players):
        raise ActionError("players must be a count or a list of names.")
    return tuple(players)


def _deck(deck: Sequence[Card | str] | str) -> tuple[Card, ...]:
    cards = tuple(
        parse_cards(deck)
        if isinstance(deck, str)
        else (Card.parse(card) if isinstance(card, str) else card for card in deck)
    )
    if not is_full_deck(cards):
        raise ActionError("A deck must be exactly the 108 Phase 10 cards (see arrange_deck).")
    return cards


def arrange_deck(
    hands: Sequence[Sequence[Card]],
    up_card: Card | str | None = None,
    draw_pile: Sequence[Card] = (),
    *,
    dealer: int = 0,
    seats: Sequence[int] | None = None,
) -> list[Card]:
    """A full deck, top first, that deals `hands[i]` to seat i, then `up_card`, then
    `draw_pile` on top of the draw pile; unnamed cards fill the rest in a fixed order.

    `seats` lists the seats dealt in (default: all `len(hands)`; a tie-breaker deals
    only the tied seats). Hands may be short: they are filled from the rest too.

    >>> from games.engine.cards import parse_cards
    >>> deck = arrange_deck([parse_cards("R1"), parse_cards("B2")], dealer=0)
    >>> deck[:2]  # one at a time from the left of the dealer: seat 1 first
    [Card('B2'), Card('R1')]
    """
    players = len(hands)
    dealt = list(range(players)) if seats is None else sorted(seats)
    order = [seat for seat in clockwise(dealer, players) if seat in dealt]
    up = Card.parse(up_card) if isinstance(up_card, str) else up_card
    named: list[Card] = [card for hand in hands for card in hand] + list(draw_pile)
    if up is not None:
        named.append(up)
    rest = remove_cards(full_deck(), named)
    if rest is None:
        raise ActionError("Those cards aren't all in one deck.")
    if any(len(hands[seat]) > HAND_SIZE for seat in range(players)):
        raise ActionError(f"A hand is dealt {HAND_SIZE} cards.")
    spare = list(rest)
    if up is None:
        spare, up = spare[1:], spare[0]
    filled = {seat: list(hands[seat]) for seat in dealt}
    for seat in dealt:
        while len(filled[seat]) < HAND_SIZE:
            filled[seat].append(spare.pop(0))
    deck: list[Card] = []
    for index in range(HAND_SIZE):
        deck.extend(filled[seat][index] for seat in order)
    return [*deck, up, *draw_pile, *spare]


def _deal(state: GameState) -> GameState:
    """Deal the round now to be played (a tie-breaker deals only the tied seats)."""
    standing = state.standing
    if state.decks:
        deck, decks = list(state.decks[0]), state.decks[1:]
    else:
        deck, decks = full_deck(), ()
        random.Random(f"{state.seed}/deal/{state.deals}").shuffle(deck)
    playing = standing.playing
    order = [seat for seat in clockwise(standing.dealer, state.seats) if seat in playing]
    hands: list[list[Card]] = [[] for _ in range(state.seats)]
    position = 0
    for _ in range(HAND_SIZE):
        for seat in order:
            hands[seat].append(deck[position])
            position += 1
    up_card = deck[position]
    empty = ((),) * state.seats
    dealt = evolve(
        state,
        hands=tuple(tuple(hand) for hand in hands),
        draw_pile=tuple(deck[position + 1 :]),
        discard_pile=(up_card,),
        laid=empty,
        laid_phase=(None,) * state.seats,
        current_seat=standing.first_player,
        drawn=False,
        laid_this_turn=False,
        skipped=(),
        deals=state.deals + 1,
        reshuffles=0,
        decks=decks,
    )
    if up_card.is_skip:
        # docs/rules.md: a Skip as the first up-card skips the first player.
        return _pass_turn(evolve(dealt, skipped=(standing.first_player,)), standing.dealer)
    return dealt


# --- applying a move ------------------------------------------------------------------


def apply(state: GameState, action: Action) -> GameState:
    """The state after the current player does `action`.

    Raises RuleError when the move isn't allowed now (with a sentence for the player),
    ActionError when it is malformed. Never changes `state`.
    """
    if state.game_over:
        raise RuleError("The game is over.", code="game_over")
    if isinstance(action, Draw):
        return _draw(state, action)
    if isinstance(action, LayDown):
        return _lay_down(state, action)
    if isinstance(action, Hit):
        return _hit(state, action)
    if isinstance(action, Discard):
        return _discard(state, action)
    raise ActionError(f"Not an action: {action!r}.")


def _draw(state: GameState, action: Draw) -> GameState:
    if state.drawn:
        raise RuleError("You have already drawn this turn.", code="already_drawn")
    seat = state.current_seat
    hand = state.hands[seat]
    if action.from_discard:
        top = state.discard_top
        if top is None:
            raise RuleError("The discard pile is empty.", code="discard_empty")
        if top.is_skip:
            raise RuleError(
                "A Skip can never be taken from the discard pile.", code="skip_from_discard"
            )
        return _with_hand(
            state, seat, (*hand, top), discard_pile=state.discard_pile[:-1], drawn=True
        )
    if not state.draw_pile:
        state = _reshuffle(state)
        if not state.draw_pile:
            raise RuleError("The draw pile is empty: take the top discard.", code="draw_pile_empty")
    card, rest = state.draw_pile[0], state.draw_pile[1:]
    return _with_hand(state, seat, (*hand, card), draw_pile=rest, drawn=True)


def _reshuffle(state: GameState) -> GameState:
    """docs/rules.md: the discard pile except its top card becomes the new draw pile."""
    if len(state.discard_pile) < 2:
        return state
    pile = list(state.discard_pile[:-1])
    random.Random(f"{state.seed}/deal/{state.deals}/reshuffle/{state.reshuffles}").shuffle(pile)
    return evolve(
        state,
        draw_pile=tuple(pile),
        discard_pile=state.discard_pile[-1:],
        reshuffles=state.reshuffles + 1,
    )


def _lay_down(state: GameState, action: LayDown) -> GameState:
    seat = state.current_seat
    if not state.drawn:
        raise RuleError("You must draw before you lay down your phase.", code="draw_first")
    if state.laid_phase[seat] is not None:
        raise RuleError("You have already laid down your phase this round.", code="already_laid")
    # The cards first: made-up ones are refused before any phase is looked at.
    rest = hand_without(state.hands[seat], [card for group in action.groups for card in group])
    phase, groups = phase_laid(state, seat, action)
    if state.in_tiebreak_round:
        # docs/rules.md: the first tied player to lay the tie-breaker goal down wins at once.
        standing = settle_tiebreak(state.standing, seat)
        return _with_laid(state, seat, rest, groups, phase, standing)
    if not rest:
        raise RuleError("You must keep a card to discard.", code="keep_a_card")
    return _with_laid(state, seat, rest, groups, phase, state.standing)


def _with_laid(
    state: GameState,
    seat: int,
    rest: tuple[Card, ...],
    groups: tuple[Group, ...],
    phase: int,
    standing: Standing,
) -> GameState:
    laid = _set(state.laid, seat, groups)
    laid_phase = _set(state.laid_phase, seat, phase)
    return _with_hand(
        state,
        seat,
        rest,
        laid=laid,
        laid_phase=laid_phase,
        laid_this_turn=True,
        standing=standing,
    )


def _hit(state: GameState, action: Hit) -> GameState:
    seat = state.current_seat
    rules = state.rules
    if not state.drawn:
        raise RuleError("You must draw before you hit.", code="draw_first")
    if state.laid_phase[seat] is None:
        raise RuleError("You can hit only after laying down your phase.", code="hit_before_laying")
    if action.seat >= state.seats:
        raise ActionError(f"There is no seat {action.seat}.")
    groups = state.laid[action.seat]
    if action.group >= len(groups):
        raise RuleError("That group isn't on the table.", code="no_such_group")
    if action.seat != seat and state.laid_this_turn and not rules.hit_others_same_turn:
        raise RuleError(
            "In the turn you lay down your phase you may hit only your own groups.",
            code="hit_others_same_turn",
        )
    rest = remove_card(state.hands[seat], action.card)
    if rest is None:
        raise RuleError(
            f"You don't have {action.card} in your hand.",
            code="card_not_in_hand",
            params={"card": str(action.card)},
        )
    if not rest and not rules.go_out_by_hitting:
        raise RuleError("You can't hit your last card: keep one to discard.", code="keep_a_card")
    group = groups[action.group].hit(action.card, action.end)
    laid = _set(state.laid, action.seat, _set(groups, action.group, group))
    after = _with_hand(state, seat, rest, laid=laid)
    if not rest:
        return _end_round(after, went_out=seat)
    return after


def _discard(state: GameState, action: Discard) -> GameState:
    seat = state.current_seat
    if not state.drawn:
        raise RuleError("You must draw before you discard.", code="draw_first")
    card = action.card
    rest = remove_card(state.hands[seat], card)
    if rest is None:
        raise RuleError(
            f"You don't have {card} in your hand.",
            code="card_not_in_hand",
            params={"card": str(card)},
        )
    if action.skip is not None and not card.is_skip:
        raise RuleError("Only a Skip card skips a player.", code="skip_without_skip")
    target = _skip_target(state, action) if card.is_skip and rest else None
    skipped = state.skipped if target is None else (*state.skipped, target)
    after = _with_hand(state, seat, rest, discard_pile=(*state.discard_pile, card), skipped=skipped)
    if not rest:
        return _end_round(after, went_out=seat)
    return _pass_turn(after, seat)


def _skip_target(state: GameState, action: Discard) -> int | None:
    """The seat a discarded Skip skips (None: nobody is left to skip)."""
    seat = state.current_seat
    targets = skip_targets(state)
    if state.rules.skip_target == "next":
        following = state.next_seat(seat)
        if action.skip is not None and action.skip != following:
            raise RuleError(
                "In this game a Skip always skips the next player.", code="skip_next_only"
            )
        return following if following in targets else None
    if not targets:
        if action.skip is not None:
            raise RuleError("Every other player is already due to be skipped.", code="skip_target")
        return None
    if action.skip is None:
        raise RuleError("Say which player to skip.", code="skip_target_needed")
    if action.skip == seat:
        raise RuleError("You can't skip yourself.", code="skip_target")
    if action.skip in state.skipped:
        raise RuleError("That player is already due to be skipped.", code="skip_target")
    if action.skip not in targets:
        raise RuleError("That player isn't in this round.", code="skip_target")
    return action.skip


def _pass_turn(state: GameState, seat: int) -> GameState:
    """Give the turn to the next seat after `seat` that isn't due to be skipped."""
    skipped = list(state.skipped)
    following = state.next_seat(seat)
    while following in skipped:
        skipped.remove(following)
        following = state.next_seat(following)
    after = evolve(
        state,
        current_seat=following,
        drawn=False,
        laid_this_turn=False,
        skipped=tuple(skipped),
    )
    if not (can_draw(after) or can_take_discard(after)):
        # Both piles are used up (every other card is laid or held): the printed rules have
        # no answer, so the round ends with nobody out and everyone scores their hand.
        return _end_round(after, went_out=None)
    return after


def _end_round(state: GameState, went_out: int | None) -> GameState:
    """Score the round, advance phases, then deal the next round or end the game."""
    if state.in_tiebreak_round:
        # Nobody laid the tie-breaker goal before the cards ran out: deal it again.
        return _deal(state)
    points = tuple(
        0 if seat == went_out else hand_points(hand) for seat, hand in enumerate(state.hands)
    )
    completed = {seat: phase for seat, phase in enumerate(state.laid_phase) if phase is not None}
    result = RoundResult(went_out=went_out, completed=completed, points=points)
    standing = advance(state.rules, state.standing, result)
    summary = RoundSummary(
        round_number=state.standing.round_number,
        went_out=went_out,
        points=points,
        attempted=standing.attempted[-1],
        laid=state.laid_phase,
    )
    after = evolve(state, standing=standing, last_round=summary, drawn=False, skipped=())
    if standing.game_over:
        return after
    return _deal(after)


# --- small immutable helpers ---------------------------------------------------------


def _set[T](items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _with_hand(
    state: GameState, seat: int, hand: tuple[Card, ...], **changes: Unpack[StateChanges]
) -> GameState:
    """The state with `seat`'s hand replaced (and any other `changes`), built once."""
    changes["hands"] = _set(state.hands, seat, hand)
    return evolve(state, **changes)


def replay(
    players: int | Sequence[str],
    actions: Sequence[Action],
    rules: Rules | None = None,
    *,
    seed: int,
    decks: Sequence[Sequence[Card | str] | str] | None = None,
    dealer: int = 0,
) -> GameState:
    """The state reached from a new game by `actions` in turn: a game is its seed and
    its move log."""
    state = new_game(players, rules, seed=seed, decks=decks, dealer=dealer)
    for action in actions:
        state = apply(state, action)
    return state
