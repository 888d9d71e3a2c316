"""Every word the app says about the game, in one place: card names, phase goals, groups,
a game's variant, the move log's sentences and the engine's refusals, translated.

The online board, the game-night pages and the emails all take their words from here,
so "red 7", "a set of 3 + a run of 4" and "bob laid down phase 2" read the same everywhere.
Functions that run on every board render are cached per language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language, get_language_bidi, ngettext, pgettext
from django.utils.translation import gettext as _

from .engine import Card, RuleError, Rules, phase_goal_text
from .engine.phases import GOALS

# Shapes as well as colours, so colour is never the only clue.
COLOUR_SYMBOLS = {"R": "◆", "B": "●", "G": "▲", "Y": "★"}


# --- phases and variants ------------------------------------------------------------------


def phase_goal_words(number: int | None) -> str:
    """The goal of phase `number` ("a set of 3 + a run of 4"), or "" for no phase."""
    if number not in GOALS:
        return ""
    return _phase_goal_words(number, get_language())


@lru_cache(maxsize=256)
def _phase_goal_words(number: int, language: str) -> str:
    # The size counts cards ("sada 3 kariet", "مجموعة من 3 أوراق"): a plural, even where
    # English needs no noun.
    words = {
        "set": lambda size: ngettext("a set of %(n)s", "a set of %(n)s", size) % {"n": size},
        "run": lambda size: ngettext("a run of %(n)s", "a run of %(n)s", size) % {"n": size},
        "colour": lambda size: (
            ngettext("%(n)s card of one colour", "%(n)s cards of one colour", size) % {"n": size}
        ),
    }
    return " + ".join(words[kind](size) for kind, size in phase_goal_text(number))


def phase_list_words(phases: Sequence[int]) -> str:
    """ "All ten phases", "Even phases", "Phases 1, 3, 7, 10"."""
    named = {
        tuple(range(1, 11)): _("All ten phases"),
        (1, 2, 3, 4, 5): _("First five phases"),
        (1, 2, 3, 4, 5, 6, 7, 8): _("First eight phases"),
        (2, 4, 6, 8, 10): _("Even phases"),
        (1, 3, 5, 7, 9): _("Odd phases"),
    }
    separator = pgettext("between the numbers of a list", ", ")  # Arabic: "، "
    return named.get(tuple(phases)) or _("Phases %(list)s") % {
        "list": separator.join(str(phase) for phase in phases)
    }


def variant_words(rules: Rules) -> str:
    """'All ten phases', 'Phases 1–5 · everyone moves on', …"""
    text = phase_list_words(rules.phases)
    if rules.all_advance:
        text = _("%(phases)s · everyone moves on every round") % {"phases": text}
    elif rules.pick_a_phase:
        text = _("%(phases)s · pick a phase") % {"phases": text}
    return text


def rules_words(rules: Rules) -> list[tuple[str, str]]:
    """Every option of a game as (option, choice) lines, the standard choice marked, for
    the pages that show a game's own rules (lobby, join page, table, game night).

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     rules_words(Rules(skip_target="choose"))[-1]
    ('A Skip skips', 'A player the discarder chooses')
    """
    if rules.all_advance:
        moving_on = _("Everyone moves on every round")
    elif rules.pick_a_phase:
        moving_on = _("Pick any phase not done yet")
    else:
        moving_on = _("Complete your phase to move on")
    return [
        (_("Phases"), phase_list_words(rules.phases)),
        (_("Moving on"), moving_on),
        (
            _("Natural (non-Wild) cards needed"),
            _("One in every group")
            if rules.natural_card == "group"
            else _("One in the phase (standard)"),
        ),
        (
            pgettext("game option", "Hitting"),
            _("Any group, already in the turn you lay down")
            if rules.hit_others_same_turn
            else _("Others' groups from your next turn on (standard)"),
        ),
        (
            pgettext("game option", "Going out"),
            _("Discard or hit your last card")
            if rules.go_out_by_hitting
            else _("Discard your last card (standard)"),
        ),
        (
            _("A Skip skips"),
            _("A player the discarder chooses")
            if rules.skip_target == "choose"
            else _("The next player (standard)"),
        ),
    ]


# --- turn time limits ---------------------------------------------------------------------


def duration_words(length: timedelta) -> str:
    """A length of time in its two largest units, as a clock would say it:
    "1 day, 3 hours", "20 hours, 14 minutes", "2 days" (a zero unit is left out).
    Rounded down to the minute; under a minute, "less than a minute".

    `static/js/clock.js` says the same with the browser's `Intl.DurationFormat`, so the
    words don't jump when it takes over (the separators per language are chosen to match).
    """
    minutes = int(length.total_seconds()) // 60
    days, hours, minutes = minutes // 1440, minutes // 60 % 24, minutes % 60
    units = [
        ngettext("%(count)s day", "%(count)s days", days) % {"count": days},
        ngettext("%(count)s hour", "%(count)s hours", hours) % {"count": hours},
        ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes},
    ]
    counts = [days, hours, minutes]
    first = next((index for index, count in enumerate(counts) if count), None)
    if first is None:
        return _("less than a minute")
    if first == 2 or not counts[first + 1]:
        return units[first]
    return pgettext("two units of time", "%(larger)s, %(smaller)s") % {
        "larger": units[first],
        "smaller": units[first + 1],
    }


def time_limit_words(limit: timedelta | None) -> str:
    """A game's time limit per turn: "1 day", "12 hours", or "None"."""
    return duration_words(limit) if limit else _("None")


