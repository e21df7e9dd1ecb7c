"""The command line builds only what a command needs: `tickets` and `stops` answer without
importing the agent, the intent parser, access control, the model client, MCP or the HTTP
server stack (issue 27 item 2; how fast, as ratios, is bench/cli_start.py)."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sources.models import SHANGHAI

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("app.agent", "app.intent", "app.access", "openai", "mcp", "fastapi", "uvicorn")
PROBE = """
import contextlib, io, json, sys
from app import cli
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = cli.main(sys.argv[1:])
heavy = sorted(m for m in json.loads(HEAVY) if m in sys.modules)
print(json.dumps({"code": code, "out": out.getvalue(), "heavy": heavy}))
"""


def run_cli(*argv: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAILTRIP_")}
    code = PROBE.replace("json.loads(HEAVY)", repr(list(HEAVY)))
    done = subprocess.run(
        [sys.executable, "-c", code, *argv],
        cwd=REPO,
        env={**env, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.parametrize("command", ["tickets", "stops"])
def test_a_ticket_command_answers_without_the_agent_model_mcp_or_server(command: str) -> None:
    day = (dt.datetime.now(SHANGHAI).date() + dt.timedelta(days=3)).isoformat()
    argv = ("tickets", "北京", "上海", day) if command == "tickets" else ("stops", "G1", day)
    answer = run_cli(*argv)
    assert answer["code"] == 0
    assert "北京" in answer["out"]
    assert answer["heavy"] == [], f"{command} imported {answer['heavy']}"
