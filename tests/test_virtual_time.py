"""The virtual-time loop the deadline-bound chaos test runs on."""

from __future__ import annotations

import asyncio

from tests.virtual_time import run_on_virtual_time


def test_timers_fire_in_order_at_their_virtual_time() -> None:
    async def scenario() -> list[tuple[str, float]]:
        loop = asyncio.get_running_loop()
        start = loop.time()
        fired: list[tuple[str, float]] = []

        async def after(name: str, delay: float) -> None:
            await asyncio.sleep(delay)
            fired.append((name, round(loop.time() - start, 3)))

        await asyncio.gather(after("late", 30), after("early", 5), after("middle", 12.5))
        try:
            async with asyncio.timeout(2):
                await asyncio.sleep(3600)
        except TimeoutError:
            fired.append(("deadline", round(loop.time() - start, 3)))
        return fired

    assert run_on_virtual_time(scenario()) == [
        ("early", 5),
        ("middle", 12.5),
        ("late", 30),
        ("deadline", 32),
    ]


def test_a_thread_handing_back_a_result_still_wakes_the_loop() -> None:
    async def scenario() -> int:
        return await asyncio.to_thread(sum, range(10))

    assert run_on_virtual_time(scenario()) == 45
