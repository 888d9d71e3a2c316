from functools import cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.urls import get_script_prefix, reverse
from django.utils.translation import get_language_info


def site(request: HttpRequest) -> dict[str, Any]:
    return {
        "SITE_URL": settings.SITE_URL,
        "DEBUG": settings.DEBUG,
        "languages": language_names(),
        "nav": nav_urls(get_script_prefix()),
    }


NAV = {
    "home": "home",
    "rules": "rules",
    "nights": "games:night_list",
    "online": "games:online_list",
    "stats": "accounts:stats",
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
