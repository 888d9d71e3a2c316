"""Games of both modes share these tables, so stats are written once.

- `Player`: a name at a table, optionally a user's (a user has one Player).
- `Game`: a table game night (the app only keeps score) or an online game (the
  app deals; `state` is the engine snapshot and `Move` the append-only log).
- `Seat`: a Player in a game's seating order, with denormalised totals that the
  services refresh after every change (lists and stats read them, never moves).
- `RoundScore`: one finished round for one seat — the same rows for both modes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from .engine import GameState


from .ids import FORMULA_STARTS as FORMULA_STARTS
from .ids import new_public_id as new_public_id
from .ids import new_token as new_token


class Player(models.Model):
    name = models.CharField(_("name"), max_length=40)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
    )
    # Who typed a guest's name in; guests are listed for that user next time.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="guests_created",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The person deleted their account: the name was replaced and the user is gone, but
    # the seats and rounds stay so everyone else's games add up. Not a guest: nobody can
    # claim this history (accounts/deletion.py).
    anonymised = models.BooleanField(_("anonymised"), default=False)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name

    @property
    def is_guest(self) -> bool:
        return self.user_id is None and not self.anonymised

    @property
    def initials(self) -> str:
        """Up to two initials for the player's avatar.

        >>> [Player(name=name).initials for name in ("ada lovelace", "Bob", "")]
        ['AL', 'B', '?']
        """
        letters = [word[0] for word in self.name.split() if word][:2]
        return "".join(letters).upper() or "?"

    @classmethod
    def for_user(cls, user: User) -> Player:
        player, _created = cls.objects.get_or_create(
            user=user, defaults={"name": user.get_username()[:40]}
        )
        return player


class Game(models.Model):
    class Mode(models.TextChoices):
        NIGHT = "night", _("Game night")
        ONLINE = "online", _("Online")

    class Status(models.TextChoices):
        LOBBY = "lobby", _("Waiting for players")
        ACTIVE = "active", _("In progress")
        FINISHED = "finished", _("Finished")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    share_token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    mode = models.CharField(_("mode"), max_length=8, choices=Mode.choices)
    name = models.CharField(_("name"), max_length=80, blank=True)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices)
    # `Rules` as a dict (games.engine.Rules fields).
    rules = models.JSONField(_("rules"), default=dict)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"), default=0)
    # Others' rounds and moves live in the game: it outlives its creator's account.
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="games_created",
    )
    # The club whose game this is (games/clubs/), if any: it counts in the club's
    # seasons and stats. Leaving or deleting a club keeps every game.
    club = models.ForeignKey(
        "games.Club",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="games",
        verbose_name=_("club"),
    )
    co_scorers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="games_co_scored"
    )
    # Bumped on every change; pollers send the version they have and get 204 if equal.
    version = models.PositiveIntegerField(default=0)
    # Moved on by the ratings' run each time it (re)writes this game's rating changes
    # (games/stats/rating_ledger.py): what a finished game's kept rating changes are keyed
    # by with the version. Not the version: a form open on the game stays good.
    ratings_version = models.PositiveIntegerField(default=0, editable=False)
    rounds_played = models.PositiveSmallIntegerField(default=0)
    # Seat position of the winner of the tie-breaker round, once played.
    tiebreak_winner = models.PositiveSmallIntegerField(null=True, blank=True)
    # Game nights: the tied seats that played that tie-breaker. A correction can change
    # who is tied; the result then stops counting but is kept, and counts again if a
    # correction brings back the same tie (nights/scoreboard.py, `RecordedTiebreak`).
    tiebreak_seats = models.JSONField(default=list, blank=True)
    winner = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="games_won"
    )
    # Online: the game its "Next game" tap set up, the same one for everyone who taps.
    next_game = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="previous_game"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The game moves its people's skill ratings (stats/ratings.py): game nights
    # always, an online game unless its creator said no. Bots are never rated; a game
    # with bots is rated among its people.
    rated = models.BooleanField(_("rated game"), default=True)

    # --- online play -----------------------------------------------------------
    state = models.JSONField(null=True, blank=True)  # engine snapshot (to_dict)
    seed = models.BigIntegerField(null=True, blank=True)
    move_number = models.PositiveIntegerField(default=0)
    # The last few moves as [number, seat, action, automatic]: a copy of the move log's
    # tail, written in the same transaction, so the table shows its log from this row.
    recent_moves = models.JSONField(default=list, blank=True)
    current_player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    turn_started_at = models.DateTimeField(null=True, blank=True)
    time_limit = models.DurationField(null=True, blank=True)
    invite_token = models.CharField(max_length=32, blank=True, default=new_token)
    # Pause and away (games/online/pause.py): a pause asked for holds the positions of
    # the seats that agreed; everyone seated by a person agreeing pauses the game.
    pause_votes = models.JSONField(default=list, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    # The current turn's clock stopped (the game paused, or its player away); when it
    # runs again `turn_started_at` moves on by the time it stood still.
    clock_stopped_at = models.DateTimeField(null=True, blank=True)
    # The last few chat messages as [id, seat position, move number, text, hidden]: a copy
    # of the chat's tail (`ChatMessage`), written with each message, so the board shows
    # them from this row (games/online/chat.py).
    recent_chat = models.JSONField(default=list, blank=True)
    # The spectator link's token (empty: no link). A seated player makes one, or a new
    # one; revoking empties it, and the old link answers 404 (online/spectate_views.py).
    spectator_token = models.CharField(max_length=32, blank=True, default="")
    # The last finished round's hands as it ended: {"round": n, "hands": [[codes] per
    # seat]}. A copy of its RoundScore rows' `cards_left`, written in the same
    # transaction, so the board shows the round's results from this row.
    round_reveal = models.JSONField(default=dict, blank=True)

    # Not columns: what a view works out per viewer and sets on the games it renders
    # (declared for type checkers only; a game no view has set them on has none of them).
    can_edit: bool  # game nights: the viewer keeps score in this game
    my_seat: Seat | None  # online list: the viewer's seat
    your_turn: bool  # online list: the game waits for the viewer
    turn_clock: dict[str, object] | None  # online list: the turn's clock (online/pause.py)
    seats_key: str  # online list: its seats' line in the cache (online/my_games.py)
    seat_list: list[Seat]  # online list: its seats, if that line wasn't cached
    # online.services.load_state's cache: the parsed snapshot and the `state` dict it
    # was parsed from, so a request that acts and then shows the table parses it once.
    _engine_state: tuple[object, GameState]

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [
            models.Index(fields=["status", "updated_at"]),
            # Reminder / time-limit sweeps: active online games by how long the turn waited.
            models.Index(
                fields=["turn_started_at"],
                name="game_waiting_turn_idx",
                condition=Q(status="active", mode="online"),
            ),
            # The ratings take finished games in the order they finished.
            models.Index(
                fields=["finished_at", "id"],
                name="game_finished_idx",
                condition=Q(status="finished"),
            ),
            # A club's games, newest first (its page, seasons and stats).
            models.Index(fields=["club", "status", "finished_at"], name="game_club_idx"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["spectator_token"],
                name="game_unique_spectator_token",
                condition=~Q(spectator_token=""),
            ),
        ]

    def __str__(self) -> str:
        return self.name or str(_("Game %(id)s") % {"id": self.public_id})

    def get_absolute_url(self) -> str:
        if self.mode == self.Mode.NIGHT:
            return reverse("games:night_detail", args=[self.public_id])
        return reverse("games:online_detail", args=[self.public_id])


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    is_bot = models.BooleanField(default=False)
    # Denormalised from the rounds (kept current by the services):
    score = models.IntegerField(default=0)
    phase = models.PositiveSmallIntegerField(null=True, blank=True)  # phase to attempt now
    phases_completed = models.PositiveSmallIntegerField(default=0)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)  # final rank, 1 = winner
    is_winner = models.BooleanField(default=False)
    # Online: resigned players are replaced by a bot but keep their history.
    resigned = models.BooleanField(default=False)
    muted = models.BooleanField(default=False)  # per-game email mute
    # Online: the seat positions whose chat messages this seat's person doesn't see.
    chat_muted = models.JSONField(default=list, blank=True)
    # Game nights: a member seated by someone they never played with says yes first
    # (games/nights/seating.py); until then the seat counts in nobody's stats or ratings.
    accepted = models.BooleanField(_("accepted"), default=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.position} {self.player}"

    @staticmethod
    def of_people(prefix: str = "") -> Q:
        """The seats people took: not a bot's own (a person who resigned keeps theirs,
        though a bot plays it), nor one a member was seated in and hasn't accepted yet.
        A filter on Seat, or on a model that reaches Seat through `prefix` (e.g.
        "seats__")."""
        people = Q(**{f"{prefix}is_bot": False}) | Q(**{f"{prefix}resigned": True})
        return people & Q(**{f"{prefix}accepted": True})


class Invitation(models.Model):
    """An online game's creator asked a member by username to play. Nobody is seated (so
    nobody is emailed or shown the game) until they accept; accepting takes a free seat,
    declining or a withdrawal deletes the row, and starting the game drops the rest."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    # Not a column: the game's number of seats, set for My games (lobby.invitations_for).
    seats_total: int

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="invitation_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.game} → {self.user}"


