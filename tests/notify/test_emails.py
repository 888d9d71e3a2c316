"""What each game email says: built from the move log's public facts, in the
recipient's language, with links from SITE_URL."""

import pytest
import time_machine

from games.engine import Discard, Draw, Hit, LayDown, Rules
from games.models import Player
from tests.notify.helpers import AFTERNOON, Kind, Status, act, deal, game_between, rows, sent_to

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _afternoon_and_commits(django_capture_on_commit_callbacks):
    with (
        time_machine.travel(AFTERNOON, tick=True),
        django_capture_on_commit_callbacks(execute=True),
    ):
        yield


def test_the_turn_email_tells_who_laid_down_who_hit_who_skipped_and_the_top_discard(
    alice, bob, carol, mailoutbox, django_capture_on_commit_callbacks
):
    # alice deals; bob plays first, then carol, then alice.
    with django_capture_on_commit_callbacks(execute=True):
        game = game_between(alice, bob, carol)
        deal(
            game,
            ["R12", "R7 B7 G7 Y3 R3 G3 S B9 B10 B11", ""],
            up_card="G5",
            draw_pile="B1 R11 Y7",
        )
    with django_capture_on_commit_callbacks(execute=True):
        act(game, Draw(), LayDown(["R7 B7 G7", "Y3 R3 G3"]), Discard("S"))  # skips carol
    with django_capture_on_commit_callbacks(execute=True):
        act(game, Draw(), Discard("R11"))  # alice
    with django_capture_on_commit_callbacks(execute=True):
        act(game, Draw(), Hit(1, 0, "Y7"), Discard("B9"))  # bob again
    [message] = sent_to(mailoutbox, carol)
    assert message.subject == "Your turn — Friday game, round 1"
    assert "- bob laid down phase 1.\n" in message.body
    assert "- bob skipped you.\n" in message.body
    assert "- bob hit yellow 7 on their own group.\n" in message.body
    assert "You were skipped" in message.body
    assert "On the discard pile: blue 9." in message.body
    # alice's email after bob's first turn told her about carol being skipped.
    alice_mail = sent_to(mailoutbox, alice)[0]
    assert "- bob skipped carol.\n" in alice_mail.body
    assert "You were skipped" not in alice_mail.body


def test_game_over_sends_the_final_standings_to_every_player(
    alice, bob, carol, mailoutbox, django_capture_on_commit_callbacks
):
    carol.profile.notify = "digest"  # the final standings reach digest readers too
    carol.profile.save()
    with django_capture_on_commit_callbacks(execute=True):
        game = game_between(alice, bob, carol, rules=Rules(phases=(1,)))
        deal(game, ["", "R7 B7 G7 Y3 R3 G3 Y7 B3 G7 R7", ""], up_card="G5", draw_pile="B9")
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        game = act(
            game,
            Draw(),
            LayDown(["R7 B7 G7", "Y3 R3 G3"]),
            Hit(1, 0, "Y7"),
            Hit(1, 0, "G7"),
            Hit(1, 0, "R7"),
            Hit(1, 1, "B3"),
            Discard("B9"),
        )
    assert game.status == "finished"
    assert sorted(m.to[0] for m in mailoutbox) == [
        "alice@example.com",
        "bob@example.com",
        "carol@example.com",
    ]
    assert {row.kind for row in rows(status=Status.SENT)} >= {Kind.GAME_OVER}
    message = sent_to(mailoutbox, alice)[0]
    assert message.subject == "Game over — Friday game: bob won"
    assert "Final standings:" in message.body
    assert "1. bob — 1 phase, 0 points" in message.body
    assert "You won Friday game" in sent_to(mailoutbox, bob)[0].body


def test_an_arabic_email_isolates_a_latin_name_and_starts_every_line_right_to_left(
    alice, bob, carol, mailoutbox, django_capture_on_commit_callbacks
):
    alice.profile.language = "ar"
    alice.profile.save()
    with django_capture_on_commit_callbacks(execute=True):
        game = game_between(alice, bob, carol, rules=Rules(phases=(1,)))
        deal(game, ["", "R7 B7 G7 Y3 R3 G3 Y7 B3 G7 R7", ""], up_card="G5", draw_pile="B9")
    assert Player.objects.filter(user=bob).update(name="Sara!") == 1
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        act(game, Draw(), LayDown(["R7 B7 G7", "Y3 R3 G3"]), Hit(1, 0, "Y7"), Hit(1, 0, "G7"))
        act(game, Hit(1, 0, "R7"), Hit(1, 1, "B3"), Discard("B9"))
    [message] = sent_to(mailoutbox, alice)
    # Unisolated, "Sara!" at the end of an Arabic clause is shown as "!Sara".
    assert "\u2068Sara!\u2069" in message.subject
    assert "\u2068Friday game\u2069" in message.subject
    lines = [line for line in message.body.split("\n") if line.strip() and line != "--"]
    assert lines and all(line.startswith("\u200f") for line in lines)
    assert "\u200f1. \u2068Sara!\u2069 — " in message.body
    [(html, _type)] = message.alternatives
    assert "<bdi>Sara!</bdi>" in html
    # The table's headers start where an Arabic line starts, the numbers' at its end.
    assert '<th style="text-align:right;padding:4px 8px">#</th>' in html
    assert '<th style="text-align:left;padding:4px 8px">النقاط</th>' in html
    # In English nothing is added: bob's email reads as it did.
    assert "\u2068" not in sent_to(mailoutbox, bob)[0].body
    assert "\u200f" not in sent_to(mailoutbox, bob)[0].body


def test_a_bots_turn_is_told_like_anyone_elses_not_as_a_time_out(
    alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    from games.models import Move
    from tests.notify.helpers import play_turn, whose_turn

    with django_capture_on_commit_callbacks(execute=True):
        game = game_between(alice, bob, bots=1)  # bob, then the bot, then alice
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play_turn(game)  # bob; the bot's turn follows at once (eager Celery)
    assert Move.objects.filter(game=game, seat=2, automatic=True).exists()
    [message] = mailoutbox  # to alice, or to bob if the bot's Skip passed her over
    assert message.to == [whose_turn(game).email]
    assert "time ran out" not in message.body
    assert rows(kind=Kind.AUTO_PLAYED) == []
