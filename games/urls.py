from django.urls import path

from .nights import views as nights
from .notify import views as notify
from .online import invitation_views as invitations
from .online import views as online

app_name = "games"

urlpatterns = [
    # Game nights: scoring a game played with a real deck.
    path("nights/", nights.night_list, name="night_list"),
    path("nights/new/", nights.night_create, name="night_create"),
    path("nights/<str:public_id>/", nights.night_detail, name="night_detail"),
    path("nights/<str:public_id>/rounds/", nights.night_add_round, name="night_add_round"),
    path(
        "nights/<str:public_id>/rounds/<int:number>/",
        nights.night_edit_round,
        name="night_edit_round",
    ),
    path("nights/<str:public_id>/undo/", nights.night_undo, name="night_undo"),
    path("nights/<str:public_id>/tiebreak/", nights.night_tiebreak, name="night_tiebreak"),
    path("nights/<str:public_id>/scorers/", nights.night_add_co_scorer, name="night_co_scorer"),
    path("nights/<str:public_id>/rematch/", nights.night_rematch, name="night_rematch"),
    path("s/<str:token>/", nights.night_share, name="night_share"),
    path("s/<str:token>/live/", nights.night_share_live, name="night_share_live"),
    # Online play.
    path("play/", online.online_list, name="online_list"),
    path("play/new/", online.online_create, name="online_create"),
    path("play/join/<str:token>/", invitations.online_join, name="online_join"),
    path("play/<str:public_id>/", online.online_detail, name="online_detail"),
    path("play/<str:public_id>/poll/", online.online_poll, name="online_poll"),
    path("play/<str:public_id>/act/", online.online_act, name="online_act"),
    path("play/<str:public_id>/hint/", online.online_hint, name="online_hint"),
    path("play/<str:public_id>/sort/", online.online_sort, name="online_sort"),
    path("play/<str:public_id>/resign/", online.online_resign, name="online_resign"),
    path("play/<str:public_id>/rematch/", online.online_rematch, name="online_rematch"),
    path("play/<str:public_id>/start/", online.online_start, name="online_start"),
    path("play/<str:public_id>/leave/", online.online_leave, name="online_leave"),
    path("play/<str:public_id>/invite/", online.online_invite, name="online_invite"),
    path(
        "play/<str:public_id>/invitation/accept/",
        invitations.online_accept_invitation,
        name="online_accept_invitation",
    ),
    path(
        "play/<str:public_id>/invitation/decline/",
        invitations.online_decline_invitation,
        name="online_decline_invitation",
    ),
    path(
        "play/<str:public_id>/invitations/<int:invitation_id>/withdraw/",
        online.online_withdraw_invitation,
        name="online_withdraw_invitation",
    ),
    path("play/<str:public_id>/link/", online.online_revoke_link, name="online_revoke_link"),
    path("play/<str:public_id>/bots/", online.online_add_bot, name="online_add_bot"),
    path(
        "play/<str:public_id>/seats/<int:position>/remove/",
        online.online_remove_seat,
        name="online_remove_seat",
    ),
    path("unsubscribe/<str:token>/", notify.unsubscribe, name="unsubscribe"),
    path("notify/<str:public_id>/mute/", online.online_mute, name="online_mute"),
]
