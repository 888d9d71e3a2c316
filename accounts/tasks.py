from celery import shared_task
from django.contrib.auth import get_user_model
from django.core.mail import EmailMultiAlternatives

from . import emails


@shared_task(autoretry_for=(OSError,), retry_backoff=30, max_retries=5)
def send_verification_email(user_id: int) -> None:
    user = get_user_model().objects.select_related("profile").filter(pk=user_id).first()
    if user is not None and user.email and not user.profile.email_verified:
        emails.send_verification_email(user)


@shared_task(autoretry_for=(OSError,), retry_backoff=30, max_retries=5)
def send_rendered_email(
    subject: str, text: str, html: str | None, from_email: str, to: list[str]
) -> None:
    """Send an email rendered in the request (e.g. password reset) outside of it."""
    message = EmailMultiAlternatives(subject, text, from_email, to)
    if html:
        message.attach_alternative(html, "text/html")
    message.send()


@shared_task(autoretry_for=(OSError,), retry_backoff=30, max_retries=5)
def send_claim_invitation(claim_id: int) -> None:
    from .models import GuestClaim

    claim = (
        GuestClaim.objects.select_related("user__profile", "created_by")
        .filter(pk=claim_id, status=GuestClaim.Status.PENDING)
        .first()
    )
    if claim is not None and (claim.email or (claim.user and claim.user.email)):
        emails.send_claim_invitation(claim)
