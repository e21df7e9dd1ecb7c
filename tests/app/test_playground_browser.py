"""The playground in a real browser: Debian's headless chromium driven by Playwright.

The page is loaded from the app served by uvicorn on a free port; every request to anywhere
but that server is refused and recorded, so "nothing loaded from outside" is checked too.
Screenshots are saved under test-artifacts/playground/ (their paths are printed).

`make test` installs chromium and fonts-wqy-zenhei (.ci/install-test-tools): a missing browser
fails this test.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, Request, Route, async_playwright, expect

from app.access import hash_key
from tests.app.served import GatedSleep, gated_runtime, served, served_settings

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "playground"
PHONE = {"width": 390, "height": 844}
WAIT_MS = 60_000  # a guard against a hang on a loaded machine, not a measurement
FRONTEND_KEY = "rt_frontend_6b1f0e9a77c4"
ADMIN_KEY = "rt_ops_02d8c3aa5e11"
KEYS = [f"frontend:{hash_key(FRONTEND_KEY)}", f"ops:{hash_key(ADMIN_KEY)}:admin"]
KEY_STORE = "railtrip.apiKey"  # the page's sessionStorage item


@pytest.fixture
def chromium() -> Path:
    """Debian's chromium; a missing one fails the test (`make test` installs it), never skips."""
    assert CHROMIUM.exists(), (
        "Debian's chromium is missing: `make test` installs it (.ci/install-test-tools)"
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return CHROMIUM


@pytest.fixture
async def browser(chromium: Path) -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=str(chromium), args=LAUNCH_ARGS)
        try:
            yield launched
        finally:
            await launched.close()


async def shoot(page: Page, name: str) -> None:
    path = ARTIFACTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")


async def open_page(browser: Browser, url: str, outside: list[str], **context: object) -> Page:
    ctx = await browser.new_context(locale="zh-CN", **context)  # type: ignore[arg-type]

    async def only_our_server(route: Route) -> None:
        if route.request.url.startswith(url):
            await route.continue_()
        else:
            outside.append(route.request.url)
            await route.abort()

    await ctx.route("**/*", only_our_server)
    page = await ctx.new_page()
    page.set_default_timeout(WAIT_MS)
    return page


async def plan(page: Page, text: str) -> None:
    await page.fill("#request-text", text)
    await page.click("#submit")
    await expect(page.locator('#progress li[data-state="done"]')).to_be_visible()