def time_left_words(left: timedelta) -> str:
    """What is left of a turn's time: "3 hours, 5 minutes", or "time is up"."""
    if left.total_seconds() <= 0:
        return _("time is up")
    return duration_words(left)


def away_words(until: datetime, now: datetime | None = None) -> str:
    """Beside an away player's name: "away until Friday" within the week, else "away
    until 14 December" — the day their away ends on, in the viewer's time zone."""
    now = now or timezone.now()
    # `until` is the midnight after their last day away: name that last day.
    last = timezone.localtime(until - timedelta(seconds=1))
    if last.date() - timezone.localtime(now).date() < timedelta(days=7):
        day = date_format(last, "l")
    else:
        day = date_format(last, "MONTH_DAY_FORMAT")
    return _("away until %(day)s") % {"day": day}


# --- cards and groups ---------------------------------------------------------------------


def colour_words() -> dict[str, tuple[str, str]]:
    """Colour code -> (name, initial); the initial is translated to match the name."""
    return {
        "R": (_("red"), pgettext("initial of red", "R")),
        "B": (_("blue"), pgettext("initial of blue", "B")),
        "G": (_("green"), pgettext("initial of green", "G")),
        "Y": (_("yellow"), pgettext("initial of yellow", "Y")),
    }


def card_face(code: str) -> dict[str, Any]:
    """What it takes to draw card `code`: its code, big number or letter, colour class,
    colour initial and symbol, and spoken name ("red 7"). Cached per language: a board
    shows dozens of cards on every poll."""
    return _card_face(code, get_language())


@lru_cache(maxsize=2048)
def _card_face(code: str, language: str) -> dict[str, Any]:
    card = Card.parse(code)
    # The big letter is the initial of the card's name in the language ("J" for Jokeri).
    if card.is_wild:
        big = pgettext("Wild card letter", "W")
        return {"code": code, "big": big, "mark": "✦", "colour": "wild", "name": _("Wild")}
    if card.is_skip:
        big = pgettext("Skip card letter", "S")
        return {"code": code, "big": big, "mark": "⊘", "colour": "skip", "name": _("Skip")}
    name, initial = colour_words()[card.colour or "R"]
    return {
        "code": code,
        "big": str(card.number),
        "mark": f"{initial}{COLOUR_SYMBOLS[card.colour or 'R']}",
        "colour": card.colour,
        "name": _("%(colour)s %(number)s") % {"colour": name, "number": card.number},
    }


