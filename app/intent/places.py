"""Places in free text: directory names found by scanning, given roles by the words around them.

Roles come from cue words: 从/由 before a name, or 出发/上车/走 after it, mark the origin;
到/去/往/回/→ before it mark a stop; "A到B", "A→B", "from A to B" make A the origin. Stops in
order of mention form the route: the last is the destination, the others are via stops; a
final 回<origin> marks a return trip. Places that are not stations (九寨沟) are kept as text.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files

from app.intent.model import TravelIntent, ViaStop, missing_fields
from app.intent.numerals import NUMBER, to_int
from rules.config import in_city_proper
from sources.stations import StationDirectory, UnknownStationError
from sources.stations.matching import fuzzy_sound, readings

_ORIGIN_BEFORE = ("从", "由", "自", "from")
_STOP_BEFORE = (
    "到",
    "去",
    "往",
    "至",
    "回",
    "前往",
    "抵达",
    "到达",
    "直达",
    "飞",
    "→",
    "->",
    "to",
    "dao",
    "visit",
)
# A place a flight lands at (落地大兴机场, 飞到虹桥机场, 广州落地): the train leaves from there.
LANDED_BEFORE = (
    *("落地在", "落地", "降落在", "降落", "飞到", "飞抵", "飞机到", "航班到"),
    *("飞机落", "航班落"),  # 两点飞机落大兴机场
)
_LANDED_AFTER = ("落地", "降落", "下飞机", "下了飞机")
_ORIGIN_AFTER = ("出发", "上车", "走", "始发", "动身", "发车", "启程", "过去", "坐", "乘")
_NOT_STOP_BEFORE = ("过去",)  # "坐火车过去 成都出发": 去 ends a verb, not a cue
_PAIR_AFTER = ("到", "去", "往", "至", "回", "→", "->", "-", "—", "to", "dao ")
_RETURN_BEFORE = ("回", "返回", "回到", "back to")
_BACK_BY_BEFORE = re.compile(r"(?:前|之前|以前)\s*(?:要|得|能|必须|就|须)?(?:赶)?到$")
"""A deadline to reach a place (11点前得到): back at a place already said is the ride home."""
_THROUGH_BEFORE = ("经", "途经", "经过", "路过", "via")
_STAY_BEFORE = ("在", "先在")
# Where the traveller is now (人在北京, 我在北京读研): where the trip starts, when it names
# another place to go to.
# Where one lives (俺住沈阳北站那边, 我家住昆明) is where one sets off from, the same way.
_HERE_BEFORE = (
    *("我在", "人在", "现在在", "目前在", "还在", "家在", "我们在", "俺在"),
    *("我住在", "我住", "俺住在", "俺住", "家住在", "家住", "我们住在", "我们住"),
    # Where one works (公司在福田, 单位在江北) is where one is on a working day.
    *("公司在", "公司就在", "单位在", "单位就在", "办公室在", "上班在"),
)


_NEAR_AFTER = re.compile(r"站?(?:那边|那块|那片|附近|一带|旁边|边上|周边)")


# 上海这边活干完了，下周一回六安: the place one is at, said with 这边/这儿, the same way.
# 延大放寒假啦，周六回长春: a place (its school, its works) said to be on holiday is where one is.
_HERE_AFTER = re.compile(
    r"(?:这边|这儿|这里|这头)(?!.{0,2}(?:吗|呢|？|\?))|(?:也|都|就|已经|终于)?放(?:寒|暑)?假"
)


# 在义乌做小工, 在苏州上班, 儿子在南京上学: where one works or studies is where one is.
_WORKS_AFTER = re.compile(
    r"(?:做|打|干)(?:小工|零工|工|活)|打工|上班|工作|上学|读书|念书|读研|读大学|上大学|实习"
)


def _rows(name: str) -> list[dict[str, str]]:
    text = (files("app.intent") / "data" / name).read_text("utf-8")
    return list(csv.DictReader(text.splitlines()))


_NEAREST = _rows("nearest_stations.csv")
# Places travellers ask for that have no station of their own, with the nearest served
# stations where the fact is well known (none where the railway is hundreds of km away):
# `data/nearest_stations.csv`, read once.
NON_STATION_PLACES: dict[str, tuple[str, ...]] = {
    row["place"]: tuple(row["nearest"].split()) for row in _NEAREST if row["kind"] == "no_station"
}
# Places with a station that may sell no train at all (香格里拉 on the embedded network): when a
# day has none, the nearest served stations are offered as for a place without one.
NO_SERVICE_PLACES: dict[str, tuple[str, ...]] = {
    row["place"]: tuple(row["nearest"].split()) for row in _NEAREST if row["kind"] == "no_service"
}
# Places with a station of their own that sells few trains (凤凰古城, on a new line): where it
# has none from the trip's other end on the day, the stations travellers take to it instead,
# the usual one first.
SCANT_STATION_PLACES: dict[str, tuple[str, ...]] = {
    row["place"]: tuple(row["nearest"].split()) for row in _NEAREST if row["kind"] == "scant"
}
# Everyday names of places that are no directory name: city nicknames (呼市, 山城), districts
# (浦东 is 上海; 苏州工业园区 has its own station, 苏州园区) and stations by their short names
# (虹桥 for 上海虹桥): `data/place_names.csv`, read once. Each means a directory name.
_PLACE_ROWS = _rows("place_names.csv")
PLACE_NAMES: dict[str, str] = {row["name"]: row["means"] for row in _PLACE_ROWS}
# Former names of renamed cities (襄樊 is 襄阳 since 2010): read like the rest, and said back,
# since a traveller who still uses one may not know the station is filed under the new name.
FORMER_NAMES: dict[str, str] = {
    row["name"]: row["means"] for row in _PLACE_ROWS if row["kind"] == "former"
}
# A misheard name is looked for only where a place is expected: after these characters or
# before these words.
_HEARD_BEFORE = "从由自到去往至回在住"
_CUE_CHARS = "从到去回往在"
_ROUTE_CUES = "从到去回往"
_PAIR_CUES = "到去往至"
_HEARD_AFTER = (*_PAIR_AFTER, *_ORIGIN_AFTER, "过去", "玩", "出差", "看", "旅游", "开会", "，", ",")
_HEARD_LENGTHS = (4, 3, 2)
# Words that are no place whatever they sound like: those led by a cue (回来 is no 惠来, 去年
# no 曲阳) or ending in a particle or a verb's complement.
_NOT_HEARD_START = _HEARD_BEFORE + "来上下出进过看"
# A count (去一趟, 到一场演出, 一样的): 一 and a measure word, no place typed by sound.
_COUNT_WORD = re.compile(r"一[场样趟次个件些下点块遍回阵番份张位]")
_NOT_HEARD_END = "来去了的吗呢吧啊呀么过着"
# Everyday words whose last character may start a sound-alike (全程都 is no 成都).
_EVERYDAY_WORDS = frozenset(
    {"全程", "行程", "路程", "过程", "回程", "返程", "去程", "日程", "单程", "来回", "往返"}
)
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
_QUESTION_WORDS = ("哪", "什么", "那里", "这里", "那边", "外地", "旅游", "玩", "看", "时候", "一下")
_FREE_PLACE = re.compile(
    # 先过去住一晚: a stay said after the going, no place.
    r"(?:去|到|往|前往)(?![住待呆歇睡])(?P<place>[\u4e00-\u9fff]{2,5}?)(?=玩|旅游|旅行|看|游|度假|逛|，|。|,|$|的)"
)

_STAY_TAIL = (
    r"(?:(?:玩|住|待|呆|停留|逛|游|吃)\s*(?P<n>" + NUMBER + r")\s*(?P<unit>天|日|晚|夜)"
    r"|\s*(?P<n2>" + NUMBER + r")\s*(?P<unit2>晚|夜)(?!上|里))"
)
_STAY = re.compile(r"^[^，。,;；]{0,3}?" + _STAY_TAIL)
# A stop with another after it: its stay may follow the errand said there (到深圳找我表哥
# 住两晚 周一再去东莞), all of it before the next place is named.
_STAY_AFTER_ERRAND = re.compile(r"^[^，。,;；]{0,8}?" + _STAY_TAIL)
_COMPASS = {"east": "东", "west": "西", "south": "南", "north": "北"}


@dataclass
class _Hit:
    start: int
    end: int
    name: str
    role: str | None = None  # "origin" | "stop" | None
    returning: bool = False
    through: bool = False  # 经/途经: passing through, no night


@dataclass
class Route:
    """The route a text describes, in directory names."""

    origin: str | None = None
    destination: str | None = None
    via: list[ViaStop] = field(default_factory=list)
    final_nights: int | None = None
    return_trip: bool | None = None
    destination_text: str | None = None
    alternatives: list[str] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)


class NameScanner:
    """Finds the names in free text as one regular expression alternating all of them,
    longest first, would: left to right, at each position the longest name starting there,
    no overlaps (上海虹桥, not 上海). A set lookup per length instead: compiling the
    3,400-branch expression cost 60-80 ms of CPU, paid by the first sentence of every process
    (every command-line plan)."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self._names = frozenset(names)
        lengths: dict[str, set[int]] = {}
        for name in self._names:
            lengths.setdefault(name[0], set()).add(len(name))
        self._lengths = {first: sorted(found, reverse=True) for first, found in lengths.items()}

    def finditer(self, text: str) -> Iterator[tuple[int, int, str]]:
        """(start, end, name) of each name found."""
        i = 0
        while i < len(text):
            found = self.match_at(text, i)
            if found is None:
                i += 1
            else:
                yield found
                i = found[1]

    def match_at(self, text: str, i: int) -> tuple[int, int, str] | None:
        """The longest name starting at `i`, as (start, end, name), or None."""
        for length in self._lengths.get(text[i], ()) if i < len(text) else ():
            if i + length <= len(text) and text[i : i + length] in self._names:
                return i, i + length, text[i : i + length]
        return None


