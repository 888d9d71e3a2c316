"""The random ids in URLs: public ids of games and clubs, and the tokens of links."""

from __future__ import annotations

import secrets

# A spreadsheet reads a cell starting with one of these as a formula: the CSV exports
# guard such cells with a quote, which would leave an id there unlike its URL.
FORMULA_STARTS = frozenset("-+=@")


def new_public_id() -> str:
    """12 URL-safe characters that never start as a formula would (1 draw in 64 does)."""
    while (public_id := secrets.token_urlsafe(9))[0] in FORMULA_STARTS:
        pass
    return public_id


def new_token() -> str:
    # 128 bits: share and invite links can't be guessed.
    return secrets.token_urlsafe(16)