class RoundScore(models.Model):
    """One seat's result in one finished round (both modes)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="round_scores")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="round_scores")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="round_scores")
    round_number = models.PositiveSmallIntegerField()
    # The phase this seat tried this round (pick-a-phase: the one it laid, else None).
    phase_attempted = models.PositiveSmallIntegerField(null=True, blank=True)
    # The phase laid this round, or None if the seat did not complete one.
    phase_completed = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.PositiveIntegerField(default=0)
    went_out = models.BooleanField(default=False)
    total = models.IntegerField(default=0)  # running total after this round
    # A bot played the seat when the round ended: a bot's own seat, or one whose person
    # resigned (in this round or before). Stats count only the rounds people played.
    by_bot = models.BooleanField(default=False)
    # Online games: the cards left in the seat's hand when the round ended, as codes
    # (the engine's RoundOver event; everyone sees them once the round is over).
    cards_left = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["round_number", "seat__position"]
        constraints = [
            models.UniqueConstraint(fields=["seat", "round_number"], name="roundscore_unique"),
        ]
        indexes = [models.Index(fields=["player", "phase_attempted"])]

    def __str__(self) -> str:
        return f"{self.game} round {self.round_number}: {self.player} {self.points}"

    @property
    def completed(self) -> bool:
        return self.phase_completed is not None


class QueuedRound(models.Model):
    """A game-night round a scorer's phone kept while it had no connection, by the key the
    phone gave it: sent again (a retry, a second tab, a lost answer) it is answered
    "already applied" and saved once (games/nights/offline_views.py)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="queued_rounds")
    key = models.UUIDField()
    round_number = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "key"], name="queuedround_unique_key"),
        ]

    def __str__(self) -> str:
        return f"{self.game} round {self.round_number} ({self.key})"


