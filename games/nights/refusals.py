"""A refused change of a game night as the engine said it, in words for the scorer: the
sentence (words.round_refusal) and, where it is about one typed value, that field."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.utils.translation import gettext as _

from games.engine import RoundResult, RuleError

from ..errors import Refused
from ..models import Game, Seat
from ..words import round_refusal


def check_engine(call: Callable[[], object], *, names: Sequence[str] = ()) -> None:
    try:
        call()
    except RuleError as error:
        raise Refused(rule_message(error, names)) from error


def round_error(
    error: RuleError, game: Game, number: int, changed: int | None, result: RoundResult
) -> Refused:
    names = list(
        Seat.objects.filter(game=game).order_by("position").values_list("player__name", flat=True)
    )
    message = rule_message(error, names, result)
    if changed is not None and number != changed:
        # The edited round is fine on its own, but a later round no longer follows from it.
        return Refused(
            _(
                "With that change, round %(number)s no longer adds up: %(reason)s "
                "Undo or fix the later rounds first."
            )
            % {"number": number, "reason": message}
        )
    return Refused(message, field=_error_field(error, result))


def _error_field(error: RuleError, result: RoundResult) -> str | None:
    seat = _error_seat(error, result)
    fields = {
        "went_out_points": f"points_{seat}",
        "points_value": f"points_{seat}",
        "went_out_without_phase": f"completed_{seat}",
        "phase_already_completed": f"completed_{seat}",
        "wrong_phase": f"completed_{seat}",
        "went_out_seat": "went_out",
    }
    return fields.get(error.code) if seat is not None or error.code == "went_out_seat" else None


def _error_seat(error: RuleError, result: RoundResult | None) -> int | None:
    seat = getattr(error, "params", {}).get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool):
        return seat
    return result.went_out if result is not None else None


def rule_message(error: RuleError, names: Sequence[str], result: RoundResult | None = None) -> str:
    seat = _error_seat(error, result)
    return round_refusal(error, names[seat] if seat is not None and 0 <= seat < len(names) else "?")
