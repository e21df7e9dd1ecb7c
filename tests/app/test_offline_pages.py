"""`/` and `/docs` name no outside resource: every script, style and icon is ours."""

from __future__ import annotations

import re

from app.access import hash_key
from app.settings import Settings
from tests.app.apps import running

OUTSIDE = re.compile(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", re.IGNORECASE)
LOCAL_ASSETS = re.compile(r"""(?:src|href)\s*=\s*["'](/[^"']+)["']""")


async def test_pages_and_their_assets_are_served_by_the_app() -> None:
    async with running() as (client, _):
        for page in ("/", "/docs"):
            html = (await client.get(page)).text
            assert not OUTSIDE.search(html), page
            # Files (a name with an extension), not links to other pages such as /docs.
            assets = [a for a in LOCAL_ASSETS.findall(html) if "." in a.rsplit("/", 1)[-1]]
            assert assets, page
            for asset in assets:
                response = await client.get(asset)
                assert response.status_code == 200, asset
        script = (await client.get("/playground/playground.js")).text
        labels = (await client.get("/playground/labels.json")).json()
        redoc = await client.get("/redoc")
    assert "https://" not in script and "http://" not in script
    assert labels["seat_classes"]["second"] == "二等座"
    assert redoc.status_code == 404  # ReDoc's page would fetch its logo from a CDN


async def test_swagger_ui_is_pointed_at_local_assets_and_the_schema() -> None:
    async with running() as (client, _):
        html = (await client.get("/docs")).text
        schema = (await client.get("/openapi.json")).json()
    assert 'src="/docs-assets/swagger-ui-bundle.js"' in html
    assert 'href="/docs-assets/swagger-ui.css"' in html
    assert "url: '/openapi.json'" in html
    assert {"/v1/plan/stream", "/v1/chat/stream", "/sandbox/faults"} <= set(schema["paths"])
    assert (
        "text/event-stream"
        in schema["paths"]["/v1/plan/stream"]["post"]["responses"]["200"]["content"]
    )


async def test_with_keys_required_the_page_loads_without_one_and_the_api_refuses() -> None:
    keys = [f"frontend:{hash_key('rt_frontend_6b1f0e9a77c4')}"]
    async with running(Settings(api_keys=keys)) as (client, _):
        html = (await client.get("/")).text
        assets = LOCAL_ASSETS.findall(html) + ["/playground/labels.json"]
        statuses = {asset: (await client.get(asset)).status_code for asset in assets}
        refused = await client.get("/v1/stations", params={"q": "北京"})
    assert 'id="api-key"' in html  # where the page takes the key it then sends
    assert set(statuses.values()) == {200}, statuses
    assert refused.status_code == 401
