"""The forms of a night's entry panel as its Jinja2 partials draw them
(games/jinja2/games/nights/round_form.html and game.html's tie-breaker): values (what is
typed, ticked and wrong), not widgets, which would draw a template per input. A new
round's form, drawn after every save, is made from the scoreboard without a Django form.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.forms import CheckboxInput

from ..engine.progression import MAX_ROUND_POINTS
from .forms import NOBODY, NightRoundForm, NightTiebreakForm
from .scoreboard import Scoreboard


@dataclass(frozen=True)
class SeatRow:
    """One player's row of the round form, as typed (or as entered, for a correction)."""

    position: int
    name: str
    phase: int | None  # the phase they were on: "Phase 3 done"
    went_out: bool
    points: str  # the points field's value ("" when empty)
    completed: bool  # the phase ticked as done
    laid: str  # pick-a-phase: the phase chosen ("" for none)
    choices: tuple[int, ...]  # pick-a-phase: the phases they may lay
    points_errors: tuple[str, ...] = ()
    completed_errors: tuple[str, ...] = ()


@dataclass(frozen=True)
class RoundForm:
    """The round form (round_form.html): a new round, or a round corrected, with what
    was typed and what was wrong when a save was refused."""

    number: int
    is_edit: bool
    url: str
    version: str
    rows: tuple[SeatRow, ...]
    pick: bool
    nobody: bool = False  # "nobody went out" chosen
    errors: tuple[str, ...] = ()
    version_error: bool = False
    went_out_errors: tuple[str, ...] = ()
    max_points: int = MAX_ROUND_POINTS

    @property
    def nobody_index(self) -> int:
        """The "nobody" radio's place in the group, after every player's (its id)."""
        return len(self.rows)

    @property
    def went_out_key(self) -> tuple[object, ...]:
        """Everything the "who went out?" group shows: the same after every round."""
        players = tuple((row.position, row.name, row.went_out) for row in self.rows)
        return (players, self.nobody, self.went_out_errors)


def new_round_form(board: Scoreboard, url: str) -> RoundForm:
    """The empty form of the next round, posting to `url`: made from the scoreboard,
    without a Django form (nothing is chosen, typed or wrong yet)."""
    number = board.round_number
    phases = board.phases_attempted_in(number)
    pick = board.rules.pick_a_phase
    done = board.phases_done_before(number) if pick else ()
    return RoundForm(
        number=number,
        is_edit=False,
        url=url,
        version=str(board.version),
        pick=pick,
        rows=tuple(
            SeatRow(
                position=seat.position,
                name=seat.name,
                phase=phases[seat.position],
                went_out=False,
                points="",
                completed=False,
                laid="",
                choices=board.rules.phases_left(done[seat.position]) if pick else (),
            )
            for seat in board.seats
        ),
    )


def bound_round_form(form: NightRoundForm, url: str) -> RoundForm:
    """`form`, posting to `url`, as its widgets would draw it: what was posted (or the
    round as entered, for a correction) and its errors."""
    board = form.board
    pick = board.rules.pick_a_phase
    done = board.phases_done_before(form.number) if pick else ()
    went_out = form["went_out"].value()
    chosen = "" if went_out is None else str(went_out)
    errors = form.errors
    rows = []
    for seat in board.seats:
        completed = form[f"completed_{seat.position}"].value()
        points = form[f"points_{seat.position}"].value()
        rows.append(
            SeatRow(
                position=seat.position,
                name=seat.name,
                phase=form.phases[seat.position],
                went_out=chosen == str(seat.position),
                points="" if points is None else str(points),
                completed=not pick and CheckboxInput().check_test(completed),
                laid="" if completed is None or not pick else str(completed),
                choices=board.rules.phases_left(done[seat.position]) if pick else (),
                points_errors=_messages(errors.get(f"points_{seat.position}")),
                completed_errors=_messages(errors.get(f"completed_{seat.position}")),
            )
        )
    version = form["version"].value()
    return RoundForm(
        number=form.number,
        is_edit=form.is_edit,
        url=url,
        version="" if version is None else str(version),
        pick=pick,
        rows=tuple(rows),
        nobody=chosen == NOBODY,
        errors=_messages(form.non_field_errors()),
        version_error="version" in errors,
        went_out_errors=_messages(errors.get("went_out")),
    )


def _messages(errors: Iterable[object] | None) -> tuple[str, ...]:
    return tuple(str(error) for error in errors or ())


@dataclass(frozen=True)
class TiebreakForm:
    version: str
    errors: tuple[str, ...] = ()


def tiebreak_form(board: Scoreboard, form: NightTiebreakForm | None) -> TiebreakForm:
    if form is None:
        return TiebreakForm(version=str(board.version))
    version = form["version"].value()
    return TiebreakForm(
        version="" if version is None else str(version),
        errors=_messages(form.errors.get("winner")),
    )
