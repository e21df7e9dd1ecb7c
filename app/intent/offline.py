"""The offline rule parser: deterministic, no network, no model; the default without an LLM key.

Extraction runs in a fixed order over one text, each step masking what it consumed so a later
step cannot read it again (the 24 in "12月24日" is not a budget; the 三 in 三亚 is not a
count): train numbers, places, dates, times of day, durations, budget, party size, then the
word-table fields and the request kind.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from app.intent import lexicon, party, wishes
from app.intent.constraints import (
    ORDER_PHRASES,
    SCOPE_WORDS,
    read_constraints,
    scope_topics,
    without_context,
    without_places,
)
from app.intent.corrections import DAY_SAID, self_corrected
from app.intent.dates import (
    RETURN_DAY_AFTER,
    WEEKDAY_NUMBERS,
    DateFacts,
    days_said,
    extract_dates,
)
from app.intent.model import (
    END_OF_DAY,
    SLEEPER_SET,
    TIME_WINDOWS,
    TimeWindow,
    TravelIntent,
    ViaStop,
    missing_fields,
    places_named,
    with_derived_dates,
    with_end_said,
)
from app.intent.numerals import NUMBER, to_int, to_number
from app.intent.places import (
    CITY_ABBREVIATIONS,
    LANDED_BEFORE,
    NON_STATION_PLACES,
    Route,
    extract_route,
    names_train_end,
)
from app.intent.times import (
    ARRIVE_CUE,
    BUSY_THEN,
    clock_unit,
    context_period,
    event_part,
    extra_windows,
    in_period,
    later_by,
    meeting_before_leaving,
    meeting_part,
    minutes_of,
    names_a_clock,
    narrowed,
    today_implied,
    way_to_station_minutes,
)
from app.intent.varieties import as_mandarin, pinyin_heads
from rules.limits import MAX_PARTY
from sources.models import (
    TRAIN_LETTERS,
    TRAIN_NUMBER_LIKE,
    TRAIN_TYPES,
    SeatClass,
    is_train_number,
)
from sources.stations import StationDirectory
from sources.stations.directory import default_directory
from sources.stations.matching import readings

MASK = "□"

_TRAIN_NUMBER = re.compile(
    r"(?<![A-Za-z0-9])(" + TRAIN_NUMBER_LIKE + r")(?!\d)(?:次)?", re.IGNORECASE
)
# A train turned down is no train wished for: 算了不坐G82了, 别买G1, G82就不要了, 不是G82.
_TRAIN_REFUSED = re.compile(
    r"(?:不坐|不要|别坐|别要|不乘|不搭|不选|别选|不买|别买|不考虑|不想坐|不是|换掉|不用)"
    r"(?:那趟|这趟|那班|这班|那个|这个)?\s*(?P<before>" + TRAIN_NUMBER_LIKE + r")(?!\d)"
    r"|(?<![A-Za-z0-9])(?P<after>" + TRAIN_NUMBER_LIKE + r")(?!\d)(?:次)?(?:那趟|这趟|那班|这班)?"
    r"\s*(?:就)?(?:不坐了|不要了|不坐|不要|算了|不考虑了|不行)(?:了)?(?=[，,。！!？?\s]|$)",
    re.IGNORECASE,
)
_HOUR = r"(?<![周期拜])[0-9一二两三四五六七八九十]{1,3}"  # 周五6点: Friday, six o'clock
_CLOCK_AT = re.compile(r"\s*" + _HOUR + r"\s*" + clock_unit())
_CLOCK = re.compile(
    r"(?P<period>早上|上午|中午|下午|晚上)?(?P<h>" + _HOUR + r")\s*" + clock_unit() + r"\s*"
    r"(?P<rel>以后|之后|后|以前|之前|前)"
)
_CLOCK_RANGE = re.compile(
    r"(?P<period>早上|上午|中午|下午|晚上)?(?P<h>" + _HOUR + r")\s*" + clock_unit() + r"\s*"
    r"(?:到|至|-|~)\s*(?P<period2>早上|上午|中午|下午|晚上)?(?P<h2>"
    + _HOUR
    + r")\s*"
    + clock_unit("half2")
    + r"\s*(?:之间|以内)?"
)
_NOON_BOUND = re.compile(r"(?:中午|晌午)(?P<rel>以前|之前|前|以后|之后|后)")
# 九点前的不要, 八点以后的车都不坐: the hours named are the ones refused; the ride is in the rest.
_CLOCK_REFUSED = re.compile(
    r"\s*的\s*(?:车|票|车次|班次)?\s*(?:都|也|一律|统统|全)?\s*"
    r"(?:不要|不坐|不考虑|不行|别要|别买|别订|别给我|pass)"
)
_PERIODS: list[tuple[str, str]] = [
    ("一大早", "一早"),
    ("一早", "一早"),
    ("清早", "一早"),
    ("早晨", "早上"),
    ("早上", "早上"),
    ("明早", "早上"),
    ("今早", "早上"),
    ("凌晨", "凌晨"),
    ("上午", "上午"),
    ("中午", "中午"),
    ("晌午", "中午"),
    ("下午", "下午"),
    ("傍晚", "晚上"),
    ("晚上", "晚上"),
    ("今晚", "晚上"),
    ("明晚", "晚上"),
    ("夜里", "晚上"),
    ("early morning", "早上"),
    ("morning", "上午"),
    ("noon", "中午"),
    ("afternoon", "下午"),
    ("evening", "晚上"),
    ("tonight", "晚上"),
]
# 周一早上 is Monday morning: its 一早 is no early morning (the lookbehind keeps the weekday).
# 坐一晚上硬座, 一整晚: a night's length, not the evening (周一晚上, 十一晚上 still are).
_PERIOD_RE = re.compile(
    "(?<![周期拜])(?:(?<!一)|(?<=[周期拜十初]一))(?<!整)(?:"
    + "|".join(re.escape(p) for p, _ in _PERIODS)
    + ")",
    re.IGNORECASE,
)
_PERIOD_REFUSED = re.compile(
    # (不想坐凌晨的车: the ride's verb between the refusal and the part of the day.)
    r"(?:不想|不要|不愿意?|不用|不打算|不能|别|不)(?:再|太)?(?:坐|买|订|选|乘|搭|赶)?(?:在|是在)?"
    r"(?:头天|前一天|前一晚|提前一天|当天)?$"
)
_PERIOD_UNFIT = re.compile(r"[^，,。；;]{0,3}?(?:不方便|不太方便|不安全|不行)")
"""老人晚上不方便, 半夜到不安全: a part of the day said unfit, refused as plainly."""
_REFUSED_PERIOD = {
    "晚上": TimeWindow(start=dt.time(0, 0), end=TIME_WINDOWS["晚上"].start, label="不要晚上"),
    **{
        part: TimeWindow(start=TIME_WINDOWS[part].end, end=END_OF_DAY, label=f"不要{part}")
        for part in ("凌晨", "早上", "上午")
    },
}
"""What is left of the day when a part of it is refused (下午 and 中午 leave two parts: none)."""
_LEAVE_THEN = re.compile(r"(?:再|才)(?:能|可以)?(?:走|出发|动身|上车)")
_ONLY_THEN = re.compile(r"(?:只能|只好|只有|才能)(?:坐|买|订|选|赶|走)?$")
_ARRIVE_AFTER = ARRIVE_CUE
_RETURN_AFTER = re.compile(
    r"^\s*(?:的车|的票|坐车|坐火车)?\s*"
    # 晚上最后一班回广州: the train's order between the part of the day and 回.
    r"(?:(?:坐|买|要)?(?:最后一班|最后一趟|最晚一班|最晚一趟|最晚的一班|最晚的|末班车?|最早一班|最早的)(?:车)?)?"
    # 晚上要回来, 下午就得回去: a must between the part of the day and 回 is still the ride home;
    # 下班后从长沙回武汉: so is the place it leaves from.
    r"\s*(?:再|就|还|直接)?(?:从" + MASK + r"+)?(?:再|就|还|直接)?(?:要|得|必须|需要|想|能)?(?:赶)?"
    r"(?:回来|回家|回程|返回|返程|回)"
)
_LATE_AFTERNOON = re.compile(r"下午(?:晚点|晚一点|晚些)")
_RETURN_BEFORE = re.compile(
    r"(?:回来|回程|返程|返回|回去)(?:的车|的票|的?那趟|的?那班|坐的车)?(?:的|时|的时候|选|要|坐|得|是|最好)?\s*$"
)
_LOOSE_SAID_BEFORE = re.compile(r"(?P<head>.*?)" + MASK + r"+[咧了啊呀哈嘛吧哦噢]?[，,\s]+$")
"""A loose wish masked before the clause of an hour (…不要太早咧，): what comes before it."""
_RETURN_CUE = re.compile(r"回来|回程|返程|返回|回去|回家")
"""A return said earlier in the text: an arrival deadline after it is the ride home's."""
_ARRIVAL_SAID = re.compile(r"(?<!出发|发车)到[，,\s]*$")
_DEPART_VERB_AFTER = re.compile(r"^[^，,。]{0,3}?(?:走|出发|发车|动身)")
_AFTER_IT = re.compile(r"看完|开完|结束后|散场|完事|比赛完|听完|玩完|办完")
# 开完会坐最晚一班回北京, 办完事就回来: home once the day's business is done, with no other day.
_HOME_AFTER_IT = re.compile(
    r"(?:开完会?|办完事?|完事|看完|听完|比赛完|结束后?|见完(?:客户)?|谈完|签完|面完)"
    r"[^，,。；;去到]{0,10}?(?<!来)"
    r"(?:回来|回家|返回|回(?![复答应头]))"
)
_DAY_OFF_SAID = re.compile(
    r"(?:这|下|本)?(?:周|星期|礼拜)[一二三四五六日天](?:就|才|也)?"
    r"(?:放了|放假了?|停工了?|停产了?|关门了?|收工了?|完工了?|考完了?|放寒假了?)"
    # 原来订的是周三，现在改到周四: the day booked before, said to be put right.
    r"|(?:原来|本来|之前|原先)(?:订|买|定|约|预订)?的?(?:票)?(?:是)?(?:这|下|本)?(?:周|星期|礼拜)"
    r"[一二三四五六日天](?:的)?"
)
EVENT_HOURS = 2
"""How long an event said with its hour lasts, for a ride home after it (看完当晚回)."""
_DAY_BEFORE_ALLOWED = re.compile(
    r"(?:提前一天|前一天|头一天|前一晚|头天)(?:晚上|下午|傍晚|夜里)?(?:就)?(?:走|出发|过去|去)"
    r"(?:也行|也可以|也成|也没问题|都行|也ok)"
    # 当天赶不上就头天晚上过去住一晚: the day before only if the day itself cannot be made,
    # and the night there with it.
    r"|(?:赶不上|赶不到|来不及|到不了)(?:的话)?[，,\s]*(?:就|那就|再)?"
    r"(?:提前一天|前一天|头一天|前一晚|头天)(?:晚上|下午|傍晚|夜里)?(?:就|先)?(?:走|出发|过去|去)"
    r"(?:住一晚|住一宿|住一夜|住下)?"
)
_REFUNDED_TICKET = re.compile(
    r"(?:退|改签|退掉|改掉)(?:了|掉)?[^，,。；;]{0,8}?的(?:火车|高铁|动车)?(?:票|车票)"
)
"""The ticket being refunded or changed (我想退了今天的票): its day is not the trip's."""
_NEXT_DAY = re.compile(r"第二天|次日|隔天|第二日|第2天")
_SAME_DAY_RETURN = re.compile(
    r"当天(?:就)?(?:得|要|必须|还得|还要)?(?:赶)?(?:回来|回|返回|往返|来回)|当日(?:往返|来回|回|返回)|一日往返"
    r"|当晚(?:就)?(?:回来|回|返回)|早去晚回|早出晚归|晚上(?:就)?赶回来"
    # 明天来回, 周六往返, 5号来回: the day said right before it is out and back (三天来回 is no
    # one day).
    r"|(?:(?<=[今明后]天)|(?<=[周期拜][一二三四五六日天])|(?<=[0-9一二三四五六七八九十][号日]))"
    r"(?:来回|往返)"
)
# The ride home not to be bought now (回程先别买了, 返程暂时不订, 回来的票就不要了, 先不买
# 回程): the return is left open, so none is planned. A wish for it (回程不要太晚) is no such.
DROPPED_RETURN = (
    r"(?:回程|返程|回来的(?:车)?票|回去的(?:车)?票)(?:票)?(?:就|先|暂时|暂且|也)?"
    r"(?:别|不|不用|不要|不必|甭)(?:急着)?(?:买|订|定|管)"
    r"|(?:回程|返程|回来的(?:车)?票)(?:就|先|也)?不要了"
    r"|(?:先|暂时)?(?:别|不)(?:买|订)(?:回程|返程|回来的(?:车)?票)"
)
# 当天晚上要回成都, 同一天下午就得回来: the same day with its part of the day between; only the
# day word is taken, so the part is left to be read as the ride home's hours.
_SAME_DAY_LATER = re.compile(
    r"(?P<day>当天|当日|同一天|同一日|同天)(?:的)?(?:早上|上午|中午|下午|傍晚|晚上|夜里)"
    r"(?:就|要|得|再|还|还要|还得|就得|就要)?(?:赶)?(?:回来|回去|回|返回)"
)
# No ride home to plan: the traveller goes on another way, or not back at all.
_NO_RETURN = re.compile(
    r"直接飞走|飞走|飞回|坐飞机回|不回来了?|不用回|单程|回程(?:不用|不需要|自己)"
    r"|不(?:用|需要|必)(?:管|买|订)?回程|one[- ]way|" + DROPPED_RETURN
)

# 往返, 来回 (a trip there and back: 团建来回, 买来回的票); 来回折腾, 来回跑 are no trip.
_ROUND_TRIP_SAID = re.compile(
    r"往返|回来|返程|回程|round trip|and back"
    r"|来回(?!折腾|跑|奔波|倒|[要得需]?[^，,。]{0,2}(?:小时|分钟))"
)
_EN_NUMBER = r"(?:(?<!\d)\d+|one|two|three|four|five|six|seven|eight|nine|ten|a)"
_DAYS_NIGHTS = re.compile(
    # 坐两天两夜的车: the ride's length, no stay.
    r"(?<![坐站熬乘第])(?P<d>" + NUMBER + r")\s*(?:天|日)\s*(?P<n>" + NUMBER + r")\s*(?:晚|夜|宿)"
    r"(?!的?(?:车|火车|硬座|卧铺))"
)
_DAY_TRIP = re.compile(r"(?P<d>" + NUMBER + r")\s*日游")
# A night spent in a seat (坐不了一夜硬座, 熬一夜, 站一夜) is how long the ride lasts, no stay.
_SEAT_WORD = "|".join(re.escape(p) for p, _ in lexicon.SEAT_PHRASES if not p.isascii())
_NIGHTS = re.compile(
    # 睡一宿, 睡一晚: the night slept on the train, no stay.
    r"(?<![坐站熬睡前头])(?P<n>"  # (前一晚过去, 头一晚: the evening before, no stay)
    + NUMBER
    # 住两宿: 宿 counts nights in the north (宿舍, 宿州, 宿迁, 宿松 are no night).
    + r")\s*个?\s*(?:晚|夜|宿(?![舍州迁松]))(?!上|里|的?(?:车|火车)|的?(?:坐|站)?(?:"
    + _SEAT_WORD
    # 硬座一夜坐不住, 一夜站着: the night is the ride, sat or stood through.
    + r")|(?:都|也|就)?(?:坐|站|熬)(?:不|着|了|下来))"
    r"|(?P<en>" + _EN_NUMBER + r")\s+nights?\b",
    re.IGNORECASE,
)
_WEEKS = re.compile(
    # 周六周日 is two days (its 六周 no six weeks); 第二周 is which week, not how many.
    r"(?<![周期拜第])(?P<w>"
    + NUMBER
    + r")\s*个?\s*(?:周|星期|礼拜)|(?P<en>"
    + _EN_NUMBER
    + r")\s+weeks?\b",
    re.IGNORECASE,
)
_WEEKS_TO_CHOOSE_FROM = re.compile(
    r"^这|(?:周|星期|礼拜)(?:之内|以内|内|里)|(?:周|星期|礼拜)[\s，,]*(?:哪天|随便哪天|任何一天)"
)
_STAY_BEFORE = re.compile(r"(?:住|待|呆)(?:上|个)?$")
"""A stay verb right before a count of weeks (住一个礼拜, 待上两周): nights slept there."""
_DAYS = re.compile(
    # 坐两天硬座扛不住: how long the ride lasts, no stay.
    # (前一天晚上的车, 头一天, 最后一天: which day, no length either.)
    r"(?<![坐站熬乘第前头后])(?P<d>"  # 第二天还要上班: which day, no length
    + NUMBER
    + r")\s*个?\s*(?:天|日)(?!\s*(?:\d|[一二两三四五六七八九十])?\s*(?:夜|晚)?的?(?:车|火车|"
    + _SEAT_WORD
    + r"))"
    r"|(?P<en>" + _EN_NUMBER + r")\s+days?\b",
    re.IGNORECASE,
)

