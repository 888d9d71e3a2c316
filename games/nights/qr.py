"""QR codes drawn on the server, so the share link works on any phone camera without a
third-party service seeing the (secret) link."""

import segno
from django.core.cache import cache
from django.utils.safestring import SafeString

from .. import cache_keys


def qr_svg(url: str, *, title: str = "") -> SafeString:
    """Inline SVG markup for `url`; sized by CSS (no width/height attributes).

    >>> qr_svg("https://example.com/s/abc").startswith("<svg")
    True
    """
    key = cache_keys.qr(url, title)
    markup = cache.get(key)
    if markup is None:
        code = segno.make(url, error="m")
        markup = code.svg_inline(scale=4, border=2, omitsize=True, title=title or None)
        # A link's code never changes: drawing one costs far more than reading it.
        cache.set(key, markup, cache_keys.QR_SECONDS)
    # segno escapes the title and writes nothing but the path: safe to embed as markup.
    return SafeString(markup)
