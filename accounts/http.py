"""Request types for annotations: type checkers read them, no request is ever made one."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeGuard

from django.http import HttpRequest

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class AuthenticatedHttpRequest(HttpRequest):
    """The request a `@login_required` view gets: its user is a logged-in User,
    never AnonymousUser. Annotate such views' `request` with it."""

    user: User


def is_authenticated(request: HttpRequest) -> TypeGuard[AuthenticatedHttpRequest]:
    """`request.user.is_authenticated`, for a view that serves both visitors and
    users: past it, type checkers know the request's user is a User."""
    return request.user.is_authenticated
