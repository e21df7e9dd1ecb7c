"""Planning end to end: `POST /v1/plan` latency and where the agent spends it.

The real app (`create_app`, lifespan included) on the embedded default — sandbox vendors
in-process, memory cache only, rule parser, default per-source limits — driven through
httpx's ASGI transport by the real clock. A few sentences are sent round-robin, one request
at a time; the first round meets cold caches (every leg fetched live, through the rate
limiters), later rounds mostly hit L1 (30 s TTL). Per-state time comes from each response's
`agent.trace` (`ms` per step); what is outside the trace is routing, validation and
serialisation.

Run from the repository root: `.venv/bin/python bench/planning.py [--requests 30]`.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import defaultdict

import httpx
from harness import median, percentile

from app.main import create_app
from app.settings import Settings

SENTENCES = (
    "下周五从北京去上海玩三天，预算两千左右",
    "这个周末从杭州去上海玩",
    "下周末从上海去苏州，两个人，预算1500元以内",
    "一家三口下周六从上海去杭州玩两天",
    "我们四个人下周五从长沙去张家界玩三天，人均800",
    "后天北京到天津",
)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=30)
    args = parser.parse_args()

    app = create_app(Settings(log_level="WARNING"))
    wall: list[float] = []
    cold: list[float] = []
    state_ms: dict[str, float] = defaultdict(float)
    state_runs: dict[str, int] = defaultdict(int)
    trace_total = 0.0
    planned = 0
    steps: list[int] = []
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            for index in range(args.requests):
                text = SENTENCES[index % len(SENTENCES)]
                started = time.perf_counter()
                response = await client.post("/v1/plan", json={"text": text}, timeout=60)
                elapsed = (time.perf_counter() - started) * 1000
                assert response.status_code == 200, response.text[:400]
                body = response.json()
                wall.append(elapsed)
                if index < len(SENTENCES):
                    cold.append(elapsed)
                planned += body["itinerary"] is not None
                steps.append(body["agent"]["steps"])
                for step in body["agent"]["trace"]:
                    state_ms[step["state"]] += step["ms"]
                    state_runs[step["state"]] += 1
                    trace_total += step["ms"]
    warm = wall[len(SENTENCES) :]
    outside = sum(wall) - trace_total
    print(
        f"{args.requests} requests, {len(SENTENCES)} sentences round-robin; "
        f"{planned} with an itinerary; steps per run median {median(steps):g}"
    )
    print("time per agent state (sum over all requests):")
    for state, ms in sorted(state_ms.items(), key=lambda kv: -kv[1]):
        print(
            f"  {state:<16} {ms / sum(wall) * 100:5.1f}%  ({ms:8.1f} ms over "
            f"{state_runs[state]} steps)"
        )
    print(f"  {'(outside)':<16} {outside / sum(wall) * 100:5.1f}%  (HTTP, validation, JSON)")
    print()
    print("== planning (/v1/plan, in-process) ==")
    print(f"all   : p50 {percentile(wall, 0.5):7.1f} ms  p95 {percentile(wall, 0.95):7.1f} ms")
    print(f"cold  : p50 {percentile(cold, 0.5):7.1f} ms  (first round, caches empty)")
    if warm:
        print(f"warm  : p50 {percentile(warm, 0.5):7.1f} ms  p95 {percentile(warm, 0.95):7.1f} ms")
        print(f"ratio cold/warm p50: {percentile(cold, 0.5) / percentile(warm, 0.5):.1f}")
    print(f"ratio p95/p50 (all): {percentile(wall, 0.95) / percentile(wall, 0.5):.1f}")
    top = max(state_ms.items(), key=lambda kv: kv[1])
    print(f"largest state share: {top[0]} {top[1] / sum(wall) * 100:.0f}%")


if __name__ == "__main__":
    asyncio.run(main())
