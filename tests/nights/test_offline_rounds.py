"""Rounds a scorer's phone kept while it had no signal, sent when the connection is back
(games/nights/offline_views.py): each is applied once, in order; a round another scorer
entered meanwhile is a conflict for the host, never applied twice nor dropped silently.
Also the installable web app's pieces: the service worker, the manifest, the icons."""

import json
import struct
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.models import Game, QueuedRound, RoundScore
from tests.nights.helpers import post_round, round_data, start_night

pytestmark = pytest.mark.django_db

# Round 1 as the host's phone kept it, and as a co-scorer entered it meanwhile.
FIRST = {"went_out": 0, "points": [0, 35, 20], "completed": [0]}


def send_queued(client, game: Game, *, number: int, version: int, key: str | None = None, **round):  # type: ignore[no-untyped-def]
    data = round_data(game, version=version, **round)
    data.update(key=key or str(uuid.uuid4()), number=number)
    return client.post(reverse("games:night_queued_round", args=[game.public_id]), data)


def rounds_of(game: Game) -> list[tuple[int, int, int]]:
    """(round, seat, points) of every stored row."""
    return list(
        RoundScore.objects.filter(game=game)
        .order_by("round_number", "seat__position")
        .values_list("round_number", "seat__position", "points")
    )


@pytest.fixture
def night(alice_client):  # type: ignore[no-untyped-def]
    return start_night(alice_client)


@pytest.fixture
def bob_scores(night, bob):  # type: ignore[no-untyped-def]
    night.co_scorers.add(bob)
    client = Client()
    client.force_login(bob)
    return client


def test_a_queued_round_is_saved_with_its_key(alice_client, night):
    key = str(uuid.uuid4())
    response = send_queued(alice_client, night, number=1, version=night.version, key=key, **FIRST)
    assert response.status_code == 200
    assert response.json()["status"] == "applied"
    assert response.json()["number"] == 1
    night.refresh_from_db()
    assert night.rounds_played == 1
    assert response.json()["version"] == night.version
    assert QueuedRound.objects.get(game=night).key == uuid.UUID(key)


def test_a_queued_round_sent_again_is_answered_already_applied_and_applies_nothing(
    alice_client, night
):
    key = str(uuid.uuid4())
    version = night.version
    first = send_queued(alice_client, night, number=1, version=version, key=key, **FIRST)
    assert first.json()["status"] == "applied"
    night.refresh_from_db()
    saved_version, saved_rows = night.version, rounds_of(night)

    again = send_queued(alice_client, night, number=1, version=version, key=key, **FIRST)

    assert again.status_code == 200
    assert again.json()["status"] == "already_applied"
    night.refresh_from_db()
    assert night.version == saved_version
    assert night.rounds_played == 1
    assert rounds_of(night) == saved_rows


def test_an_applied_round_sent_again_with_the_version_it_got_back_is_not_applied_twice(
    alice_client, night
):
    """The phone kept the round after its answer (a second tab, a retry), took the
    version the answer carried, and sends it again: its key says it is in already,
    whatever version comes with it."""
    key = str(uuid.uuid4())
    first = send_queued(alice_client, night, number=1, version=night.version, key=key, **FIRST)
    assert first.json()["status"] == "applied"
    night.refresh_from_db()
    saved_version, saved_rows = night.version, rounds_of(night)

    again = send_queued(
        alice_client, night, number=1, version=first.json()["version"], key=key, **FIRST
    )

    assert (again.status_code, again.json()["status"], again.json()["number"]) == (
        200,
        "already_applied",
        1,
    )
    night.refresh_from_db()
    assert (night.version, night.rounds_played, rounds_of(night)) == (saved_version, 1, saved_rows)


def test_three_rounds_entered_against_one_version_are_saved_in_order(alice_client, night):
    version = night.version  # the phone was offline: each was entered against this version
    rounds = [
        dict(went_out=0, points=[0, 35, 20], completed=[0]),
        dict(went_out=1, points=[15, 0, 40], completed=[1]),
        dict(went_out=2, points=[5, 10, 0], completed=[2, 0]),
    ]
    for number, round in enumerate(rounds, start=1):
        response = send_queued(alice_client, night, number=number, version=version, **round)
        assert response.json() == response.json() | {"status": "applied", "number": number}

    night.refresh_from_db()
    assert night.rounds_played == 3
    points = [points for (_round, _seat, points) in rounds_of(night)]
    assert points == [0, 35, 20, 15, 0, 40, 5, 10, 0]


def test_a_round_another_scorer_entered_meanwhile_is_a_conflict_and_changes_nothing(
    alice_client, bob_scores, night
):
    version = night.version
    post_round(bob_scores, night, went_out=1, points=[25, 0, 10], completed=[1])
    night.refresh_from_db()
    before = (night.version, rounds_of(night))

    response = send_queued(alice_client, night, number=1, version=version, **FIRST)

    assert response.status_code == 409
    answer = response.json()
    assert answer["status"] == "conflict"
    assert "Round 1" in answer["message"]
    assert answer["version"] == night.version  # what a correction of round 1 is checked against
    assert answer["edit_url"] == reverse("games:night_edit_round", args=[night.public_id, 1])
    night.refresh_from_db()
    assert (night.version, rounds_of(night)) == before
    assert not QueuedRound.objects.exists()


def test_the_host_keeps_a_conflicting_round_as_a_correction_of_that_round(
    alice_client, bob_scores, night
):
    version = night.version
    post_round(bob_scores, night, went_out=1, points=[25, 0, 10], completed=[1])
    answer = send_queued(alice_client, night, number=1, version=version, **FIRST).json()

    data = round_data(
        night, version=answer["version"], went_out=0, points=[0, 35, 20], completed=[0]
    )
    alice_client.post(answer["edit_url"], data)

    night.refresh_from_db()
    assert night.rounds_played == 1
    assert [points for (_round, _seat, points) in rounds_of(night)] == [0, 35, 20]


