"""Settings for bench/web.py's gunicorn: the real site, with bench/web_urls.py as the
URLconf (the real URLs plus one bare view that never ships in production)."""

from phase10site.settings import *  # noqa: F403

ROOT_URLCONF = "web_urls"
