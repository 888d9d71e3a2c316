import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_new_user_signs_up_logs_out_and_logs_in_again_on_a_phone(phone_page):
    page = phone_page
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert no_horizontal_scroll(page)
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Username").fill("erin")
    page.get_by_label("Email").fill("erin@example.com")
    page.get_by_label("Password:", exact=True).fill("a-long-enough-password")
    page.get_by_label("Password confirmation").fill("a-long-enough-password")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text("Welcome, erin!")).to_be_visible()

    page.locator("summary").click()
    page.get_by_role("button", name="Log out").click()
    page.locator("summary").click()
    page.get_by_role("link", name="Log in", exact=True).click()
    page.get_by_label("Username").fill("erin")
    page.get_by_label("Password:").fill("a-long-enough-password")
    page.get_by_role("button", name="Log in").click()
    page.locator("summary").click()
    expect(page.get_by_role("link", name="Account (erin)")).to_be_visible()


def test_sign_up_takes_the_browsers_time_zone_and_the_account_can_be_deleted(chromium, live_server):
    context = chromium.new_context(
        viewport=PHONE, base_url=live_server.url, timezone_id="Australia/Sydney"
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill("erin")
    page.get_by_label("Email").fill("erin@example.com")
    page.get_by_label("Password:", exact=True).fill("a-long-enough-password")
    page.get_by_label("Password confirmation").fill("a-long-enough-password")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text("Welcome, erin!")).to_be_visible()
    page.goto("about:blank")  # no requests while this thread reads the database
    profile = get_user_model().objects.get(username="erin").profile
    assert profile.time_zone == "Australia/Sydney"

    # The account says UTC, the browser Sydney: the account page offers the change.
    profile.time_zone = "UTC"
    profile.save()
    page.goto("/accounts/profile/")
    offer = page.get_by_role("button", name="Use my browser's time zone")
    expect(offer).to_be_visible()
    expect(page.get_by_text("Your browser says your time zone is Australia/Sydney")).to_be_visible()
    offer.click()
    expect(page.get_by_text("Your time zone is now Australia/Sydney.")).to_be_visible()
    expect(offer).to_be_hidden()

    page.get_by_role("link", name="Delete your account").click()
    expect(page.get_by_role("link", name="Games (CSV)")).to_be_visible()
    assert no_horizontal_scroll(page)
    page.get_by_label("Your password").fill("a-long-enough-password")
    page.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_text("Your account was deleted.")).to_be_visible()
    page.goto("about:blank")
    assert not get_user_model().objects.filter(username="erin").exists()
    context.close()
