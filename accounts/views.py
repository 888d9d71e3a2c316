from __future__ import annotations

import zoneinfo
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.core import signing
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse_lazy
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.models import Game, Player
from games.scoring import bump_games_of
from phase10site.celery import publish_on_commit

from . import away, charts, claims, deletion, emails, export, rating_stats, stats, tasks
from .forms import (
    BrowserTimeZoneForm,
    DeleteAccountForm,
    IdentityForm,
    InviteForm,
    NotificationForm,
    ProfileForm,
    QueuedPasswordResetForm,
    SignupForm,
    confirmed_elsewhere,
)
from .http import AuthenticatedHttpRequest, is_authenticated
from .middleware import forget_profile_language

if TYPE_CHECKING:
    from django.contrib.auth.models import User


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
            % {"name": user.username, "email": user.email},
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
        "initials": initials(player.name),
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
            user.profile.email_verified = False
            user.profile.save(update_fields=["email_verified"])
            user_id = user.pk
            publish_on_commit(tasks.send_verification_email, user_id)
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


# --- players and stats ----------------------------------------------------------


def initials(name: str) -> str:
    """Up to two initials for an avatar.

    >>> initials("ada lovelace"), initials("Bob"), initials("")
    ('AL', 'B', '?')
    """
    letters = [word[0] for word in name.split() if word][:2]
    return "".join(letters).upper() or "?"


def _get_player_for_user(user: User, me: Player, player_id: int) -> Player:
    """A Player whose page `user` may see (stats.visible_players), else 404."""
    return get_object_or_404(
        stats.visible_players(me, user).select_related("user__profile"), pk=player_id
    )


def _links(
    request: HttpRequest, key: str, choices: dict[str, Any], current: str
) -> list[dict[str, Any]]:
    """Links to this page with `key` set to each choice (the other filters kept)."""
    result = []
    for value, label in choices.items():
        query = request.GET.copy()
        query[key] = value
        result.append(
            {"label": label, "url": f"?{query.urlencode()}", "selected": value == current}
        )
    return result


def _filter_links(request: HttpRequest, scope: stats.Scope) -> dict[str, list[dict[str, Any]]]:
    return {
        "mode_links": _links(request, "mode", stats.MODES, scope.mode),
        "period_links": _links(request, "period", stats.PERIODS, scope.period),
        "variant_links": _links(request, "variant", stats.VARIANTS, scope.variant),
    }


def _scope(request: HttpRequest, player: Player) -> stats.Scope:
    get = request.GET.get
    return stats.Scope.parse(player, get("mode"), get("period"), get("variant"))


def _avatar_colour(request: AuthenticatedHttpRequest, player: Player) -> str:
    # Your own Player's user is the request's (already loaded); others come with
    # user__profile from _get_player_for_user. A guest has none (and no query).
    if player.user_id == request.user.pk:
        return request.user.profile.avatar_colour
    user = player.user
    return "" if user is None else user.profile.avatar_colour


def _stats_page(request: AuthenticatedHttpRequest, player: Player, me: Player) -> HttpResponse:
    """One player's stats page (your own, or someone you played with). The number of
    queries doesn't depend on how many games they played."""
    scope = _scope(request, player)
    with timezone.override(_user_time_zone(request.user)):
        return _render_stats(request, scope, player, me)


