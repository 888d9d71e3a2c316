import json
from dataclasses import FrozenInstanceError, fields

import pytest

from games.engine import (
    ActionError,
    Card,
    Draw,
    LayDown,
    Part,
    action_from_dict,
    apply,
    cards_text,
    new_game,
    player_view,
)

from .helpers import game

SEAT0 = "R7 B7 G7 R8 B8 G8 Y3 Y4 Y5 Y6"
SEAT1 = "R1 B1 G1 R2 B2 G2 Y7 Y8 Y1 R12"

EXPECTED_KEYS = {
    "seat",
    "players",
    "rules",
    "round_number",
    "dealer",
    "current_seat",
    "your_turn",
    "drawn",
    "laid_this_turn",
    "hand",
    "hand_counts",
    "discard_top",
    "discard_size",
    "draw_pile_size",
    "laid",
    "laid_phase",
    "phase",
    "goal",
    "completed",
    "scores",
    "skipped",
    "playing",
    "game_over",
    "winner",
    "tiebreak",
    "tiebreak_seats",
    "last_round",
    "legal",
}


def test_a_view_shows_the_own_hand_and_only_counts_of_the_others():
    state = game([SEAT0, SEAT1], up="G9")
    view = player_view(state, 0)
    assert set(view.to_dict()) == EXPECTED_KEYS
    assert sorted(str(card) for card in view.hand) == sorted(SEAT0.split())
    assert view.hand_counts == (10, 10)
    for card in SEAT1.split():
        if card not in SEAT0.split():
            assert card not in json.dumps(view.to_dict())


def test_a_view_never_holds_the_seed_or_the_deck_order():
    state = new_game(3, seed=12345)
    view = player_view(state, 0)
    text = json.dumps(view.to_dict())
    assert "12345" not in text
    assert 'draw_pile"' not in text and "decks" not in text
    assert not {"seed", "hands", "draw_pile", "decks"} & {field.name for field in fields(view)}


def test_a_view_is_json_ready():
    state = apply(game([SEAT0, SEAT1], draw="W"), Draw())
    state = apply(state, LayDown(["R1 B1 G1", "R2 B2 G2"]))
    data = player_view(state, 1).to_dict()
    assert json.loads(json.dumps(data)) == data


def test_a_view_is_a_frozen_value():
    state = new_game(2, seed=4)
    view = player_view(state, 0)
    assert view == player_view(state, 0)
    with pytest.raises(FrozenInstanceError):
        view.seat = 1


def test_a_view_shows_the_table_to_everyone():
    state = apply(game([SEAT0, SEAT1], up="G9", draw="W"), Draw())
    state = apply(state, LayDown(["R1 B1 G1", "R2 B2 G2"]))
    view = player_view(state, 0)
    assert view.discard_top == Card.parse("G9")
    assert [cards_text(group) for group in view.laid[1]] == ["R1 B1 G1", "R2 B2 G2"]
    assert view.laid_phase == (None, 1)
    assert view.phase == (1, 1)
    assert view.goal[0] == (Part("set", 3), Part("set", 3))
    assert view.current_seat == 1 and not view.your_turn
    assert view.draw_pile_size == state.draw_pile_size
    assert view.to_dict()["goal"][0] == [["set", 3], ["set", 3]]


def test_only_the_player_whose_turn_it_is_gets_legal_moves():
    state = game([SEAT0, SEAT1])
    waiting = player_view(state, 0).legal
    assert not waiting.draw and not waiting.discards
    playing = player_view(state, 1).legal
    assert playing.draw and playing.take_discard


def test_the_legal_moves_in_a_view_are_accepted_by_apply():
    state = apply(game([SEAT0, SEAT1], draw="W"), Draw())
    legal = player_view(state, 1).legal
    assert legal.lay_down
    for action in legal.lay_down + legal.discards:
        apply(state, action)


def test_the_legal_moves_dict_holds_action_dicts():
    state = apply(game([SEAT0, SEAT1], draw="W"), Draw())
    view = player_view(state, 1)
    data = view.to_dict()["legal"]
    assert [action_from_dict(entry) for entry in data["lay_down"]] == list(view.legal.lay_down)
    assert [action_from_dict(entry) for entry in data["discards"]] == list(view.legal.discards)


def test_a_view_of_a_seat_that_does_not_exist_is_an_error():
    with pytest.raises(ActionError):
        player_view(new_game(2, seed=1), 2)
