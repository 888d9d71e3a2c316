from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.contrib.auth.models import User as UserModel
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games.words import right_to_left_lines
from phase10site.celery import publish_on_commit

from .models import TIME_ZONES, Profile

User = get_user_model()


def confirmed_elsewhere(email: str, *, but: UserModel | None = None) -> bool:
    """Whether another account has confirmed `email`. Only a confirmed address is
    anyone's: an account that merely typed it in never blocks the address's owner."""
    owners = User.objects.filter(email__iexact=email, profile__email_verified=True)
    if but is not None:
        owners = owners.exclude(pk=but.pk)
    return owners.exists()


KNOWN_TIME_ZONES = frozenset(TIME_ZONES)


def known_time_zone(name: str) -> str | None:
    """`name` if it is a time zone this server knows (an IANA name), else None."""
    name = name.strip()
    return name if name in KNOWN_TIME_ZONES else None


class SignupForm(UserCreationForm[UserModel]):
    email = forms.EmailField(
        label=_("Email"),
        help_text=_("For turn notifications. We send a link to confirm it."),
    )
    # Filled in by static/js/time-zone.js from the browser (Intl.DateTimeFormat). Never
    # an error: without the script, or with a zone we don't know, the account gets UTC.
    time_zone = forms.CharField(
        required=False,
        strip=True,
        widget=forms.HiddenInput(attrs={"data-browser-time-zone": ""}),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_time_zone(self) -> str:
        return known_time_zone(self.cleaned_data.get("time_zone") or "") or "UTC"

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"].strip().lower()
        if confirmed_elsewhere(email):
            raise forms.ValidationError(_("An account with this email already exists."))
        return email


class ProfileForm(forms.ModelForm):  # type: ignore[type-arg]  # ModelForm[Profile] fails at run time: Django 6.1 has no ModelForm.__class_getitem__
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=[(tz, tz) for tz in TIME_ZONES])

    class Meta:
        model = Profile
        fields = ("language", "time_zone", "avatar_colour")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        language = self.fields["language"]
        # A model field with choices makes a TypedChoiceField. Django normalises its
        # choices to (value, label) pairs; the stubs type the getter as any accepted input.
        assert isinstance(language, forms.ChoiceField)
        choices = cast("Iterable[tuple[str, str]]", language.choices)
        language.choices = [
            ("", _("The browser's language")),
            *[(code, name) for code, name in choices if code],
        ]


class QueuedPasswordResetForm(PasswordResetForm):
    """Renders the reset email in the request but sends it from a Celery worker,
    so a slow SMTP server never holds up the page. The answer is the same whether
    or not the address has an account (no enumeration)."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        from .tasks import send_rendered_email

        # In the account's own language when it chose one, else the page's: the person
        # who asked is most likely the one reading it.
        profile = getattr(context.get("user"), "profile", None)
        language = getattr(profile, "language", "") or translation.get_language()
        with translation.override(language):
            subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
            body = right_to_left_lines(loader.render_to_string(email_template_name, context))
            html = (
                loader.render_to_string(html_email_template_name, context)
                if html_email_template_name
                else None
            )
        publish_on_commit(send_rendered_email, subject, body, html, from_email, [to_email])


class IdentityForm(forms.Form):
    """The name other players see (the user's Player) and the email address."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        help_text=_("What other players see at the table and in the stats."),
    )
    email = forms.EmailField(
        label=_("Email"), help_text=_("Changing it sends a new confirmation link.")
    )

    def __init__(self, *args: Any, user: UserModel, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_display_name(self) -> str:
        name = " ".join(self.cleaned_data["display_name"].split())
        if not name:
            raise forms.ValidationError(_("Enter a name."))
        return name

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"].strip().lower()
        if confirmed_elsewhere(email, but=self.user):
            raise forms.ValidationError(_("An account with this email already exists."))
        return email


class NotificationForm(forms.ModelForm):  # type: ignore[type-arg]  # ModelForm[Profile] fails at run time: Django 6.1 has no ModelForm.__class_getitem__
    class Meta:
        model = Profile
        fields = ("notify", "reminder_hours", "digest_hour", "quiet_hours")


class InviteForm(forms.Form):
    who = forms.CharField(
        label=_("Their username or email address"),
        max_length=254,
        help_text=_("When they accept, this guest's games become theirs."),
    )


class BrowserTimeZoneForm(forms.Form):
    """The account page's offer to take the browser's time zone (static/js/time-zone.js)."""

    time_zone = forms.CharField(widget=forms.HiddenInput)

    def clean_time_zone(self) -> str:
        zone = known_time_zone(self.cleaned_data["time_zone"])
        if zone is None:
            raise forms.ValidationError(_("That time zone isn't one we know."))
        return zone


class DeleteAccountForm(forms.Form):
    """Deleting an account asks for the password: a borrowed phone with a logged-in
    session is not enough."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: UserModel, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That isn't your password."))
        return password


class AwayForm(forms.Form):
    """Away mode's last day (accounts/away.py checks it against the days left)."""

    until = forms.DateField(
        label=_("Away until (your last day away)"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=_(
            "Your turn clocks stop, reminders and the time limit wait, and others see "
            "that you are away. At most 30 days a calendar year."
        ),
    )
