"""The hands shown at a round's end, a finished game's replay and the spectator link."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.engine import RoundOver, Rules, hand_points, parse_cards
from games.models import Game, RoundScore
from games.online import replay, spectators
from tests.online.helpers import play_on, started_game
from tests.saved_rows import save_each, save_personas

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _play_after_a_round():
    alice, bob = (User.objects.get(username=name) for name in ("alice", "bob"))
    return play_on(started_game(alice, bob, bots=1, seed=11), rounds=1).pk


def _play_finished():
    alice, bob = (User.objects.get(username=name) for name in ("alice", "bob"))
    return play_on(started_game(alice, bob, bots=1, seed=5, rules=Rules(phases=(1, 2)))).pk


def _play_long_finished():
    alice, bob, carol = (User.objects.get(username=name) for name in ("alice", "bob", "carol"))
    game = started_game(alice, bob, carol, bots=1, seed=9, rules=Rules(phases=(1, 2, 3, 4)))
    return play_on(game).pk


@pytest.fixture(scope="module")
def _saved(django_db_setup, django_db_blocker):
    """The games are played once for this module; each test that asks for one gets its
    rows, a copy of its own (tests/saved_rows.py), beside the personas it was played by."""
    people = save_personas(django_db_blocker)
    builds = {
        "after_a_round": _play_after_a_round,
        "finished": _play_finished,
        "long_finished": _play_long_finished,
    }
    return people, save_each(django_db_blocker, builds, on=people)


@pytest.fixture
def _people(db, _saved):
    _saved[0].write()


@pytest.fixture
def alice(_people):
    return User.objects.get(username="alice")


@pytest.fixture
def bob(_people):
    return User.objects.get(username="bob")


@pytest.fixture
def carol(_people):
    return User.objects.get(username="carol")


@pytest.fixture
def stranger(_people):
    return User.objects.get(username="stranger")


@pytest.fixture
def after_a_round(_people, _saved):
    """alice and bob, a bot: the first round is over, the second under way."""
    return Game.objects.get(pk=_saved[1]["after_a_round"].write())


@pytest.fixture
def finished(_people, _saved):
    """alice, bob and a bot played a short game (phases 1 and 2) to its end."""
    game = Game.objects.get(pk=_saved[1]["finished"].write())
    assert game.status == Game.Status.FINISHED
    return game


def client_of(user):
    client = Client()
    client.force_login(user)
    return client


def make_link(game, user):
    return spectators.set_link(game, user, make=True).spectator_token


# --- the round's end --------------------------------------------------------------------------


def test_each_round_row_keeps_the_cards_left_worth_its_points(after_a_round):
    rows = list(RoundScore.objects.filter(game=after_a_round, round_number=1))
    assert len(rows) == 3
    for row in rows:
        assert row.points == (0 if row.went_out else hand_points(parse_cards(row.cards_left)))
    assert any(row.cards_left for row in rows)
    reveal = after_a_round.round_reveal
    assert reveal["round"] == 1
    by_position = {row.seat.position: row.cards_left for row in rows}
    assert reveal["hands"] == [by_position[position] for position in range(3)]


def test_the_board_shows_every_hand_left_at_the_rounds_end(after_a_round, alice):
    page = client_of(alice).get(after_a_round.get_absolute_url()).content.decode()
    assert "Round 1 results" in page and "Cards left" in page  # the reveal's label
    start = page.index("Round 1 results")
    section = page[start : page.index("</details>", start)]
    left = [row.cards_left for row in RoundScore.objects.filter(game=after_a_round)]
    assert sum(len(cards) for cards in left) > 0
    for code in {code for cards in left for code in cards}:
        assert f'title="{card_title(code)}"' in section


def worth(code):
    """A card left in hand, in points, as the rules' table gives it (RULES: 1-9 are 5,
    10-12 are 10, a Skip 15, a Wild 25), apart from the engine's own sums."""
    if code in ("W", "S"):
        return {"W": 25, "S": 15}[code]
    return 5 if int(code[1:]) <= 9 else 10


def test_the_reveal_shows_each_hands_points_as_the_rules_count_them(after_a_round, alice):
    rows = RoundScore.objects.filter(game=after_a_round, round_number=1).select_related("seat")
    expected = {row.seat.position: sum(worth(code) for code in row.cards_left) for row in rows}
    assert {row.seat.position: row.points for row in rows} == expected
    assert sorted(expected.values())[-1] > 0
    page = client_of(alice).get(after_a_round.get_absolute_url()).content.decode()
    start = page.index('class="ot-reveal"')
    items = page[start : page.index("</ul>", start)].split("<li>")[1:]
    shown = [item.split("= ")[1].split("</span>")[0] for item in items]
    assert shown == [
        f"{expected[position]} point" + ("" if expected[position] == 1 else "s")
        for position in range(3)
    ]


