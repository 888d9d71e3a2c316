"""Reading a posted board form (`actions.read_action`) for a lay-down: the cards are
checked against the hand before any arrangement is looked for, and groups that make
more than one open phase are a question to the player, not a guess."""

import html
import re

import pytest
from django.http import QueryDict
from django.urls import reverse

from games.engine import Draw, LayDown, Rules, apply
from games.models import Game, Move
from games.online import services
from games.online.actions import BadInput, Choice, read_action
from tests.online.helpers import arranged_state, set_state, started_game

PICK = Rules(pick_a_phase=True)
JUNK = "Y3 Y4 Y6 B8 R10 G12 R3 B5 G7 Y9"
# A run of 8 in mixed colours: phase 4 (a run of 7) and phase 5 (a run of 8), nothing else.
RUN_OF_8 = "R3 B4 G5 Y6 R7 B8 G9 Y10"
NOT_IN_HAND = "You don't have all those cards in your hand."


def posted(**fields):
    data = QueryDict(mutable=True)
    for name, value in fields.items():
        if isinstance(value, list):
            data.setlist(name, value)
        else:
            data[name] = value
    return data


@pytest.fixture
def state():
    """Seat 1 (to play) holds the run of 8, a Skip and B12, and has drawn Y1."""
    dealt = arranged_state([JUNK, f"{RUN_OF_8} S B12"], draw_pile=["Y1"], rules=PICK)
    return apply(dealt, Draw())


# --- the cards must be in the hand --------------------------------------------------------


def test_selected_cards_not_in_the_hand_are_refused_before_any_arrangement(state):
    # Eleven made-up cards that make a run of 11: the solver would offer phases 4, 5 and 6.
    made_up = ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11"]
    with pytest.raises(BadInput) as refused:
        read_action(posted(do="lay", cards=made_up), state, 1)
    assert str(refused.value) == NOT_IN_HAND


def test_one_card_too_many_of_a_kind_is_not_in_the_hand(state):
    cards = [*RUN_OF_8.split(), "R3"]  # the hand has one R3, not two
    with pytest.raises(BadInput, match=re.escape(NOT_IN_HAND)):
        read_action(posted(do="lay", cards=cards, phase="5"), state, 1)


def test_posted_groups_not_in_the_hand_are_refused_too(state):
    with pytest.raises(BadInput, match=re.escape(NOT_IN_HAND)):
        read_action(posted(do="lay", groups="R1 R2 R3 R4 R5 R6 R7 R8"), state, 1)


# --- which phase --------------------------------------------------------------------------


def test_selected_cards_that_make_two_open_phases_ask_which(state):
    choice = read_action(posted(do="lay", cards=RUN_OF_8.split()), state, 1)
    assert isinstance(choice, Choice) and choice.kind == "lay"
    assert [option["phase"] for option in choice.options] == [4, 5]


def test_posted_groups_that_make_two_open_phases_ask_which(state):
    choice = read_action(posted(do="lay", groups=RUN_OF_8), state, 1)
    assert isinstance(choice, Choice) and choice.kind == "lay"
    assert [(option["phase"], option["value"]) for option in choice.options] == [
        (4, RUN_OF_8),
        (5, RUN_OF_8),
    ]


def test_posted_groups_with_their_phase_are_laid_as_that_phase(state):
    action = read_action(posted(do="lay", groups=RUN_OF_8, phase="5"), state, 1)
    assert action == LayDown([RUN_OF_8], phase=5)


# --- through the board --------------------------------------------------------------------


@pytest.mark.django_db
def test_the_player_picks_the_phase_and_the_log_names_it(alice, bob, client):
    game = started_game(alice, bob, rules=PICK)
    set_state(game, arranged_state([JUNK, f"{RUN_OF_8} S B12"], draw_pile=["Y1"], rules=PICK))
    client.force_login(bob)
    url = reverse("games:online_act", args=[game.public_id])

    def post(**data):
        data.setdefault("move", Game.objects.get(pk=game.pk).move_number)
        return html.unescape(client.post(url, data, HTTP_HX_REQUEST="true").content.decode())

    post(do="draw")
    page = post(do="lay", groups=RUN_OF_8)
    assert "How do you want to lay it down?" in page
    assert "Lay down phase 4 like this" in page and "Lay down phase 5 like this" in page
    assert not Move.objects.filter(game=game, action__type="lay_down").exists()
    page = post(do="lay", groups=RUN_OF_8, phase="5")
    assert "bob laid down phase 5" in page
    assert services.load_state(Game.objects.get(pk=game.pk)).laid_phase[1] == 5
    logged = Move.objects.get(game=game, action__type="lay_down").action
    assert logged["phase"] == 5 and logged["log"]["phase"] == 5


@pytest.mark.django_db
def test_made_up_cards_get_the_engines_message_on_the_board(alice, bob, client):
    game = started_game(alice, bob, rules=PICK)
    set_state(game, arranged_state([JUNK, f"{RUN_OF_8} S B12"], draw_pile=["Y1"], rules=PICK))
    client.force_login(bob)
    url = reverse("games:online_act", args=[game.public_id])
    client.post(url, {"move": 0, "do": "draw"}, HTTP_HX_REQUEST="true")
    made_up = ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11"]
    response = client.post(url, {"move": 1, "do": "lay", "cards": made_up}, HTTP_HX_REQUEST="true")
    page = html.unescape(response.content.decode())
    assert NOT_IN_HAND in page
    assert "How do you want to lay it down?" not in page
    assert Game.objects.get(pk=game.pk).move_number == 1
