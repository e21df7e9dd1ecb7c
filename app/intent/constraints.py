"""Hard constraints in free text: exclusions, seat-class categories, order preferences, and
the out-of-scope topics a sentence also mentions.

Negations are read first and their objects masked, so "不要卧铺" rules the sleepers out instead
of switching the sleeper preference on, and "不坐高铁" never becomes a wish for a G train.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from app.intent.lexicon import (
    FLIGHT_WORDS,
    HOSTEL_WORDS,
    LOCAL_RIDE_WORDS,
    LODGING_WORDS,
    MONEY_WORDS,
    SEAT_PERMITTED_AFTER,
    SEAT_PHRASES,
    SLEEPER_CATEGORY_PHRASES,
    SLEEPER_CLASS_PHRASES,
    TRAIN_TYPE_PHRASES,
    TRIP_SERVICE_WORDS,
    WEATHER_WORDS,
)
from app.intent.model import SLEEPER_SET, OrderPreference, ScopeTopic
from app.intent.wishes import said_of_return
from sources.models import TRAIN_TYPES, SeatClass

MASK = "□"

RIDE_LENGTH = (
    r"一宿|一整宿|一晚上?|一夜|一整夜|一整晚|一路|整晚|整夜|通宵|那么久|太久|太长时间|很久|长时间"
    # 唔想坐成晚硬座 (Cantonese 成晚, 成日: the whole night, the whole day).
    r"|成晚|成夜|成日"
    # 不想坐一天硬座了, 坐两天一夜的硬座: days aboard.
    r"|一整天|[一两二三]天(?:[一两二三]夜)?"
    r"|[\d一二两三四五六七八九十几]+多?个?多?(?:小时|钟头)"
)
"""How long a ride lasts, said before the seat it is spent in (坐不了一宿硬座): no stay."""

NEGATION_CUES = (
    "不要坐",
    "不想坐",
    "不想要",
    "不愿意坐",
    "不愿坐",
    "不考虑",
    "不接受",
    "不用坐",
    "不用",
    "不需要",
    "用不着",
    "没必要坐",
    "不乘坐",
    # What one is not allowed (公司规定不让坐G字头的, 报销不许坐一等座).
    "不让坐",
    "不许坐",
    "不准坐",
    "不能坐",
    "不要",
    "不坐",
    "不想",
    "不乘",
    "不选",
    "不买",
    "别坐",
    "坐不惯",
    "坐不了",
    "不习惯坐",
    "不喜欢坐",
    "受不了",
    # What the body cannot take, said before it: 熬不住一宿硬座, 扛不住通宵站票.
    "熬不住",
    "熬不了",
    "扛不住",
    "扛不了",
    "遭不住",
    "吃不消",
    "顶不住",
    "撑不住",
    "别买",
    "别给我们",
    "别给我",
    "别要",
    "别选",
    "别",
    "除了",
    "避开",
    "排除",
    "拒绝",
    "no ",
    "not ",
    "avoid ",
)
_NEGATION = re.compile("|".join(re.escape(c) for c in NEGATION_CUES), re.IGNORECASE)

ORDER_PHRASES: list[tuple[str, OrderPreference]] = [
    ("第一班", "earliest"),
    ("头一班", "earliest"),
    ("第一趟", "earliest"),
    ("最后一班", "latest"),
    ("最后那班", "latest"),
    ("最后一趟", "latest"),
    ("最早能到", "earliest_arrival"),
    ("最早能赶到", "earliest_arrival"),
    # 最快能到的那趟: the train that has the traveller there soonest, not the shortest ride
    # (it wins over 最快 at the same place: the order names sort earliest_arrival first).
    ("最快能到", "earliest_arrival"),
    ("最快能赶到", "earliest_arrival"),
    ("最快几点", "earliest_arrival"),
    ("最早一班", "earliest"),
    ("最早一趟", "earliest"),
    ("最早那趟", "earliest"),
    ("最早一列", "earliest"),
    ("最早的", "earliest"),
    ("最早那班", "earliest"),
    ("头班", "earliest"),
    ("首班", "earliest"),
    ("最晚一班", "latest"),
    ("最晚一趟", "latest"),
    ("最晚那趟", "latest"),
    ("最晚的", "latest"),
    ("最晚那班", "latest"),
    ("末班", "latest"),
    ("最便宜", "cheapest"),
    ("最省钱", "cheapest"),
    ("票价最低", "cheapest"),
    ("最实惠", "cheapest"),
    ("最快", "fastest"),
    ("用时最短", "fastest"),
    ("时间最短", "fastest"),
    ("耗时最短", "fastest"),
    ("earliest", "earliest"),
    ("latest", "latest"),
    ("cheapest", "cheapest"),
    ("fastest", "fastest"),
]
# 最早/最晚 alone, not a bound ("最晚8点到" is a time window, not an order).
_BARE_ORDER = re.compile(
    r"最(?P<w>早|晚|迟)(?!\s*(?:[0-9一二两三四五六七八九十□]|点|于|到|抵|要|得|在|能(?:赶)?到"
    r"|早上|上午|中午|下午|晚上|今晚|明晚|明早))"
)

SCOPE_WORDS: dict[ScopeTopic, tuple[str, ...]] = {
    "refund": (
        "退票",
        "退掉",
        "退了",
        "退款",
        "能退",
        "可以退",
        "退不退",
        "退一下",
        "退个票",
        "帮我退",
        "refund",
    ),
    "change": ("改签", "改个签", "改期", "换座", "票能改", "票改到", "票改成"),
    "hotel": LODGING_WORDS,
    "weather": WEATHER_WORDS,
    "other": (
        *FLIGHT_WORDS,
        *LOCAL_RIDE_WORDS,
        *TRIP_SERVICE_WORDS,
        "游记",
        "写一篇",
        "写篇",
        "作文",
        "文案",
        "写攻略",
        "餐厅",
        "美食",
        "饭店",
        "好吃",
        "restaurant",
        "笑话",
        "讲个故事",
        "joke",
        *MONEY_WORDS,
        "门票",
        # Other ways to travel, and what to see there: not train tickets.
        "大巴票",
        "大巴车",
        "大巴",
        "汽车票",
        "长途汽车",
        "长途车",
        "客车票",
        "轮船",
        "船票",
        "轮渡",
        "渡轮",
        "坐船",
        "的船",
        "推荐景点",
        "景点推荐",
        "哪些景点",
        "什么景点",
        "几个景点",
        "啥景点",
        "有啥好玩",
        "有什么好玩",
        "哪里好玩",
        "哪儿好玩",
        # Services around a trip that sell no train ticket: a chartered car, gear to rent,
        # a doctor's appointment, the invoice of a ride already taken.
        "包车",
        "拼车",
        "雪板",
        "雪具",
        "挂号",
        "专家号",
        "挂个号",
        "发票",
        "报销凭证",
        "怎么报销",
        "报销吗",
    ),
}

# What is said only as the train's context asks for nothing beside it, and is masked before
# the topics are read: a flight the train is taken to reach or comes from (赶飞机,
# 赶下午五点的航班, 下了飞机), a flight or coach refused (不想坐飞机, 飞机就不坐了,
# 不坐大巴了), lodging already settled (酒店已经订好了, 住的酒店在南京南站附近,
# 住酒店那边近) or refused (不想住酒店), and the toilets as why a seat is wished for.
_LODGING = "(?:" + "|".join(("酒店", "宾馆", "民宿", "旅馆", *HOSTEL_WORDS)) + ")"
_CONTEXT = re.compile(
    r"(?<=赶)(?![紧快])[^，,。；;！!？?\s]{0,10}?(?:飞机|航班)"
    r"|下了?(?:飞机|航班)"
    # 我要去医院挂号: the errand the ride is for, no appointment asked for.
    r"|(?:要|得|需要)?(?:去|到)(?:医院|[^，,。；;！!？?\s]{1,6}医院)挂(?:个)?号"
    r"|(?:不|别|不想|不要|不愿意?|不打算)(?:坐|乘|搭)"
    r"(?:飞机|航班|大巴|长途车|汽车|客车|轮船|船)"
    r"|(?:飞机|航班|大巴)(?:我|咱)?(?:就|也|都)?(?:不坐|别坐|不要|不考虑|算了|免了)"
    r"|(?:酒店|宾馆|民宿|住宿)(?:我们|我)?(?:已经|都|早就|早)?(?:订好|定好|订了|定了|搞定|有了|安排好)"
    r"|(?:已经|早就)(?:订|定)好?了?(?:酒店|宾馆|民宿|住宿)"
    r"|(?:住(?:的|在)?|订的|定的)" + _LODGING + r"(?=在|离|那边|那儿|附近|旁边|就在)"
    # 回桂林北站 离我住的青旅近: where one sleeps is why that station, no room asked for.
    r"|离(?:我|我们|咱们?)?(?:住的|订的|定的)?" + _LODGING + r"(?:比较|很|挺|最|更)?(?:近|不远)"
    # 不想头天晚上过去住酒店, 省得住宾馆: a night in a hotel refused is why the train, no room.
    r"|(?:不想|不要|不用|不愿意?|不打算|省得|免得|不必)[^，,。；;！!？?\s]{0,8}?住"
    + _LODGING
    # 靠过道的，方便他上厕所: why a seat is wished for, no question about the toilets.
    + r"|方便(?:他|她|我|我们|老人|孩子|他们|她们)?(?:去|上)(?:厕所|卫生间|洗手间)"
)


def without_context(lower: str) -> str:
    """`lower` with each flight or lodging said only as the train's context masked."""
    return _CONTEXT.sub(lambda m: MASK * len(m.group()), lower)