@cache
def _name_scanner(names: tuple[str, ...]) -> NameScanner:
    return NameScanner(names)


def _pinyin_index(directory: StationDirectory) -> dict[str, str]:
    """Pinyin of every station and city → its name (cities via their namesake station)."""
    index: dict[str, str] = {}
    # A city's namesake first: "dali" is the city 大理, not the station 大荔; of two cities
    # spelt alike, the likelier one ("suzhou" is 苏州, not 宿州).
    for station in sorted(
        directory,
        key=lambda s: (s.name != s.city, directory.importance(s.city) if s.name == s.city else 0),
    ):
        if station.pinyin:
            index.setdefault(station.pinyin.lower(), station.name)
    for station in directory:
        suffix = station.name.removeprefix(station.city)
        py = station.pinyin.lower()
        if suffix and suffix != station.name and py:
            for cn, latin in (("东", "dong"), ("西", "xi"), ("南", "nan"), ("北", "bei")):
                if suffix == cn and py.endswith(latin):
                    index.setdefault(py.removesuffix(latin), station.city)
    # Stations by their short names (dao hongqiao: 上海虹桥), after every full name.
    for row in _PLACE_ROWS:
        said = readings(row["name"])[:1]
        if row["kind"] == "short" and not row["name"].endswith("站") and said:
            if directory.by_name(row["means"]) is not None:
                index.setdefault(said[0], row["means"])
    return index


_VOWELS = frozenset("aeiouv")
_INITIALS_MIN = 3
# Two-letter initials of big cities that fast typists use (gz去sz, 明早bj去tj): each in
# common use for that city alone. Too short to be read anywhere else, so only beside a
# route cue (去, 到, 从, 回, 出发 …), as a word of its own.
CITY_ABBREVIATIONS = {
    "bj": "北京", "sh": "上海", "gz": "广州", "sz": "深圳", "tj": "天津", "cq": "重庆",
    "cd": "成都", "hz": "杭州", "nj": "南京", "wh": "武汉", "xa": "西安", "cs": "长沙",
    "zz": "郑州", "wx": "无锡", "xm": "厦门", "qd": "青岛", "jn": "济南", "hf": "合肥",
    "km": "昆明", "nn": "南宁", "dl": "大连", "ty": "太原",
}  # fmt: skip
_ABBREVIATION_CUES_BEFORE = (
    *(c for c in (*_ORIGIN_BEFORE, *_STOP_BEFORE) if not (c.isascii() and c.isalpha())),
    "-",
    "—",
)
_ABBREVIATION_CUES_AFTER = tuple(
    c for c in (*_PAIR_AFTER, *_ORIGIN_AFTER) if not (c.isascii() and c.isalpha())
)


def _abbreviated_city(word: str, text: str, span: tuple[int, int]) -> str | None:
    """The big city two letters stand for (gz: 广州) where they stand as a place: a word of
    their own right after or before a route cue (gz去sz, 回bj), never elsewhere (cd唱片)."""
    city = CITY_ABBREVIATIONS.get(word)
    if city is None:
        return None
    before = text[: span[0]].rstrip()
    after = text[span[1] :].lstrip()
    if before.endswith(_ABBREVIATION_CUES_BEFORE) or after.startswith(_ABBREVIATION_CUES_AFTER):
        return city
    return None


@cache
def _initials_index(directory: StationDirectory) -> dict[str, str]:
    """The pinyin initials of each city of three characters or more (wlmq: 乌鲁木齐, sjz: 石家庄),
    the likelier city first. Only words with no vowel are read so: they spell no syllable, and
    shorter ones (bj, km) are too often something else."""
    index: dict[str, str] = {}
    for station in sorted(
        (s for s in directory if s.name == s.city and len(s.name) >= _INITIALS_MIN),
        key=lambda s: directory.importance(s.city),
    ):
        if len(station.initials) == len(station.name):
            index.setdefault(station.initials.lower(), station.name)
    return {k: v for k, v in index.items() if not _VOWELS & set(k)}


def spelt_namesakes(text: str, directory: StationDirectory) -> dict[str, tuple[str, ...]]:
    """Cities a romanised word in `text` spells alike (taizhou: 台州 and 泰州), keyed by the one
    the word is read as, with the word first: the traveller is asked which is meant. A
    provincial capital among them is meant (fuzhou is 福州, not 抚州)."""
    if not any(c.isascii() and c.isalpha() for c in text):
        return {}
    index = _pinyin_index(directory)
    found: dict[str, tuple[str, ...]] = {}
    for match in re.finditer(r"[A-Za-z][A-Za-z']*", text):
        word = match.group().lower().replace("'", "")
        read = index.get(word)
        if read is None:
            continue
        alike = [
            s.name for s in directory if s.name == s.city and s.pinyin and s.pinyin.lower() == word
        ]
        if len(alike) > 1 and all(directory.importance(c)[0] > 0 for c in alike):
            ordered = sorted(alike, key=lambda c: c != read)
            found[read] = (word, *ordered)
    return found


# A romanised word this long or longer that spells no place exactly is read with the sounds
# travellers confuse folded (zhengzou: 郑州, cong qing: 重庆); shorter ones are too often words.
_FUZZY_PINYIN_MIN = 5


def _fuzzy_pinyin_index(index: dict[str, str]) -> dict[str, str]:
    """`index` keyed by the folded sound of each spelling (`fuzzy_sound`), first one kept."""
    fuzzy: dict[str, str] = {}
    for spelling, name in index.items():
        fuzzy.setdefault(fuzzy_sound(spelling), name)
    return fuzzy


# Time words typed in pinyin, no place whatever they sound like (zaoshang is no 昭山).
_EVERYDAY_PINYIN = frozenset(
    {"zaoshang", "wanshang", "shangwu", "xiawu", "zhongwu", "mingtian", "jintian", "houtian"}
    | {"dahoutian", "zhoumo", "xiazhou", "bangwan", "lingchen", "xuesheng", "chufa"}
    # The verbs that lead a going (wo xiang qu guilin: 想去, not 西安 before qu).
    | {"xiang", "yao", "dasuan", "zhunbei", "xiangyao", "jihua"}
)
_SPELT_CUES_BEFORE = (*_ORIGIN_BEFORE, *_STOP_BEFORE, "cong", "qu", "hui")
_SPELT_CUES_AFTER = (*_PAIR_AFTER, *_ORIGIN_AFTER, "qu ", "chufa", "chu fa")


def _spelt_place(
    index: dict[str, str], fuzzy: dict[str, str], word: str, text: str, span: tuple[int, int]
) -> str | None:
    """The place a romanised word spells: exactly, or with confused sounds folded where a
    place is expected (after 从/去/cong/qu…, before 到/出发/dao…: zaoshang alone is no 昭山)."""
    if word in index:
        return index[word]
    if len(word) < _FUZZY_PINYIN_MIN or word in _EVERYDAY_PINYIN:
        return None
    before = text[: span[0]].rstrip().lower()
    after = text[span[1] :].lstrip().lower()
    if not (before.endswith(_SPELT_CUES_BEFORE) or after.startswith(_SPELT_CUES_AFTER)):
        return None
    return fuzzy.get(fuzzy_sound(word))


_OLD_TOWN = frozenset({"古镇", "古城"})
"""Words after a town's name that say its old town (镇远古镇); 古镇 is also a station."""


