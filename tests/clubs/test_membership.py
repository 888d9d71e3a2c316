"""Who is in a club: creating one, invitations by username and by link, leaving, the
admins, a new join link and the name — and every refusal changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from games.clubs import membership
from games.errors import Refused
from games.models import Club, ClubInvitation, ClubMember, Game, Player
from tests.clubs.membership_helpers import club_night, make_club

pytestmark = pytest.mark.django_db


def _client(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def _said(response) -> list[str]:  # type: ignore[no-untyped-def]
    """The messages the response leaves for the next page (and takes them, so the next
    request of the same client starts with none)."""
    said = [str(message) for message in get_messages(response.wsgi_request)]
    response.client.cookies.pop("messages", None)
    return said


def _members(club: Club) -> dict[str, bool]:
    """username -> is admin."""
    return dict(ClubMember.objects.filter(club=club).values_list("user__username", "is_admin"))


def _version(club: Club) -> int:
    return Club.objects.get(pk=club.pk).version


def _url(name: str, club: Club) -> str:
    return reverse(f"games:{name}", args=[club.public_id])


# --- creating ------------------------------------------------------------------------------


def test_creating_a_club_makes_you_its_first_member_and_admin(alice, alice_client):
    response = alice_client.post(reverse("games:club_create"), {"name": "  Friday club "})

    club = Club.objects.get()
    assert response.status_code == 302 and response.url == _url("club_detail", club)
    assert club.name == "Friday club" and club.created_by == alice
    assert _members(club) == {"alice": True}


def test_a_double_click_on_create_makes_one_club(alice_client):
    first = alice_client.post(reverse("games:club_create"), {"name": "Friday club"})
    second = alice_client.post(reverse("games:club_create"), {"name": "Friday club"})

    assert Club.objects.count() == 1
    assert first.url == second.url


def test_a_club_needs_a_name(alice_client):
    response = alice_client.post(reverse("games:club_create"), {"name": "   "})

    assert response.status_code == 200
    assert response.context["form"].errors["name"]
    assert not Club.objects.exists()


def test_the_list_shows_your_clubs_with_members_and_games_under_way(alice, bob, carol):
    club = make_club(alice, bob, carol)
    make_club(bob, name="Bob's own club")  # not alice's
    players = [Player.for_user(alice), Player.for_user(bob)]
    club_night(club, alice, players)
    club_night(club, alice, players, finished=True)

    response = _client(alice).get(reverse("games:club_list"))

    clubs = response.context["clubs"]
    assert [(c.name, c.member_count, c.underway_count) for c in clubs] == [("Friday club", 3, 1)]
    html = response.content.decode()
    assert "3 members" in html and "1 game under way" in html
    assert "Bob&#x27;s own club" not in html


# --- invitations by username ---------------------------------------------------------------


def test_a_member_invites_someone_who_then_sees_it_and_accepts(alice, bob, carol):
    club = make_club(alice, bob)
    before = _version(club)

    response = _client(bob).post(_url("club_invite", club), {"username": " CAROL "})

    assert _said(response) == ["carol is invited."]
    assert _version(club) == before + 1
    page = _client(carol).get(reverse("games:club_list"))
    assert [i.club for i in page.context["invitations"]] == [club]
    assert "bob invited you" in page.content.decode().replace("<bdi>", "").replace("</bdi>", "")

    accepted = _client(carol).post(_url("club_accept_invitation", club))

    assert accepted.url == _url("club_detail", club)
    assert _members(club) == {"alice": True, "bob": False, "carol": False}
    assert not ClubInvitation.objects.exists()
    assert _version(club) == before + 2


@pytest.mark.parametrize(
    ("username", "said"),
    [
        ("nobody", "There is no player called “nobody”."),
        ("bob", "bob is already in this club."),
        ("carol", "carol is already invited."),
        ("", "Type the username of the person to invite."),
    ],
)
def test_an_invitation_that_cant_be_made_says_why_and_changes_nothing(
    alice, bob, carol, username, said
):
    club = make_club(alice, bob)
    membership.invite(club, alice, "carol")
    before = _version(club)

    response = _client(alice).post(_url("club_invite", club), {"username": username})

    assert response.url == _url("club_detail", club)
    assert _said(response) == [said]
    assert ClubInvitation.objects.count() == 1
    assert _version(club) == before


def test_accepting_twice_is_harmless(alice, carol):
    club = make_club(alice)
    membership.invite(club, alice, "carol")
    client = _client(carol)

    client.post(_url("club_accept_invitation", club))
    second = client.post(_url("club_accept_invitation", club))

    assert second.url == _url("club_detail", club)
    assert ClubMember.objects.filter(club=club, user=carol).count() == 1


def test_declining_deletes_the_invitation_and_a_second_decline_says_it_is_gone(alice, carol):
    club = make_club(alice)
    membership.invite(club, alice, "carol")
    client = _client(carol)

    first = _said(client.post(_url("club_decline_invitation", club)))
    second = _said(client.post(_url("club_decline_invitation", club)))

    assert first == ["Invitation declined."]
    assert second == ["This invitation is no longer open."]
    assert not ClubInvitation.objects.exists()
    assert _members(club) == {"alice": True}


def test_accepting_an_invitation_you_dont_have_changes_nothing(alice, stranger):
    club = make_club(alice)

    for url in (_url("club_accept_invitation", club), "/clubs/forged/invitation/accept/"):
        response = _client(stranger).post(url)
        assert response.url == reverse("games:club_list")
        assert _said(response) == ["This invitation is no longer open."]
    assert _members(club) == {"alice": True}


# --- the join link -------------------------------------------------------------------------


def test_the_join_link_shows_the_club_and_who_is_in_it_then_joins(alice, bob, carol):
    club = make_club(alice, bob)
    url = reverse("games:club_join", args=[club.invite_token])

    page = _client(carol).get(url)
    html = page.content.decode()
    assert "Friday club" in html and "<bdi>alice</bdi>" in html and "<bdi>bob</bdi>" in html
    assert "2 members" in html

    joined = _client(carol).post(url)
    assert joined.url == _url("club_detail", club)
    assert _members(club) == {"alice": True, "bob": False, "carol": False}


def test_a_member_opening_the_join_link_goes_straight_to_the_club(alice):
    club = make_club(alice)

    response = _client(alice).get(reverse("games:club_join", args=[club.invite_token]))

    assert response.url == _url("club_detail", club)


def test_joining_by_link_answers_an_invitation_and_twice_is_harmless(alice, carol):
    club = make_club(alice)
    membership.invite(club, alice, "carol")
    client = _client(carol)
    url = reverse("games:club_join", args=[club.invite_token])

    client.post(url)
    client.post(url)

    assert ClubMember.objects.filter(club=club, user=carol).count() == 1
    assert not ClubInvitation.objects.exists()


def test_a_new_join_link_retires_the_old_one(alice, carol):
    club = make_club(alice)
    old = reverse("games:club_join", args=[club.invite_token])

    _client(alice).post(_url("club_new_link", club))

    assert _client(carol).get(old).status_code == 404
    assert _client(carol).post(old).status_code == 404
    club.refresh_from_db()
    assert (
        _client(carol).get(reverse("games:club_join", args=[club.invite_token])).status_code == 200
    )
    assert _members(club) == {"alice": True}


# --- leaving -------------------------------------------------------------------------------


def test_the_last_admin_leaving_hands_the_club_to_the_longest_standing_member(alice, bob, carol):
    club = make_club(alice, bob, carol)  # bob joined before carol
    game = club_night(club, alice, [Player.for_user(alice), Player.for_user(bob)])
    client = _client(alice)

    confirm = client.get(_url("club_leave", club))
    assert "<bdi>bob</bdi>, its longest-standing member, becomes its admin" in (
        confirm.content.decode()
    )
    response = client.post(_url("club_leave", club))

    assert _said(response) == ["You left Friday club. bob is its admin now."]
    assert _members(club) == {"bob": True, "carol": False}
    assert Game.objects.get(pk=game.pk).club == club  # the game stays the club's


def test_an_admin_leaving_while_another_admin_remains_hands_nothing_over(alice, bob, carol):
    club = make_club(alice, bob, carol)
    membership.make_admin(club, alice, ClubMember.objects.get(club=club, user=carol).pk)

    assert membership.heir(club, alice) is None
    membership.leave(club, alice)

    assert _members(club) == {"bob": False, "carol": True}


def test_the_last_member_leaving_keeps_the_club_and_its_games(alice):
    club = make_club(alice)
    game = club_night(club, alice, [Player.for_user(alice), "Dora"], finished=True)

    membership.leave(club, alice)

    assert _members(club) == {}
    assert Game.objects.get(pk=game.pk).club_id == club.pk


def test_deleting_your_account_leaves_your_clubs_as_leaving_does(alice, bob, carol):
    from accounts.deletion import delete_account

    club = make_club(alice, bob, carol)  # bob joined before carol
    game = club_night(club, alice, [Player.for_user(alice), Player.for_user(bob)])
    version = Club.objects.get(pk=club.pk).version

    delete_account(alice)

    assert _members(club) == {"bob": True, "carol": False}  # the club has an admin
    assert Club.objects.get(pk=club.pk).version > version  # its kept pages move on
    assert Game.objects.get(pk=game.pk).club_id == club.pk


def test_leaving_twice_is_refused_and_changes_nothing(alice, bob):
    club = make_club(alice, bob)
    membership.leave(club, bob)
    before = _version(club)

    with pytest.raises(Refused):
        membership.leave(club, bob)
    assert _version(club) == before
    # Through the page, the club is no longer bob's to see.
    assert _client(bob).post(_url("club_leave", club)).status_code == 404


# --- the admins' changes -------------------------------------------------------------------


def test_an_admin_names_another_admin(alice, bob):
    club = make_club(alice, bob)
    bobs = ClubMember.objects.get(club=club, user=bob)

    response = _client(alice).post(_url("club_make_admin", club), {"member": bobs.pk})

    assert _said(response) == ["bob is an admin now."]
    assert _members(club) == {"alice": True, "bob": True}
    again = _client(alice).post(_url("club_make_admin", club), {"member": bobs.pk})
    assert _said(again) == ["bob is already an admin."]


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("club_make_admin", lambda club, other: {"member": other.pk}),
        ("club_new_link", lambda club, other: {}),
        ("club_rename", lambda club, other: {"name": "Bob's club"}),
    ],
)
def test_a_member_who_isnt_an_admin_is_told_so_and_nothing_changes(alice, bob, carol, name, data):
    club = make_club(alice, bob, carol)
    carols = ClubMember.objects.get(club=club, user=carol)
    before = Club.objects.get(pk=club.pk)

    response = _client(bob).post(_url(name, club), data(club, carols))

    assert _said(response) == ["Only the club's admins can do that."]
    after = Club.objects.get(pk=club.pk)
    assert (after.name, after.invite_token, after.version) == (
        before.name,
        before.invite_token,
        before.version,
    )
    assert _members(club) == {"alice": True, "bob": False, "carol": False}


def test_naming_an_admin_with_a_forged_or_stale_member_id_changes_nothing(alice, bob, carol):
    club = make_club(alice, bob, carol)
    elsewhere = make_club(carol, name="Carol's club")
    carols = ClubMember.objects.get(club=elsewhere, user=carol)
    gone = ClubMember.objects.get(club=club, user=carol)  # the form was drawn before she left
    membership.leave(club, carol)
    client = _client(alice)

    for forged in ({"member": carols.pk}, {"member": gone.pk}, {"member": "x"}, {}):
        response = client.post(_url("club_make_admin", club), forged)
        assert _said(response) == ["That person isn't in this club."]
    assert _members(club) == {"alice": True, "bob": False}
    assert _members(elsewhere) == {"carol": True}


def test_an_admin_renames_the_club_and_an_empty_name_is_refused(alice):
    club = make_club(alice)
    client = _client(alice)

    renamed = _said(client.post(_url("club_rename", club), {"name": " Friday night club "}))
    empty = _said(client.post(_url("club_rename", club), {"name": "  "}))

    assert renamed == ["Club renamed."]
    assert empty == ["A club's name is 1 to 60 characters long."]
    assert Club.objects.get(pk=club.pk).name == "Friday night club"


@pytest.mark.parametrize(
    "change",
    [
        lambda club, alice, bob, carol: membership.invite(club, alice, "carol"),
        lambda club, alice, bob, carol: membership.join(carol, club.invite_token),
        lambda club, alice, bob, carol: membership.leave(club, bob),
        lambda club, alice, bob, carol: membership.make_admin(
            club, alice, ClubMember.objects.get(club=club, user=bob).pk
        ),
        lambda club, alice, bob, carol: membership.new_join_link(club, alice),
        lambda club, alice, bob, carol: membership.rename(club, alice, "Another name"),
    ],
    ids=["invite", "join", "leave", "admin", "link", "rename"],
)
def test_every_change_to_a_club_bumps_its_version(alice, bob, carol, change):
    club = make_club(alice, bob)
    before = _version(club)

    change(club, alice, bob, carol)

    assert _version(club) == before + 1


@pytest.mark.parametrize("size", [2, 20])
def test_the_list_asks_the_same_few_queries_however_many_clubs(
    alice, bob, size, django_assert_num_queries
):
    for n in range(size):
        club = make_club(alice, bob, name=f"Club {n}")
        club_night(club, alice, [Player.for_user(alice), Player.for_user(bob)])
        membership.invite(make_club(bob, name=f"Bob's {n}"), bob, "alice")
    client = _client(alice)
    client.get(reverse("games:club_list"))  # the session's language and header count

    # The session, the user, the clubs with their counts, the invitations.
    with django_assert_num_queries(4):
        response = client.get(reverse("games:club_list"))
    assert len(response.context["clubs"]) == len(response.context["invitations"]) == size
