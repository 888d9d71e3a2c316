"""Table talk on an online game: who may read and post, the rate limit, escaping,
muting, the creator hiding a message, the chat in the emails, the poll and query counts."""

import random
import re
from datetime import timedelta
from html import unescape

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from games.models import ChatMessage, Game, Move, Notification
from games.notify import outbox
from games.notify.jobs import send_digests
from games.online import chat, services
from tests.notify.helpers import AFTERNOON
from tests.online.helpers import play_human_turn, started_game
from tests.online.test_queries import count_queries

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(alice, bob):
    """alice created it (seat 0), bob sits in seat 1."""
    return started_game(alice, bob, seed=3)


def chat_url(game, what="chat"):
    return reverse(f"games:online_{what}", args=[game.public_id])


def board(client, game):
    return client.get(reverse("games:online_detail", args=[game.public_id])).content.decode()


def say(client, game, text, **headers):
    return client.post(chat_url(game), {"text": text}, **headers)


def test_a_seated_player_posts_and_the_others_read_it(game, client, alice, bob):
    client.force_login(bob)
    response = say(client, game, "good luck, all")
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url() + "#chat"
    client.force_login(alice)
    assert "good luck, all" in board(client, game)
    message = ChatMessage.objects.get()
    assert (message.seat.position, message.move_number) == (1, game.move_number)


def test_a_stranger_can_neither_post_nor_read(game, client, alice, stranger):
    client.force_login(alice)
    say(client, game, "secret plans")
    client.force_login(stranger)
    assert say(client, game, "hello?").status_code == 404
    assert client.get(reverse("games:online_detail", args=[game.public_id])).status_code == 404
    assert client.get(chat_url(game)).status_code in (404, 405)
    assert ChatMessage.objects.count() == 1


def test_the_chat_of_a_game_in_its_lobby_is_404(alice, bob, client):
    from games.engine import Rules
    from games.online import lobby

    waiting = lobby.create_game(alice, name="Soon", seats=2, rules=Rules(), bots=0, invite=[])
    client.force_login(alice)
    assert say(client, waiting, "anyone?").status_code == 404


def test_a_message_is_escaped(game, client, alice, bob):
    client.force_login(bob)
    say(client, game, "<script>alert(1)</script> & <b>bold</b>")
    client.force_login(alice)
    page = board(client, game)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in page


def test_an_empty_or_too_long_message_is_refused_and_kept_in_the_box(game, client, bob):
    client.force_login(bob)
    response = say(client, game, "   ", **HTMX)
    assert "Write a message first." in response.content.decode()
    long = "x" * 501
    response = say(client, game, long, **HTMX)
    assert "at most 500 characters" in response.content.decode()
    assert ChatMessage.objects.count() == 0
    response = say(client, game, "y" * 500)
    assert ChatMessage.objects.get().text == "y" * 500


@pytest.mark.parametrize("headers", [HTMX, {}])
def test_a_message_with_a_nul_character_is_refused_and_nothing_is_kept(game, client, bob, headers):
    client.force_login(bob)
    version = Game.objects.get(pk=game.pk).version
    response = say(client, game, "hi\x00there", **headers)
    assert response.status_code == 200
    page = response.content.decode()
    assert "A message can't contain a NUL character." in unescape(page)
    assert "hithere" in page  # the rest stays in the box
    assert "\x00" not in page
    assert (ChatMessage.objects.count(), Game.objects.get(pk=game.pk).version) == (0, version)


def test_the_eleventh_message_in_a_minute_is_refused_with_a_clear_message(game, client, bob):
    client.force_login(bob)
    for number in range(10):
        say(client, game, f"message {number}")
    response = say(client, game, "one too many")
    page = response.content.decode()
    assert response.status_code == 200
    assert "10 messages in a minute" in page
    assert "one too many" in page  # kept in the box, to send a moment later
    assert ChatMessage.objects.count() == 10


def test_the_limit_counts_only_the_last_minute(game, bob):
    for number in range(10):
        chat.post(game, bob, f"message {number}")
    ChatMessage.objects.update(created_at=timezone.now() - timedelta(seconds=61))
    assert chat.post(game, bob, "later") is not None


def test_the_limit_is_per_player(game, alice, bob):
    for number in range(10):
        chat.post(game, bob, f"message {number}")
    assert chat.post(game, alice, "my turn to talk") is not None


def test_a_double_click_posts_once(game, client, bob):
    client.force_login(bob)
    say(client, game, "nice skip!", **HTMX)
    response = say(client, game, "nice skip!", **HTMX)
    assert response.status_code == 200
    assert ChatMessage.objects.count() == 1


