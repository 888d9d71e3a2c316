from django.urls import path

from .views import stubs

app_name = "games"

urlpatterns = [
    path("nights/", stubs.table_list, name="table_list"),
    path("play/", stubs.online_list, name="online_list"),
]
