"""Garbage posted where players and scorers post: the online move endpoint
(games:online_act) and a game night's round forms (games:night_add_round,
games:night_edit_round). Forged card codes, huge and negative numbers, missing fields,
stale move numbers and versions, other people's games — mixed with real moves so the
games go on. Nothing may answer 5xx, and afterwards the games still add up: every online
game replays from its seed and move log (check_replays), and every night's rows are in
bounds and sum to their totals. And a NUL character through every text field of every
form the site's pages have.

A seeded loop (reproducible: the seed is in the test's name), a few hundred requests.
"""

from __future__ import annotations

import random
from html.parser import HTMLParser
from io import StringIO
from typing import Any
from urllib.parse import urljoin

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.engine import Discard, Draw, Hit, LayDown, Rules, player_view
from games.engine.bots import choose_action
from games.models import Game, Player, RoundScore
from games.nights import services as nights
from games.online import lobby, services
from tests.online.helpers import started_game

pytestmark = pytest.mark.django_db

MOVES = 300
ROUNDS = 200

FORGED_CARDS = [
    "", " ", "R", "R0", "R13", "R-1", "X5", "w", "W9", "S1", "r7", "R07", "Ｒ7", "R7\x00",
    "R" + "9" * 40, "🂡", "null", "R7,R8", "<b>R7</b>", "S", "W",
]  # fmt: skip
NUMBERS = [
    "", "-1", "0", "1", "2", "3", "4", "5", "10", "99", "-5", "250", "255", "1000000000",
    str(2**31), str(2**63), "9" * 30, "-" + "9" * 30, "1e9", "0x10", " 3 ", "٣", "1.5",
    "NaN", "inf", "abc", "5; DROP TABLE games_game",
]  # fmt: skip
DO = ["draw", "take", "lay", "hit", "discard", "", "DRAW", "skip", "resign", "x" * 200]


def _some(rng: random.Random, real: list[str]) -> list[str]:
    """Card codes: real ones from the hand, forged ones, or both; sometimes very many."""
    size = rng.choice([0, 1, 1, 1, 2, 3, 6, 11, 60])
    pool = real + FORGED_CARDS if real else FORGED_CARDS
    return [rng.choice(pool) for _n in range(size)]


def _form_of(action: Any) -> dict[str, Any]:
    """What the board's buttons post for an engine action."""
    if isinstance(action, Draw):
        return {"do": "take" if action.from_discard else "draw"}
    if isinstance(action, LayDown):
        groups = "|".join(" ".join(str(card) for card in group) for group in action.groups)
        return {"do": "lay", "groups": groups, "phase": action.phase or ""}
    if isinstance(action, Hit):
        return {
            "do": "hit",
            "cards": [str(action.card)],
            "seat": action.seat,
            "group": action.group,
            "end": action.end or "",
        }
    assert isinstance(action, Discard)
    return {"do": "discard", "cards": [str(action.card)], "skip": action.skip or ""}


def _garbage_move(rng: random.Random, game: Game, hand: list[str]) -> dict[str, Any]:
    data: dict[str, Any] = {
        "move": rng.choice([str(game.move_number)] * 6 + NUMBERS + [str(game.move_number - 1)]),
        "do": rng.choice(DO),
        "cards": _some(rng, hand),
    }
    for name in ("card", "phase", "seat", "group", "skip"):
        if rng.random() < 0.3:
            data[name] = rng.choice(NUMBERS + hand + FORGED_CARDS)
    if rng.random() < 0.3:
        data["end"] = rng.choice(["low", "high", "", "middle", "LOW", "0"])
    if rng.random() < 0.3:
        data["groups"] = "|".join(" ".join(_some(rng, hand)) for _n in range(rng.randint(0, 4)))
    for name in list(data):
        if rng.random() < 0.05:
            del data[name]  # a missing field
    return data