async def test_playground_streams_a_plan_shows_degraded_sources_and_continues_a_session(
    browser: Browser, redis_url: str
) -> None:
    sleep = GatedSleep()
    settings = served_settings(redis_url=redis_url, query_deadline_s=600.0)
    async with served(settings, gated_runtime(sleep)) as server:
        faults = server.state.sandbox_faults
        for knobs in faults.values():
            knobs.update(latency_ms=1)  # vendor answers wait on the gate until the test opens it
        outside: list[str] = []
        page = await open_page(browser, server.url, outside, viewport=PHONE)
        await page.goto(f"{server.url}/")
        await expect(page.locator("body[data-ready='1']")).to_have_count(1)

        # 1. Progress arrives while the vendors still hold the query; then the itinerary.
        await page.fill("#request-text", "12月4日从北京去上海")
        await page.press("#request-text", "Control+Enter")  # submitted from the keyboard
        first = page.locator('#progress li[data-state="PARSE_INTENT"]')
        await expect(first).to_contain_text("已理解")
        await sleep.until(lambda: sleep.waiting >= len(faults))
        assert await page.locator("#result").is_hidden()
        await shoot(page, "1-progress-while-querying")
        sleep.gate.set()
        await expect(page.locator('#progress li[data-state="done"]')).to_be_visible()
        await expect(page.locator('#progress li[data-state="QUERY_TICKETS"]')).to_contain_text(
            "个来源"
        )
        states = await page.locator("#progress li").evaluate_all(
            "items => items.map(i => i.dataset.state)"
        )
        assert states == [
            "PARSE_INTENT",
            "QUERY_TICKETS",
            "EVALUATE_OPTIONS",
            "GENERATE_PLAN",
            "done",
        ]
        await expect(page.locator("#overall-badge")).to_have_text("实时")
        source_badges = page.locator("#source-badges li")
        await expect(source_badges).to_have_count(len(faults))
        for text in await source_badges.all_inner_texts():
            assert "实时" in text
        leg = page.locator("#timeline .leg").first
        train = await leg.locator(".train").inner_text()
        planned = page.locator('#progress li[data-state="GENERATE_PLAN"]')
        await expect(planned).to_contain_text(f"行程已生成：{train}")
        await expect(leg.locator(".seats tr.chosen")).to_have_count(1)
        await expect(leg.locator(".seats caption .badge")).to_have_count(1)
        assert "元" in await leg.inner_text()
        assert await page.locator("#timeline .day h3").first.inner_text() == "12月4日"
        alternative = page.locator("#alternatives details").first
        await alternative.locator("summary").click()
        await expect(alternative.locator(".leg .seats tr.chosen")).to_have_count(1)
        await shoot(page, "2-itinerary-realtime")

        # 2. One vendor fails (named by the page's own fault panel); a new day is asked live.
        vendor = await page.locator("#fault-vendors fieldset").first.get_attribute("data-vendor")
        assert vendor in faults
        await page.select_option(f"#fault-mode-{vendor}", "error")
        await page.click(f'#fault-vendors button[data-vendor="{vendor}"]')
        await expect(page.locator("#fault-status")).to_contain_text("返回错误")
        assert faults[vendor].error_rate == 1
        await plan(page, "12月5日从北京去上海")
        degraded = page.locator("#source-badges li", has=page.locator(".badge-unavailable"))
        await expect(degraded).to_have_count(1)
        await expect(degraded).to_contain_text("不可用")
        await expect(page.locator("#source-badges .badge-realtime")).to_have_count(len(faults) - 1)
        await expect(page.locator("#warnings li").first).to_be_visible()
        await shoot(page, "3-one-vendor-failing")

        # 3. A question is asked; the answer, typed and sent with the keyboard, continues it.
        await plan(page, "下周末，预算2000")
        question = page.locator("#clarify-question")
        await expect(question).to_have_text("请问您从哪个城市出发，想去哪里？")
        await expect(page.locator("#clarify-text")).to_be_focused()
        await expect(page.locator("#freshness")).to_be_hidden()  # a question rates no data
        session = await page.locator("#session").inner_text()
        await shoot(page, "4-clarifying-question")
        await page.keyboard.type("北京到上海")
        await page.keyboard.press("Enter")
        await expect(page.locator("#clarify-form")).to_be_hidden()
        await expect(page.locator("#timeline .leg").first).to_be_visible()
        assert await page.locator("#session").inner_text() == session
        await expect(page.locator("#summary")).to_contain_text("预算2000元")
        await shoot(page, "5-answered-in-place")
        # Phone width: nothing wider than the screen (no sideways scrolling).
        width = await page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"]
        await page.set_viewport_size({"width": 1280, "height": 900})
        await shoot(page, "7-desktop-width")
    assert outside == []


