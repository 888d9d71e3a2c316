"""The admin, as staff see it: a game's seed and engine snapshot never show while the
game is being played (the seed and the public move log give every hand and the draw
pile), and no admin form can change them."""

import json
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from games.models import Game
from games.online import services
from tests.online.helpers import started_game

pytestmark = pytest.mark.django_db

SEED = 918_273_645_546_372_819


@pytest.fixture
def active(alice, bob):
    return started_game(alice, bob, seed=SEED)


def change_url(game):
    return reverse("admin:games_game_change", args=[game.pk])


class _FormFields(HTMLParser):
    """What a browser would submit for the admin's change form: every named input,
    checked box, selected option and textarea inside `<form id="game_form">` (or the
    form `form_id` names)."""

    def __init__(self, form_id: str = "game_form") -> None:
        super().__init__()
        self.form_id = form_id
        self.data: dict[str, list[str]] = {}
        self._in_form = False
        self._select: str | None = None
        self._textarea: str | None = None

    def _add(self, name: str, value: str) -> None:
        self.data.setdefault(name, []).append(value)

    def handle_starttag(self, tag, attrs):
        attr = {key: value or "" for key, value in attrs}
        if tag == "form" and attr.get("id") == self.form_id:
            self._in_form = True
        if not self._in_form or "name" not in attr and tag != "option":
            return
        if tag == "input":
            kind = attr.get("type", "text")
            if kind in {"submit", "button", "file"}:
                return
            if kind in {"checkbox", "radio"} and "checked" not in attr:
                return
            self._add(attr["name"], attr.get("value", "on" if kind == "checkbox" else ""))
        elif tag == "select":
            self._select = attr["name"]
        elif tag == "option" and self._select and "selected" in attr:
            self._add(self._select, attr.get("value", ""))
        elif tag == "textarea":
            self._textarea = attr["name"]
            self._add(self._textarea, "")

    def handle_data(self, data):
        if self._textarea:
            self.data[self._textarea][-1] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._in_form = False
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def form_data(page: str) -> dict[str, list[str]]:
    parser = _FormFields()
    parser.feed(page)
    return parser.data


def change_form(page: str, form_id: str) -> dict[str, list[str]]:
    """The data a browser would submit from the form `form_id`."""
    parser = _FormFields(form_id)
    parser.feed(page)
    return parser.data


def test_an_active_games_change_page_shows_neither_its_seed_nor_a_hand(admin_client, active):
    page = admin_client.get(change_url(active)).content.decode()
    assert active.name in page  # the page itself is there
    assert str(SEED) not in page
    hand = services.load_state(active).hands[0]
    assert json.dumps([str(card) for card in hand]) not in page
    assert "hands" not in page and "draw_pile" not in page


def test_the_game_list_and_its_search_never_show_or_match_the_seed(admin_client, active):
    listing = reverse("admin:games_game_changelist")
    page = admin_client.get(listing).content.decode()
    assert change_url(active) in page and str(SEED) not in page
    found = admin_client.get(listing, {"q": str(SEED)}).content.decode()
    assert change_url(active) not in found


def test_posting_the_change_form_cannot_change_the_seed_or_the_snapshot(admin_client, active):
    url = change_url(active)
    data = form_data(admin_client.get(url).content.decode())
    data["name"] = ["Renamed by staff"]
    data["seed"] = ["1"]
    data["state"] = ["{}"]
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    saved = Game.objects.get(pk=active.pk)
    assert saved.name == "Renamed by staff"  # the form was accepted…
    assert saved.seed == SEED and saved.state == active.state  # …without those two


def test_an_active_game_cannot_be_marked_finished_from_the_admin(admin_client, active):
    # Otherwise staff could flip the status to see the seed of a game still being played.
    url = change_url(active)
    data = form_data(admin_client.get(url).content.decode())
    data["status"] = [Game.Status.FINISHED]
    assert admin_client.post(url, data).status_code == 302  # saved, but not the status
    assert Game.objects.get(pk=active.pk).status == Game.Status.ACTIVE


def test_a_finished_games_seed_is_shown_read_only(admin_client, active):
    Game.objects.filter(pk=active.pk).update(status=Game.Status.FINISHED)
    page = admin_client.get(change_url(active)).content.decode()
    assert str(SEED) in page
    assert 'name="seed"' not in page and 'name="state"' not in page
