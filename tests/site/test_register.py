"""The catalogues speak to the player in one register, the informal "you" (Turkish "sen",
Slovak "ty"), as the rest of each catalogue does. The chat's strings once slipped into
the formal one ("siz", "Vy": "yazın", "napíšte"), so the formal pronouns and verb
endings are looked for in every string, and in the chat's strings (read from its
sources) the Turkish imperative that can't be told from a genitive elsewhere.

A string that rightly speaks to the whole table ("when you all pull out the cards") uses
the plural, not the formal: the patterns below are the formal singular's own endings."""

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from tests.site.test_translations import _entries

BASE = Path(settings.BASE_DIR)
FORMAL = {
    "tr": re.compile(
        r"\b(?:siz|size|sizi|sizin|sizden|sizinle|sizler)\b"  # the pronoun
        r"|\w+[ıiuü]n[ıiuü]z\b"  # "görüyorsunuz", "mesajınız", "yazınız"
        r"|\w+[ae]y[ıi]n\b",  # "söyleyin", "bekleyin"
        re.IGNORECASE,
    ),
    "sk": re.compile(
        r"\b(?:[Vv]y|[Vv]ás|[Vv]ám|[Vv]ami|[Vv][áa]š\w*)\b"  # the pronoun, "váš" in all cases
        r"|\b(?![Ee]šte\b)\w+(?:íte|ajte|ejte|ite|šte|zte|áte|ýte)\b"  # "vidíte", "počkajte"
    ),
}
# In the chat's strings, a sentence ends on a verb: "-ın." there is the formal imperative
# of a consonant stem ("yazın."), not a genitive (nor "-sın", "-dın", which are informal).
TR_IMPERATIVE_AT_END = re.compile(r"\w*[^sdt\W][ıiuü]n[.!]?$", re.IGNORECASE)
CHAT_SOURCES = [
    "games/online/chat.py",
    "games/online/chat_views.py",
    "games/jinja2/games/online/chat.html",
    "games/jinja2/games/online/chat_line.html",
    "templates/emails/chat.txt",
]
GETTEXT = {"_", "gettext", "ngettext", "pgettext", "gettext_lazy"}


def _translations(language: str) -> dict[str, list[str]]:
    path = BASE / "locale" / language / "LC_MESSAGES" / "django.po"
    return {entry["msgid"]: entry["msgstr"] for entry in _entries(path)[1:]}


def _chat_msgids() -> set[str]:
    found: set[str] = set()
    for name in CHAT_SOURCES:
        text = (BASE / name).read_text(encoding="utf-8")
        if name.endswith(".py"):
            for node in ast.walk(ast.parse(text)):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in GETTEXT
                ):
                    strings = [a.value for a in node.args if isinstance(a, ast.Constant)]
                    found.update(s for s in strings if isinstance(s, str))
        else:
            found.update(re.findall(r'_\("([^"]+)"\)', text))
            found.update(re.findall(r'{% translate "([^"]+)" %}', text))
            for block in re.findall(r"{% blocktranslate[^%]*%}(.*?){% (?:plural|end)", text):
                found.add(re.sub(r"{{ (\w+) }}", r"%(\1)s", block))
    return found


def test_the_chat_strings_are_read_from_their_sources():
    chat = _chat_msgids()
    assert {"Write a message first.", "Say something to the table"} <= chat
    assert "That's %(count)s message in a minute: wait a moment before the next one." in chat
    assert "…and %(count)s more message." in chat


@pytest.mark.parametrize("language", sorted(FORMAL))
def test_no_string_speaks_to_the_player_formally(language):
    formal = []
    for msgid, forms in _translations(language).items():
        for text in forms:
            if found := FORMAL[language].findall(text):
                formal.append(f"{msgid[:60]!r} -> {text[:70]!r}: {found}")
    assert not formal, "\n".join(formal)


def test_the_turkish_chat_strings_end_on_an_informal_verb():
    translations = _translations("tr")
    chat = _chat_msgids() & set(translations)
    assert len(chat) > 10
    formal = [
        f"{msgid!r} -> {text!r}"
        for msgid in sorted(chat)
        for text in translations[msgid]
        if TR_IMPERATIVE_AT_END.search(text)
    ]
    assert not formal, "\n".join(formal)


@pytest.mark.parametrize(
    ("language", "formal", "informal"),
    [
        ("tr", "Önce bir mesaj yazın.", "Önce bir mesaj yaz."),
        ("tr", "Masaya bir şey söyleyin", "Masaya bir şey söyle"),
        ("tr", "Onun mesajlarını görmeyeceksiniz.", "Onun mesajlarını artık görmeyeceksin."),
        ("sk", "Najprv napíšte správu.", "Najprv napíš správu."),
        ("sk", "Správy tohto hráča znova vidíte.", "Správy tohto hráča znova vidíš."),
        ("sk", "Ak chcete, pošleme vám odkaz.", "Ak chceš, pošleme ti odkaz."),
    ],
)
def test_the_patterns_tell_the_formal_from_the_informal(language, formal, informal):
    assert FORMAL[language].search(formal) or TR_IMPERATIVE_AT_END.search(formal)
    assert not FORMAL[language].search(informal)
    assert language != "tr" or not TR_IMPERATIVE_AT_END.search(informal)


@pytest.mark.parametrize(
    ("language", "msgid", "expected"),
    [
        ("fi", "Choose the player who went out, or nobody.", "tai vaihtoehto ”Ei kukaan”."),
        ("fi", "New to Phase 10, or not sure of a variant?", "Onko Phase 10 sinulle uusi"),
        ("tr", "Write a message first.", "Önce bir mesaj yaz."),
        ("tr", "You won't see their messages.", "Onun mesajlarını artık görmeyeceksin."),
        ("sk", "Say something to the table", "Povedz niečo ostatným pri stole"),
        ("sk", "You won't see their messages.", "Správy tohto hráča už neuvidíš."),
        ("ar", "%(names)s share the lead.", "يتقاسم %(names)s الصدارة."),
        ("ar", "They play a tie-breaker round.", "تُلعب جولة لكسر التعادل."),
    ],
)
def test_the_reviewed_sentences_are_the_ones_shown(language, msgid, expected):
    with translation.override(language):
        assert expected in translation.gettext(msgid)


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (1, "تعادل سارة ومنى بنقطة واحدة."),
        (2, "تعادل سارة ومنى بنقطتين."),
        (5, "تعادل سارة ومنى بـ5 نقاط."),
        (40, "تعادل سارة ومنى بـ40 نقطة."),
    ],
)
def test_arabic_ties_put_the_verb_first_and_count_points_by_their_number(count, expected):
    with translation.override("ar"):
        text = translation.ngettext(
            "%(names)s are tied on %(total)s point.",
            "%(names)s are tied on %(total)s points.",
            count,
        ) % {"names": "سارة ومنى", "total": count}
    assert text == expected


@pytest.mark.parametrize(("count", "expected"), [(1, "…ورسالة أخرى."), (2, "…ورسالتان أخريان.")])
def test_arabic_says_one_or_two_more_messages_without_the_number(count, expected):
    with translation.override("ar"):
        text = translation.ngettext(
            "…and %(count)s more message.", "…and %(count)s more messages.", count
        ) % {"count": count}
    assert text == expected
