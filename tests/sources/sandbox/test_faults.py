"""Fault knobs: read from the environment, validated, changed at run time, seeded dice."""

from __future__ import annotations

import math

import pytest

from sources.sandbox.faults import KNOBS, Fault, FaultConfig, env_prefix


def test_every_knob_defaults_to_zero():
    faults = FaultConfig.from_env("12306", {})
    assert faults.knobs() == dict.fromkeys(KNOBS, 0.0)
    assert all(faults.decide() is Fault.NONE for _ in range(100))


def test_knobs_are_read_from_the_vendor_environment_names():
    environ = {
        "RAILTRIP_SANDBOX_JUHE_LATENCY_MS": "250",
        "RAILTRIP_SANDBOX_JUHE_ERROR_RATE": "0.1",
        "RAILTRIP_SANDBOX_JUHE_RATE_LIMIT_RATE": "0.2",
        "RAILTRIP_SANDBOX_JUHE_MALFORMED_RATE": "0.3",
        "RAILTRIP_SANDBOX_JUHE_HANG_RATE": "0.05",
        "RAILTRIP_SANDBOX_12306_ERROR_RATE": "1",
    }
    faults = FaultConfig.from_env("juhe", environ)
    assert faults.knobs() == {
        **dict.fromkeys(KNOBS, 0.0),
        "latency_ms": 250.0,
        "error_rate": 0.1,
        "rate_limit_rate": 0.2,
        "malformed_rate": 0.3,
        "hang_rate": 0.05,
    }
    assert FaultConfig.from_env("12306", environ).error_rate == 1.0
    assert env_prefix("12306") == "RAILTRIP_SANDBOX_12306_"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("RAILTRIP_SANDBOX_12306_ERROR_RATE", "1.5"),
        ("RAILTRIP_SANDBOX_12306_HANG_RATE", "-0.1"),
        ("RAILTRIP_SANDBOX_12306_LATENCY_MS", "-5"),
        ("RAILTRIP_SANDBOX_12306_MALFORMED_RATE", "lots"),
        ("RAILTRIP_SANDBOX_12306_RATE_LIMIT_RATE", "nan"),
    ],
)
def test_bad_environment_values_are_refused_naming_the_variable(name, value):
    with pytest.raises(ValueError, match="RAILTRIP_SANDBOX_12306_"):
        FaultConfig.from_env("12306", {name: value})


def test_unknown_vendor_is_refused():
    with pytest.raises(ValueError, match="unknown sandbox vendor"):
        FaultConfig("ctrip")


def test_update_changes_only_the_given_knobs_and_returns_them_all():
    faults = FaultConfig("12306", error_rate=0.5)
    knobs = faults.update(latency_ms=100, hang_rate=None)
    assert knobs == {**dict.fromkeys(KNOBS, 0.0), "latency_ms": 100.0, "error_rate": 0.5}


def test_update_is_all_or_nothing():
    faults = FaultConfig("12306")
    with pytest.raises(ValueError, match="error_rate"):
        faults.update(latency_ms=100, error_rate=2)
    with pytest.raises(ValueError, match="unknown fault knob"):
        faults.update(latency_ms=100, explode=1)
    with pytest.raises(ValueError, match="latency_ms"):
        faults.update(latency_ms=math.inf)
    assert faults.latency_ms == 0.0


def test_a_rate_of_one_always_fires_and_is_counted():
    faults = FaultConfig("juhe", malformed_rate=1.0)
    assert [faults.decide() for _ in range(5)] == [Fault.MALFORMED] * 5
    assert faults.counters()["faults_injected"] == {"malformed": 5}


def test_seeded_dice_repeat_and_fire_at_about_the_configured_rate():
    def run(seed: int) -> list[Fault]:
        faults = FaultConfig("12306", error_rate=0.3, rate_limit_rate=0.2, seed=seed)
        return [faults.decide() for _ in range(2000)]

    first = run(42)
    assert first == run(42)
    assert first != run(43)
    assert 0.25 < first.count(Fault.ERROR) / 2000 < 0.35
    # rate limiting is rolled only when no error fired: 0.7 * 0.2
    assert 0.11 < first.count(Fault.RATE_LIMIT) / 2000 < 0.17


def test_reseeding_restarts_the_sequence():
    faults = FaultConfig("12306", error_rate=0.5)
    faults.seed(1)
    first = [faults.decide() for _ in range(20)]
    faults.seed(1)
    assert [faults.decide() for _ in range(20)] == first


def test_variants_alternate_per_fault_kind():
    faults = FaultConfig("12306", error_rate=1.0)
    seen = []
    for _ in range(4):
        faults.decide()
        seen.append(faults.variant(Fault.ERROR, 2))
    assert seen == [0, 1, 0, 1]


def test_request_counter_counts_total_and_per_path():
    faults = FaultConfig("12306")
    for path in ("/a", "/b", "/a"):
        faults.record(path)
    assert faults.counters()["requests_total"] == 3
    assert faults.counters()["requests_by_path"] == {"/a": 2, "/b": 1}


def test_path_moved_is_a_12306_knob_only():
    environ = {"RAILTRIP_SANDBOX_12306_PATH_MOVED_RATE": "0.25"}
    assert FaultConfig.from_env("12306", environ).path_moved_rate == 0.25
    with pytest.raises(ValueError, match="12306 knob"):
        FaultConfig("juhe", path_moved_rate=0.5)


@pytest.mark.parametrize(
    ("knob", "vendor"),
    [
        ("path_bounce_rate", "12306"),
        ("lc_path_moved_rate", "12306"),
        ("transfer_error_rate", "12306"),
        ("page_error_rate", "12306"),
        ("odd_train_rate", "juhe"),
    ],
)
def test_the_rough_edge_knobs_are_read_from_the_environment_for_their_vendor_only(knob, vendor):
    name = f"{env_prefix(vendor)}{knob.upper()}"
    assert getattr(FaultConfig.from_env(vendor, {name: "0.5"}), knob) == 0.5
    other = "juhe" if vendor == "12306" else "12306"
    with pytest.raises(ValueError, match=f"{vendor} knob"):
        FaultConfig(other, **{knob: 0.5})


def test_an_endpoint_knob_is_rolled_only_where_its_request_is_answered():
    faults = FaultConfig("12306", lc_path_moved_rate=1.0, seed=3)
    assert all(faults.decide() is Fault.NONE for _ in range(10)), "not a left-ticket fault"
    assert [faults.roll("lc_path_moved_rate") for _ in range(3)] == [True] * 3
    assert faults.roll("transfer_error_rate") is False
    assert faults.counters()["faults_injected"] == {"lc_path_moved": 3}
