"""Importing Phase 10 plays from a BG Stats export into game nights.

BG Stats (the board-game log app) exports JSON with tables that refer to each other by
id: "players" [{id, uuid, name, …}], "games" [{id, name, bggId, …}] and "plays"
[{uuid, gameRefId, playDate, durationMin, ignored, playerScores: [{playerRefId, score,
winner, rank, seatOrder, startPlayer, …}], …}]. Only plays of Phase 10 are taken (a game
named "Phase 10", or BoardGameGeek's id 1258); the others are counted and left alone.

A play has final scores only, so each becomes a finished game night **without rounds**:
its seats carry the final score, the rank and the winner (so games, wins, points,
head-to-head, the leaderboard and the ratings count it), its `rounds_played` is 0
("rounds unknown": the stats leave it out of rounds per game), and with no round rows
it adds nothing to the per-phase table or the phase-per-round chart. The variant isn't
in the file: the night has the standard rules. It has no scorer (`creator` empty): a
night is corrected by folding its rounds again, which would wipe the imported scores,
so nobody can change it; its players see it as any night they sat at. Hence only the
importer's own plays are taken (those with their name): one they weren't in would be
a night they couldn't see.

Importing the same file again adds nothing: a play's night has a `public_id` made from
the play's uuid (the column is unique, so two imports at once can't both add it
either). The key is the play's, not the importer's: a play shared between two BG Stats
users keeps its uuid, and the second member to import it finds the night the first
one made (matched to their own Player if the first knew them; else they can claim
that guest) rather than a copy that would count the game twice.

The importer is the export's own player (`userInfo.meRefId`, the phone's owner) when
the file says who that is; else `own_name`, their name in BG Stats. Other players are
matched by name (ignoring case) to the importer's known players: people they played with
and the guests they typed in. Other names become new guests of theirs.

A play that can't be a night is left out with its reason, one sentence each
(`ImportResult.left_out`): a player without a final score, a date no calendar holds.
A name with a NUL character (which no database column stores) refuses the whole file.
"""

from __future__ import annotations

import hashlib
import json
import zoneinfo
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from games.clubs.membership import check_member
from games.engine import Rules
from games.errors import Refused
from games.models import Club, Game, Player, Seat
from games.nights.seating import known_players
from games.scoring import bump_club, queue_rating
from games.words import isolated

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MAX_BYTES = 5 * 1024 * 1024
PHASE_10_BGG_ID = 1258
PHASE_10_NAMES = frozenset({"phase 10", "phase10"})
# A game night seats 2 to 6 (games/engine: the deck is dealt to at most six).
MIN_SEATS, MAX_SEATS = 2, 6
# Far beyond any real game, well within the columns: a play past them is left out.
MAX_SCORE = 100_000
MAX_MINUTES = 7 * 24 * 60
# Plays looked up per query (keeps each IN (...) list short).
BATCH = 500
# Every imported night's public_id starts with this; a random one is 12 characters.
ID_PREFIX = "bgs"
NAME_LENGTH = Player._meta.get_field("name").max_length or 40
GAME_NAME_LENGTH = Game._meta.get_field("name").max_length or 80


@dataclass
class ImportResult:
    imported: int = 0
    already: int = 0  # imported before (this file, or an earlier export)
    not_yours: int = 0  # Phase 10 plays without the importer's name
    ignored: int = 0  # Phase 10 plays marked "ignored" (left out of BG Stats' stats)
    skipped: int = 0  # Phase 10 plays that can't be a night (no scores, one player, …)
    other_games: int = 0  # plays of other games, left alone
    games: list[Game] = field(default_factory=list)
    own_name: str = ""  # the importer's name in BG Stats, as they were found by
    left_out: list[str] = field(default_factory=list)  # each skipped play and why


@dataclass(frozen=True)
class _Score:
    name: str
    score: int
    winner: bool
    rank: int | None
    seat: int
    me: bool = False  # the export's own player (userInfo.meRefId)


@dataclass(frozen=True)
class _Play:
    key: str
    finished_at: datetime
    location: str
    scores: tuple[_Score, ...]
    played: str  # its date as the importer reads dates (isolated in right-to-left text)


