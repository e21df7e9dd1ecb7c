"""The suite ignores the developer's environment and `.env`, and refuses the network.

The decisive check runs a slice of the suite in a child pytest, from a directory whose `.env`
turns every sandbox vendor's error rate to 1 and whose environment exports the same knobs and
a model key pointing off the machine: the slice passes. The same slice without the suite's
conftest (so without tests/hermetic.py) fails, which shows the stray knobs would matter.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests import hermetic

ROOT = Path(__file__).resolve().parents[1]
# Two API tests that answer from the sandbox vendors (a stray error rate broke such tests).
SLICE = [
    "tests/app/test_tickets_api.py::test_beijing_to_shanghai_lists_real_trains_from_both_vendors",
    "tests/app/test_plan_api.py::test_direct_trip_is_planned_from_live_offers_with_a_template_summary",
]
STRAY = {
    "RAILTRIP_SANDBOX_12306_ERROR_RATE": "1",
    "RAILTRIP_SANDBOX_JUHE_ERROR_RATE": "1",
    "RAILTRIP_LLM_API_KEY": "sk-stray-developer-key",
    "RAILTRIP_LLM_BASE_URL": "http://llm.example.invalid/v1",
}


def start_slice(cwd: Path, *extra: str) -> subprocess.Popen[str]:
    # Only the plugin the slice needs (its tests are async): the others the environment
    # installs (schemathesis, hypothesis, playwright's …) cost each child 2-3 s to load.
    env = {**os.environ, **STRAY, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "asyncio"]
        + ["--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"), *extra]
        + [str(ROOT / p) for p in SLICE],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(child: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = child.communicate(timeout=600)
    return child.returncode, out, err


def test_stray_fault_knobs_and_model_key_in_env_and_dotenv_change_nothing(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("".join(f"{k}={v}\n" for k, v in STRAY.items()))
    # Both runs at once: the suite itself runs on one core.
    hermetic_run, exposed_run = start_slice(tmp_path), start_slice(tmp_path, "--noconftest")
    code, out, err = finish(hermetic_run)
    assert code == 0, out[-3000:] + err[-2000:]
    assert " passed" in out and "failed" not in out
    code, out, _ = finish(exposed_run)
    assert code != 0 and "2 failed" in out, out[-3000:]


def test_this_run_has_no_railtrip_environment() -> None:
    assert [k for k in os.environ if k.startswith("RAILTRIP_")] == []


async def test_a_request_to_a_real_host_is_refused_and_recorded() -> None:
    async with httpx.AsyncClient() as client:
        with pytest.raises(httpx.ConnectError, match="may not reach the network"):
            await client.post("https://api.deepseek.com/v1/chat/completions", json={})
    # Taken here so this test passes; any other test's refused request fails it.
    assert hermetic.take_refused() == ["POST https://api.deepseek.com/v1/chat/completions"]


def test_loopback_stays_reachable_for_servers_the_tests_start() -> None:
    assert hermetic.is_loopback("127.0.0.1") and hermetic.is_loopback("localhost")
    assert hermetic.is_loopback("[::1]") and not hermetic.is_loopback("llm.example.invalid")
