"""base.html's header, menu and footer: what is the request's or the user's own is their
own on every page."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import context_processors

HOME = "/"
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
HEADER_TOKEN = re.compile(r'"X-CSRFToken": "([^"]+)"')


def _page(client: Client, url: str = HOME, language: str = "en") -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def bob_client(bob):
    client = Client()
    client.force_login(bob)
    return client


def test_each_member_sees_their_own_name_in_the_menu(alice_client, bob_client):
    alice_page, bob_page = _page(alice_client), _page(bob_client)

    assert "Account (alice)" in alice_page and "Account (bob)" not in alice_page
    assert "Account (bob)" in bob_page and "Account (alice)" not in bob_page


def test_a_visitor_gets_the_log_in_links_after_a_member_got_the_log_out_form(alice_client):
    member = _page(alice_client)
    visitor = _page(Client())

    assert "Log out" in member and reverse("accounts:login") not in member.split("<main")[0]
    assert "Log out" not in visitor and "Account (" not in visitor
    assert f'href="{reverse("accounts:login")}"' in visitor
    assert f'href="{reverse("accounts:signup")}"' in visitor


def test_every_request_gets_its_own_csrf_tokens(alice_client):
    first, second = _page(alice_client), _page(alice_client)

    assert HEADER_TOKEN.search(first) and TOKEN.findall(first)
    assert HEADER_TOKEN.search(first)[1] != HEADER_TOKEN.search(second)[1]
    assert set(TOKEN.findall(first)).isdisjoint(TOKEN.findall(second))


def test_the_language_form_returns_to_the_page_it_is_on(alice_client):
    rules = _page(alice_client, reverse("rules"))
    nights = _page(alice_client, reverse("games:night_list"))

    assert f'name="next" type="hidden" value="{reverse("rules")}"' in rules
    assert f'name="next" type="hidden" value="{reverse("games:night_list")}"' in nights


def test_each_language_gets_its_own_header_and_footer(alice_client):
    english = _page(alice_client, language="en")
    finnish = _page(alice_client, language="fi")
    arabic = _page(alice_client, language="ar")

    assert '<html lang="en" dir="ltr">' in english and "Skip to content" in english
    assert '<html lang="fi" dir="ltr">' in finnish and "Skip to content" not in finnish
    assert '<html lang="ar" dir="rtl">' in arabic
    assert '<option value="fi" selected>' in finnish
    assert '<option value="en" selected>' in english and '<option value="fi">' in english


def test_the_your_turn_count_is_each_members_own(alice, alice_client, bob_client, monkeypatch):
    monkeypatch.setattr(
        context_processors, "your_turn_count", lambda user: 3 if user.pk == alice.pk else 0
    )

    alice_page, bob_page = _page(alice_client), _page(bob_client)

    assert alice_page.count('<span class="badge">3</span>') == 1
    assert alice_page.count('">3</span>') == 2  # on a phone's header and in the menu
    assert 'class="badge"' not in bob_page and "turn-count" not in bob_page


def test_a_pages_own_forms_share_a_fresh_csrf_token_and_every_token_on_it_works(alice, bob):
    """The header and the base's forms (log out, language) get one masking of the token
    per response (phase10site.context_processors), a new one for the next response. Parts
    taken from the cache (the board, a night's game, the list of nights) hold the token
    of the request that drew them with the same cookie (games/cache_keys.py): each one
    is accepted by a form."""
    from tests.nights.helpers import post_round, start_night
    from tests.online.helpers import started_game

    checked = Client(enforce_csrf_checks=True)
    checked.force_login(alice)
    scorer = Client()
    scorer.force_login(alice)
    game = started_game(alice, bob)
    night = start_night(scorer)
    post_round(scorer, night, went_out=0, points=[0, 25, 40], completed=[0])
    _page(checked)  # the CSRF cookie, as a browser has it from its first page
    urls = [
        game.get_absolute_url(),
        night.get_absolute_url(),
        reverse("games:night_edit_round", args=[night.public_id, 1]),
        reverse("games:night_list"),
    ]
    sort = reverse("games:online_sort", args=[game.public_id])
    assert checked.post(sort, {"sort": "colour"}).status_code == 403  # the check is on
    for url in urls:
        first, second = _page(checked, url), _page(checked, url)
        own = [HEADER_TOKEN.search(page)[1] for page in (first, second)]
        footers = [page.split('<footer class="site-footer')[1] for page in (first, second)]
        assert [TOKEN.findall(footer) for footer in footers] == [[own[0]], [own[1]]], url
        assert own[0] != own[1], url
        for token in set(TOKEN.findall(first)) | set(TOKEN.findall(second)):
            response = checked.post(sort, {"csrfmiddlewaretoken": token, "sort": "colour"})
            assert response.status_code == 302, url  # a plain form post goes back to the board
    assert checked.session["online_hand_sort"] == "colour"


def test_the_requests_csrf_token_follows_a_login_in_the_same_request(rf, alice):
    """A token kept for the request is for the secret it masks: after `rotate_token` (a
    login) the forms get one for the new secret, which the next request accepts."""
    from django.middleware.csrf import _unmask_cipher_token, rotate_token

    from phase10site.context_processors import request_csrf_token

    request = rf.get("/")
    before = request_csrf_token(request)
    assert request_csrf_token(request) == before  # one masking per request
    rotate_token(request)
    after = request_csrf_token(request)
    assert after != before
    assert _unmask_cipher_token(after) == request.META["CSRF_COOKIE"]
