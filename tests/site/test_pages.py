import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_home_page_explains_the_three_uses(client):
    page = client.get(reverse("home")).content.decode()
    for text in ("Game night with a real deck", "Slow online games", "Stats"):
        assert text in page


def test_every_page_sends_the_csrf_token_to_htmx_and_loads_htmx_from_the_app(client):
    page = client.get(reverse("home")).content.decode()
    assert 'hx-headers=\'{"X-CSRFToken": "' in page
    assert "/static/django_htmx/htmx-2" in page
    assert "https://" not in page.split("<body")[0]  # no CDN in <head>


def test_the_language_selector_switches_the_language(client):
    response = client.post(reverse("set_language"), {"language": "fi", "next": "/"})
    assert response.status_code == 302
    assert client.get("/").context["LANGUAGE_CODE"] == "fi"


def test_arabic_pages_are_right_to_left(client):
    client.post(reverse("set_language"), {"language": "ar", "next": "/"})
    assert 'dir="rtl"' in client.get("/").content.decode()
