"""Claiming a guest: the scorer invites, or the player asks and the scorer agrees;
accepting moves all the guest's history to the user's Player."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from accounts import claims
from accounts.models import GuestClaim
from games.models import Game, Player, RoundScore, Seat
from games.stats import figures
from games.stats.scope import Scope
from tests.stats.factories import laid, make_game, missed, player

pytestmark = pytest.mark.django_db


@pytest.fixture
def guest_night(alice, bob):
    """Alice scored a game night where the guest "Carol" beat bob."""
    guest = player("Carol", created_by=alice)
    game = make_game(
        [player(alice), player(bob), guest],
        [[missed(1, 20), missed(1, 30), laid(1, out=True)]],
        winner=2,
        rules={"phases": [1]},
        name="Friday",
    )
    return guest, game


def _invite(client, guest, who, capture):
    with capture(execute=True):
        return client.post(reverse("accounts:invite_guest", args=[guest.pk]), {"who": who})


def _accept(client, claim):
    return client.post(reverse("accounts:claim_accept", args=[claim.pk]), follow=True)


def test_the_scorer_invites_by_username_and_accepting_moves_the_history(
    alice_client, client, carol, guest_night, django_capture_on_commit_callbacks
):
    guest, game = guest_night
    response = _invite(alice_client, guest, "CAROL", django_capture_on_commit_callbacks)
    assert response.status_code == 302
    claim = GuestClaim.objects.get()
    assert (claim.kind, claim.user, claim.approver) == ("invite", carol, carol)
    assert mail.outbox[-1].to == ["carol@example.com"]
    assert "Carol" in mail.outbox[-1].subject

    client.force_login(carol)
    page = client.get(reverse("accounts:claims")).content.decode()
    assert "<bdi>alice</bdi> says you played as “<bdi>Carol</bdi>”" in page
    response = _accept(client, claim)
    assert "games now belong to carol" in response.content.decode()

    me = Player.objects.get(user=carol)
    assert not Player.objects.filter(pk=guest.pk).exists()
    assert Seat.objects.get(game=game, position=2).player == me
    assert set(
        RoundScore.objects.filter(game=game, seat__position=2).values_list("player", flat=True)
    ) == {me.pk}
    game.refresh_from_db()
    assert game.winner == me
    assert figures.summary(Scope.parse(me, None, None)).won == 1
    claim.refresh_from_db()
    assert (claim.status, claim.guest, claim.guest_name) == ("accepted", None, "Carol")


def test_an_invitation_by_email_waits_for_someone_to_confirm_that_address(
    alice_client, client, guest_night, django_capture_on_commit_callbacks
):
    guest, _game = guest_night
    _invite(alice_client, guest, "Carol.New@Example.com", django_capture_on_commit_callbacks)
    claim = GuestClaim.objects.get()
    assert (claim.user, claim.email) == (None, "carol.new@example.com")
    assert mail.outbox[-1].to == ["carol.new@example.com"]

    newcomer = get_user_model().objects.create_user("cnew", "carol.new@example.com", "x")
    client.force_login(newcomer)
    # Not confirmed yet: anyone could type someone else's address at sign-up.
    assert _accept(client, claim).status_code == 404
    newcomer.profile.email_verified = True
    newcomer.profile.save()
    _accept(client, claim)
    assert Seat.objects.filter(player__user=newcomer).count() == 1


def test_only_the_scorer_can_invite(client, bob, stranger, guest_night):
    guest, _game = guest_night
    for user in (bob, stranger):
        client.force_login(user)
        response = client.post(reverse("accounts:invite_guest", args=[guest.pk]), {"who": "x"})
        assert response.status_code == 404
    assert not GuestClaim.objects.exists()


def test_an_unknown_username_is_refused_with_a_message(alice_client, guest_night):
    guest, _game = guest_night
    response = alice_client.post(
        reverse("accounts:invite_guest", args=[guest.pk]), {"who": "nobody"}, follow=True
    )
    assert "Nobody here has the username “nobody”" in response.content.decode()
    assert not GuestClaim.objects.exists()


def test_a_guest_and_a_user_seated_in_the_same_game_cannot_be_merged(
    alice_client, client, bob, guest_night, django_capture_on_commit_callbacks
):
    guest, _game = guest_night
    response = alice_client.post(
        reverse("accounts:invite_guest", args=[guest.pk]), {"who": "bob"}, follow=True
    )
    assert "played in the same game" in response.content.decode()
    assert not GuestClaim.objects.exists()


def test_a_merge_is_refused_if_they_sat_together_after_the_invitation(
    alice, carol, guest_night, django_capture_on_commit_callbacks
):
    guest, _game = guest_night
    claim = claims.invite(alice, guest, "carol")
    make_game([player(carol), guest], [[laid(1, out=True), missed(1, 5)]], winner=0, creator=alice)
    with pytest.raises(claims.ClaimError, match="same game"):
        claims.accept(claim, carol)
    assert Player.objects.filter(pk=guest.pk, user=None).exists()
    assert Seat.objects.filter(player=guest).count() == 2


def test_a_user_asks_for_a_guest_with_their_name_and_the_scorer_agrees(
    client, alice, bob, carol, guest_night
):
    guest, game = guest_night
    # Carol has played with alice, so the guests of alice's game nights are suggested.
    make_game([player(carol), player(alice)], [[laid(1, out=True), missed(1, 5)]], winner=0)
    client.force_login(carol)
    page = client.get(reverse("accounts:claims")).content.decode()
    assert "<strong>Carol</strong> · 1 game night," in page
    assert "scored by <bdi>alice</bdi>" in page
    response = client.post(reverse("accounts:request_claim", args=[guest.pk]), follow=True)
    assert "We asked alice to confirm" in response.content.decode()
    claim = GuestClaim.objects.get()
    assert (claim.kind, claim.approver, claim.user) == ("request", alice, carol)

    # Carol can't approve her own request.
    assert client.post(reverse("accounts:claim_accept", args=[claim.pk])).status_code == 404
    client.force_login(alice)
    _accept(client, claim)
    assert Seat.objects.get(game=game, position=2).player.user == carol


def test_guests_of_strangers_are_never_suggested(client, stranger, alice, bob, guest_night):
    guest, _game = guest_night
    guest.name = "stranger"
    guest.save()
    client.force_login(stranger)
    assert list(claims.suggested_guests(stranger)) == []
    response = client.post(reverse("accounts:request_claim", args=[guest.pk]))
    assert response.status_code == 404


def test_declining_leaves_the_guest_alone(client, alice, carol, guest_night):
    guest, _game = guest_night
    claim = claims.invite(alice, guest, "carol")
    client.force_login(carol)
    response = client.post(reverse("accounts:claim_decline", args=[claim.pk]), follow=True)
    assert "stays a guest" in response.content.decode()
    claim.refresh_from_db()
    assert claim.status == "declined"
    assert Player.objects.filter(pk=guest.pk, user=None).exists()


def test_a_claim_is_answered_once(client, alice, bob, carol, guest_night):
    guest, _game = guest_night
    claim = claims.invite(alice, guest, "carol")
    client.force_login(bob)
    assert client.post(reverse("accounts:claim_accept", args=[claim.pk])).status_code == 404
    client.force_login(carol)
    _accept(client, claim)
    assert client.post(reverse("accounts:claim_accept", args=[claim.pk])).status_code == 404
    with pytest.raises(claims.ClaimError):
        claims.accept(claim, carol)


def test_accepting_cancels_the_other_open_claims_on_that_guest(alice, carol, stranger, guest_night):
    guest, _game = guest_night
    first = claims.invite(alice, guest, "carol")
    second = claims.invite(alice, guest, "stranger")
    claims.accept(first, carol)
    second.refresh_from_db()
    assert second.status == "cancelled"


def test_a_scorer_asking_for_their_own_guest_merges_at_once(client, alice, bob):
    guest = player("ALICE", created_by=alice)
    make_game([player(bob), guest], [[laid(1, out=True), missed(1, 5)]], winner=0, creator=alice)
    client.force_login(alice)
    response = client.post(reverse("accounts:request_claim", args=[guest.pk]), follow=True)
    assert "games are now yours" in response.content.decode()
    assert Seat.objects.filter(player__user=alice, game__mode=Game.Mode.NIGHT).count() == 1


def test_a_refused_instant_claim_leaves_no_pending_claim(alice, guest_night):
    # Alice scored the night and sat at it herself: asking to be the guest is
    # refused by the merge, and the claim it started is rolled back with it.
    guest, _game = guest_night
    with pytest.raises(claims.ClaimError, match="played in the same game"):
        claims.request_claim(alice, guest)
    assert not GuestClaim.objects.filter(guest=guest).exists()
    assert Player.objects.filter(pk=guest.pk).exists()


def test_a_bot_is_never_suggested_as_a_guest_to_claim(alice, bob):
    from games.online import lobby

    # bob has played with alice; her online game's bot happens to be called "bob".
    make_game([player(alice), player(bob)], [[laid(1, out=True), missed(1, 5)]], winner=0)
    game = lobby.create_game(alice, seats=2, bots=1)
    Player.objects.filter(seats__game=game, seats__is_bot=True).update(name="bob")
    lobby.start_game(game, alice)
    assert list(claims.suggested_guests(bob)) == []


def test_a_guests_stats_page_offers_the_claims_its_viewer_may_make(client, alice, bob):
    # Alice scored a night with a guest named "alice": she may invite someone to be
    # that guest, or say it was her.
    guest = player("alice", created_by=alice)
    make_game([guest, player(bob)], [[laid(1, out=True), missed(1, 5)]], winner=0, creator=alice)
    guest_page = reverse("games:player_stats", args=[guest.pk])
    invite = reverse("accounts:invite_guest", args=[guest.pk])
    request = reverse("accounts:request_claim", args=[guest.pk])

    client.force_login(alice)
    page = client.get(guest_page).content.decode()
    assert f'action="{invite}"' in page and 'name="who"' in page
    request_form = page.split(f'action="{request}"')[1].split("</form>")[0]
    assert 'name="csrfmiddlewaretoken"' in request_form
    client.force_login(bob)  # sat with the guest, neither the scorer nor the guest
    page = client.get(guest_page).content.decode()
    assert guest.name in page
    assert f'action="{request}"' not in page and f'action="{invite}"' not in page


def test_a_members_stats_page_offers_no_claim(client, alice, bob, guest_night):
    client.force_login(alice)
    page = client.get(reverse("games:player_stats", args=[Player.for_user(bob).pk]))
    assert page.status_code == 200
    assert 'name="who"' not in page.content.decode()