def card_name(code: str | None) -> str:
    """ "R7" -> "red 7", in the active language ("" for no card)."""
    return str(card_face(code)["name"]) if code else ""


def group_words(
    kind: str, *, number: int | None, colour: str | None, low: int | None, size: int
) -> str:
    """A laid group in words: "set of 7s", "red group", "run 3–8"."""
    if kind == "set":
        if number is None:
            return _("set of Wilds")
        return _("set of %(number)ss") % {"number": number}
    if kind == "colour":
        if colour is None:
            return _("colour group of Wilds")
        return _("%(colour)s group") % {"colour": colour_words()[colour][0]}
    if low is None:
        return _("run of Wilds")
    return _("run %(low)s–%(high)s") % {"low": low, "high": low + size - 1}


def group_label(group_text: str, *, mine: bool, owner: str, end: str | None) -> str:
    """Where a hit would go: "your set of 7s", "bob's run 3–8, high end"."""
    whose = _("your") if mine else _("%(name)s's") % {"name": owner}
    label = _("%(owner)s %(group)s") % {"owner": whose, "group": group_text}
    if end == "low":
        return _("%(group)s, low end") % {"group": label}
    if end == "high":
        return _("%(group)s, high end") % {"group": label}
    return label


# --- the move log -------------------------------------------------------------------------


def names_words(names: Sequence[str]) -> str:
    """'Ann and Bo', 'Ann, Bo and Cy'."""
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def isolated(name: str) -> str:
    """A name someone chose, for a sentence in a right-to-left language: between FSI and
    PDI (invisible), so a Latin name, or one ending in digits or punctuation, keeps its
    own direction and doesn't reorder the Arabic words around it. Unchanged otherwise."""
    return f"\u2068{name}\u2069" if get_language_bidi() else name


def right_to_left_lines(text: str) -> str:
    """A plain-text email's body, each line starting with a right-to-left mark in a
    right-to-left language: mail clients lay out each line by its first letter, so a
    line that starts with a Latin name, a number or a link would read left to right.
    The signature's "--" is left as it is, for the clients that look for it.
    Unchanged in other languages."""
    if not get_language_bidi():
        return text
    return "\n".join(
        f"\u200f{line}" if line.strip() and line != "--" else line for line in text.split("\n")
    )


def move_line(data: Mapping[str, Any], seat: int, names: Sequence[str]) -> str:
    """One logged move as the board's recent-turns line ("bob discarded red 7")."""
    notes = data.get("log", {})
    if get_language_bidi():  # as `isolated` does, asking once rather than per name
        names = [isolated(name) for name in names]
    name = names[seat] if seat < len(names) else "?"
    kind = data.get("type")
    if kind == "draw" and data.get("from_discard"):
        text = _("%(name)s took %(card)s from the discard pile") % {
            "name": name,
            "card": card_name(notes["card"]) if notes.get("card") else _("a card"),
        }
    elif kind == "draw":
        text = _("%(name)s drew from the draw pile") % {"name": name}
    elif kind == "lay_down":
        text = _("%(name)s laid down phase %(phase)s") % {
            "name": name,
            "phase": notes.get("phase") or data.get("phase") or "?",
        }
    elif kind == "hit":
        owner = data.get("seat", 0)
        text = _("%(name)s hit %(card)s on %(owner)s's group") % {
            "name": name,
            "card": card_name(data["card"]),
            "owner": names[owner] if owner < len(names) else "?",
        }
    else:
        text = _("%(name)s discarded %(card)s") % {"name": name, "card": card_name(data["card"])}
        if "skipped" in notes and notes["skipped"] < len(names):
            text = _("%(name)s discarded a Skip: %(skipped)s loses a turn") % {
                "name": name,
                "skipped": names[notes["skipped"]],
            }
    if notes.get("went_out"):
        text = _("%(action)s and went out") % {"action": text}
    return text


