"""Django's {# … #} comments end at the end of their line: one spread over two lines is
shown on the page as text. Longer comments use {% comment %}."""

import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
TEMPLATES = sorted(
    path
    for folder in (ROOT / "templates", ROOT / "games" / "templates", ROOT / "accounts")
    for path in folder.rglob("*.html")
)
UNCLOSED = re.compile(r"\{#(?![^\n]*#\})")


def test_no_template_has_a_comment_over_several_lines():
    found = [
        f"{path.relative_to(ROOT)}:{text[: match.start()].count(chr(10)) + 1}"
        for path in TEMPLATES
        for text in [path.read_text()]
        for match in UNCLOSED.finditer(text)
    ]
    assert TEMPLATES and not found, found
