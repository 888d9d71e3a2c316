"""Template filters over `games.words`: phase goals, a game's variant and its options,
a night's name."""

from django import template
from django.utils.translation import gettext as _

from games.engine import Rules
from games.models import Game
from games.scoring import game_rules
from games.words import (
    night_title,
    rules_words,
    time_limit_words,
    variant_words,
)

register = template.Library()


@register.filter
def variant(rules: Rules) -> str:
    return variant_words(rules)


# Where the rules page (templates/rules/<language>.html) explains each line of `rule_lines`.
RULE_ANCHORS = (
    "option-phases",
    "option-moving-on",
    "option-natural-card",
    "option-hitting",
    "option-going-out",
    "option-skip",
    "option-time-limit",
)


@register.filter
def rule_lines(game: Game) -> list[tuple[str, str, str]]:
    """An online game's options as (option, choice, anchor on the rules page) lines, its
    time limit per turn last."""
    lines = [*rules_words(game_rules(game))]
    lines.append((_("Time limit per turn"), time_limit_words(game.time_limit)))
    return [
        (option, choice, anchor)
        for (option, choice), anchor in zip(lines, RULE_ANCHORS, strict=True)
    ]


@register.filter
def night_name(game: Game) -> str:
    """The game's name, or its date when the scorer didn't give one."""
    return night_title(str(game.name), game.created_at)