async def test_understood_and_relaxed_are_shown_when_the_reply_carries_them(
    browser: Browser,
) -> None:
    async with served() as server:
        outside: list[str] = []
        page = await open_page(browser, server.url, outside)
        shown: dict[str, object] = {}

        async def with_honesty_fields(route: Route) -> None:
            # The real stream, with the two fields filled in where the reply lacks them.
            response = await route.fetch()
            blocks = (await response.text()).split("\n\n")
            for i, block in enumerate(blocks):
                head, _, data = block.partition("\ndata: ")
                if head == "event: plan":
                    reply = json.loads(data)
                    reply.setdefault("understood", "北京→上海，12月4日出发，1人")
                    reply["relaxed"] = reply.get("relaxed") or [
                        {
                            "constraint": "depart_window",
                            "requested": "08:00前",
                            "offered": "09:41",
                            "reason": "08:00前没有二等座余票",
                        }
                    ]
                    shown.update(reply)
                    blocks[i] = f"{head}\ndata: {json.dumps(reply, ensure_ascii=False)}"
            await route.fulfill(response=response, body="\n\n".join(blocks))

        await page.route("**/v1/chat/stream", with_honesty_fields)
        await page.goto(f"{server.url}/")
        await expect(page.locator("body[data-ready='1']")).to_have_count(1)
        await plan(page, "12月4日从北京去上海")
        await expect(page.locator("#understood")).to_have_text(f"理解为：{shown['understood']}")
        relaxed = shown["relaxed"][0]  # type: ignore[index]
        await expect(page.locator("#relaxed li")).to_have_text(
            f"{relaxed['constraint']}：{relaxed['requested']} → {relaxed['offered']}"
            f"（{relaxed['reason']}）"
        )
        await shoot(page, "8-understood-and-relaxed")
    assert outside == []


async def test_with_keys_required_the_page_sends_the_tabs_key_and_explains_401_and_403(
    browser: Browser,
) -> None:
    async with served(served_settings(api_keys=KEYS)) as server:
        outside: list[str] = []
        page = await open_page(browser, server.url, outside)
        sent: list[tuple[str, str | None]] = []  # (path, key header) of every API request

        def record(request: Request) -> None:
            path = request.url.removeprefix(server.url).split("?")[0]
            if path.startswith(("/v1/", "/sandbox/")):
                sent.append((path, request.headers.get("x-api-key")))

        page.on("request", record)
        await page.goto(f"{server.url}/")
        await expect(page.locator("body[data-ready='1']")).to_have_count(1)  # page, assets open
        await expect(page.locator("#faults")).to_be_hidden()  # no key: no fault panel
        key = page.locator("#api-key")
        error = page.locator("#error")

        # 1. No key: the API's 401 is said in the page's words, the key field marked, focused.
        await page.fill("#request-text", "12月4日从北京去上海")
        await page.click("#submit")
        await expect(error).to_have_text(
            "请求被拒绝（401）：此服务需要 API 密钥：请在上方「API 密钥」一栏填写后重试。"
        )
        await expect(key).to_be_focused()
        await expect(key).to_have_attribute("aria-invalid", "true")
        await shoot(page, "9-key-missing")

        # 2. A wrong key is refused as invalid.
        await key.fill(FRONTEND_KEY + "x")
        await expect(key).not_to_have_attribute("aria-invalid", "true")  # typing clears the mark
        await page.click("#submit")
        await expect(error).to_have_text(
            "请求被拒绝（401）：API 密钥无效：请检查上方「API 密钥」一栏后重试。"
        )

        # 3. The frontend key: the plan streams, the seat tables (/v1/tickets) load too.
        await key.fill(FRONTEND_KEY)
        await plan(page, "12月4日从北京去上海")
        await expect(error).to_be_hidden()
        await expect(page.locator("#timeline .leg .seats").first).to_be_visible()
        assert await page.evaluate(f"sessionStorage.getItem('{KEY_STORE}')") == FRONTEND_KEY
        assert await page.evaluate("localStorage.length + document.cookie.length") == 0
        await expect(page.locator("#faults")).to_be_hidden()  # the sandbox is admin-only
        streams = [k for path, k in sent if path == "/v1/chat/stream"]
        assert streams == [None, FRONTEND_KEY + "x", FRONTEND_KEY]
        assert {k for path, k in sent if path == "/v1/tickets"} == {FRONTEND_KEY}

        # 4. The key is this tab's: kept across a reload, absent from a new tab.
        await page.reload()
        await expect(page.locator("body[data-ready='1']")).to_have_count(1)
        await expect(key).to_have_value(FRONTEND_KEY)
        other = await page.context.new_page()
        await other.goto(f"{server.url}/")
        await expect(other.locator("body[data-ready='1']")).to_have_count(1)
        await expect(other.locator("#api-key")).to_have_value("")
        await other.close()

        # 5. An admin key opens the fault panel; a non-admin key's 403 there is explained.
        await key.fill(ADMIN_KEY)
        await key.blur()
        await expect(page.locator("#faults")).to_be_visible()
        vendor = await page.locator("#fault-vendors fieldset").first.get_attribute("data-vendor")
        await key.fill(FRONTEND_KEY)
        await page.select_option(f"#fault-mode-{vendor}", "error")
        await page.click(f'#fault-vendors button[data-vendor="{vendor}"]')
        await expect(page.locator("#fault-status")).to_have_text(
            "切换失败，请求被拒绝（403）：当前 API 密钥无权执行此操作（需要管理员密钥）。"
        )
        assert server.state.sandbox_faults[str(vendor)].error_rate == 0
        await shoot(page, "10-key-not-admin")
    assert outside == []


