"""Request types for annotations: type checkers read them, no request is ever made one."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeIs, overload

from django.http import HttpRequest

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django_htmx.middleware import HtmxDetails


class AuthenticatedHttpRequest(HttpRequest):
    """The request a `@login_required` view gets: its user is a logged-in User,
    never AnonymousUser. Annotate such views' `request` with it."""

    user: User


class HtmxHttpRequest(HttpRequest):
    """A request that went through django-htmx's `HtmxMiddleware` (every request does,
    see MIDDLEWARE): it has `request.htmx`. Annotate views that read it with this."""

    htmx: HtmxDetails


class AuthenticatedHtmxHttpRequest(AuthenticatedHttpRequest, HtmxHttpRequest):
    """Both at once: a `@login_required` view that reads `request.htmx`."""


@overload
def is_authenticated(request: HtmxHttpRequest) -> TypeIs[AuthenticatedHtmxHttpRequest]: ...
@overload
def is_authenticated(request: HttpRequest) -> TypeIs[AuthenticatedHttpRequest]: ...
def is_authenticated(request: HttpRequest) -> bool:
    """`request.user.is_authenticated`, for a view that serves both visitors and
    users: past it, type checkers know the request's user is a User (and an
    HtmxHttpRequest stays one)."""
    return request.user.is_authenticated
