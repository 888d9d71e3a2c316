from celery import shared_task
from django.contrib.auth import get_user_model
from django.core.mail import EmailMultiAlternatives

from . import emails, rating_ledger


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


# --- ratings (accounts/rating_ledger.py) -----------------------------------------------------
# Published by name (`rating_ledger.queue`, `games.scoring.queue_rating`): the services
# that finish or correct a game never import this module.


@shared_task(name="accounts.rate_games", ignore_result=True)
def rate_games(game_id: int | None = None) -> int:
    """Take a finished (or corrected) game into the ratings, and every game finished
    before it that isn't yet. Claims the ratings first: a duplicate rates nothing twice."""
    return rating_ledger.run(game_id)


@shared_task(name="accounts.sweep_ratings", ignore_result=True)
def sweep_ratings() -> int:
    """Beat: games whose task was lost (or never reached the broker), and corrections."""
    return rating_ledger.run(sweep=True)
