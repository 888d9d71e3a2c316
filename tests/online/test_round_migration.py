"""games/migrations/0005: the rounds already played learn who played them."""

import importlib

import pytest
from django.apps import apps

from games.engine import Rules
from games.models import RoundScore
from games.online import services
from tests.online.helpers import play_on, started_game

pytestmark = pytest.mark.django_db

migration = importlib.import_module("games.migrations.0005_roundscore_by_bot")


def test_the_migration_finds_the_rounds_bots_played_as_the_services_now_record_them(alice, bob):
    game = started_game(alice, bob, bots=1, rules=Rules(phases=(1, 2)), seed=5)
    game = play_on(game, rounds=1)
    services.resign(game, bob)
    game = play_on(game)
    recorded = dict(RoundScore.objects.filter(game=game).values_list("pk", "by_bot"))
    assert sum(recorded.values()) > game.rounds_played  # the bot's seat and bob's later rounds

    RoundScore.objects.update(by_bot=False)
    migration.mark_bot_rounds(apps, None)

    assert dict(RoundScore.objects.filter(game=game).values_list("pk", "by_bot")) == recorded