def _district_of(city: _Hit, hit: _Hit, directory: StationDirectory) -> bool:
    """True when `hit` (福田) is a station of the city proper named right before it (深圳); a
    town of the prefecture (桂林阳朔) stays the town."""
    station = directory.by_name(hit.name)
    return (
        city.end == hit.start
        and station is not None
        and station.city == city.name != station.name
        and not station.name.startswith(city.name)
        and in_city_proper(station)
    )


def _scan(text: str, directory: StationDirectory) -> list[_Hit]:
    scanner = _name_scanner(tuple(directory.names()))
    found = [
        _cue_led(text, _Hit(start, end, name), directory, scanner)
        for start, end, name in _rightful_names(text, scanner)
    ]
    hits = _with_everyday_names(text, directory, [hit for hit in found if hit is not None])
    hits = [_heard_longer(text, directory, hit) for hit in hits]
    hits += _heard_hits(text, directory, hits)
    hits = _stations_of_cities_by_sound(text, directory, hits)
    # A name inside or right after a place without a station is part of it (西塘古镇 is no
    # trip to the station 古镇, 600 km away).
    spans = [
        (m.start(), m.end())
        for place in NON_STATION_PLACES
        for m in re.finditer(re.escape(place), text)
    ]
    hits = [h for h in hits if not any(a <= h.start <= b and h.end > a for a, b in spans)]
    # 深圳福田: a district said after its city is where in the city, not the station alone
    # (深圳福田站 is the station).
    hits = [
        h
        for h in hits
        if text.startswith("站", h.end) or not any(_district_of(g, h, directory) for g in hits)
    ]
    # 上海瑞金医院, 上海华山医院, 广州北京路: a place named right after a city and followed by
    # a landmark's word is that landmark's name in the city, no trip to 瑞金 or 华山.
    hits = [
        h
        for h in hits
        if not (
            _LANDMARK_AFTER.match(text, h.end)
            and any(g.end == h.start and _city(g, directory) != _city(h, directory) for g in hits)
        )
    ]
    # 邵阳下面那个邵东, 孝感汉川: the prefecture said to tell which town is meant, no place of
    # the trip.
    hits = [h for h in hits if not any(_town_under(text, h, g, directory) for g in hits)]
    hits = _without_home_told(text, hits)
    hits = _without_sights_elsewhere(text, _either_station(text, hits, directory))
    if any(c.isascii() and c.isalpha() for c in text):
        index = _pinyin_index(directory)
        fuzzy = _fuzzy_pinyin_index(index)
        words = [
            (m.start(), m.end(), m.group().lower().replace("'", ""))
            for m in re.finditer(r"[A-Za-z][A-Za-z']*", text)
        ]
        i = 0
        while i < len(words):
            pair = words[i][2] + words[i + 1][2] if i + 1 < len(words) else None
            compass = _COMPASS.get(words[i + 1][2]) if i + 1 < len(words) else None
            city = index.get(words[i][2])
            if compass and city and directory.by_name(city + compass) is not None:
                # "Hangzhou East" is the station 杭州东, not the city.
                hits.append(_Hit(words[i][0], words[i + 1][1], city + compass))
                i += 2
                continue
            # Two words spelling one place ("cong qing") unless the first is a place itself.
            paired = None
            if pair and (pair in index or words[i][2] not in index):
                paired = _spelt_place(index, fuzzy, pair, text, (words[i][0], words[i + 1][1]))
            if paired is not None:
                hits.append(_Hit(words[i][0], words[i + 1][1], paired))
                i += 2
                continue
            single = _spelt_place(index, fuzzy, words[i][2], text, words[i][:2])
            if single is None:
                single = _initials_index(directory).get(words[i][2])
            if single is None:
                single = _abbreviated_city(words[i][2], text, words[i][:2])
            if single is not None:
                hits.append(_Hit(words[i][0], words[i][1], single))
            i += 1
    # 镇远古镇, zhenyuan古镇, 凤凰古城: a town's old town is the town, not the station 古镇 after
    # it; read after the romanised names, which lead an old town as often (a spelt town with
    # no station, zhouzhuang古镇, is still no trip to the station 古镇).
    hits = [
        h
        for h in hits
        if not (
            h.name in _OLD_TOWN
            and (
                any(g.end <= h.start and not text[g.end : h.start].strip() for g in hits)
                or re.search(r"[A-Za-z]\s*$", text[: h.start]) is not None
            )
        )
    ]
    hits.sort(key=lambda h: h.start)
    return hits


_UNDER = re.compile(r"(?:下面|下边|底下|下辖|下属)(?:的|那个|那)?")
"""Words between a prefecture and a town of it (邵阳下面那个邵东, 桂林下面的阳朔)."""


def _town_under(text: str, prefecture: _Hit, town: _Hit, directory: StationDirectory) -> bool:
    """True when `town` is said right after `prefecture`, or after it and `_UNDER`
    (邵阳下面那个邵东, 孝感汉川), and has a station filed under that prefecture, said as a city."""
    under = _UNDER.match(text, prefecture.end)
    station = directory.by_name(town.name)
    return (
        (under.end() if under is not None else prefecture.end) == town.start
        and prefecture.name in directory.cities()
        and town.name != prefecture.name
        and station is not None
        and station.city == _city(prefecture, directory)
    )


_HOME_TOLD = re.compile(r"老家(?:是|在)?[^，,。；;！!？?\s从到去回往]{0,4}$")
_RIDE_ENDS_AT = re.compile(r"(?:坐到|坐车到|坐火车到|坐高铁到|坐动车到|买到|到)$")


def _without_home_told(text: str, hits: list[_Hit]) -> list[_Hit]:
    """`hits` without a home said to tell where one is from (老家南充营山的) when the sentence
    says where the ride ends (坐到南充就行): the ride ends there, home is reached otherwise."""
    home = [h for h in hits if _HOME_TOLD.search(text[max(0, h.start - 8) : h.start])]
    ends = [
        h
        for h in hits
        if h not in home
        and any(h.start > k.end for k in home)
        and _RIDE_ENDS_AT.search(text[max(0, h.start - 4) : h.start])
    ]
    return [h for h in hits if h not in home] if home and ends else hits


_LANDMARK_AFTER = re.compile(
    r"医院|人民医院|路|大街|大道|广场|公园|大学|学院|中学|小学|酒店|宾馆|饭店|大厦|商场|小区"
    r"|剧院|体育馆|博物馆|纪念馆|动物园"
)
"""Words that make the place named before them a landmark's name (瑞金医院, 南京路)."""

_EITHER = re.compile(r"\s*(?:或者|或是|或|还是|、|/|和)\s*$")


def _either_station(text: str, hits: list[_Hit], directory: StationDirectory) -> list[_Hit]:
    """Two stations of one city said as either (到杭州东或者杭州南, 上海虹桥、上海站都行): the
    city, whose stations are all wished for, not a stop at the first then the second."""
    hits = sorted(hits, key=lambda h: h.start)
    out: list[_Hit] = []
    for hit in hits:
        last = out[-1] if out else None
        if (
            last is not None
            and last.name != hit.name
            and _EITHER.match(text[last.end : hit.start])
            and _city(last, directory) == _city(hit, directory)
        ):
            end = hit.end + 1 if text.startswith("站", hit.end) else hit.end
            out[-1] = _Hit(last.start, end, _city(last, directory))
            continue
        out.append(hit)
    return out


# Time words whose last character may start a station's name (早上杭州东 is no 上杭, 晚上海口
# no 上海): a name starting there gives way to a name right after it.
_TIME_WORDS = frozenset(
    {"早上", "晚上", "马上", "上午", "中午", "下午", "今天", "明天", "后天", "当天", "今晚", "明晚"}
    | {"傍晚", "明早", "一早", "周日", "周六", "周五", "周四", "周三", "周二", "周一", "周末"}
)


_NUMERALS_ONLY = re.compile(r"[〇零一二两三四五六七八九十百]+")
_COUNTED_AFTER = ("点", "时", "号", "日", "月", "岁", "个", "天", "晚", "人", "张", "分", "刻")


def _a_number_said(text: str, start: int, end: int, name: str) -> bool:
    """True when a station named by numerals alone (五五) is numbers said in the text: a
    weekday's and an hour (周五五点半), or any count or clock (五五点 is no place)."""
    if not _NUMERALS_ONLY.fullmatch(name):
        return False
    return text[max(0, start - 1) : start] in ("周", "期", "拜") or text.startswith(
        _COUNTED_AFTER, end
    )