_BUDGET_BEFORE = (
    "预算",
    "上限",
    "报销",
    "最多",
    "人均",
    "每人",
    "每个人",
    "一人",
    "一个人",
    "一共",
    "总共",
    "总计",
    "不超过",
    "别超过",
    "不要超过",
    "不能超过",
    "不高于",
    "控制在",
    "花",
    "budget",
    "under",
    "below",
    "¥",
    "￥",
)
# Cues that make even a small amount a budget ("预算40块").
_STRONG_BUDGET = (
    "预算",
    "人均",
    "每人",
    "每个人",
    "一共",
    "总共",
    "总计",
    "不超过",
    "别超过",
    "不要超过",
    "不能超过",
    "不高于",
    "控制在",
    "上限",
    "报销",
    "最多",
)
_PER_PERSON_BEFORE = ("人均", "每人", "每个人", "一人", "一个人", "每位")
_PER_PERSON_AFTER = ("/人", "每人", "一个人", "一人", "per person", "/位", "每位")
# 每人车票来回不超过100: "each" opens the clause the amount closes, however far before it.
_EACH_BEFORE = re.compile(r"人均|每人|每个人|每位")
_CLAUSE_END = re.compile(r"[，。,;；！!？?\s]")


def _clause_before(text: str, end: int, reach: int = 16) -> str:
    """The words before `end` in its clause (up to `reach` characters)."""
    window = text[max(0, end - reach) : end]
    stops = [m.end() for m in _CLAUSE_END.finditer(window.rstrip())]
    return window[stops[-1] :] if stops else window


# 一早 / 一大早 / 大清早: the day's first hours, however early; 早上 alone starts at five.
# Before dawn said outright (天不亮就走): the small hours too; 一早 starts at five.
_AT_DAWN = re.compile(r"天不亮|摸黑|凌晨")
_MORNING_FROM = dt.time(5, 0)

_BUDGET_AFTER = ("元", "块", "以内", "以下", "之内", "左右", "预算", "yuan", "rmb", "cny")
_AMOUNT = re.compile(NUMBER, re.IGNORECASE)

_PARTY = re.compile(
    r"一家(?P<family>" + NUMBER + r")口|(?P<family2>" + NUMBER + r")口之家"
    r"|(?P<adults>"
    + NUMBER
    + r")\s*(?:个)?大(?:人)?[，, 和带]?\s*(?P<kids>"
    + NUMBER
    + r")\s*(?:个)?\s*(?:□+的?)?"
    r"(?:小孩|孩子|儿童|小)"
    # 一人一张 is a ticket each, not one ticket.
    r"|(?<!人)(?P<tickets>" + NUMBER + r")\s*张"
    # 学生票x2, 二等座×3: so many of that ticket.
    r"|(?:票|座|卧|铺|学生)\s*[x×*]\s*(?P<times>[1-9])(?![0-9])"
    # 三个大学生, 两位同事 with no 带/和 before them: the party itself, not companions.
    r"|(?<![带和跟与陪同及0-9一二两三四五六七八九十])(?P<kinds>[2-9]|[1-9][0-9]{1,2}|[两二三四五六七八九十]{1,3})\s*(?:个|位|名)\s*"
    r"(?:退休|在职|年轻|年纪大的|上了年纪的)?"
    r"(?:大学生|研究生|学生|同学|朋友|同事|老乡|室友|驴友|工友|闺蜜|姐妹|兄弟"
    r"|老师|教师|医生|护士|工人|职工|员工|干部|老人|老头|老太太|老太|阿姨|大爷|大妈)"
    r"|(?P<n>"
    + NUMBER
    + r")\s*(?:个大人|个人(?!\s*[0-9])|位|口人|人(?!均|\s*[0-9一二两三四五六七八九十百千]|\s*预算))"
    r"|(?P<en>" + _EN_NUMBER + r")\s+(?:people|persons|ppl|adults|travell?ers|passengers|pax"
    r"|(?:(?:adult|student|second|first|business|class|seat|sleeper|hard|soft|train)\s+){0,2}"
    r"tickets?)\b"
    r"|family of (?P<fam_en>" + _EN_NUMBER + r")",
    re.IGNORECASE,
)
_PAIRS = {
    "我们俩": 2,
    "我俩": 2,
    "俩人": 2,
    "两口子": 2,
    "我们两个": 2,
    "我们仨": 3,
    "仨人": 3,
    "咱俩": 2,
    "俺俩": 2,
    "咱仨": 3,
    "俺仨": 3,
    "我们三个": 3,
    "我们四个": 4,
    "我们五个": 5,
    "我们六个": 6,
}
_COUPLES = ("两口子",)
# A count of one denied (不是我一个人, 不止我一个): the party is said next, not one.
_NOT_ALONE = re.compile(r"不(?:是|止|只)(?:就)?(?:我|俺)?(?:自己)?一个(?:人)?")
_ME_AND_ONE = re.compile(
    r"(?:我|俺)(?:和|跟|与)[^，,。；;\s和跟与带领陪]{1,4}?俩(?=[，,。；;!！\s]|$|一起|都|去|从|要|想)"
)
# 带三个学生, 我带13个销售: the one who leads and the people led, counted apart.
_PUPILS = re.compile(
    r"(?:带|领|陪)(?:着|上)?(?P<n>" + NUMBER + r")\s*(?:个|位|名)\s*"
    r"(?:学生|同学|销售|员工|同事|下属|组员|队员|学员|工人|徒弟|实习生)"
)
_CHILDREN = re.compile(r"(?P<n>" + NUMBER + r")\s*个\s*(?:孩子|小孩|娃|宝宝|儿童)")
# A group counted roughly (老乡十几个人, 二十多个工友, 三十来个同学): at least that many, so a
# group past what one order holds (read as one when it was not a number at all).
_ROUGH_COUNT = re.compile(
    r"(?P<tens>十|[二三四五六七八九]十|[1-9]0)(?P<more>几|多|来)\s*(?:个|位|名)?\s*"
    r"(?:人|老乡|工友|同事|同学|朋友|兄弟|姐妹|员工|工人|学生|老人)"
    r"|(?:老乡|工友|同事|同学|朋友|兄弟|姐妹|员工|工人|学生)们?(?:一共|总共|共)?"
    r"(?P<tens2>十|[二三四五六七八九]十|[1-9]0)(?P<more2>几|多|来)\s*(?:个|位|名)"
)
# The speaker and a spouse counted (我和老公两个人, 我跟孩子他爸俩): the couple is the party's
# grown-ups, whatever children are named elsewhere in the sentence (孩子3岁半): three in all.
_COUPLE_COUNTED = re.compile(
    r"(?:我|俺)(?:和|跟|与)(?:我|俺)?(?:家)?的?"
    r"(?:老公|老婆子?|媳妇儿?|爱人|丈夫|妻子|先生|太太|老伴儿?|老头子?儿?|老太婆"
    r"|孩子(?:他|她)?(?:爸爸?|妈妈?)|[他她](?:爸|妈))"
    r"(?:两个人|两个|两人|俩人|俩|二人)"
)


class _Text:
    """The request text with consumed spans masked out."""

    def __init__(self, text: str) -> None:
        self.original = text
        self.chars = list(text)
        self.arrival_part: TimeWindow | None = None  # 到了第二天早上: the arrival's part of day
        self.destination: str | None = None  # where the ride out goes (当天晚上回<it>)
        self.origin: str | None = None  # where the trip begins (周日晚上回 11点前得到<it>)

    @property
    def masked(self) -> str:
        return "".join(self.chars)

    def mask(self, start: int, end: int) -> None:
        for i in range(start, end):
            self.chars[i] = MASK


_PINYIN_WORDS = {
    "jintian": "今天",
    "mingtian": "明天",
    "houtian": "后天",
    "dahoutian": "大后天",
    "zhoumo": "周末",
    "xiazhou": "下周",
    "zaoshang": "早上",
    "shangwu": "上午",
    "zhongwu": "中午",
    "xiawu": "下午",
    "wanshang": "晚上",
    "cong": "从",
    "qu": "去",
    "dao": "到",
    "hui": "回",
}
"""A sentence typed in pinyin: its route and time words, as the characters they stand for."""
_PINYIN_DAYS = {"yi": "一", "er": "二", "san": "三", "si": "四", "wu": "五", "liu": "六"}
_PINYIN_COUNTS = {
    "yi": "一",
    "liang": "两",
    "san": "三",
    "si": "四",
    "wu": "五",
    "liu": "六",
    "qi": "七",
    "ba": "八",
    "jiu": "九",
    "shi": "十",
}
_PINYIN_WORDS.update(
    {
        # Time words typed a syllable at a time (xia zhou yi, zhe zhou wu, zao shang chu fa).
        **{
            f"{head} {week} {day}": f"{head_cn}{week_cn}{day_cn}"
            for head, head_cn in (("zhe", "这"), ("xia", "下"), ("ben", "本"), ("", ""))
            for week, week_cn in (("zhou", "周"), ("xingqi", "星期"), ("libai", "礼拜"))
            for day, day_cn in (*_PINYIN_DAYS.items(), ("ri", "日"), ("tian", "天"))
            if not (week == "zhou" and day == "tian")
        },
        "ming tian": "明天",
        "jin tian": "今天",
        "hou tian": "后天",
        "da hou tian": "大后天",
        "zhou mo": "周末",
        "zhe zhou mo": "这周末",
        "xia zhou mo": "下周末",
        "xia zhou": "下周",
        "zao shang": "早上",
        "shang wu": "上午",
        "zhong wu": "中午",
        "xia wu": "下午",
        "wan shang": "晚上",
        "chu fa": "出发",
        "hui lai": "回来",
        "hui cheng": "回程",
        "fan cheng": "返程",
        # zhouwu xiaban hou: after work, as 下班后 is read.
        "xia ban": "下班",
        "xia ke": "下课",
        "xia ke hou": "下课后",
        "xia ban hou": "下班后",
        "xue sheng piao": "学生票",
        "xue sheng": "学生",
        **{f"{n} ge ren": f"{cn}个人" for n, cn in (("yi", "一"), ("liang", "两"), ("san", "三"))},
        **{f"{n} ge ren": f"{cn}个人" for n, cn in (("si", "四"), ("wu", "五"))},
        # A count typed in digits amid pinyin (2 ge ren, 3ge ren).
        **{f"{d} ge ren": f"{d}个人" for d in "23456789"},
        # The party in pinyin (liang ge da ren dai yi ge 3 sui xiao hai): its counts, roles
        # and ages. 岁 only after a number: sui alone may be a syllable of a place (sui zhou).
        **{f"{n} ge": f"{cn}个" for n, cn in _PINYIN_COUNTS.items()},
        **{f"{d} ge": f"{d}个" for d in "123456789"},
        **{f"{n} sui": f"{cn}岁" for n, cn in _PINYIN_COUNTS.items() if n != "liang"},
        **{f"{d} sui": f"{d}岁" for d in range(1, 18)},
        # Relative wishes said back to a plan (zaodian de, pianyi dian): 早点的, 便宜点.
        "zao dian de": "早点的",
        "zao dian": "早点",
        "wan dian de": "晚点的",
        "wan dian": "晚点",
        "zui zao": "最早",
        "zui wan": "最晚",
        "pian yi dian": "便宜点",
        "pian yi de": "便宜的",
        # The kind of train and seat, and the one train meant (gaotie, zui zao de na tang).
        "gao tie": "高铁",
        "dong che": "动车",
        "yi deng zuo": "一等座",
        "er deng zuo": "二等座",
        "shang wu zuo": "商务座",
        "ying wo": "硬卧",
        "ruan wo": "软卧",
        "wo pu": "卧铺",
        "na tang": "那趟",
        "na ban": "那班",
        "da ren": "大人",
        "xiao hai": "小孩",
        "hai zi": "孩子",
        "lao ren": "老人",
        "dai": "带",
        # Kin brought along (dai wo ma: 带我妈) and the errand and deadline of the ride
        # (kan bing, 11dian qian yao dao: 看病, 11点前要到).
        "wo ma": "我妈",
        "wo ba": "我爸",
        "wo ba ma": "我爸妈",
        "lao po": "老婆",
        "lao gong": "老公",
        # laoban is 老伴 or 老板 by its tones: a companion either way (wo he laoban).
        "lao ban": "老伴",
        "kan bing": "看病",
        "yao dao": "要到",
        # Around an hour, or after or before it (8dian zuoyou, jiu dian yihou).
        "zuo you": "左右",
        "yi hou": "以后",
        "zhi hou": "之后",
        "yi qian": "以前",
        "zhi qian": "之前",
        # Days, wishes and companions typed by travellers who write pinyin by habit (ming zao,
        # zui pianyi, bu yao lvpi che, wo he shiyou 2 ren).
        "ming zao": "明早",
        "jin wan": "今晚",
        "ming wan": "明晚",
        "yuan dan": "元旦",
        "kua nian": "跨年",
        "zui pian yi": "最便宜",
        "zui kuai": "最快",
        "lv pi che": "绿皮车",
        "lv pi": "绿皮",
        "bu yao": "不要",
        "bu zuo": "不坐",
        "zhi zuo": "只坐",
        "zhi yao": "只要",
        "wo he": "我和",
        "tong xue": "同学",
        "shi you": "室友",
        "peng you": "朋友",
        "xue sheng zheng": "学生证",
        "wo men": "我们",
        "na tian": "那天",
        "hou yi tian": "后一天",
        "qian yi tian": "前一天",
        "hai you": "还有",
        "zai hui lai": "再回来",
        "yue pian yi yue hao": "越便宜越好",
        "yue zao yue hao": "越早越好",
        "yue kuai yue hao": "越快越好",
        "xue sheng dang": "学生党",
        "qian dao jia": "前到家",
        "qian dao": "前到",
        "dao jia": "到家",
        **{f"zhu {n} wan": f"住{cn}晚" for n, cn in (("yi", "一"), ("liang", "两"), ("san", "三"))},
        **{f"zhu {d} wan": f"住{d}晚" for d in "1234567"},
        **{f"wan {d} tian": f"玩{d}天" for d in "1234567"},
    }
)
# 8dian, ba dian: an hour typed in pinyin (dian alone may be a syllable of a place).
_PINYIN_CLOCK = re.compile(
    r"(?<![a-z])([0-9]{1,2}|(?:shi\s*)?(?:yi|liang|er|san|si|wu|liu|qi|ba|jiu)|shi)\s*dian"
    r"(?:\s*(?P<before>qian)(?![a-z]))?(?![a-z])",
    re.IGNORECASE,
)


def _pinyin_clock(match: re.Match[str]) -> str:
    said = match.group(1).lower().split()
    hour = "".join(
        _PINYIN_COUNTS.get(word, word) for word in re.findall(r"shi|[a-z]+|\d+", "".join(said))
    )
    return hour + "点" + ("前" if match.group("before") else "")  # 11dian qian: 11点前


