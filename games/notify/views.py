"""One-click unsubscribe from a game email (RFC 8058), with or without a session."""

from django.contrib.auth import get_user_model
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.models import Profile

from ..models import Game, Seat
from ..scoring import save_seat_setting
from .emails import read_unsubscribe_token


# The signed token is the credential: mail clients POST here without a session or a
# CSRF token (RFC 8058 one-click), and people open the link logged out.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a confirmation page and changes nothing (mail scanners prefetch links);
    POST unsubscribes. The one-click POST of a mail client, or the page's main button,
    turns all game emails off; the page's other button mutes only the game the email
    was about (and changes nothing when the player no longer has a seat in it)."""
    try:
        data = read_unsubscribe_token(token)
    except signing.BadSignature:
        return render(request, "games/notify/unsubscribe_invalid.html", status=400)
    user = get_user_model().objects.select_related("profile").filter(pk=data["u"]).first()
    if user is None:
        return render(request, "games/notify/unsubscribe_invalid.html", status=400)
    game_id = data.get("g")
    game = Game.objects.filter(pk=game_id).first() if game_id else None
    seat = Seat.objects.filter(game=game, player__user=user).first() if game else None
    context = {"token": token, "game": game if seat else None, "account": user}
    if request.method == "GET":
        return render(request, "games/notify/unsubscribe.html", context)
    if request.POST.get("scope") == "game":
        if seat is None:  # the seat is gone since the email: there is nothing to mute
            return render(request, "games/notify/unsubscribe_invalid.html", status=400)
        seat.muted = True
        save_seat_setting(seat, "muted")
        done = "game"
    else:
        Profile.objects.filter(user=user).update(notify=Profile.Notify.OFF)
        done = "all"
    return render(request, "games/notify/unsubscribe_done.html", {**context, "done": done})
