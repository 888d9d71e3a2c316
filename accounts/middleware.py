from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation


class UserLanguageMiddleware:
    """A logged-in user's chosen language wins over the browser's, unless the
    language selector set a cookie for this browser."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and not request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        ):
            language = getattr(getattr(user, "profile", None), "language", "")
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return self.get_response(request)