def card_title(code):
    from games.words import card_name

    return card_name(code)


# --- the replay -------------------------------------------------------------------------------


def test_the_replay_ends_in_the_games_state_and_its_round_ends_are_the_round_rows(finished):
    moves = replay.logged_moves(finished)
    state = replay.first_state(finished)
    reveals = {}
    for outcome in replay.outcomes(state, moves):
        state = outcome.state
        for event in outcome.events:
            if isinstance(event, RoundOver):
                reveals[event.summary.round_number] = [
                    [str(card) for card in hand] for hand in event.hands
                ]
    assert state.to_dict() == Game.objects.get(pk=finished.pk).state
    rows = RoundScore.objects.filter(game=finished).order_by("round_number", "seat__position")
    recorded = {}
    for row in rows:
        recorded.setdefault(row.round_number, []).append(row.cards_left)
    assert reveals == recorded and len(recorded) == finished.rounds_played


def test_a_replay_step_shows_every_hand_of_that_moment(finished, alice):
    moves = replay.logged_moves(finished)
    number = len(moves) // 2
    state = replay.first_state(finished)
    for outcome in replay.outcomes(state, moves[:number]):
        state = outcome.state
    url = reverse("games:online_replay", args=[finished.public_id])
    page = client_of(alice).get(f"{url}?move={number}").content.decode()
    assert f"Move {number} of {len(moves)}" in page
    for hand in state.hands:
        for card in hand:
            assert card_title(str(card)) in page
    assert f'href="{url}?move={number + 1}"' in page and f'href="{url}?move={number - 1}"' in page


def test_the_last_step_of_a_replay_shows_the_final_standings(finished, alice):
    url = reverse("games:online_replay", args=[finished.public_id])
    page = client_of(alice).get(url).content.decode()
    assert "Final standings" in page
    assert "Every round" in page and "Round 1 results" in page


def test_a_replay_step_out_of_range_or_not_a_number_shows_the_nearest_step(finished, alice):
    url = reverse("games:online_replay", args=[finished.public_id])
    client = client_of(alice)
    last = finished.move_number
    assert f"Move {last} of {last}" in client.get(f"{url}?move=99999").content.decode()
    assert f"Move {last} of {last}" in client.get(f"{url}?move=x").content.decode()
    assert "The deal, before move 1" in client.get(f"{url}?move=-4").content.decode()


def test_the_finished_board_links_to_its_replay(finished, alice):
    page = client_of(alice).get(finished.get_absolute_url()).content.decode()
    assert reverse("games:online_replay", args=[finished.public_id]) in page


def test_a_game_in_progress_has_no_replay_for_anyone(after_a_round, alice, stranger):
    url = reverse("games:online_replay", args=[after_a_round.public_id])
    assert client_of(alice).get(url).status_code == 404
    token = make_link(after_a_round, alice)
    assert Client().get(reverse("games:online_spectate_replay", args=[token])).status_code == 404


def test_strangers_get_404_for_a_replay(finished, stranger):
    url = reverse("games:online_replay", args=[finished.public_id])
    assert client_of(stranger).get(url).status_code == 404
    assert Client().get(url).status_code == 302  # logged out: to the login page


def test_the_spectator_link_shows_the_replay_once_the_game_is_over(finished, bob):
    token = make_link(finished, bob)
    response = Client().get(reverse("games:online_spectate_replay", args=[token]))
    assert response.status_code == 200
    assert response["X-Robots-Tag"].startswith("noindex")
    assert "Final standings" in response.content.decode()


# --- spectators -------------------------------------------------------------------------------


def test_a_seated_player_makes_a_spectator_link_anyone_can_watch_with(after_a_round, bob):
    url = reverse("games:online_spectators", args=[after_a_round.public_id])
    response = client_of(bob).post(url, {"do": "make"})
    assert response.status_code == 302
    token = Game.objects.get(pk=after_a_round.pk).spectator_token
    assert len(token) >= 20
    page = Client().get(reverse("games:online_spectate", args=[token]))
    assert page.status_code == 200
    assert page["X-Robots-Tag"].startswith("noindex")
    html = page.content.decode()
    assert '<meta name="robots" content="noindex' in html
    assert "Recent turns" in html and "Round 1 results" in html
    assert 'name="cards"' not in html  # no hand to pick from