@dataclass
class Constraints:
    """What one text says about classes, types and order, after negations were read."""

    exclude_seat_classes: list[SeatClass] = field(default_factory=list)
    exclude_train_types: list[str] = field(default_factory=list)
    seat_classes: list[SeatClass] = field(default_factory=list)
    order: OrderPreference | None = None
    rest: str = ""  # the lower-cased text with every negated phrase masked


_ALL_WORDS = sorted(
    [p for p, _ in SEAT_PHRASES] + [p for p, _ in TRAIN_TYPE_PHRASES], key=len, reverse=True
)
_WORD = "(?:" + "|".join(re.escape(w) for w in _ALL_WORDS) + ")"
# Negation after its objects: 无座不要, 高铁动车都不坐, 硬座和无座都不要, 绿皮车就算了.
_POST_NEGATION = re.compile(
    _WORD + r"(?:的车|的票|的)?(?:\s*(?:和|、|跟|或|或者|以及)?\s*" + _WORD + r"(?:的车|的票|的)?)*"
    r"\s*(?:太贵了?|太贵|太慢了?|太累了?|太挤了?)?\s*(?:我|咱|俺)?"
    # (硬座可别给俺整: 可 stresses the refusal.)
    r"(?:都|也|就|一律|统统|更|就更|更加|更是|可)?\s*(?:不要|不坐|不想坐|不考虑|不行|算了|免了|不用|不乘|别"
    # 硬座坐不得咯 (Hunan), 硬座坐不了: a seat one cannot sit in.
    r"|坐不得|坐不了|坐不住|坐不惯)"
    # …not when the refusal has its own object (卧铺 不要上铺: the top berth refused, not 卧铺).
    r"(?!(?:给|帮|跟|让)?(?:我们|我|老人家|老人|他们|他|她)?(?:[上中下]铺|" + _WORD + r"))"
)
# A complaint about a type or class, no negation needed: 普速太慢了, 硬座太累, 一等座有点贵
# rule it out.
_COMPLAINT = re.compile(
    _WORD + r"(?:的车|的票|的)?(?:(?:和|、|跟|或|或者|以及)" + _WORD + r"(?:的车|的票|的)?)*"
    # (…for so many: 一等座三个人有点贵, the count masked once read)
    r"\s*(?:[一两二三四五六七八九十0-9]{1,2}\s*个?人|" + MASK + r"{1,6})?"
    # (软卧那玩意儿太贵了: the thing pointed at between)
    r"\s*(?:那玩意儿?|那东西|那个|这个|那种)?"
    r"\s*(?:都|也)?\s*(?:太|有点儿?|有些)(?:贵|慢|累|挤|吵|折腾)"
    # …the body's word for it: 硬座腰遭不住, 硬座我可受不了, 无座老人吃不消.
    # (a ride's length between: 硬座坐二十多个钟头腰受不了)
    r"|" + _WORD + r"(?:的车|的票|的)?\s*(?:(?:坐|站)?(?:" + RIDE_LENGTH + r"))?"
    r"\s*(?:我|老人|老人家|孩子|腰|屁股|腿|身体|人)?"
    r"\s*(?:都|也|可|真|实在|肯定)?\s*(?:太)?"
    r"(?:遭不住|受不了|吃不消|扛不住|顶不住|熬不住|撑不住|坐不住|遭罪|受罪)"
    # …or what it does to one: 坐高铁晕, 动车会晕车, 硬座太难受.
    r"|" + _WORD + r"(?:的车)?\s*(?:会|就|容易|老是?|总是?)?(?:晕车?|难受|不舒服|想吐)"
    # …or that word first: 孩子坐不住慢车, 受不了硬座.
    r"|(?:遭不住|受不了|吃不消|扛不住|顶不住|熬不住|撑不住|坐不住)\s*"
    + _WORD
    + r"(?:的车|的票|的)?(?:(?:和|、|跟|或|或者|以及)"
    + _WORD
    + r"(?:的车|的票|的)?)*"
)
# The objects of a negation: right after its cue (a verb or 给我 between), one phrase or a list
# joined by 和, 、, 或 … ("不要无座和硬座", "别给我安排动车"). Nothing further away: in "别坐夜车
# 一等座" the 一等座 is a wish, not a refusal.
_NEGATED = re.compile(
    # 别给我安排, 别让老人坐: who is spared it, by whose hand.
    r"\s?(?:(?:给|帮|让|叫)(?:我们|我|老人家|老人|爸妈|孩子|他们|她们|他|她|咱们|咱)?)?"
    # 坐不了一宿硬座, 受不了一路站着, 不想一夜坐硬座: how long, before or after the verb.
    r"(?:" + RIDE_LENGTH + r")?"
    r"(?:安排|乘坐|坐|买|乘|选|订|整|弄|搞|来|熬|站)?(?:个|张|一张|那种|这种|那个|这个|那|这)?"
    r"(?:" + RIDE_LENGTH + r")?的?"
    # 别整那半夜的绿皮: the hours it runs in, said of what is refused.
    r"(?:(?:大)?半夜|深夜|夜里|大晚上)?的?"
    r"(?P<objects>" + _WORD + r"(?:的车|的票|的)?"
    # …joined, or run together (别给我整一等座商务座), unless the next is permitted; a space
    # alone starts another wish (不要绿皮车 二等座: second class wanted).
    r"(?:(?:\s*(?:和|、|跟|或|或者|以及|与|及|还有)\s*)?" + _WORD + r"(?:的车|的票|的)?"
    r"(?!\s*(?:也行|也可以|就行|就可以|可以|都行)))*)"
)


