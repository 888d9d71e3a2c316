"""Every key the app reads or writes in Django's cache, and what each one holds.

Cached HTML is keyed by everything it shows (Rails' `cache_key_with_version`): a key
names the thing, the version it was drawn at and every other value that changes a word
of it, so nothing kept is ever out of date and nothing is deleted. A change to a game
bumps its version (games/scoring.py), which moves every key below that holds it; a new
key simply misses and the old entry ages out (`VERSION_SECONDS`, or the backend's cull).

What differs per request is part of the key too, never put into the HTML afterwards: a
part with forms is kept per CSRF cookie (`csrf_cookie`) and holds the token the request
that drew it was given, valid for every request that sends that cookie; the clock's time
left is in the board's key as it is shown (a board with focus, a move's answer, is not
kept).

| key | holds | moves on with |
|---|---|---|
| `board` | an online seat's board (board.html) without focus | version, seat and its flags, language, time zone, hand order, script prefix, CSRF cookie, time left |
| `seats` | an online game's seats with their players, users and profiles, as its pages show them (games/online/access.py) | version |
| `night_game` | a night's game (nights/game.html) without a notice or form sent back | version, role, the game's `ratings_version` (moved by the ratings' run: stats/rating_ledger.py), language, script prefix, CSRF cookie |
| `night_ratings` | a finished night's rating changes | version, `ratings_version`, language |
| `night_scoreboard` | a night's `Scoreboard` (nights/scoreboard.py) | nothing: it carries its version and the reader compares |
| `night_rows` | a page of /nights/'s rows (nights/listing.py), the count of them all and the page's number | the member, the extent of their nights (how many, the sums of their versions and ids), the page asked for |
| `night_card` | a night's card in /nights/ | version, language, time zone |
| `night_items` | a page of /nights/ with its forms | its cards' keys, the forms shown, script prefix, CSRF cookie |
| `qr` | a share link's QR code (SVG) | the link and title (a new share token is a new link) |
| `score_chart` | a game's score chart (SVG) | version, language |
| `my_games_rows` | the rows My games' lists are drawn from: the member's current online games and last finished ones (online/my_games.py) | the member, their time zone, the extent of their online seats (how many, the sums of their games' versions and ids) |
| `your_turns` | the header's count of online games waiting for a member | nothing: it lives `YOUR_TURNS_SECONDS` (a badge, not a list: My games counts its own list and puts its count here) |
| `player_figures` | a stats page's figures and laid-out charts (stats/page.py) | the player, the filters, the games in scope and their versions, name shown, own page, language, time zone |
| `season_table` | a club season's league table (clubs/_season_table.html, a `{% cache %}` block) | the club's version, the extent of the games finished in the season (none once it is closed: the kept copy), the season, language, time zone, script prefix |
| `club_records` | a club's stats page's figures (games/clubs/records.py) | the club's version, its finished games and their versions |
| `person_year` | a member's year in review's figures (games/clubs/year.py) | the player, the year, their games that year and their versions, the ratings of those games |
| `club_year` | a club's year in review's figures (games/clubs/year.py) | the club's version (as `club_page`), the year |
| `club_page` | a club's page (clubs/detail.html's kept body, games/clubs/page.py) with its forms | the club's version (which any change to its games, and the ratings' run writing its members' ratings, move on: `scoring.bump_club`), admin or not, the join link as shown, language, time zone, script prefix, CSRF cookie |
| `fragment` | a template's `{% cache %}` block (`FRAGMENTS`) | the values the block names |

Names and other words a version doesn't cover (a renamed player shown in a game that no
longer changes) are bounded by `VERSION_SECONDS`.
"""

from __future__ import annotations

from hashlib import sha256
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache.utils import make_template_fragment_key
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH
from django.urls import get_script_prefix
from django.utils import timezone
from django.utils.translation import get_language

if TYPE_CHECKING:
    from django.http import HttpRequest

    from .models import Club, Game, Player, Season, Seat
    from .stats.scope import Scope