async def test_docs_render_offline(browser: Browser) -> None:
    async with served() as server:
        outside: list[str] = []
        page = await open_page(browser, server.url, outside)
        await page.goto(f"{server.url}/docs")
        await expect(page.locator(".swagger-ui .info .title")).to_contain_text("railtrip")
        await expect(page.locator("#operations-plan-planTripStream")).to_have_count(1)
        await shoot(page, "6-docs-offline")
    assert outside == []


async def test_a_failed_request_clears_the_previous_result_and_no_data_is_said_apart(
    browser: Browser,
) -> None:
    async with served(served_settings()) as server:
        outside: list[str] = []
        page = await open_page(browser, server.url, outside)
        await page.goto(f"{server.url}/")
        await expect(page.locator("body[data-ready='1']")).to_have_count(1)
        await plan(page, "12月4日从北京去上海")
        await expect(page.locator("#result")).to_be_visible()
        await expect(page.locator("#timeline .leg").first).to_be_visible()

        # The next request is refused (our own queue full): the old plan must not stay up as
        # if it answered it.
        overloaded = {
            "code": "overloaded",
            "reason": "overloaded",
            "message": "服务当前繁忙，本次查询未能排队（并非数据源故障），请在 2 秒后重试。",
            "retry_after_s": 2,
        }

        async def refuse(route: Route) -> None:
            await route.fulfill(
                status=503,
                content_type="application/json",
                headers={"Retry-After": "2"},
                body=json.dumps(overloaded, ensure_ascii=False),
            )

        await page.route("**/v1/*/stream", refuse)
        await page.fill("#request-text", "12月5日从北京去南京")
        await page.click("#submit")
        await expect(page.locator("#error")).to_contain_text("服务当前繁忙")
        await expect(page.locator("#result")).to_be_hidden()
        await expect(page.locator("#timeline .leg")).to_have_count(0)
        assert await page.locator("#summary").inner_text() == ""
        await shoot(page, "7-failed-request-cleared")
        await page.unroute("**/v1/*/stream")

        # Every source down and nothing cached: the summary says no data could be had.
        faults = server.state.sandbox_faults
        faults["12306"].update(error_rate=1.0, transfer_error_rate=1.0)
        faults["juhe"].update(error_rate=1.0)
        await plan(page, "12月6日从北京去上海")
        summary = page.locator("#summary")
        await expect(summary).to_contain_text("暂时无法获取")
        await expect(summary).to_contain_text("这不代表没有车次")
        await expect(summary).to_have_class("summary no-data")
        await expect(page.locator("#overall-badge")).to_have_text("不可用")
        await shoot(page, "8-no-data")
    assert outside == []
