"""`python -m sources.sandbox` builds the chosen vendor with knobs from the environment."""

from __future__ import annotations

import pytest

from sources.sandbox import __main__ as cli


@pytest.fixture
def served(monkeypatch):
    calls = []
    monkeypatch.setattr(cli.uvicorn, "run", lambda app, **kw: calls.append((app, kw)))
    return calls


def test_serves_the_12306_vendor_on_the_given_port(served, monkeypatch):
    monkeypatch.setenv("RAILTRIP_SANDBOX_12306_LATENCY_MS", "30")
    cli.main(["--vendor", "12306", "--port", "9001"])
    ((app, options),) = served
    assert options["host"] == "127.0.0.1" and options["port"] == 9001
    assert app.state.faults.vendor == "12306" and app.state.faults.latency_ms == 30
    assert app.state.require_cookies is True


def test_serves_the_juhe_vendor(served):
    cli.main(["--vendor", "juhe", "--host", "0.0.0.0", "--port", "9002"])
    ((app, options),) = served
    assert options["host"] == "0.0.0.0"
    assert app.state.faults.vendor == "juhe"


def test_unknown_vendor_is_a_usage_error(served):
    with pytest.raises(SystemExit):
        cli.main(["--vendor", "ctrip"])
    assert served == []
