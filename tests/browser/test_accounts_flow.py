import pytest
from playwright.sync_api import expect

from tests.browser.conftest import no_horizontal_scroll

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
