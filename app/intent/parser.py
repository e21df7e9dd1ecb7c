"""Intent parsing as the service uses it: LLM when configured, rules otherwise or as fallback,
then one post-validation both parsers share.

Post-validation is where code decides: names are resolved through the station directory (a
city the model invented becomes a clarification, not a guess), train numbers are kept but
flagged as unverified, missing fields are computed, and the clarifying question or the
out-of-scope refusal is chosen from texts.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field, PrivateAttr

from app.intent import texts
from app.intent.constraints import scope_topics
from app.intent.dates import weekday_disagreeing
from app.intent.llm import LlmIntentParser, LlmParseError
from app.intent.llm_guard import NOTICES, GuardedLlm
from app.intent.model import (
    PREFERENCE_TAGS,
    TravelIntent,
    ViaStop,
    missing_fields,
    places_named,
    shanghai_today,
    with_derived_dates,
)
from app.intent.offline import normalise_text, parse_offline, scope_topic
from app.intent.places import (
    NON_STATION_PLACES,
    PLACE_NAMES,
    former_names,
    free_origin,
    gateway_for,
    heard_places,
    namesake_near,
    nearest_stations,
    school_names,
    spelt_namesakes,
)
from app.observability.metrics import Metrics
from sources.models import is_train_number
from sources.stations import StationDirectory, UnknownStationError

log = logging.getLogger("railtrip.intent")

# Where a place name sits: 从X / X出发 (origin), 去X / 到X (destination); two to four characters.
_ORIGIN_SLOT = re.compile(r"从(?P<place>[\u4e00-\u9fff]{2,3}?)(?=出发|到|去|回|往|坐|上车|，|,|$)")
_DESTINATION_SLOT = re.compile(
    # (回到上海喔: a sentence's closing particle is no part of the place.)
    r"(?:去|到|前往)(?P<place>[\u4e00-\u9fff]{2,3}?)(?:[喔哦啊呀嘛啦咯噢]+)?"
    r"(?=玩|旅游|的|，|,|。|$|出差|看|\s)"
)


@dataclass(frozen=True)
class WhichStation:
    """A name (河口) that is several towns' stations (河口南 in 兰州, 河口北 in 蒙自)."""

    typed: str
    stations: tuple[str, ...]


class ParseOutcome(BaseModel):
    """The answer of `POST /v1/intent/parse` (plus `warnings` and the refusal `message`)."""

    intent: TravelIntent
    parser: Literal["llm", "rules"]
    needs_clarification: bool
    clarify_question: str | None = None
    message: str | None = None
    warnings: list[str] = Field(default_factory=list)
    # The stations a name the traveller typed could be, by slot, when the parser asked which
    # (河口: 河口南, 河口北): for the agent, whose ticket queries may tell (not part of the API).
    _which_station: dict[str, WhichStation] = PrivateAttr(default_factory=dict)

    # The question of which day is meant, when a date was said with a weekday it does not fall
    # on (12月17号周五): a chat asks it too, keeping the trip's day meanwhile.
    _which_day: str | None = PrivateAttr(default=None)

    @property
    def which_station(self) -> dict[str, WhichStation]:
        """The slots asked about with `texts.which_of`, and the stations each could be."""
        return self._which_station

    @property
    def which_day(self) -> str | None:
        """The question asked about a date and a weekday that disagree, if any."""
        return self._which_day


# The traveller asks which station is nearest the place (到哪个站下离雪乡近一点, 最近的火车站):
# the nearest is the answer, not a question back.
_ASKS_NEAREST = re.compile(r"哪个?站下|哪里下车|在哪下车|离[^，。,]{0,6}近|最近的(?:火车|高铁)?站")


