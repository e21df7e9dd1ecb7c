"""Secrets never leave: keys are masked in spans, log lines and error texts.

Two nets, both applied by `redact(text)`:
- **by name**: the value of a URL query parameter or `name=value` pair whose name carries a
  key (`key`, `api_key`, `token`, …; Juhe sends its key as `?key=`), and the password of a
  URL's user info (`redis://:pw@host`), whatever the value is;
- **by value**: every secret the process was configured with (each source's `api_key`, the
  LLM key, the Redis password), wherever it appears, as written or URL-encoded.

The configured secrets are registered process-wide (`register_secrets`, called by the app's
lifespan) rather than carried on the app's state, because the places that print are not the
app's: log formatters are built by `logging`/uvicorn's dictConfig, spans by the
instrumentation. A secret known to the process is masked whichever app instance prints it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from urllib.parse import quote, quote_plus, urlsplit

MASK = "***"
MIN_SECRET = 4  # shorter values are not masked by value (they would mask ordinary text)

SECRET_NAMES = (
    "key",
    "api_key",
    "apikey",
    "appkey",
    "access_key",
    "access_token",
    "token",
    "secret",
    "password",
    "passwd",
    "signature",
    "sig",
)
_BY_NAME = re.compile(
    r"(?P<name>(?<![A-Za-z0-9_-])(?:" + "|".join(SECRET_NAMES) + r"))(?P<eq>=|%3D)"
    r"(?P<value>[^&\s#\"'<>,;]+)",
    re.IGNORECASE,
)
_USERINFO = re.compile(r"(?P<head>[a-z][a-z0-9+.-]*://[^/@:\s]*:)(?P<pw>[^/@\s]+)(?=@)", re.I)
SECRET_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "x-api-key", "cookie", "set-cookie"}
)

_lock = threading.Lock()
_secrets: tuple[str, ...] = ()
_pattern: re.Pattern[str] | None = None


def register_secrets(values: Iterable[str | None]) -> None:
    """Add configured secrets (None and short values are skipped) to what is masked."""
    global _secrets, _pattern
    forms = set(_secrets)
    for value in values:
        if value and len(value) >= MIN_SECRET:
            forms |= {value, quote(value, safe=""), quote_plus(value)}
    with _lock:
        if len(forms) == len(_secrets):
            return
        _secrets = tuple(sorted(forms, key=len, reverse=True))
        _pattern = re.compile("|".join(re.escape(form) for form in _secrets))


def redact(text: str) -> str:
    """`text` with every secret masked (module doc)."""
    if _pattern is not None:
        text = _pattern.sub(MASK, text)
    if "=" in text or "%3D" in text or "%3d" in text:
        text = _BY_NAME.sub(lambda m: f"{m['name']}{m['eq']}{MASK}", text)
    if "://" in text:
        text = _USERINFO.sub(lambda m: f"{m['head']}{MASK}", text)
    return text


def redact_header(name: str, value: str) -> str:
    """A header's value as it may be shown: masked when the header carries credentials."""
    return MASK if name.lower() in SECRET_HEADERS else redact(value)


def url_password(url: str | None) -> str | None:
    """The password in a URL's user info (a Redis URL's), else None."""
    if not url:
        return None
    try:
        return urlsplit(url).password
    except ValueError:
        return None