class Move(models.Model):
    """Append-only log of an online game: replaying the seed and these reproduces `state`."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    # Played for the seat by a bot, or by the time limit.
    automatic = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="move_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.game} move {self.number}"


class ChatMessage(models.Model):
    """Table talk: a message a seated person posted in an online game. Part of the
    game's record (a message its creator hid is kept, only not shown), never of its move
    log: the engine, `Move` rows and replays don't see it (games/online/chat.py)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="chat_messages")
    # The game's move number when it was posted: it sits after that move in the log.
    move_number = models.PositiveIntegerField()
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(default=timezone.now)
    # When the game's creator hid it (shown as hidden to everyone; the text is kept).
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        indexes = [
            models.Index(fields=["game", "move_number"], name="chat_game_move_idx"),
            # The rate limit and the double-click guard count a seat's latest messages.
            models.Index(fields=["seat", "created_at"], name="chat_seat_time_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.game} chat {self.pk}"


class Notification(models.Model):
    """The outbox: one email to one user, written in the transaction that causes it.

    The unique key (game, move number, recipient, kind, ordinal) makes a retried move,
    a task delivered twice or two overlapping beat runs write and send it once. The
    task claims a row with a conditional UPDATE (pending/queued → sending) before it
    sends; games/notifications.py has the whole life cycle.
    """

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", _("Your turn")
        REMINDER = "reminder", _("Reminder")
        DIGEST = "digest", _("Daily digest")
        TIME_WARNING = "time_warning", _("Time limit warning")
        AUTO_PLAYED = "auto_played", _("Turn played automatically")
        GAME_OVER = "game_over", _("Game over")

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting to be queued")
        QUEUED = "queued", _("Queued")
        SENDING = "sending", _("Sending")
        SENT = "sent", _("Sent")
        SKIPPED = "skipped", _("Not needed any more")
        FAILED = "failed", _("Failed")

    # Null only for the daily digest, which is about every game waiting for someone.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, related_name="notifications"
    )
    # The move number the turn started at (your turn, reminder, time limit), or the
    # game's last move (game over).
    move_number = models.PositiveIntegerField(_("move number"), default=0)
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="game_notifications",
        verbose_name=_("recipient"),
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    # Reminders 1, 2, 3 of one turn; 0 for every other kind.
    ordinal = models.PositiveSmallIntegerField(_("ordinal"), default=0)
    # The digest's day in the recipient's time zone (one digest a day).
    day = models.DateField(_("day"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PENDING
    )
    # Not before this time: quiet hours and retry backoff push it forward.
    send_after = models.DateTimeField(_("send after"), default=timezone.now)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    # What the email needs that may change before it is sent (e.g. the discard pile's
    # top card when the turn began).
    context = models.JSONField(_("context"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    queued_at = models.DateTimeField(_("queued"), null=True, blank=True)
    claimed_at = models.DateTimeField(_("claimed"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "move_number", "recipient", "kind", "ordinal"],
                name="notification_unique_per_move",
            ),
            # NULL games are distinct in the key above, so the digest has its own.
            models.UniqueConstraint(
                fields=["recipient", "day"],
                condition=Q(kind="digest"),
                name="notification_unique_digest_day",
            ),
        ]
        indexes = [
            # The sweeper: rows never handed over, retries due, rows stuck in a state.
            models.Index(fields=["status", "send_after"], name="notification_sweep_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} → {self.recipient} ({self.status})"


# The ratings' rows live with the stats that keep them (games/stats/models.py), the
# clubs' with the clubs (games/clubs/models.py); Django finds an app's models through
# this module.
from .clubs.models import Club as Club  # noqa: E402
from .clubs.models import ClubInvitation as ClubInvitation  # noqa: E402
from .clubs.models import ClubMember as ClubMember  # noqa: E402
from .clubs.models import Season as Season  # noqa: E402
from .clubs.models import YearShare as YearShare  # noqa: E402
from .stats.models import RatedGame as RatedGame  # noqa: E402
from .stats.models import Rating as Rating  # noqa: E402
from .stats.models import RatingChange as RatingChange  # noqa: E402
from .stats.models import RatingMark as RatingMark  # noqa: E402
