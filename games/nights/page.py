"""What a game night's page draws: the context of its Jinja2 partials
(games/jinja2/games/nights/). `game.html` is the night's game (its scoreboard, the form
that comes next, the rounds): what a round's answer swaps in, drawn on every round
entered, hence Jinja2 (phase10site/jinja.py). The share page, the TV view, a round's
page and a correction's page (Django's templates) draw their parts of it with
`{% jinja %}`, from a context made here too (the entry panel's forms: entry_forms.py).

The partials' words are literals, but a sentence that counts (ngettext) or lists names
is made here (`WORDS`), where makemessages reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any
from urllib.parse import quote

from django.core.cache import cache
from django.http import HttpRequest
from django.template import engines
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils.safestring import SafeString
from django.utils.text import Truncator
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from markupsafe import Markup

from phase10site.jinja import Keep, render

from .. import cache_keys
from ..engine.phases import TIEBREAK_PHASE
from ..models import Game
from ..stats import charts
from ..templatetags import rating_tags
from ..templatetags.bidi import bdi, bdi_names
from ..words import phase_goal_words
from . import entry_forms
from .corrections import Correction, Kind
from .forms import NightRoundForm, NightTiebreakForm
from .scoreboard import Scoreboard, ScoreboardRound, ScoreboardSeat

GAME = "games/nights/game.html"
ROUND_FORM = "games/nights/round_form.html"


# --- words ----------------------------------------------------------------------------------


def _sentence(translated: str, **values: object) -> Markup:
    """A translated sentence with its values put in, as `{% blocktranslate %}` puts them:
    the values escaped, the words as the catalogue has them."""
    return Markup(translated) % values


class NightWords:
    """The sentences of a night's partials that count or list names (`words` in their
    context); the plain ones are `_("…")` literals in the partials."""

    @staticmethod
    def names(seats: Iterable[ScoreboardSeat]) -> SafeString:
        """'Ann and Bo', 'Ann, Bo and Cy', each name in <bdi>."""
        return bdi_names(seat.name for seat in seats)

    def result(self, board: Scoreboard) -> Markup:
        """Who won a finished night: "Ann wins after 12 rounds!"; "Ann and Bo won." for
        a night imported with its final scores only."""
        if board.rounds_unknown:
            winners = len(board.leaders)
            return _sentence(
                ngettext("%(names)s won.", "%(names)s won.", winners),
                names=self.names(board.leaders),
                winners=winners,
            )
        rounds = len(board.rounds)
        return _sentence(
            ngettext(
                "%(name)s wins after %(rounds)s round!",
                "%(name)s wins after %(rounds)s rounds!",
                rounds,
            ),
            name=bdi(board.winner.name) if board.winner else "",
            rounds=rounds,
        )

    def tied(self, board: Scoreboard) -> Markup:
        total = board.tied[0].total
        return _sentence(
            ngettext(
                "%(names)s are tied on %(total)s point.",
                "%(names)s are tied on %(total)s points.",
                total,
            ),
            names=self.names(board.tied),
            total=total,
        )

    def outcome(self, board: Scoreboard) -> Markup:
        """Where a night stands, in a sentence or two: a correction's "now" and
        "afterwards"."""
        if board.is_over:
            said = self.result(board)
            if board.decided_by_tiebreak:
                said += " " + Markup(_("Decided by the tie-breaker round."))
            return said
        if board.tiebreak_needed:
            return self.tied(board) + " " + Markup(_("They play a tie-breaker round."))
        return _sentence(_("The game goes on with round %(number)s."), number=board.round_number)

    @staticmethod
    def phases(board: Scoreboard, seat: ScoreboardSeat) -> Markup:
        """How many phases a seat has done: laid, in pick-a-phase; done, once the night
        is over."""
        done, total = len(seat.completed), len(board.rules.phases)
        if board.rules.pick_a_phase:
            translated = ngettext(
                "%(done)s of %(total)s phase", "%(done)s of %(total)s phases", total
            )
        else:
            translated = ngettext(
                "%(done)s of %(total)s phase done", "%(done)s of %(total)s phases done", total
            )
        return _sentence(translated, done=done, total=total)

    @staticmethod
    def goal(number: int | None) -> str:
        return phase_goal_words(number)

    @staticmethod
    def tiebreak_goal() -> str:
        return phase_goal_words(TIEBREAK_PHASE)

    @staticmethod
    def short(name: str) -> str:
        """A name in a narrow column (the rounds' table): seven characters at most."""
        return _short(name, get_language())


WORDS = NightWords()


@lru_cache(maxsize=4096)
def _short(name: str, _language: str) -> str:
    # The ellipsis is a word of the language ("…").
    return Truncator(name).chars(7)


# --- parts drawn once -----------------------------------------------------------------------

# A round's row of the rounds' table (history.html), drawn from Python for each round not
# drawn yet: the rows a night's answer shows are looked up in a loop here, not by a call
# of the partial's for each (a night runs to thirty rounds).
ROW = "games/nights/history_row.html"


class Kept(Keep):
    """`keep` in a night partial's context (phase10site/jinja.py: parts drawn once per
    process for everything they show), with the rounds' rows."""

    def rows(self, rounds: Iterable[ScoreboardRound], urls: NightUrls | None) -> Markup:
        """The rounds' rows (history_row.html), each drawn once per round and content,
        with its correction link given `urls` (a scorer's)."""
        row = engines["jinja2"].env.get_template(ROW).module.row  # type: ignore[attr-defined]
        public_id = "" if urls is None else urls.public_id
        drawn = [
            self(ROW, round_, public_id, caller=partial(_row, row, round_, urls))
            for round_ in rounds
        ]
        return Markup("".join(drawn))


def _row(row: Callable[..., Markup], round_: ScoreboardRound, urls: NightUrls | None) -> Markup:
    return row(round_, "" if urls is None else urls.edit(round_.number))


def parts() -> dict[str, Any]:
    """What every night partial takes besides its data: `words` and `keep`."""
    return {"words": WORDS, "keep": Kept()}


# --- addresses ------------------------------------------------------------------------------


@dataclass(frozen=True)
class NightUrls:
    public_id: str
    page: str
    add_round: str
    queued: str
    tiebreak: str
    undo: str
    rematch: str
    log_in: str

    def edit(self, number: int) -> str:
        return _edit_url(self.public_id, number, get_script_prefix())


def night_urls(game: Game) -> NightUrls:
    return _night_urls(game.public_id, get_script_prefix())


@lru_cache(maxsize=1024)
def _night_urls(public_id: str, _prefix: str) -> NightUrls:
    # The script prefix is part of the key: reverse() puts it in front.
    def url(name: str) -> str:
        return reverse(f"games:{name}", args=[public_id])

    page = url("night_detail")
    return NightUrls(
        public_id=public_id,
        page=page,
        add_round=url("night_add_round"),
        queued=url("night_queued_round"),
        tiebreak=url("night_tiebreak"),
        undo=url("night_undo"),
        rematch=url("night_rematch"),
        log_in=f"{reverse('accounts:login')}?next={quote(page, safe='/')}",
    )


@lru_cache(maxsize=8192)
def _edit_url(public_id: str, number: int, _prefix: str) -> str:
    return reverse("games:night_edit_round", args=[public_id, number])


def _form_url(urls: NightUrls, form: NightRoundForm) -> str:
    """Where a round's form posts: a correction to its round, a new round to the rounds."""
    return urls.edit(form.number) if form.is_edit else urls.add_round


# --- the game -------------------------------------------------------------------------------


def game_context(
    game: Game,
    board: Scoreboard,
    *,
    can_edit: bool,
    form: NightRoundForm | None = None,
    tiebreak: NightTiebreakForm | None = None,
    notice: str = "",
    level: str = "",
    saved: int = 0,
    confirming: dict[str, Any] | None = None,
    with_ratings: bool = False,
    history_kept: bool = False,
) -> dict[str, Any]:
    """What game.html draws. `form`: a round's form sent back (refused) or opened for a
    correction; `confirming`: a correction's panel (`correction_context`);
    `with_ratings`: a finished night's page, which shows its rating changes; `history_kept`:
    the rounds' table before the last round is on the page already (an htmx answer to a
    new round, `saved`), which gets only that round's row and the totals. The parts
    that take work (the entry panel's forms, the rating changes, the chart) are added by
    `game_html` only when it draws the game, not when it finds it kept."""
    return {
        "game": game,
        "board": board,
        "can_edit": can_edit,
        "notice": notice,
        "level": level,
        "saved": saved,
        **parts(),
        "urls": night_urls(game),
        "form": form,
        "tiebreak": tiebreak,
        "with_ratings": with_ratings,
        "history_kept": history_kept,
        **(confirming or {}),
        # The game as everyone of the same role sees it at its version: drawn once.
        "plain": not (notice or saved or form or tiebreak or confirming),
    }


def _drawn_parts(context: dict[str, Any]) -> dict[str, Any]:
    """What game.html needs besides `game_context`'s, made when it is drawn: only the
    forms the page shows (none to enter a round once the rounds are over), a finished
    night's rating changes and its chart."""
    game, board, form, urls = context["game"], context["board"], context["form"], context["urls"]
    drawn: dict[str, Any] = {}
    if context["can_edit"]:
        if form is not None:
            drawn["round_form"] = entry_forms.bound_round_form(form, _form_url(urls, form))
        elif not board.rounds_over:
            drawn["round_form"] = entry_forms.new_round_form(board, urls.add_round)
        if board.tiebreak_needed:
            drawn["tiebreak_form"] = entry_forms.tiebreak_form(board, context["tiebreak"])
    if context["with_ratings"]:
        drawn["ratings"] = _rating_changes(game)
    if board.is_over and board.rounds:
        drawn["chart"] = charts.score_chart_svg(game)
    return drawn


def game_html(request: HttpRequest, context: dict[str, Any]) -> SafeString:
    """game.html drawn for `context` (`game_context`'s). A plain one, the game as everyone
    of the same role sees it at its version (no notice, no round saved just now, no form
    sent back, no correction), is kept per version, language, role and CSRF cookie
    (games/cache_keys.py `night_game`): its forms hold the token of the request that drew
    it, valid for every request with that cookie."""
    csrf = cache_keys.csrf_cookie(request)
    if not context["plain"] or csrf is None:
        return render(GAME, {**context, **_drawn_parts(context)}, request)
    key = cache_keys.night_game(
        context["game"],
        can_edit=context["can_edit"],
        with_ratings=context["with_ratings"],
        csrf=csrf,
    )
    html: str | None = cache.get(key)
    if html is None:
        html = str(render(GAME, {**context, **_drawn_parts(context)}, request))
        cache.set(key, html, cache_keys.VERSION_SECONDS)
    return SafeString(html)


def _rating_changes(game: Game) -> SafeString:
    """A finished night's rating changes: drawn once per version and `ratings_version`
    (the ratings move after the game's end, by a task that moves it on)."""
    key = cache_keys.night_ratings(game)
    html = cache.get(key)
    if html is None:
        html = render_to_string("games/stats/rating_changes.html", rating_tags.rating_changes(game))
        cache.set(key, str(html), cache_keys.VERSION_SECONDS)
    return SafeString(html)


# --- a round's page, a correction ------------------------------------------------------------


def round_context(game: Game, board: Scoreboard, form: NightRoundForm) -> dict[str, Any]:
    """What round_form.html draws for a round opened on its own (round.html, or the
    entry panel an htmx request opens in the page)."""
    return {
        "game": game,
        "board": board,
        "form": form,
        "round_form": entry_forms.bound_round_form(form, _form_url(night_urls(game), form)),
        **parts(),
    }


def correction_context(
    game: Game, correction: Correction, url: str, carried: Sequence[tuple[str, str]]
) -> dict[str, Any]:
    """What correction.html (the panel) draws: the correction, what it would change in
    words, and the form that confirms it with the same values (`carried`)."""
    if correction.kind == Kind.EDIT:
        heading = _sentence(_("Check the correction of round %(number)s"), number=correction.number)
    elif correction.kind == Kind.UNDO_ROUND:
        heading = _sentence(_("Undo round %(number)s?"), number=correction.number)
    else:
        heading = Markup(_("Undo the tie-breaker result?"))
    return {
        "game": game,
        "correction": correction,
        "correction_url": url,
        "carried": list(carried),
        "correction_heading": heading,
        **parts(),
    }