def _rightful_names(text: str, scanner: NameScanner) -> Iterator[tuple[int, int, str]]:
    """The scanner's names, left to right, except that a name which crosses into a name
    starting inside it gives way to that one when it is longer (早上杭州东: 杭州东, not 上杭) or
    when the first name begins with the last character of a time word (晚上海口: 海口)."""
    i = 0
    while i < len(text):
        found = scanner.match_at(text, i)
        if found is None:
            i += 1
            continue
        start, end, name = found
        if _a_number_said(text, start, end, name):
            i += 1
            continue
        led = text[max(0, start - 1) : start + 1] in _TIME_WORDS
        for j in range(start + 1, end):
            later = scanner.match_at(text, j)
            if later is not None and later[1] > end and (len(later[2]) > len(name) or led):
                found = later
                break
        yield found
        i = found[1]


def _cue_led(
    text: str, hit: _Hit, directory: StationDirectory, scanner: NameScanner
) -> _Hit | None:
    """A name that swallowed its own cue ("从江城": not the station 从江 but 从 and 江城, 武汉)
    gives way to the longer name after the cue: the name after it (化州 in 从化州), or None
    for an everyday name the next pass finds (江城)."""
    if text[hit.start] not in _CUE_CHARS:
        return hit
    after = text[hit.start + 1 :]
    longer = [n for n in PLACE_NAMES if after.startswith(n) and len(n) + 1 > len(hit.name)]
    if longer:
        return None
    match = scanner.match_at(text, hit.start + 1)
    if match is not None and match[1] > hit.end:
        return _Hit(*match)
    return hit


def _covered(hits: list[_Hit]) -> set[int]:
    return {i for h in hits for i in range(h.start, h.end)}


def _with_everyday_names(text: str, directory: StationDirectory, hits: list[_Hit]) -> list[_Hit]:
    """`hits` with the everyday names (`PLACE_NAMES`) found: a longer everyday name wins over
    a directory name inside it (苏州工业园区 is the station 苏州园区, not the city 苏州)."""
    taken: set[int] = set()
    for name in sorted(PLACE_NAMES, key=len, reverse=True):
        means = PLACE_NAMES[name]
        if means not in directory.cities() and directory.by_name(means) is None:
            continue
        city = directory.by_name(means)
        home = means if means in directory.cities() else (city.city if city else means)
        for m in re.finditer(re.escape(name), text):
            span = set(range(m.start(), m.end()))
            if taken & span or not _said_as_place(text, m.start(), name):
                continue
            # 北京西城, 杭州西湖区: the city then its district, not the station 北京西 and a
            # stray 城 (a station of that city crossing the everyday name said after the city).
            crossing = [h for h in hits if _city_then_district(text, h, m.span(), home)]
            if crossing:
                hits = [h for h in hits if h not in crossing]
                hits.append(_Hit(m.start() - len(home), m.start(), home))
            if any(h.end == m.start() and _city(h, directory) != home for h in hits):
                taken |= span  # 沈阳故宫, 温州鹿城: the place said before it has one so called
                continue
            inside = [h for h in hits if set(range(h.start, h.end)) <= span]
            if any(set(range(h.start, h.end)) & span for h in hits if h not in inside):
                continue  # a directory name crossing it: the directory's reading stands
            hits = [h for h in hits if h not in inside]
            found = _Hit(m.start(), m.end(), means)
            before = next((h for h in hits if h.end == m.start() and h.name == home), None)
            if before is not None:
                # 北京海淀, 天津滨海新区: the city and its district are one place.
                hits.remove(before)
                found = _Hit(before.start, m.end(), means)
            hits.append(found)
            taken |= span
    return hits


# Sights seen in many places but travelled to in one (大熊猫: 成都): that city only when the
# text names no other place to go to (去北京动物园看大熊猫 goes to 北京).
_SIGHTS = frozenset(row["name"] for row in _PLACE_ROWS if row["kind"] == "sight")
_GOING_TO = re.compile(r"(?:去|到|往|前往)$")


def _without_sights_elsewhere(text: str, hits: list[_Hit]) -> list[_Hit]:
    """`hits` less the sights (`_SIGHTS`) when another place is said as where to go."""
    sights = [h for h in hits if text[h.start : h.end] in _SIGHTS]
    going = [h for h in hits if h not in sights and _GOING_TO.search(text[: h.start])]
    return [h for h in hits if h not in sights] if sights and going else hits


# Schools by their short names (延大): the city they are in, and the school's own name to say
# back (the same short name may be another school's: 延安大学 is called 延大 too).
SCHOOL_NAMES: dict[str, tuple[str, str]] = {
    row["name"]: (row["means"], row["note"])
    for row in _PLACE_ROWS
    if row["kind"] in ("school", "school_word")
}
# Short names that are everyday words too (重大: major, 有重大变化): a school only where a
# place is said, right after a route cue (去重大, 从重大).
_SCHOOL_WORDS = frozenset(row["name"] for row in _PLACE_ROWS if row["kind"] == "school_word")


def _said_as_place(text: str, start: int, name: str) -> bool:
    """False for a school's short name that is an everyday word not led by a route cue."""
    return name not in _SCHOOL_WORDS or (start > 0 and text[start - 1] in _ROUTE_CUES)


def school_names(text: str) -> list[tuple[str, str, str]]:
    """(typed, school, city) for each school's short name in `text` (延大放假: 延大, 延边大学,
    延吉)."""
    found = [
        name
        for name in SCHOOL_NAMES
        if any(_said_as_place(text, m.start(), name) for m in re.finditer(re.escape(name), text))
    ]
    # A short name inside a longer one said (北大 in 东北大学) is that one's, not a school.
    found = [n for n in found if not any(n != m and n in m for m in found)]
    return [(name, SCHOOL_NAMES[name][1], SCHOOL_NAMES[name][0]) for name in found]


def former_names(text: str) -> list[tuple[str, str]]:
    """(typed, current name) for each former city name in `text` (从襄樊去宜昌: 襄樊, 襄阳)."""
    return [(name, means) for name, means in FORMER_NAMES.items() if name in text]


def _city_then_district(text: str, hit: _Hit, span: tuple[int, int], home: str) -> bool:
    """True when `hit` is a station of `home` that starts with the city's name said right
    before the everyday name at `span` and ends inside it (北京西 in 北京西城)."""
    at, end = span
    return (
        hit.start == at - len(home)
        and text[hit.start : at] == home
        and at < hit.end < end
        and hit.name.startswith(home)
    )


def _heard_longer(text: str, directory: StationDirectory, hit: _Hit) -> _Hit:
    """A name found inside a longer one typed by its sound (娥眉山: 眉山 inside, 峨眉山 meant)
    is the longer one: the character before it, sounding like the longer name's first, is
    no other word's."""
    if hit.start == 0 or not "\u4e00" <= text[hit.start - 1] <= "\u9fff":
        return hit
    if text[hit.start - 1] in _NOT_HEARD_START or text[hit.start - 2 : hit.start] in _TIME_WORDS:
        return hit
    heard = directory.heard_as(text[hit.start - 1 : hit.end])
    if heard is None or directory.by_name(heard) is None:
        return hit
    return _Hit(hit.start - 1, hit.end, heard)


def _stations_of_cities_by_sound(
    text: str, directory: StationDirectory, hits: list[_Hit]
) -> list[_Hit]:
    """`hits` with a city said, then a word typed by sound for one of its own stations or
    towns (上海红桥: 上海虹桥; 娄底新华: 新化), read as that station: the word reads exactly
    as the rest of the station's name and keeps one of its characters, and no other station
    of the city reads so."""
    covered = _covered(hits)
    out = []
    for hit in hits:
        found = None
        if hit.name in directory.cities():
            for end in (hit.end + 2, hit.end + 3):
                word = text[hit.end : end]
                if len(word) < end - hit.end or covered & set(range(hit.end, end)):
                    continue
                if not _CJK_RUN.fullmatch(word):
                    continue
                said = readings(word)[:1]
                fits = {
                    station.name
                    for station in directory.in_city(hit.name)
                    for rest in (station.name.removeprefix(hit.name),)
                    if rest != word and set(rest) & set(word) and readings(rest)[:1] == said
                }
                if len(fits) == 1:
                    found = _Hit(hit.start, end, fits.pop())
        out.append(found or hit)
    return out


def _heard_hits(text: str, directory: StationDirectory, hits: list[_Hit]) -> list[_Hit]:
    """Names typed by sound (郑洲到洛阳, 去深证出差, 无憾): where a place is expected, a word
    that sounds like exactly one likely place (`TextSearch.heard_as`) stands for it."""
    heard = heard_places(text, directory, _covered(hits))
    return [_Hit(start, end, name) for start, end, _, name in heard]


