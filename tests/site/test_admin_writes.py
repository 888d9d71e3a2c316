"""Whatever staff change in the admin, the pages stay true: each model the admin offers
is edited through its change form (every field it lets a superuser change, changed),
then a round is entered on a night and a move made in an online game, and the totals
are still the sum of the stored rounds."""

import pytest
from django import forms
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core import mail
from django.urls import reverse

from games.models import ChatMessage, Game, Move, Notification, Player, RoundScore
from games.online import chat, services
from tests.nights.helpers import post_round, start_night
from tests.nights.test_version_rule import assert_totals_are_the_rounds
from tests.online.helpers import started_game
from tests.site.test_admin import change_form

pytestmark = pytest.mark.django_db


def _changed(field: forms.Field, values: list[str]) -> list[str]:
    """Other values a person could enter in `field` in place of `values`."""
    if isinstance(field, forms.BooleanField):
        return [] if values else ["on"]
    if isinstance(field, forms.IntegerField) and not isinstance(field, forms.ModelChoiceField):
        return [str(int(value or 0) + 3) for value in values]
    if type(field) is forms.CharField:
        return [(value + " staff")[: field.max_length] for value in values]
    return values  # choices, other rows, JSON, dates: as they were


def _edit(admin_client, obj) -> int:
    """POST `obj`'s admin change form back with every value it lets a superuser change
    changed; the answer's status (302: saved, 403: read only)."""
    meta = obj._meta
    url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
    page = admin_client.get(url)
    data = change_form(page.content.decode(), f"{meta.model_name}_form")
    for name, field in page.context["adminform"].form.fields.items():
        data[name] = _changed(field, data.get(name, []))
    answer = admin_client.post(url, data)
    assert answer.status_code in (302, 403), answer.context["adminform"].form.errors
    return answer.status_code


def test_every_admin_edit_leaves_a_nights_and_an_online_games_totals_true(
    alice, bob, alice_client, admin_client, client
):
    night = start_night(alice_client)
    for out, points in ((0, [0, 25, 40]), (1, [15, 0, 5])):
        post_round(alice_client, night, htmx=True, went_out=out, points=points, completed=[out])
    online = started_game(alice, bob)
    first = Game.objects.get(pk=online.pk)
    seat = services.load_state(first).current_seat
    ChatMessage.objects.create(
        game=online, seat=online.seats.get(position=0), move_number=0, text="hi"
    )
    if not Notification.objects.filter(game=online).exists():
        Notification.objects.create(
            game=online, recipient=bob, kind=Notification.Kind.choices[0][0]
        )
    if not online.moves.exists():
        online.moves.create(number=0, seat=seat, action={"type": "draw"})  # a row to look at
    edited = [
        night,
        online,
        *Player.objects.filter(seats__game__in=[night, online]),
        *RoundScore.objects.filter(game=night),
        *Move.objects.filter(game=online),
        *ChatMessage.objects.filter(game=online),
        *Notification.objects.filter(game=online),
        alice.profile,
    ]
    offered = {
        model
        for model in apps.get_models()
        if admin.site.is_registered(model) and model._meta.app_label in {"games", "accounts"}
    }
    assert offered <= {type(obj) for obj in edited}
    versions = {game.pk: game.version for game in Game.objects.filter(pk__in=[night.pk, online.pk])}
    statuses = {type(obj).__name__: _edit(admin_client, obj) for obj in edited}
    assert statuses["RoundScore"] == statuses["Move"] == 403
    assert statuses["Game"] == statuses["Player"] == 302
    for game in Game.objects.filter(pk__in=[night.pk, online.pk]):
        assert game.version > versions[game.pk]  # every open page of it is told

    post_round(alice_client, night, htmx=True, went_out=2, points=[10, 20, 0], completed=[2])
    night.refresh_from_db()
    assert night.rounds_played == 3
    assert_totals_are_the_rounds(alice_client, night)

    online.refresh_from_db()
    player = online.seats.get(position=seat).player.user
    client.force_login(player)
    url = reverse("games:online_act", args=[online.public_id])
    client.post(url, {"move": online.move_number, "do": "draw"}, headers={"HX-Request": "true"})
    moved = Game.objects.get(pk=online.pk)
    assert moved.move_number == online.move_number + 1
    for game_seat in moved.seats.all():
        rounds = RoundScore.objects.filter(game=moved, seat=game_seat)
        assert game_seat.score == sum(rounds.values_list("points", flat=True))