# How long what is kept under a game's version lives: every change bumps the version, so
# this only bounds what the version doesn't cover (a renamed player or a claimed guest in
# a game that no longer changes). The templates' `{% cache 600 … %}` blocks of a version
# use the same.
VERSION_SECONDS = 600
# The header's count of games waiting for a member is kept this long: a member going
# from page to page pays its query once, and the badge lags a turn by at most this much.
# My games, the list itself, counts its own rows and sets it (games/online/my_games.py).
YOUR_TURNS_SECONDS = 20
# A link's QR code never changes; the bound only lets codes of links nobody opens go.
QR_SECONDS = 24 * 60 * 60

# The templates' `{% cache seconds name vary… %}` blocks: the name, what the block holds
# and what its vary-on values are (tests/site/test_cache.py checks the templates name no
# other). Django builds their keys; Python that reads one uses `fragment`.
FRAGMENTS = {
    "base_head": "base.html's links to the stylesheet, scripts and icons: the static files' "
    "version (their manifest's hash)",
    "base_header": "base.html's header and menu up to the member's own links: the language, "
    "the count of games waiting",
    "base_footer": "base.html's footer after its CSRF field: the language",
    "online_game_rules": "an online game's rules (game.html): its public id, language",
    "my_games_lists": "the lists of My games: MyGames.key (everything they show)",
    "my_games_finished": "My games' finished list: Finished.key (the viewer's ranks)",
    "my_games_seats": "a game's seats in My games: Game.seats_key (version, language, zone)",
    "night_share_panel": "a night's share panel: public id, version, language, role, link",
    "night_co_scorer_fields": "the co-scorer form's empty fields: language",
    "night_variant": "a night's variant in words (share, TV): public id, language",
    "night_live": "the share page's scoreboard: public id, version, language",
    "night_tv": "the TV view's scoreboard: public id, version, language",
    "stats_summary": "a stats page's summary cards: stats_parts (the figures, viewer, prefix)",
    "stats_phases": "a stats page's nemesis and table of phases: stats_parts",
    "stats_rivals": "a stats page's head-to-head table: stats_parts",
    "stats_recent": "a stats page's recent games (the JSON links are the viewer's): stats_parts",
    "season_table": "a club season's league table (clubs/_season_table.html): season_table",
    "club_stats": "a club's stats page below its heading: clubs_parts (the figures, prefix)",
    "club_records": "a club page's records summary (clubs/_records.html): clubs_parts",
    "year_review": "a year in review's figures: clubs_parts (the figures, the page: own, "
    "shared or a club's)",
}


def csrf_cookie(request: HttpRequest) -> str | None:
    """What a kept part with forms is keyed by: a digest of the request's CSRF cookie
    (the secret is not written into keys), or None without a usable one — draw without
    keeping then. A token `get_token` gives is valid for every request with the same
    cookie; a missing or malformed cookie gets a new secret on each request (Django's
    CsrfViewMiddleware), so a token drawn for it would not be valid the next time."""
    cookie = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    if len(cookie) not in (CSRF_SECRET_LENGTH, 2 * CSRF_SECRET_LENGTH):
        return None
    if not set(cookie) <= _CSRF_CHARS:
        return None
    return _digest(cookie)


_CSRF_CHARS = frozenset(CSRF_ALLOWED_CHARS)


def _digest(value: object) -> str:
    return sha256(repr(value).encode()).hexdigest()[:32]


def board(game: Game, seat: Seat, *, sort: str, csrf: str, time_left: str) -> str:
    """An online seat's board in the active language, time zone and script prefix, with
    no place to move focus to (one with focus answers a move and is not kept). The seat
    is in the key, so a board (and the hand in it) is only served to its seat."""
    shown = (
        seat.position,
        seat.is_bot,
        seat.resigned,
        seat.muted,
        tuple(seat.chat_muted),
        get_language(),
        timezone.get_current_timezone_name(),  # the clock's deadline is local time
        sort,
        get_script_prefix(),
        csrf,
        time_left,
    )
    # public_id: never reused, unlike a primary key after a database reset.
    return f"board:{game.public_id}:{game.version}:{_digest(shown)}"


