from functools import cache
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.urls import get_script_prefix, reverse
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language_info


def site(request: HttpRequest) -> dict[str, Any]:
    return {
        "SITE_URL": settings.SITE_URL,
        "DEBUG": settings.DEBUG,
        "languages": language_names(),
        "nav": nav_urls(get_script_prefix()),
        "static_version": static_version(),
    }


@cache
def static_version() -> str:
    """What base.html's kept links to static files vary on: the hash of the static
    files' manifest (a release with new files has a new one), or "" without a manifest
    (development, tests, the bench), where the names carry no hash."""
    return str(getattr(staticfiles_storage, "manifest_hash", ""))


def csrf(request: HttpRequest) -> dict[str, Any]:
    """Django's own `csrf_token`, masked once per request (`request_csrf_token`) where
    Django's processor masks it anew for every render that asks."""
    return {"csrf_token": SimpleLazyObject(lambda: request_csrf_token(request))}


def request_csrf_token(request: HttpRequest) -> str:
    """The request's CSRF token, one masking for all the forms drawn for the response (a
    part taken from the cache holds the token it was drawn with: games/cache_keys.py).
    Masking (32 random characters) is for each response to differ from the last, which
    it still does; a second masking in the same response adds nothing. Kept
    with the secret it masks: a login in the request (`rotate_token`) gets a new one."""
    secret = request.META.get("CSRF_COOKIE")
    kept: tuple[str, str] | None = getattr(request, "_masked_csrf_token", None)
    if kept is not None and secret is not None and kept[0] == secret:
        return kept[1]
    token = get_token(request)
    setattr(request, "_masked_csrf_token", (request.META["CSRF_COOKIE"], token))  # noqa: B010
    return token


# A form's CSRF field, as {% csrf_token %} writes it, for format_html.
CSRF_FIELD = '<input type="hidden" name="csrfmiddlewaretoken" value="{}">'


def csrf_input(request: HttpRequest) -> SafeString:
    """The CSRF field of a form drawn for this request alone (the page's own token)."""
    return format_html(CSRF_FIELD, request_csrf_token(request))


NAV = {
    "home": "home",
    "rules": "rules",
    "nights": "games:night_list",
    "online": "games:online_list",
    "clubs": "games:club_list",
    "stats": "games:stats",
    "profile": "accounts:profile",
    "login": "accounts:login",
    "signup": "accounts:signup",
    "logout": "accounts:logout",
    "set_language": "set_language",
}


@cache
def nav_urls(prefix: str) -> dict[str, str]:
    """The header's and footer's links. Every page draws them and they never change,
    so they are reversed once (per script prefix), not on each render."""
    return {key: reverse(name) for key, name in NAV.items()}


# Where Django's local name isn't what a speaker calls the language in a list of
# languages: for Slovak it has the adverb "slovensky" ("in Slovak"), not the noun.
LOCAL_NAMES = {"sk": "slovenčina"}


@cache
def language_names() -> tuple[tuple[str, str], ...]:
    """The footer's languages as (code, the language's own name), looked up once."""
    return tuple(
        (code, LOCAL_NAMES.get(code) or str(get_language_info(code)["name_local"]))
        for code, _name in settings.LANGUAGES
    )
