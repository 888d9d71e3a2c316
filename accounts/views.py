from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.core import signing
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from games.models import Player
from games.scoring import bump_games_of
from games.words import isolated
from phase10site.celery import publish_on_commit

from . import away, claims, deletion, emails, tasks, verification
from .forms import (
    BrowserTimeZoneForm,
    DeleteAccountForm,
    IdentityForm,
    NotificationForm,
    ProfileForm,
    QueuedPasswordResetForm,
    SignupForm,
    confirmed_elsewhere,
)
from .http import AuthenticatedHttpRequest
from .middleware import forget_profile_language


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            # What the newcomer's browser said: the language the site speaks to them
            # now (their emails follow the profile) and their time zone (quiet hours).
            profile = user.profile
            profile.language = _language_in_use(request)
            profile.time_zone = form.cleaned_data["time_zone"]
            profile.save(update_fields=["language", "time_zone"])
            publish_on_commit(tasks.send_verification_email, user.pk)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            _("Welcome, %(name)s! We sent a link to %(email)s to confirm your address.")
            % {"name": isolated(user.username), "email": isolated(user.email)},
        )
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


def _language_in_use(request: HttpRequest) -> str:
    """The language this request is answered in (LocaleMiddleware: the selector's cookie,
    else the browser's), if it is one of the site's; else blank (the browser decides)."""
    language = getattr(request, "LANGUAGE_CODE", "") or translation.get_language() or ""
    return language if language in dict(settings.LANGUAGES) else ""


def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """Confirm an address from the signed link. GET is safe here: it only ever
    marks the address in the token as verified, and only if it is still current."""
    User = get_user_model()
    try:
        data = emails.read_verification_token(token)
    except signing.SignatureExpired:
        messages.error(request, _("That link has expired. Log in to get a new one."))
        return redirect("home")
    except signing.BadSignature:
        messages.error(request, _("That link is not valid."))
        return redirect("home")
    user = User.objects.select_related("profile").filter(pk=data["u"]).first()
    if user is None or user.email != data["e"]:
        messages.error(request, _("That link is for an address that has since changed."))
        return redirect("home")
    if not user.profile.email_verified and confirmed_elsewhere(user.email, but=user):
        # The owner of the address confirmed it for their own account first.
        messages.error(
            request,
            _("The address %(email)s is already confirmed for another account.")
            % {"email": user.email},
        )
        return redirect("home")
    if not user.profile.email_verified:
        user.profile.email_verified = True
        user.profile.save(update_fields=["email_verified"])
    messages.success(
        request, _("Thanks! Your email address %(email)s is confirmed.") % {"email": user.email}
    )
    return redirect("home")


@login_required
@require_POST
def resend_verification(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.user.profile.email_verified:
        messages.info(request, _("Your email address is already confirmed."))
    else:
        user_id = request.user.pk
        publish_on_commit(tasks.send_verification_email, user_id)
        messages.success(
            request,
            _("We sent a new confirmation link to %(email)s.") % {"email": request.user.email},
        )
    return redirect("accounts:profile")


def _render_profile(request: AuthenticatedHttpRequest, **forms: Any) -> HttpResponse:
    """The account page: three forms, each posting to its own view."""
    user = request.user
    player = Player.for_user(user)
    context = {
        "player": player,
        "identity_form": forms.get("identity_form")
        or IdentityForm(user=user, initial={"display_name": player.name, "email": user.email}),
        "form": forms.get("form") or ProfileForm(instance=user.profile),
        "notification_form": forms.get("notification_form")
        or NotificationForm(instance=user.profile),
        "open_claims": claims.claims_for(user).count(),
        "away_words": away.status_words(user),
    }
    return render(request, "accounts/profile.html", context)


@login_required
def profile(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _render_profile(request)
    form = ProfileForm(request.POST, instance=request.user.profile)
    if not form.is_valid():
        return _render_profile(request, form=form)
    form.save()
    forget_profile_language(request)
    messages.success(request, _("Your settings are saved."))
    response = redirect("accounts:profile")
    # The profile's language now decides; drop a stale selector cookie.
    if request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME):
        response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
    return response


@login_required
@require_POST
def profile_identity(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Display name (the user's Player) and email. A new address must be confirmed
    again before it gets game emails."""
    user = request.user
    form = IdentityForm(request.POST, user=user)
    if not form.is_valid():
        return _render_profile(request, identity_form=form)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=Player.for_user(user).pk)
        if player.name != form.cleaned_data["display_name"]:
            player.name = form.cleaned_data["display_name"]
            player.save(update_fields=["name"])
            bump_games_of(player)
        new_email = form.cleaned_data["email"]
        if new_email != user.email.lower():
            user.email = new_email
            user.save(update_fields=["email"])
            verification.address_changed(user)
            messages.success(
                request,
                _("We sent a link to %(email)s to confirm your new address.")
                % {"email": new_email},
            )
    messages.success(request, _("Your name and email are saved."))
    return redirect("accounts:profile")


@login_required
@require_POST
def profile_notifications(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = NotificationForm(request.POST, instance=request.user.profile)
    if not form.is_valid():
        return _render_profile(request, notification_form=form)
    form.save()
    messages.success(request, _("Your email preferences are saved."))
    return redirect("accounts:profile")


@login_required
@require_POST
def profile_time_zone(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The account page's offer: use the time zone the browser reports."""
    form = BrowserTimeZoneForm(request.POST)
    if form.is_valid():
        profile = request.user.profile
        profile.time_zone = form.cleaned_data["time_zone"]
        profile.save(update_fields=["time_zone"])
        messages.success(
            request,
            _("Your time zone is now %(zone)s.") % {"zone": profile.time_zone},
        )
    else:
        messages.error(request, _("That time zone isn't one we know."))
    return redirect("accounts:profile")


@login_required
@require_http_methods(["GET", "POST"])
def profile_delete(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Delete your account, after your password (and an offer to download your data)."""
    user = request.user
    form = DeleteAccountForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        deletion.delete_account(user)
        logout(request)
        messages.success(
            request,
            _(
                "Your account was deleted. The games you played with others stay, "
                "under the name “%(name)s”."
            )
            % {"name": deletion.deleted_name()},
        )
        return redirect("home")
    return render(
        request,
        "accounts/delete.html",
        {"form": form, "deleted_name": deletion.deleted_name()},
    )


def lockout(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """Axes calls this when a username+address pair is locked. The message is
    the same whether or not the username exists."""
    minutes = max(1, int(settings.AXES_COOLOFF_TIME.total_seconds() // 60))
    form = AuthenticationForm(request, data=request.POST or None)
    form.is_bound = False
    message = ngettext(
        "Too many failed attempts. Try again in %(minutes)d minute.",
        "Too many failed attempts. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}
    return render(
        request,
        "registration/login.html",
        {"form": form, "lockout_message": message},
        status=429,
    )


class LoginView(auth_views.LoginView):
    redirect_authenticated_user = True


class PasswordResetView(auth_views.PasswordResetView):
    form_class = QueuedPasswordResetForm
    email_template_name = "emails/password-reset-body.txt"
    html_email_template_name = "emails/password-reset-body.html"
    subject_template_name = "emails/password-reset-subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")
    extra_email_context = None

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        self.extra_email_context = {"SITE_URL": settings.SITE_URL}
        return super().form_valid(form)