def seats(game: Game) -> str:
    """An online game's seats in order, each with its player, user and profile, for the
    pages that only show the game (`access.seating_to_show`). Every change they show
    bumps the version: a seat's flags, a player's name, away mode, a person's mute."""
    return f"seats:{game.public_id}:{game.version}"


def night_game(game: Game, *, can_edit: bool, with_ratings: bool, csrf: str) -> str:
    """A night's plain game.html (games/nights/page.py `game_html`) in the active
    language, as a scorer (`can_edit`) or a viewer sees it, with its rating changes
    (`with_ratings`, at the game's `ratings_version`) or without."""
    ratings = game.ratings_version if with_ratings else None
    shown = (get_language(), get_script_prefix(), can_edit, ratings, csrf)
    return f"night-game:2:{game.public_id}:{game.version}:{_digest(shown)}"


def night_ratings(game: Game) -> str:
    """A finished night's rating changes, in the active language: the ratings' run writes
    them after the game's end and moves its `ratings_version` on each time."""
    return (
        f"night-ratings:2:{game.public_id}:{game.version}:{game.ratings_version}:{get_language()}"
    )


def night_scoreboard(game: Game) -> str:
    """A night's latest `Scoreboard`. One entry per night, not per version: the value
    carries its version and a reader at a later one catches it up (nights/views.py).
    The 2 is the value's shape: its seats say who sits there, which one kept by an
    earlier release (in a shared cache) doesn't."""
    return f"night-scoreboard:2:{game.public_id}"


def night_rows(user_id: int, extent: tuple[int, int, int], page: str) -> str:
    """Page `page` (as asked for) of user `user_id`'s /nights/ at `extent`
    (nights/listing.py `_extent`: how many nights and the sums of their versions and ids)."""
    return f"night-rows:{user_id}:" + _digest((extent, page))


def night_card(public_id: str, version: int, language: str, zone: str) -> str:
    """A night's card in /nights/ (list.html's partial `card`), the same for everyone at
    a version, language and time zone (its date)."""
    return f"night-card:{public_id}:{version}:{language}:{zone}"


def night_items(cards: list[str], forms: list[tuple[object, ...]], csrf: str) -> str:
    """A page of /nights/ (list.html's partial `items`): the cards under `cards` (their
    keys) with the forms each offers (`forms`), for the requests with this CSRF cookie."""
    return "night-items:" + _digest((cards, forms, get_script_prefix(), csrf))


def my_games_rows(user_id: int, extent: tuple[object, ...]) -> str:
    """The rows of user `user_id`'s My games at `extent` (online/my_games.py `_extent`:
    their time zone and the count and sums of versions and ids of their online seats)."""
    return f"my-games-rows:{user_id}:" + _digest(extent)


def your_turns(user_id: int) -> str:
    """The count of online games waiting for user `user_id`, as the header shows it."""
    return f"your-turns:{user_id}"


def qr(url: str, title: str = "") -> str:
    """The QR code of `url` (a share link: its secret token is in it, hence the digest)
    with `title`."""
    return "qr:" + sha256(f"{url}\n{title}".encode()).hexdigest()[:32]


def score_chart(game: Game) -> str:
    """A game's score chart in the active language."""
    return f"score-chart:{game.public_id}:{game.version}:{get_language()}"


def player_figures(
    scope: Scope,
    extent: tuple[int, int, int],
    *,
    name: str,
    own: bool,
) -> str:
    """A stats page's figures (games/stats/page.py): those of `scope`'s player and
    filters over the games whose `extent` (figures.extent: how many, the sums of their
    versions and ids) it was counted at, the charts naming the player `name` (`own`: the
    viewer's page) in the active language and time zone (the win rate chart's dates).
    The last game, whose score is charted, is the latest of those games: the extent
    says which."""
    player = scope.player
    shown = (
        None if player is None else (player.pk, player.created_at.isoformat()),
        scope.mode,
        scope.period,
        scope.variant,
        scope.window,
        extent,
        name,
        own,
        get_language(),
        timezone.get_current_timezone_name(),
    )
    return "player-figures:" + _digest(shown)


