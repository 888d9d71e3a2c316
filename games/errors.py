"""The one error a service raises when it refuses a change.

Both modes use it: a game night's services (a round that doesn't add up, a stale form)
and an online game's (not your turn, a move the engine refuses, the game moved on).
`message` is translated and ready for the page; `code` is stable for tests and logs;
`field` names the form field it belongs to (None: the form as a whole).
"""

from __future__ import annotations


class Refused(Exception):
    """A change that can't be made, with a sentence for the person who asked."""

    def __init__(self, message: str, *, code: str = "refused", field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field


class Stale(Refused):
    """The page was built from an older version of the game: someone (another scorer,
    another player, a double click) changed it first. Nothing was applied."""