# Words only a chat turn typed all in pinyin is read by (gaicheng zhouer ba, huicheng ye ding
# yixia, 9dian qian zou, 2ren): single syllables a place name typed a syllable at a time may
# hold (ba zhong, ding xi), so never read inside a sentence with a route.
_PINYIN_TURN_WORDS = {
    "gai cheng": "改成",
    "gai dao": "改到",
    "huan cheng": "换成",
    "ye": "也",
    "ding": "订",
    "yi xia": "一下",
    "qian": "前",
    "hou": "后",
    "zou": "走",
    "zuo": "坐",
    "ren": "人",
    "yao": "要",
    "ba": "吧",
    "de": "的",
}
# A place typed a syllable at a time (cong shang hai dao hang zhou) is up to four words.
_PINYIN_ROUTE = re.compile(
    r"(?<![a-z])cong\s+[a-z]+(?:\s+[a-z]+){0,3}?\s+(?:qu|dao|hui)\s+[a-z]+", re.IGNORECASE
)
# qu suzhou … cong shanghai: the cues in the other order, each before a pinyin place.
_PINYIN_CUES = re.compile(
    r"(?<![a-z])qu\s+[a-z]{3,}.*(?<![a-z])cong\s+[a-z]{3,}"
    r"|(?<![a-z])cong\s+[a-z]{3,}.*(?<![a-z])qu\s+[a-z]{3,}",
    re.IGNORECASE,
)
# huicheng zhouri wanshang: a chat turn typed in pinyin alone, no route in it (two of its
# words known, so an English sentence is never read as pinyin).
_ALL_LATIN = re.compile(r"[a-z0-9\s,.!?，。！？]+", re.IGNORECASE)
_PINYIN_WORD = re.compile(
    r"(?<![a-z])(?:"
    + "|".join(r"\s*".join(word.split()) for word in sorted(_PINYIN_WORDS, key=len, reverse=True))
    + r")(?![a-z])",
    re.IGNORECASE,
)
_PINYIN_TURN_WORD = re.compile(
    r"(?<![a-z])(?:"
    + "|".join(
        r"\s*".join(word.split())
        for word in sorted({**_PINYIN_WORDS, **_PINYIN_TURN_WORDS}, key=len, reverse=True)
    )
    + r")(?![a-z])",
    re.IGNORECASE,
)
# 2ren, 3 ge ren: a party counted in pinyin, one word.
_PINYIN_COUNT = re.compile(r"\s*\d{1,2}\s*(?:ge\s*)?ren\s*", re.IGNORECASE)
_PINYIN_DAY_WORD = re.compile(
    r"(?<![a-z])(?:jin\s*tian|ming\s*tian|hou\s*tian|da\s*hou\s*tian|ming\s*zao|jin\s*wan"
    r"|ming\s*wan|yuan\s*dan|(?:zhe|xia|ben)?\s*(?:zhou|xingqi|libai)\s*(?:yi|er|san|si|wu|liu|ri|mo)"
    r"|\d{1,2}\s*hao)(?![a-z])",
    re.IGNORECASE,
)
# wuhan -> nanchang, nanning qu guilin: two pinyin places with a route word or arrow between.
_PINYIN_PAIR = re.compile(
    r"(?<![a-z])[a-z]{2,}\s*(?:\s(?:dao|qu)\s|->|→|—>|-)\s*[a-z]{2,}", re.IGNORECASE
)
# 23hao: a day of the month typed in pinyin.
_PINYIN_DAY_OF_MONTH = re.compile(r"(?<![a-z0-9])(\d{1,2})\s*hao(?![a-z])", re.IGNORECASE)
# The spaces between pinyin words read as characters (6点 以后): no clause break.
_SPACE_BETWEEN_WORDS = re.compile(r"(?<=[\u4e00-\u9fff0-9])\s+(?=[\u4e00-\u9fff0-9])")


_LODGING_SAVED = re.compile(
    r"(?:还|能|可以|正好|顺便)?省(?:掉|下|了)?(?:一|1|个)?(?:晚|夜)?的?(?:住宿|酒店|宾馆|旅馆|住店)"
    r"(?:钱|费|费用)?"
)
_NIGHT_TRAIN = re.compile(
    r"(?<![不别没])(?<!不要)(?<!不想)(?<!不坐)(?:坐|乘|搭|买|选|要|订|来|就)?(?:个|趟|一趟)?"
    r"(?:夜车|夜班车|过夜车|过夜的车)(?!也)"
    r"|(?:车上)?睡一(?:晚|觉|夜)(?:就|正好)?到"
    # 打算在火车上睡一觉, 车上过一夜: the night slept aboard, wished for.
    r"|(?<![不别没])(?<!不要)(?<!不想)(?<!不愿)(?<!不想在)(?<!不要在)(?<!不愿在)(?<![不别没]在)"
    r"(?:在)?(?:火车|(?<!火)车)上(?:睡一(?:晚|觉|夜)|过一夜|过个夜)"
    r"(?![^，,。]{0,3}(?:不|受不了|太累))"
)
_NIGHT_ON_BOARD = re.compile(
    r"(?:晚上|夜里)(?:睡车上|睡在车上|在车上睡)"
    # 不要夜里跑的车: the trains running through the night, not the evening's departures.
    r"|(?:晚上|夜里|夜间|半夜)(?:跑|开|走|行驶)的(?:车|火车|那种)"
)
"""晚上睡车上: a night spent on board (wanted or refused), not an evening departure."""
_SLEEP_ON_BOARD = re.compile(
    r"(?:车上)?睡一(?:晚|觉|夜)(?:就|正好)?到"
    r"|(?<![不别没])(?<!不要)(?<!不想)(?<!不愿)(?<!不想在)(?<!不要在)(?<!不愿在)(?<![不别没]在)"
    r"(?:在)?(?:火车|(?<!火)车)上睡一(?:晚|觉|夜)"
    r"(?![^，,。]{0,3}(?:不|受不了|太累))"
)
"""睡一觉就到: the night is slept on the train, so in a berth (a sleeper class)."""
NIGHT_TRAIN_DEPART = TimeWindow(start=dt.time(18, 0), end=END_OF_DAY, label="夜车")
NIGHT_TRAIN_ARRIVE = TimeWindow(start=dt.time(4, 0), end=dt.time(12, 0), label="夜车次日")


def _spelt(word: str) -> str:
    return re.sub(r"\s+", "", word.lower())


_PINYIN_SPELT = {_spelt(word): chinese for word, chinese in _PINYIN_WORDS.items()}
_PINYIN_TURN_SPELT = {
    _spelt(word): chinese for word, chinese in {**_PINYIN_WORDS, **_PINYIN_TURN_WORDS}.items()
}


# Arrows typed as emoji or symbols between two places (杭州➡️上海): the route arrow.
_ARROWS = re.compile(r"(?:➡|⇒|⟶|➔|➜|⮕|⇨|→)\ufe0f?|=>")
# Cantonese day words (听日同老婆由广州去佛山: tomorrow); 由, 同 and 搭 are read as they are.
# 周六晚, 后天晚, 12号晚: the evening, said short (住一晚, 晚点, 晚饭 are not).
_SHORT_EVENING = re.compile(
    r"(?:(?<=[周期拜][一二三四五六日天])|(?<=[今明后]天)|(?<=[0-9一二三四五六七八九十][号日]))"
    r"晚(?![上点饭餐些一会间安了到])"
)


# g 1, K 599: a train number typed with a space after its letter (not a count: D 2张).
_SPACED_TRAIN = re.compile(
    rf"(?<![A-Za-z0-9])([{TRAIN_LETTERS}])[ \t]+([1-9]\d{{0,3}})(?![\d.:：号点月日天张个位人口岁])",
    re.IGNORECASE,
)

# 明天下五, 下五三点: 下午 typed by sound (xiawu), after a day or before an hour; 下周五 is
# never shortened so.
_AFTERNOON_BY_SOUND = re.compile(
    r"(?:(?<=[今明后]天)|(?<=[周期拜][一二三四五六日天])|(?<=[0-9一二三四五六七八九十][号日]))"
    r"下五(?![点时号日])"
    r"|下五(?=\s*(?:[0-9]{1,2}|[一二两三四五六七八九十]{1,2})\s*点)"
)

# 夜里的车就不坐了: the trains of the night turned down are the night trains.
_NIGHT_RIDES_REFUSED = re.compile(
    r"(?:夜里|半夜|深夜)的(?:车|火车)(?=(?:就|可|我|咱)?(?:不要|不坐|算了|免了|坐不了|不考虑))"
)
# 别坐夜里的车, 不要坐半夜的火车: the same refusal said before the rides.
_NIGHT_RIDES_REFUSED_FIRST = re.compile(
    r"(?:别|不要|不想|不|莫)(?:坐|买|订|给我?(?:订|买|安排))(?:夜里|半夜|深夜)的(?:车|火车)"
)

# 周三去郑州…周四从郑州去武汉: a trip whose start is unsaid goes on from its first stop; that
# stop named again as where the next ride leaves is no origin of the trip (home is, when said).
_ONWARD_FROM_FIRST_STOP = re.compile(
    r"^(?P<head>[^从由自]*?去(?P<stop>[\u4e00-\u9fff]{2,4})[^从由自]*?[，,。；;\s][^从由自]*?)"
    r"从(?P=stop)(?=(?:直接|再|就)?(?:去|到|前往|坐|乘))"
)

# K9787…乌鲁木齐上 吐鲁番下: where the named train is boarded and left, said on their own.
_ON_OFF = re.compile(
    # (汉口上宜昌东下: run together, as often typed.)
    r"(?<![\u4e00-\u9fff])(?P<a>[\u4e00-\u9fff]{2,6}?)站?上车?[\s，,]*"
    r"(?P<b>[\u4e00-\u9fff]{2,6}?)站?下车?(?![\u4e00-\u9fff])"
)
_O_CLOCK = re.compile(r"(?<=[0-9一二两三四五六七八九十])\s*点钟(?!头)")
# 九点往后走的就中, 七点往后最早的: after that hour (not 往后推, a ride put off).
_HOUR_ONWARD = re.compile(r"(?<=点|半)(?:往后|朝后|过后)(?![推挪延移拖])")
# 从天津回北京，9点前到北京南: the station named later is where the ride home ends (not a
# second trip to it, nor a return from it).
_HOME_STATION_LATER = re.compile(
    r"回(?P<city>[\u4e00-\u9fff]{2,3}?)(?P<mid>[，,\s][^。；;]{0,12}?到)(?P=city)"
    r"(?P<dir>[东南西北])(?![边面部])"
)
# 三个娃（14、9、5岁）: ages listed before one 岁, each an age.
_AGE_LIST = re.compile(r"(?<![0-9])(?P<ages>[0-9]{1,2}(?:\s*[、,，/]\s*[0-9]{1,2})+)\s*(?:周)?岁")
# 估计7点才到得了火车站: the hour the station is reached, and 但别6点之前: the hours before
# one refused (said before the hour).
_AT_STATION_BY = re.compile(
    r"(?P<h>" + _HOUR + r"点半?)(?:钟)?(?:才|就|能|可以)?"
    r"(?:到得了|赶得到|能到|赶到|到)(?:火车站|车站|高铁站)"
)
_REFUSED_BEFORE_HOUR = re.compile(
    r"(?:别|不要|不能|不想)(?:坐|要|买)?(?P<h>" + _HOUR + r"点半?)(?:之前|以前|前)(?:的)?(?:车|票)?"
)
# 七点以前的我根本赶不上: before the hour refused, so after it.
_BEFORE_HOUR_REFUSED = re.compile(
    # 早上八点以前俺可起不来啊: 可 between the one refusing and the refusal.
    r"(?<=点|半)(?:以前|之前|前)的?(?:车|票)?(?:我|我们|都|俺|俺们)?(?:可|是)?"
    r"(?:根本|肯定|实在|真)?"
    r"(?:赶不上|来不及|起不来|赶不到|不行|不要|不坐)"
)
# 孩子晚上闹, 老人夜里睡不好: why a night ride is refused, not the hours of the ride.
_NIGHT_RESTLESS = re.compile(
    r"(?<=孩子|娃娃|小孩|宝宝|老人|娃儿|小娃)(?:们)?(?:一到)?(?:晚上|夜里|半夜)"
    r"(?=[^，,。]{0,3}?(?:闹|哭|睡不好|睡不着|不睡|要睡|得睡|睡觉|熬不住))"
)
# 午前, 午后: the formal written words for before and after noon (拟于午前启程).
_FORMAL_NOON = re.compile(r"(?<![上中下正晌])午(?=前|后)")

# 往回走, 往回赶, 往回返: heading home, said as a direction.
_HOMEWARD = re.compile(r"往回(?:走|返|赶|奔|撤)")

_NUMERAL_ORDER = "一两三四五六七八九十"
# 玩个四五天, 待两三晚: a stay said as a span of two counts, read as the first (四五 is no 45).
_TWO_COUNTS = re.compile(
    r"(?P<a>[一二两三四五六七八九])(?P<b>[二三四五六七八九十])(?=\s*个?(?:天|晚|夜|日))"
)


def _first_of_two(match: re.Match[str]) -> str:
    first = _NUMERAL_ORDER.index(match.group("a").replace("二", "两"))
    second = _NUMERAL_ORDER.index(match.group("b").replace("二", "两"))
    return match.group("a") if second == first + 1 else match.group()


def _pinyin_turn(text: str) -> bool:
    """A turn all in Latin letters is pinyin when two of its words are known, or when its
    words, two or more, are all a known phrase (3ge ren, zaodian de): an English sentence is
    neither, and one word alone may be a name's syllables (houtian)."""
    if len(_PINYIN_TURN_WORD.findall(text)) >= 2 or _PINYIN_COUNT.fullmatch(text):
        return True
    several = len(re.findall(r"[a-z0-9]+", text, re.IGNORECASE)) >= 2
    return several and not re.search(r"[a-z]", _PINYIN_TURN_WORD.sub("", text), re.IGNORECASE)


# A train number said aloud (voice input): G二七六 digit by digit, G两百七十六 as a value.
# Not a seat class after a letter (G二等座, D一等).
_SPOKEN_DIGITS = "零〇洞幺一二两三四五六七八九十百千"
_SPOKEN_TRAIN = re.compile(
    rf"(?<![A-Za-z0-9])(?P<letter>[{TRAIN_LETTERS}{TRAIN_LETTERS.lower()}])"
    rf"(?P<said>[{_SPOKEN_DIGITS}]{{1,6}})(?![{_SPOKEN_DIGITS}]|等|座|铺)(?P<next>.?)"
)
_DIGIT_SAID = dict(zip("零〇洞幺一二三四五六七八九", "0001123456789", strict=True))
_COUNTERS = "张个位人口"


def _train_said_aloud(match: re.Match[str]) -> str:
    said, after = match.group("said"), match.group("next")
    if any(unit in said for unit in "十百千"):
        value = to_int(said)
        digits, rest = (str(value), "") if value else ("", said)
    else:
        # Digits read one by one never say 两: G二七六两张 is G276 and a count, and so is the
        # last numeral before a counter (G二七六三张).
        cut = said.find("两") if "两" in said else len(said)
        if after and after in _COUNTERS and cut == len(said) and len(said) > 1:
            cut -= 1
        digits, rest = "".join(_DIGIT_SAID[char] for char in said[:cut]), said[cut:]
    number = match.group("letter") + digits
    if not digits or not is_train_number(number):
        return match.group()
    return number + rest + after


# Train words typed by their sound with one character slipped (坐高贴: 高铁), read as the word.
_TRAIN_WORDS_BY_SOUND = {"gaotie": "高铁", "dongche": "动车"}
_TRAIN_WORD_SLIPPED = re.compile(r"高[^铁]|[^高]铁|动[^车]|[^动]车")


def _train_words_by_sound(text: str) -> str:
    def read(match: re.Match[str]) -> str:
        typed = match.group()
        said = readings(typed)[:1]
        meant = _TRAIN_WORDS_BY_SOUND.get(said[0]) if said else None
        return meant if meant is not None and set(meant) & set(typed) else typed

    return _TRAIN_WORD_SLIPPED.sub(read, text)


_SLEPT_UNTIL = ("睡到", "睡至", "歇到", "补觉到", "休息到")
"""回去睡到中午: the part of the day slept until is no time for the ride."""
# 年会是19号晚上: the event's part of the day, not the ride's.
_EVENT_TIME = re.compile(
    r"(?:年会|婚礼|喜酒|考试|面试|演出|演唱会|比赛|活动|典礼|聚会)(?:是|定在)[^，,。去到回走从]{0,8}$"
)
_AIR_TICKET = re.compile(r"飞机票|机票")
# 别给我推荐火车了, 坐火车太折腾了: the train waved off, no train asked for.
_TRAIN_WAVED_OFF = re.compile(
    r"(?:别|不要|不用)(?:给我|帮我)?(?:推荐|安排|查|找|订)?(?:火车|高铁|动车)了?"
    r"|坐?(?:火车|高铁|动车)太(?:折腾|慢|累|麻烦|远|久)了?"
)
_BACK_DAY_IS = re.compile(
    r"(?:(?:回来|回程|返程)(?:的)?(?:那天|那一天|日子|时间|日期)?(?:是|定在|就是)"
    # 回程17号下午, 返程：周日晚上8点以后: the ride home named, then its day and hours.
    r"|(?P<cue>回程|返程)[:：]?)\s*"
    r"(?P<day>" + DAY_SAID + r")(?P<hours>(?:早上|上午|中午|下午|傍晚|晚上)?"
    r"(?:[0-9一二两三四五六七八九十]{1,3}点半?(?:以后|之后|后|以前|之前|前|左右)?)?)"
    # 回程周日中午前到青岛: hours before a deadline stay with it (no 回来 put between).
    r"(?!\s*(?:之前|以前|前|到|抵达))"
)
_COMING_BACK = re.compile(r"回来|回程|返程")
_HOME_TO_REST = re.compile(r"回(?:去|家)(?=睡|补觉|休息|歇)")
_GOING_HOME_TO_SEE = re.compile(r"(?:回去|回家)(?=看看|看望|探望|陪陪|陪一下|过年|过节|探亲)")
_BACK_TO_SCHOOL_AFTER = re.compile(r"(?<=[再就])(?:回学校|返校|回宿舍)(?=[，,。\s]|$|[买坐要])")
_THAT_DAY = re.compile(r"(?<=[号日节旦夕])当天|(?:(?<=元旦)|(?<=除夕)|(?<=春节)|(?<=圣诞))那天")