# A seat required (得有座, 都要有座的): standing is refused.
_SEAT_REQUIRED = re.compile(r"(?:要|得|必须|需要|一定要|都要|都得)有(?:个)?座(?:位)?(?!位?号)")


def _mask(text: str, start: int, end: int) -> str:
    return text[:start] + MASK * (end - start) + text[end:]


def _object_before(lower: str, at: int) -> bool:
    """True when the clause before `at` names a train type or a seat (高铁太贵了俺不坐)."""
    clause = re.split(r"[，,。；;！!？?]", lower[:at])[-1]
    return any(
        phrase in clause for words in (SEAT_PHRASES, TRAIN_TYPE_PHRASES) for phrase, _ in words
    )


def _read_refused(
    spans: list[re.Match[str]], rest: str, seats: set[SeatClass], types: set[str]
) -> str:
    """The seats and train types named in `spans` (said after, or complained of) added to the
    refused ones; `rest` with the spans masked."""
    for post in spans:
        span = post.group()
        for words, into in ((SEAT_PHRASES, seats), (TRAIN_TYPE_PHRASES, types)):
            for phrase, values in words:
                at = span.find(phrase)
                while at >= 0:
                    into.update(values)  # type: ignore[arg-type]
                    span = _mask(span, at, at + len(phrase))
                    at = span.find(phrase)
        rest = _mask(rest, post.start(), post.end())
    return rest


