"""The rules page: one text per language around the same card pictures, every picture a
lay-down the engine accepts, and a link to it from every page where a game is made or
played."""

import re

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from games.engine import Card, make_group, parse_cards, validate_phase
from games.pictures import DECK, GROUPS, PHASES, SCORES
from games.templatetags.game_words import RULE_ANCHORS
from phase10site.views import rules

pytestmark = pytest.mark.django_db

# Each language's own heading, and an English sentence that must not be left in it.
TITLES = {
    "en": "How to play Phase 10",
    "fi": "Näin pelataan Phase 10:tä",
    "tr": "Phase 10 nasıl oynanır",
    "da": "Sådan spiller du Phase 10",
    "ar": "طريقة لعب Phase 10",
    "sk": "Ako sa hrá Phase 10",
}
ENGLISH = "Sets, runs and colour groups"
SECTIONS = [
    "deck",
    "phases",
    "groups",
    "wild-skip",
    "round",
    "turn",
    "hitting",
    "going-out",
    "scoring",
    "end",
    "options",
    *(f"option-{name}" for name in ("phases", "moving-on", "natural-card", "hitting")),
    *(f"option-{name}" for name in ("going-out", "skip", "time-limit")),
]


def rules_page(client, language: str) -> str:
    client.post(reverse("set_language"), {"language": language, "next": "/"})
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("language", sorted(TITLES))
def test_the_rules_page_is_written_in_every_language(client, language):
    page = rules_page(client, language)
    assert f'<html lang="{language}"' in page
    assert f"<h1>{TITLES[language]}</h1>" in page
    if language != "en":
        assert ENGLISH not in page
    for section in [*SECTIONS, *RULE_ANCHORS]:  # a game's rule lines link to these
        assert f'id="{section}"' in page, section
    # The table of contents only points at sections that are there.
    for target in re.findall(r'href="#([\w-]+)"', page):
        assert f'id="{target}"' in page, target


@pytest.mark.parametrize("language", sorted(TITLES))
def test_the_rules_page_pictures_each_phase_with_our_card_faces(client, language):
    page = rules_page(client, language)
    for number, groups in PHASES.items():
        item = page.split(f'id="phase-{number}"')[1].split("</li>")[0]
        with translation.override(language):
            goal = translation.gettext("Phase %(number)s") % {"number": number}
        assert goal in item
        assert item.count('class="pcard ') == sum(len(group) for group in groups)
    pictured = sum(len(cards) for groups in PHASES.values() for cards in groups)
    assert page.count('class="pcard ') >= pictured + len(DECK)


def test_a_card_picture_is_named_in_the_page_language(client):
    page = rules_page(client, "fi")
    assert '<span class="visually-hidden">punainen 7</span>' in page
    # The Wild's big letter is its Finnish initial: J for jokeri.
    wild = page.split('class="pcard c-wild"')[1]
    assert wild.startswith(' title="Jokeri"><span class="pcard-big" aria-hidden="true">J</span>')


def test_the_arabic_rules_page_reads_right_to_left(client):
    page = rules_page(client, "ar")
    assert '<html lang="ar" dir="rtl">' in page
    assert "المرحلة 10" in page


def test_the_arabic_rules_turn_and_discard_cards_face_up(client):
    page = rules_page(client, "ar")
    turn = page[page.index('id="turn"') :]
    round_ = page[page.index('id="round"') : page.index('id="turn"')]
    # "على وجهها" (on its face) and "مقلوبة" (turned over) read as face down.
    assert "على وجهها" not in page and "مقلوبة" not in page
    assert "تُكشف الورقة التالية (يُقلب وجهها إلى الأعلى)" in round_
    assert "أول ورقة مكشوفة" in round_
    assert "ارمِ</strong> ورقة واحدة مكشوفةً فوق كومة الرمي" in turn


def test_a_language_without_its_own_text_gets_the_english_one(alice):
    request = RequestFactory().get("/rules/")
    request.user = alice
    with translation.override("de"):
        page = rules(request).content.decode()
    assert f"<h1>{TITLES['en']}</h1>" in page


@pytest.mark.parametrize("number", sorted(PHASES))
def test_each_phase_picture_is_a_lay_down_the_engine_accepts(number):
    validate_phase(number, [parse_cards(group) for group in PHASES[number]])


def test_each_group_picture_is_valid_and_its_hit_fits():
    for name, (kind, cards, hit) in GROUPS.items():
        group = make_group(kind, parse_cards(cards))  # type: ignore[arg-type]
        ends = group.hit_ends(Card.parse(hit))
        assert ends, f"{hit} doesn't hit the {name} picture"
        assert len(group.hit(Card.parse(hit), ends[-1])) == len(cards) + 1
    wild_run = make_group("run", parse_cards(GROUPS["wild_run"][1]))
    assert wild_run.low == 4  # B4 R5 W G7: the Wild is the 6


def test_the_score_pictures_are_what_the_cards_count():
    from games.engine import hand_points

    for cards, points in SCORES:
        assert hand_points(parse_cards(cards)) == points * len(cards)


LINKED_FROM = ["home", "games:night_create", "games:online_create"]


@pytest.mark.parametrize("name", LINKED_FROM)
def test_the_header_and_the_new_game_forms_link_to_the_rules(alice_client, name):
    page = alice_client.get(reverse(name)).content.decode()
    assert f'href="{reverse("rules")}"' in page
    assert ">How to play</a>" in page


def test_every_game_night_page_links_to_the_rules(alice_client, client):
    from tests.nights.helpers import start_night

    game = start_night(alice_client, phases="even", advance="all_advance")
    for page in (
        alice_client.get(game.get_absolute_url()).content.decode(),
        client.get(reverse("games:night_share", args=[game.share_token])).content.decode(),
    ):
        header = page.split("</header>")[1]  # the game's own header, after the site's
        assert "Even phases · everyone moves on every round" in header
        assert f'<a href="{reverse("rules")}">How to play</a>' in header
