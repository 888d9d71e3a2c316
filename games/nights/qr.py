"""QR codes drawn on the server, so the share link works on any phone camera without a
third-party service seeing the (secret) link."""

import hashlib

import segno
from django.core.cache import cache
from django.utils.safestring import SafeString

# A link's QR code never changes, and drawing one is slow next to reading it from the
# cache. The cap only keeps codes of links nobody opens from piling up.
QR_SECONDS = 24 * 60 * 60


def qr_key(url: str, title: str = "") -> str:
    """The cache key of the code of `url` (a share link: its token is in it) and `title`."""
    digest = hashlib.sha256(f"{url}\n{title}".encode()).hexdigest()[:32]
    return f"qr:{digest}"


def qr_svg(url: str, *, title: str = "") -> SafeString:
    """Inline SVG markup for `url`; sized by CSS (no width/height attributes).

    >>> qr_svg("https://example.com/s/abc").startswith("<svg")
    True
    """
    key = qr_key(url, title)
    markup = cache.get(key)
    if markup is None:
        code = segno.make(url, error="m")
        markup = code.svg_inline(scale=4, border=2, omitsize=True, title=title or None)
        cache.set(key, markup, QR_SECONDS)
    # segno escapes the title and writes nothing but the path: safe to embed as markup.
    return SafeString(markup)
