"""Stable pseudo-randomness for the sandbox: the same inputs give the same draws in any process.

Python's `hash()` is salted per process, so every draw here goes through BLAKE2b instead.
"""

from __future__ import annotations

import hashlib
import random

_SCALE = float(1 << 64)


def stable_unit(*parts: object) -> float:
    """A number in [0, 1) that depends only on `parts`."""
    digest = hashlib.blake2b("|".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / _SCALE


def stable_int(low: int, high: int, *parts: object) -> int:
    """An integer in [low, high] that depends only on `parts`."""
    return low + int(stable_unit(*parts) * (high - low + 1))


def stable_rng(*parts: object) -> random.Random:
    """A `random.Random` seeded from `parts` (str seeds are hashed with SHA-512, not salted)."""
    return random.Random("|".join(map(str, parts)))
