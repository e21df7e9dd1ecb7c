"""`GET /v1/tickets` between a city and a town of its prefecture (温州→雁荡山): 温州's city
proper to 雁荡山, as the planner boards; one place asked twice (北京→北京南) is still refused."""

from __future__ import annotations

from typing import Any

from rules.config import in_city_proper
from sources.models import Station
from tests.app.agent.harness import running_app


def _proper(station: dict[str, Any], city: str) -> bool:
    return station["city"] == city and in_city_proper(Station.model_validate(station))


async def test_the_ticket_endpoint_answers_a_city_to_a_town_of_its_prefecture() -> None:
    async with running_app() as (client, _):
        answer = await client.get(
            "/v1/tickets", params={"origin": "温州", "destination": "雁荡山", "date": "2026-12-05"}
        )
        same = await client.get(
            "/v1/tickets", params={"origin": "北京", "destination": "北京南", "date": "2026-12-05"}
        )
    assert answer.status_code == 200, answer.text
    offers = answer.json()["offers"]
    assert offers
    for offer in offers:
        assert _proper(offer["origin_station"], "温州"), offer["origin_station"]
        assert offer["destination_station"]["name"] == "雁荡山"
    assert same.status_code == 422
    assert "same city" in same.json()["message"]