def test_the_same_round_saved_online_whose_answer_was_lost_is_already_applied(alice_client, night):
    version = night.version
    post_round(alice_client, night, went_out=0, points=[0, 35, 20], completed=[0])
    night.refresh_from_db()
    before = (night.version, rounds_of(night))

    response = send_queued(alice_client, night, number=1, version=version, **FIRST)

    assert response.json()["status"] == "already_applied"
    night.refresh_from_db()
    assert (night.version, rounds_of(night)) == before


def test_a_queued_round_after_another_scorers_change_elsewhere_is_saved_as_the_next_round(
    alice_client, bob_scores, night
):
    post_round(alice_client, night, went_out=0, points=[0, 35, 20], completed=[0])
    night.refresh_from_db()
    version = night.version
    # bob corrects round 1 meanwhile: the version moves, round 2 is still free
    data = round_data(night, went_out=0, points=[0, 40, 20], completed=[0])
    bob_scores.post(reverse("games:night_edit_round", args=[night.public_id, 1]), data)

    response = send_queued(
        alice_client,
        night,
        number=2,
        version=version,
        went_out=1,
        points=[15, 0, 40],
        completed=[1],
    )

    assert response.json()["status"] == "applied"
    night.refresh_from_db()
    assert night.rounds_played == 2


def test_a_queued_round_the_form_refuses_is_refused_with_the_reason(alice_client, night):
    response = send_queued(
        alice_client, night, number=1, version=night.version, went_out=0, points=[0, 7, 20]
    )
    assert response.status_code == 422
    assert response.json()["status"] == "refused"
    assert "multiples of 5" in response.json()["message"]
    night.refresh_from_db()
    assert night.rounds_played == 0


def test_a_queued_round_without_its_key_is_refused(alice_client, night):
    data = round_data(night, went_out=0, points=[0, 35, 20], completed=[0])
    response = alice_client.post(reverse("games:night_queued_round", args=[night.public_id]), data)
    assert response.status_code == 400
    assert response.json()["status"] == "refused"


def test_only_a_scorer_can_send_a_queued_round(night, stranger):
    someone_else = Client()
    someone_else.force_login(stranger)
    response = send_queued(someone_else, night, number=1, version=night.version, **FIRST)
    assert response.status_code == 404
    anonymous = send_queued(Client(), night, number=1, version=night.version, **FIRST)
    assert anonymous.status_code == 302
    assert not QueuedRound.objects.exists()


@pytest.mark.parametrize("rounds_before", [1, 6])
def test_a_queued_round_costs_a_bounded_number_of_queries(
    alice_client, night, rounds_before, django_assert_max_num_queries
):
    for _ in range(rounds_before):
        post_round(alice_client, night, went_out=0, points=[0, 5, 5], completed=[0])
    night.refresh_from_db()
    key = str(uuid.uuid4())
    with django_assert_max_num_queries(17):
        response = send_queued(
            alice_client,
            night,
            number=rounds_before + 1,
            version=night.version,
            key=key,
            went_out=1,
            points=[5, 0, 5],
            completed=[1],
        )
    assert response.json()["status"] == "applied"
    with django_assert_max_num_queries(6):
        again = send_queued(
            alice_client,
            night,
            number=rounds_before + 1,
            version=night.version,
            key=key,
            went_out=1,
            points=[5, 0, 5],
            completed=[1],
        )
    assert again.json()["status"] == "already_applied"


# --- the installable web app ------------------------------------------------------------------


def test_the_service_worker_is_served_at_the_root_uncached(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert reverse("games:offline") in body
    assert "/static/js/offline.js" in body
    assert 'addEventListener("fetch"' in body


def test_the_offline_page_says_a_connection_is_needed(client):
    response = client.get(reverse("games:offline"))
    assert response.status_code == 200
    assert "needs a connection" in response.content.decode()


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def test_the_manifest_names_the_app_and_its_icons():
    static = Path(settings.BASE_DIR) / "static"
    manifest = json.loads((static / "manifest.json").read_text())
    assert manifest["name"] and manifest["short_name"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/nights/"
    assert manifest["theme_color"].startswith("#")
    sizes = {}
    for icon in manifest["icons"]:
        if icon["type"] == "image/png":
            width, height = png_size(static / icon["src"])
            assert icon["sizes"] == f"{width}x{height}"
            sizes.setdefault(icon["purpose"], set()).add(width)
    assert sizes["any"] >= {192, 512}
    assert 512 in sizes["maskable"]


def test_every_page_links_the_manifest_and_loads_the_offline_script(client):
    page = client.get(reverse("home")).content.decode()
    assert 'rel="manifest"' in page
    manifest = client.get("/static/manifest.json")
    assert manifest["Content-Type"] == "application/json"  # what browsers read a manifest as
    assert "js/offline.js" in page
    assert 'name="theme-color"' in page


def test_a_conflict_names_each_difference_from_the_round_on_the_server(
    alice_client, bob_scores, night
):
    version = night.version
    post_round(bob_scores, night, went_out=1, points=[25, 0, 20], completed=[1])

    response = send_queued(alice_client, night, number=1, version=version, **FIRST)

    # Carol's 20 points are the same on both phones: not a difference.
    assert response.json()["differences"] == [
        "Went out: Bob on the other phone, alice on yours.",
        "alice: 25 points on the other phone, 0 on yours.",
        "alice: phase 1 completed on yours, not on the other phone.",
        "Bob: 0 points on the other phone, 35 on yours.",
        "Bob: phase 1 completed on the other phone, not on yours.",
    ]