def _all_emus_refused(types: set[str], rest: str) -> None:
    """高铁动车都不坐: every EMU refused, and the intercity train (城际, C) is one too, unless
    it is named as a wish. A complaint (高铁和动车都太贵了) refuses only the kinds it names."""
    if {"G", "D"} <= types and not any(p in rest for p, t in TRAIN_TYPE_PHRASES if t == ("C",)):
        types.add("C")


def read_constraints(lower: str) -> Constraints:
    """Exclusions (masked out of `rest`), the sleeper category and the order preference."""
    seats: set[SeatClass] = set()
    types: set[str] = set()
    rest = lower
    for cue in _NEGATION.finditer(lower):
        negated = _NEGATED.match(lower, cue.end())
        if negated is None:
            continue
        if lower[cue.end() : cue.end() + 1].isspace() and _object_before(lower, cue.start()):
            continue  # 高铁太贵了俺不坐 整个绿皮车就中: refused before the pause, wished after
        scope_end = negated.end()
        segment = lower[cue.end() : scope_end]
        found = False
        for words, into in ((SEAT_PHRASES, seats), (TRAIN_TYPE_PHRASES, types)):
            for phrase, values in words:
                at = segment.find(phrase)
                while at >= 0:
                    into.update(values)  # type: ignore[arg-type]
                    found = True
                    start = cue.end() + at
                    rest = _mask(rest, start, start + len(phrase))
                    segment = _mask(segment, at, at + len(phrase))
                    at = segment.find(phrase)
        if found:  # the refusal's verbs too: 别给我安排动车 asks for no plan (安排)
            rest = _mask(rest, cue.start(), scope_end)
    refusals, complaints = list(_POST_NEGATION.finditer(rest)), list(_COMPLAINT.finditer(rest))
    rest = _read_refused(refusals, rest, seats, types)
    _all_emus_refused(types, rest)
    rest = _read_refused(complaints, rest, seats, types)
    if _SEAT_REQUIRED.search(rest):
        seats.add(SeatClass.NO_SEAT)
    result = Constraints(
        exclude_seat_classes=[c for c in SeatClass if c in seats],
        exclude_train_types=[t for t in TRAIN_TYPES if t in types],
        rest=rest,
    )
    asked = [
        m
        for w in SLEEPER_CATEGORY_PHRASES
        for m in re.finditer(re.escape(w), rest)
        # 卧铺也行: a sleeper permitted, not asked for (a seat will do as well).
        if not rest[m.end() :].lstrip("的车票 ").startswith(SEAT_PERMITTED_AFTER)
    ]
    if asked and not any(w in rest for w in SLEEPER_CLASS_PHRASES):
        result.seat_classes = list(SLEEPER_SET)
    result.order = _order(rest)
    return result


