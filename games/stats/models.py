"""The ratings' rows: what `ratings.py` says a rating is and `rating_ledger.py` keeps.
They belong to the `games` app (its models module imports them, so Django finds them);
their tables keep the names they had in accounts (games/migrations/0015: no data moved).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Rating(models.Model):
    """A player's skill rating now: openskill's mu and sigma after their last rated game.

    Members and guests alike (a Player); bots never have one. The number people see is
    `ratings.shown(mu, sigma)`; `games` counts the rated games (provisional below 5)."""

    player = models.OneToOneField(
        "games.Player",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="rating",
        verbose_name=_("player"),
    )
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        db_table = "accounts_rating"
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.player_id}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating: before and after, so the rating
    over time is a chart and a game's page can say "+23".

    `finished_at` is the game's place in the rating order when it was rated (with the
    game's id to break ties): corrections and late games re-rate from there on."""

    player = models.ForeignKey(
        "games.Player",
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("player"),
    )
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("game"),
    )
    finished_at = models.DateTimeField(_("finished"))
    # The player's place among the people of the game (1 = best; ties share a place;
    # a person who resigned shares the last place).
    rank = models.PositiveSmallIntegerField(_("rank"))
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_before = models.FloatField()  # mu - 3 sigma
    ordinal_after = models.FloatField()
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        db_table = "accounts_ratingchange"
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["finished_at", "game_id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="rating_change_unique"),
        ]
        indexes = [
            models.Index(fields=["player", "finished_at", "game"], name="rating_change_player_idx"),
            models.Index(fields=["finished_at", "game"], name="rating_change_order_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.game_id}: {self.ordinal_before:.2f} → {self.ordinal_after:.2f}"


class RatedGame(models.Model):
    """A finished game the ratings have taken in, at its place in the order (its
    `finished_at` then, with its id). A game with nobody to rate (one person and bots,
    or not a rated game) has a row too: it was looked at and needs nothing."""

    game = models.OneToOneField(
        "games.Game",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="rated_game",
        verbose_name=_("game"),
    )
    finished_at = models.DateTimeField(_("finished"))
    rated_at = models.DateTimeField(_("rated"), auto_now=True)

    class Meta:
        db_table = "accounts_ratedgame"
        verbose_name = _("rated game")
        verbose_name_plural = _("rated games")
        indexes = [models.Index(fields=["finished_at", "game"], name="rated_game_order_idx")]

    def __str__(self) -> str:
        return str(self.game_id)


class RatingMark(models.Model):
    """The one row that says how far the ratings have got (pk 1).

    `rated_to_*`: the last game rated, in order (finished_at, then game id); every game
    after it is still to rate. `redo_from_*`: the earliest game whose rating must be
    worked out again (a claimed guest's first game), if any. A run claims the ratings by
    moving `revision` on with a conditional UPDATE, so two runs never rate at once."""

    rated_to_at = models.DateTimeField(null=True, blank=True)
    rated_to_game = models.IntegerField(null=True, blank=True)
    redo_from_at = models.DateTimeField(null=True, blank=True)
    redo_from_game = models.IntegerField(null=True, blank=True)
    revision = models.PositiveBigIntegerField(default=0)
    swept_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "accounts_ratingmark"
        verbose_name = _("rating mark")
        verbose_name_plural = _("rating marks")

    def __str__(self) -> str:
        return f"rated to {self.rated_to_at} #{self.rated_to_game}"