def own_move_sentence(
    data: Mapping[str, Any], seat: int, names: Sequence[str], *, drawn: str | None = None
) -> str:
    """One of the player's own moves as the page's live region says it, in words (never
    the card's symbols): "You discarded blue 6.", "You drew blue 6." (`drawn`: the card
    drawn from the pile, which only the drawer's view knows)."""
    notes = data.get("log", {})
    kind = data.get("type")
    if kind == "draw" and data.get("from_discard") and notes.get("card"):
        text = _("You took %(card)s from the discard pile.") % {"card": card_name(notes["card"])}
    elif kind == "draw" and drawn:
        text = _("You drew %(card)s.") % {"card": card_name(drawn)}
    elif kind == "draw":
        text = _("You drew a card.")
    elif kind == "lay_down":
        text = _("You laid down phase %(phase)s.") % {
            "phase": notes.get("phase") or data.get("phase") or "?"
        }
    elif kind == "hit":
        owner = data.get("seat", 0)
        if owner == seat:
            text = _("You hit %(card)s on your own group.") % {"card": card_name(data["card"])}
        else:
            text = _("You hit %(card)s on the group of %(owner)s.") % {
                "card": card_name(data["card"]),
                "owner": isolated(names[owner]) if owner < len(names) else "?",
            }
    elif "skipped" in notes and notes["skipped"] < len(names):
        text = _("You discarded a Skip: %(name)s loses a turn.") % {
            "name": isolated(names[notes["skipped"]])
        }
    else:
        text = _("You discarded %(card)s.") % {"card": card_name(data["card"])}
    if notes.get("went_out"):
        text = pgettext("after the move that emptied the hand", "%(move)s You went out.") % {
            "move": text
        }
    return text


def move_news(
    data: Mapping[str, Any],
    seat: int,
    *,
    reader: int,
    names: Mapping[int, str],
    timed_out: bool,
) -> tuple[list[str], bool]:
    """One logged move told to the player at seat `reader` (the your-turn email's
    "what happened since your last turn"), and whether it skipped them. `timed_out`:
    a person's turn was finished by the time limit."""
    names = {position: isolated(each) for position, each in names.items()}
    name = names.get(seat, "?")
    notes = data.get("log") or {}
    news: list[str] = []
    skipped = False
    if timed_out:
        news.append(_("%(name)s's time ran out: their turn was played for them.") % {"name": name})
    if data.get("type") == "lay_down":
        phase = notes.get("phase") or data.get("phase")
        news.append(
            _("%(name)s laid down phase %(phase)s.") % {"name": name, "phase": phase}
            if phase
            else _("%(name)s laid down their phase.") % {"name": name}
        )
    elif data.get("type") == "hit":
        card = card_name(data.get("card"))
        owner = data.get("seat")
        if owner == reader:
            text = _("%(name)s hit %(card)s on your group.")
        elif owner == seat:
            text = _("%(name)s hit %(card)s on their own group.")
        else:
            text = _("%(name)s hit %(card)s on a group of %(owner)s.")
        news.append(text % {"name": name, "card": card, "owner": names.get(owner or 0, "?")})
    if "skipped" in notes:
        if notes["skipped"] == reader:
            skipped = True
            news.append(_("%(name)s skipped you.") % {"name": name})
        else:
            news.append(
                _("%(name)s skipped %(other)s.")
                % {"name": name, "other": names.get(notes["skipped"], "?")}
            )
    if notes.get("went_out"):
        news.append(
            _("%(name)s went out: round %(round)s is over.")
            % {"name": name, "round": notes.get("round_over")}
        )
    elif "round_over" in notes:
        news.append(_("Round %(round)s is over.") % {"round": notes["round_over"]})
    return news, skipped


def more_moves(count: int) -> str:
    return ngettext("…and %(count)s more move.", "…and %(count)s more moves.", count) % {
        "count": count
    }


# --- the engine's refusals ----------------------------------------------------------------