def _order(rest: str) -> OrderPreference | None:
    """The outbound's order: one said of the ride home (回程要最便宜的) is not it."""
    found: list[tuple[int, OrderPreference]] = []
    for phrase, order in ORDER_PHRASES:
        for match in re.finditer(re.escape(phrase), rest):
            if not said_of_return(rest, match.start(), order):
                found.append((match.start(), order))
    for match in _BARE_ORDER.finditer(rest):
        bare: OrderPreference = "earliest" if match.group("w") == "早" else "latest"
        if not said_of_return(rest, match.start(), bare):
            found.append((match.start(), bare))
    return min(found)[1] if found else None


def without_places(lower: str, places: Iterable[str | None]) -> str:
    """`lower` with the trip's own `places` masked: a station is no topic (黄河景区, 大兴机场,
    郑州航空港), while a "place" that is only a topic's word (大巴, a station's name too) is
    that topic."""
    every_word = {word for words in SCOPE_WORDS.values() for word in words}
    for place in places:
        if place and place.lower() not in every_word:
            lower = lower.replace(place.lower(), MASK * len(place))
    return lower


def scope_topics(lower: str, places: Iterable[str | None] = ()) -> list[ScopeTopic]:
    """Every out-of-scope topic the text mentions, in the schema's key order, the trip's own
    `places` aside."""
    lower = without_places(lower, places)
    lower = without_context(lower)
    return [topic for topic, words in SCOPE_WORDS.items() if any(w in lower for w in words)]
