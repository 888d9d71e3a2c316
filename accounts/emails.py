"""One small function per kind of email, over templates/emails/<name>-subject|body-text|body-html."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games.words import right_to_left_lines

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from .models import GuestClaim

VERIFY_SALT = "accounts.verify-email"


def send_templated(
    name: str,
    to: str,
    context: dict[str, Any],
    *,
    language: str | None = None,
    headers: dict[str, str] | None = None,
) -> None:
    context = {"SITE_URL": settings.SITE_URL, **context}
    with translation.override(language or translation.get_language()):
        subject = " ".join(render_to_string(f"emails/{name}-subject.txt", context).split())
        text = right_to_left_lines(render_to_string(f"emails/{name}-body.txt", context))
        html = render_to_string(f"emails/{name}-body.html", context)
    message = EmailMultiAlternatives(
        subject, text, settings.DEFAULT_FROM_EMAIL, [to], headers=headers or {}
    )
    message.attach_alternative(html, "text/html")
    message.send()


def verification_token(user: User) -> str:
    # The address is part of the token: changing email invalidates old links.
    return signing.dumps({"u": user.pk, "e": user.email}, salt=VERIFY_SALT)


def read_verification_token(token: str, max_age: int = 7 * 24 * 3600) -> dict[str, Any]:
    data: dict[str, Any] = signing.loads(token, salt=VERIFY_SALT, max_age=max_age)
    return data


def send_verification_email(user: User) -> None:
    url = settings.SITE_URL + reverse("accounts:verify_email", args=[verification_token(user)])
    send_templated(
        "verify-email",
        user.email,
        {"user": user, "url": url},
        language=getattr(getattr(user, "profile", None), "language", None) or None,
    )


def send_claim_invitation(claim: GuestClaim) -> None:
    """The scorer invited someone to take over a guest's games (accounts/claims.py)."""
    user = claim.user
    send_templated(
        "claim-invite",
        user.email if user is not None else claim.email,
        {
            "scorer": claim.created_by.get_username(),
            "guest_name": claim.guest_name,
            "url": settings.SITE_URL + reverse("accounts:claims"),
            "has_account": user is not None,
        },
        language=getattr(getattr(user, "profile", None), "language", None) or None,
    )
