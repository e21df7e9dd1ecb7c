"""Distances between stations and cities, from (longitude, latitude) points in degrees."""

from __future__ import annotations

import math
from collections.abc import Sequence

EARTH_RADIUS_KM = 6371.0


def great_circle_km(a: Sequence[float], b: Sequence[float]) -> float:
    """Distance between two (longitude, latitude) points in degrees."""
    (lon1, lat1), (lon2, lat2) = (map(math.radians, p) for p in (a, b))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    )
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))
