"""What a correction of a night after its end would change, before it is saved.

Once the regular rounds are over (a winner, or a tie-breaker due), editing a round or
undoing the last entry can change the result, so the scorer sees what changes and
confirms. The services fold the rounds with the change through the engine without
saving (`services.preview_edit`, `services.preview_undo`); a `Correction` holds the
scoreboard now and the one the change would leave, and says what differs.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .scoreboard import RecordedTiebreak, Scoreboard, ScoreboardSeat


class Kind(StrEnum):
    EDIT = "edit"  # a round corrected
    UNDO_ROUND = "undo_round"  # the last round taken back
    UNDO_TIEBREAK = "undo_tiebreak"  # the tie-breaker's result taken back


@dataclass(frozen=True)
class SeatChange:
    """One player's rank and total now and after the correction."""

    position: int
    name: str
    rank_before: int
    rank_after: int
    total_before: int
    total_after: int

    @property
    def changed(self) -> bool:
        return (self.rank_before, self.total_before) != (self.rank_after, self.total_after)


@dataclass(frozen=True)
class Correction:
    kind: Kind
    number: int | None  # the round corrected or undone; None for the tie-breaker
    before: Scoreboard
    after: Scoreboard
    # The recorded tie-breaker result as it would be stored afterwards (an edit keeps it
    # even where it stops counting; an undo of the result or of the round drops it).
    tiebreak: RecordedTiebreak | None

    @property
    def result_changes(self) -> bool:
        """The winner, the tie-breaker (due, among whom, deciding) or the end changes."""
        return _result(self.before) != _result(self.after)

    @property
    def seats(self) -> list[SeatChange]:
        """Every player, in the order of the ranks after the correction."""
        before = {seat.position: seat for seat in self.before.seats}
        return [
            SeatChange(
                position=seat.position,
                name=seat.name,
                rank_before=before[seat.position].rank,
                rank_after=seat.rank,
                total_before=before[seat.position].total,
                total_after=seat.total,
            )
            for seat in self.after.ranking
        ]

    @property
    def tiebreak_set_aside(self) -> bool:
        """The recorded tie-breaker win decides the night now, and would no longer."""
        return (
            self.tiebreak is not None
            and self.before.decided_by_tiebreak
            and not self.after.decided_by_tiebreak
        )

    @property
    def tiebreak_counts_again(self) -> bool:
        """A result set aside by an earlier correction would decide the night again."""
        return (
            self.tiebreak is not None
            and self.after.decided_by_tiebreak
            and not self.before.decided_by_tiebreak
        )

    @property
    def tiebreak_winner(self) -> ScoreboardSeat | None:
        if self.tiebreak is None:
            return None
        return self.after.seats[self.tiebreak.winner]

    @property
    def tiebreak_tied(self) -> list[ScoreboardSeat]:
        """The seats the recorded tie-breaker was played by (as far as they were kept)."""
        if self.tiebreak is None:
            return []
        positions = self.tiebreak.seats or self.before.standing.tiebreak_seats
        return [self.after.seats[position] for position in positions]


def _result(board: Scoreboard) -> tuple[object, ...]:
    return (
        board.is_over,
        board.standing.winner,
        board.tiebreak_needed,
        board.standing.tiebreak_seats,
        board.decided_by_tiebreak,
    )
