"""Phase 10 Club settings: one file, every value from the environment.

With nothing set the app runs on its own ("embedded default"): SQLite under
var/, Celery on kombu's filesystem broker under var/celery/, and emails written
to var/mail/. DATABASE_URL, CELERY_BROKER_URL and EMAIL_HOST switch it to
PostgreSQL, Redis and SMTP.
"""

import os
import sys
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qs

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
TESTING = "pytest" in sys.modules or env_bool("TESTING", False)

_INSECURE_KEY = "django-insecure-local-development-only"
SECRET_KEY = env("SECRET_KEY", _INSECURE_KEY)
if not DEBUG and not TESTING and (SECRET_KEY == _INSECURE_KEY or len(SECRET_KEY) < 32):
    # Production must never sign sessions or unsubscribe links with a public key.
    raise ImproperlyConfigured("Set SECRET_KEY to a long random value when DEBUG is off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
SITE_URL = env("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    # Axes must come last so it sees the outcome of every login attempt.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "phase10site.urls"
WSGI_APPLICATION = "phase10site.wsgi.application"
ASGI_APPLICATION = "phase10site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "phase10site.context_processors.site",
                # After Django's built-in one: the same csrf_token, masked once a request.
                "phase10site.context_processors.csrf",
                "games.context_processors.online",
            ],
            "libraries": {"jinja": "phase10site.templatetags.jinja"},
        },
    },
    {
        # The hot partials only (phase10site/jinja.py), from each app's jinja2/ folder.
        "NAME": "jinja2",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"environment": "phase10site.jinja.environment"},
    },
]

# --- Database ---------------------------------------------------------------
DATABASE_URL = env("DATABASE_URL")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # The planner's cost of reading a page out of order. PostgreSQL's default (4)
        # is for spinning disks; with the data in memory or on SSD, 1.1 is the usual
        # setting, and at 4 the stats queries scanned every game instead of looking up
        # the player's ones as soon as other people's games filled the table
        # (bench/README.md has the plans).
        DATABASES["default"].setdefault("OPTIONS", {})["options"] = (
            f"-c random_page_cost={float(env('DATABASE_RANDOM_PAGE_COST', '1.1'))}"
        )
        if env_bool("DATABASE_PREPARE", True):
            # Parameters sent apart from the SQL, and a statement prepared on its
            # connection from its second run: PostgreSQL then skips parsing and planning
            # it, about half of what a page's queries cost it (bench/README.md). Fine
            # with psycopg's pool; set it off behind a transaction-mode PgBouncer.
            DATABASES["default"]["OPTIONS"] |= {"server_side_binding": True, "prepare_threshold": 2}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
        "DATABASE_POOL", True
    ):
        # psycopg 3's pool keeps connections warm across requests in each process.
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": int(env("DATABASE_POOL_MIN", "2")),
            "max_size": int(env("DATABASE_POOL_MAX", "10")),
            "timeout": 10,
        }
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(VAR_DIR / "db.sqlite3"),
            "OPTIONS": {
                # IMMEDIATE takes the write lock at BEGIN, so two concurrent moves
                # queue on busy_timeout instead of failing with "database is locked".
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL;PRAGMA foreign_keys=ON;"
                ),
            },
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache ------------------------------------------------------------------
# What is cached is drawn HTML and night scoreboards, keyed by everything they show
# (games/cache_keys.py): nothing is ever deleted, old versions age out. CACHE_URL:
# - locmem:// (default): Django's LocMemCache, each process its own, no server. Full, it
#   drops the least recently used third, so it needs room for what is read again, not
#   for every version drawn: the current board of each seat being played (one or two:
#   a browser each) plus the nights' games, cards and lists. 3,000 entries hold that for
#   some 1,000 seats in play at once; at about 15 KB a board that is at most ~45 MB a
#   process. `locmem://?max_entries=N` for more or less; past one machine, Redis.
# - redis://host:port/db: Django's RedisCache, shared by several web machines.
CACHE_URL = env("CACHE_URL", "locmem://")


