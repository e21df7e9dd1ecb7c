"""The fare rules of the sandbox vendors: published per-km rates, tapered by distance band."""

from __future__ import annotations

import pytest

from sources.models import SeatClass
from sources.sandbox.fares import fare, tapered_km


def test_distance_bands_taper_long_journeys():
    assert tapered_km(200, ((200, 1.0), (500, 0.9))) == 200
    assert tapered_km(300, ((200, 1.0), (500, 0.9))) == 290
    short, long = fare("tk", SeatClass.HARD_SEAT, 300), fare("tk", SeatClass.HARD_SEAT, 3000)
    assert long / 3000 < short / 300 * 0.75


def test_fares_rank_classes_as_12306_does_and_round_to_half_a_yuan():
    for km in (30, 120, 800, 2500):
        assert fare("tk", SeatClass.HARD_SEAT, km) < fare("tk", SeatClass.HARD_SLEEPER, km)
        assert fare("tk", SeatClass.HARD_SLEEPER, km) < fare("tk", SeatClass.SOFT_SLEEPER, km)
        assert fare("pk", SeatClass.HARD_SEAT, km) < fare("tk", SeatClass.HARD_SEAT, km)
        assert fare("emu250", SeatClass.SECOND, km) < fare("emu350", SeatClass.SECOND, km)
        assert fare("emu350", SeatClass.NO_SEAT, km) == fare("emu350", SeatClass.SECOND, km)
        for tier, cls in (("emu350", SeatClass.BUSINESS), ("pt", SeatClass.HARD_SEAT)):
            assert (fare(tier, cls, km) * 2).is_integer()
    assert fare("emu250", SeatClass.SECOND, 100) == 28.0  # 100 km x 0.2805
    with pytest.raises(ValueError, match="fare tier"):
        fare("maglev", SeatClass.SECOND, 10)
