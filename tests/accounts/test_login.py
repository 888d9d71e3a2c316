import pytest
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _login(client, username, password):
    return client.post(
        reverse("accounts:login"),
        {"username": username, "password": password},
        REMOTE_ADDR="10.0.0.7",
    )


def test_logging_in_with_the_right_password_works(client, alice):
    response = _login(client, "alice", PASSWORD)
    assert response.status_code == 302
    assert client.get(reverse("home")).context["user"] == alice


def test_a_wrong_password_gets_a_form_error(client, alice):
    response = _login(client, "alice", "nope")
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()


def test_too_many_failures_lock_the_login_with_a_try_again_message(client, alice, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login(client, "alice", "nope").status_code == 200
    locked = _login(client, "alice", "nope")
    assert locked.status_code == 429
    assert "Try again in 15 minutes" in locked.content.decode()
    # Even the right password is refused while locked.
    assert _login(client, "alice", PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_lockout_answer_does_not_reveal_whether_an_account_exists(client, alice, settings):
    answers = {}
    for username in ("alice", "nobody-by-this-name"):
        for _ in range(settings.AXES_FAILURE_LIMIT):
            response = _login(client, username, "nope")
        answers[username] = (
            response.status_code,
            "Try again in 15 minutes" in response.content.decode(),
        )
    assert answers["alice"] == answers["nobody-by-this-name"] == (429, True)


def test_logging_out_needs_a_post(alice_client):
    assert alice_client.get(reverse("accounts:logout")).status_code == 405
    alice_client.post(reverse("accounts:logout"))
    assert not alice_client.get(reverse("home")).context["user"].is_authenticated
