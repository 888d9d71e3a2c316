"""Plain-text parts and subjects of account emails are text, not HTML: a name with an
apostrophe or an ampersand arrives as typed (the HTML part escapes it)."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from accounts.emails import send_templated

pytestmark = pytest.mark.django_db

NAME = "O'Neil & <Jo>"


@pytest.mark.parametrize(
    ("template", "context"),
    [
        ("verify-email", {"url": "https://example.test/v"}),
        ("password-reset", {"uid": "MQ", "token": "abc-123"}),
        (
            "claim-invite",
            {"scorer": NAME, "guest_name": NAME, "url": "https://example.test/c"},
        ),
    ],
)
def test_names_in_plain_text_parts_are_not_html_escaped(template, context):
    user = get_user_model()(username=NAME, email="o@example.test")
    send_templated(template, user.email, {"user": user, **context})
    (message,) = mail.outbox
    text = message.subject + message.body
    assert NAME in text
    assert "&#x27;" not in text and "&amp;" not in text and "&lt;" not in text
    html, _type = message.alternatives[0]
    assert NAME not in html  # the HTML part still escapes it
