"""Game terms stay consistent: one glossary per language (locale/glossary.toml) for set,
run, colour group, Wild, Skip, phase, hit, go out, replay and rematch, checked against
the catalogues.

The rule: every msgid that uses a term in English (the term's `english` pattern, less
its `not_english` uses of the same word in another sense) is translated with that
language's glossary word, in any of its inflected `forms`; in a plural entry, every
form that says more than the number. The term's own `msgids` (the standalone words and
the key sentences) must be in the catalogue, so the glossary can't quietly go stale.
Where the English word means something else there, the msgid is left out by the term's
`not_english`; where a language rightly says it without the word, by that language's
`except`, with the reason beside it in the glossary.
"""

import re
import tomllib
from pathlib import Path

import pytest
from django.conf import settings

from tests.site.test_translations import NPLURALS, _entries

LOCALE = Path(settings.BASE_DIR) / "locale"
GLOSSARY = tomllib.loads((LOCALE / "glossary.toml").read_text(encoding="utf-8"))
# Placeholders (%(phases)s) and the game's name ("Phase 10 Club") aren't uses of a term.
WORDS_ONLY = re.compile(r"%\(\w+\)[sd]|Phase 10")


def test_the_glossary_has_every_term_in_every_language():
    assert set(GLOSSARY) == {
        *("set", "run", "colour", "wild", "skip", "phase", "hit", "go-out"),
        *("replay", "rematch"),
    }
    for term in GLOSSARY.values():
        assert set(NPLURALS) <= set(term), term
        for language in NPLURALS:
            assert re.search(term[language]["forms"], term[language]["word"], re.IGNORECASE)


@pytest.mark.parametrize("language", sorted(NPLURALS))
def test_every_sentence_with_a_game_term_uses_the_glossary_word(language):
    entries = [e for e in _entries(LOCALE / language / "LC_MESSAGES" / "django.po")[1:]]
    msgids = {entry["msgid"] for entry in entries}
    problems = []
    for name, term in GLOSSARY.items():
        missing = [msgid for msgid in term["msgids"] if msgid not in msgids]
        problems += [f"{name}: {msgid!r} is no longer in the catalogue" for msgid in missing]
        forms = re.compile(term[language]["forms"], re.IGNORECASE)
        checked = 0
        for entry in entries:
            english = WORDS_ONLY.sub("", entry["msgid_plural"] or entry["msgid"])
            if not re.search(term["english"], english) or re.search(term["not_english"], english):
                continue
            checked += 1
            if entry["msgid"] in term[language].get("except", ()):
                continue
            # A form for one number may say the number alone ("ورقتان"); the last never does.
            for text in entry["msgstr"][-1:] if entry["msgid_plural"] else entry["msgstr"]:
                if not forms.search(text):
                    problems.append(f"{name}: {entry['msgid'][:60]!r} -> {text[:70]!r}")
        assert checked >= len(term["msgids"]), f"{name}: its `english` misses its own msgids"
    assert not problems, "\n".join(problems)
