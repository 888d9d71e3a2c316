"""Hidden information and access: other hands and the deck order never reach a browser,
and a game's pages exist only for its seated players."""

import dataclasses
import re

import pytest
from django.urls import reverse

from games.engine import Draw
from games.models import Game
from games.online import lobby, services
from tests.online.helpers import started_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def without_csrf(content: bytes) -> str:
    return CSRF.sub(r"\1…", content.decode())


def every_page_of(client, game):
    """Every GET a seated player's browser makes, HTMX partials included."""
    public_id = game.public_id
    return [
        client.get(reverse("games:online_detail", args=[public_id])),
        client.get(reverse("games:online_detail", args=[public_id]) + "?hint=1"),
        client.get(reverse("games:online_poll", args=[public_id]) + "?v=0", **HTMX),
        client.get(reverse("games:online_hint", args=[public_id]), **HTMX),
        client.get(reverse("games:online_list")),
    ]


def swap_hand_with_draw_pile(game: Game, seat: int) -> None:
    """Give `seat` other cards: its hand and the top of the draw pile change places."""
    state = services.load_state(game)
    size = len(state.hands[seat])
    hand, pile = state.hands[seat], state.draw_pile
    hands = list(state.hands)
    hands[seat] = pile[:size]
    state = dataclasses.replace(state, hands=tuple(hands), draw_pile=hand + pile[size:])
    Game.objects.filter(pk=game.pk).update(state=state.to_dict())


def test_seat_b_sees_the_same_pages_whatever_seat_a_holds(alice, bob, client):
    game = started_game(
        alice, bob, bots=1, seed=2**40 + 12345
    )  # a seed no page could hold by chance
    first = services.load_state(game).current_seat
    game = services.perform(game, first, Draw(), expected_move=0)  # a log line too
    client.force_login(bob)
    before = [without_csrf(response.content) for response in every_page_of(client, game)]
    alice_seat = game.seats.get(player__user=alice).position
    swap_hand_with_draw_pile(game, alice_seat)
    state = services.load_state(Game.objects.get(pk=game.pk))
    after = [without_csrf(response.content) for response in every_page_of(client, game)]
    assert before == after
    # And the cards themselves: neither of alice's hands nor the deck order appear.
    page = after[0]
    bob_hand = set(re.findall(r'name="cards" value="([^"]+)"', page))
    assert bob_hand == {
        str(card) for card in state.hands[game.seats.get(player__user=bob).position]
    }
    assert str(game.seed) not in "".join(after)
    assert "draw_pile" not in page and "hands" not in page


def test_a_stranger_gets_404_on_every_url_of_a_game(alice, bob, stranger, client):
    active = started_game(alice, bob)
    waiting = lobby.create_game(alice, seats=3)
    client.force_login(stranger)
    for game in (active, waiting):
        public_id = game.public_id
        gets = ["online_detail", "online_poll", "online_hint"]
        posts = [
            "online_act",
            "online_sort",
            "online_resign",
            "online_rematch",
            "online_start",
            "online_leave",
            "online_invite",
            "online_revoke_link",
            "online_add_bot",
        ]
        for name in gets:
            url = reverse(f"games:{name}", args=[public_id])
            assert client.get(url + "?v=0").status_code == 404, name
            assert client.get(url + "?v=0", **HTMX).status_code == 404, name
        for name in posts:
            url = reverse(f"games:{name}", args=[public_id])
            assert client.post(url, {"move": 0, "do": "draw"}).status_code == 404, name
        remove = reverse("games:online_remove_seat", args=[public_id, 1])
        assert client.post(remove).status_code == 404
        withdraw = reverse("games:online_withdraw_invitation", args=[public_id, 1])
        assert client.post(withdraw).status_code == 404
    # An invite link with a wrong token is a 404 too.
    assert client.get(reverse("games:online_join", args=["not-the-token"])).status_code == 404
    assert Game.objects.get(pk=active.pk).move_number == 0


def test_logged_out_visitors_are_sent_to_log_in(alice, bob, client):
    game = started_game(alice, bob)
    for name in ("online_detail", "online_poll", "online_act"):
        response = client.get(reverse(f"games:{name}", args=[game.public_id]) + "?v=1")
        assert response.status_code == 302 and "/accounts/login" in response["Location"]
