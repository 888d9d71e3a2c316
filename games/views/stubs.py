# Placeholders until the score tracker and online play land.
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def table_list(request: HttpRequest) -> HttpResponse:
    return render(request, "coming.html", {"heading": _("Score a game night")})


def online_list(request: HttpRequest) -> HttpResponse:
    return render(request, "coming.html", {"heading": _("Play online")})