@pytest.mark.parametrize("seed", [1])
def test_garbage_moves_are_never_a_server_error_and_games_still_replay(
    seed, alice, bob, carol, stranger
):
    rng = random.Random(seed)
    game = started_game(alice, bob, carol, seed=seed)
    theirs = started_game(stranger, bots=1, seed=seed + 1)  # no seat for any of them
    waiting = lobby.create_game(alice, seats=3)  # alice's lobby: not for bob or carol
    clients = {}
    for user in (alice, bob, carol):
        clients[user.pk] = Client()
        clients[user.pk].force_login(user)
    people = {seat.position: seat.player.user for seat in game.seats.select_related("player")}
    played = 0
    for _n in range(MOVES):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        state = services.load_state(game)
        on_turn = state.current_seat
        seat = on_turn if rng.random() < 0.75 else rng.randrange(len(people))
        hand = [str(card) for card in state.hands[seat]]
        target = rng.choices([game, theirs, waiting, None], weights=[90, 4, 3, 3], k=1)[0]
        if seat == on_turn and target is game and rng.random() < 0.4:
            data = {
                "move": game.move_number,
                **_form_of(choose_action(player_view(state, seat), rng)),
            }
        else:
            data = _garbage_move(rng, game, hand)
        public_id = target.public_id if target else rng.choice(["-x1", "nope", "a" * 300])
        url = reverse("games:online_act", args=[public_id])
        headers = {"HX-Request": "true"} if rng.random() < 0.5 else {}
        before = game.move_number
        try:
            response = clients[people[seat].pk].post(url, data, headers=headers)
        except Exception as error:  # the test client re-raises what would be a 500
            raise AssertionError(f"POST {url} {data!r} raised {error!r}") from error
        assert response.status_code < 500, (url, data, response.status_code)
        if target is None or target is theirs or (target is waiting and people[seat] != alice):
            assert response.status_code == 404, (url, data)
        game.refresh_from_db()
        played += game.move_number > before
    assert played > 20, "the fuzz should also move the game on"

    out = StringIO()
    # "--game=ID": a public id may start with "-".
    call_command(
        "check_replays", f"--game={game.public_id}", f"--game={theirs.public_id}", stdout=out
    )
    assert "MISMATCH" not in out.getvalue()
    assert "2 game(s) checked, 0 mismatch(es)." in out.getvalue()


def _real_round(rng: random.Random, night: Game, seats: int, pick_a_phase: bool) -> dict[str, Any]:
    """A round as a scorer enters it: one seat went out (0 points, phase laid)."""
    out = rng.randrange(seats)
    data: dict[str, Any] = {"version": night.version, "went_out": out}
    for seat in range(seats):
        data[f"points_{seat}"] = 0 if seat == out else rng.randrange(1, 51) * 5
        if seat == out or rng.random() < 0.3:
            data[f"completed_{seat}"] = rng.randint(1, 10) if pick_a_phase else "on"
    return data


def _garbage_round(
    rng: random.Random, night: Game, seats: int, pick_a_phase: bool
) -> dict[str, Any]:
    version = night.version
    data: dict[str, Any] = {
        "version": rng.choice([str(version)] * 6 + NUMBERS + [str(version - 1)]),
        "went_out": rng.choice([str(seat) for seat in range(seats)] * 3 + NUMBERS),
    }
    for seat in range(seats + rng.choice([0, 0, 0, 1])):
        data[f"points_{seat}"] = (
            str(rng.randrange(0, 51) * 5) if rng.random() < 0.7 else rng.choice(NUMBERS)
        )
        done = [str(rng.randint(1, 10)), "1", "2"] if pick_a_phase else ["on", "on"]
        data[f"completed_{seat}"] = rng.choice(done + ["", "off", *NUMBERS[:6]])
    for name in list(data):
        if rng.random() < 0.05:
            del data[name]
    return data


@pytest.mark.parametrize("seed", [1])
def test_garbage_rounds_are_never_a_server_error_and_nights_still_add_up(seed, alice, bob):
    rng = random.Random(seed)
    me = Player.for_user(alice)
    standard = nights.create_game(alice, players=[me, "Dora", "Eve"], first_dealer=0, rules=Rules())
    picked = nights.create_game(
        alice, players=[me, "Finn"], first_dealer=1, rules=Rules(pick_a_phase=True)
    )
    not_hers = nights.create_game(
        bob, players=[Player.for_user(bob), "Gus"], first_dealer=0, rules=Rules()
    )
    scorer, other = Client(), Client()
    scorer.force_login(alice)
    other.force_login(bob)
    for _n in range(ROUNDS):
        night = rng.choices([standard, picked, not_hers], weights=[60, 35, 5], k=1)[0]
        night.refresh_from_db()
        seats = night.seats.count()
        rounds = night.rounds_played
        pick_a_phase = night.rules.get("pick_a_phase", False)
        if rng.random() < 0.3:
            data = _real_round(rng, night, seats, pick_a_phase)
        else:
            data = _garbage_round(rng, night, seats, pick_a_phase)
        if rng.random() < 0.6:
            url = reverse("games:night_add_round", args=[night.public_id])
        else:
            number = rng.choice([*range(1, rounds + 1), 0, rounds + 1, 10**12] if rounds else [1])
            url = reverse("games:night_edit_round", args=[night.public_id, number])
        client = other if rng.random() < 0.05 else scorer
        headers = {"HX-Request": "true"} if rng.random() < 0.5 else {}
        try:
            response = client.post(url, data, headers=headers)
        except Exception as error:
            raise AssertionError(f"POST {url} {data!r} raised {error!r}") from error
        assert response.status_code < 500, (url, data, response.status_code)
        if night is not_hers and client is scorer:
            assert response.status_code == 404

    for night in (standard, picked):
        rows = RoundScore.objects.filter(game=night).order_by("seat__position", "round_number")
        totals: dict[int, int] = {}
        for row in rows:
            assert 0 <= row.points <= 250 and row.points % 5 == 0, row.points
            totals[row.seat_id] = totals.get(row.seat_id, 0) + row.points
            assert row.total == totals[row.seat_id]
        assert scorer.get(night.get_absolute_url()).status_code == 200
        assert rows.exists(), "the fuzz should also enter rounds"


