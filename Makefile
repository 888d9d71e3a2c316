# Two commands: `make run` (serve the app with its worker and beat) and `make test`.
SHELL := /bin/bash
VENV := .venv
BIN := $(VENV)/bin
# pyenv reads .python-version (3.13); fall back to whatever python3.13 is on PATH.
PYTHON ?= $(shell pyenv which python 2>/dev/null || command -v python3.13 || ls -d $$HOME/.pyenv/versions/3.13*/bin/python3.13 2>/dev/null | tail -n 1)
STAMP := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)

.PHONY: install axe run test test-db lint typecheck pytest pytest-db demo bench clean messages catalogues

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || test -n "$(PYTHON)" || { echo "Python 3.13 not found (pyenv install 3.13, or set PYTHON=...)"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q --group dev
	@rm -f $(VENV)/.installed-*
	@touch $@

install: $(STAMP)

# axe-core, for the accessibility checks in tests/browser/test_axe.py: test tooling only
# (the app ships no JavaScript build), pinned by tests/browser/package-lock.json. Without
# npm those checks are skipped (CI installs npm, and REQUIRE_SERVICES=1 fails instead).
AXE := tests/browser/node_modules/axe-core/axe.min.js
$(AXE): tests/browser/package.json tests/browser/package-lock.json
	@if command -v npm >/dev/null; then npm ci --prefix tests/browser --no-audit --no-fund --silent && touch $@; \
	else echo "npm not installed: the axe-core checks are skipped"; fi

axe: $(AXE)

messages: install
	@if [ ! -d locale ]; then true; \
	elif command -v msgfmt >/dev/null; then $(BIN)/python manage.py compilemessages -v0 --ignore=.venv; \
	else echo "gettext (msgfmt) not installed: pages stay in English"; fi

# Gather new strings into the five catalogues; translate them (the game's terms are in
# locale/glossary.toml), then `make messages` compiles them.
catalogues: install
	$(BIN)/python manage.py makemessages -l fi -l tr -l da -l ar -l sk --no-location --no-obsolete --ignore=.venv --ignore=bench --ignore=var --ignore=node_modules

demo: install
	$(BIN)/python manage.py migrate --noinput -v0
	$(BIN)/python manage.py load_demo

run: demo messages
	@echo "Phase 10 Club on http://127.0.0.1:8000  (Ctrl-C stops the web server, worker and beat)"
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/honcho start -f Procfile.dev

# ruff, then the layer contracts of pyproject.toml (import-linter).
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache

typecheck: install
	$(BIN)/mypy

# The tests run in one process per CPU core (pytest-xdist's `-n auto`), each process on a
# test database of its own (tests/conftest.py). PYTEST_WORKERS=0 runs them all in pytest's
# own process, e.g. to stop in a debugger; PYTEST_WORKERS=3 in three.
PYTEST_WORKERS ?= auto
# pytest exits 5 when it collects no test; that is not a failure of the code.
run_pytest = $(BIN)/pytest -n $(PYTEST_WORKERS) $(1) $(PYTEST_ARGS); rc=$$?; if [ $$rc -eq 5 ]; then rc=0; fi; exit $$rc

# The tests whose outcome doesn't depend on the database: the engine's (no Django at all)
# and the browser's (they drive the pages, whose queries the database tests cover). CI
# runs them once; everything else under tests/ is a database test (CONTRIBUTING.md).
ONCE_TESTS := tests/engine tests/browser

pytest: install axe
	$(call run_pytest,)

pytest-db: install
	$(call run_pytest,$(addprefix --ignore=,$(ONCE_TESTS)))

# Everything once, on the database the environment names (SQLite when it names none).
test: lint typecheck messages pytest

# The database tests alone: CI's second database.
test-db: messages pytest-db

bench: install
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .mypy_cache .ruff_cache tests/browser/node_modules