def cache_settings(url: str) -> dict[str, dict[str, object]]:
    """CACHES for `url` (CACHE_URL)."""
    scheme, _, rest = url.partition("://")
    if scheme in {"redis", "rediss", "unix"}:
        return {
            "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
        }
    if scheme == "locmem":
        query = parse_qs(rest.partition("?")[2])
        entries = int(query.get("max_entries", ["3000"])[0])
        return {
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "OPTIONS": {"MAX_ENTRIES": entries},
            }
        }
    raise ImproperlyConfigured(f"CACHE_URL: locmem:// or redis://host:port/db, not {url!r}")


CACHES = cache_settings(CACHE_URL)

# --- Auth -------------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    # Axes first: it refuses locked-out credentials before any password check.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

AXES_FAILURE_LIMIT = int(env("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(env("AXES_COOLOFF_MINUTES", "15")))
# Lock a username+address pair: a typo-prone friend is not locked out by a
# stranger elsewhere, and the answer is the same whether the username exists.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.views.lockout"
# Reverse proxies in front of the app, each appending to X-Forwarded-For. Without one the
# header is ignored; behind N, the N-th address from its right is the client's
# (phase10site/proxies.py). axes locks out the address its documented hook
# AXES_CLIENT_IP_CALLABLE gives. Not AXES_IPWARE_*: without the optional django-ipware
# they do nothing at all, and with it a proxy count picks the header's left end, which
# the client writes.
PROXY_COUNT = int(env("PROXY_COUNT", "0"))
AXES_CLIENT_IP_CALLABLE = "phase10site.proxies.client_ip"
AXES_VERBOSE = False

# --- I18n -------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("fi", "Suomi"),
    ("tr", "Türkçe"),
    ("da", "Dansk"),
    ("ar", "العربية"),
    ("sk", "Slovenčina"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The footer's language choice. No script reads it; Secure once the site is on HTTPS.
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SECURE = not DEBUG
TIME_ZONE = env("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True
# Our own date formats where Django's read wrong (Slovak months, an Arabic date-time).
FORMAT_MODULE_PATH = ["phase10site.formats"]

# --- Static files -----------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Without collectstatic (development, tests) whitenoise serves from the finders.
WHITENOISE_USE_FINDERS = DEBUG or TESTING
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env_bool("STATIC_MANIFEST", not DEBUG and not TESTING)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# --- Email ------------------------------------------------------------------
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Phase 10 Club <noreply@phase10.club>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
MAIL_DIR = Path(env("MAIL_DIR", str(VAR_DIR / "mail")))
if env("EMAIL_HOST"):
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": env("EMAIL_HOST"),
                "port": int(env("EMAIL_PORT", "587")),
                "username": env("EMAIL_HOST_USER"),
                "password": env("EMAIL_HOST_PASSWORD"),
                "use_tls": env_bool("EMAIL_USE_TLS", True),
                "timeout": 20,
            },
        }
    }
else:
    MAILERS = {
        "default": {
            "BACKEND": env("EMAIL_BACKEND", "phase10site.mail.FileAndConsoleBackend"),
            "OPTIONS": {"file_path": str(MAIL_DIR)},
        }
    }

# --- Celery -----------------------------------------------------------------
CELERY_BROKER_URL = env("CELERY_BROKER_URL", "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir = VAR_DIR / "celery"
    for _sub in ("queue", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
# A move must never wait for a dead broker: fail fast, the outbox sweeper retries.
CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_PUBLISH_RETRY = False
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# --- Security (production) --------------------------------------------------
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(env("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy on every response, in development too, so a page that needs an
# inline script, an inline style or eval fails where it is written, not in production.
# Scripts are files under static/js/ (htmx from django-htmx); behaviour is bound from
# there (data-* attributes), never by on*="" attributes; htmx runs with allowEval off
# (templates/base.html). No nonce: no page has an inline <script> or <style>, and boards
# are served from a cache, where a nonce would be reused.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
SESSION_COOKIE_AGE = 60 * 60 * 24 * 60  # two months: slow games last for weeks

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
    "loggers": {"axes": {"level": "WARNING"}},
}
