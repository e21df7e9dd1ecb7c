"""API keys: who may call the API, stored only as SHA-256 hashes, compared in constant time.

An entry is `name:sha256hex` (optionally `:admin`), from `RAILTRIP_API_KEYS` (comma-separated)
or one per line in `RAILTRIP_API_KEYS_FILE` (`#` comments allowed). A client presents the key
itself, as `Authorization: Bearer <key>` or `X-API-Key: <key>`; the server hashes it and
compares the hash with every stored hash (hmac.compare_digest, no early exit), so neither the
key nor its position in the list leaks through timing. Keys are never logged or echoed: only
the entry's name travels on (as the quota and session owner).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

_HEX = re.compile(r"^[0-9a-f]{64}$")
_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


class KeyConfigError(ValueError):
    """A malformed key entry (the message names the entry by position, never its content)."""


@dataclass(frozen=True)
class ApiKey:
    """One stored key: a name for logs and quotas, the SHA-256 of the key, and its role."""

    name: str
    digest: bytes
    admin: bool = False


def hash_key(key: str) -> str:
    """The hex SHA-256 of a key, as stored in `RAILTRIP_API_KEYS`."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def parse_entries(entries: Iterable[str]) -> tuple[ApiKey, ...]:
    """`name:sha256hex[:admin]` entries → keys; blank lines and `#` comments are skipped."""
    keys: list[ApiKey] = []
    for number, raw in enumerate(entries, start=1):
        entry = raw.strip()
        if not entry or entry.startswith("#"):
            continue
        parts = entry.split(":")
        if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] != "admin"):
            raise KeyConfigError(f"API key entry {number}: expected name:sha256hex[:admin]")
        name, digest = parts[0], parts[1].lower()
        if not _NAME.match(name) or not _HEX.match(digest):
            raise KeyConfigError(
                f"API key entry {number}: the name must be 1-40 of [A-Za-z0-9_.-] and the "
                "hash 64 hex digits (store sha256 of the key, never the key)"
            )
        keys.append(ApiKey(name, bytes.fromhex(digest), admin=len(parts) == 3))
    return tuple(keys)


def load_keys(entries: Sequence[str], path: str | None) -> tuple[ApiKey, ...]:
    """Keys from the setting and the keys file together (either may be empty)."""
    lines = list(entries)
    if path:
        lines += Path(path).read_text(encoding="utf-8").splitlines()
    return parse_entries(lines)


class KeyRing:
    """The configured keys; `enabled` is False when none are (the API is then open)."""

    def __init__(self, keys: Sequence[ApiKey]) -> None:
        self._keys = tuple(keys)

    @property
    def enabled(self) -> bool:
        return bool(self._keys)

    def verify(self, presented: str | None) -> ApiKey | None:
        """The stored key matching `presented`, or None; every stored hash is compared."""
        if not presented:
            return None
        digest = hashlib.sha256(presented.encode("utf-8", "surrogateescape")).digest()
        found: ApiKey | None = None
        for key in self._keys:
            if hmac.compare_digest(digest, key.digest) and found is None:
                found = key
        return found


def presented_keys(headers: Iterable[tuple[bytes, bytes]]) -> set[str]:
    """Every distinct key a request carries (`Authorization: Bearer …`, `X-API-Key`, each as
    often as it is repeated): more than one is ambiguous, and refused rather than guessed."""
    keys = set()
    for name, value in headers:
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                keys.add(token.strip())
        elif name == b"x-api-key" and value.strip():
            keys.add(value.decode("latin-1").strip())
    return keys


def presented_key(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    """The key a request carries: `Authorization: Bearer …`, else `X-API-Key`."""
    bearer = api_key = None
    for name, value in headers:
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                bearer = token.strip()
        elif name == b"x-api-key":
            api_key = value.decode("latin-1").strip() or None
    return bearer or api_key
