from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.template import loader
from django.utils.translation import gettext_lazy as _

from phase10site.celery import publish_on_commit

from .models import TIME_ZONES, Profile

User = get_user_model()


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"),
        help_text=_("For turn notifications. We send a link to confirm it."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this email already exists."))
        return email


class ProfileForm(forms.ModelForm):
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=[(tz, tz) for tz in TIME_ZONES])

    class Meta:
        model = Profile
        fields = ("language", "time_zone", "avatar_colour")

    def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [
            ("", _("The browser's language")),
            *[(code, name) for code, name in self.fields["language"].choices if code],
        ]


class QueuedPasswordResetForm(PasswordResetForm):
    """Renders the reset email in the request but sends it from a Celery worker,
    so a slow SMTP server never holds up the page. The answer is the same whether
    or not the address has an account (no enumeration)."""

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ):  # type: ignore[no-untyped-def]
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

    def __init__(self, *args, user, **kwargs):  # type: ignore[no-untyped-def]
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_display_name(self) -> str:
        name = " ".join(self.cleaned_data["display_name"].split())
        if not name:
            raise forms.ValidationError(_("Enter a name."))
        return name

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exclude(pk=self.user.pk).exists():
            raise forms.ValidationError(_("An account with this email already exists."))
        return email


class NotificationForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ("notify", "reminder_hours", "digest_hour", "quiet_hours")


class InviteForm(forms.Form):
    who = forms.CharField(
        label=_("Their username or email address"),
        max_length=254,
        help_text=_("When they accept, this guest's games become theirs."),
    )
