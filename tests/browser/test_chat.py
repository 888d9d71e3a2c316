"""The chat of an online game in real browsers: two people talk across the table, each
seeing the other's messages by the board's polling, and a half-typed message survives
the board being redrawn under it."""

import pytest
from playwright.sync_api import expect

from games.models import ChatMessage
from tests.browser.test_online_play import logged_in
from tests.online.helpers import started_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_two_people_chat_during_a_game_and_each_sees_the_other_by_polling(
    new_context, live_server, alice, bob
):
    game = started_game(alice, bob, seed=5)
    alice_page = logged_in(new_context(), live_server, alice)
    bob_page = logged_in(new_context(), live_server, bob)
    alice_page.goto(game.get_absolute_url())
    bob_page.goto(game.get_absolute_url())

    alice_page.get_by_label("Say something to the table").fill("good luck, <b>bob</b>!")
    alice_page.get_by_role("button", name="Send").click()
    expect(alice_page.locator(".ot-log .ot-chat-line").first).to_contain_text(
        "alice: good luck, <b>bob</b>!"
    )
    expect(alice_page.get_by_label("Say something to the table")).to_have_value("")

    # bob starts typing; alice's message arrives by the poll and redraws his board, and
    # what he typed is still in the box.
    bob_page.get_by_label("Say something to the table").fill("thanks, you t")
    expect(bob_page.locator(".ot-log .ot-chat-line").first).to_contain_text(
        "alice: good luck, <b>bob</b>!"
    )
    expect(bob_page.get_by_label("Say something to the table")).to_have_value("thanks, you t")
    bob_page.get_by_label("Say something to the table").fill("thanks, you too")
    bob_page.get_by_role("button", name="Send").click()
    expect(bob_page.locator(".ot-log .ot-chat-line").first).to_contain_text("bob: thanks, you too")
    expect(alice_page.locator(".ot-log .ot-chat-line").first).to_contain_text(
        "bob: thanks, you too"
    )
    # alice hears it in her page's live region too.
    expect(alice_page.locator("#board-news")).to_contain_text("bob: thanks, you too")
    # A double click sends the message once.
    alice_page.get_by_label("Say something to the table").fill("see you at the table")
    alice_page.get_by_role("button", name="Send").dblclick()
    expect(alice_page.get_by_label("Say something to the table")).to_have_value("")
    expect(bob_page.locator(".ot-log .ot-chat-line").first).to_contain_text("see you at")
    # A message is not a move: bob's turn is still waiting for his draw.
    expect(bob_page.locator("#board").get_by_text("Your turn: draw a card.")).to_be_visible()
    bob_page.screenshot(path="/tmp/online-chat.png", full_page=True)
    for page in (alice_page, bob_page):
        page.close()  # no more polls while this thread reads the database
    assert ChatMessage.objects.count() == 3
