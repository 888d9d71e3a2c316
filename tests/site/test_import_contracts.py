"""import-linter can only match whole module names, so the contracts about views list one
pattern per name a view module has (pyproject.toml). A new `*_views.py` that no pattern
names would be left out of them without a word: these tests say so instead."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP_PACKAGES = ("games", "accounts", "phase10site")


def contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {contract["name"]: contract for contract in config["tool"]["importlinter"]["contracts"]}


def view_modules(package: str) -> list[str]:
    return sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path in (ROOT / package).rglob("*views.py")
    )


def matches(pattern: str, module: str) -> bool:
    """import-linter's wildcards: `*` is one name, `**` any number of them."""
    parts = [
        r"[^.]+(\.[^.]+)*" if part == "**" else r"[^.]+" if part == "*" else re.escape(part)
        for part in pattern.split(".")
    ]
    return re.fullmatch(r"\.".join(parts), module) is not None


def test_every_view_module_is_protected_from_imports_but_the_urlconfs():
    patterns = contracts()["Nothing imports a view but a URLconf"]["protected_modules"]
    modules = [module for package in APP_PACKAGES for module in view_modules(package)]
    assert "games.nights.setup_views" in modules
    assert [module for module in modules if not any(matches(p, module) for p in patterns)] == []


def test_every_view_module_of_games_is_forbidden_to_the_other_parts_of_games():
    contract = contracts()[
        "Game nights, online games, clubs and notifications don't import each other's views"
    ]
    modules = view_modules("games")
    assert "games.online.chat_views" in modules
    forbidden = contract["forbidden_modules"]
    assert [module for module in modules if not any(matches(p, module) for p in forbidden)] == []


def test_the_wildcards_match_as_import_linter_reads_them():
    assert matches("**.share_views", "games.nights.share_views")
    assert matches("games.*.views", "games.online.views")
    assert not matches("games.*.views", "games.online.extra.views")
    assert not matches("**.views", "games.online.chat_views")