def read_file(data: bytes) -> dict[str, Any]:
    """The export as a dict, or Refused with a sentence for the person who sent it."""
    if len(data) > MAX_BYTES:
        raise Refused(_("That file is too large: a BG Stats export up to 5 MB can be imported."))
    try:
        export = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise Refused(_("That file isn't a BG Stats export (JSON) we can read.")) from error
    if not isinstance(export, dict) or not all(
        isinstance(export.get(table), list) for table in ("players", "games", "plays")
    ):
        raise Refused(_("That file isn't a BG Stats export: it has no players, games and plays."))
    if any("\x00" in name for name in (*_names(export["players"]).values(), *_locations(export))):
        # PostgreSQL stores no NUL in text: refused here, before anything is written.
        raise Refused(
            _(
                "A player or place name in that file has a NUL character, which can't be "
                "stored: nothing was imported."
            )
        )
    return export


def _locations(export: Mapping[str, Any]) -> Iterable[str]:
    return _names(export.get("locations") or []).values()


def import_export(
    user: User, export: Mapping[str, Any], *, own_name: str = "", club: Club | None = None
) -> ImportResult:
    """Every Phase 10 play of `export` not imported before becomes a finished night, of
    `club` when one is given (one of `user`'s: Refused otherwise). A play imported
    before is left as it is, in its club or none."""
    result = ImportResult()
    plays = _phase_10_plays(export, result)
    zone = _time_zone(user)
    names = _names(export["players"])
    places = _names(export.get("locations") or [])
    me = _me(export, names)
    result.own_name = names[me] if me is not None else own_name.strip()
    read = []
    for play in plays:
        if play.get("ignored") is True:
            result.ignored += 1  # left out of BG Stats' own statistics: of ours too
            continue
        parsed = _read_play(play, names, places, zone, me)
        if isinstance(parsed, str):
            result.skipped += 1
            result.left_out.append(parsed)
        else:
            read.append(parsed)
    with transaction.atomic():
        # One import at a time per person: the second finds the first one's nights.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        check_member(club, user)
        people = _People(user, own_name, by_ref=me is not None)
        mine = [night for night in read if people.plays_in(night)]
        result.not_yours = len(read) - len(mine)
        done = _imported_before([night.key for night in mine])
        todo = []
        for night in sorted(mine, key=lambda p: p.finished_at):
            if night.key in done:
                result.already += 1
                continue
            done.add(night.key)
            players = [people.player(score) for score in night.scores]
            if len({p.pk for p in players}) != len(players):
                result.skipped += 1  # two names of one person (their own name twice)
                result.left_out.append(_seats_reason(night.played))
                continue
            todo.append((night, players))
        try:
            # All at once (a few queries per 500 plays) ...
            with transaction.atomic():
                result.games = _create_nights(todo, club)
        except IntegrityError:
            # ... unless another member's import added one of these plays meanwhile:
            # then one by one, leaving out what is there now.
            for night, players in todo:
                try:
                    with transaction.atomic():
                        result.games += _create_nights([(night, players)], club)
                except IntegrityError:
                    result.already += 1
        result.imported = len(result.games)
        if result.games:
            # The earliest night: the ratings rewind to it and rate everything after in
            # finishing order, the other imported nights included.
            queue_rating(min(result.games, key=lambda g: (g.finished_at, g.pk)))
    return result


def _imported_before(keys: list[str]) -> set[str]:
    found: set[str] = set()
    for start in range(0, len(keys), BATCH):
        found.update(
            Game.objects.filter(public_id__in=keys[start : start + BATCH]).values_list(
                "public_id", flat=True
            )
        )
    return found


def _names(rows: object) -> dict[Any, str]:
    """A table's names by id (players, locations)."""
    if not isinstance(rows, list):
        return {}
    return {
        _ref(row.get("id")): str(row.get("name") or "").strip()
        for row in rows
        if isinstance(row, dict) and _ref(row.get("id")) is not None
    }


def _me(export: Mapping[str, Any], names: Mapping[Any, str]) -> int | str | None:
    """The export's own player (the phone's owner), if the file names one it has."""
    info = export.get("userInfo")
    me = _ref(info.get("meRefId")) if isinstance(info, dict) else None
    return me if me is not None and names.get(me) else None


def _ref(value: object) -> int | str | None:
    """An id the file refers to a row by (a number or a string; anything else: none)."""
    if isinstance(value, (int, str)) and not isinstance(value, bool):
        return value
    return None


