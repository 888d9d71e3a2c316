"""Fixtures of the online-game tests."""

import pytest

from tests.online.helpers import arranged_state, set_state, started_game


@pytest.fixture
def duel(alice, bob):
    """alice (seat 0, dealer) and bob (seat 1, plays first) with known hands."""
    game = started_game(alice, bob)
    state = arranged_state(
        [
            "R7 B7 G7 Y3 R3 W B11 G2 S Y9",
            "R1 R2 R3 R4 G8 B8 Y8 B12 Y12 S",
        ],
        up_card="G9",
        draw_pile=["W", "B3"],
    )
    return set_state(game, state)
