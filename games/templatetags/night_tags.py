"""A game night's history in templates: `{% load night_tags %}`, then
`{% history_rows game board can_edit %}` (games/nights/detail.html)."""

from __future__ import annotations

from django import template
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.models import Game
from games.nights.scoreboard import Scoreboard

register = template.Library()

ROW = "games/nights/detail.html#history_row"
# As long as the night's other fragments (nights/views.py SCOREBOARD_SECONDS).
ROWS_SECONDS = 600
# A row's cells as it shows them: points, the phase completed, went out.
_Shown = tuple[tuple[int, int | None, bool], ...]


@register.simple_tag
def history_rows(game: Game, board: Scoreboard, can_edit: bool) -> SafeString:
    """The rows of `board`'s rounds. A round's row stays the same in every later version
    of the night (a correction changes its cells), so each is drawn once per round and
    content, language and role, not once per version: the rows a process has drawn for
    a night are kept together under one key (one read for all of them; a round entered
    since, or corrected, is drawn and kept with them)."""
    key = f"night-rows:{game.public_id}:{int(bool(can_edit))}:{get_language()}"
    drawn: dict[int, tuple[_Shown, str]] = cache.get(key) or {}
    rows = []
    moved = False
    for round_ in board.rounds:
        # What the row shows of each cell, as plain values: quicker to keep than the cells.
        shown = tuple((cell.points, cell.completed, cell.went_out) for cell in round_.cells)
        kept = drawn.get(round_.number)
        if kept is None or kept[0] != shown:
            context = {"game": game, "round": round_, "can_edit": can_edit}
            kept = drawn[round_.number] = (shown, render_to_string(ROW, context))
            moved = True
        rows.append(kept[1])
    if moved:
        cache.set(key, drawn, ROWS_SECONDS)
    return mark_safe("".join(rows))  # noqa: S308 - drawn by the row's template, escaped there
