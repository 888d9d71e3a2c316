import re

import pytest
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_password_reset_emails_a_working_link(
    client, alice, django_capture_on_commit_callbacks, mailoutbox
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1
    message = mailoutbox[0]
    assert message.to == ["alice@example.com"]
    assert message.subject == "Reset your Phase 10 Club password"
    path = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", message.body).group(1)
    form_page = client.get(path, follow=True)
    assert form_page.context["validlink"] is True
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "another-fine-password", "new_password2": "another-fine-password"},
    )
    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("another-fine-password")


def test_the_password_reset_email_is_in_the_accounts_language_and_direction(
    client, alice, django_capture_on_commit_callbacks, mailoutbox
):
    alice.profile.language = "ar"
    alice.profile.save()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("accounts:password_reset"), {"email": "alice@example.com"})
    [message] = mailoutbox
    html, _type = message.alternatives[0]
    assert '<html lang="ar" dir="rtl">' in html
    assert message.subject != "Reset your Phase 10 Club password"  # Arabic, not English


def test_a_password_reset_email_without_a_chosen_language_is_in_the_pages(
    client, alice, django_capture_on_commit_callbacks, mailoutbox
):
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("accounts:password_reset"),
            {"email": "alice@example.com"},
            headers={"accept-language": "fi"},
        )
    [message] = mailoutbox
    html, _type = message.alternatives[0]
    assert '<html lang="fi" dir="ltr">' in html


def test_password_reset_for_an_unknown_address_looks_the_same_and_sends_nothing(
    client, alice, django_capture_on_commit_callbacks, mailoutbox
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("accounts:password_reset"), {"email": "who@example.com"})
    assert response.status_code == 302
    assert response.url == reverse("accounts:password_reset_done")
    assert mailoutbox == []


def test_a_logged_in_user_can_change_their_password(alice_client, alice):
    response = alice_client.post(
        reverse("accounts:password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "brand-new-password-1",
            "new_password2": "brand-new-password-1",
        },
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("brand-new-password-1")
