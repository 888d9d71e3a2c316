"""The table page and its actions, through the web layer."""

import html
import re

import pytest
from django.urls import reverse

from games.models import Game, Move, Player
from games.online import services
from tests.online.helpers import arranged_state, play_on, set_state, started_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def act_url(game):
    return reverse("games:online_act", args=[game.public_id])


def table_url(game):
    return reverse("games:online_detail", args=[game.public_id])


@pytest.fixture
def bob_client(client, bob):
    client.force_login(bob)
    return client


def post(client, game, **data):
    data.setdefault("move", Game.objects.get(pk=game.pk).move_number)
    return client.post(act_url(game), data, **HTMX)


def text(response):
    """The page as a reader sees it (entities such as &#x27; decoded)."""
    return html.unescape(response.content.decode())


def test_the_table_shows_my_hand_and_only_counts_of_the_others(duel, bob_client):
    page = text(bob_client.get(table_url(duel)))
    assert 'value="B12"' in page and 'value="Y12"' in page  # bob's own cards
    assert 'value="B11"' not in page  # alice's
    assert "10 cards" in page
    assert "Draw pile: 87 cards" in page
    assert "blue 12" in page  # every card says its colour in words too


def test_drawing_then_discarding_ends_the_turn_and_logs_it(duel, bob_client):
    response = post(bob_client, duel, do="draw")
    assert response.status_code == 200
    assert "Your turn: lay down, hit, or discard" in text(response)
    response = post(bob_client, duel, do="discard", cards="B12")
    page = text(response)
    assert "Waiting for <bdi>alice</bdi>" in page
    assert "bob drew from the draw pile" in page
    assert "bob discarded blue 12" in page
    duel.refresh_from_db()
    assert duel.move_number == 2


def test_in_arabic_the_board_isolates_the_latin_name_it_waits_for(duel, bob_client):
    Player.objects.filter(user__username="alice").update(name="Sara!")
    set_state(duel, services.load_state(duel))  # the state holds the names it was dealt with
    bob_client.post(reverse("set_language"), {"language": "ar", "next": "/"})
    post(bob_client, duel, do="draw")
    page = post(bob_client, duel, do="discard", cards="B12").content.decode()
    assert "بانتظار <bdi>Sara!</bdi>." in page


def test_taking_the_discard_names_the_card_in_the_log(duel, bob_client):
    page = text(post(bob_client, duel, do="take"))
    assert "bob took green 9 from the discard pile" in page


def test_laying_down_selected_cards_arranges_the_groups(duel, bob_client):
    post(bob_client, duel, do="take")  # G9: not needed, but a draw
    # Phase 1: two sets of 3, with one card each way too many selected is refused...
    response = post(bob_client, duel, do="lay", cards=["G8", "B8", "Y8", "R1", "R2"])
    assert "don't make your phase" in text(response)
    assert not Move.objects.filter(game=duel, action__type="lay_down").exists()


def test_a_wild_that_could_go_either_end_of_a_run_is_asked_about(alice, bob, bob_client):
    from games.engine import Rules

    game = started_game(alice, bob, rules=Rules(phases=(2, 4)))
    state = arranged_state(
        ["R7 B7 G7 Y3 R3 W B11 G2 S Y9", "R5 R6 R7 W G8 B8 Y8 B12 Y12 S"],
        up_card="G9",
        rules=Rules(phases=(2, 4)),
    )
    set_state(game, state)
    post(bob_client, game, do="draw")
    cards = ["R5", "R6", "R7", "W", "G8", "B8", "Y8"]
    page = text(post(bob_client, game, do="lay", cards=cards))
    assert "How do you want to lay it down?" in page
    options = re.findall(r'name="groups" value="([^"]+)"', page)
    assert len(options) == 2  # W at 4 or at 8 (the set of 8s doesn't need it)
    assert not Move.objects.filter(game=game, action__type="lay_down").exists()
    page = text(post(bob_client, game, do="lay", groups=options[0], phase="2"))
    assert "bob laid down phase 2" in page
    assert Move.objects.filter(game=game, action__type="lay_down").count() == 1