def heard_places(
    text: str, directory: StationDirectory, covered: set[int] | None = None
) -> list[tuple[int, int, str, str]]:
    """(start, end, typed, heard) for each place in `text` typed by its sound."""
    longer: list[tuple[int, int, str, str]] = []
    if covered is None:
        scanned = list(_name_scanner(tuple(directory.names())).finditer(text))
        for start, end, name in scanned:
            hit = _heard_longer(text, directory, _Hit(start, end, name))
            if hit.name != name:
                longer.append((hit.start, hit.end, text[hit.start : hit.end], hit.name))
        covered = {i for start, end, _ in scanned for i in range(start, end)}
        covered |= {
            i
            for nickname in PLACE_NAMES
            for m in re.finditer(re.escape(nickname), text)
            for i in range(m.start(), m.end())
        }
    found = []
    for run in _CJK_RUN.finditer(text):
        i = run.start()
        while i < run.end() - 1:
            match = _heard_at(text, directory, covered, i, run.end())
            if match is None:
                i += 1
                continue
            end, name = match
            found.append((i, end, text[i:end], name))
            i = end
    return sorted(found + longer)


@cache
def _landmarks_by_sound() -> dict[tuple[int, str], tuple[str, ...]]:
    """The landmarks and scenic areas of three characters or more by (length, usual reading)."""
    index: dict[tuple[int, str], list[str]] = {}
    for row in _PLACE_ROWS:
        name = row["name"]
        if row["kind"] in ("landmark", "sight") and len(name) >= 3 and (said := readings(name)):
            index.setdefault((len(name), said[0]), []).append(name)
    return {key: tuple(names) for key, names in index.items()}


def landmark_by_sound(word: str) -> str | None:
    """The landmark `word` is typed by sound for (兵马涌: 兵马俑): it reads exactly as one, of
    three characters or more, and differs from it in one character only."""
    said = readings(word)[:1]
    if not said:
        return None
    names = _landmarks_by_sound().get((len(word), said[0]), ())
    near = [name for name in names if sum(a != b for a, b in zip(name, word, strict=True)) == 1]
    return near[0] if len(near) == 1 else None


def _heard_at(
    text: str, directory: StationDirectory, covered: set[int], i: int, last: int
) -> tuple[int, str] | None:
    cue_before = i > 0 and text[i - 1] in _HEARD_BEFORE
    for n in _HEARD_LENGTHS:
        end = i + n
        if end > last or covered & set(range(i, end)):
            continue
        cue_after = text[end:].startswith(_HEARD_AFTER)
        # 去看兵马涌: a landmark misheard is a sight one goes to see, wherever it stands.
        if n >= 3 and (landmark := landmark_by_sound(text[i:end])) is not None:
            return end, PLACE_NAMES[landmark]
        if not (cue_before or cue_after):
            continue
        if text[i] in _NOT_HEARD_START or text[end - 1] in _NOT_HEARD_END:
            continue
        if _COUNT_WORD.match(text, i):
            continue
        if i > 0 and text[i - 1 : i + 1] in _EVERYDAY_WORDS:
            continue  # 全程都坐二等座: 程 ends 全程, and 程都 is no 成都
        # After 从, 去, 到, 回, 往 a homophone of a major city is taken too (去无憾: 武汉), and
        # said back to the traveller like every name heard by sound.
        routed = cue_before and text[i - 1] in _ROUTE_CUES
        # 武汉到一常的高铁, 从桂林去杨朔玩: a place named right before the cue and the word said
        # whole (a pause or a cue after it, not 去一场演唱会), it is the route's other end.
        paired = (
            i >= 2
            and text[i - 1] in _PAIR_CUES
            and (i - 2) in covered
            and (
                end == len(text) or not _CJK_RUN.match(text[end]) or cue_after or text[end] == "的"
            )
        )
        name = directory.heard_as(text[i:end], routed=routed, paired=paired)
        if name is not None:
            return end, name
    return None


def _before(text: str, hit: _Hit) -> str:
    return text[max(0, hit.start - 8) : hit.start].rstrip().lower()


def _after(text: str, hit: _Hit) -> str:
    # "北京南站到天津站": the 站 after a station name belongs to it.
    return text[hit.end : hit.end + 8].lstrip().removeprefix("站").lstrip().lower()


# A place said as already been to (去过丽江, 去年去了桂林, 上次去的厦门, 丽江去过了) is no stop of
# this trip; never gone to (没去过丽江) is a wish, and stays.
_BEEN_BEFORE = re.compile(r"(?<![没未])(?:去过|到过|玩过|来过|逛过)(?:了)?$")
_WENT_BEFORE = re.compile(r"(?:去了|到了|玩了|去的|到的|玩的)$")
_PAST = re.compile(r"去年|前年|上次|上回|之前|以前|上个月|上周|那年|小时候|早就|已经")
_BEEN_AFTER = re.compile(
    r"^(?:我们|我|俺|咱)?(?:已经|早就|都|也)?(?:去过|玩过|到过|来过)(?!吗|没|不)"
)
_CLAUSE_END = re.compile(r"[，。,.；;！!？?\s]")


# A place denied (不是苏州市区，是回昆山; 丽江不去了 改去大理) is no place of the trip: the one
# said instead is.
_DENIED_BEFORE = re.compile(r"(?:不是|并非)(?:从|去|回|到|在)?$")
_DENIED_AFTER = re.compile(r"^(?:就|也|先)?(?:不去了|不去|不回了|去不了|不用去)")
# A place said with why it is given up, then another gone to instead (峨眉山上太冷了 改去重庆;
# 丽江太晒，换成去大理): the one given up is no end of the trip.
_GIVEN_UP_AFTER = re.compile(
    r"^[^，,。从到去回走出\s]{1,8}[，,\s]+(?:那|那就|还是|干脆)?(?:改去|换去|改成去|换成去|改到|改成到)"
)


def _been_there(text: str, hit: _Hit) -> bool:
    """True when `hit` is a place said as visited before, or denied, not one to go to."""
    before = _before(text, hit)
    if _DENIED_BEFORE.search(before) or _DENIED_AFTER.match(_after(text, hit)):
        return True
    if not before.endswith((*_ORIGIN_BEFORE, *_STOP_BEFORE)) and _GIVEN_UP_AFTER.match(
        text[hit.end : hit.end + 16]
    ):
        return True
    if _BEEN_BEFORE.search(before) or _BEEN_AFTER.match(_after(text, hit)):
        return True
    clause = _CLAUSE_END.split(text[max(0, hit.start - 12) : hit.start])[-1]
    return bool(_WENT_BEFORE.search(before) and _PAST.search(clause))


_DETACHED = re.compile(r"(?P<cue>回来|回)[\s，,]+$")


def _detached_cue(text: str, hit: _Hit) -> str | None:
    """The 回 or 回来 that ends the phrase before `hit`, set apart from it by a space or a
    comma (周日回 武汉到长沙, 2号回来 北京): a time phrase's verb, not a cue of the name."""
    match = _DETACHED.search(text[max(0, hit.start - 6) : hit.start])
    return match.group("cue") if match else None


def _said_alone(text: str, hit: _Hit) -> bool:
    """True when nothing but the end or a pause follows `hit` (…2号回来 北京)."""
    rest = text[hit.end :].removeprefix("站")
    return not rest or _CLAUSE_END.match(rest) is not None


def _assign_roles(text: str, hits: list[_Hit], directory: StationDirectory) -> None:
    for i, hit in enumerate(hits):
        before, after = _before(text, hit), _after(text, hit)
        told = _prefecture_told(text, hit, directory)
        if told is not None:
            # 回湖南邵阳隆回 坐到隆回那个站: the cue said before the province and prefecture
            # that tell which town is meant is the town's (回), and the 到 after it starts
            # another phrase: no ride sets off from it.
            before = told
            if before.endswith(_RETURN_BEFORE) or before.endswith(_STOP_BEFORE):
                hit.returning = before.endswith(_RETURN_BEFORE)
                hit.role = "stop"
                continue
        detached = _detached_cue(text, hit)
        if detached == "回" and after.startswith(_PAIR_AFTER) and i + 1 < len(hits):
            # 周五去周日回 武汉到长沙: 回 ends the day it is said with; A到B is the route.
            hit.role = "origin"
            continue
        if detached == "回来" and _said_alone(text, hit) and i > 0:
            # 1月1号去哈尔滨 2号回来 北京: come back to the place said alone, home.
            hit.returning = True
            continue
        if before.endswith(_RETURN_BEFORE):
            hit.returning = True
        elif _BACK_BY_BEFORE.search(before) and any(
            h.role == "origin" and _city(h, directory) == _city(hit, directory) for h in hits[:i]
        ):
            hit.returning = True  # 周日晚上回 11点前得到杭州, from 杭州: back home by then
        if before.endswith(_THROUGH_BEFORE):
            hit.through = True
        if _flight_leaves_from(text, hit):
            hit.role = "stop"  # 十点的飞机，从大兴机场走: the airport is where the train goes
        elif before.endswith(_ORIGIN_BEFORE):
            hit.role = "origin"
        elif before.endswith(LANDED_BEFORE) or after.startswith(_LANDED_AFTER):
            hit.role = "origin"
        elif _set_off_after_a_deadline(text, hits, i) or _set_off_after_a_pause(text, hit):
            hit.role = "origin"
        elif before.endswith(_STOP_BEFORE) and not before.endswith(_NOT_STOP_BEFORE):
            hit.role = "stop"
        elif after.startswith(_ORIGIN_AFTER) or _BOARDS_A_TRAIN.match(after):
            hit.role = "origin"
        elif after.startswith(_PAIR_AFTER) and (
            i + 1 < len(hits) or _names_free_place(after, hit.role, directory)
        ):
            # 上海到乌镇: the place after the cue has no station, the sentence's direction stays;
            # 昆明到河口 too (河口 is 河口北 or 河口南: no name of its own, asked or settled later).
            hit.role = "origin"