def test_the_spectators_board_is_drawn_from_the_spectators_view_with_no_hand(after_a_round, bob):
    from games.engine.view import SPECTATOR

    token = make_link(after_a_round, bob)
    visitor = Client()
    for response in (
        visitor.get(reverse("games:online_spectate", args=[token])),
        visitor.get(reverse("games:online_spectate_poll", args=[token]) + "?v=0", **HTMX),
    ):
        view = response.context["view"]
        # Not any seat's view with its hand left unprinted: no seat and no hand at all.
        assert (view.seat, view.hand, view.your_turn) == (SPECTATOR, (), False)
        assert not view.legal.draw
        assert sum(view.hand_counts) > 0  # what everyone sees: how many cards each holds


def test_revoking_the_link_makes_it_404(after_a_round, alice, bob):
    token = make_link(after_a_round, bob)
    url = reverse("games:online_spectators", args=[after_a_round.public_id])
    response = client_of(alice).post(url, {"do": "revoke"}, **HTMX)
    assert (
        response.status_code == 200
        and "The spectator link no longer works." in response.content.decode()
    )
    assert Game.objects.get(pk=after_a_round.pk).spectator_token == ""
    assert Client().get(reverse("games:online_spectate", args=[token])).status_code == 404
    assert Client().get(reverse("games:online_spectate_poll", args=[token])).status_code == 404


def test_a_new_link_replaces_the_old_one(after_a_round, alice):
    old = make_link(after_a_round, alice)
    new = make_link(after_a_round, alice)
    assert new != old
    assert Client().get(reverse("games:online_spectate", args=[old])).status_code == 404
    assert Client().get(reverse("games:online_spectate", args=[new])).status_code == 200


def test_a_stranger_can_neither_make_nor_revoke_a_link(after_a_round, stranger):
    url = reverse("games:online_spectators", args=[after_a_round.public_id])
    assert client_of(stranger).post(url, {"do": "make"}).status_code == 404
    assert Game.objects.get(pk=after_a_round.pk).spectator_token == ""


def test_a_bad_link_request_changes_nothing(after_a_round, alice):
    url = reverse("games:online_spectators", args=[after_a_round.public_id])
    response = client_of(alice).post(url, {"do": "explode"}, **HTMX)
    assert "Choose to make or to revoke the spectator link." in response.content.decode()
    assert Game.objects.get(pk=after_a_round.pk).spectator_token == ""


def test_the_spectator_poll_is_204_until_the_game_changes(after_a_round, alice):
    token = make_link(after_a_round, alice)
    game = Game.objects.get(pk=after_a_round.pk)
    url = reverse("games:online_spectate_poll", args=[token])
    assert Client().get(f"{url}?v={game.version}", **HTMX).status_code == 204
    game = play_on(game, rounds=2)
    response = Client().get(f"{url}?v={after_a_round.version}", **HTMX)
    assert response.status_code == 200
    assert f"?v={game.version}" in response.content.decode()
    assert "<html" not in response.content.decode()


def test_an_empty_or_made_up_token_is_404(after_a_round):
    for token in ("", "made-up-token"):
        path = f"/watch/{token}/" if token else "/watch//"
        assert Client().get(path).status_code == 404


# --- query counts -----------------------------------------------------------------------------

SPECTATE_QUERIES = 2  # the game by its token, its seats
POLL_QUERIES = 1  # the version
REPLAY_QUERIES = 8  # session, user, game, seats, move log, chat, round rows (+1 spare)


@pytest.fixture
def long_finished(_people, _saved):
    """Four seats and four phases: several times the moves of `finished`."""
    return Game.objects.get(pk=_saved[1]["long_finished"].write())


def count_queries(call):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        response = call()
    assert response.status_code in (200, 204)
    return len(queries)