def test_a_lay_down_with_one_arrangement_happens_at_once(duel, bob_client):
    duel.state["hands"][1] = ["R1", "B1", "Y1", "G8", "B8", "Y8", "B12", "Y12", "S", "R4"]
    duel.save()
    post(bob_client, duel, do="draw")
    page = text(post(bob_client, duel, do="lay", cards=["R1", "B1", "Y1", "G8", "B8", "Y8"]))
    assert "bob laid down phase 1" in page
    state = services.load_state(Game.objects.get(pk=duel.pk))
    assert state.laid_phase[1] == 1


def test_forged_cards_wrong_groups_and_replayed_forms_are_refused(duel, bob_client):
    before = Game.objects.get(pk=duel.pk)
    refused = [
        ({"do": "take"}, None),
        ({"do": "discard", "cards": "R13"}, "That isn't a card."),
        ({"do": "discard", "cards": "<script>"}, "That isn't a card."),
        ({"do": "discard", "cards": "R9"}, "That card isn't in your hand."),
        ({"do": "lay", "groups": "R1 R2 R3|G8 B8", "phase": "1"}, None),
        ({"do": "lay", "groups": "R9 R9 R9|G8 B8 Y8"}, None),
        ({"do": "lay", "groups": "R1 R2 R3|G8 B8 Y8"}, None),
        ({"do": "hit", "cards": "R1", "seat": "0", "group": "0"}, None),
        ({"do": "fly"}, "Choose what to do."),
    ]
    post(bob_client, duel, do="draw")
    for data, message in refused:
        state = Game.objects.get(pk=duel.pk).state
        page = text(post(bob_client, duel, **data))
        assert 'class="message error"' in page, data
        if message:
            assert message in page
        assert Game.objects.get(pk=duel.pk).state == state
    # A replayed form (the move number of before the draw) changes nothing either.
    page = text(bob_client.post(act_url(duel), {"move": before.move_number, "do": "draw"}, **HTMX))
    assert "The game moved on" in page
    assert Move.objects.filter(game=duel).count() == 1


def test_a_player_cannot_act_out_of_turn(duel, alice_client):
    page = text(post(alice_client, duel, do="draw"))
    assert "It isn't your turn." in page
    assert not Move.objects.filter(game=duel).exists()


def test_a_bot_seat_is_not_played_by_its_resigned_owner(duel, bob_client, bob):
    services.resign(duel, bob)
    page = text(post(bob_client, duel, do="draw"))
    assert "A bot plays your seat now." in page
    assert not Move.objects.filter(game=duel).exists()


def test_hitting_asks_for_the_group_when_the_card_fits_two(alice, bob, bob_client):
    game = started_game(alice, bob)
    state = arranged_state(
        ["R7 B7 G7 Y3 R3 W B11 G2 S Y9", "R8 B8 Y8 R4 B4 G4 W B12 Y12 S"],
        up_card="G9",
    )
    set_state(game, state)
    post(bob_client, game, do="draw")
    post(bob_client, game, do="lay", cards=["R8", "B8", "Y8", "R4", "B4", "G4"])
    page = text(post(bob_client, game, do="hit", cards="W"))
    assert "Where does the card go?" in page
    assert page.count('name="do" value="hit"') >= 2 + 1  # two choices + the hand's button
    page = text(post(bob_client, game, do="hit", card="W", seat="1", group="1"))
    assert "bob hit Wild on bob's group" in page


def test_the_table_works_without_javascript(duel, bob_client):
    response = bob_client.post(act_url(duel), {"move": 0, "do": "draw"})
    assert response.status_code == 302 and response["Location"] == table_url(duel)
    response = bob_client.post(act_url(duel), {"move": 1, "do": "discard", "cards": "R13"})
    assert response.status_code == 200
    assert "That isn't a card." in text(response)
    assert "<html" in text(response)


def test_the_hand_sort_is_remembered(duel, bob_client):
    bob_client.post(reverse("games:online_sort", args=[duel.public_id]), {"sort": "colour"})
    page = text(bob_client.get(table_url(duel)))
    codes = re.findall(r'name="cards" value="([^"]+)"', page)
    assert codes == ["R1", "R2", "R3", "R4", "B8", "B12", "G8", "Y8", "Y12", "S"]
    bob_client.post(reverse("games:online_sort", args=[duel.public_id]), {"sort": "number"})
    page = text(bob_client.get(table_url(duel)))
    codes = re.findall(r'name="cards" value="([^"]+)"', page)
    assert codes == ["R1", "R2", "R3", "R4", "B8", "G8", "Y8", "B12", "Y12", "S"]


