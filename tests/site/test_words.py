"""The words of games/words.py and the pages in every language: counted nouns take the
plural the number wants, ambiguous English strings have a context, times and dates read
as a speaker would say them."""

import doctest
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from games import words
from games.engine import Rules

pytestmark = pytest.mark.django_db


def test_the_docstring_examples_hold():
    result = doctest.testmod(words, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def say(language, function, *args):
    with translation.override(language):
        return function(*args)


def counted(language, singular, plural, numbers, **extra):
    with translation.override(language):
        return [
            translation.ngettext(singular, plural, n) % {"count": n, "score": n, **extra}
            for n in numbers
        ]


def test_a_counted_card_takes_the_plural_its_number_wants():
    assert counted("fi", "%(count)s card", "%(count)s cards", (1, 2)) == ["1 kortti", "2 korttia"]
    hint = (
        "Not yet: you need at least %(count)s more card.",
        "Not yet: you need at least %(count)s more cards.",
    )
    assert counted("fi", *hint, (1, 3)) == [
        "Ei vielä: tarvitset vielä vähintään 1 kortin.",
        "Ei vielä: tarvitset vielä vähintään 3 korttia.",
    ]
    assert counted("sk", *hint, (1, 3, 5)) == [
        "Ešte nie: potrebuješ ešte aspoň 1 kartu.",
        "Ešte nie: potrebuješ ešte aspoň 3 karty.",
        "Ešte nie: potrebuješ ešte aspoň 5 kariet.",
    ]
    assert counted("ar", *hint, (3,)) == ["ليس بعد: تحتاج إلى 3 أوراق إضافية على الأقل."]


def test_points_are_counted_too():
    points = ("%(score)s point", "%(score)s points")
    assert counted("fi", *points, (1, 10)) == ["1 piste", "10 pistettä"]
    assert counted("sk", *points, (1, 3, 10)) == ["1 bod", "3 body", "10 bodov"]
    assert counted("ar", *points, (2, 10, 25)) == ["نقطتان", "10 نقاط", "25 نقطة"]


def test_phase_goals_count_their_cards():
    assert say("sk", words.phase_goal_words, 2) == "sada 3 kariet + postupka 4 kariet"
    assert say("ar", words.phase_goal_words, 9) == "مجموعة من 5 أوراق + مجموعة من ورقتين"
    assert say("fi", words.phase_goal_words, 8) == "7 samanväristä korttia"
    assert say("en", words.phase_goal_words, 1) == "a set of 3 + a set of 3"


def test_the_wild_and_skip_cards_show_the_initial_of_their_name():
    faces = {
        language: (
            say(language, words.card_face, "W")["big"],
            say(language, words.card_face, "S")["big"],
        )
        for language in ("en", "fi", "tr", "da", "ar", "sk")
    }
    assert faces == {
        "en": ("W", "S"),
        "fi": ("J", "O"),
        "tr": ("J", "A"),
        "da": ("J", "S"),
        "ar": ("ج", "ت"),
        "sk": ("Ž", "S"),
    }


def test_every_option_of_a_game_is_said_and_the_standard_is_marked():
    standard = dict(say("en", words.rules_words, Rules()))
    assert list(standard) == [
        "Phases",
        "Moving on",
        "Natural (non-Wild) cards needed",
        "Hitting",
        "Going out",
        "A Skip skips",
    ]
    assert all("(standard)" in text for text in list(standard.values())[2:])
    picked = dict(say("en", words.rules_words, Rules(phases=(1, 3, 7, 10), pick_a_phase=True)))
    assert picked["Phases"] == "Phases 1, 3, 7, 10"
    assert picked["Moving on"] == "Pick any phase not done yet"


@pytest.mark.parametrize(
    ("language", "length", "text"),
    [
        ("en", timedelta(days=1, hours=3, minutes=5), "1 day, 3 hours"),
        ("en", timedelta(hours=20, minutes=14, seconds=59), "20 hours, 14 minutes"),
        ("en", timedelta(days=2), "2 days"),
        ("en", timedelta(seconds=59), "less than a minute"),
        ("fi", timedelta(hours=2, minutes=1), "2 tuntia ja 1 minuutti"),
        ("da", timedelta(hours=11, minutes=2), "11 timer og 2 minutter"),
        ("ar", timedelta(hours=11, minutes=2), "11 ساعة ودقيقتان"),
        ("sk", timedelta(days=1, hours=3), "1 deň, 3 hodiny"),
        ("tr", timedelta(hours=20, minutes=14), "20 saat 14 dakika"),
    ],
)
def test_a_length_of_time_reads_as_the_browsers_clock_would_say_it(language, length, text):
    # The same words Intl.DurationFormat gives static/js/clock.js, so they don't jump.
    assert say(language, words.duration_words, length) == text


def test_a_time_limit_and_the_time_left():
    assert say("en", words.time_limit_words, None) == "None"
    assert say("en", words.time_limit_words, timedelta(hours=12)) == "12 hours"
    assert say("en", words.time_left_words, timedelta(seconds=-1)) == "time is up"


def test_won_is_a_column_of_counts_or_the_badge_of_one_game():
    with translation.override("fi"):
        column = translation.pgettext("column: games won", "Won")
        badge = translation.pgettext("badge: this game was won", "Won")
    assert (column, badge) == ("Voitot", "Voitto")


def test_the_language_selector_names_slovak_slovencina(client):
    page = client.get(reverse("home")).content.decode()
    assert '<option value="sk">slovenčina</option>' in page


def test_slovak_dates_put_the_month_in_the_genitive():
    with translation.override("sk"):
        assert date_format(date(2026, 11, 30), "DATE_FORMAT") == "30. novembra 2026"
    with translation.override("fi"):
        assert date_format(date(2026, 11, 30), "DATE_FORMAT") == "30. marraskuuta 2026"
    with translation.override("da"):
        assert date_format(date(2026, 11, 30), "DATE_FORMAT") == "30. november 2026"


def test_an_arabic_deadline_reads_day_month_year_then_the_time():
    from datetime import datetime

    with translation.override("ar"):
        text = date_format(datetime(2026, 12, 1, 17, 8), "DATETIME_FORMAT")
    assert text == "1 ديسمبر، 2026، 5:08 م"


def test_arabic_numbers_are_written_as_browsers_write_them():
    from django.utils.formats import number_format

    # Django's Arabic formats give "12,5" and "1.250"; CLDR's Arabic (and Chromium's
    # Intl, which the clock uses) with the digits 0–9: "12.5" and "1,250".
    with translation.override("ar"):
        assert number_format(12.5, 1) == "12.5"
        assert number_format(1250, force_grouping=True) == "1,250"
    with translation.override("fi"):
        assert number_format(12.5, 1) == "12,5"


def test_names_in_arabic_move_sentences_are_isolated_and_english_ones_are_left_as_typed():
    """A Latin name (or one ending in punctuation) inside an Arabic sentence sits between
    FSI and PDI, so it can't reorder the words around it; English sentences are as before."""
    hit = {"type": "hit", "seat": 0, "card": "Y7", "log": {}}
    names = {0: "alice", 1: "Dr. Bob!"}
    with translation.override("ar"):
        news, _skipped = words.move_news(hit, 1, reader=0, names=names, timed_out=False)
    assert news == ["ألحق \u2068Dr. Bob!\u2069 الورقة 7 أصفر بمجموعتك."]
    line = say("ar", words.move_line, {"type": "draw", "log": {}}, 1, ["alice", "Dr. Bob!"])
    assert line == "سحب \u2068Dr. Bob!\u2069 من كومة السحب"
    with translation.override("en"):
        news, _skipped = words.move_news(hit, 1, reader=0, names=names, timed_out=False)
    assert news == ["Dr. Bob! hit yellow 7 on your group."]


def test_the_bdi_filter_isolates_a_name_and_escapes_it():
    from django.template import engines

    template = engines["django"].from_string("{% load bidi %}{{ name|bdi }}")
    assert template.render({"name": "O'Neil <Jo>"}) == "<bdi>O&#x27;Neil &lt;Jo&gt;</bdi>"


@pytest.mark.parametrize(
    ("data", "drawn", "sentence"),
    [
        ({"type": "draw"}, "B6", "You drew blue 6."),
        ({"type": "draw"}, None, "You drew a card."),
        (
            {"type": "draw", "from_discard": True, "log": {"card": "Y2"}},
            None,
            "You took yellow 2 from the discard pile.",
        ),
        ({"type": "lay_down", "log": {"phase": 3}}, None, "You laid down phase 3."),
        ({"type": "hit", "card": "W", "seat": 0}, None, "You hit Wild on your own group."),
        ({"type": "hit", "card": "R7", "seat": 1}, None, "You hit red 7 on the group of bob."),
        (
            {"type": "discard", "card": "S", "log": {"skipped": 1}},
            None,
            "You discarded a Skip: bob loses a turn.",
        ),
        (
            {"type": "discard", "card": "G12", "log": {"went_out": True}},
            None,
            "You discarded green 12. You went out.",
        ),
    ],
)
def test_the_players_own_move_is_said_in_words_without_the_cards_symbols(data, drawn, sentence):
    assert (
        say("en", lambda: words.own_move_sentence(data, 0, ["alice", "bob"], drawn=drawn))
        == sentence
    )


def test_the_players_own_move_is_said_in_their_language_with_the_names_isolated():
    data = {"type": "discard", "card": "S", "log": {"skipped": 1}}
    assert say("fi", words.own_move_sentence, data, 0, ["alice", "bob"]) == (
        "Heitit pois ohituskortin: bob menettää vuoronsa."
    )
    assert say("ar", words.own_move_sentence, data, 0, ["alice", "Sara!"]) == (
        "رميت ورقة تخطٍّ: \u2068Sara!\u2069 يخسر دوره."
    )
