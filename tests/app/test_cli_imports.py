"""The command line builds only what a command needs: `tickets` and `stops` answer without
importing the agent, the intent parser, access control, the model client, MCP or the HTTP
server stack, and `plan` (the whole composition root, as a replica opens it) without the
model client, MCP, redis-py when no Redis is configured, pypinyin (its readings come from
generated tables), cn2an (the common shapes of numbers are read without it) or httpcore (no
request leaves the process) (issue 27 item 2; how fast, as ratios, is bench/cli_start.py)."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

from sources.models import SHANGHAI

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("app.agent", "app.intent", "app.access", "openai", "mcp", "fastapi", "uvicorn")
NEVER_ON_THE_DEFAULT = ("openai", "mcp", "redis", "pypinyin", "cn2an", "httpcore")
PROBE = """
import contextlib, io, json, sys
from app import cli
answers = []
for argv in json.loads(sys.argv[1]):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(argv)
    heavy = sorted(m for m in json.loads(HEAVY) if m in sys.modules)
    never = sorted(m for m in json.loads(NEVER) if m in sys.modules)
    answers.append({"code": code, "out": out.getvalue(), "heavy": heavy, "never": never})
print(json.dumps(answers))
"""


def run_cli(*commands: list[str]) -> list[dict]:
    """Each command in turn in one fresh process (one start-up for all): exit code, what it
    printed, and the heavy modules imported so far."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAILTRIP_")}
    code = PROBE.replace("json.loads(HEAVY)", repr(list(HEAVY)))
    code = code.replace("json.loads(NEVER)", repr(list(NEVER_ON_THE_DEFAULT)))
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(commands)],
        cwd=REPO,
        env={**env, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def test_ticket_commands_answer_without_the_agent_model_mcp_or_server() -> None:
    day = (dt.datetime.now(SHANGHAI).date() + dt.timedelta(days=3)).isoformat()
    tickets, stops, plan = run_cli(
        ["tickets", "北京", "上海", day],
        ["stops", "G1", day],
        ["plan", "下周五从郑洲去上海玩三天"],  # 郑洲: a typo read by its sound
    )
    for name, answer in (("tickets", tickets), ("stops", stops)):
        assert answer["code"] == 0, name
        assert "北京" in answer["out"], name
        assert answer["heavy"] == [], f"{name} imported {answer['heavy']}"
    assert "trains" in tickets["out"] and "上海虹桥" in stops["out"]
    assert plan["code"] == 0 and "郑州" in plan["out"], plan["out"]
    for name, answer in (("tickets", tickets), ("stops", stops), ("plan", plan)):
        assert answer["never"] == [], f"{name} imported {answer['never']}"