def move_refusal(error: RuleError) -> str:
    """A translated sentence for a move the engine refused (its own text is English)."""
    messages = {
        "game_over": _("The game is over."),
        "already_drawn": _("You have already drawn this turn."),
        "discard_empty": _("The discard pile is empty."),
        "skip_from_discard": _("A Skip can never be taken from the discard pile."),
        "draw_pile_empty": _("The draw pile is empty: take the top discard."),
        "draw_first": _("Draw a card first."),
        "already_laid": _("You have already laid down your phase this round."),
        "cards_not_in_hand": _("You don't have all those cards in your hand."),
        "card_not_in_hand": _("That card isn't in your hand."),
        "keep_a_card": _("You must keep a card to discard."),
        "wrong_phase": _("Those groups aren't the phase you are on."),
        "no_phase": _("You have no phase left to lay down."),
        "no_phase_made": _("Those groups don't make any phase you still need."),
        "phase_needed": _("Say which phase you are laying down: those groups make more than one."),
        "hit_before_laying": _("You can hit only after laying down your phase."),
        "no_such_group": _("That group isn't on the table."),
        "hit_others_same_turn": _(
            "In the turn you lay down your phase you may hit only your own groups."
        ),
        "skip_without_skip": _("Only a Skip card skips a player."),
        "skip_next_only": _("In this game a Skip always skips the next player."),
        "skip_target": _("That player can't be skipped."),
        "skip_target_needed": _("Say which player to skip."),
        "hit_does_not_fit": _("That card doesn't fit on that group."),
        "hit_needs_end": _("Say which end of the run the card goes on."),
        "group_empty": _("A group needs at least one card."),
        "group_has_skip": _("Skip cards can't be part of any group."),
        "set_mixed": _("All the cards of a set must have the same number."),
        "colour_mixed": _("All the cards of a colour group must have the same colour."),
        "run_too_long": _("A run can't be longer than 12 cards."),
        "run_not_consecutive": _("A run's cards must be consecutive numbers."),
        "run_below_1": _("A run can't go below 1."),
        "run_above_12": _("A run can't go above 12."),
        "phase_group_count": _("That is the wrong number of groups for your phase."),
        "group_too_small": _("A group has too few cards for your phase."),
        "natural_card": _("Your phase needs at least one natural (non-Wild) card."),
    }
    return messages.get(error.code) or _("That isn't allowed: %(reason)s") % {"reason": error}


def round_refusal(error: RuleError, name: str) -> str:
    """A translated sentence for a game-night round the engine refused; `name` is the
    player it is about, so the scorer reads names, not seat numbers."""
    params = getattr(error, "params", {})
    values = {
        "name": isolated(name),
        "phase": params.get("phase", ""),
        "current": params.get("current", ""),
        "most": params.get("most", ""),
    }
    messages = {
        "went_out_without_phase": _(
            "%(name)s went out, so they must have completed their phase this round."
        ),
        "went_out_points": _("%(name)s went out, so they score 0 this round."),
        "went_out_seat": _("Choose the player who went out."),
        "points_value": _("The points of %(name)s must be a multiple of 5 from 0 to %(most)s."),
        "points_count": _("Enter points for every player."),
        "phase_already_completed": _("%(name)s has already completed phase %(phase)s."),
        "wrong_phase": _("%(name)s was on phase %(current)s, not phase %(phase)s."),
        "phase_not_played": _("Phase %(phase)s isn't left for %(name)s to complete."),
        "completed_seat": _("A completed phase belongs to a player who isn't in this game."),
        "game_over": _("The game was already over."),
        "tiebreak_due": _("A tie-breaker round is due: record who won it instead."),
        "no_tiebreak": _("No tie-breaker round is due."),
        "not_in_tiebreak": _("Only the tied players play the tie-breaker."),
        "player_count": _("A game night needs 2 to 6 players."),
        "bad_dealer": _("The first dealer must be one of the players."),
    }
    message = messages.get(error.code)
    if message is None:
        return _("That doesn't fit the rules: %(reason)s") % {"reason": str(error)}
    return message % values


def night_title(name: str, created_at: datetime) -> str:
    """A game night's name, or its day when the scorer didn't give one (every list that
    names a night: the template filter `night_name`, the clubs' records)."""
    if name:
        return name
    return _("Game night of %(date)s") % {"date": date_format(created_at, "DATE_FORMAT")}
