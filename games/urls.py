from django.urls import path

from .views import notify, online, tables

app_name = "games"

urlpatterns = [
    # Score tracker (game nights at a real table).
    path("nights/", tables.table_list, name="table_list"),
    path("nights/new/", tables.table_create, name="table_create"),
    path("nights/<str:public_id>/", tables.table_detail, name="table_detail"),
    path("nights/<str:public_id>/rounds/", tables.table_add_round, name="table_add_round"),
    path(
        "nights/<str:public_id>/rounds/<int:number>/",
        tables.table_edit_round,
        name="table_edit_round",
    ),
    path("nights/<str:public_id>/undo/", tables.table_undo, name="table_undo"),
    path("nights/<str:public_id>/tiebreak/", tables.table_tiebreak, name="table_tiebreak"),
    path("nights/<str:public_id>/scorers/", tables.table_add_co_scorer, name="table_co_scorer"),
    path("nights/<str:public_id>/rematch/", tables.table_rematch, name="table_rematch"),
    path("s/<str:token>/", tables.table_share, name="table_share"),
    path("s/<str:token>/live/", tables.table_share_live, name="table_share_live"),
    # Online play.
    path("play/", online.online_list, name="online_list"),
    path("play/new/", online.online_create, name="online_create"),
    path("play/join/<str:token>/", online.online_join, name="online_join"),
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
    path("play/<str:public_id>/link/", online.online_revoke_link, name="online_revoke_link"),
    path("play/<str:public_id>/bots/", online.online_add_bot, name="online_add_bot"),
    path(
        "play/<str:public_id>/seats/<int:position>/remove/",
        online.online_remove_seat,
        name="online_remove_seat",
    ),
    # Game emails: one-click unsubscribe (no login) and the per-game mute.
    path("unsubscribe/<str:token>/", notify.unsubscribe, name="unsubscribe"),
    path("notify/<str:public_id>/mute/", notify.toggle_mute, name="notify_mute"),
]