def test_the_spectator_page_and_poll_cost_the_same_at_any_size(
    after_a_round, long_finished, alice, django_assert_max_num_queries
):
    counts = []
    for game in (after_a_round, long_finished):
        token = make_link(game, alice)
        game.refresh_from_db()
        visitor = Client()
        page = reverse("games:online_spectate", args=[token])
        poll = reverse("games:online_spectate_poll", args=[token])
        unchanged = f"{poll}?v={game.version}"
        with django_assert_max_num_queries(SPECTATE_QUERIES):
            counts.append(count_queries(lambda c=visitor, url=page: c.get(url)))
        with django_assert_max_num_queries(POLL_QUERIES):
            counts.append(count_queries(lambda c=visitor, url=unchanged: c.get(url)))
        with django_assert_max_num_queries(SPECTATE_QUERIES + POLL_QUERIES):
            counts.append(count_queries(lambda c=visitor, url=poll: c.get(f"{url}?v=0", **HTMX)))
    assert counts[:3] == counts[3:]


def test_a_replay_step_costs_the_same_at_any_size(
    finished, long_finished, alice, django_assert_max_num_queries
):
    assert long_finished.move_number > finished.move_number + 50
    client = client_of(alice)
    client.get(reverse("home"))  # the header's count, kept a few seconds, counted here
    counts = []
    for game in (finished, long_finished):
        url = reverse("games:online_replay", args=[game.public_id])
        for number in (0, game.move_number // 2, game.move_number):
            with django_assert_max_num_queries(REPLAY_QUERIES):
                counts.append(
                    count_queries(lambda url=url, n=number: client.get(f"{url}?move={n}"))
                )
    assert len(set(counts)) == 1


def test_the_replay_shows_the_chat_after_the_move_it_followed(finished, alice, bob):
    from games.models import ChatMessage

    seat = finished.seats.get(player__user=bob)
    ChatMessage.objects.create(game=finished, seat=seat, move_number=3, text="nice skip, alice")
    url = reverse("games:online_replay", args=[finished.public_id])
    client = client_of(alice)
    assert "nice skip, alice" not in client.get(f"{url}?move=2").content.decode()
    page = client.get(f"{url}?move=4").content.decode()
    log = page[page.index("Moves so far") :]
    said = log.index("nice skip, alice")
    # Newest first: move 4's line, then what was said after move 3, then move 3's line.
    assert log.index('data-move="4"') < said < log.rindex('data-move="3"')


def test_a_spectator_reads_no_chat_in_the_replay_even_once_the_game_is_over(finished, alice, bob):
    from games.models import ChatMessage

    seat = finished.seats.get(player__user=bob)
    ChatMessage.objects.create(game=finished, seat=seat, move_number=0, text="good luck, alice")
    ChatMessage.objects.create(game=finished, seat=seat, move_number=3, text="nice skip, alice")
    token = make_link(finished, alice)
    url = reverse("games:online_spectate_replay", args=[token])
    players = reverse("games:online_replay", args=[finished.public_id])
    for number in (0, 4, finished.move_number):
        page = Client().get(f"{url}?move={number}").content.decode()
        assert "Moves so far" in page
        assert "alice" in page  # the moves are there, the chat isn't
        assert "good luck" not in page and "nice skip" not in page
        assert 'class="chat"' not in page
    assert "nice skip, alice" in client_of(alice).get(f"{players}?move=4").content.decode()


def test_the_replay_leaves_out_the_messages_of_a_player_its_reader_muted(finished, alice, bob):
    from games.models import ChatMessage

    seat = finished.seats.get(player__user=bob)
    ChatMessage.objects.create(game=finished, seat=seat, move_number=3, text="nice skip, alice")
    finished.seats.filter(player__user=alice).update(chat_muted=[seat.position])
    url = reverse("games:online_replay", args=[finished.public_id])
    assert "nice skip, alice" not in client_of(alice).get(f"{url}?move=4").content.decode()
    assert "nice skip, alice" in client_of(bob).get(f"{url}?move=4").content.decode()


def test_a_message_the_creator_hid_shows_as_hidden_in_the_replay(finished, alice, bob):
    from django.utils import timezone

    from games.models import ChatMessage

    seat = finished.seats.get(player__user=bob)
    ChatMessage.objects.create(
        game=finished, seat=seat, move_number=3, text="something rude", hidden_at=timezone.now()
    )
    url = reverse("games:online_replay", args=[finished.public_id])
    page = client_of(alice).get(f"{url}?move=4").content.decode()
    assert "(message hidden)" in page and "something rude" not in page


def test_the_spectators_replay_leads_back_to_the_spectator_board(finished, alice):
    token = make_link(finished, alice)
    page = Client().get(reverse("games:online_spectate_replay", args=[token])).content.decode()
    assert f'href="{reverse("games:online_spectate", args=[token])}" id="replay-game"' in page
    assert finished.public_id not in page