def _phase_10_plays(export: Mapping[str, Any], result: ImportResult) -> list[dict[str, Any]]:
    phase_10 = {
        _ref(row.get("id"))
        for row in export["games"]
        if isinstance(row, dict)
        and _ref(row.get("id")) is not None
        and (
            str(row.get("name") or "").strip().casefold() in PHASE_10_NAMES
            or _int(row.get("bggId")) == PHASE_10_BGG_ID
        )
    }
    plays = []
    for play in export["plays"]:
        if isinstance(play, dict) and _ref(play.get("gameRefId")) in phase_10:
            plays.append(play)
        else:
            result.other_games += 1
    return plays


def _read_play(
    play: Mapping[str, Any],
    names: Mapping[Any, str],
    places: Mapping[Any, str],
    zone: zoneinfo.ZoneInfo,
    me: int | str | None = None,
) -> _Play | str:
    """A play as a night's seats, or the sentence saying why it can't be one."""
    started = _date(play.get("playDate"), zone)
    if started is None:
        return _("A play dated “%(date)s” was left out: that date can't be read.") % {
            "date": isolated(str(play.get("playDate") or "")[:40])
        }
    played = isolated(formats.date_format(started, "SHORT_DATE_FORMAT"))
    entries = play.get("playerScores")
    if not isinstance(entries, list):
        return _seats_reason(played)
    scores = []
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            return _seats_reason(played)
        ref = _ref(entry.get("playerRefId"))
        name = names.get(ref, "")[:NAME_LENGTH].strip()
        score = _int(entry.get("score"))
        if name and entry.get("score") in (None, ""):
            return _("The play of %(date)s was left out: %(name)s has no final score.") % {
                "date": played,
                "name": isolated(name),
            }
        if not name or score is None or not 0 <= score <= MAX_SCORE:
            return _seats_reason(played)
        seat = _int(entry.get("seatOrder"))
        rank = _int(entry.get("rank"))
        scores.append(
            _Score(
                name=name,
                score=score,
                winner=entry.get("winner") is True,
                rank=rank if rank is not None and 1 <= rank <= len(entries) else None,
                seat=index if seat is None else seat,
                me=me is not None and ref == me,
            )
        )
    if not MIN_SEATS <= len(scores) <= MAX_SEATS:
        return _seats_reason(played)
    if len({score.name.casefold() for score in scores}) != len(scores):
        return _seats_reason(played)  # one person twice: no night seats anyone twice
    minutes = _int(play.get("durationMin")) or 0
    try:
        finished_at = _utc(started + timedelta(minutes=min(max(minutes, 0), MAX_MINUTES)))
    except OverflowError:
        # The last day of year 9999: no calendar the database keeps goes further.
        return _("A play dated “%(date)s” was left out: that date can't be read.") % {
            "date": isolated(str(play.get("playDate"))[:40])
        }
    uuid = str(play.get("uuid") or "").strip()
    return _Play(
        key=_key(uuid or _fingerprint(play, scores)),
        finished_at=finished_at,
        location=places.get(_ref(play.get("locationRefId")), "")[:GAME_NAME_LENGTH],
        scores=tuple(sorted(scores, key=lambda s: s.seat)),
        played=played,
    )


def _seats_reason(played: str) -> str:
    return _(
        "The play of %(date)s was left out: it needs 2 to 6 players, each once, with a final score."
    ) % {"date": played}


def _utc(moment: datetime) -> datetime:
    """`moment` in UTC, as the database keeps it; OverflowError for a moment whose UTC
    falls outside years 1 to 9999 ("0001-01-01T00:00:00+14:00")."""
    return moment.astimezone(UTC)


def _key(play_id: str) -> str:
    digest = hashlib.sha256(play_id.encode()).hexdigest()
    return ID_PREFIX + digest[:13]


def _fingerprint(play: Mapping[str, Any], scores: Iterable[_Score]) -> str:
    # An export without uuids (hand-made, or an old version): the play's content.
    return json.dumps(
        [str(play.get("playDate")), sorted((s.name.casefold(), s.score) for s in scores)]
    )


def _int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            try:
                number = float(value.strip())
            except ValueError:
                return None
            return int(number) if number.is_integer() else None
    return None


