"""`python -m app mcp` as a real subprocess, driven over stdio by the SDK's own client."""

from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path

from mcp import Client, StdioServerParameters

from sources.models import SHANGHAI
from tests.app.mcp.harness import output_schemas, structured

REPO = Path(__file__).resolve().parents[3]


async def test_python_m_app_mcp_serves_the_tools_over_stdio(tmp_path: Path) -> None:
    # A clean environment in an empty directory: no .env, no RAILTRIP_ settings, the embedded
    # default (sandbox vendors in-process), so nothing leaves the machine.
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "app", "mcp"],
        cwd=tmp_path,
        env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(REPO)},
    )
    # The subprocess runs on the real clock: ask for a date inside its sale window.
    date = (dt.datetime.now(SHANGHAI).date() + dt.timedelta(days=3)).isoformat()
    async with Client(server, cache=None) as client:
        schemas = await output_schemas(client)
        answer = structured(
            await client.call_tool(
                "search_tickets", {"origin": "北京", "destination": "上海", "date": date}
            ),
            schemas["search_tickets"],
        )
    assert set(schemas) >= {"search_tickets", "plan_trip", "check_booking"}
    assert answer["freshness"] == "realtime"
    assert answer["offers"] and answer["date"] == date
