"""The hours a traveller asks for at the destination of a day trip (在那边至少待6个小时, at least
6 hrs there): the rides there and home leave them, or the plan says openly it could not, and
only when no pair of the day's direct trains could (checked against `/v1/tickets`)."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.wishes import stay_hours
from tests.app.agent.harness import TODAY, running_app

DAY = (dt.date.fromisoformat(TODAY) + dt.timedelta(days=1)).isoformat()


@pytest.mark.parametrize(
    ("text", "hours"),
    [
        ("明天乌鲁木齐到吐鲁番当天来回，在那边至少待6个小时", 6.0),
        # Five or six hours: at least the five.
        ("周六杭州去上海当天往返，想在上海玩五六个小时", 5.0),
        ("周六杭州去上海当天往返，在上海玩五六个小时再回来", 5.0),
        ("day trip urumqi to turpan tomorrow, at least 6 hrs there", 6.0),
        ("i want to spend 5 hours in turpan, back the same day", 5.0),
        ("怎么也得逛够四个小时", 4.0),
        # A ride's hours or a wait's are no visit.
        ("坐两个小时的车就到", None),
        ("至少等两个小时", None),
    ],
)
def test_the_hours_at_the_destination_as_said(text, hours):
    assert stay_hours(text.lower()) == hours


def _stay(itinerary: dict) -> float:
    out = [leg for leg in itinerary["legs"] if leg["segment"] == 0]
    back = [leg for leg in itinerary["legs"] if leg["segment"] == 1]
    arrive = dt.datetime.fromisoformat(out[-1]["arrive_at"])
    leave = dt.datetime.fromisoformat(back[0]["depart_at"])
    return (leave - arrive).total_seconds() / 3600


async def _best_direct_stay(client) -> float:
    """The longest visit any pair of the day's direct trains leaves, as `/v1/tickets` says."""
    answers = []
    for origin, destination in (("乌鲁木齐", "吐鲁番"), ("吐鲁番", "乌鲁木齐")):
        response = await client.get(
            "/v1/tickets", params={"origin": origin, "destination": destination, "date": DAY}
        )
        assert response.status_code == 200
        answers.append(response.json()["offers"])
    arrivals = [dt.datetime.fromisoformat(o["arrive_at"]) for o in answers[0]]
    departures = [dt.datetime.fromisoformat(o["depart_at"]) for o in answers[1]]
    return max((d - a).total_seconds() / 3600 for a in arrivals for d in departures)


async def test_a_visit_of_the_hours_said_is_planned():
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan",
            json={"text": "明天乌鲁木齐到吐鲁番当天来回，在那边至少待6个小时", "today": TODAY},
        )
    reply = response.json()
    assert response.status_code == 200 and reply["itinerary"] is not None, reply
    assert reply["relaxed"] == []
    assert _stay(reply["itinerary"]) >= 6
    assert "在吐鲁番至少待6小时" in reply["understood"]


async def test_a_visit_longer_than_the_day_allows_is_given_up_openly():
    async with running_app() as (client, _):
        response = await client.post(
            "/v1/plan",
            json={"text": "明天乌鲁木齐到吐鲁番当天来回，在那边至少待16个小时", "today": TODAY},
        )
        longest = await _best_direct_stay(client)
    reply = response.json()
    assert response.status_code == 200 and reply["itinerary"] is not None, reply
    assert longest < 16  # no pair of the day's trains leaves sixteen hours there
    relaxed = {item["constraint"]: item for item in reply["relaxed"]}
    assert "stay" in relaxed, reply["summary"]
    assert relaxed["stay"]["requested"] == "在吐鲁番至少待16小时"
    assert relaxed["stay"]["reason"] in reply["summary"]
    assert _stay(reply["itinerary"]) < 16
