"""A new round folded onto the round form's scoreboard (services.enter_round): the same
rows, seats, game and scoreboard as the full fold, refused when the night moved on, and a
round form's inputs written as the form's widgets would draw them."""

import re

import pytest
from django.core.cache import cache
from django.http import QueryDict
from django.urls import reverse

from games import cache_keys
from games.engine import Rules
from games.errors import Stale
from games.models import Game, Player, RoundScore, Seat
from games.nights import entry_forms, services, views
from games.nights.forms import NightRoundForm
from games.nights.page import ROUND_FORM
from games.nights.page import parts as page_parts
from games.nights.scoreboard import RoundEntry, load_scoreboard
from phase10site.jinja import render
from tests.nights.helpers import edit_round, post_round, round_data, start_night

pytestmark = pytest.mark.django_db

RULES = {
    "standard": Rules(),
    "pick a phase": Rules(pick_a_phase=True),
    "all advance": Rules(all_advance=True),
}


def _night(user, rules: Rules, name: str = "") -> Game:
    players = [Player.for_user(user), "Bob & <Co>", 'Carol "C"']  # names to escape
    return services.create_game(user, players=players, first_dealer=1, rules=rules, name=name)


def _entry(number: int, rules: Rules, done: list[set[int]]) -> RoundEntry:
    """Round `number`: one player goes out (nobody every fifth round) and lays a phase."""
    out = None if number % 5 == 4 else number % 3
    points = tuple(0 if seat == out else 5 * ((seat + number) % 7 + 1) for seat in range(3))
    if out is None:
        return RoundEntry(went_out=None, points=points, completed={})
    if rules.pick_a_phase:
        phase = min(set(rules.phases) - done[out])
        done[out].add(phase)
        return RoundEntry(went_out=out, points=points, completed={out: phase})
    return RoundEntry(went_out=out, points=points, completed={out: None})


def _stored(game: Game) -> tuple[object, ...]:
    game.refresh_from_db()
    rows = (
        RoundScore.objects.filter(game=game)
        .select_related("seat", "player")
        .order_by("round_number", "seat__position")
    )
    return (
        (game.version, game.rounds_played, game.status, game.finished_at is not None),
        game.winner.name if game.winner else None,
        [
            (r.round_number, r.seat.position, r.player.name, r.phase_attempted)
            + (r.phase_completed, r.points, r.went_out, r.total, r.by_bot, r.cards_left)
            for r in rows
        ],
        list(
            Seat.objects.filter(game=game)
            .order_by("position")
            .values_list("score", "phase", "phases_completed", "rank", "is_winner")
        ),
    )


@pytest.mark.parametrize("variant", RULES)
def test_rounds_added_on_the_forms_scoreboard_store_what_the_long_way_stores(alice, variant):
    rules = RULES[variant]
    quick, slow = _night(alice, rules, "Quick"), _night(alice, rules, "Slow")
    done: list[set[int]] = [set(), set(), set()]
    number = 0
    while quick.status != Game.Status.FINISHED and number < 60:
        entry = _entry(number, rules, done)
        board = load_scoreboard(quick)
        quick, fresh = services.enter_round(quick, entry, version=quick.version, board=board)
        slow = services.add_round(slow, entry, version=slow.version)
        # The scoreboard handed to the page is the one the rounds give when read back.
        assert fresh == load_scoreboard(quick)
        assert _stored(quick) == _stored(slow)
        number += 1
    assert quick.status == Game.Status.FINISHED


def test_a_round_on_a_scoreboard_the_night_has_moved_on_from_is_stale_and_writes_nothing(alice):
    game = _night(alice, Rules())
    board = load_scoreboard(game)
    entry = RoundEntry(went_out=0, points=(0, 10, 15), completed={0: None})
    # Another scorer saved a round since the form was drawn.
    services.add_round(Game.objects.get(pk=game.pk), entry, version=game.version)
    before = _stored(Game.objects.get(pk=game.pk))
    with pytest.raises(Stale):
        services.enter_round(game, entry, version=board.version, board=board)
    assert _stored(Game.objects.get(pk=game.pk)) == before


