import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _signup(client, django_capture_on_commit_callbacks, **overrides):
    data = {
        "username": "dana",
        "email": "dana@example.com",
        "password1": "a-long-enough-password",
        "password2": "a-long-enough-password",
        **overrides,
    }
    with django_capture_on_commit_callbacks(execute=True):
        return client.post(reverse("accounts:signup"), data)


def test_signing_up_creates_an_unverified_account_and_logs_in(
    client, django_capture_on_commit_callbacks
):
    response = _signup(client, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    user = get_user_model().objects.get(username="dana")
    assert user.email == "dana@example.com"
    assert user.profile.email_verified is False
    assert client.get(reverse("home")).context["user"] == user


def test_signing_up_sends_a_confirmation_link_that_verifies_the_address(
    client, django_capture_on_commit_callbacks
):
    _signup(client, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["dana@example.com"]
    assert "Confirm" in message.subject
    url = re.search(r"https?://\S+/accounts/verify/\S+/", message.body).group(0)
    path = url.split("://", 1)[1].split("/", 1)[1]
    response = client.get("/" + path, follow=True)
    assert "is confirmed" in response.content.decode()
    assert get_user_model().objects.get(username="dana").profile.email_verified is True
    # The HTML part carries the same link.
    assert url in message.alternatives[0].content


def test_a_tampered_confirmation_link_is_refused(client, django_capture_on_commit_callbacks):
    _signup(client, django_capture_on_commit_callbacks)
    url = re.search(r"/accounts/verify/(\S+)/", mail.outbox[0].body)
    token = url.group(1)
    forged = token[:-2] + ("aa" if not token.endswith("aa") else "bb")
    response = client.get(reverse("accounts:verify_email", args=[forged]), follow=True)
    assert "not valid" in response.content.decode()
    assert get_user_model().objects.get(username="dana").profile.email_verified is False


def test_a_link_for_an_old_address_does_not_verify_the_new_one(
    client, django_capture_on_commit_callbacks
):
    _signup(client, django_capture_on_commit_callbacks)
    token = re.search(r"/accounts/verify/(\S+)/", mail.outbox[0].body).group(1)
    user = get_user_model().objects.get(username="dana")
    user.email = "new@example.com"
    user.save()
    client.get(reverse("accounts:verify_email", args=[token]))
    user.profile.refresh_from_db()
    assert user.profile.email_verified is False


def test_signup_refuses_a_taken_email(client, alice, django_capture_on_commit_callbacks):
    response = _signup(client, django_capture_on_commit_callbacks, email="ALICE@example.com")
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert not get_user_model().objects.filter(username="dana").exists()


def test_a_user_can_ask_for_a_new_confirmation_link(client, django_capture_on_commit_callbacks):
    _signup(client, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("accounts:resend_verification"))
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["dana@example.com"]


def test_signing_up_works_while_the_broker_is_down(client, django_capture_on_commit_callbacks):
    from phase10site.celery import app

    keys = ("broker_url", "broker_write_url", "task_always_eager")
    saved = {key: app.conf[key] for key in keys}
    # Port 1 on loopback: nothing listens, the connection is refused for real.
    app.conf.update(
        broker_url="redis://127.0.0.1:1/0",
        broker_write_url="redis://127.0.0.1:1/0",
        task_always_eager=False,
    )
    try:
        response = _signup(client, django_capture_on_commit_callbacks)
    finally:
        app.conf.update(saved)
    assert response.status_code == 302  # the account exists; the link can be sent again
    assert get_user_model().objects.filter(username="dana").exists()
    assert mail.outbox == []