def test_the_same_words_later_are_a_new_message(game, bob):
    chat.post(game, bob, "again")
    ChatMessage.objects.update(created_at=timezone.now() - timedelta(seconds=6))
    assert chat.post(game, bob, "again") is not None
    assert ChatMessage.objects.count() == 2


def test_a_player_mutes_another_for_themselves_only(game, client, alice, bob, carol):
    three = started_game(alice, bob, carol, seed=4)
    chat.post(three, bob, "bob talks a lot")
    client.force_login(alice)
    # Shown first: the page keeps the seats under the version, which the mute moves on.
    assert "bob talks a lot" in board(client, three)
    response = client.post(chat_url(three, "chat_mute"), {"seat": 1, "muted": "on"})
    assert response.status_code == 302
    assert "bob talks a lot" not in board(client, three)
    assert "Show <bdi>bob</bdi>'s messages again" in board(client, three)
    client.force_login(carol)
    assert "bob talks a lot" in board(client, three)
    client.force_login(alice)
    client.post(chat_url(three, "chat_mute"), {"seat": 1, "muted": ""})
    assert "bob talks a lot" in board(client, three)


def test_muting_oneself_or_a_seat_that_is_not_there_changes_nothing(game, client, alice):
    client.force_login(alice)
    for seat in (0, 7, "x"):
        response = client.post(chat_url(game, "chat_mute"), {"seat": seat, "muted": "on"})
        assert "There is no such player at this table." in response.content.decode()
    assert game.seats.get(position=0).chat_muted == []


def test_the_creator_hides_a_message_for_everyone_and_it_is_kept(game, client, alice, bob):
    message = chat.post(game, bob, "something rude")
    client.force_login(alice)
    assert f'name="message" value="{message.pk}"' in board(client, game)
    client.post(chat_url(game, "chat_hide"), {"message": message.pk})
    for user in (alice, bob):
        client.force_login(user)
        page = board(client, game)
        assert "something rude" not in page
        assert "<bdi>bob</bdi>: message hidden by the creator" in page
    message.refresh_from_db()
    assert message.text == "something rude" and message.hidden_at is not None


def test_hiding_a_message_after_the_end_leaves_the_others_next_game_tap_working(alice, bob, client):
    from games.engine import Rules
    from games.online import lobby
    from tests.online.helpers import play_on

    game = started_game(alice, bob, bots=1, seed=5, rules=Rules(phases=(1, 2)))
    rude = chat.post(game, bob, "something rude")
    game = play_on(game)
    assert game.status == Game.Status.FINISHED
    client.force_login(bob)
    assert 'id="board-rematch"' in board(client, game)  # bob's finished board, open
    chat.hide(game, alice, rude.pk)
    response = client.post(reverse("games:online_rematch", args=[game.public_id]))
    new = Game.objects.get(status=Game.Status.LOBBY)
    assert response.status_code == 302 and response.url == new.get_absolute_url()
    assert lobby.rematch(game, alice) == new  # the creator's tap: the same next game
    assert ChatMessage.objects.get(pk=rude.pk).hidden_at is not None


def test_only_the_creator_can_hide_a_message(game, client, alice, bob):
    message = chat.post(game, alice, "hi")
    client.force_login(bob)
    assert f'name="message" value="{message.pk}"' not in board(client, game)
    response = client.post(chat_url(game, "chat_hide"), {"message": message.pk})
    # The board escapes with MarkupSafe (&#39;), pages with Django (&#x27;): read the text.
    assert "Only the game's creator can hide a message." in unescape(response.content.decode())
    message.refresh_from_db()
    assert message.hidden_at is None


def test_the_creator_cannot_hide_another_games_message(game, alice, bob, carol):
    other = started_game(bob, carol, seed=5)
    theirs = chat.post(other, carol, "ours")
    with pytest.raises(chat.Refused):
        chat.hide(game, alice, theirs.pk)
    theirs.refresh_from_db()
    assert theirs.hidden_at is None


def test_a_message_goes_between_the_moves_it_came_between(game, client, alice, bob):
    rng = random.Random(1)
    game = play_human_turn(game, rng)  # bob's turn (seat 1 plays first)
    chat.post(game, alice, "between the turns")
    game = play_human_turn(game, rng)  # alice's turn
    client.force_login(alice)
    page = board(client, game)
    log = page.split('class="ot-log"')[1]
    said = log.index("between the turns")
    moves = [int(n) for n in re.findall(r'data-move="(\d+)"', log)]
    posted_at = ChatMessage.objects.get().move_number
    newer = log.index(f'data-move="{posted_at + 1}"')
    older = log.index(f'data-move="{posted_at}"')
    assert newer < said < older  # newest first: the later move above, the earlier below
    assert max(moves) == game.move_number


