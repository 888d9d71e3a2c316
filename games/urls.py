from django.urls import path

from .clubs import season_views as club_seasons
from .clubs import stats_views as club_stats
from .clubs import views as clubs
from .clubs import year_views as years
from .nights import offline_views as night_offline
from .nights import setup_views as night_setup
from .nights import share_views as night_share
from .nights import views as nights
from .notify import views as notify
from .online import chat_views as chat
from .online import invitation_views as invitations
from .online import pause_views
from .online import spectate_views as spectate
from .online import views as online
from .stats import export_views as exports
from .stats import import_views as imports
from .stats import views as stats

app_name = "games"

urlpatterns = [
    # The installable web app: its service worker (scope: the whole site) and what it
    # shows offline for a page never opened.
    path("sw.js", night_offline.service_worker, name="service_worker"),
    path("offline/", night_offline.offline_page, name="offline"),
    # Game nights: scoring a game played with a real deck.
    path("nights/", nights.night_list, name="night_list"),
    path("nights/new/", night_setup.night_create, name="night_create"),
    path("nights/<str:public_id>/", nights.night_detail, name="night_detail"),
    path("nights/<str:public_id>/rounds/", nights.night_add_round, name="night_add_round"),
    path(
        "nights/<str:public_id>/rounds/queued/",
        night_offline.night_queued_round,
        name="night_queued_round",
    ),
    path(
        "nights/<str:public_id>/rounds/<int:number>/",
        nights.night_edit_round,
        name="night_edit_round",
    ),
    path("nights/<str:public_id>/undo/", nights.night_undo, name="night_undo"),
    path("nights/<str:public_id>/tiebreak/", nights.night_tiebreak, name="night_tiebreak"),
    path("nights/<str:public_id>/scorers/", nights.night_add_co_scorer, name="night_co_scorer"),
    path("nights/<str:public_id>/rematch/", nights.night_rematch, name="night_rematch"),
    path("nights/<str:public_id>/seat/", night_setup.night_seat_answer, name="night_seat_answer"),
    path("s/<str:token>/", night_share.night_share, name="night_share"),
    path("s/<str:token>/live/", night_share.night_share_live, name="night_share_live"),
    path("s/<str:token>/tv/", night_share.night_tv, name="night_tv"),
    path("s/<str:token>/tv/live/", night_share.night_tv_live, name="night_tv_live"),
    # A club's seasons: the league table, its settings, past seasons, the TV view.
    path("clubs/<str:public_id>/season/", club_seasons.club_season, name="club_season"),
    path(
        "clubs/<str:public_id>/seasons/<int:season_id>/",
        club_seasons.club_season_detail,
        name="club_season_detail",
    ),
    path(
        "clubs/<str:public_id>/seasons/<int:season_id>/settings/",
        club_seasons.club_season_settings,
        name="club_season_settings",
    ),
    path("clubs/<str:public_id>/tv/", club_seasons.club_tv, name="club_tv"),
    path("clubs/<str:public_id>/tv/live/", club_seasons.club_tv_live, name="club_tv_live"),
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
    path("play/<str:public_id>/chat/", chat.online_chat, name="online_chat"),
    path("play/<str:public_id>/chat/hide/", chat.online_chat_hide, name="online_chat_hide"),
    path("play/<str:public_id>/chat/mute/", chat.online_chat_mute, name="online_chat_mute"),
    path("play/<str:public_id>/pause/", pause_views.online_pause, name="online_pause"),
    path(
        "play/<str:public_id>/pause/decline/",
        pause_views.online_pause_decline,
        name="online_pause_decline",
    ),
    path("play/<str:public_id>/resume/", pause_views.online_resume, name="online_resume"),
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
    # Watching: a finished game's replay, the spectator link and what it shows.
    path("play/<str:public_id>/replay/", spectate.online_replay, name="online_replay"),
    path(
        "play/<str:public_id>/spectators/",
        spectate.online_spectators,
        name="online_spectators",
    ),
    path("watch/<str:token>/", spectate.online_spectate, name="online_spectate"),
    path("watch/<str:token>/poll/", spectate.online_spectate_poll, name="online_spectate_poll"),
    path(
        "watch/<str:token>/replay/",
        spectate.online_spectate_replay,
        name="online_spectate_replay",
    ),
    # Stats, ratings and your data. Their paths are those they had under accounts/, so
    # links people kept still work.
    path("accounts/stats/", stats.stats, name="stats"),
    path("accounts/stats/leaderboard/", stats.leaderboard, name="leaderboard"),
    path("accounts/players/<int:player_id>/", stats.player_stats, name="player_stats"),
    path("accounts/stats/games.csv", exports.export_games_csv, name="export_games_csv"),
    path("accounts/stats/rounds.csv", exports.export_rounds_csv, name="export_rounds_csv"),
    path("accounts/stats/ratings.csv", exports.export_ratings_csv, name="export_ratings_csv"),
    path("accounts/games/<str:public_id>.json", exports.export_game_json, name="export_game_json"),
    path("accounts/stats/import/", imports.import_bgstats, name="import_bgstats"),
    # Clubs: a club's stats and year in review; a member's year and the link sharing it.
    path("clubs/<str:public_id>/stats/", club_stats.club_stats, name="club_stats"),
    path("clubs/<str:public_id>/year/<int:number>/", years.club_year, name="club_year"),
    path("stats/year/<int:number>/", years.year_review, name="year_review"),
    path("stats/year/<int:number>/share/", years.year_share, name="year_share"),
    path("stats/year/<int:number>/unshare/", years.year_stop_sharing, name="year_stop_sharing"),
    path("y/<str:token>/", years.year_shared, name="year_shared"),
    # Clubs: people who play together, their games and pages.
    path("clubs/", clubs.club_list, name="club_list"),
    path("clubs/new/", clubs.club_create, name="club_create"),
    path("clubs/join/<str:token>/", clubs.club_join, name="club_join"),
    path("clubs/<str:public_id>/", clubs.club_detail, name="club_detail"),
    path("clubs/<str:public_id>/invite/", clubs.club_invite, name="club_invite"),
    path(
        "clubs/<str:public_id>/invitation/accept/",
        clubs.club_accept_invitation,
        name="club_accept_invitation",
    ),
    path(
        "clubs/<str:public_id>/invitation/decline/",
        clubs.club_decline_invitation,
        name="club_decline_invitation",
    ),
    path("clubs/<str:public_id>/leave/", clubs.club_leave, name="club_leave"),
    path("clubs/<str:public_id>/admins/", clubs.club_make_admin, name="club_make_admin"),
    path("clubs/<str:public_id>/link/", clubs.club_new_link, name="club_new_link"),
    path("clubs/<str:public_id>/rename/", clubs.club_rename, name="club_rename"),
    path("unsubscribe/<str:token>/", notify.unsubscribe, name="unsubscribe"),
    path("notify/<str:public_id>/mute/", online.online_mute, name="online_mute"),
]
