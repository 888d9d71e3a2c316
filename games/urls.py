from django.urls import path

from .views import notify, stubs, tables

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
    path("play/", stubs.online_list, name="online_list"),
    # Game emails: one-click unsubscribe (no login) and the per-game mute.
    path("unsubscribe/<str:token>/", notify.unsubscribe, name="unsubscribe"),
    path("notify/<str:public_id>/mute/", notify.toggle_mute, name="notify_mute"),
]