class IntentParser:
    """The service's parser: one instance per app, safe to share between requests."""

    def __init__(
        self,
        *,
        directory: StationDirectory,
        metrics: Metrics,
        llm: LlmIntentParser | GuardedLlm | None = None,
    ) -> None:
        self._directory = directory
        self._metrics = metrics
        self._llm = llm

    async def parse(self, text: str, today: dt.date | None = None) -> ParseOutcome:
        """Parse `text` (dates resolved against `today`, default today in Asia/Shanghai)."""
        today = today or shanghai_today()
        notice = None
        if self._llm is not None:
            try:
                result = await self._llm.parse_detailed(text, today)
            except LlmParseError as exc:
                notice = NOTICES.get(exc.reason)
                log.warning("llm parse failed (%s); falling back to rules", exc.reason)
                self._metrics.intent_parse.labels(parser="llm", outcome="fallback").inc()
                self._metrics.degradations.labels(kind="llm_fallback").inc()
            else:
                outcome = "ok" if result.attempts == 1 else "retried"
                self._metrics.intent_parse.labels(parser="llm", outcome=outcome).inc()
                return self.finish(result.intent, text, "llm")
        try:
            intent = parse_offline(text, today, self._directory)
        except Exception:  # a rule bug must not become a 5xx: ask the traveller instead
            log.exception("offline intent parse failed")
            self._metrics.intent_parse.labels(parser="rules", outcome="failed").inc()
            intent = TravelIntent(kind="plan_trip", confidence=0.0)
        else:
            self._metrics.intent_parse.labels(parser="rules", outcome="ok").inc()
        parsed = self.finish(intent, text, "rules")
        if notice is not None:
            parsed.warnings.insert(0, notice)
        return parsed

    def finish(
        self, intent: TravelIntent, text: str, parser: Literal["llm", "rules"]
    ) -> ParseOutcome:
        """Post-validation shared by both parsers."""
        lower = normalise_text(text).lower()
        warnings: list[str] = []
        questions: list[str] = []
        topic = scope_topic(lower)
        if intent.kind == "out_of_scope":
            intent = intent.model_copy(update={"missing": []})
            return ParseOutcome(
                intent=intent,
                parser=parser,
                needs_clarification=False,
                message=texts.refusal(topic or "other"),
            )
        suggested: dict[str, str] = {}  # the place asked about, by slot (您是指武汉吗？)
        which: dict[str, WhichStation] = {}
        which_city: set[str] = set()  # slots asked which of two namesakes (朝阳)
        intent = self._resolve_places(intent, text, questions, warnings, suggested, which_city)
        for _, _, typed, name in heard_places(normalise_text(text), self._directory):
            if name in (intent.origin, intent.destination):
                warnings.append(texts.heard_as(typed, name))
        named = {intent.origin, intent.destination, *(v.city for v in intent.via)}
        for typed, name in former_names(normalise_text(text)):
            if name in named:
                warnings.append(texts.former_name(typed, name))
        for typed, school, name in school_names(normalise_text(text)):
            if name in named:
                warnings.append(texts.school_place(typed, school, name))
        numbers = [n for n in intent.train_numbers if is_train_number(n)]
        invalid = list(
            dict.fromkeys(
                [
                    *intent.invalid_train_numbers,
                    *(n for n in intent.train_numbers if n not in numbers),
                ]
            )
        )
        if numbers:
            warnings.append(texts.train_numbers_unverified(numbers))
        if invalid:
            warnings.append(texts.invalid_train_numbers(invalid))
        # The rules read the topics already, rides told after the train aside (到了转飞机去三亚);
        # a model's reading is topped up with what the words say.
        said = scope_topics(lower, places_named(intent)) if parser == "llm" else []
        topics = list(dict.fromkeys([*intent.out_of_scope_topics, *said]))
        if topics:
            declined = next((t for t in topics if t != "other"), topic or "other")
            warnings.append(texts.PARTLY_OUT_OF_SCOPE.format(refusal=texts.refusal(declined)))
        asked = self._suggest_typos(intent, text, questions, suggested, which) | which_city
        said_day = intent.date_start
        other_day = None if said_day is None else weekday_disagreeing(lower, said_day)
        which_day = None
        if said_day is not None and other_day is not None:
            # 12月17号周五 when the 17th is a Thursday: which of the two is meant is asked,
            # never guessed.
            which_day = texts.which_day(said_day, other_day)
            questions.insert(0, which_day)
            intent = intent.model_copy(update={"date_start": None})
            asked = asked | {"date_start"}
        budget = intent.budget
        if budget is None and intent.budget_per_person is not None:
            budget = intent.budget_per_person * intent.passengers
        intent = with_derived_dates(
            intent.model_copy(
                update={
                    "train_numbers": numbers,
                    "invalid_train_numbers": invalid,
                    "out_of_scope_topics": topics,
                    "preferences": [p for p in intent.preferences if p in PREFERENCE_TAGS],
                    "budget": budget,
                }
            )
        )
        missing = missing_fields(intent)
        intent = intent.model_copy(update={"missing": missing})
        origin_place = free_origin(lower, self._directory)
        if origin_place is not None and intent.origin is not None:
            near = nearest_stations(origin_place, self._directory)
            if near and intent.origin == near[0]:
                # 从澳门去桂林: set off from the station nearest it, said openly.
                warnings.append(texts.planned_at_nearest(origin_place, near[0], near[1:]))
        if intent.destination_text and intent.destination is None:
            place = intent.destination_text
            near = [] if place in NON_STATION_PLACES else self._directory.suggest(place, limit=1)
            directed = self._directory.directed(place)
            if len(directed) > 1:
                # Answered by a station's name ("河口北"), which then fills the destination.
                questions.insert(0, texts.which_of(place, [s.name for s in directed]))
                suggested.setdefault("destination", directed[0].name)
                which["destination"] = WhichStation(place, tuple(s.name for s in directed))
            elif near:
                questions.insert(0, texts.did_you_mean(place, near[0]))
                suggested.setdefault("destination", near[0])
            elif place in NON_STATION_PLACES and (
                stations := nearest_stations(place, self._directory)
            ):
                city = _own_city_of(stations, self._directory)
                if city is not None:
                    # All of them the one city's own (鼓浪屿: 厦门, 厦门北; not 建水 and 蒙自,
                    # two towns of 红河): that city, said openly.
                    intent = intent.model_copy(update={"destination": city})
                    warnings.append(texts.planned_at_nearest(place, city))
                elif (
                    len(stations) == 1 or missing == ["destination"] or _ASKS_NEAREST.search(lower)
                ):
                    # One served station near it (乌镇: 桐乡), the rest of the trip known (明天
                    # 从上海去宏村: 黟县东, nearest first, with 黄山北 named too) or the nearest
                    # asked for (火车到哪个站下离雪乡近): planned at the nearest, said openly;
                    # otherwise, with several and the trip still open, the traveller chooses.
                    # The other stations near it are the traveller's too: tried as they are
                    # before any wish gives way (土楼: 永定, then 南靖 in the morning).
                    others = [s for s in stations[1:] if s not in intent.destination_alternatives]
                    intent = intent.model_copy(
                        update={
                            "destination": stations[0],
                            "destination_alternatives": [
                                *intent.destination_alternatives,
                                *others,
                            ],
                        }
                    )
                    warnings.append(texts.planned_at_nearest(place, stations[0], stations[1:]))
                else:
                    questions.insert(0, texts.nearest_stations(place, stations))
                    suggested.setdefault("destination", stations[0])
            elif place in NON_STATION_PLACES and not NON_STATION_PLACES[place]:
                questions.insert(0, texts.nearest_stations(place, []))
            else:
                gateway = gateway_for(place, self._directory)
                questions.insert(0, texts.not_a_station(place, gateway))
            missing = [m for m in missing if m != "destination"]
        ask = texts.ask_for([m for m in missing if m not in asked])
        if ask:
            questions.append(ask)
        question = None
        if questions:
            question = questions[0] + "".join(texts.AND_THEN + q for q in questions[1:])
        if suggested:
            intent = intent.model_copy(update={"suggested_places": suggested})
        parsed = ParseOutcome(
            intent=intent,
            parser=parser,
            needs_clarification=question is not None,
            clarify_question=question,
            warnings=warnings,
        )
        parsed._which_station = which
        parsed._which_day = which_day
        return parsed

    def _resolve_places(
        self,
        intent: TravelIntent,
        text: str,
        questions: list[str],
        warnings: list[str],
        suggested: dict[str, str],
        which_city: set[str],
    ) -> TravelIntent:
        update: dict[str, object] = {}
        spelt = spelt_namesakes(normalise_text(text), self._directory)
        for name in ("origin", "destination"):
            value = getattr(intent, name)
            if value is None:
                continue
            if value in spelt:
                word, *alike = spelt[value]
                other_value = intent.destination if name == "origin" else intent.origin
                other = None if other_value in spelt else self._city_of(other_value)
                neighbour = namesake_near(alike, other)
                if neighbour is not None and other is not None:
                    # Shanghai to suzhou: 苏州 next door, not 宿州 far off; said so openly.
                    update[name] = neighbour
                    far = [city for city in alike if city != neighbour]
                    warnings.append(texts.spelt_namesake_near(word, neighbour, other, far))
                    continue
                # taizhou: 台州 in 浙江 or 泰州 in 江苏, both likely; asked, not guessed.
                update[name] = None
                questions.append(texts.spelt_namesakes(word, alike))
                suggested[name] = alike[0]
                which_city.add(name)
                continue
            resolved = self._resolve(value)
            namesakes = self._district_namesakes(value) if resolved == value else []
            other_city = self._city_of(intent.destination if name == "origin" else intent.origin)
            apart = [n for n in namesakes if self._city_of(n) != other_city]
            qualified = [n for n in namesakes if _qualified(n, value, text)]
            if len(qualified) == 1:
                # 辽宁那个朝阳: the namesake whose own qualifier the traveller said with it.
                update[name] = qualified[0]
                continue
            if namesakes and len(apart) == 1:
                # 从朝阳去北京: 北京朝阳 is 北京 itself, no trip; the other namesake is meant.
                update[name] = apart[0]
                warnings.append(texts.namesake_by_other_end(value, namesakes, apart[0]))
                continue
            if namesakes:
                # 朝阳: the city in 辽宁, or 北京's district with its station 北京朝阳; asked.
                update[name] = None
                questions.append(texts.which_of(value, namesakes))
                suggested[name] = namesakes[0]
                which_city.add(name)
                continue
            if resolved is not None:
                update[name] = resolved
                continue
            update[name] = None
            if name == "destination" and (value in NON_STATION_PLACES or value in text):
                # A real place the traveller named that has no station: ask for one.
                update["destination_text"] = intent.destination_text or value
            else:
                near = self._directory.suggest(value, limit=3)
                questions.append(texts.unknown_place(value, near))
                warnings.append(f"unknown place dropped: {value}")
                if near:
                    suggested[name] = near[0]
        via: list[ViaStop] = []
        for stop in intent.via:
            resolved = self._resolve(stop.city)
            if resolved is None:
                questions.append(texts.unknown_place(stop.city, []))
                warnings.append(f"unknown place dropped: {stop.city}")
            else:
                via.append(stop.model_copy(update={"city": resolved}))
        update["via"] = via
        return intent.model_copy(update=update)

    def _suggest_typos(
        self,
        intent: TravelIntent,
        text: str,
        questions: list[str],
        suggested: dict[str, str],
        which: dict[str, WhichStation],
    ) -> set[str]:
        """A misspelt place in an origin or destination slot: "您是指北京吗？"."""
        asked: set[str] = set()
        roles = (("origin", _ORIGIN_SLOT), ("destination", _DESTINATION_SLOT))
        for name, slot in roles:
            if getattr(intent, name) is not None:
                continue
            for match in slot.finditer(normalise_text(text)):
                word = match.group("place")
                if self._resolve(word) is not None or word in NON_STATION_PLACES:
                    continue
                if word == intent.destination_text:
                    continue
                directed = self._directory.directed(word)
                if len(directed) > 1:
                    questions.append(texts.which_of(word, [s.name for s in directed]))
                    asked.add(name)
                    suggested[name] = directed[0].name
                    which[name] = WhichStation(word, tuple(s.name for s in directed))
                    break
                found = self._directory.suggest(word, limit=1)
                if found:
                    questions.append(texts.did_you_mean(word, found[0]))
                    asked.add(name)
                    suggested[name] = found[0]
                    break
        return asked

    def _district_namesakes(self, city: str) -> list[str]:
        """Where the city `city` shares its name with a district of another city that has a
        station named after both (朝阳 and 北京朝阳): the stations the name may mean, the
        city's own first (辽宁朝阳); empty when the name is the city's alone."""
        if city not in self._directory.cities():
            return []
        districts = [
            s.name
            for s in self._directory
            if s.city != city and s.name.endswith(city) and s.name[: -len(city)] == s.city
        ]
        if not districts:
            return []
        own = [s.name for s in self._directory.in_city(city) if s.name.endswith(city)]
        return [*(own or [city]), *districts]

    def _city_of(self, name: str | None) -> str | None:
        """The city of the place `name` names, or None when it names none."""
        resolved = self._resolve(name) if name else None
        if resolved is None:
            return None
        try:
            return self._directory.resolve(resolved).city
        except UnknownStationError:
            return None

    def _resolve(self, name: str) -> str | None:
        # A model may hand back the traveller's own everyday name (襄樊, 蓉城): its meaning.
        if self._directory.by_name(name) is None and name not in self._directory.cities():
            name = PLACE_NAMES.get(name, name)
        try:
            place = self._directory.resolve(name)
        except UnknownStationError:
            return None
        if not place.is_city and place.name in self._directory.cities():
            return place.name + "站"  # 天津站: the station 天津 alone, said so to the end
        return place.name


def _own_city_of(names: Sequence[str], directory: StationDirectory) -> str | None:
    """The city when several stations are all of it and named after it (厦门, 厦门北), else
    None (one station, a station unknown, or stations of two towns of one prefecture)."""
    found = [directory.by_name(name) for name in names]
    cities = {station.city for station in found if station is not None}
    if len(names) < 2 or None in found or len(cities) != 1:
        return None
    (city,) = cities
    return city if all(name.startswith(city) for name in names) else None


def _qualified(station: str, name: str, text: str) -> bool:
    """True when `text` says `name` with the qualifier that makes it `station` (辽宁那个朝阳,
    北京的朝阳 for 辽宁朝阳, 北京朝阳)."""
    qualifier = station[: -len(name)] if station.endswith(name) else ""
    if not qualifier:
        return False
    said = re.escape(qualifier) + r"(?:省|市)?(?:的|那个|那边的|这个)?" + re.escape(name)
    return re.search(said, text) is not None
