from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.contrib.auth.models import User as UserModel
from django.template import loader
from django.utils.translation import gettext_lazy as _

from phase10site.celery import publish_on_commit

from .models import TIME_ZONES, Profile

User = get_user_model()


class SignupForm(UserCreationForm[UserModel]):
    email = forms.EmailField(
        label=_("Email"),
        help_text=_("For turn notifications. We send a link to confirm it."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
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

        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
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
        if User.objects.filter(email__iexact=email).exclude(pk=self.user.pk).exists():
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