_BOARDS_A_TRAIN = re.compile(r"(?:站)?上\s*(?:[GDCZTKgdcztk]\s*\d|□)")
"""北京南上G7: the train boarded there, the place the ride starts from."""


_PROVINCE = re.compile(
    r"(?:河北|山西|辽宁|吉林|黑龙江|江苏|浙江|安徽|福建|江西|山东|河南|湖北|湖南|广东|海南|四川"
    r"|贵州|云南|陕西|甘肃|青海|台湾|内蒙古?|广西|西藏|宁夏|新疆)(?:省|自治区)?$"
)


def _prefecture_told(text: str, hit: _Hit, directory: StationDirectory) -> str | None:
    """What is said before the province and prefecture right before a town (回湖南邵阳隆回:
    "回"), when its prefecture is said to tell which town is meant; None otherwise."""
    station = directory.by_name(hit.name)
    if station is None or hit.name in directory.cities() or station.city == hit.name:
        return None
    lead = text[: hit.start]
    if not lead.endswith(station.city):
        return None
    lead = _PROVINCE.sub("", lead[: -len(station.city)])
    return lead[-8:].rstrip().lower()


_FLIGHT_CLAUSE = re.compile(r"(?:飞机|航班)[^，,。；;]{0,3}[，,\s]*(?:是|要)?(?:从|在)$")
_FLIGHT_OFF = re.compile(r"(?:机场)?(?:走|起飞|飞|出发|登机)")


def _flight_leaves_from(text: str, hit: _Hit) -> bool:
    """True when `hit` is the airport a flight said just before leaves from (十点的飞机，从大兴
    机场走, 航班在浦东起飞): the train takes the traveller there, it does not start there."""
    return (
        _FLIGHT_CLAUSE.search(text[max(0, hit.start - 10) : hit.start]) is not None
        and _FLIGHT_OFF.match(text, hit.end) is not None
    )


_SET_OFF_AFTER = ("出发", "上车", "始发", "动身", "启程")
_DEADLINE_TO = re.compile(r"(?:前|之前|以前|点|□)\s*(?:得|要|能|必须|就)?\s*到$")


def _set_off_after_a_deadline(text: str, hits: list[_Hit], i: int) -> bool:
    """True when the place is set off from (北京南出发) right after the 到 of an arrival time
    (下午三点前得到 北京南出发): that 到 ends the deadline, it sends no one to the place."""
    hit = hits[i]
    if not _after(text, hit).startswith(_SET_OFF_AFTER):
        return False
    if i > 0 and hits[i - 1].end >= hit.start - 2:
        return False  # 上海到北京出发: a route said outright
    return _DEADLINE_TO.search(_before(text, hit)) is not None


_PAUSED_CUE = re.compile(r"(?:去|到|回|往)[\s，,]+$")


def _set_off_after_a_pause(text: str, hit: _Hit) -> bool:
    """True when the place is set off from (太原出发) and the 去 before it ends the phrase
    before, set apart by a pause (平遥古城 周六去 太原出发: go to 平遥古城 on Saturday)."""
    if not _after(text, hit).startswith(_SET_OFF_AFTER):
        return False
    return _PAUSED_CUE.search(text[max(0, hit.start - 4) : hit.start]) is not None


def _names_free_place(after: str, role: str | None, directory: StationDirectory) -> bool:
    """True when `after` (what follows a place) is a cue then a known place without a station,
    or a town only named with its stations' directions (河口: 河口北, 河口南)."""
    if role is not None:
        return False
    rest = after[next(len(c) for c in _PAIR_AFTER if after.startswith(c)) :].lstrip()
    # `after` is cut short: a long name (张家界国家森林公园) may run past its end.
    if any(rest.startswith(place) or place.startswith(rest) for place in NON_STATION_PLACES):
        return True
    return any(len(directory.directed(rest[:n])) > 1 for n in (2, 3) if len(rest) >= n)


def _one_per_city(text: str, stops: list[_Hit], directory: StationDirectory) -> list[_Hit]:
    """A city then its station ("石家庄到北京 … 九点之前要到北京西"), or a station then a stay
    in its city ("到广州南 … 在广州有个会"), is one stop: the station. ("不是西安北，是西安站"
    names two, for the chat to read.)"""
    kept: list[_Hit] = []
    for stop in stops:
        last = kept[-1] if kept else None
        if last is None or stop.returning or _city(last, directory) != _city(stop, directory):
            kept.append(stop)
        elif last.name in directory.cities() and stop.name not in directory.cities():
            kept[-1] = stop
        elif stop.name == last.name:
            continue  # named again, only mentioned: 去西安玩…查下西安天气, 回深圳…十点前到深圳
        elif not _before(text, stop).endswith(_STAY_BEFORE):
            kept.append(stop)
    return kept


def _city(hit: _Hit, directory: StationDirectory) -> str:
    if hit.name in directory.cities():
        return hit.name
    station = directory.by_name(hit.name)
    return station.city if station is not None else hit.name


_BOARDED_FOR = re.compile(
    r"^\s*(?:站)?(?:的)?(?:最早|最晚|最快|最便宜|首班|末班|头班|第一班|最后一班|早点|晚点"
    r"|的车|的票|的高铁|的动车|的火车|那班|那趟|这班|始发|上车|坐车)"
)


def _boarding_after(text: str, hits: list[_Hit], directory: StationDirectory) -> _Hit | None:
    """The last place when it has no cue, follows a destination said with one, and is said
    with the train boarded there ("去广州，长沙南最早的一班"); None otherwise."""
    if len(hits) < 2:
        return None
    last = hits[-1]
    earlier = [h for h in hits[:-1] if h.role == "stop" and not h.returning]
    if last.role is not None or last.returning or not earlier:
        return None
    if any(_city(h, directory) == _city(last, directory) for h in earlier):
        return None
    return last if _BOARDED_FOR.match(text[last.end : last.end + 8]) else None


def _staying_then_home(text: str, hits: list[_Hit], directory: StationDirectory) -> _Hit | None:
    """The first place when it is said with 在 (where one will be: 在天津开完会) and every
    other place is one gone back to (回北京); None otherwise, or when no place was gone to."""
    if len(hits) < 2 or not _before(text, hits[0]).endswith(_STAY_BEFORE):
        return None
    first, rest = hits[0], hits[1:]
    if first.role is not None or first.returning:
        return None
    if not all(h.returning and _city(h, directory) != _city(first, directory) for h in rest):
        return None
    return first


def _leads(text: str, hits: list[_Hit]) -> bool:
    """True when the first place has no role and the second one is the stop after it."""
    first, second = hits[0], hits[1]
    if first.role is not None or first.name == second.name or second.role != "stop":
        return False
    return not _before(text, first).endswith(_STAY_BEFORE) and not second.returning


def _stay_after(
    text: str, hit: _Hit, limit: int, *, errand: bool = False
) -> tuple[int | None, tuple[int, int] | None]:
    """The stay said after a place, up to `limit`; `errand`: the place has another after it,
    and its stay may follow what one does there (`_STAY_AFTER_ERRAND`)."""
    segment = text[hit.end : limit]
    # 去大理 在大理住两晚: the place said again before its stay.
    again = re.match(r"[\s，,]*(?:先)?在" + re.escape(hit.name), segment)
    skip = again.end() if again else 0
    match = (_STAY_AFTER_ERRAND if errand else _STAY).match(segment[skip:])
    if not match:
        return None, None
    group = "n" if match.group("n") else "n2"
    at = hit.end + skip
    count = to_int(match.group(group))
    if (
        count
        and match.group("unit") in ("天", "日")
        and _LEFT_THAT_EVENING.match(segment[skip + match.end() :])
    ):
        count -= 1  # 成都玩一天，晚上再去乐山: the days there end with that evening's ride
    return count, (at + match.start(group), at + match.end())


