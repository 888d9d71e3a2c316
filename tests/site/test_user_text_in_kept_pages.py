"""What users type reaches pages kept in the cache (games/cache_keys.py) as they typed it:
the markers the pages once replaced per request (`__csrf_token_slot__`,
`__board_time_left__`, `__board_focus__`) and HTML-ish text come back escaped and
unchanged through every such field — a chat message, a username (an online player's
name), an online game's name, a night's name and its guests' names — and the page's
CSRF tokens appear only in its forms and its header."""

import html
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.online import lobby
from tests.nights.helpers import post_round, start_night

pytestmark = pytest.mark.django_db

MARKERS = ("__csrf_token_slot__", "__board_time_left__", "__board_focus__")
TEXTS = (
    *MARKERS,
    "x __csrf_token_slot__ y",
    "<b>bold</b>",
    "{{ csrf_token }}",
    "{% csrf_token %}",
    "Ann & \"Bo\" 'Cy'",
)
FIELD = re.compile(r'<input type="hidden" name="csrfmiddlewaretoken" value="([^"]+)">')
HEADER = re.compile(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')


def browser(user) -> Client:
    """`user` in a browser that has its CSRF cookie from an earlier page."""
    client = Client()
    client.force_login(user)
    client.get("/")
    return client


def assert_shown(page: str, texts: tuple[str, ...], where: str) -> None:
    """Each of `texts` is on `page` as typed, escaped (`<` never raw)."""
    for text in texts:
        assert text in html.unescape(page), (where, text)
        assert "<" not in text or text not in page, (where, text)


def seen(client: Client, url: str, *texts: str) -> str:
    """The page at `url`, asked twice (drawn, then kept): each of `texts` shows on both as
    typed (escaped), and the CSRF tokens only where forms and the header carry them."""
    for _time in ("drawn", "kept"):
        response = client.get(url)
        assert response.status_code == 200, url
        page = response.content.decode()
        assert_shown(page, texts, url)
        tokens = set(FIELD.findall(page)) | set(HEADER.findall(page))
        assert tokens, url
        rest = HEADER.sub("", FIELD.sub("", page))
        assert not any(token in rest for token in tokens), url
        assert 'data-focus=""' in page or "ot-board" not in page
    return page


def test_chat_messages_show_unchanged_on_the_boards(alice, bob):
    game = lobby.create_game(
        alice, name="Chat", seats=2, invite=[bob], time_limit=timedelta(days=1)
    )
    lobby.accept_invitation(game, bob)
    game = lobby.start_game(game, alice, seed=7)
    bob_browser = browser(bob)
    chat = reverse("games:online_chat", args=[game.public_id])
    for text in TEXTS:
        assert bob_browser.post(chat, {"text": text}).status_code == 302
    seen(browser(alice), game.get_absolute_url(), *TEXTS)
    seen(bob_browser, game.get_absolute_url(), *TEXTS)
    poll = reverse("games:online_poll", args=[game.public_id])
    answer = bob_browser.get(poll, headers={"HX-Request": "true"}).content.decode()
    assert_shown(answer, TEXTS, poll)


def test_usernames_and_an_online_games_name_show_unchanged_on_boards_and_my_games(alice):
    players = [
        get_user_model().objects.create_user(username=marker, password="x") for marker in MARKERS
    ]
    name = "x __csrf_token_slot__ y <b>"
    game = lobby.create_game(
        alice, name=name, seats=4, invite=players, time_limit=timedelta(hours=5)
    )
    for user in players:
        lobby.accept_invitation(game, user)
    game = lobby.start_game(game, alice, seed=7)
    for user in (alice, *players):
        client = browser(user)
        seen(client, game.get_absolute_url(), *MARKERS)
        seen(client, reverse("games:online_list"), name, *MARKERS)


def test_night_and_guest_names_show_unchanged_on_every_kept_night_page(alice):
    client = browser(alice)
    guests = ["__csrf_token_slot__", "__board_time_left__", "__board_focus__", "<b>Bo</b>"]
    for name in ("x __csrf_token_slot__ y", "<b>night</b>", "{{ csrf_token }}"):
        night = start_night(client, guests=guests, name=name)
        seen(client, night.get_absolute_url(), name, *guests)
        post_round(client, night, went_out=0, points=[0, 5, 10, 15, 20], completed=[0])
        seen(client, night.get_absolute_url(), *guests)
        seen(client, reverse("games:night_list"), name, *guests)
        share, tv = (
            reverse(view, args=[night.share_token])
            for view in ("games:night_share", "games:night_tv")
        )
        for url in (share, tv):
            assert_shown(Client().get(url).content.decode(), (name, *guests), url)
