from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from . import away_views, claim_views, views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("profile/identity/", views.profile_identity, name="profile_identity"),
    path("profile/notifications/", views.profile_notifications, name="profile_notifications"),
    path("profile/time-zone/", views.profile_time_zone, name="profile_time_zone"),
    path("profile/delete/", views.profile_delete, name="profile_delete"),
    path("profile/away/", away_views.away_mode, name="away"),
    path("profile/away/end/", away_views.away_end, name="away_end"),
    path("players/<int:player_id>/invite/", claim_views.invite_guest, name="invite_guest"),
    path("players/<int:player_id>/claim/", claim_views.request_claim, name="request_claim"),
    path("claims/", claim_views.claim_list, name="claims"),
    path("claims/<int:claim_id>/accept/", claim_views.claim_accept, name="claim_accept"),
    path("claims/<int:claim_id>/decline/", claim_views.claim_decline, name="claim_decline"),
    path("verify/resend/", views.resend_verification, name="resend_verification"),
    path("verify/<str:token>/", views.verify_email, name="verify_email"),
    path(
        "password/change/",
        auth_views.PasswordChangeView.as_view(
            success_url=reverse_lazy("accounts:password_change_done")
        ),
        name="password_change",
    ),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            success_url=reverse_lazy("accounts:password_reset_complete")
        ),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
