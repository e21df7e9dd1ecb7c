"""The command line's process skips the interpreter's final collection (its objects are
frozen once the command is done: 100-300 ms of a CLI run went there), while `cli.main`
called in-process with its arguments leaves the caller's heap alone (issue 27 item 2)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROBE = """
import atexit, gc, sys
from app import cli
# Registered first, so it runs last: after main returned and logging flushed.
atexit.register(lambda: print("frozen at exit:", gc.get_freeze_count() > 0))
in_process = cli.main(["stations", "北京南"])
print("frozen after an in-process call:", gc.get_freeze_count() > 0)
sys.argv = ["railtrip", "stations", "北京"]
raise SystemExit(cli.main())
"""


def test_the_process_freezes_its_objects_for_the_exit_and_an_in_process_call_does_not() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAILTRIP_")}
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=REPO,
        env={**env, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert "frozen after an in-process call: False" in lines
    assert lines[-1] == "frozen at exit: True"
    assert any("北京西" in line for line in lines)  # the command's own output came first