def test_the_hint_shows_how_to_lay_down(duel, bob_client):
    duel.state["hands"][1] = ["R1", "B1", "Y1", "G8", "B8", "Y8", "B12", "Y12", "S", "R4"]
    duel.save()
    page = text(bob_client.get(reverse("games:online_hint", args=[duel.public_id]), **HTMX))
    assert "You can lay down now" in page
    assert page.count('class="pcard c-') == 6
    client = bob_client
    duel.state["hands"][1] = ["R1", "B2", "Y3", "G4", "G8", "R10", "B12", "Y12", "S", "R5"]
    duel.save()
    page = text(client.get(reverse("games:online_hint", args=[duel.public_id]), **HTMX))
    assert "Not yet" in page


def test_resigning_from_the_table(duel, alice_client):
    response = alice_client.post(reverse("games:online_resign", args=[duel.public_id]))
    assert response.status_code == 302
    page = text(alice_client.get(table_url(duel)))
    assert "A bot plays your seat." in page
    assert "Resign from this game" not in page


def test_resigning_with_htmx_confirms_it_in_the_board(duel, alice_client):
    url = reverse("games:online_resign", args=[duel.public_id])
    response = alice_client.post(url, **HTMX)
    assert response.status_code == 200
    page = text(response)
    assert "You resigned. A bot plays your seat from now on." in page
    assert "Resign from this game" not in page
    # Shown once, in the board: not queued again for the next page.
    assert "You resigned." not in text(alice_client.get(table_url(duel)))


def test_the_round_end_and_the_game_end_are_shown(alice, bob, alice_client):
    from games.engine import Rules

    rules = Rules(phases=(1,))
    game = started_game(alice, bob, rules=rules)
    # bob plays first: lays phase 1, hits his four Wilds and goes out with R12.
    state = arranged_state(
        ["R7 B7 G2 Y3 R3 W B11 G2 S Y9", "R1 B1 Y1 G8 B8 Y8 W W W W"],
        up_card="G9",
        draw_pile=["R12"],
        rules=rules,
    )
    set_state(game, state)
    actions = [
        {"type": "draw"},
        {"type": "lay_down", "groups": [["R1", "B1", "Y1"], ["G8", "B8", "Y8"]]},
        *[{"type": "hit", "seat": 1, "group": n % 2, "card": "W"} for n in range(4)],
        {"type": "discard", "card": "R12"},
    ]
    for action in actions:
        game = services.perform(game, 1, action, expected_move=game.move_number)
    assert game.status == Game.Status.FINISHED
    page = text(alice_client.get(table_url(game)))
    assert "Round 1 results" in page and "went out" in page
    assert "bob discarded red 12 and went out" in page
    assert "Final standings" in page and "Next game" in page
    board_tag = page.split('id="board"')[1].split(">")[0]
    assert "hx-trigger" not in board_tag  # polling stops when the game is over
    assert game.winner.user == bob


def test_the_final_standings_say_who_resigned_and_which_seat_is_a_bot(alice, bob, alice_client):
    from games.engine import Rules

    game = started_game(alice, bob, bots=1, rules=Rules(phases=(1,)), seed=5)
    services.resign(game, bob)
    game = play_on(game)
    page = text(alice_client.get(table_url(game)))
    standings = page.split("Final standings</h2>")[1].split("</ol>")[0]
    lines = {
        name: next(line for line in standings.split("<li") if f"<strong>{name}</strong>" in line)
        for name in ("alice", "bob", game.seats.get(is_bot=True, resigned=False).player.name)
    }
    alice_line, bob_line, bot_line = lines.values()
    assert "resigned" in bob_line and "bot" not in bob_line
    assert "bot" in bot_line and "resigned" not in bot_line
    assert "bot" not in alice_line and "resigned" not in alice_line


