"""A guest's page offers their claims: `{% load claim_tags %}`, then
`{% guest_claims player %}` draws "That's me" for a member who might be them and the
invitation form for the scorer of their game nights (accounts/claims.py decides both).
The stats page (games/stats/) shows it without knowing about claims."""

from typing import Any

from django import template

from games.models import Player

from .. import claims
from ..forms import InviteForm

register = template.Library()


@register.inclusion_tag("accounts/guest_claims.html", takes_context=True)
def guest_claims(context: template.Context, player: Player) -> dict[str, Any]:
    """Nothing for a member's page; two queries for a guest's."""
    user = context["request"].user
    if not player.is_guest or not user.is_authenticated:
        return {"player": player}
    return {
        "player": player,
        "may_request": claims.suggested_guests(user).filter(pk=player.pk).exists(),
        "can_invite": claims.can_invite(user, player),
        "invite_form": InviteForm(),
    }