# --- a NUL through every text field of every form ---------------------------------------------

# Inputs that carry no typed text: a choice, a file (tests/accounts/test_bgstats_import.py).
NOT_TEXT = {"checkbox", "radio", "file", "submit", "button", "image", "reset"}


class _Forms(HTMLParser):
    """Every <form> of a page: its action, method and fields as a browser would send them
    (the first named submit button too; a select's chosen or first option)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict[str, Any]] = []
        self._form: dict[str, Any] | None = None
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "form":
            self._form = {
                "action": a.get("action", ""),
                "method": a.get("method", "get").lower(),
                "fields": [],
                "text": [],
                "button": False,
            }
            self.forms.append(self._form)
            return
        form, name = self._form, a.get("name")
        if form is None or not name:
            return
        kind = a.get("type", "text" if tag == "input" else "submit").lower()
        if tag == "input" and kind not in NOT_TEXT:
            form["fields"].append((name, a.get("value", "")))
            if name != "csrfmiddlewaretoken":
                form["text"].append(name)
        elif tag == "input" and kind in {"checkbox", "radio"} and "checked" in a:
            form["fields"].append((name, a.get("value", "on")))
        elif tag in {"input", "button"} and kind == "submit" and not form["button"]:
            form["fields"].append((name, a.get("value", "")))
            form["button"] = True
        elif tag == "textarea":
            form["fields"].append((name, ""))
            form["text"].append(name)
        elif tag == "select":
            self._select = name
        elif tag == "option" and self._select and form is not None:
            chosen = [n for n, _v in form["fields"] if n == self._select]
            if not chosen or "selected" in a:
                form["fields"] = [(n, v) for n, v in form["fields"] if n != self._select]
                form["fields"].append((self._select, a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def _with_nul(fields: list[tuple[str, str]], target: str) -> dict[str, list[str]]:
    data: dict[str, list[str]] = {}
    for name, value in fields:
        data.setdefault(name, []).append(f"{value}\x00x" if name == target else value)
    return data


def test_a_nul_through_every_text_field_of_every_form_is_never_a_server_error(alice, bob, stranger):
    """Every page the URL conf has (as tests/site/test_url_permissions.py opens them),
    as its owner and its participant: each form's text fields, one at a time, with a NUL
    character in it (PostgreSQL keeps none in text: unchecked, a DataError and a 500)."""
    from tests.site.test_url_permissions import OWNER, PARTICIPANT, ROWS, World

    world = World(alice, bob, stranger)
    clients = {}
    for persona in (OWNER, PARTICIPANT):
        clients[persona] = Client()
        clients[persona].force_login(world.people[persona])
    sent, seen = 0, set()
    for row in ROWS:
        if row.method != "get" or row.name == "accounts:logout":
            continue
        for persona, client in clients.items():
            page_url = reverse(row.name, args=row.args(world))
            response = client.get(page_url, row.data(world))
            if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                continue
            parser = _Forms()
            parser.feed(response.content.decode())
            for form in parser.forms:
                url = urljoin(page_url, form["action"] or page_url)
                if "/logout" in url or (persona, url, tuple(form["text"])) in seen:
                    continue
                seen.add((persona, url, tuple(form["text"])))
                for target in form["text"]:
                    data = _with_nul(form["fields"], target)
                    try:
                        if form["method"] == "post":
                            answer = client.post(url, data)
                        else:
                            answer = client.get(url, data)
                    except Exception as error:  # the test client re-raises what is a 500
                        raise AssertionError(f"{persona} {url} {target}: {error!r}") from error
                    assert answer.status_code < 500, (persona, url, target, answer.status_code)
                    sent += 1
    assert sent > 40, "the walk should find the site's forms"