def _date(value: object, zone: zoneinfo.ZoneInfo) -> datetime | None:
    """BG Stats writes the phone's local time ("2024-05-01 20:30:00"): read it in the
    importer's time zone."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, zone)
    try:
        _utc(moment)
    except OverflowError:
        return None
    return moment


def _time_zone(user: User) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(user.profile.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


class _People:
    """Names to Players: the importer's own name, their known players, new guests."""

    def __init__(self, user: User, own_name: str, *, by_ref: bool = False) -> None:
        self.user = user
        self.me = Player.for_user(user)
        # Found by the export's own player, the importer's name is just another name.
        self.by_ref = by_ref
        self.own = own_name.strip().casefold() or self.me.name.casefold()
        self.by_name: dict[str, Player] = {}
        # Several known players with one name: the guest this person typed in first,
        # else the earliest Player.
        known = sorted(
            known_players(user),
            key=lambda p: (not (p.is_guest and p.created_by_id == user.pk), p.pk),
        )
        for player in known:
            self.by_name.setdefault(player.name.strip().casefold(), player)

    def is_me(self, score: _Score) -> bool:
        return score.me if self.by_ref else score.name.casefold() == self.own

    def plays_in(self, play: _Play) -> bool:
        return any(self.is_me(score) for score in play.scores)

    def player(self, score: _Score) -> Player:
        if self.is_me(score):
            return self.me
        folded = score.name.casefold()
        if folded not in self.by_name:
            self.by_name[folded] = Player.objects.create(name=score.name, created_by=self.user)
        return self.by_name[folded]


def _create_nights(todo: list[tuple[_Play, list[Player]]], club: Club | None) -> list[Game]:
    """The nights of the plays in `todo`, each with its players in its seats, `club`'s."""
    games, ranked = [], []
    for play, players in todo:
        ranks = _ranks(play.scores)
        best = min(ranks)
        ranked.append((ranks, best))
        games.append(
            Game(
                public_id=play.key,
                mode=Game.Mode.NIGHT,
                status=Game.Status.FINISHED,
                name=play.location,
                rules=Rules().to_dict(),
                creator=None,  # nobody's to correct: see the module's docstring
                rounds_played=0,
                finished_at=play.finished_at,
                winner=players[ranks.index(best)],
                version=1,
                club=club,
            )
        )
    games = Game.objects.bulk_create(games, batch_size=BATCH)
    if club is not None:
        bump_club(club.pk)
    # Last changed when it was played (not now, as `auto_now` says): the nights list,
    # latest first, puts an imported night among the others by its date.
    for start in range(0, len(games), BATCH):
        batch = [game.pk for game in games[start : start + BATCH]]
        Game.objects.filter(pk__in=batch).update(updated_at=F("finished_at"))
    Seat.objects.bulk_create(
        (
            Seat(
                game=game,
                position=position,
                player=player,
                score=score.score,
                rank=ranks[position],
                is_winner=ranks[position] == best,
            )
            for game, (play, players), (ranks, best) in zip(games, todo, ranked, strict=True)
            for position, (player, score) in enumerate(zip(players, play.scores, strict=True))
        ),
        batch_size=BATCH,
    )
    return games


def _ranks(scores: tuple[_Score, ...]) -> list[int]:
    """Each seat's place: BG Stats' ranks when every seat has one, else the winners
    first and then by final score (lower is better in Phase 10), equal scores sharing a
    place. With nobody marked as winner, the lowest score wins.

    >>> s = lambda score, winner=False, rank=None: _Score("x", score, winner, rank, 0)
    >>> _ranks((s(80), s(40, winner=True), s(60), s(60)))
    [4, 1, 2, 2]
    >>> _ranks((s(80), s(40), s(60, rank=1)))
    [3, 1, 2]
    >>> _ranks((s(10, rank=2), s(40, rank=1)))
    [2, 1]
    """
    given = [score.rank for score in scores]
    if all(rank is not None and rank > 0 for rank in given):
        return [rank for rank in given if rank is not None]
    order = sorted(range(len(scores)), key=lambda i: (not scores[i].winner, scores[i].score))
    if not any(score.winner for score in scores):
        order = sorted(range(len(scores)), key=lambda i: scores[i].score)
    ranks = [0] * len(scores)
    for place, index in enumerate(order, start=1):
        previous = order[place - 2] if place > 1 else None
        same = previous is not None and (
            scores[previous].winner == scores[index].winner
            and scores[previous].score == scores[index].score
        )
        ranks[index] = ranks[previous] if same and previous is not None else place
    return ranks