# After a stay in days, the ride on that evening (，晚上再去乐山 / 傍晚去): no night at the stop.
_LEFT_THAT_EVENING = re.compile(
    r"^[\s，,]*(?:然后|之后)?(?:当天)?(?:晚上|傍晚|当晚)(?:就|再)?(?:去|到|坐车去)"
)


def extract_route(text: str, directory: StationDirectory) -> Route:
    """Origin, destination, via stops and non-station places named in `text`."""
    hits = _scan(text, directory)
    route = Route(spans=[(h.start, h.end) for h in hits])
    hits = [h for h in hits if not _been_there(text, h)]
    alternatives = [h for h in hits if _said_as_alternative(text, h)]
    # Only beside a destination said otherwise: 合肥出发，到南京南或者南京站都行 has no other.
    others = [h for h in hits if h not in alternatives]
    if alternatives and alternatives[0] is not hits[0] and len(others) >= 2:
        # 没直达固始的话到信阳也行: 信阳 will do instead of 固始, it is no stop after it.
        route.alternatives = list(dict.fromkeys(h.name for h in alternatives))
        hits = [h for h in hits if h not in alternatives]
    ends = [h for h in hits if _said_as_train_end(text, h)]
    if len(ends) == 1:
        # 回毕节 从义乌走 到贵阳就行我再坐班车回去: the train ends at 贵阳; 毕节, said before it
        # as where one goes, is reached by road and is no stop of the train.
        end = ends[0]
        road = _TRAIN_END_AFTER.match(text[end.end :])
        road_end = end.end + (road.end() if road else 0)
        hits = [
            h
            for h in hits
            if h is end
            or (h.start > end.start and h.start >= road_end)  # 坐大巴 is the road, no place
            or (h.start < end.start and not _before(text, h).endswith(("回", "去", "到")))
        ]
        end.returning = False
    _assign_roles(text, hits, directory)
    origin_hit = next((h for h in hits if h.role == "origin"), None)
    home_hit = _home_from_there(hits, origin_hit, directory)
    if home_hit is not None and origin_hit is not None:
        # 下周二去长沙出差…周四从长沙回武汉: the ride home is from the place gone to; home,
        # where it goes, is the origin of a round trip.
        hits = [h for h in hits if h is not origin_hit]
        origin_hit, home_hit.returning = home_hit, True
        route.return_trip = True
    stops = [h for h in hits if h is not origin_hit]
    here = next(
        (
            h
            for h in hits
            if _before(text, h).endswith(_HERE_BEFORE)
            or _HERE_AFTER.match(text, h.end)
            or (_before(text, h).endswith("在") and _WORKS_AFTER.match(text, h.end))
        ),
        None,
    )
    elsewhere = here is not None and any(
        _city(h, directory) != _city(here, directory) for h in hits
    )
    if (
        origin_hit is not None
        and here is not None
        and here is not origin_hit
        and _city(here, directory) == _city(origin_hit, directory)
    ):
        # 从深圳回广州，公司在福田: where one is in the city set off from is no stop.
        hits = [h for h in hits if h is not here]
        stops = [h for h in stops if h is not here]
    elif origin_hit is None and here is not None and elsewhere:
        # "我在北京读研，下周六回天津", "…明天上午十点前必须到昆明，人在北京".
        origin_hit = here
        stops = [h for h in stops if h is not here]
        if stops and stops[-1].returning and _city(stops[-1], directory) != _city(here, directory):
            route.return_trip = False  # …开完会回上海: the ride home is the trip, no return
        for hit in hits:
            if _city(hit, directory) != _city(here, directory):
                hit.returning = False  # 回天津 from where one is: going home, one way
    elif origin_hit is None and (boarding := _boarding_after(text, hits, directory)):
        # "后天去广州，长沙南最早的一班": the place said after the destination, with the train
        # it is boarded for, is where the trip starts.
        origin_hit = boarding
        stops = [h for h in stops if h is not boarding]
    elif origin_hit is None and (staying := _staying_then_home(text, hits, directory)):
        # "明天在天津开完会要回北京": where one is (在天津…) and then goes home from is the
        # origin of a one-way ride, not a stop of a round trip from home.
        origin_hit = staying
        stops = [h for h in stops if h is not staying]
        for hit in hits:
            hit.returning = False
        route.return_trip = False
    elif origin_hit is None and len(stops) > 1 and stops[-1].returning:
        # "去上海出差，后天回北京": home is where one returns to.
        origin_hit = stops[-1]
    elif origin_hit is None and len(stops) == 1 and _free_place_before(text, stops[0], directory):
        # "周六去乌镇逛一天，晚上回上海": home is where one returns to from a place without
        # a station, the trip's destination.
        origin_hit = stops[0]
    elif origin_hit is None and _round_pair(text, hits, directory):
        # "周三当天往返北京天津": two places said as a pair with 往返, no 从 or 到: the first is
        # home, the second the place gone to and back from.
        origin_hit = hits[0]
        stops = [hits[1]]
        route.return_trip = True
    elif origin_hit is None and len(hits) > 1 and _leads(text, hits):
        # "我爸妈住桐乡 想去上海玩", "北京有直达敦煌的火车吗": a place named before the
        # destination, with no cue of its own, is where the trip starts.
        origin_hit = hits[0]
    if origin_hit is not None:
        route.origin = origin_hit.name
        if origin_hit is here and _NEAR_AFTER.match(text, origin_hit.end):
            # 俺住沈阳北站那边: one lives near that station, and boards at any of the city's.
            route.origin = _city(origin_hit, directory)
        city = directory.by_name(origin_hit.name)
        home = {origin_hit.name, city.city if city else origin_hit.name}
        if (
            stops
            and stops[-1].returning
            and stops[-1].name in home
            and (len(stops) > 1 or _free_place_before(text, stops[-1], directory))
        ):
            # 从上海去乌镇…当天晚上再回上海: back home from the place gone to, station or not.
            route.return_trip = True
            stops = stops[:-1]
        elif stops and stops[-1] is origin_hit:
            route.return_trip = True
            stops = stops[:-1]
        stops = [s for s in stops if s is not origin_hit]
        boarded = (
            [
                s
                for s in stops
                if s.role in (None, "origin")
                and not s.returning
                and s.name not in directory.cities()
                and _city(s, directory) == origin_hit.name
            ]
            if origin_hit.name in directory.cities()
            else []
        )
        if boarded and len(stops) > len(boarded):
            # 从北京回天津…北京南七点半以后的车都赶得上, 从北京去上海，北京南出发: a station of
            # the city set off from, said with no cue or as set off from, is where one boards.
            route.origin = boarded[0].name
            stops = [s for s in stops if s not in boarded]
        if (
            len(stops) > 1
            and _before(text, stops[0]).endswith(_STAY_BEFORE)
            and _city(stops[0], directory) == _city(origin_hit, directory)
            and not _STAY.match(text[stops[0].end :])
        ):
            # 周五在北京开会，然后去上海，周日回北京: 北京 is home, no stop (先在北京玩一天 is
            # a stay there first).
            stops = stops[1:]
    stops, said_again = _stays_said_again(text, stops, hits, directory)
    stops = _one_per_city(text, stops, directory)
    # Per-stop stays only when a stop before the last one has its own ("先去西安住两晚").
    stays = [
        _stay_after(text, s, stops[i + 1].start, errand=True)
        if i + 1 < len(stops)
        else _stay_after(text, s, len(text))
        for i, s in enumerate(stops)
    ]
    stays = [
        said_again.get(id(s), stay) if stay[0] is None else stay
        for s, stay in zip(stops, stays, strict=True)
    ]
    stops, stays = _on_the_way_first(text, stops, stays)
    per_stop = len(stops) > 1 and any(n is not None for n, _ in stays[:-1])
    if stops:
        route.destination = stops[-1].name
        route.via = [
            # Passing through (经郑州) is no night there, said as such.
            ViaStop(
                city=s.name,
                nights=stays[i][0] if per_stop else (0 if s.through else None),
                through=s.through,
            )
            for i, s in enumerate(stops[:-1])
        ]
        first = stops[0]
        if route.origin is None and len(stops) > 1 and _before(text, first).endswith(_STAY_BEFORE):
            # "明天先在广州玩一天，然后去深圳": the trip starts where the first stay is.
            route.origin = first.name
        if per_stop:
            route.final_nights = stays[-1][0]
            route.spans += [span for _, span in stays if span is not None]
    else:
        route.destination_text = _free_place(text, directory)
    return route


_ROUND_BEFORE = re.compile(r"(?:往返|来回)(?:于|在)?\s*$")
_ROUND_AFTER = re.compile(r"^\s*(?:之间)?\s*(?:当天|一日|一天)?\s*(?:往返|来回)")
_PAIR_JOIN = re.compile(r"^\s*(?:和|与|跟|、|-|—|/)?\s*$")


