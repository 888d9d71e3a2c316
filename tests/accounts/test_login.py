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


# --- the client's address behind reverse proxies ------------------------------------------

PROXY = "10.0.0.1"
ATTACKER = "203.0.113.66"
VICTIM = "198.51.100.7"


def _login_through(client, username, password, *, forwarded=None, remote=PROXY):
    headers = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    return client.post(
        reverse("accounts:login"),
        {"username": username, "password": password},
        REMOTE_ADDR=remote,
        **headers,
    )


def test_behind_a_proxy_failures_lock_out_only_the_attackers_own_address(client, alice, settings):
    settings.PROXY_COUNT = 1
    # The attacker claims to be the victim; the proxy appends the address it really saw.
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login_through(client, "alice", "nope", forwarded=f"{VICTIM}, {ATTACKER}")
    assert _login_through(client, "alice", PASSWORD, forwarded=ATTACKER).status_code == 429
    # alice, from her own address through the same proxy, is not locked out.
    assert _login_through(client, "alice", PASSWORD, forwarded=VICTIM).status_code == 302


def test_behind_two_proxies_the_address_the_outer_proxy_saw_counts(client, alice, settings):
    settings.PROXY_COUNT = 2
    inner = "10.0.0.2"  # the outer proxy's address, appended by the inner one
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login_through(client, "alice", "nope", forwarded=f"{VICTIM}, {ATTACKER}, {inner}")
    assert (
        _login_through(client, "alice", "nope", forwarded=f"{ATTACKER}, {inner}").status_code == 429
    )
    assert (
        _login_through(client, "alice", PASSWORD, forwarded=f"{VICTIM}, {inner}").status_code == 302
    )


def test_without_a_proxy_a_forwarded_header_is_ignored(client, alice, settings):
    settings.PROXY_COUNT = 0
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login_through(client, "alice", "nope", forwarded=VICTIM, remote=ATTACKER)
    assert _login_through(client, "alice", PASSWORD, remote=ATTACKER).status_code == 429
    assert _login_through(client, "alice", PASSWORD, remote=VICTIM).status_code == 302


@pytest.mark.parametrize("forwarded", ["", "not-an-address", "999.1.1.1", ", ,"])
def test_a_missing_or_malformed_forwarded_address_falls_back_to_the_proxys(
    client, alice, settings, forwarded
):
    settings.PROXY_COUNT = 1
    for _ in range(settings.AXES_FAILURE_LIMIT):
        assert _login_through(client, "alice", "nope", forwarded=forwarded).status_code in (
            200,
            429,
        )
    # Locked under the proxy's own address, never under the text the header carried.
    assert _login_through(client, "alice", PASSWORD).status_code == 429
    assert _login_through(client, "alice", PASSWORD, forwarded=VICTIM).status_code == 302


def test_the_client_address_examples_hold():
    import doctest

    import phase10site.proxies

    result = doctest.testmod(phase10site.proxies)
    assert result.attempted > 0 and result.failed == 0
