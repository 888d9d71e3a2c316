"""One-click unsubscribe (RFC 8058) and the per-game mute: the signed link opens a
confirmation page, GET changes nothing, POST works without logging in."""

import pytest
from django.urls import reverse

from games.models import Game, Seat
from games.notify.emails import unsubscribe_token
from tests.notify.helpers import game_between

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    return game_between(alice, bob)


def _url(user, game=None):
    return reverse("games:unsubscribe", args=[unsubscribe_token(user, game)])


def _notify(user):
    user.profile.refresh_from_db()
    return user.profile.notify


def test_the_link_opens_a_confirmation_page_and_changes_nothing(client, bob, game):
    response = client.get(_url(bob, game))
    assert response.status_code == 200
    assert b"Stop all game emails" in response.content
    assert "Only mute “<bdi>Friday game</bdi>”".encode() in response.content
    assert _notify(bob) == "turn"
    assert not Seat.objects.get(game=game, player__user=bob).muted


def test_a_mail_clients_one_click_post_turns_game_emails_off_without_a_login(client, bob, game):
    # RFC 8058: the client POSTs "List-Unsubscribe=One-Click", with no session and no
    # CSRF token.
    client.handler.enforce_csrf_checks = True
    response = client.post(_url(bob, game), {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert _notify(bob) == "off"


def test_the_page_can_mute_only_the_game_the_email_was_about(client, bob, game):
    response = client.post(_url(bob, game), {"scope": "game"})
    assert response.status_code == 200
    assert b"any more emails about" in response.content
    assert Seat.objects.get(game=game, player__user=bob).muted
    assert _notify(bob) == "turn"


def test_muting_the_game_from_the_email_shows_on_its_page_at_once(client, bob, game):
    # The page keeps the seats under the game's version: the mute moves it on.
    client.force_login(bob)
    assert "Mute this game's emails" in client.get(game.get_absolute_url()).content.decode()
    version = Game.objects.get(pk=game.pk).version
    client.post(_url(bob, game), {"scope": "game"})
    assert Game.objects.get(pk=game.pk).version == version + 1
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Email me about this game again" in page


def test_a_tampered_token_is_refused(client, bob, alice, game):
    token = unsubscribe_token(bob, game)
    forged = token.replace(token.split(":")[0], unsubscribe_token(alice).split(":")[0], 1)
    for bad in (forged, token[:-2] + ("AA" if not token.endswith("AA") else "BB"), "nonsense"):
        url = reverse("games:unsubscribe", args=[bad])
        assert client.get(url).status_code == 400
        assert client.post(url).status_code == 400
    assert _notify(bob) == "turn" and _notify(alice) == "turn"


def test_a_token_from_another_signing_purpose_is_refused(client, bob):
    from accounts.emails import verification_token

    url = reverse("games:unsubscribe", args=[verification_token(bob)])
    assert client.post(url).status_code == 400
    assert _notify(bob) == "turn"


def test_a_token_without_a_game_offers_only_stopping_everything(client, bob):
    response = client.get(_url(bob))
    assert b"Only mute" not in response.content
    # A hand-made "mute this game" post without a game changes nothing...
    assert client.post(_url(bob), {"scope": "game"}).status_code == 400
    assert _notify(bob) == "turn"
    # ...the page's own button stops everything.
    client.post(_url(bob), {"scope": "all"})
    assert _notify(bob) == "off"


def test_muting_a_game_the_player_has_left_since_changes_nothing(client, alice, bob, carol):
    from games.models import Game
    from games.online import lobby

    game = lobby.create_game(alice, name="Friday game", seats=3, invite=[bob, carol])
    lobby.accept_invitation(game, bob)
    lobby.accept_invitation(game, carol)
    assert game.status == Game.Status.LOBBY
    url = _url(bob, game)
    assert b"Only mute" in client.get(url).content
    lobby.leave(game, bob)
    response = client.post(url, {"scope": "game"})
    assert response.status_code == 400
    assert _notify(bob) == "turn"


def test_a_seated_player_mutes_and_unmutes_a_game_from_its_page(client, bob, game):
    client.force_login(bob)
    url = reverse("games:online_mute", args=[game.public_id])
    response = client.post(url)
    assert response.status_code == 302 and response.url == game.get_absolute_url()
    assert Seat.objects.get(game=game, player__user=bob).muted
    client.post(url)
    assert not Seat.objects.get(game=game, player__user=bob).muted
    client.post(url, {"muted": "on"})
    client.post(url, {"muted": "on"})
    assert Seat.objects.get(game=game, player__user=bob).muted


def test_muting_needs_a_post_a_login_and_a_seat(client, stranger, bob, game):
    url = reverse("games:online_mute", args=[game.public_id])
    assert client.post(url).status_code == 302  # to the login page
    client.force_login(bob)
    assert client.get(url).status_code == 405
    client.force_login(stranger)
    assert client.post(url).status_code == 404


def test_the_game_page_offers_the_mute_button_and_it_toggles(client, bob, game):
    client.force_login(bob)
    page = client.get(game.get_absolute_url()).content.decode()
    assert reverse("games:online_mute", args=[game.public_id]) in page
    assert "Mute this game's emails" in page
    client.post(reverse("games:online_mute", args=[game.public_id]), {"muted": "on"})
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Email me about this game again" in page
    client.post(reverse("games:online_mute", args=[game.public_id]), {"muted": ""})
    assert not Seat.objects.get(game=game, player__user=bob).muted