def _user_time_zone(user: User) -> zoneinfo.ZoneInfo:
    """The viewer's zone from their profile (dates in the charts' text), UTC if unknown."""
    try:
        return zoneinfo.ZoneInfo(user.profile.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _render_stats(
    request: AuthenticatedHttpRequest, scope: stats.Scope, player: Player, me: Player
) -> HttpResponse:
    summary = stats.summary(scope)
    phases = stats.phase_stats(scope)
    rivals = stats.head_to_head(scope)
    recent = stats.recent_seats(scope, viewer=me)
    own = player.pk == me.pk
    name = _("you") if own else player.name
    context: dict[str, Any] = {
        "player": player,
        "own": own,
        "initials": initials(player.name),
        "avatar_colour": _avatar_colour(request, player),
        "scope": scope,
        "summary": summary,
        "win_rate_percent": None if summary.win_rate is None else round(summary.win_rate * 100),
        "phases": phases,
        "nemesis": stats.nemesis(phases),
        "rivals": rivals,
        "most_frequent": rivals[0] if rivals else None,
        "recent": recent,
        "last_game_chart": charts.render(charts.score_chart(recent[0].game)) if recent else "",
        "win_rate_chart": charts.render(
            charts.win_rate_chart(stats.win_rate_over_time(scope, summary.played), name)
        ),
        "phase_chart": charts.render(
            charts.phase_chart(stats.phase_by_round(scope), name, own=own)
        ),
        **_filter_links(request, scope),
    }
    if player.is_guest:
        context["can_invite"] = claims.can_invite(request.user, player)
        context["invite_form"] = InviteForm()
        context["may_request"] = claims.suggested_guests(request.user).filter(pk=player.pk).exists()
    return render(request, "accounts/stats.html", context)


@require_GET
def stats_view(request: HttpRequest) -> HttpResponse:
    """Your own stats; a prompt to log in for visitors."""
    if not is_authenticated(request):
        return render(request, "accounts/stats_login.html")
    me = Player.for_user(request.user)
    return _stats_page(request, me, me)


@login_required
@require_GET
def player_stats(request: AuthenticatedHttpRequest, player_id: int) -> HttpResponse:
    me = Player.for_user(request.user)
    player = _get_player_for_user(request.user, me, player_id)
    if player.pk == me.pk:
        return redirect("accounts:stats")
    return _stats_page(request, player, me)


@login_required
@require_GET
def leaderboard(request: AuthenticatedHttpRequest) -> HttpResponse:
    me = Player.for_user(request.user)
    scope = _scope(request, me)
    sort = "rating" if request.GET.get("sort") == "rating" else "wins"
    context = {
        "me": me,
        "scope": scope,
        "rows": rating_stats.with_ratings(stats.leaderboard(scope), by_rating=sort == "rating"),
        "sort": sort,
        "sort_links": _links(request, "sort", rating_stats.SORTS, sort),
        "min_games": stats.LEADERBOARD_MIN_GAMES,
        "provisional_games": rating_stats.PROVISIONAL_GAMES,
        **_filter_links(request, scope),
    }
    return render(request, "accounts/leaderboard.html", context)


# --- export -------------------------------------------------------------------------


def _get_game_for_user(user: User, public_id: str) -> Game:
    """A finished game the user played in or scored, else 404."""
    return get_object_or_404(
        Game.objects.filter(status=Game.Status.FINISHED)
        .filter(Q(seats__player__user=user) | Q(creator=user) | Q(co_scorers=user))
        .distinct(),
        public_id=public_id,
    )


@login_required
@require_GET
def export_games_csv(request: AuthenticatedHttpRequest) -> StreamingHttpResponse:
    """Every game you played in, one row each, with your result."""
    return export.csv_response(
        "phase10-games.csv", export.games_rows(Player.for_user(request.user))
    )


@login_required
@require_GET
def export_rounds_csv(request: AuthenticatedHttpRequest) -> StreamingHttpResponse:
    """Every round of every game you played in, one row per player per round."""
    return export.csv_response(
        "phase10-rounds.csv", export.rounds_rows(Player.for_user(request.user))
    )


@login_required
@require_GET
def export_game_json(request: AuthenticatedHttpRequest, public_id: str) -> JsonResponse:
    game = _get_game_for_user(request.user, public_id)
    data = {
        **export.game_dict(game),
        "ratings": export.game_ratings(game),
        "chat": export.game_chat(game, Player.for_user(request.user)),
    }
    response = JsonResponse(data, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="phase10-game-{game.public_id}.json"'
    return response