def test_a_skip_asks_whom_to_skip_when_the_rules_say_choose(alice, bob, carol, client):
    from games.engine import Rules

    rules = Rules(skip_target="choose")
    game = started_game(alice, bob, carol, rules=rules)
    state = arranged_state(
        [
            "R7 B7 G2 Y3 R3 W B11 G2 S Y9",
            "R1 B1 Y1 G8 B8 Y8 W B12 Y12 S",
            "R4 B4 G4 Y4 R5 B5 G5 Y5 R6 S",
        ],
        up_card="G9",
        rules=rules,
    )
    set_state(game, state)
    client.force_login(bob)
    post(client, game, do="draw")
    page = text(post(client, game, do="discard", cards="S"))
    assert "Who loses a turn?" in page
    assert "Skip <bdi>alice</bdi>" in page and "Skip <bdi>carol</bdi>" in page
    page = text(post(client, game, do="discard", card="S", skip="0"))
    assert "bob discarded a Skip: alice loses a turn" in page
    assert services.load_state(Game.objects.get(pk=game.pk)).current_seat == 2


def test_pick_a_phase_lays_down_the_phase_the_cards_make(alice, bob, bob_client):
    from games.engine import Rules

    rules = Rules(pick_a_phase=True)
    game = started_game(alice, bob, rules=rules)
    state = arranged_state(
        ["R7 B7 G2 Y3 R3 W B11 G2 S Y9", "R8 B8 Y8 G8 R4 B4 G4 Y4 B12 S"], up_card="G9", rules=rules
    )
    set_state(game, state)
    post(bob_client, game, do="draw")
    cards = ["R8", "B8", "Y8", "G8", "R4", "B4", "G4", "Y4"]
    page = text(post(bob_client, game, do="lay", cards=cards))
    # Two sets of 4 make phase 7 (and phase 1, which needs sets of 3): bob chooses.
    assert "How do you want to lay it down?" in page
    assert "Lay down phase 7 like this" in page and "Lay down phase 1 like this" in page
    page = text(post(bob_client, game, do="lay", cards=cards, phase="7"))
    assert "bob laid down phase 7" in page


def test_the_tie_breaker_round_decides_the_game_at_the_first_lay_down(alice, bob, alice_client):
    import dataclasses

    from games.engine import RoundResult, Rules, progress
    from games.models import RoundScore

    rules = Rules(phases=(1,))
    game = started_game(alice, bob, rules=rules)
    # Round 1 ended level: both completed the last phase on 5 points each.
    tied = progress(2, rules, [RoundResult(went_out=None, completed={0: 1, 1: 1}, points=(5, 5))])
    assert tied.tiebreak_needed
    state = arranged_state(
        ["R7 B7 G2 Y3 R3 W B11 G2 S Y9", "R5 B5 G5 Y5 W R9 B9 G9 R1 B2"], up_card="G12", rules=rules
    )
    set_state(game, dataclasses.replace(state, standing=tied))
    for action in (
        {"type": "draw"},
        {"type": "lay_down", "groups": [["R5", "B5", "G5", "Y5", "W"], ["R9", "B9", "G9"]]},
    ):
        game = services.perform(game, 1, action, expected_move=game.move_number)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.tiebreak_winner == 1 and game.winner.user == bob
    assert not RoundScore.objects.filter(game=game).exists()  # like a game night's tie-breaker
    page = text(alice_client.get(table_url(game)))
    assert "<bdi>bob</bdi> wins the game!" in page and "Decided by the tie-breaker round." in page


def test_the_round_results_are_drawn_again_once_the_next_round_ends(alice, bob, alice_client):
    game = play_on(started_game(alice, bob, seed=5), rounds=1)
    page = text(alice_client.get(table_url(game)))
    assert "Round 1 results" in page
    game = play_on(game, rounds=2)
    if game.status != Game.Status.ACTIVE:
        pytest.skip("the game ended in round 2")
    page = text(alice_client.get(table_url(game)))
    assert "Round 2 results" in page and "Round 1 results" not in page
    totals = {seat.player.name: seat.score for seat in game.seats.select_related("player")}
    results = page.split("Round 2 results")[1]
    for name, total in totals.items():
        row = rf'{name}.*?>\+\d+</td><td class="num">{total}</td>'
        assert re.search(row, results, re.S), (name, total)