def stats_parts(figures: str, viewer: Player) -> str:
    """What a stats page's `{% cache %}` blocks vary on (FRAGMENTS `stats_*`): the page's
    figures (their `player_figures` key, which has the language and time zone), the
    viewer (whose games have a JSON link in the recent ones) and the script prefix."""
    return _digest((figures, viewer.pk, get_script_prefix()))


def season_table(club: Club, season: Season, extent: tuple[int, int, int] | None) -> str:
    """What a club season's league table block varies on (FRAGMENTS `season_table`): the
    club's version (its seasons' settings and closing move it on), the `extent` of the
    club's games finished in the season (access.games_extent: a finished game, a
    correction, a claimed guest or a renamed player moves it; None once the season is
    closed and its table kept), the season, the language and time zone, the script prefix."""
    shown = (
        club.public_id,
        club.version,
        season.pk,
        extent,
        get_language(),
        timezone.get_current_timezone_name(),
        get_script_prefix(),
    )
    return "season-table:" + _digest(shown)


def club_records(club: Club, extent: tuple[int, int, int]) -> str:
    """A club's stats page's figures (games/clubs/records.py `ClubFigures`): the club at
    its version (who the members are) over its finished games at `extent`
    (access.games_extent). Data, not words: the same in every language. The 2, here and
    in `person_year` and `club_year`, is the value's shape: its games carry the day they
    were created (a night without a name is called by it), which one kept by an earlier
    release (in a shared cache) doesn't."""
    return f"club-records:2:{club.public_id}:{club.version}:{_digest(extent)}"


def person_year(player: Player, year: int, extent: tuple[object, ...]) -> str:
    """A member's year in review's figures (games/clubs/year.py `PersonYear`): `player`'s
    finished games of `year` at `extent` (their count, versions, ids and ratings run)."""
    shown = (player.pk, player.created_at.isoformat(), year, extent)
    return "person-year:2:" + _digest(shown)


def club_year(club: Club, year: int) -> str:
    """A club's year in review's figures (games/clubs/year.py `ClubYear`): the club at its
    version, which moves on with any change to its games (games/scoring.py `bump_club`)
    and to their ratings (games/stats/rating_ledger.py), in `year`. The 3 is the value's
    shape (`club_records`'s 2) and the key's (no games' extent)."""
    return f"club-year:3:{club.public_id}:{club.version}:{year}"


def clubs_parts(figures: str, *shown: object) -> str:
    """What the clubs' kept HTML varies on (FRAGMENTS `club_*`, `year_review`): the
    figures' key, what else the page shows (`shown`: whose page, shared or not), the
    language, the time zone (dates) and the script prefix (links)."""
    return _digest(
        (figures, shown, get_language(), timezone.get_current_timezone_name(), get_script_prefix())
    )


def club_page(
    club: Club,
    *,
    today: object,
    admin: bool,
    link: str,
    csrf: str,
) -> str:
    """A club's page body as a member (`admin`: one of its admins, who gets the admin
    forms) sees it, with the forms' CSRF token for the requests with this cookie. The
    club's version moves on with its members, invitations, name, join link, seasons,
    with any change to any of its games (games/scoring.py `bump_club`) and with the
    ratings' run writing its members' ratings (games/stats/rating_ledger.py); `today`
    (the site's date) moves the season and the year in review it points to; the dates
    are shown in the time zone. `link` is the join link as shown (its host and token).
    The 2 is the key's shape: it no longer carries the games' extent."""
    shown = (
        today,
        admin,
        link,
        get_language(),
        timezone.get_current_timezone_name(),
        get_script_prefix(),
        csrf,
    )
    return f"club-page:2:{club.public_id}:{club.version}:{_digest(shown)}"


def fragment(name: str, *vary: object) -> str:
    """The key Django gives the template block `{% cache … name *vary %}` (`FRAGMENTS`)."""
    if name not in FRAGMENTS:
        raise KeyError(name)
    return make_template_fragment_key(name, list(vary))