def test_a_members_away_mode_is_not_changed_in_the_admin(alice, bob, admin_client):
    """Away mode ends when the member's away periods say (accounts/away.py), which stop
    their turn clocks and move their games on: the profile's form shows it, read only."""
    game = started_game(alice, bob)
    url = reverse("admin:accounts_profile_change", args=[alice.profile.pk])
    page = admin_client.get(url)
    assert "away_until" not in page.context["adminform"].form.fields
    data = change_form(page.content.decode(), "profile_form")
    data["away_until_0"], data["away_until_1"] = ["2099-01-01"], ["12:00:00"]
    assert admin_client.post(url, data).status_code == 302
    alice.profile.refresh_from_db()
    assert alice.profile.away_until is None
    assert Game.objects.get(pk=game.pk).version == game.version


def test_staff_hide_a_chat_message_the_way_the_games_creator_does(alice, bob, admin_client):
    """Never deleted in the admin (the board keeps a copy of the recent messages on the
    game row): hidden through the chat's service, which marks the board's copy and moves
    the game on, so every open board redraws without it."""
    game = started_game(alice, bob)
    message = chat.post(game, bob, "something rude")
    before = Game.objects.get(pk=game.pk)
    stale = ChatMessage.objects.get(pk=message.pk)
    changelist = reverse("admin:games_chatmessage_changelist")
    offered = admin_client.get(changelist).context["action_form"].fields["action"].choices
    assert [value for value, _label in offered if value] == ["hide"]
    answer = admin_client.post(
        changelist, {"action": "hide", "_selected_action": [message.pk]}, follow=True
    )
    assert "1 message is hidden now." in answer.content.decode()
    message.refresh_from_db()
    after = Game.objects.get(pk=game.pk)
    assert message.hidden_at is not None
    assert after.version == before.version + 1
    assert [entry[4] for entry in after.recent_chat if entry[0] == message.pk] == [True]
    # Read before it was hidden (the creator was first): read again under the lock.
    assert chat.hide_for_staff(stale) is False
    assert Game.objects.get(pk=game.pk).version == after.version
    delete = reverse("admin:games_chatmessage_delete", args=[message.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert ChatMessage.objects.filter(pk=message.pk).exists()


def test_staff_who_may_only_look_at_the_chat_cannot_hide_a_message(alice, bob, client):
    game = started_game(alice, bob)
    message = chat.post(game, bob, "hello")
    version = Game.objects.get(pk=game.pk).version
    viewer = get_user_model().objects.create_user("viewer", password="x", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_chatmessage"))
    client.force_login(viewer)
    changelist = reverse("admin:games_chatmessage_changelist")
    page = client.get(changelist)
    assert page.status_code == 200
    assert page.context["action_form"] is None  # no action offered
    client.post(changelist, {"action": "hide", "_selected_action": [message.pk]})
    message.refresh_from_db()
    assert message.hidden_at is None
    assert Game.objects.get(pk=game.pk).version == version


def test_an_address_changed_in_the_admin_is_confirmed_again(
    alice, admin_client, django_capture_on_commit_callbacks
):
    """As when the member changes it on their profile: no game email goes to an address
    nobody has confirmed, and the new one gets the link."""
    url = reverse("admin:auth_user_change", args=[alice.pk])
    data = change_form(admin_client.get(url).content.decode(), "user_form")
    data["email"] = ["alice.new@example.com"]
    with django_capture_on_commit_callbacks(execute=True):
        assert admin_client.post(url, data).status_code == 302
    alice.refresh_from_db()
    alice.profile.refresh_from_db()
    assert alice.email == "alice.new@example.com"
    assert alice.profile.email_verified is False
    assert [message.to for message in mail.outbox] == [["alice.new@example.com"]]