# sh to hz, bj to tj: two cities' initials with the English route word between them.
_INITIALS_TO = re.compile(
    r"(?<![A-Za-z])(?P<a>" + "|".join(CITY_ABBREVIATIONS) + r")\s+to\s+"
    r"(?P<b>" + "|".join(CITY_ABBREVIATIONS) + r")(?![A-Za-z])",
    re.IGNORECASE,
)


_BACK_TO_INITIALS = re.compile(
    r"回\s*(?P<a>" + "|".join(CITY_ABBREVIATIONS) + r")(?![A-Za-z])", re.IGNORECASE
)


# Places of Taiwan, which no train here reaches (台北到上海有冇火车).
_TAIWAN = re.compile(r"台湾|台北|高雄|台中|台南|新竹|花莲|台东|嘉义|桃园机场|基隆|屏东")
_BOARDED = r"(?:再)?(?P<ride>坐车|坐火车|搭车|上车|坐高铁|坐动车)"
_BOARD_THERE = re.compile(r"(?:去|到)(?P<at>[\u4e00-\u9fff]{2,4}?)" + _BOARDED + r"(?:去|到)")
# 下了班直接去虹桥站坐车回杭州: the station gone to is where the ride home is boarded.
_BOARD_THERE_HOME = re.compile(r"(?:去|到)(?P<at>[\u4e00-\u9fff]{2,5}?站)" + _BOARDED + r"(?=回)")
# sailimu hu（赛里木湖）: a name typed in Latin letters, then in characters: the characters.
_LATIN_THEN_GLOSSED = re.compile(
    r"(?<![A-Za-z])[A-Za-z][A-Za-z' ]{1,30}?\s*[（(](?P<name>[\u4e00-\u9fff]{2,8})[)）]"
)
# 住两个晚上, 待三个晚上, 住两晚上: so many nights.
_NIGHTS_AS_EVENINGS = re.compile(
    r"(?:(?<=[一二两三四五六七八九十0-9])\s*个\s*|(?<=[住待呆玩耍][一二两三四五六七八九十0-9]))"
    r"晚上(?![0-9一二三四五六七八九十点])"
)
_COMMUTE_AFTER_PLACE = re.compile(r"(?<=[\u4e00-\u9fff])通勤")
_COUNTED_ON = re.compile(r"(?<=[人生孩娃])加上(?=[一两二三四五六七八九十俩仨1-9]\s*(?:个|位|名))")
_IN_THE_PART = re.compile(r"\b(?:in|during) the (?=(?:early )?morning|afternoon|evening)", re.I)
# A seat class or train kind typed in pinyin inside a Chinese sentence (ruanwo下铺).
_CLASS_IN_PINYIN = {
    "ruanwo": "软卧",
    "yingwo": "硬卧",
    "yingzuo": "硬座",
    "wuzuo": "无座",
    "erdengzuo": "二等座",
    "yidengzuo": "一等座",
    "shangwuzuo": "商务座",
    "xiapu": "下铺",
    "zhongpu": "中铺",
    "shangpu": "上铺",
    "gaotie": "高铁",
    "dongche": "动车",
}
_CLASS_IN_PINYIN_RE = re.compile(
    r"(?<![a-z])(?:" + "|".join(sorted(_CLASS_IN_PINYIN, key=len, reverse=True)) + r")(?![a-z])",
    re.IGNORECASE,
)
# 我们两家人一起去: two families, not a place called 两家.
_FAMILIES = re.compile(r"(?P<n>[两三四五])家人")
_RIDE_HOME_WORDS = re.compile(r"(?<=[上午后中晚天日])(?:再|就)?坐(?:车|火车)(?=回)")
_ONE_TRIP_TO = re.compile(r"(?<=[去到回跑])(?:一趟|一次|一下|趟)(?=[\u4e00-\u9fff]{2})")
_PARTICLE_AFTER_DAY = re.compile(
    r"(?:(?<=[周期拜][一二三四五六日天])|(?<=[今明后]天))[啊呀哦喔嘛啦哈](?=\s*[，,。！!？?\s])"
)


@functools.cache
def _sights_by_spelling() -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """The places with no station of their own (乌镇, 周庄, 九寨沟) by their usual pinyin, five
    letters or more and spelling no station, and a pattern finding them as words."""
    stations = {s.pinyin.lower() for s in default_directory() if s.pinyin}
    spelt: dict[str, str] = {}
    for place in NON_STATION_PLACES:
        said = readings(place)[:1]
        if said and len(said[0]) >= 5 and said[0] not in stations:
            spelt.setdefault(said[0], place)
    if not spelt:
        return None, spelt
    words = "|".join(sorted(spelt, key=len, reverse=True))
    return re.compile(r"(?<![A-Za-z])(?:" + words + r")(?![A-Za-z])", re.IGNORECASE), spelt


def _spelt_sights(text: str) -> str:
    if not any(c.isascii() and c.isalpha() for c in text):
        return text
    pattern, spelt = _sights_by_spelling()
    if pattern is None:
        return text
    return pattern.sub(lambda m: spelt[m.group().lower()], text)


def normalise_text(text: str) -> str:
    """NFKC (full-width digits and letters to ASCII) and trimmed; a route typed in pinyin
    (mingtian cong chengdu qu chongqing) has its route and time words as characters (the
    place names stay pinyin: the station table reads them)."""
    text = as_mandarin(unicodedata.normalize("NFKC", text).strip())
    text = _ARROWS.sub("→", text)
    text = _INITIALS_TO.sub(lambda m: f"{m.group('a')}→{m.group('b')}", text)
    # Sun back to SH (回SH): home by its initials.
    text = _BACK_TO_INITIALS.sub(lambda m: "回" + CITY_ABBREVIATIONS[m.group("a").lower()], text)
    # 元旦当天, 25号当天, 元旦那天: that day by its name; the 当天 adds nothing (no "same day"
    # as the trip's first).
    text = _THAT_DAY.sub("", text)
    # 31号从西安回宝鸡 元旦那天再回学校: back to school after the trip home is the ride home.
    text = _BACK_TO_SCHOOL_AFTER.sub("回来", text)
    text = _HOME_TO_REST.sub("先", text)  # 回去睡到中午: rest before the ride, no ride home
    text = _GOING_HOME_TO_SEE.sub("", text)  # 回去看看老人: why one goes (home), no ride back
    # 回来那天是周日: 周日回来; 回程周四，坐一等座 keeps 回程 for what the clause says of it.
    text = _BACK_DAY_IS.sub(
        lambda m: (m.group("cue") or "") + m.group("day") + m.group("hours") + "回来", text
    )
    text = _SPACED_TRAIN.sub(r"\1\2", text)
    # 坐夜车省一晚住宿: the night saved on a hotel is the night train itself, not a stay and
    # not a hotel question.
    text = _LODGING_SAVED.sub("坐夜车", text)
    # 不是礼拜五啊，是礼拜六: a particle after the day adds nothing to it.
    text = _PARTICLE_AFTER_DAY.sub("", text)
    text = _ONE_TRIP_TO.sub("", text)  # 去一趟西安: 去西安
    text = _RIDE_HOME_WORDS.sub("", text)  # 周日晚上再坐车回昆明: 周日晚上回昆明
    text = _FAMILIES.sub(r"\g<n>个家庭", text)
    # 过关去珠海坐车去桂林: the place gone to first is where the train is boarded.
    text = _BOARD_THERE.sub(r"从\g<at>\g<ride>去", text)
    text = _BOARD_THERE_HOME.sub(r"从\g<at>\g<ride>", text)
    text = _LATIN_THEN_GLOSSED.sub(r"\g<name>", text)
    text = _spelt_sights(text)  # shanghai to wuzhen: 乌镇, a place with no station of its own
    text = text.replace("直达特快", "直特")  # the Z trains by name (neither 特快 nor 直达)
    # 天津到北京南通勤: commuting, said right after a station (no 南通 in it).
    text = _COMMUTE_AFTER_PLACE.sub(" 通勤", text)
    text = _COUNTED_ON.sub("加", text)  # 两个大人加上两个老人: 加 (no stop added)
    text = _IN_THE_PART.sub("", text)  # back in the evening: back evening (the ride's hours)
    text = _NIGHTS_AS_EVENINGS.sub("晚", text)
    text = _CLASS_IN_PINYIN_RE.sub(lambda m: _CLASS_IN_PINYIN[m.group().lower()], text)
    text = self_corrected(text)  # 周五，不对，周六: the day said last
    text = _SHORT_EVENING.sub("晚上", text)
    text = _AFTERNOON_BY_SOUND.sub("下午", text)
    text = _FORMAL_NOON.sub("中午", text)
    text = _NIGHT_RIDES_REFUSED.sub("夜车", text)
    text = _NIGHT_RIDES_REFUSED_FIRST.sub("不坐夜车", text)
    text = _O_CLOCK.sub("点", text)  # 八点钟之前: 八点之前
    text = _HOUR_ONWARD.sub("以后", text)
    text = _AGE_LIST.sub(
        lambda m: "、".join(a + "岁" for a in re.split(r"\s*[、,，/]\s*", m.group("ages"))), text
    )
    text = _HOME_STATION_LATER.sub(r"回\g<city>\g<dir>\g<mid>", text)
    text = _BEFORE_HOUR_REFUSED.sub("以后的", text)
    text = _REFUSED_BEFORE_HOUR.sub(r"\g<h>以后", text)  # 但别6点之前: after six
    # 估计7点才到得了火车站: the train is boarded after the hour the station is reached.
    text = _AT_STATION_BY.sub(r"\g<h>以后出发", text)
    text = _NIGHT_RESTLESS.sub("", text)
    text = _ON_OFF.sub(r"从\g<a>上车到\g<b>下车", text)  # 乌鲁木齐上 吐鲁番下
    text = _ONWARD_FROM_FIRST_STOP.sub(r"\g<head>", text)
    text = _HOMEWARD.sub("回来", text)  # 周日往回走: the ride home, not a place 回走
    text = text.replace("明后天", "明天或后天")  # either day
    text = _SPOKEN_TRAIN.sub(_train_said_aloud, text)
    text = _TWO_COUNTS.sub(_first_of_two, text)
    text = _train_words_by_sound(text)
    if (
        _PINYIN_ROUTE.search(text)
        or _PINYIN_CUES.search(text)
        # g1 mingtian hai you piao ma: a train named, its day typed in pinyin.
        or (_TRAIN_NUMBER.search(text) and _PINYIN_DAY_WORD.search(text))
        # mingtian shanghai dao suzhou 早上7点走: a day and a route in pinyin, words beside them.
        or (_PINYIN_DAY_WORD.search(text) and _PINYIN_PAIR.search(text))
        # nanjing -> hefei, wo men 3 ge tongxue: a pinyin pair and pinyin words beside it.
        or (_PINYIN_PAIR.search(text) and len(_PINYIN_WORD.findall(text)) >= 2)
    ):
        text = _PINYIN_DAY_OF_MONTH.sub(r"\1号", text)
        text = pinyin_heads(text)  # 2 ren
        text = _PINYIN_WORD.sub(lambda m: _PINYIN_SPELT[_spelt(m.group())], text)
        text = _PINYIN_CLOCK.sub(_pinyin_clock, text)
    elif _PINYIN_DAY_WORD.search(text) and re.search(r"[从去到回]", text):
        # xia zhou liu 我和老婆…从hangzhou去huangshan: a day typed in pinyin in a Chinese
        # sentence (its places are read as pinyin anyway).
        text = _PINYIN_DAY_OF_MONTH.sub(r"\1号", text)
        text = _PINYIN_DAY_WORD.sub(lambda m: _PINYIN_SPELT.get(_spelt(m.group()), m.group()), text)
    elif _ALL_LATIN.fullmatch(text) and _pinyin_turn(text):
        text = _PINYIN_CLOCK.sub(_pinyin_clock, text)  # ba dian is 八点 before ba is 吧
        text = _PINYIN_TURN_WORD.sub(lambda m: _PINYIN_TURN_SPELT[_spelt(m.group())], text)
        text = _SPACE_BETWEEN_WORDS.sub("", text)
    return party.counts_before_names(text)


# 周五下班后 said on a Friday: the weekday said right before today's work is done is today.
_WEEKDAY_THEN_WORK_DONE = re.compile(
    r"(?<![上下这本])(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])\s*(?:晚上)?"
    r"(?:[0-9一二两三四五六七八九十]{1,2}点半?)?(?:下班|下了班|收工|下工)"
)


def _after_todays_work(
    dates: DateFacts, text: str, today: dt.date, leave: TimeWindow | None
) -> DateFacts:
    """A bare weekday read as next week's because it is today's: said with today's work
    ending (周五下班后 on a Friday), it is today."""
    said = _WEEKDAY_THEN_WORK_DONE.search(text)
    if (
        said is None
        or leave is None
        or dates.start != today + dt.timedelta(days=7)
        or WEEKDAY_NUMBERS[said.group("wd")] != today.weekday()
    ):
        return dates
    end = dates.end - dt.timedelta(days=7) if dates.end is not None else None
    return dataclasses.replace(dates, start=today, end=end)


def refused_trains(text: str) -> list[str]:
    """The train numbers `text` turns down (算了不坐G82了), upper-cased."""
    return [(m.group("before") or m.group("after")).upper() for m in _TRAIN_REFUSED.finditer(text)]


