from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.http import HttpRequest, HttpResponse
from django.utils import translation

SESSION_LANGUAGE = "profile_language"


class UserLanguageMiddleware:
    """A logged-in user's chosen language wins over the browser's, unless the
    language selector set a cookie for this browser.

    The language is kept in the session, so this costs no query beyond loading
    the session: polls that answer 204 stay at their query budget."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            not request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
            and SESSION_KEY in request.session
        ):
            language = request.session.get(SESSION_LANGUAGE)
            if language is None:
                profile = getattr(request.user, "profile", None)
                language = getattr(profile, "language", "") or ""
                request.session[SESSION_LANGUAGE] = language
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)


def forget_profile_language(request: HttpRequest) -> None:
    """Call after the user changes their language so the next request reads it again."""
    request.session.pop(SESSION_LANGUAGE, None)