def _round_pair(text: str, hits: list[_Hit], directory: StationDirectory) -> bool:
    """Two places said side by side as a round trip (往返北京天津, 北京和天津当天来回), and
    any place said after them one of the two (在天津待6个小时)."""
    if len(hits) < 2 or not _PAIR_JOIN.match(text[hits[0].end : hits[1].start]):
        return False
    pair = {_city(hits[0], directory), _city(hits[1], directory)}
    if len(pair) < 2 or any(_city(h, directory) not in pair for h in hits[2:]):
        return False
    return bool(
        _ROUND_BEFORE.search(text[: hits[0].start]) or _ROUND_AFTER.match(text[hits[1].end :])
    )


def _home_from_there(
    hits: list[_Hit], origin_hit: _Hit | None, directory: StationDirectory
) -> _Hit | None:
    """The place gone home to when the place set off from (从长沙回武汉) is one said earlier as
    where the trip goes (去长沙出差): the last place named, going home to it; None otherwise."""
    if origin_hit is None or hits[-1] is origin_hit or not hits[-1].returning:
        return None
    home = hits[-1]
    earlier = [h for h in hits if h.start < origin_hit.start]
    later = [h for h in hits if h.start > origin_hit.start]
    there = _city(origin_hit, directory)
    if later != [home] or _city(home, directory) == there:
        return None
    return home if any(_city(h, directory) == there for h in earlier) else None


def _stays_said_again(
    text: str, stops: list[_Hit], hits: list[_Hit], directory: StationDirectory
) -> tuple[list[_Hit], dict[int, tuple[int | None, tuple[int, int] | None]]]:
    """`stops` without a stop said again later with 在 and no cue of its own (西宁到格尔木
    再到拉萨 … 中间在格尔木住一晚), and the stay said there, keyed by the stop it restates."""
    kept: list[_Hit] = []
    stays: dict[int, tuple[int | None, tuple[int, int] | None]] = {}
    for stop in stops:
        earlier = next((k for k in kept if _city(k, directory) == _city(stop, directory)), None)
        if (
            earlier is None
            or earlier is (kept[-1] if kept else None)
            or stop.role is not None
            or not _before(text, stop).endswith(_STAY_BEFORE)
        ):
            kept.append(stop)
            continue
        later = [h.start for h in hits if h.start > stop.start]
        stays[id(earlier)] = _stay_after(text, stop, later[0] if later else len(text))
    return kept, stays


_ON_THE_WAY = re.compile(r"(?:路上|中途|途中|中间|半路|半道|顺路|顺道)[^，。,.；;！!？?]{0,4}$")


def _on_the_way_first(
    text: str, stops: list[_Hit], stays: list[tuple[int | None, tuple[int, int] | None]]
) -> tuple[list[_Hit], list[tuple[int | None, tuple[int, int] | None]]]:
    """`stops` (and their stays) with those said to be on the way (去哈尔滨，路上在沈阳住一晚;
    中途在南京待一天; 路过济南) put before the destination, wherever they were said."""
    on_way = [i for i, s in enumerate(stops) if s.through or _ON_THE_WAY.search(_before(text, s))]
    main = [i for i in range(len(stops)) if i not in on_way]
    if not on_way or not main or on_way[-1] < main[-1]:
        return stops, stays
    order = [*main[:-1], *on_way, main[-1]]
    return [stops[i] for i in order], [stays[i] for i in order]


def _free_place(text: str, directory: StationDirectory) -> str | None:
    for place in sorted(NON_STATION_PLACES, key=len, reverse=True):
        if place in text:
            return place
    for match in _FREE_PLACE.finditer(text):
        place = match.group("place")
        if not any(word in place for word in _QUESTION_WORDS):
            return place
    return None


# A place that will do instead of the one asked: (没直达X的话)到Y也行, 到不了X就到Y,
# X没有的话就去Y, X不行就Y.
_INSTEAD_AFTER = re.compile(r"^(?:站)?(?:也行|也可以|也成|也没问题|也好|都行)")
_INSTEAD_BEFORE = re.compile(
    r"(?:(?:到不了|去不了|回不了|没直达|没有直达|没车到|没车去)[^，。,.；;\s]{1,6}?|的话|没有|没车|没票|不行|不通)"
    r"[，,\s]*(?:那|那就)?(?:就)?(?:先)?(?:到|去|回)?$"
)
_ALTERNATIVE_TO = re.compile(r"(?:到|去|回)$")


def _said_as_alternative(text: str, hit: _Hit) -> bool:
    """True when `hit` is said as a place that will do instead of another (到信阳也行 after a
    destination, 到不了固始就到信阳), not a stop of the trip."""
    before = text[max(0, hit.start - 10) : hit.start]
    if _INSTEAD_BEFORE.search(before):
        return True
    return bool(_ALTERNATIVE_TO.search(before) and _INSTEAD_AFTER.match(text[hit.end :]))


# The train's end named, the rest of the way by road: (坐)到贵阳就行，我再坐班车回去,
# 火车到遵义就可以 然后打车过去.
_TRAIN_END_BEFORE = re.compile(r"(?:坐|火车|车)?(?:到|至)$")
_TRAIN_END_AFTER = re.compile(
    r"^(?:站)?(?:就行|就可以|就好|就成)(?:了)?[，,\s]*(?:我|俺|然后|之后|剩下的?|后面)?"
    r"(?:我|俺)?(?:自己)?(?:再|就)?(?:坐|转|换|搭|打|包|开)?"
    r"(?:班车|汽车|大巴|客车|中巴|小巴|长途车|出租车?|的士|车|滴滴|网约车)"
    # …or a ride of another kind already set apart (masked by the offline parser).
    r"|^(?:站)?(?:就行|就可以|就好|就成)(?:了)?[，,\s]*□"
)


def _said_as_train_end(text: str, hit: _Hit) -> bool:
    """True when `hit` is named as where the train may end, the traveller going on by road."""
    before = text[max(0, hit.start - 3) : hit.start]
    return bool(_TRAIN_END_BEFORE.search(before) and _TRAIN_END_AFTER.match(text[hit.end :]))


def _free_place_before(text: str, hit: _Hit, directory: StationDirectory) -> str | None:
    """The place without a station said before `hit` (去乌镇逛一天…回上海), if any: never a
    place the directory knows (不是去无锡，是回常州 denies 无锡, it names no other place)."""
    place = _free_place(text[: hit.start], directory)
    if place is None or directory.by_name(place) is not None or place in directory.cities():
        return None
    return place


def nearest_stations(place: str, directory: StationDirectory) -> list[str]:
    """The served stations nearest a place without one, as the directory knows them."""
    return [
        name
        for name in NON_STATION_PLACES.get(place, ())
        if directory.by_name(name) is not None or name in directory.cities()
    ]


def gateway_for(place: str, directory: StationDirectory) -> str | None:
    """The nearest station of a place without one, if the directory has it."""
    return next(iter(nearest_stations(place, directory)), None)


_YES = re.compile(r"^(?:是的?|对的?|嗯+|没错|正确|好的?|yes|ok)(?:的|啊|呀|吧|呢)?$")
_NO = re.compile(r"^(?:不是|不对|错了|no)")
_ANSWER_NOISE = re.compile(r"[，。！？、,.!?\s~～]+")


def answer_to_suggestion(
    previous: TravelIntent, text: str, directory: StationDirectory
) -> TravelIntent | None:
    """The trip so far with the place it asked about filled, when `text` answers that question
    ("您是指武汉吗？" → "是武汉", "对", "不是，是无锡"); None when `text` is no such answer.

    Only a short answer counts (the place, a yes, or a no and another place): a turn that says
    more is a change to the trip, read by the chat merge. The rest of the trip is kept."""
    if not previous.suggested_places:
        return None
    said = _ANSWER_NOISE.sub("", text).lower()
    if not said or len(said) > 12:
        return None
    slot, suggestion = next(iter(previous.suggested_places.items()))
    if _YES.match(said):
        name = suggestion
    else:
        rest = _NO.sub("", said)
        rest = re.sub(r"^(?:那就|那|就|是|我说的|去|从|到)+", "", rest)
        rest = re.sub(r"(?:吧|啊|呀|的)$", "", rest)
        if not rest:
            return None
        try:
            name = directory.resolve(rest).name
        except UnknownStationError:
            return None
    update: dict[str, object] = {"suggested_places": {}}
    if slot in ("origin", "destination"):
        update[slot] = name
        if slot == "destination":
            update["destination_text"] = None
    else:
        return None
    filled = previous.model_copy(update=update)
    return filled.model_copy(update={"missing": missing_fields(filled)})