def test_a_message_never_enters_the_move_log_or_the_engine(game, bob):
    before = (Move.objects.count(), game.move_number, dict(game.state))
    chat.post(game, bob, "just talk")
    game.refresh_from_db()
    assert (Move.objects.count(), game.move_number, game.state) == before


def test_a_message_bumps_the_version_but_a_pending_move_form_stays_good(game, client, bob):
    client.force_login(bob)  # bob plays first: his page shows the draw form at this move
    move = game.move_number
    chat.post(game, bob, "drawing now")
    game.refresh_from_db()
    version = game.version
    response = client.post(
        reverse("games:online_act", args=[game.public_id]), {"move": move, "do": "draw"}, **HTMX
    )
    assert "The game moved on" not in response.content.decode()
    game.refresh_from_db()
    assert game.move_number == move + 1 and game.version == version + 1


def test_the_poll_picks_up_a_message_and_is_cheap_when_nothing_changed(
    game, client, alice, bob, django_assert_max_num_queries
):
    client.force_login(alice)
    client.get(reverse("home"))
    poll = reverse("games:online_poll", args=[game.public_id])
    seen = game.version
    with django_assert_max_num_queries(2):
        assert client.get(f"{poll}?v={seen}", **HTMX).status_code == 204
    chat.post(game, bob, "your move, alice")
    response = client.get(f"{poll}?v={seen}", **HTMX)
    assert response.status_code == 200
    assert "your move, alice" in response.content.decode()
    game.refresh_from_db()
    with django_assert_max_num_queries(2):
        assert client.get(f"{poll}?v={game.version}", **HTMX).status_code == 204


def test_the_board_costs_the_same_with_fifty_messages_as_with_one(game, client, alice, bob):
    client.force_login(alice)
    client.get(reverse("home"))
    counts = []
    for total in (1, 50):
        while ChatMessage.objects.count() < total:
            chat.post(game, bob, f"message {ChatMessage.objects.count()}")
            ChatMessage.objects.update(created_at=timezone.now() - timedelta(minutes=2))
        game.refresh_from_db()
        count, response = count_queries(lambda: board(client, game))
        assert f"message {total - 1}" in response
        counts.append(count)
    assert counts[0] == counts[1]


def test_the_board_shows_the_last_messages_only(game, client, alice, bob):
    for number in range(chat.RECENT_CHAT + 3):
        chat.post(game, bob, f"line {number:02}")
        ChatMessage.objects.update(created_at=timezone.now() - timedelta(minutes=2))
    client.force_login(alice)
    page = board(client, game)
    assert "line 00" not in page and f"line {chat.RECENT_CHAT + 2:02}" in page
    assert ChatMessage.objects.count() == chat.RECENT_CHAT + 3  # the record keeps them all


def test_after_the_end_the_chat_is_readable_but_closed(game, client, alice, bob):
    chat.post(game, bob, "gg in advance")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    with pytest.raises(chat.Refused) as refused:
        chat.post(game, alice, "gg")
    assert refused.value.code == "closed"
    assert not chat.can_post(game, game.seats.get(position=0))


def test_a_resigned_player_reads_but_no_longer_posts(game, bob):
    services.resign(game, bob)
    with pytest.raises(chat.Refused):
        chat.post(game, bob, "still here")


# --- emails -----------------------------------------------------------------------------


@pytest.fixture
def mailed(django_capture_on_commit_callbacks):
    """An afternoon (nobody's quiet hours); `mailed(turn)` plays the turn and sends the
    emails its commit hands over."""

    def play(game, rng):
        with django_capture_on_commit_callbacks(execute=True):
            return play_human_turn(game, rng)

    with time_machine.travel(AFTERNOON, tick=True):
        yield play


def _send_pending():
    for pk in Notification.objects.values_list("pk", flat=True):
        outbox.send(pk)


def test_the_your_turn_email_quotes_the_messages_since_the_last_turn(
    game, alice, bob, carol, mailed
):
    three = started_game(alice, bob, carol, seed=6)
    rng = random.Random(2)
    chat.post(three, carol, "hidden one")
    hidden = ChatMessage.objects.get()
    chat.hide(three, alice, hidden.pk)
    for number in range(3):  # three turns: each one's end emails the next player
        chat.post(three, carol, f"carol says {number}")
        ChatMessage.objects.update(created_at=timezone.now() - timedelta(minutes=2))
        three = mailed(three, rng)
    to_bob = [message.body for message in mail.outbox if message.to == ["bob@example.com"]]
    to_carol = [message.body for message in mail.outbox if message.to == ["carol@example.com"]]
    assert to_bob and to_carol
    assert "At the table:\n  carol: carol says" in to_bob[-1]
    assert not any("carol says" in body for body in to_carol)  # one's own words aren't news
    assert not any("hidden one" in message.body for message in mail.outbox)


