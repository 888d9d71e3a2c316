"""The rule the kept scoreboard rests on (every change of a night bumps its version, and
goes through the services): a write around it can't leave wrong totals behind."""

import re

import pytest
from django.urls import reverse

from games.models import Game, RoundScore, Seat
from tests.nights.helpers import post_round, start_night

pytestmark = pytest.mark.django_db


def _page_totals(client, night: Game) -> list[int]:
    page = client.get(night.get_absolute_url()).content.decode()
    row = re.search(r'<tr id="history-totals"[^>]*>(.*?)</tr>', page, re.S)
    assert row is not None
    return [int(total) for total in re.findall(r'<td class="num">\s*(-?\d+)\s*</td>', row.group(1))]


def _sums_of_rounds(night: Game) -> list[int]:
    seats = Seat.objects.filter(game=night).order_by("position")
    return [
        sum(RoundScore.objects.filter(seat=seat).values_list("points", flat=True)) for seat in seats
    ]


def assert_totals_are_the_rounds(client, night: Game) -> None:
    """`Seat.score`, the page's totals and the rounds' running totals all add up the
    stored rounds."""
    sums = _sums_of_rounds(night)
    assert (
        list(Seat.objects.filter(game=night).order_by("position").values_list("score", flat=True))
        == sums
    )
    assert _page_totals(client, night) == sums
    last = RoundScore.objects.filter(game=night, round_number=night.rounds_played)
    assert list(last.order_by("seat__position").values_list("total", flat=True)) == sums


def test_an_admin_edit_of_a_round_then_a_new_round_leaves_the_totals_the_rounds_give(
    alice_client, admin_client
):
    """The reviewer's probe: round 1 (0, 25, 40); the admin changes Bob's 25 to 45;
    round 2 (0, 5, 10). Bob's total was stored as 30 while his rounds added up to 50."""
    night = start_night(alice_client)
    post_round(alice_client, night, htmx=True, went_out=0, points=[0, 25, 40], completed=[0])
    _page_totals(alice_client, night)  # the page read (and kept) at this version
    bobs = RoundScore.objects.get(game=night, round_number=1, seat__position=1)
    url = reverse("admin:games_roundscore_change", args=[bobs.pk])
    assert admin_client.get(url).status_code == 200  # staff may look at it
    data = {
        "game": night.pk,
        "seat": bobs.seat_id,
        "player": bobs.player_id,
        "round_number": 1,
        "phase_attempted": 1,
        "points": 45,
        "total": 45,
        "cards_left": "[]",
    }
    admin_client.post(url, data)
    post_round(alice_client, night, htmx=True, went_out=0, points=[0, 5, 10], completed=[0])
    night.refresh_from_db()
    assert night.rounds_played == 2
    assert_totals_are_the_rounds(alice_client, night)
    assert _sums_of_rounds(night) == [0, 30, 50]  # the admin's change wasn't saved


def test_a_members_new_name_moves_their_nights_on_and_their_pages_show_it(alice_client, alice):
    night = start_night(alice_client)
    post_round(alice_client, night, htmx=True, went_out=0, points=[0, 5, 10], completed=[0])
    night.refresh_from_db()
    alice_client.get(night.get_absolute_url())  # the page and its scoreboard kept
    answer = alice_client.post(
        reverse("accounts:profile_identity"),
        {"display_name": "Alicia Renamed", "email": alice.email},
    )
    assert answer.status_code in (200, 302)
    assert Game.objects.get(pk=night.pk).version == night.version + 1
    assert "Alicia Renamed" in alice_client.get(night.get_absolute_url()).content.decode()


def test_a_claimed_guest_moves_their_nights_on_and_their_rounds_go_to_the_member(
    alice_client, alice, bob
):
    from accounts import claims

    night = start_night(alice_client)  # alice, then her guests Bob and Carol
    post_round(alice_client, night, htmx=True, went_out=0, points=[0, 5, 10], completed=[0])
    night.refresh_from_db()
    guest = night.seats.get(position=1).player
    claim = claims.invite(alice, guest, bob.username)
    claims.accept(claim, bob)
    assert Game.objects.get(pk=night.pk).version == night.version + 1
    post_round(alice_client, night, htmx=True, went_out=1, points=[5, 0, 10], completed=[1])
    night.refresh_from_db()
    assert RoundScore.objects.filter(game=night, round_number=2, player__user=bob).exists()
    assert_totals_are_the_rounds(alice_client, night)
