"""Hidden information and access: other hands and the deck order never reach a browser,
and a game's pages exist only for its seated players."""

import dataclasses
import json
import re

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.engine import Discard, Draw
from games.models import Game, Move
from games.online import lobby, services
from games.words import card_name
from tests.notify.helpers import AFTERNOON, sent_to
from tests.online.helpers import arranged_state, seat_of, set_state, started_game

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
    # Boards are cached per game version, which this change behind the services' back
    # doesn't bump: without this the pages after it would be the ones drawn before.
    cache.clear()


def hand_on(page: str) -> set[str]:
    """The cards a board offers to select: the viewer's own hand."""
    return set(re.findall(r'name="cards" value="([^"]+)"', page))


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
    assert hand_on(page) == {
        str(card) for card in state.hands[game.seats.get(player__user=bob).position]
    }
    assert str(game.seed) not in "".join(after)
    assert "draw_pile" not in page and "hands" not in page


def test_a_seat_not_on_turn_sees_the_same_pages_whatever_the_others_hold(alice, bob, client):
    # The test above watches from the seat on turn: a board drawn from the current
    # player's view instead of the viewer's would pass it. Here the viewer waits.
    game = started_game(alice, bob, bots=1, seed=2**40 + 54321)
    first = services.load_state(game).current_seat
    game = services.perform(game, first, Draw(), expected_move=0)
    alice_seat = seat_of(game, alice)
    assert first != alice_seat
    client.force_login(alice)
    before = [without_csrf(response.content) for response in every_page_of(client, game)]
    for seat in range(3):
        if seat != alice_seat:
            swap_hand_with_draw_pile(game, seat)
    state = services.load_state(Game.objects.get(pk=game.pk))
    after = [without_csrf(response.content) for response in every_page_of(client, game)]
    assert before == after
    assert hand_on(after[0]) == {str(card) for card in state.hands[alice_seat]}


# Outside everyone's quiet hours, so the turn email goes at once.


def names(text: str, card: str) -> bool:
    """Whether `text` names `card`, by its code or by its name ("yellow 6")."""
    return bool(re.search(rf"\b{card}\b", text)) or card_name(card).lower() in text.lower()


@time_machine.travel(AFTERNOON, tick=True)
def test_a_card_drawn_from_the_pile_is_never_named_to_another_seat(
    alice, bob, client, mailoutbox, django_capture_on_commit_callbacks
):
    drawn = "Y6"
    game = started_game(alice, bob)
    # The drawn card is the only one of its kind in sight: in no hand, not the up-card.
    state = arranged_state(
        ["R7 B7 G7 Y3 R3 W B11 G2 S Y9", "R1 R2 R3 R4 G8 B8 Y8 B12 Y12 S"],
        up_card="G9",
        draw_pile=[drawn],
    )
    game = set_state(game, state)
    bob_seat = seat_of(game, bob)
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        game = services.perform(game, bob_seat, Draw(), expected_move=0)
    assert drawn in {str(card) for card in services.load_state(game).hands[bob_seat]}
    seen = [response.content.decode() for response in every_page_of(client, game)]
    with django_capture_on_commit_callbacks(execute=True):
        game = services.perform(game, bob_seat, Discard("R4"), expected_move=1)
    seen += [response.content.decode() for response in every_page_of(client, game)]
    # The move log and the recent turns the boards are drawn from.
    seen.append(json.dumps(list(Move.objects.filter(game=game).values_list("action", flat=True))))
    seen.append(json.dumps(Game.objects.get(pk=game.pk).recent_moves))
    # alice's turn now: her email says what happened since her last turn.
    [email] = sent_to(mailoutbox, alice)
    seen += [email.subject, email.body, *(str(content) for content, _type in email.alternatives)]
    assert "bob drew from the draw pile" in seen[0]
    for text in seen:
        assert not names(text, drawn), text
    # The card is on bob's own board, where this test would see it if it leaked.
    own = Client()
    own.force_login(bob)
    assert names(own.get(game.get_absolute_url()).content.decode(), drawn)


def test_a_stranger_gets_404_on_every_url_of_a_game(alice, bob, stranger, client):
    active = started_game(alice, bob)
    waiting = lobby.create_game(alice, seats=3)
    client.force_login(stranger)
    for game in (active, waiting):
        public_id = game.public_id
        gets = ["online_detail", "online_poll", "online_hint", "online_replay"]
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
            "online_spectators",
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


# --- spectators and replays ------------------------------------------------------------------


def spectator_pages(game: Game) -> list[str]:
    """Every GET a spectator's browser makes (no account: the link is all it has)."""
    token = Game.objects.get(pk=game.pk).spectator_token
    visitor = Client()
    return [
        without_csrf(visitor.get(reverse("games:online_spectate", args=[token])).content),
        without_csrf(
            visitor.get(
                reverse("games:online_spectate_poll", args=[token]) + "?v=0", **HTMX
            ).content
        ),
    ]


def test_a_spectator_sees_the_same_pages_whatever_any_seat_holds(alice, bob):
    from games.online import spectators

    game = started_game(alice, bob, bots=1, seed=2**40 + 777)
    first = services.load_state(game).current_seat
    game = services.perform(game, first, Draw(), expected_move=0)
    spectators.set_link(game, bob, make=True)
    before = spectator_pages(game)
    for seat in range(3):
        swap_hand_with_draw_pile(game, seat)
    after = spectator_pages(game)
    assert before == after
    assert 'name="cards"' not in after[0]
    assert str(game.seed) not in "".join(after)


@time_machine.travel(AFTERNOON, tick=True)
def test_a_card_drawn_from_the_pile_is_never_named_to_a_spectator(alice, bob):
    from games.online import spectators

    drawn = "Y6"
    game = started_game(alice, bob)
    state = arranged_state(
        ["R7 B7 G7 Y3 R3 W B11 G2 S Y9", "R1 R2 R3 R4 G8 B8 Y8 B12 Y12 S"],
        up_card="G9",
        draw_pile=[drawn],
    )
    game = set_state(game, state)
    spectators.set_link(game, alice, make=True)
    bob_seat = seat_of(game, bob)
    game = services.perform(game, bob_seat, Draw(), expected_move=0)
    seen = spectator_pages(game)
    game = services.perform(game, bob_seat, Discard("R4"), expected_move=1)
    seen += spectator_pages(game)
    assert "bob drew from the draw pile" in seen[0]
    for text in seen:
        assert not names(text, drawn), text
    # Nor any card of a hand: Y3 and R1 are only in alice's and bob's hands.
    for text in seen:
        assert not names(text, "Y3") and not names(text, "R1"), text


def test_a_replay_with_hands_is_only_for_players_and_only_after_the_end(alice, bob, stranger):
    from games.online import spectators

    game = started_game(alice, bob, seed=3)
    game = spectators.set_link(game, alice, make=True)
    urls = [
        reverse("games:online_replay", args=[game.public_id]) + "?move=1",
        reverse("games:online_spectate_replay", args=[game.spectator_token]) + "?move=1",
    ]
    player, outsider = Client(), Client()
    player.force_login(alice)
    outsider.force_login(stranger)
    # While the game is on, nobody gets a replay: it shows every hand.
    assert [player.get(url).status_code for url in urls] == [404, 404]
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert [player.get(url).status_code for url in urls] == [200, 200]
    assert outsider.get(urls[0]).status_code == 404
