"""base.html draws its header, menu and footer once per language ({% once %},
phase10site/templatetags/once.py): what is the request's or the user's own must still
be their own on every page."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import context_processors
from phase10site.templatetags import once

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


def test_a_change_of_settings_draws_the_blocks_again(alice_client, settings):
    _page(alice_client)
    assert once._drawn

    settings.STATIC_URL = "/elsewhere/"

    assert not once._drawn
    assert 'href="/elsewhere/css/site.css"' in _page(alice_client)


def test_a_page_drawn_without_a_request_is_not_kept_for_the_next_ones(alice_client):
    from django.template.loader import render_to_string

    bare = render_to_string("base.html", {})
    assert 'class="brand" href=""' in bare  # no request: no context processors, no links
    assert not once._drawn

    assert f'class="brand" href="{reverse("home")}"' in _page(alice_client)


def test_a_block_inside_once_is_refused_and_a_page_still_fills_the_blocks_around_them():
    from django.template import Context, Engine, Template, TemplateSyntaxError

    with pytest.raises(TemplateSyntaxError, match="can't be inside"):
        Template("{% load once %}{% once %}{% block title %}{% endblock %}{% endonce %}")

    # base.html's blocks sit between once blocks, which template walks skip: a page's
    # {% extends %} still finds them all.
    engine = Engine(
        libraries={"once": "phase10site.templatetags.once"},
        loaders=[
            (
                "django.template.loaders.locmem.Loader",
                {
                    "root.html": "{% load once %}{% once %}<h1>{% endonce %}"
                    "{% block title %}root{% endblock %}{% once %}</h1>{% endonce %}",
                    "page.html": '{% extends "root.html" %}{% block title %}page{% endblock %}',
                },
            )
        ],
    )
    assert engine.get_template("page.html").render(Context()) == "<h1>page</h1>"


def test_a_page_shows_one_csrf_token_in_all_its_forms_and_a_new_one_each_time(
    alice, bob, alice_client
):
    """The board (kept with a slot), a night's game (kept with a slot), a round's form
    (a Jinja2 partial drawn with the request), the header, the menu's and the footer's
    forms: one masking of the token per response (phase10site.context_processors), a
    new one for the next response, and a form posted with it is accepted."""
    from django.test import Client

    from tests.nights.helpers import post_round, start_night
    from tests.online.helpers import started_game

    game = started_game(alice, bob)
    night = start_night(alice_client)
    post_round(alice_client, night, went_out=0, points=[0, 25, 40], completed=[0])
    pages = {  # url: the forms on it beyond base.html's two (log out, language)
        game.get_absolute_url(): 1,
        night.get_absolute_url(): 2,
        reverse("games:night_edit_round", args=[night.public_id, 1]): 1,
        reverse("games:night_list"): 0,
    }
    for url, own_forms in pages.items():
        first, second = _page(alice_client, url), _page(alice_client, url)
        tokens = set(TOKEN.findall(first)) | {HEADER_TOKEN.search(first)[1]}
        assert len(tokens) == 1 and len(TOKEN.findall(first)) >= 2 + own_forms, url
        assert tokens.isdisjoint(TOKEN.findall(second)), url

    checked = Client(enforce_csrf_checks=True)
    checked.force_login(alice)
    token = TOKEN.search(_page(checked, game.get_absolute_url()))[1]
    sort = reverse("games:online_sort", args=[game.public_id])
    assert checked.post(sort, {"sort": "colour"}).status_code == 403  # the check is on
    response = checked.post(sort, {"csrfmiddlewaretoken": token, "sort": "colour"})
    assert response.status_code == 302  # a plain form post goes back to the board
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