def _fields(html: str) -> str:
    """`html` without its blank lines nor CSRF tokens (a new one each request)."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    return "\n".join(line.rstrip() for line in html.splitlines() if line.strip())


def _same(html: str) -> str:
    """`html` with its white space collapsed and quotes escaped as Django escapes them
    (Jinja2 writes &#39; and &#34; for &#x27; and &quot;)."""
    html = html.replace("&#39;", "&#x27;").replace("&#34;", "&quot;")
    return re.sub(r"\s+", " ", html).replace("> <", "><")


# A new round's empty form; a round refused (typed wrong); a round opened for a correction.
FORMS = {
    "new": {},
    "refused": {"went_out": ["1", "2"], "points_0": "7", "points_1": "", "completed_2": "9"},
    "correction": {"number": 1},
}


@pytest.mark.parametrize("case", FORMS)
@pytest.mark.parametrize("variant", RULES)
def test_the_round_forms_inputs_are_what_its_widgets_would_draw(alice, variant, case):
    game = _night(alice, RULES[variant])
    entry = RoundEntry(went_out=2, points=(20, 35, 0), completed={2: 1})
    game = services.add_round(game, entry, version=game.version)
    board = load_scoreboard(game)
    url = "/rounds/"
    if case == "new":
        form = NightRoundForm(board)
        drawn = entry_forms.new_round_form(board, url)
    elif case == "refused":
        data = QueryDict(mutable=True)
        for name, value in {"version": board.version, **FORMS[case]}.items():
            data.setlist(name, value if isinstance(value, list) else [str(value)])
        form = NightRoundForm(board, data)
        assert not form.is_valid()
        drawn = entry_forms.bound_round_form(form, url)
    else:
        form = NightRoundForm(board, number=1)
        drawn = entry_forms.bound_round_form(form, url)
    context = {"game": game, "round_form": drawn, **page_parts()}
    html = _same(render(ROUND_FORM, context))
    assert ("Correct round 1" if case == "correction" else "Enter round 2") in html
    widgets = [form["version"]] + [
        form[f"{field}_{seat}"] for seat in range(3) for field in ("completed", "points")
    ]
    for widget in widgets:
        assert _same(str(widget)) in html
        assert _same(str(widget.errors)) in html
    assert bool(form.errors) == (case == "refused")
    went_out = form["went_out"].value()
    checked = re.findall(r'name="went_out" value="(\w+)"[^>]*checked', html)
    assert checked == ([] if went_out is None else [str(went_out)])


def _rows(html: str) -> list[str]:
    return [_fields(row) for row in re.findall(r"<tr>.*?</tr>", html, re.S)]


def _totals(html: str) -> str:
    found = re.search(r'<tr id="history-totals"[^>]*>(.*?)</tr>', html, re.S)
    assert found is not None
    return _fields(found.group(1))


@pytest.mark.parametrize("rounds", [1, 2, 5])
def test_the_answer_to_a_round_is_the_page_a_reload_draws(alice_client, rounds):
    """The game above the rounds as a reload draws it; the rounds' table, once it is on
    the page, kept there (hx-preserve) and given the new round's row and the totals out
    of band: together, the table a reload draws."""
    night = start_night(alice_client)
    for number in range(rounds - 1):
        out = number % 3
        points = [0 if seat == out else 5 * (seat + 1) for seat in range(3)]
        post_round(alice_client, night, htmx=True, went_out=out, points=points, completed=[out])
    before = alice_client.get(night.get_absolute_url()).content.decode()
    answer = post_round(
        alice_client, night, htmx=True, went_out=1, points=[5, 0, 20], completed=[1]
    )
    assert answer.status_code == 200
    cache.clear()  # the reload draws the night from its rounds, not from what the answer kept
    page = alice_client.get(night.get_absolute_url()).content.decode()
    drawn = answer.content.decode()
    summary = drawn.index('<section class="scoreboard"')
    game = page[page.index('<section class="scoreboard"') : page.index('<section class="history"')]
    assert _fields(drawn[summary : drawn.index('<section class="history"')]) == _fields(game)
    table = page[page.index('id="history-rows"') :]
    table = table[: table.index("</tbody>")]
    if rounds == 1:  # the page said "No rounds yet.": the whole table is sent
        assert "hx-preserve" not in drawn and "hx-swap-oob" not in drawn
        assert 'id="history-title"' in drawn
        sent = drawn[drawn.index('id="history-rows"') :]
        assert _rows(sent[: sent.index("</tbody>")]) == _rows(table)
        return
    assert '<section class="history" id="history" hx-preserve></section>' in drawn
    assert 'id="history-title"' not in drawn  # the rounds before aren't sent again
    kept = before[before.index('id="history-rows"') :]
    kept = kept[: kept.index("</tbody>")]
    added = drawn[drawn.index('hx-swap-oob="beforeend:#history-rows"') :]
    assert _rows(kept) + _rows(added[: added.index("</tbody>")]) == _rows(table)
    assert len(_rows(table)) == rounds
    assert _totals(drawn[drawn.index("</tbody></template>") :]) == _totals(page)
    assert 'hx-swap-oob="true"' in drawn[drawn.index('<tr id="history-totals"') :][:60]


def test_a_refused_round_is_answered_with_the_whole_table(alice_client):
    night = start_night(alice_client)
    post_round(alice_client, night, htmx=True, went_out=0, points=[0, 10, 5], completed=[0])
    post_round(alice_client, night, htmx=True, went_out=1, points=[5, 0, 20], completed=[1])
    refused = post_round(alice_client, night, htmx=True, went_out=1, points=[5, 7, 20])
    drawn = refused.content.decode()
    assert "errorlist" in drawn and "hx-preserve" not in drawn and "hx-swap-oob" not in drawn
    sent = drawn[drawn.index('id="history-rows"') :]
    assert len(_rows(sent[: sent.index("</tbody>")])) == 2


def test_a_corrected_round_is_drawn_anew_in_the_history(alice_client):
    night = start_night(alice_client)
    post_round(alice_client, night, htmx=True, went_out=0, points=[0, 10, 5], completed=[0])
    post_round(alice_client, night, htmx=True, went_out=1, points=[5, 0, 20], completed=[1])
    edit_round(alice_client, night, 1, htmx=True, went_out=0, points=[0, 45, 5], completed=[0])
    page = alice_client.get(night.get_absolute_url()).content.decode()
    history = page[page.index('id="history-title"') :]
    first = re.search(r"<tr>.*?</tr>", history[history.index('<tbody id="history-rows">') :], re.S)
    assert first is not None and re.search(r">\s*45\s*<", first.group(0))


@pytest.mark.parametrize("rounds", [1, 8])
def test_a_round_costs_the_same_queries_however_long_the_night(
    alice_client, rounds, django_assert_max_num_queries
):
    night = start_night(alice_client)
    for number in range(rounds):
        out = number % 3
        points = [0 if seat == out else 5 for seat in range(3)]
        post_round(alice_client, night, htmx=True, went_out=out, points=points, completed=[out])
    # session, user, the game, its seats; the version moved on, the round and the seats
    # written (in a savepoint here: five statements); the scoreboard is the one the last
    # round's answer left in the cache.
    data = round_data(night, went_out=1, points=[5, 0, 5], completed=[1])
    url = reverse("games:night_add_round", args=[night.public_id])
    with django_assert_max_num_queries(9):
        answer = alice_client.post(url, data, headers={"HX-Request": "true"})
    assert f"Round {rounds + 1} saved." in answer.content.decode()
    assert url in answer.content.decode()


def test_a_round_where_the_nights_scoreboard_isnt_kept_keeps_only_the_one_it_makes(
    alice_client, monkeypatch
):
    """Another process answered the last round: this one reads the night to fold the new
    round onto, and keeps the scoreboard the round makes, not the one it read."""
    night = start_night(alice_client)
    post_round(alice_client, night, htmx=True, went_out=0, points=[0, 10, 5], completed=[0])
    cache.clear()
    kept_versions = []
    keep = views._keep_scoreboard

    def keep_and_note(game, board):  # type: ignore[no-untyped-def]
        kept_versions.append(board.version)
        keep(game, board)

    monkeypatch.setattr(views, "_keep_scoreboard", keep_and_note)
    answer = post_round(
        alice_client, night, htmx=True, went_out=1, points=[5, 0, 20], completed=[1]
    )
    assert "Round 2 saved." in answer.content.decode()
    night.refresh_from_db()
    assert kept_versions == [night.version]
    assert cache.get(cache_keys.night_scoreboard(night)) == load_scoreboard(night)


@pytest.mark.parametrize("rounds", [2, 6])
def test_the_round_that_ends_a_night_costs_the_same_queries_and_rates_the_night(
    alice_client,
    alice,
    rounds,
    django_assert_max_num_queries,
    django_capture_on_commit_callbacks,
    monkeypatch,
):
    """The last round is written on the form's scoreboard as any other (the rounds before
    it not read), with the game's end; its result then goes to the ratings."""
    from games.models import RatedGame, RatingChange

    night = start_night(alice_client, phases="custom", custom="1")
    # Phase 1 only: a round where nobody lays it goes on; the first one laid ends the night.
    url = reverse("games:night_add_round", args=[night.public_id])
    for _number in range(rounds - 1):
        nobody = round_data(night, went_out=None, points=[5, 10, 15]) | {"went_out": "none"}
        alice_client.post(url, nobody)
    night.refresh_from_db()
    assert night.rounds_played == rounds - 1 and night.status == Game.Status.ACTIVE
    data = round_data(night, went_out=1, points=[5, 0, 20], completed=[1])

    def the_long_way(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("the last round went the long way")

    monkeypatch.setattr(services, "_save", the_long_way)
    # session, user, the game, its seats; the round written with the game's end (five
    # statements in a savepoint here); the page's rating changes and chart. The ratings run after commit (eagerly here).
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        django_assert_max_num_queries(12),
    ):
        answer = alice_client.post(url, data, headers={"HX-Request": "true"})
    assert len(callbacks) == 1
    assert "<bdi>Bob</bdi> wins after" in answer.content.decode()
    night.refresh_from_db()
    assert night.status == Game.Status.FINISHED and night.finished_at is not None
    assert night.winner is not None and night.winner.name == "Bob"
    assert list(night.seats.order_by("position").values_list("is_winner", "rank")) == [
        (False, 2),
        (True, 1),
        (False, 3),
    ]
    # The ratings ran (eagerly in tests): the night is rated and alice's rating moved.
    assert RatedGame.objects.filter(game=night).exists()
    assert RatingChange.objects.filter(game=night, player__user=alice).exists()


def test_a_round_that_calls_a_tie_breaker_stores_what_the_long_way_stores(alice, monkeypatch):
    """Two players lay the last phase in the same round on the same points: a tie-breaker
    is due, the night goes on without a winner, both ways alike."""
    rules = Rules(phases=(1, 2))
    quick, slow = _night(alice, rules, "Quick"), _night(alice, rules, "Slow")
    entries = [
        RoundEntry(went_out=0, points=(0, 10, 20), completed={0: None, 1: None}),
        RoundEntry(went_out=1, points=(10, 0, 25), completed={0: None, 1: None}),
    ]
    for entry in entries:
        board = load_scoreboard(quick)
        with monkeypatch.context() as patched:  # the form's scoreboard, not the long way
            patched.setattr(services, "_save", None)
            quick, fresh = services.enter_round(quick, entry, version=quick.version, board=board)
        slow = services.add_round(slow, entry, version=slow.version)
        assert fresh == load_scoreboard(quick)
        assert _stored(quick) == _stored(slow)
    assert fresh.tiebreak_needed and not fresh.is_over
    assert [seat.name for seat in fresh.tied] == [
        quick.seats.get(position=0).player.name,
        "Bob & <Co>",
    ]
    assert quick.status == Game.Status.ACTIVE and quick.winner is None