def parse_offline(text: str, today: dt.date, directory: StationDirectory) -> TravelIntent:
    """Parse `text` into a `TravelIntent` with rules only (pure, deterministic, sync)."""
    text = normalise_text(text)
    lower = text.lower()
    buf = _Text(text)
    fields: dict[str, object] = {"action": _action(lower)}

    numbers: list[str] = []
    invalid: list[str] = []
    refused = set(refused_trains(text))
    for match in _TRAIN_NUMBER.finditer(text):
        token = match.group(1).upper()
        if token in refused:
            buf.mask(match.start(), match.end())
            continue
        (numbers if is_train_number(token) else invalid).append(token)
        buf.mask(match.start(), match.end())
    fields["train_numbers"] = list(dict.fromkeys(numbers))
    fields["invalid_train_numbers"] = list(dict.fromkeys(invalid))

    route = extract_route(buf.masked, directory)
    rides_after = _onward_clauses(buf.masked, directory)
    if rides_after:
        # 到了转飞机去三亚, 帮我约个车到南京南: a ride of another kind after the train, with
        # its own place; when the rest of the text is a whole trip, that trip is the train's.
        beside = buf.masked
        for start, end in rides_after:
            beside = beside[:start] + MASK * (end - start) + beside[end:]
        train_route = extract_route(beside, directory)
        boarding = _boarding_reached(buf.masked, rides_after, train_route, directory)
        if boarding is not None:
            # 打车到南京南，坐高铁去上海: the station the ride reaches is where the train starts.
            train_route = dataclasses.replace(train_route, origin=boarding)
        if train_route.origin and train_route.destination:
            route = train_route
            for start, end in _ride_spans_but_its_day(buf.masked, rides_after, today):
                buf.mask(start, end)
        else:
            rides_after = []
    ends = {name for name in (route.origin, route.destination) if name}
    idle = [s for s in route.via if s.city in ends and s.nights is None and not s.through]
    if idle:
        # 在义乌做小工…回遵义: where one is is the origin, no stop of the trip (先在广州玩一天,
        # a stay there, still is one).
        route = dataclasses.replace(route, via=[s for s in route.via if s not in idle])
    for start, end in route.spans:
        buf.mask(start, end)
    fields.update(
        origin=_as_station(route.origin, text, directory),
        destination=_as_station(route.destination, text, directory),
        destination_text=route.destination_text,
        destination_alternatives=[
            name for name in route.alternatives if name not in (route.destination, route.origin)
        ],
        via=route.via,
        return_trip=route.return_trip,
    )
    if route.destination_text:
        at = buf.masked.find(route.destination_text)
        if at >= 0:
            buf.mask(at, at + len(route.destination_text))
    # 在天津开完会要回北京: the ride home is the trip itself (the route said so), no return.
    no_return = _NO_RETURN.search(lower) is not None or route.return_trip is False
    if no_return:
        fields["return_trip"] = False
    elif route.return_trip is None and _ROUND_TRIP_SAID.search(lower):
        fields["return_trip"] = True

    for allowed in _DAY_BEFORE_ALLOWED.finditer(buf.masked):
        # 前一天晚上走也行: a permission, not the plan; the day itself is planned first.
        buf.mask(allowed.start(), allowed.end())
    for refunded in _REFUNDED_TICKET.finditer(buf.masked):
        buf.mask(refunded.start(), refunded.end())  # 退了今天的票: not the day of the trip
    for night in _NIGHT_ON_BOARD.finditer(buf.masked):
        buf.mask(night.start(), night.end())  # 不要晚上睡车上: the night refused, no evening hour
    same_day = _SAME_DAY_RETURN.search(buf.masked) or _SAME_DAY_LATER.search(buf.masked)
    if (
        same_day
        and same_day.group().endswith("回")
        and buf.masked[same_day.end() : same_day.end() + 1] == MASK
        and not route.return_trip
    ):
        same_day = None  # 当天就回潢川: going home that day, one way (回<the origin> is back)
    if same_day and same_day.re is _SAME_DAY_LATER:
        buf.mask(same_day.start(), same_day.end("day"))
    elif same_day:
        buf.mask(same_day.start(), same_day.end())
    next_day = _next_day_arrival(buf)
    buf.destination = route.destination
    buf.origin = route.origin
    windows = _time_windows(buf)
    early = _AHEAD_OF_TIME.search(buf.masked)
    deadline = windows.get("arrive_window")
    if early and deadline is not None and deadline.start == dt.time(0, 0):
        # 十点的会…提前半小时到: there half an hour before the hour said.
        minutes = _ahead_minutes(early)
        moved = dt.datetime.combine(dt.date.min, deadline.end) - dt.timedelta(minutes=minutes)
        if minutes and moved.date() == dt.date.min:
            label = deadline.label + early.group()
            windows["arrive_window"] = TimeWindow(
                start=dt.time(0, 0), end=moved.time(), label=label
            )
    if route.return_trip is False and "return_window" in windows:
        # 晚上回合肥, 开完会大概五点，从天津回北京: the ride home is the trip, its hour the ride's.
        own = windows.pop("return_window")
        said = windows.get("depart_window")
        # A part of the day said before it (明天下午在天津开会) was the business's: the later wins.
        later = said is None or own.start >= said.start
        windows["depart_window"] = own if later or said is None else narrowed(said, own)
    if buf.arrival_part is not None:
        windows.setdefault("arrive_window", buf.arrival_part)
    if not next_day and _SAME_NIGHT.search(text):
        _deadline_after_leaving(windows, "depart_window", "arrive_window")
        _deadline_after_leaving(windows, "return_window", "return_arrive_window")
    for kind in ("depart_window", "return_window"):
        way = way_to_station_minutes(text, windows.get(kind))
        if way:
            windows[kind] = later_by(windows[kind], way)
    landed = windows.get("depart_window")
    if landed is not None and _LANDING.search(landed.label) and "机场" not in (route.origin or ""):
        # 八点落浦东机场…坐火车去南通: an airport with no station of its own; the train leaves
        # from the city's stations, an hour's ride further on.
        windows["depart_window"] = later_by(landed, AIRPORT_INTO_TOWN_MINUTES)
    for off in _DAY_OFF_SAID.finditer(buf.masked):
        if days_said(buf.masked[off.end() :], today, today):
            # 厂子这周五就放了，周六想回: the day work stops says why; the day said after it is
            # the day of the ride.
            buf.mask(off.start(), off.end())
    dates = extract_dates(buf.masked, today)
    dates = _after_todays_work(dates, text, today, windows.get("depart_window"))
    for start, end in dates.spans:
        buf.mask(start, end)
    if dates.vague and _DAY_UNDECIDED.search(lower):
        # 下周去南京，具体哪天还没定: the week is known, the day is not; ask, do not pick one.
        dates = dataclasses.replace(dates, start=None, end=None, flexible_until=None)
    fields.update(
        date_start=dates.start, date_end=dates.end, flexible_until=dates.flexible_until, **windows
    )
    if not no_return and (
        dates.returning or (dates.end is not None and "return_window" in windows)
    ):
        fields["return_trip"] = True
    elif (
        route.return_trip is False
        and _NO_RETURN.search(lower) is None
        and dates.returning
        and _COMING_BACK.search(lower)
    ):
        # 下了班就回湛江…周日晚上要回来的: going home is the ride out; 回来 on a later day,
        # said outright, brings the traveller back.
        fields["return_trip"] = True
    if same_day and dates.start is not None and not no_return:
        # 周四先去济南住一晚，周五下午在青岛有个会，开完当天晚上就回: that day is the last
        # one said before it (the meeting's), not the day the trip starts.
        before = [
            day
            for _, _, day in days_said(text[: same_day.start()], today, today)
            if day >= dates.start
        ]
        back = before[-1] if before else dates.start
        fields.update(date_end=back, return_trip=True)
        event = windows.get("arrive_window")
        if event is not None and "return_window" not in windows and _AFTER_IT.search(lower):
            # 晚上8点的演唱会…看完当晚回: the ride home leaves once it is over.
            over = min(event.end.hour * 60 + event.end.minute + EVENT_HOURS * 60, 23 * 60 + 59)
            fields["return_window"] = TimeWindow(
                start=dt.time(over // 60, over % 60), end=END_OF_DAY, label="结束后"
            )
    night_train = _NIGHT_TRAIN.search(buf.masked)
    if night_train and not windows and not wishes.no_overnight(lower):
        # 坐夜车 / 睡一觉就到: leave in the evening, wake up there the next morning.
        fields.update(depart_window=NIGHT_TRAIN_DEPART, arrive_window=NIGHT_TRAIN_ARRIVE)
        next_day = True
        buf.mask(night_train.start(), night_train.end())
    if next_day and dates.start is not None:
        fields["arrive_date"] = dates.start + dt.timedelta(days=1)
    elif dates.arrive is not None:
        fields["arrive_date"] = dates.arrive
    if (
        dates.start is None
        and dates.end is None
        and route.origin is not None
        and route.destination is not None
        and today_implied(windows.values(), windows.get("depart_window"))
    ):
        # 下午五点前必须到北京南，从天津出发, 晚上从苏州去杭州: a whole trip with an hour or a part
        # of the day to leave and no day is today's (a chat turn with only an hour, "九点以后",
        # keeps the trip's own day).
        fields["date_start"] = today

    for age in party.AGE.finditer(buf.masked):
        buf.mask(age.start(), age.end())  # 14周岁 is an age, not fourteen weeks
    each = wishes.stop_nights(buf.masked)
    if each is not None:
        buf.mask(each[1], each[2])
    days, nights = _duration(buf)
    if route.final_nights is not None:
        nights = route.final_nights
    if each is not None:
        # 每个城市待两天: every stop without its own stay, the last one too.
        fields["stop_nights"] = each[0]
        fields["via"] = [
            stop
            if stop.nights is not None or stop.through
            else stop.model_copy(update={"nights": each[0]})
            for stop in route.via
        ]
        if nights is None:
            nights = each[0]
    if dates.start is not None and dates.end is not None and days is not None and nights is None:
        # 开两天，周三开完会…回来: the day home said outright decides the trip's length.
        days = (dates.end - dates.start).days + 1
    fields.update(days=days, nights=nights)
    fields["via"] = _each_stop_once(_stop_nights_by_day(buf.original, today, fields, dates.spans))
    back_day = _only_day_is_the_way_home(buf, dates, fields)
    if back_day is not None and (days or nights):
        # 去上海玩三天，周日回来: the day said is the way home's; the trip starts so many days
        # before it (玩三天: Friday; 住两晚: Friday too).
        length = nights if nights else (days or 1) - 1
        fields.update(
            date_start=back_day - dt.timedelta(days=length), date_end=back_day, return_trip=True
        )
    leaves = fields["date_start"]
    home_after = _HOME_AFTER_IT.search(buf.masked)
    if home_after is not None and _heads_to_destination(buf, home_after.end()):
        home_after = None  # 看完病从郑州回信阳: going home is the ride out, no ride back
    if (
        home_after is not None
        and "return_window" in windows
        and _set_off_at(buf.original, windows["return_window"].label)
        and _the_ride_is_the_way_back(buf, home_after, route)
    ):
        # 南宁东到北海的 开完会赶回去 下午3点以后出发: the meeting is where the ride starts; the
        # ride said is the way back, one way, its hours the ride's own.
        home_after = None
        no_return = True
        fields["return_trip"] = False
        if "return_window" in windows:
            fields["depart_window"] = windows.pop("return_window")
            fields["return_window"] = None
    if (
        leaves is not None
        and fields["date_end"] is None
        and days is None
        and nights is None
        and not no_return
        and home_after is not None
    ):
        fields.update(date_end=leaves, return_trip=True)  # back the day of the business
    if (
        "return_window" in windows
        and leaves is not None
        and fields["date_end"] is None
        and not no_return
    ):
        if days is None and nights is None:
            # 晚上回来 with no other day and no stay: back the same day.
            fields.update(date_end=leaves, return_trip=True)
        else:
            fields["return_trip"] = True  # 住一晚…上午回: the stay gives the day back

    if route.via and nights is None and isinstance(leaves, dt.date):
        onward = leaves + dt.timedelta(days=sum(stop.planned_nights for stop in route.via))
        if fields["date_end"] == onward:
            # 周六去南京住一晚，周日去扬州，周日晚上回上海: home the day the last stop is
            # reached, no night there.
            fields["nights"] = 0

    heads, grown_ups = _passengers(buf)
    reading = party.read_party(lower, heads, adults_said=grown_ups)
    # A class of 30 is planned whole (`PARTY_ORDERS` says in how many orders it buys); a
    # crowd past the ceiling keeps its trip, read as the largest party (`PARTY_CAPPED`).
    passengers = min(reading.passengers, MAX_PARTY)
    fields.update(
        passengers=passengers,
        students=min(reading.students, passengers),
        children=list(reading.children)[:passengers],
    )
    budget, per_person = _budget(buf)
    if per_person is not None:
        fields.update(budget_per_person=per_person, budget=per_person * passengers)
    else:
        fields["budget"] = budget

    # Word tables read the text with places masked: 经济南 is no 经济 (a wish to save).
    words = buf.masked.lower()
    constraints = read_constraints(words)
    rest = constraints.rest
    fields.update(
        exclude_seat_classes=constraints.exclude_seat_classes,
        exclude_train_types=constraints.exclude_train_types,
        seat_classes=constraints.seat_classes,
        order=constraints.order,
        no_overnight=wishes.no_overnight(lower),
        berth=wishes.berth(lower),
        seat_positions=wishes.seat_positions(lower),
        leisure=wishes.leisure(lower),
        # (待两个小时 at a stop on the way is that stop's: passed through on the day.)
        stay_hours=None if fields.get("via") else wishes.stay_hours(lower),
    )
    if constraints.order is None:
        colloquial = wishes.colloquial_order(rest)
        fields["order"] = colloquial[1] if colloquial else None
    fields["return_order"] = wishes.return_order(rest, ORDER_PHRASES)
    if fields["order"] and not fields["return_order"] and _HOME_TOO_ORDER.search(lower):
        # 回来订23号的 也要早点的: a turn about the ride home, its order said with 也 after it.
        fields.update(return_order=fields["order"], order=None)
    if fields["order"] and not fields["return_order"] and _order_of_day_home(rest, fields, today):
        # 周日那趟越晚越好, said of the day home: the ride home's order, not the outbound's.
        fields.update(return_order=fields["order"], order=None)
    if fields["return_order"] and fields.get("return_trip") is not True and not fields["order"]:
        # 今晚杭州回上海，最晚的车: the ride home is the whole trip, so its order is the ride's.
        fields.update(order=fields["return_order"], return_order=None)
    morning = fields.get("depart_window")
    if (
        ("越早越好" in rest or "最早" in rest)
        and fields["order"] == "earliest"
        and morning in (TIME_WINDOWS["早上"], TIME_WINDOWS["一早"])
    ):
        # 一早…越早越好, 明早最早的一班: the earliest ride of the morning, which starts at five
        # (a 05:38 train is the first of the morning to a traveller; 00:40 is the night
        # before it), the morning only a bound on how late.
        first = dt.time(0, 0) if _AT_DAWN.search(lower) else _MORNING_FROM
        fields["depart_window"] = TimeWindow(start=first, end=morning.end, label="早上")
    if fields["berth"] and not constraints.seat_classes and _seat_class(rest) is None:
        fields["seat_classes"] = list(SLEEPER_SET)  # 下铺: some sleeper, whichever class
    elif (
        _SLEEP_ON_BOARD.search(lower)
        and not constraints.seat_classes
        and _seat_class(rest) is None
        and not fields["no_overnight"]
    ):
        fields["seat_classes"] = list(SLEEPER_SET)  # 睡一觉就到: a berth to sleep in
    # 动车就行 不用高铁: the kind permitted, less the one refused.
    fields["train_types"] = [
        t for t in _train_types(words, rest) if t not in constraints.exclude_train_types
    ]
    if any(phrase in rest for phrase in lexicon.CONVENTIONAL_WISH):
        refused = {*constraints.exclude_train_types, "G", "D", "C"}
        fields["exclude_train_types"] = [t for t in TRAIN_TYPES if t in refused]
    homeward = _RETURN_CLASS.search(rest)
    whole_trip = fields.get("destination") is not None  # a chat turn's is the chat's to place
    if (
        homeward is not None
        and whole_trip
        and (fields.get("return_trip") or fields.get("date_end"))
    ):
        # 周日晚上回 回程要一等座: the class is the ride home's; the ride out names its own.
        named = homeward.group("cls")
        classes = dict(lexicon.SEAT_PHRASES)[named]
        fields["return_seat_classes"] = list(classes)
        at = homeward.start("cls")
        rest = rest[:at] + MASK * len(named) + rest[homeward.end("cls") :]
    alternatives = _seat_alternatives(rest)
    if alternatives and not constraints.seat_classes:
        fields["seat_classes"] = alternatives  # 软卧没有就硬卧: either class, not the first only
    else:
        fields["seat_class"] = _seat_class(rest)
    fields["preferences"] = [
        tag
        for tag in _preferences(rest)
        if tag != "只此车次" or fields["train_numbers"]  # 硬卧最好，没有就算了: no train named
    ]

    said_home = fields.get("date_end") is not None  # before a stay derives one
    intent = with_derived_dates(with_end_said(TravelIntent.model_validate(fields), said_home))
    asked = without_places(without_context(lower), places_named(intent))
    ways = asked
    for start, end in rides_after:
        if _reaches_only_the_way(text[start:end], directory):
            continue  # 帮我们约个大巴: the coach is the ask itself, not a ride after the train
        ways = ways[:start] + MASK * (end - start) + ways[end:]
        if not _ASKS.search(asked[start:end]):
            asked = ways[:start] + asked[end:]  # 到了转飞机去三亚: told, not asked for
    topics = scope_topics(asked)
    kind = _kind(asked, intent, topics, rest, one_city=_one_city(intent, directory), ways=ways)
    if _TAIWAN.search(lower) and (intent.origin is None or intent.destination is None):
        # 台北到上海有冇火车, 台北到高雄: no train crosses the strait, and Taiwan's railways
        # sell no ticket here: declined, not asked where from.
        kind, topics = "out_of_scope", list(dict.fromkeys([*topics, "other"]))
    intent = intent.model_copy(update={"kind": kind, "out_of_scope_topics": topics})
    missing = missing_fields(intent)
    confidence = 0.9 if kind == "out_of_scope" else 0.95 - 0.15 * len(missing)
    if dates.vague:
        confidence -= 0.1
    return intent.model_copy(update={"missing": missing, "confidence": round(confidence, 2)})


def _ride_spans_but_its_day(
    text: str, rides: list[tuple[int, int]], today: dt.date
) -> list[tuple[int, int]]:
    """The spans of the rides after the train to mask; when the rest of the text says no day,
    the day said in a ride is left (赶周三晚上去烟台的船…当天走, 14号下午的飞机从浦东飞东京):
    the train is taken for it, so that day is the train's."""
    days = [(begin, end) for begin, end, _ in days_said(text, today, today)]
    inside = [d for d in days if any(a <= d[0] and d[1] <= b for a, b in rides)]
    if not inside or len(inside) < len(days):
        return rides
    kept: list[tuple[int, int]] = []
    for start, end in rides:
        at = start
        for begin, finish in sorted(d for d in inside if start <= d[0] < end):
            kept.append((at, begin))
            at = finish
        kept.append((at, end))
    return [(a, b) for a, b in kept if b > a]


def _stop_nights_by_day(
    text: str, today: dt.date, fields: dict[str, Any], taken: list[tuple[int, int]]
) -> list[ViaStop]:
    """The stops with the nights their next ride's day gives them (周一从上海去苏州，周三去
    无锡: two nights in 苏州), where no stay was said there: a day said between a stop and the
    next place the trip goes on to, other than the trip's own first and last (`taken`)."""
    stops: list[ViaStop] = list(fields.get("via") or [])
    start, end = fields.get("date_start"), fields.get("date_end")
    if len(stops) != 1 or start is None or stops[0].nights is not None or stops[0].through:
        return stops
    stop, destination = stops[0], fields.get("destination")
    at, onward = text.find(stop.city), text.find(destination) if destination else -1
    if at < 0 or onward <= at:
        return stops
    days = [
        day
        for begin, finish, day in days_said(text, today, start)
        if at < begin < onward and (begin, finish) not in taken
    ]
    if len(days) != 1:
        return stops
    nights = (days[0] - start).days
    if nights < 1 or (end is not None and days[0] >= end):
        return stops
    return [stop.model_copy(update={"nights": nights})]


def _one_city(intent: TravelIntent, directory: StationDirectory) -> bool:
    """Both ends of the ride lie in one city (上海虹桥 and 上海)."""
    if intent.origin is None or intent.destination is None:
        return False

    def city(name: str) -> str:
        station = directory.by_name(name)
        return station.city if station is not None else name

    return city(intent.origin) == city(intent.destination)


def _as_station(place: str | None, text: str, directory: StationDirectory) -> str | None:
    """A city said as its station (到天津站, 北京站出发) is that station alone: "天津站", which
    the directory reads as the station 天津, not every station of the city."""
    if place is None or place not in directory.cities() or directory.by_name(place) is None:
        return place
    return (
        place + "站"
        # 南京南或者南京站: one of either station said, the city (places._either_station).
        if re.search(
            r"(?<!或者)(?<!或)(?<!、)(?<!还是)" + re.escape(place) + r"(?:火车)?站(?!台|前|附近)",
            text,
        )
        else place
    )


_AHEAD_OF_TIME = re.compile(
    r"提前(?:(?P<half>半个?小时|半个钟头?)|(?P<h>[0-9一二两三]|一个)\s*(?:个)?(?:小时|钟头)"
    r"|(?P<m>[0-9]{1,2}|十|十五|二十|三十|四十|四十五)\s*分钟?)(?:左右)?(?:到|赶到|抵达|就到)"
)


def _ahead_minutes(match: re.Match[str]) -> int:
    """The minutes of 提前半小时到 / 提前1小时到 / 提前20分钟到."""
    if match.group("half"):
        return 30
    if match.group("h"):
        return 60 * (1 if match.group("h") == "一个" else to_int(match.group("h")) or 0)
    return to_int(match.group("m")) or 0


def _next_day_arrival(buf: _Text) -> bool:
    """第二天早上到: the outbound ride arrives the next day (not a return); consumes the words."""
    for match in _NEXT_DAY.finditer(buf.masked):
        tail = buf.masked[match.end() : match.end() + 8]
        period = _PERIOD_RE.match(tail)
        rest = tail[period.end() :] if period else tail
        clock = _CLOCK_AT.match(rest)
        if clock:
            rest = rest[clock.end() :]
        if _ARRIVE_AFTER.match(rest):
            buf.mask(match.start(), match.end())
            return True
        # 到了第二天早上就行, 到站次日上午也行: the arrival said before its day, and the
        # part of the day after it is the arrival's.
        before = buf.masked[max(0, match.start() - 3) : match.start()]
        if _ARRIVED_BEFORE.search(before) and not _RETURN_AFTER.match(rest):
            if period and not clock:
                label = dict(_PERIODS)[period.group().lower()]
                at = match.end() + period.end()
                buf.mask(match.start(), at)
                buf.arrival_part = TIME_WINDOWS[label]
            else:
                buf.mask(match.start(), match.end())
            return True
    return False


_BACK_AT = re.compile(
    r"^\s*(?:前|以前|之前)?\s*(?:最好|一定|务必)?\s*(?:能|可以|就|得|要|必须|需要|须)?\s*(?:赶)?回到"
)
"""What follows a time when it is the deadline of a ride back (中午前回到上海, 八点前能回到家)."""
_ARRIVED_BEFORE = re.compile(r"(?:到了|到达|抵达|到站|到那|到那儿|能到)\s*$")


def scope_topic(lower_text: str) -> str | None:
    """The first out-of-scope topic the text mentions, if any."""
    lower_text = without_context(lower_text)
    for topic, words in lexicon.OUT_OF_SCOPE_TOPICS.items():
        if any(word in lower_text for word in words):
            return topic
    return None


def _action(lower: str) -> str:
    if any(cue in lower for cue in lexicon.UPDATE_CUES):
        return "update"
    if any(cue in lower for cue in lexicon.APPEND_CUES):
        return "append"
    return "create"


def _set_off_at(text: str, label: str) -> bool:
    """True when the hours `label` says are followed by setting off (下午3点以后出发)."""
    at = text.find(label)
    return (
        at >= 0
        and re.match(r"\s*(?:的车)?\s*(?:出发|走|发车|动身)", text[at + len(label) :]) is not None
    )


def _the_ride_is_the_way_back(buf: _Text, home: re.Match[str], route: Route) -> bool:
    """True when 回去 after the business (开完会赶回去) names no place and the route was said
    whole with 到 (南宁东到北海): the ride said is that way back, and nothing else in the
    text goes anywhere (去, 往返, 回来 …)."""
    said = home.group() + buf.masked[home.end() : home.end() + 1]
    if not (said.endswith("回去") and route.origin and route.destination):
        return False
    rest = buf.original.replace(said, "")
    return _AWAY_OR_BACK.search(rest) is None


def _heads_to_destination(buf: _Text, at: int) -> bool:
    """True when the 回 ending at `at` goes to the trip's destination (回吉林市 with 吉林 the
    destination): the ride there, one way home, not the ride back."""
    if not buf.destination:
        return False
    rest = re.sub(r"^(?:到|老家|家)+", "", buf.original[at : at + 12])
    return rest.startswith(buf.destination)


def _going_home_is_the_trip(buf: _Text) -> bool:
    """True when the trip itself goes home (从南京回合肥, or 南京到合肥 with no ride back said
    anywhere): 回家 after a time of day is that ride, not a second one."""
    if not buf.destination:
        return False
    if f"回{buf.destination}" in buf.original or "回老家" in buf.original:
        return True
    return _AWAY_OR_BACK.search(buf.original) is None


_AWAY_OR_BACK = re.compile(r"去|来回|往返|回来|回程|返程|返回|再回|回去")


_SETS_OFF = re.compile(r"站?(?:出发|走|动身|发车|上车)")


def _reaches_origin(buf: _Text, at: int) -> bool:
    """True when the place right after `at` is where the trip begins, and not where it goes."""
    if not buf.origin or buf.origin == buf.destination:
        return False
    rest = buf.original[at : at + 12]
    if not rest.startswith(buf.origin) or _SETS_OFF.match(rest, len(buf.origin)):
        return False  # 下午三点前得到 北京南出发: the place after the pause is where one leaves
    return not (buf.destination and buf.destination.startswith(buf.origin))


def _back_to_origin_said(buf: _Text, at: int) -> bool:
    """True when the ride back to where the trip begins is said before `at` (当天回宁波, from
    宁波): home is there, so a deadline to be home is that ride's."""
    return bool(buf.origin) and f"回{buf.origin}" in buf.original[:at]


def _window_kind(buf: _Text, end: int, start: int | None = None) -> str:
    after = buf.masked[end : end + 10]
    back = _BACK_AT.match(after)
    if back:
        # 第二天中午前回到上海: back where the trip began by then, the ride home's deadline;
        # 中午前回到成都 with 成都 the destination: the ride there is the way home.
        there = _heads_to_destination(buf, end + back.end() - 1)
        return "arrive_window" if there else "return_arrive_window"
    cue = _ARRIVE_AFTER.match(after)
    if cue:
        # 周日回来，晚上九点前到 / 十点前到家: a deadline said of the ride home; so is one to
        # be back where the trip began (周日晚上回 11点前得到杭州, from 杭州).
        home_cue = _RETURN_CUE.search(buf.original[: start if start is not None else end])
        if home_cue and not (home_cue.group() == "回家" and _going_home_is_the_trip(buf)):
            # (考完试19号回家 杭州东到温州南 中午之前到家: the trip goes home; the ride's.)
            return "return_arrive_window"
        if _reaches_origin(buf, end + cue.end()):
            return "return_arrive_window"
        if after[cue.end() :].startswith("家") and _back_to_origin_said(buf, start or end):
            return "return_arrive_window"  # 当天回宁波，晚上八点前要到家 (from 宁波)
        return "arrive_window"
    before = buf.masked[max(0, (start or 0) - 8) : start or 0].rstrip(MASK) if start else ""
    if start and not _RETURN_BEFORE.search(before):
        # 回来那趟不要太早咧，十点以后走: the hour said after a loose wish of the ride home,
        # in the next clause, is that ride's too.
        loose = _LOOSE_SAID_BEFORE.search(buf.masked[max(0, start - 16) : start])
        if loose:
            before = loose.group("head")
    home = _RETURN_AFTER.match(after)
    if home and _heads_to_destination(buf, end + home.end()):
        home = None  # 当天晚上回吉林市，从长春走: going home is the ride out, no ride back
    if home and home.group().endswith("回家") and _going_home_is_the_trip(buf):
        home = None  # 周五下了课就回家，从南京回合肥: the way home is the ride out
    if home or (before and _RETURN_BEFORE.search(before)):
        return "return_window"
    said = buf.original[max(0, (start or 0) - 4) : start or 0] if start else ""
    if _ARRIVAL_SAID.search(said) and not _DEPART_VERB_AFTER.match(after):
        return "arrive_window"  # 别太晚到，下午三点前: the hour is the arrival's
    return "depart_window"


def _hour_of(period: str | None, hour_text: str, half: str | None) -> dt.time | None:
    hour = to_int(hour_text) if hour_text != "零" else 0
    if hour is None or hour > 24:
        return None
    if period in ("下午", "晚上") and hour < 12:
        hour += 12
    return dt.time(hour % 24, minutes_of(half)) if hour < 24 else END_OF_DAY


def _time_windows(buf: _Text) -> dict[str, TimeWindow]:
    found: list[tuple[int, str, TimeWindow]] = []
    bare: set[int] = set()  # bare hours (两点以后) with no part of the day said near them
    extras = extra_windows(buf.masked, buf.original)
    for extra in extras:
        kind = extra.kind or _window_kind(buf, extra.end, extra.start)
        if kind == "depart_window" and _window_kind(buf, extra.end, extra.start) == "return_window":
            kind = "return_window"  # 周四下班后从长沙回武汉: the hours of the ride home
        # An appointment's hour (十点开会) ranks after any deadline said outright.
        found.append((extra.start + (len(buf.chars) if extra.weak else 0), kind, extra.window))
    for extra in extras:
        buf.mask(extra.start, extra.end)
    for match in _CLOCK_RANGE.finditer(buf.masked):
        period = match.group("period")
        lo = _hour_of(period, match.group("h"), match.group("half"))
        hi = _hour_of(match.group("period2") or period, match.group("h2"), match.group("half2"))
        if lo is None or hi is None or hi <= lo:
            continue
        window = TimeWindow(start=lo, end=hi, label=match.group())
        found.append((match.start(), _window_kind(buf, match.end(), match.start()), window))
        buf.mask(match.start(), match.end())
    for match in _CLOCK.finditer(buf.masked):
        hour = to_int(match.group("h")) if match.group("h") != "零" else 0
        if hour is None or hour > 24:
            continue
        kind = _window_kind(buf, match.end(), match.start())
        period = match.group("period")
        if period is None:  # 下班后…六点以后: the part of the day said before the hour
            arrival = kind in ("arrive_window", "return_arrive_window")
            part = context_period(buf.original, match.start(), arrival)
            if arrival:  # 两点前到: the afternoon's two
                home = kind == "return_arrive_window"
                part = meeting_part(part, hour, buf.original[: match.start()], home=home)
            if part is None and hour < 12:
                bare.add(len(found))
            hour = in_period(part, hour, True)
        elif period in ("下午", "晚上") and hour < 12:
            hour += 12
        bound = dt.time(hour % 24, minutes_of(match.group("half")))
        after = match.group("rel") in ("以后", "之后", "后")
        refused = _CLOCK_REFUSED.match(buf.masked, match.end())
        if refused:
            after = not after
        window = TimeWindow(
            start=bound if after else dt.time(0, 0),
            end=END_OF_DAY if after else bound,
            label=match.group() + (refused.group().strip() if refused else ""),
        )
        found.append((match.start(), kind, window))
        buf.mask(match.start(), match.end())
    for match in _NOON_BOUND.finditer(buf.masked):
        after = match.group("rel") in ("以后", "之后", "后")
        window = TimeWindow(
            start=dt.time(12, 0) if after else dt.time(0, 0),
            end=END_OF_DAY if after else dt.time(12, 0),
            label=match.group(),
        )
        found.append((match.start(), _window_kind(buf, match.end(), match.start()), window))
        buf.mask(match.start(), match.end())
    for match in _LATE_AFTERNOON.finditer(buf.masked):
        # 下午晚点回来: the later part of the afternoon.
        window = TimeWindow(start=dt.time(14, 0), end=dt.time(18, 0), label=match.group())
        found.append((match.start(), _window_kind(buf, match.end(), match.start()), window))
        buf.mask(match.start(), match.end())
    periods = dict(_PERIODS)
    said = list(_PERIOD_RE.finditer(buf.masked))
    # 上午要去医院拿药，下午再走: a part of the day left "then" (再走) is the ride's; the other
    # parts of the day said with it are taken up by something else.
    # 上午要去厂里结工资 只能坐下午的车: so is the part the ride is said to be left with.
    then = [
        m
        for m in said
        if _LEAVE_THEN.match(buf.original, m.end())
        or _ONLY_THEN.search(buf.original, max(0, m.start() - 4), m.start())
    ]
    for match in said:
        if names_a_clock(buf.original, match.end()):
            continue  # 明早九点前: the clock said it
        label = periods[match.group().lower()]
        kind = _window_kind(buf, match.end(), match.start())
        if (
            BUSY_THEN.match(buf.original, match.end())
            or meeting_before_leaving(buf.original, match.start(), match.end())
            or event_part(buf.original, match.start())
            or _EVENT_TIME.search(buf.original[max(0, match.start() - 12) : match.start()])
            or buf.original[max(0, match.start() - 3) : match.start()].endswith(_SLEPT_UNTIL)
        ):
            buf.mask(match.start(), match.end())
            continue
        if then and match not in then and kind == "depart_window":
            buf.mask(match.start(), match.end())
            continue
        if _PERIOD_REFUSED.search(
            buf.original[max(0, match.start() - 7) : match.start()]
        ) or _PERIOD_UNFIT.match(buf.original, match.end()):
            # 不要晚上到, 不想头天晚上过去, 别早上走: the rest of the day, where one is left.
            buf.mask(match.start(), match.end())
            rest = _REFUSED_PERIOD.get(label)
            if rest is not None:
                found.append((match.start(), kind, rest))
            continue
        found.append((match.start(), kind, TIME_WINDOWS[label]))
        # 今晚/明早 also carry a date: leave them for the date pass.
        if match.group() not in ("今晚", "明晚", "明早", "今早", "tonight"):
            buf.mask(match.start(), match.end())
    for at in bare:
        _, kind, window = found[at]
        window = _in_part_said(window, kind, found)
        found[at] = (found[at][0], kind, _small_hour_as_afternoon(window, kind, buf.original))
    windows: dict[str, TimeWindow] = {}
    for _, kind, window in sorted(found, key=lambda f: f[0]):
        # 早上…8点以后: both said of one ride, so the ride meets both (08:00-09:00).
        windows[kind] = narrowed(windows[kind], window) if kind in windows else window
    return windows


_MORNING_SAID = re.compile(r"早|上午|凌晨|中午|天亮|第二天|次日|隔天")


AIRPORT_INTO_TOWN_MINUTES = 60
"""From an airport without a station to a station of its city, on top of leaving the plane."""
_HOME_TOO_ORDER = re.compile(
    r"^\s*(?:回来|回程|返程|回去)[^。！!？?]*?[，,\s]+也(?:要|想|得|是)?[^，,。]{0,4}?(?:早|晚|便宜|快)"
)
_THAT_DAYS_RIDE = re.compile(r"\s*(?:那趟|那班|的那趟|的那班|那天的车|的车)\s*(?:车)?\s*(?:要|就)?")


def _order_of_day_home(rest: str, fields: dict[str, Any], today: dt.date) -> bool:
    """True when the outbound's order is said right after the day home and its ride (周日那趟
    越晚越好, with 周日 the day home): that ride's wish, not the outbound's."""
    start, end = fields.get("date_start"), fields.get("date_end")
    if start is None or end is None or end == start:
        return False
    colloquial = wishes.colloquial_order(rest)
    for _, said_end, day in days_said(rest, today, start):
        ride = _THAT_DAYS_RIDE.match(rest, said_end)
        if day == end and ride and colloquial is not None and colloquial[0] == ride.end():
            return True
    return False


_DAY_UNDECIDED = re.compile(
    r"(?:哪天|哪一天|几号|日子|日期|具体时间|时间)[^，,。；;！!？?]{0,6}?"
    r"(?:没定|没确定|没敲定|未定|不确定|待定|定不下来|说不准|不好说)"
    r"|(?:没定|不确定|说不准|不知道)(?:是)?(?:哪天|哪一天|几号)"
)
"""The day said to be undecided (具体哪天领导还没定, 日子还不确定)."""


_SAME_NIGHT = re.compile(r"(?:别|不要|不想|不能|不)(?:太|那么)晚到|当晚到|当天晚上到")
"""The arrival said to be that same night (别太晚到): no ride through to the next morning."""


def _deadline_after_leaving(windows: dict[str, TimeWindow], leave: str, reach: str) -> None:
    """A bare morning hour to be there by, when the ride leaves after it and is said to arrive
    that night (七点以后出发…别太晚到，最晚十一点前要到): the evening's hour (23:00). With no
    such word (今晚出发，7点前到) it stays the next morning's."""
    depart, arrive = windows.get(leave), windows.get(reach)
    if depart is None or arrive is None or arrive.start != dt.time(0, 0):
        return
    end = arrive.end
    if end.hour >= 12 or end >= depart.start or _MORNING_SAID.search(arrive.label):
        return
    evening = dt.time(end.hour + 12, end.minute)
    if evening > depart.start:
        windows[reach] = TimeWindow(start=arrive.start, end=evening, label=arrive.label)


_LATER_PARTS = ("下午", "晚上")


_SMALL_HOURS_WORDS = re.compile(r"凌晨|半夜|夜里|深夜|早上|早晨|清早|一早|上午|明早|今早")


def _small_hour_as_afternoon(window: TimeWindow, kind: str, text: str) -> TimeWindow:
    """A bare hour from one to five said for leaving (四点以后的动车, 两点前走) with no part
    of the day anywhere in the text is the afternoon's: nobody asks for a train after four
    in the morning without saying 凌晨 or 早上."""
    if kind not in ("depart_window", "return_window") or _SMALL_HOURS_WORDS.search(text):
        return window
    bound = _bound_of(window)
    if not 1 <= bound.hour <= 5 or bound == END_OF_DAY:
        return window
    return _in_the_afternoon(window, bound)


def _bound_of(window: TimeWindow) -> dt.time:
    """The hour a one-sided window was said with (两点以后: 02:00, 两点前: 02:00)."""
    return window.start if window.start != dt.time(0, 0) else window.end


def _in_the_afternoon(window: TimeWindow, bound: dt.time) -> TimeWindow:
    """`window` with its hour `bound` read twelve hours later (两点以后: 14:00 on)."""
    later = dt.time(bound.hour + 12, bound.minute)
    start = later if window.start == bound else window.start
    end = later if window.end == bound else window.end
    return TimeWindow(start=start, end=end, label=window.label)


def _in_part_said(
    window: TimeWindow, kind: str, found: list[tuple[int, str, TimeWindow]]
) -> TimeWindow:
    """A bare hour's `window` read in the afternoon or evening said of the same ride further
    off (后天下午…要不要给她买票啊…两点以后的车: 14:00), when only that reading falls in it."""
    bound = _bound_of(window)
    if bound.hour >= 12 or bound == END_OF_DAY:
        return window
    for _, other_kind, part in found:
        if other_kind != kind or part not in (TIME_WINDOWS[p] for p in _LATER_PARTS):
            continue
        later = dt.time(bound.hour + 12, bound.minute)
        if part.start <= later <= part.end and not part.start <= bound <= part.end:
            return _in_the_afternoon(window, bound)
    return window


def _each_stop_once(via: list[ViaStop]) -> list[ViaStop]:
    """A stop said twice in a row (kunming -> dali -> lijiang … 2 nights in dali) once, where
    it was first said, with the stay said of it."""
    kept: list[ViaStop] = []
    for stop in via:
        if kept and kept[-1].city == stop.city:
            said = kept[-1]
            kept[-1] = said.model_copy(
                update={
                    "nights": said.nights if said.nights is not None else stop.nights,
                    "through": said.through and stop.through,
                }
            )
            continue
        kept.append(stop)
    return kept


def _first(regex: re.Pattern[str], buf: _Text, *groups: str) -> tuple[int | None, ...] | None:
    match = regex.search(buf.masked)
    if not match:
        return None
    values = tuple(to_int(match.group(g)) if match.group(g) else None for g in groups)
    buf.mask(match.start(), match.end())
    return values


def _duration(buf: _Text) -> tuple[int | None, int | None]:
    pair = _first(_DAYS_NIGHTS, buf, "d", "n")
    if pair:
        return pair[0], pair[1]
    days = nights = None
    trip = _first(_DAY_TRIP, buf, "d")
    if trip:
        days = trip[0]
    found = _first(_NIGHTS, buf, "n", "en")
    if found:
        nights = found[0] or found[1]
    if days is None and nights is None:
        week = _WEEKS.search(buf.masked)
        count = to_int(week.group("w") or week.group("en")) if week else None
        if week and _WEEKS_TO_CHOOSE_FROM.search(
            buf.original[max(0, week.start() - 1) : week.end() + 4]
        ):
            count = None  # 这两周哪天都行, 两周内: the days a day is chosen from, no trip length
        if week and count:
            buf.mask(week.start(), week.end())
            if _STAY_BEFORE.search(buf.original[max(0, week.start() - 3) : week.start()]):
                nights = 7 * count  # 住一个礼拜: seven nights there, home on the eighth day
            else:
                days = 7 * count  # 玩一周: seven days, the last one the way home
    if days is None:
        found = _first(_DAYS, buf, "d", "en")
        if found:
            days = found[0] or found[1]
    if days is not None and nights is not None and days <= nights:
        # 在洛阳浪两天住两晚上: the nights slept there say when the ride home is; the days
        # said loosely beside them do not shorten the stay.
        days = nights + 1
    return days, nights


def _only_day_is_the_way_home(
    buf: _Text, dates: DateFacts, fields: dict[str, object]
) -> dt.date | None:
    """The day when the one day the text says is the ride home's (周日回, 周日晚上回来), for a
    whole trip (both ends said, or the stay's nights where it is: 在兰州住两晚，礼拜一回来)
    with no day of leaving; None otherwise."""
    if (
        dates.start is None
        or dates.end is not None
        or dates.flexible_until
        or len(dates.spans) != 1
    ):
        return None
    if fields.get("destination") is None or fields.get("via"):
        return None
    if fields.get("origin") is None and not fields.get("nights"):
        return None
    _, end = dates.spans[0]
    said = buf.original[end : end + 20]
    home = RETURN_DAY_AFTER.match(said)
    if home is None:
        return None
    going = said[home.end() :].lstrip()
    destination = str(fields["destination"])
    if going.startswith(("老家", "家乡", destination[:2])):
        return None  # 周日回老家/回合肥: going home is the trip itself, on that day
    return dates.start


# Grown-ups counted onto a couple (两口子加两个老人, 我们俩和两位老人): more grown-ups.
_ELDERS_ADDED = re.compile(
    r"(?:加|加上|和|跟|还有|带|带着)(?P<n>" + party.SMALL_COUNT + r")\s*(?:个|位)?"
    r"(?:老人家|老年人|老人|长辈|大人)"
)


_GROWN_KIN = sorted(
    (
        (phrase, count)
        for phrase, count in lexicon.COMPANIONS
        if phrase not in party.CHILD_WORDS + party.KIN_CHILD_WORDS + party.GRANDCHILD_WORDS
    ),
    key=lambda pair: -len(pair[0]),
)
_GROWN_KIN_WORD = re.compile("|".join(re.escape(phrase) for phrase, _ in _GROWN_KIN))
# The list of those brought along right after a couple, up to the trip's words or a pause.
# An age in brackets (儿子(8岁)和我妈) is read already (masked) and keeps the list going.
_KIN_LIST = re.compile(
    r"(?:加上?|和|跟|还有|与|及|带(?:着|上)?)"
    r"(?:[^，,。；;!！从去到回坐()（）" + MASK + r"]|[(（][^)），,。]*[)）])*"
)


_KIN_ALSO = re.compile(
    r"(?<=[，,。\s])(?:还有|另外还有|加上|外加)(?=(?:我|俺)?(?:家)?的?(?:"
    + _GROWN_KIN_WORD.pattern
    + r"))"
)


_KIN_AT_UNIVERSITY = re.compile(
    r"(?:上|读|念|在读)(?:大学|研究生|研|大[一二三四])的?(?:闺女|女儿|儿子)|大学生(?:闺女|女儿|儿子)"
)


def _kin_added(original: str, text: str, at: int) -> int:
    """The grown-ups named in the list brought along after a couple (两口子带我妈和儿子,
    我们俩和岳母带闺女): parents and other grown-up kin count one each (爸妈 two); children,
    sons and daughters are read by `party.child_ages`, a young relative given a child's age
    (带我弟，他7岁) is that child."""
    listed = _KIN_LIST.match(text, at)
    if not listed:
        return 0
    counts = dict(_GROWN_KIN)
    # 两口子带上大学的闺女: a son or daughter at university is a grown-up of the party.
    added = len(_KIN_AT_UNIVERSITY.findall(text, at, listed.end()))
    for match in _GROWN_KIN_WORD.finditer(text, at, listed.end()):
        word = match.group()
        if word in party.YOUNG_KIN_WORDS and party.kin_is_child(original, word, match.end()):
            continue
        added += counts[word]
    return added


_RECOUNTED = re.compile(r"(?:那就|那|就|不对|是|一共|总共|变成|改成|加起来)[是了]?\s*$")


def _passengers(buf: _Text) -> tuple[int, int | None]:
    """The head count, and the grown-ups among it when the text counts them apart from the
    children (两个大人, 我和老公…带): `party.read_party` then adds the children."""
    for denied in _NOT_ALONE.finditer(buf.masked):  # 不是我一个人: no count of one
        buf.mask(denied.start(), denied.end())
    text = buf.masked
    family = party.family_size(text)
    if family:
        return family, None
    rough = _ROUGH_COUNT.search(text)
    if rough:
        tens = to_int(rough.group("tens") or rough.group("tens2")) or 10
        return tens + ((rough.group("more") or rough.group("more2")) != "来"), None
    counted = party.counted_party(text)
    if counted is not None:
        # 两个大人带一个两岁的小孩，还有奶奶: grown-up kin added after the counted groups.
        also = _KIN_ALSO.search(text)
        extra = _kin_added(buf.original, text, also.start()) if also else 0
        return counted[0] + extra, counted[1] + extra
    named = party.roll_call(text, buf.original)
    if named is not None:  # 爷爷奶奶 爸妈 我和我姐 还有两个娃: six grown-ups, then the children
        return named, named
    if _COUPLE_COUNTED.search(text):
        return 2, 2
    for phrase, count in _PAIRS.items():
        at = text.find(phrase)
        if at >= 0:
            after = text[at + len(phrase) : at + len(phrase) + 3]
            plus = after.startswith(("加", "带", "和", "跟", "还有", "与", "大人"))
            elders = _ELDERS_ADDED.match(text, at + len(phrase))
            if elders:  # 我们两口子加两个老人: four grown-ups
                count += party.count_word(elders.group("n")) or 0
            elif plus:  # 两口子带我妈和儿子(8岁): the mother is a third grown-up
                count += _kin_added(buf.original, text, at + len(phrase))
            # A couple is two grown-ups whatever children are said elsewhere (孩子8岁，我们两口子).
            return count, count if plus or phrase in _COUPLES else None
    pair = _ME_AND_ONE.search(text)
    if pair:  # 我和我姐俩: the two of them, whoever the other is
        return 2, None
    match = _PARTY.search(text)
    later = list(_PARTY.finditer(text))[1:] if match else []
    if later and _RECOUNTED.search(text[max(0, later[-1].start() - 5) : later[-1].start()]):
        # 两个人，哦我妈也去，那就三个人: the count said again is the party.
        match = later[-1]
    elif later and match and "还有" in text[match.end() : later[-1].start()]:
        # 我们仨是学生 还有我哥已经上班了 四个人: the one added, then everyone counted.
        match = later[-1]
    elif later and match and "和" in text[max(0, match.start() - 4) : match.start()]:
        # 刘总和两位同事…三个人都要一等座: those named beside others, then everyone counted.
        whole = max(later, key=lambda m: to_int(m.group("n") or "") or 0)
        if (to_int(whole.group("n") or "") or 0) > (to_int(match.group("n") or "") or 0):
            match = whole
    if match:
        groups = match.groupdict()
        if groups["en"]:
            buf.mask(match.start("en"), match.end("en"))  # "3 second class tickets": the class
        else:
            buf.mask(match.start(), match.end())
        if groups["adults"]:
            adults = to_int(groups["adults"]) or 1
            return adults + (to_int(groups["kids"]) or 0), adults
        if groups["n"] and "大人" in match.group():
            count = to_int(groups["n"]) or 1
            return count, count
        for name in ("family", "family2", "tickets", "times", "kinds", "n", "en", "fam_en"):
            if groups[name]:
                return (to_int(groups[name]) or 1) + party.counted_on(text, match.end()), None
    group = party.group_size(text)
    if group is not None:
        # 老两口带外孙: the two are the grown-ups, the grandchild rides beside them.
        return group, (group if party.is_pair_of_elders(text) else None)
    people = grown_ups = 1
    for match in _CHILDREN.finditer(text):
        people += to_int(match.group("n")) or 1
        buf.mask(match.start(), match.end())
    for match in _PUPILS.finditer(buf.masked):
        # 带三个学生: a teacher and the pupils, grown-ups as far as the text says.
        many = to_int(match.group("n")) or 1
        people += many
        grown_ups += many
        buf.mask(match.start(), match.end())
    # A companion read is struck out with a list mark, not the mask, so the next one in
    # the same list is still led by the cue (带老人孩子: two companions).
    text = buf.masked
    cue = "|".join(re.escape(c) for c in lexicon.COMPANION_CUES)
    for phrase, count in lexicon.COMPANIONS:
        if phrase not in text:
            # Both readings below contain the phrase itself: without it nothing matches, and
            # compiling its pattern (70 of them, ~40% of a first sentence's regex work) is
            # spared.
            continue
        word = re.escape(phrase)
        counted_word = rf"(?:(?P<n>{party.SMALL_COUNT})\s*(?:个|位|名)?)?{word}"
        pattern = (
            # 带俩孩子去姥姥家: 姥姥 is visited, not a companion (no going verb between, no 家).
            # 带学生证 is a card carried, not a student brought.
            rf"(?:{cue})[^，,。{MASK}去到回看找探]{{0,4}}?{counted_word}(?!家|证|票|卡|价|优惠)"
            rf"|{word}[^，,。]{{0,2}}?(?:和|跟)我"
            # …，老婆孩子一起 / 爸妈也一起去: named, then said to come along.
            rf"|(?:(?<=[，,。\s])|(?<=[，,。\s][我俺]))(?:我|俺)?{word}(?=(?:[、和跟]?[\u4e00-\u9fff]{{0,3}})?(?:都|也)?(?:一起|同行|一块))"
        )
        for match in re.finditer(pattern, text):
            said = match.group("n")
            many = (party.count_word(said) or count) if said else count
            people += many
            young = phrase in party.YOUNG_KIN_WORDS and party.kin_is_child(
                buf.original, phrase, match.end()
            )
            if not young and phrase not in (
                party.CHILD_WORDS + party.KIN_CHILD_WORDS + party.GRANDCHILD_WORDS
            ):
                grown_ups += many
            buf.mask(match.end() - len(phrase), match.end())
            text = text[: match.end() - len(phrase)] + "、" * len(phrase) + text[match.end() :]
    for match in _WORK_COMPANION.finditer(text):
        many = party.count_word(match.group("n")) or 1 if match.group("n") else 1
        people, grown_ups = people + many, grown_ups + many
        buf.mask(match.start("who"), match.end("who"))
    if people == 1 and _ALONG_WITH_THEM.search(text):
        # 我爸周五挂了号，我陪他从信阳过去: the one named first, and the speaker with them.
        subject = _KIN_SUBJECT.match(text)
        if subject is not None:
            many = dict(lexicon.COMPANIONS).get(subject.group("kin"), 1)
            people, grown_ups = people + many, grown_ups + many
    return people, grown_ups if people > grown_ups or grown_ups > 1 else None


# 我陪他, 我陪着她, 我跟他一起: the speaker riding along with the one named before.
_ALONG_WITH_THEM = re.compile(r"我(?:陪|带|跟|和)着?(?:他|她|他们|她们|二老|老人家?)")
_KIN_SUBJECT = re.compile(
    r"^(?:帮|给|替)?(?:我|俺)?(?:家)?(?P<kin>爸爸|妈妈|老爸|老妈|父亲|母亲|爸妈|父母|爷爷|奶奶|姥姥|姥爷"
    r"|外公|外婆|老公|老婆|爸|妈)"
)


# 我跟老板一起, 和领导一块去, 陪客户从上海去杭州, 跟我们经理后天去广州: one of work said riding
# along (only masked days, places and hours between); 和客户开会 is the errand, no companion.
_WORK_COMPANION = re.compile(
    r"(?:" + "|".join(re.escape(c) for c in lexicon.COMPANION_CUES) + r")"
    r"(?:我们|我|公司)?(?:的)?(?:(?P<n>" + party.SMALL_COUNT + r")\s*(?:个|位|名)|个|位|名)?"
    r"(?P<who>" + "|".join(lexicon.WORK_COMPANIONS) + r")们?"
    r"(?=[□\s都也还要会]{0,10}?(?:一起|一块|一道|同行|去|出差|出发|坐|过去|从|到))"
)


def _budget(buf: _Text) -> tuple[float | None, float | None]:
    text = buf.masked
    lower = text.lower()
    for match in _AMOUNT.finditer(text):
        value = to_number(match.group())
        if value is None:
            continue
        before = lower[max(0, match.start() - 8) : match.start()].rstrip()
        after = lower[match.end() : match.end() + 4].lstrip()
        cued = any(c in before for c in _BUDGET_BEFORE) or after.startswith(_BUDGET_AFTER)
        strong = any(c in before for c in _STRONG_BUDGET)
        big = match.group()[-1:].lower() in "k千万w" and value >= 500
        if not (cued or big) or (value < 50 and not strong) or value <= 0:
            continue
        if after.startswith(("人", "个人", "位", "张", "个大人", "等", "号")) or re.match(
            r"个(?!月)", after
        ):
            continue  # 一人五百: the 一 counts people, the budget follows; 一等座 is a class
        buf.mask(match.start(), match.end())
        if (
            any(c in before for c in _PER_PERSON_BEFORE)
            or after.startswith(_PER_PERSON_AFTER)
            or _EACH_BEFORE.search(_clause_before(lower, match.start()))
        ):
            return None, value
        return value, None
    return None, None


_REFUSED_BEFORE = re.compile(r"不要|不坐|不用|别坐|别买|不买|不想坐")


_SLOWER_SAID = re.compile(
    r"^(?:绕一下|绕一绕|绕点路|绕路|绕远点?|慢点|慢一点|慢些|久一点|多坐会儿?)"
)
"""What a slower ride costs, said between a train kind and its permission (慢车绕一下也行)."""


def _train_types(lower: str, rest: str) -> list[str]:
    """Wanted train types: negated words are masked in `rest`; the refusals that name the
    wanted types ("不要绿皮": G, D, C) are read from the full text."""
    wanted: set[str] = set()
    for phrase, types in lexicon.WISH_BY_REFUSAL:
        if phrase in lower:
            wanted.update(types)
            rest = rest.replace(phrase, MASK)
    # K字头的慢车: the letter named is the type; the category word after it describes it.
    lettered = {
        t for t in TRAIN_TYPES for head in ("字头", "开头", "打头") if f"{t.lower()}{head}" in rest
    }
    for phrase, types in lexicon.TRAIN_TYPE_PHRASES:
        if phrase in rest and phrase not in lexicon.ONLY_REFUSED:
            after = rest[rest.find(phrase) + len(phrase) :].lstrip("的车")
            after = _SLOWER_SAID.sub("", after, count=1)  # 慢车绕一下也行: still a permission
            described = bool(lettered) and lettered <= set(types) and len(types) > 1
            permitted = after.startswith(lexicon.TYPE_PERMITTED_AFTER) and not (
                # 不要卧铺了，白天的高铁就行: what will do instead of the one refused is wished
                after.startswith(lexicon.TYPE_INSTEAD_AFTER)
                and _REFUSED_BEFORE.search(lower[: lower.find(phrase)])
            )
            if permitted and set(types) == {"D"}:
                # 动车就行: the 动车 named is enough, no need of a G; 动车也行: a G or a D. An
                # EMU either way, never a slow train.
                enough = after.startswith(lexicon.TYPE_INSTEAD_AFTER)
                wanted.update(("D",) if enough else ("G", "D"))
            elif not permitted and not described:
                wanted.update(types)  # 坐慢车就行: no limit
            rest = rest.replace(phrase, MASK)
    return [t for t in TRAIN_TYPES if t in wanted]


_ONE_CLASS = "|".join(
    re.escape(p) for p, c in sorted(lexicon.SEAT_PHRASES, key=lambda pc: -len(pc[0])) if len(c) == 1
)
# Two classes, either will do: 商务座或者一等座都行, 软卧没有就硬卧, 一等座/二等座.
_CLASS_OR_CLASS = re.compile(
    r"(?P<a>" + _ONE_CLASS + r")(?:的|票)?\s*"
    r"(?:或者|或是|或|还是|、|/|[，,]?\s*(?:实在|要是|如果|万一)?(?:没有|没票|买不到|不行|抢不到)(?:了)?(?:的话)?[，,]?\s*(?:就|那就)?"
    r"(?:买|要|坐)?)\s*(?P<b>" + _ONE_CLASS + r")"
    # 硬卧硬座都可以: two run together, then either said.
    r"|(?P<a2>"
    + _ONE_CLASS
    + r")\s*(?P<b2>"
    + _ONE_CLASS
    + r")\s*(?:都|也)(?:可以|行|成|中|没问题)"
)


_RETURN_CLASS = re.compile(
    r"(?:回程|返程|回来(?:的时候|的车|的票|时)?|回去(?:的时候|的车)?)(?:要|坐|买|选|就|换|改|都)?(?:成)?"
    r"(?P<cls>" + _ONE_CLASS + r"|卧铺)"
)


def _seat_alternatives(rest: str) -> list[SeatClass]:
    """The classes of `X或Y` / `X没有就Y`, the first said first; empty when none is said."""
    match = _CLASS_OR_CLASS.search(rest)
    if match is None:
        return []
    by_phrase = {p: c[0] for p, c in lexicon.SEAT_PHRASES if len(c) == 1}
    a, b = (match.group("a"), match.group("b")) if match.group("a") else match.group("a2", "b2")
    first, second = by_phrase[a], by_phrase[b]
    return [first, second] if first != second else []


_SEAT_BORNE_NOT = re.compile(
    r"^[^，,。；;]{0,4}?(?:坐不住|坐不了|受不了|熬不住|熬不了|吃不消|扛不住|坐不下去)"
)


def _seat_class(rest: str) -> SeatClass | None:
    """The one class named (a category such as 卧铺 is `seat_classes`, read with the refusals)."""
    for phrase, classes in lexicon.SEAT_PHRASES:
        for match in re.finditer(re.escape(phrase), rest) if len(classes) == 1 else ():
            after = rest[match.end() :].lstrip("的车票 ")
            if _SEAT_BORNE_NOT.match(after):
                continue  # 硬座一夜坐不住了: the class said as one not borne, no wish for it
            if not after.startswith(lexicon.SEAT_PERMITTED_AFTER):  # 站票也中: no limit
                return classes[0]
    return None


# 没直达…的话, 没有直达的话: a direct train said as missing (a condition), not wished for.
# 没直达的话换乘也行: no direct train said as a fact; 有没有直达的 asks for one all the same.
_NO_DIRECT = re.compile(r"(?<!有)(?:没|没有|无)直达")


_NO_HURRY = re.compile(r"(?:不|没|不用|不必)(?:太|那么|怎么)?(?:赶时间|着急|急)")


def _preferences(rest: str) -> list[str]:
    # 动卧 and 卧铺 name a seat class, not the bare sleeper preference, when a class is named.
    rest = _NO_DIRECT.sub(lambda m: MASK * len(m.group()), rest)
    # 不赶时间, 不着急: no hurry, no wish for speed.
    rest = _NO_HURRY.sub(lambda m: MASK * len(m.group()), rest)
    return [
        tag
        for tag, phrases in lexicon.PREFERENCE_PHRASES.items()
        if any(p in rest for p in phrases)
        and not (tag == "卧铺" and any(s in rest for s in lexicon.SLEEPER_CLASS_PHRASES))
    ]


_OTHER_WAYS = (
    *lexicon.FLIGHT_WORDS,
    "大巴",
    "汽车票",
    "长途",
    "客车",
    "轮船",
    "船票",
    "轮渡",
    "渡轮",
    "坐船",
    "的船",
    "包车",
    "拼车",
)
"""Out-of-scope words that ask for another way to travel, not something beside a train trip."""

# The train said only to weigh the other way against it (比火车便宜不, 火车太慢了不想坐,
# 不想坐高铁) asks for no train ticket.
_TRAIN_WEIGHED = re.compile(
    r"比(?:坐)?(?:火车|高铁|动车)|(?:火车|高铁|动车)(?:票)?(?:也|还|都)?(?:太|更|又)?(?:慢|贵|便宜|快|累)"
    r"|不(?:想|要|愿意?)坐(?:火车|高铁|动车)"
)

# A vehicle's size (20座的大巴, 七座商务车, 50人座) asks for no seat on a train.
_VEHICLE_SIZE = re.compile(r"(?:\d+|[一二两三四五六七八九十]+)\s*人?座(?![位次])")


_CHANGE_CUES = (*lexicon.UPDATE_CUES, "改去", "换去")

# A clause of its own: set off by a pause or by the word that starts the next step.
_CLAUSE = re.compile(r"[^，,。；;！!？?\s]+")
_NEXT_STEP = re.compile(r"(?:然后|接着|之后|再|到了)")


# What asks for something (帮我约个车, 订张机票, 地铁能到吗): a ride after the train said
# without it is only told (到了转飞机去三亚).
_ASKS = re.compile(r"帮|订|买|查|约|叫|安排|推荐|能不能|能否|可以|可不可以|吗|怎么|多少|几点|哪")


# 的飞机从浦东飞东京: a flight to a place no station names is a flight all the same.
_FLIES_TO = re.compile(r"(?:飞机|航班)[^，,。]{0,12}飞(?:往|去)?[\u4e00-\u9fff]")
_LANDING = re.compile("|".join((*LANDED_BEFORE, "下飞机", "下了飞机")))


def _onward_clauses(text: str, directory: StationDirectory) -> list[tuple[int, int]]:
    """The spans of the clauses that take another way to travel to a place of their own
    (转飞机去三亚, 约个车到南京南, 坐地铁去外滩): a ride after the train, not the train."""
    ways = (*lexicon.FLIGHT_WORDS, *lexicon.LOCAL_RIDE_WORDS, *_OTHER_WAYS)
    found = []
    plain = without_context(text)
    for clause in _CLAUSE.finditer(plain):
        start = clause.start()
        steps = [m.start() for m in _NEXT_STEP.finditer(clause.group()) if m.start() > 0]
        for at in [0, *steps]:
            end = min([s for s in steps if s > at], default=len(clause.group()))
            part = clause.group()[at:end]
            if not any(word in part for word in ways):
                continue
            if _LANDING.search(part):
                continue  # 飞机落地大兴机场: the flight comes before the train, it is no ride after
            if names_train_end(part, directory):
                continue  # 到贵阳就行剩下的坐大巴: the train's end, then the road from it
            own = extract_route(part, directory)
            # 然后坐船游长江: a next step of its own, even to no place a station names.
            next_step = at > 0 or _NEXT_STEP.match(part) is not None
            if own.destination or own.destination_text or next_step or _FLIES_TO.search(part):
                found.append((start + at, start + end))
    return found


def _reaches_only_the_way(part: str, directory: StationDirectory) -> bool:
    """True when a ride's clause reaches no place but the way's own name (约个大巴: 大巴 is
    also a station's): the way is asked for, no ride after the train is told."""
    for word in (*lexicon.FLIGHT_WORDS, *lexicon.LOCAL_RIDE_WORDS, *_OTHER_WAYS):
        part = part.replace(word, MASK * len(word))
    own = extract_route(part, directory)
    return not (own.destination or own.destination_text or _NEXT_STEP.search(part))


def _boarding_reached(
    text: str, rides: list[tuple[int, int]], train: Route, directory: StationDirectory
) -> str | None:
    """The place a ride of another kind reaches first, when the train's own words say where
    it goes and not whence (打车到南京南，坐高铁去上海)."""
    if train.origin or not train.destination or not train.spans or not rides:
        return None
    start, end = rides[0]
    if end > min(at for at, _ in train.spans):
        return None
    return extract_route(text[start:end], directory).destination


_RIDE_TO_A_STATION = re.compile(r"(?:坐|搭|乘)(?:火车|高铁|动车)?到[^，,。；;]{0,8}?站(?!着)")
# A station said as a place (坐地铁到虹桥火车站, a hotel near the train station) names no ticket.
_STATION_WORD = re.compile(r"(?:火车|高铁|动车)站|(?:train|railway|rail) station")


def _kind(
    lower: str,
    intent: TravelIntent,
    topics: Sequence[str],
    rest: str,
    *,
    one_city: bool,
    ways: str,
) -> str:
    """The request kind; a sentence that also asks for tickets keeps its ticket part. `rest`
    is the text without its refusals, whose words ask for nothing (别给我安排动车).
    `one_city`: both ends lie in one city (从虹桥火车站坐地铁到外滩), a ride no train makes.
    `ways`: the text without the rides taken after the train (到了转飞机去三亚), where another
    way to travel would be asked for instead of the train."""
    has_place = bool(intent.origin or intent.destination or intent.destination_text)
    journey = bool(intent.origin and intent.destination) and not one_city
    if topics:
        rest = _STATION_WORD.sub(lambda m: MASK * len(m.group()), lower)
        for words in SCOPE_WORDS.values():
            for word in sorted(words, key=len, reverse=True):
                rest = rest.replace(word, MASK)
        acquires = any(cue in rest for cue in lexicon.ACQUIRE_CUES)
        # (坐到离它近的站 剩下一段坐公交: the train to a station, then a bus, is a ticket asked.)
        tickets = any(word in rest for word in lexicon.TICKET_WORDS) or bool(
            _RIDE_TO_A_STATION.search(lower)
        )
        found = set(topics)
        if found & {"refund", "change"}:
            keeps = has_place and acquires
        elif "other" in found and any(word in ways for word in _OTHER_WAYS):
            weighed = _TRAIN_WEIGHED.sub(lambda m: MASK * len(m.group()), rest)
            weighed = _VEHICLE_SIZE.sub(lambda m: MASK * len(m.group()), weighed)
            # 机票多少钱: an air ticket is no train ticket asked for.
            weighed = _AIR_TICKET.sub(lambda m: MASK * len(m.group()), weighed)
            weighed = _TRAIN_WAVED_OFF.sub(lambda m: MASK * len(m.group()), weighed)
            tickets = any(word in weighed for word in lexicon.TICKET_WORDS)
            keeps = has_place and tickets  # 上海到北京飞机多少钱: another way to travel
        else:
            # 改去上海吧，有什么好玩的: a change to the trip is asked beside the question.
            changes = any(cue in rest for cue in _CHANGE_CUES)
            keeps = journey or (has_place and (tickets or changes))
            if "weather" in found and not keeps:
                # 明天去哈尔滨玩，冷不冷 goes somewhere; 帮我查下北京明天天气 only looks it up.
                keeps = has_place and any(
                    cue in rest for cue in lexicon.ACQUIRE_CUES if cue not in lexicon.LOOKUP_CUES
                )
        if not keeps:
            return "out_of_scope"
    if (
        any(cue in rest for cue in lexicon.PLAN_CUES)
        or intent.days
        or intent.nights
        or intent.budget
        or intent.via
    ):
        return "plan_trip"
    return "query_tickets"
