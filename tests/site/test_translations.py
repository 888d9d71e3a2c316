"""The five translations are complete, compiled and shown.

The .po files are read with a small parser here, so these tests need no gettext
tools: a fresh machine without msgfmt uses the committed .mo files."""

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

pytestmark = pytest.mark.django_db

LOCALE = Path(settings.BASE_DIR) / "locale"
NPLURALS = {"fi": 2, "tr": 2, "da": 2, "ar": 6, "sk": 3}
HEADING = "The Phase 10 companion for your table and your friends"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%")


def test_every_language_but_english_has_a_catalog():
    codes = {code for code, _name in settings.LANGUAGES} - {"en"}
    assert codes == set(NPLURALS)


def _entries(path: Path) -> list[dict]:
    """Entries of a .po file: msgctxt, msgid, msgid_plural, msgstr (a list, one
    item per plural form), flags. Obsolete (#~) entries are left out."""
    entries: list[dict] = []
    entry: dict = {}
    field = ""

    def close() -> None:
        if "msgid" in entry:
            entries.append(entry.copy())
        entry.clear()

    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#~"):
            continue
        if line.startswith("#,"):
            if "msgid" in entry:
                close()
            entry.setdefault("flags", set()).update(f.strip() for f in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        if line.startswith('"'):
            value = ast.literal_eval(line)
            if field.startswith("msgstr"):
                entry["msgstr"][-1] += value
            else:
                entry[field] += value
            continue
        keyword, _, rest = line.partition(" ")
        value = ast.literal_eval(rest)
        if keyword in ("msgctxt", "msgid") and ("msgid" in entry and "msgstr" in entry):
            close()
        if keyword.startswith("msgstr["):
            entry.setdefault("msgstr", []).append(value)
        elif keyword == "msgstr":
            entry["msgstr"] = [value]
        else:
            entry[keyword] = value
        field = keyword
    close()
    for item in entries:
        item.setdefault("flags", set())
        item.setdefault("msgctxt", None)
        item.setdefault("msgid_plural", None)
    return entries


@pytest.mark.parametrize("lang", sorted(NPLURALS))
def test_every_entry_is_translated_and_none_is_fuzzy(lang):
    path = LOCALE / lang / "LC_MESSAGES" / "django.po"
    header, *entries = _entries(path)
    assert header["msgid"] == ""
    assert "fuzzy" not in header["flags"]
    assert f"Language: {lang}\n" in header["msgstr"][0]
    assert f"nplurals={NPLURALS[lang]};" in header["msgstr"][0]
    assert len(entries) > 100
    problems = []
    for entry in entries:
        name = repr(entry["msgid"][:60])
        if "fuzzy" in entry["flags"]:
            problems.append(f"fuzzy: {name}")
        wanted = NPLURALS[lang] if entry["msgid_plural"] else 1
        if len(entry["msgstr"]) != wanted or not all(entry["msgstr"]):
            problems.append(f"untranslated: {name}")
            continue
        # The general form keeps every placeholder; a form for one number may drop it.
        source = entry["msgid_plural"] or entry["msgid"]
        if "python-format" in entry["flags"]:
            want = sorted(set(PLACEHOLDER.findall(source)))
            if sorted(set(PLACEHOLDER.findall(entry["msgstr"][-1]))) != want:
                problems.append(f"placeholders differ: {name}")
            for form in entry["msgstr"]:
                if not set(PLACEHOLDER.findall(form)) <= set(want):
                    problems.append(f"unknown placeholder: {name}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", sorted(NPLURALS))
def test_the_compiled_mo_file_matches_the_po_file(lang):
    folder = LOCALE / lang / "LC_MESSAGES"
    with open(folder / "django.mo", "rb") as mo:
        catalog = gettext.GNUTranslations(mo)._catalog  # type: ignore[attr-defined]
    stale = []
    for entry in _entries(folder / "django.po")[1:]:
        key = (
            entry["msgid"]
            if entry["msgctxt"] is None
            else f"{entry['msgctxt']}\x04{entry['msgid']}"
        )
        if entry["msgid_plural"]:
            got = [catalog.get((key, n)) for n in range(len(entry["msgstr"]))]
        else:
            got = [catalog.get(key)]
        if got != entry["msgstr"]:
            stale.append(repr(entry["msgid"][:60]))
    assert not stale, "run compilemessages; stale in django.mo:\n" + "\n".join(stale)


@pytest.mark.parametrize("lang", sorted(NPLURALS))
def test_the_home_page_is_translated(client, lang):
    with translation.override(lang):
        heading = translation.gettext(HEADING)
    assert heading != HEADING
    client.post(reverse("set_language"), {"language": lang, "next": "/"})
    page = client.get(reverse("home")).content.decode()
    assert f'<html lang="{lang}"' in page
    assert f"<h1>{escape(heading)}</h1>" in page
    assert HEADING not in page


def test_plural_forms_follow_the_language():
    with translation.override("sk"):
        forms = [
            translation.ngettext("%(count)s card", "%(count)s cards", n) % {"count": n}
            for n in (1, 3, 5)
        ]
    assert forms == ["1 karta", "3 karty", "5 kariet"]
    with translation.override("ar"):
        two = translation.ngettext("%(count)s card", "%(count)s cards", 2) % {"count": 2}
    assert two == "ورقتان"


def test_the_arabic_page_is_right_to_left_and_the_others_left_to_right(client):
    client.post(reverse("set_language"), {"language": "ar", "next": "/"})
    page = client.get(reverse("home")).content.decode()
    assert '<html lang="ar" dir="rtl">' in page
    client.post(reverse("set_language"), {"language": "fi", "next": "/"})
    assert '<html lang="fi" dir="ltr">' in client.get(reverse("home")).content.decode()
