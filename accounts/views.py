from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.core import signing
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from . import emails, tasks
from .forms import ProfileForm, QueuedPasswordResetForm, SignupForm


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            transaction.on_commit(lambda: tasks.send_verification_email.delay(user.pk))
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            _("Welcome, %(name)s! We sent a link to %(email)s to confirm your address.")
            % {"name": user.username, "email": user.email},
        )
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


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
    if not user.profile.email_verified:
        user.profile.email_verified = True
        user.profile.save(update_fields=["email_verified"])
    messages.success(
        request, _("Thanks! Your email address %(email)s is confirmed.") % {"email": user.email}
    )
    return redirect("home")


@login_required
@require_POST
def resend_verification(request: HttpRequest) -> HttpResponse:
    if request.user.profile.email_verified:
        messages.info(request, _("Your email address is already confirmed."))
    else:
        user_id = request.user.pk
        transaction.on_commit(lambda: tasks.send_verification_email.delay(user_id))
        messages.success(
            request,
            _("We sent a new confirmation link to %(email)s.") % {"email": request.user.email},
        )
    return redirect("accounts:profile")


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user.profile)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your settings are saved."))
        response = redirect("accounts:profile")
        # The profile's language now decides; drop a stale selector cookie.
        if request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME):
            response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
        return response
    return render(request, "accounts/profile.html", {"form": form})


def lockout(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:  # type: ignore[no-untyped-def]
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

    def form_valid(self, form):  # type: ignore[no-untyped-def]
        self.extra_email_context = {"SITE_URL": settings.SITE_URL}
        return super().form_valid(form)


def stats(request: HttpRequest) -> HttpResponse:
    # Placeholder until the stats issue lands.
    return render(request, "coming.html", {"heading": _("Stats")})