def test_the_your_turn_email_leaves_out_a_muted_player(alice, bob, mailed):
    duel = started_game(alice, bob, seed=6)
    seat = duel.seats.get(position=0)
    seat.chat_muted = [1]
    seat.save()
    chat.post(duel, bob, "you can't hear me")
    mailed(duel, random.Random(3))  # bob's turn ends: alice's begins
    (email,) = [message for message in mail.outbox if message.to == ["alice@example.com"]]
    assert "you can't hear me" not in email.body
    assert "you can't hear me" not in email.alternatives[0][0]


def test_the_email_quotes_a_few_messages_at_most(alice, bob, mailed):
    duel = started_game(alice, bob, seed=6)
    for number in range(chat.EMAIL_MESSAGES + 2):
        chat.post(duel, bob, f"chatter {number}")
        ChatMessage.objects.update(created_at=timezone.now() - timedelta(minutes=2))
    mailed(duel, random.Random(3))
    (email,) = [message for message in mail.outbox if message.to == ["alice@example.com"]]
    assert "chatter 0" not in email.body and f"chatter {chat.EMAIL_MESSAGES + 1}" in email.body
    assert "…and 2 more messages" in email.body
    assert "&lt;" not in email.body


def test_the_html_email_escapes_a_message(alice, bob, mailed):
    duel = started_game(alice, bob, seed=6)
    chat.post(duel, bob, "<b>bold</b>")
    mailed(duel, random.Random(3))
    (email,) = [message for message in mail.outbox if message.to == ["alice@example.com"]]
    html = email.alternatives[0][0]
    assert "<b>bold</b>" not in html and "&lt;b&gt;bold&lt;/b&gt;" in html
    assert "<b>bold</b>" in email.body  # the plain text part is plain text


def test_the_daily_digest_quotes_the_chat_of_a_waiting_game(game, alice, bob, mailed):
    profile = bob.profile
    profile.notify = profile.Notify.DIGEST
    profile.digest_hour = timezone.now().hour
    profile.time_zone = "UTC"
    profile.quiet_hours = False
    profile.save()
    chat.post(game, alice, "your turn, bob!")
    assert send_digests() == 1
    _send_pending()
    (email,) = [message for message in mail.outbox if message.to == ["bob@example.com"]]
    assert "alice: your turn, bob!" in email.body
    assert "your turn, bob!" in email.alternatives[0][0]


# --- the record -------------------------------------------------------------------------


def test_the_games_export_carries_its_chat_and_a_hidden_message_only_for_its_writer(
    game, client, alice, bob
):
    chat.post(game, alice, "well played")
    rude = chat.post(game, bob, "something rude")
    chat.hide(game, alice, rude.pk)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    url = reverse("games:export_game_json", args=[game.public_id])
    client.force_login(alice)
    said = client.get(url).json()["chat"]
    assert [(line["name"], line["text"], line["hidden"]) for line in said] == [
        ("alice", "well played", False),
        ("bob", None, True),
    ]
    assert said[0]["after_move"] == game.move_number
    client.force_login(bob)
    assert client.get(url).json()["chat"][1]["text"] == "something rude"


def test_a_message_sent_from_a_page_left_open_after_the_end_says_the_chat_closed(game, client, bob):
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    client.force_login(bob)
    response = say(client, game, "gg", **HTMX)
    page = response.content.decode()
    assert 'id="chat-error"' in page and "The chat closed when the game ended." in page
    assert 'name="text"' not in page  # no box to type in any more
    assert ChatMessage.objects.count() == 0


def test_bots_never_chat_and_are_not_offered_for_muting(alice, bob, client):
    with_bot = started_game(alice, bob, bots=1, seed=9)
    bot = with_bot.seats.get(is_bot=True)
    client.force_login(alice)
    page = board(client, with_bot)
    assert 'id="chat-mute-1"' in page  # bob
    assert f'id="chat-mute-{bot.position}"' not in page
    with pytest.raises(chat.Refused):
        chat.set_muted(
            with_bot.seats.get(position=0), list(with_bot.seats.all()), bot.position, True
        )


def test_the_link_to_the_chat_counts_the_others_messages_since_your_last_word_or_move(
    game, client, alice, bob
):
    chat.post(game, bob, "hello")
    game.refresh_from_db()
    client.force_login(alice)
    assert "Chat · 1 new" in board(client, game)

    chat.post(game, alice, "hi bob")
    game.refresh_from_db()
    page = board(client, game)
    assert "Chat · " not in page and ">Chat</a>" in page  # she has answered: nothing new

    chat.post(game, bob, "ready?")
    chat.post(game, bob, "your turn")
    game.refresh_from_db()
    assert "Chat · 2 new" in board(client, game)
