"""The fleet harness itself: a process's log outlives its `stop`."""

from __future__ import annotations

import sys

from tests.fleet.processes import Process


def test_the_output_of_a_stopped_process_is_still_readable() -> None:
    # What a replica that never got ready reports: `wait_ready` stops it, then reads its
    # log (the log file was deleted by then: FileNotFoundError instead of the error).
    code = "import sys; print('boom: RAILTRIP_REDIS_URL is not a Redis URL'); sys.exit(3)"
    proc = Process("replica", [sys.executable, "-c", code], {}, port=1)
    proc._proc.wait(timeout=30)
    proc.stop()
    assert "boom: RAILTRIP_REDIS_URL is not a Redis URL" in proc.output()
    proc.stop()  # twice is harmless
    assert "boom" in proc.output()
