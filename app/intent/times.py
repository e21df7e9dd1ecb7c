"""Times of day as travellers say them, beyond a bare "X点前/后" (pure, no clock).

- A bare hour takes the part of the day said before it in the same sentence: 下班后…六点以后
  is 18:00 onward, 今晚11点前到家 23:00, 下午…三点前 15:00 (an evening context moves 5-11 to
  17-23, an afternoon one 1-6 to 13-18). A departure's evening (晚上走) does not carry to an
  arrival hour (晚上走，7点前到 is the next morning).
- Arrival deadlines: X点前到 / X点前得到 / 之前必须到 / 前要到 / 中午前到 / 上午能到就行 are
  arrival windows; X点前走/出发 a departure bound. An appointment (上午十点开会, 下午两点的会,
  晚上七点半开始) is an arrival deadline at its hour.
- 下班后 is the evening (18:00-23:59); 傍晚 17:00-19:30; 一早 the early morning (06:00-09:00;
  早上 runs to 10:00); 中午左右 11:00-13:00; X点左右 an hour either side; 两三点 14:00-15:30 in an
  afternoon (the second hour's half); 白天 (白天的车) a daytime ride: leave 06:00-18:00,
  arrive the same day by 23:59; 白天走 (白天出发) says when to leave only.
- An hour said with no day in a whole trip (下午五点前必须到北京南，从天津出发) is today's; a
  chat turn with only an hour (九点以后) keeps the trip's day.

Regexes here are linear: bounded repeats only, no nested quantifiers.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass

from app.intent.model import END_OF_DAY, TIME_WINDOWS, TimeWindow
from app.intent.numerals import to_int
from app.intent.wishes import NOT_IN_THE_NIGHT

# 周五6点, 周五六点下班: the weekday's numeral is no part of the hour.
_HOUR = r"(?<![周期拜])[0-9一二两三四五六七八九十]{1,3}"


def clock_unit(minute: str = "half") -> str:
    """An hour's unit and its minutes, as a regex with the minutes in group `minute`: 八点,
    8点半, 10:30, 十点一刻, 9点15分, 八时."""
    return (
        r"(?:点|时|(?=[:：][0-5]\d))"
        rf"(?P<{minute}>半|[:：][0-5]\d|一刻|三刻|[0-5]?\d分|[一二三四五]?十?[一二三四五六七八九]?分)?"
    )


def minutes_of(said: str | None) -> int:
    """The minutes a clock's tail says (半 30, 一刻 15, :45 45, 十五分 15; none 0)."""
    if not said:
        return 0
    if said == "半":
        return 30
    if said in ("一刻", "三刻"):
        return 15 if said == "一刻" else 45
    digits = said.lstrip(":：").removesuffix("分")
    value = to_int(digits) if digits else 0
    return value if value is not None and 0 <= value < 60 else 0


_EVENING = (
    "下班后",
    "下班以后",
    "下班之后",
    "下了班",
    "下班",  # 七点下班，七点半以后的车: the evening's half past seven
    "晚上",
    "傍晚",
    "今晚",
    "明晚",
    "夜里",
    "晚饭后",
    "当晚",
    "那晚",
    "散场后",
    "天黑",  # 天黑前要到 六点之前: the evening's six
)
_AFTERNOON = ("下午", "午后", "午饭后", "下了课", "下课后", "放学后", "上完课", "课上完")
_MORNING = ("早上", "上午", "一早", "一大早", "明早", "今早", "凌晨", "中午", "早晨", "清早")
_CONTEXT = re.compile("|".join(sorted((*_EVENING, *_AFTERNOON, *_MORNING), key=len, reverse=True)))
_SENTENCE_END = re.compile(r"[。！？；!?;]")
_DEPART_VERB = re.compile(r"^[^，,。]{0,3}?(?:走|出发|发车|动身)")
CONTEXT_REACH = 18
"""How far back (characters) a part of the day said earlier still governs a bare hour."""

ARRIVE_CUE = re.compile(
    r"^\s*(?:前|以前|之前)?\s*(?:最好|一定|务必)?\s*(?:能|可以|就|得|要|必须|需要|须|才)?"
    r"\s*(?:赶)?(?:到|抵达|arriv)",
    re.IGNORECASE,
)
"""What follows a time when it is an arrival deadline ("九点前得到", "之前必须到"; 不要晚上才到
refuses an arrival)."""

_APPOINTMENT = re.compile(
    r"(?P<period>早上|上午|中午|下午|晚上|今晚|明晚)?(?P<h>"
    + _HOUR
    + r")\s*"
    + clock_unit()
    + r"钟?"
    # 九点在天津滨海新区开会: the place of the appointment between its hour and the business.
    # (要在苏州工业园区见客户: a must said before the place.) 开评审会, 的董事会: meetings by name.
    r"(?:(?:要|得|需要|必须|我)?在[^，,。、\d]{1,10}?|[^，,。、\d]{0,6}?)"
    r"(?:开始|的会|开会|有个?会|开球|开演|开场|开考|入场|面试|考试|的考试|上课|的课|报到|签到"
    r"|[开的](?:评审|董事|股东|研讨|座谈|发布|交流|招聘|答辩|部门|项目|例|周|月|年|家长|视频|总结|启动)会"
    r"|见客户|见个客户|拜访客户|见面|签合同|签约|谈业务|谈生意"
    r"|的演唱会|的音乐会|的演出|的比赛|的球赛|的婚礼|的飞机|的航班|的活动|的讲座"
    # 晚上八点的饭局不能迟到: a dinner is an appointment too.
    r"|的饭局|有饭局|的聚餐|的约会|的年会"
    # 十点在扬州参加葬礼, 十一点在老家办婚礼: a family's day.
    r"|参加葬礼|的葬礼|追悼会|参加婚礼|办婚礼"
    # A hospital's appointment: 上午10点的号, 下午两点的门诊, 九点半复查, 十点的专家号.
    r"|的号|的专家号|的门诊|的预约|看病|看医生|就诊|复查|复诊|的检查|做检查|的手术|做手术|体检)"
)
# 周五下午我要开会, 上午有个会: a part of the day taken by a meeting, no clock said anywhere.
# The ride is not in it: there by the time it begins (上午去上海开会 is the ride's morning).
_HOME_CUE = re.compile(r"回来|回去|回程|返程")
_APPOINTMENT_PART = re.compile(
    r"(?P<period>早上|上午|中午|下午|晚上)[^，,。\d点去到回走]{0,5}?"
    r"(?:要开会|开会|开个会|开一个会|有个?会|的会|面试|见客户|见甲方|见领导|见投资人|谈业务|谈生意"
    r"|签合同|签约"
    # 晚上看演唱会, 晚上的婚礼: an evening's event, there before the evening begins.
    r"|看演唱会|的演唱会|看演出|的演出|看球|的比赛|看比赛|的婚礼|参加婚礼|喝喜酒|吃喜酒"
    # 中午在洛阳办婚礼, 上午在殡仪馆参加葬礼, 早上在协和挂了号: a family's day, a doctor's.
    r"|办婚礼|结婚|办酒|摆酒|的葬礼|参加葬礼|的追悼会|参加追悼会|挂了?号|看病|复查|就诊)"
    r"(?!完|结束|后|以后|之后)"
)
# When a meeting said by the part of the day only begins: office hours (上午开会 is nine
# o'clock, not the six o'clock the morning's trains start at).
_MEETING_BEGINS = {
    "早上": dt.time(8, 0),
    "上午": dt.time(9, 0),
    "中午": dt.time(12, 0),
    "下午": dt.time(14, 0),
    "晚上": dt.time(18, 0),
}
# A later part of the day the ride leaves in, said after the meeting (上午开会，下午从北京回).
_LEAVING_LATER = re.compile(
    r"(?P<period>早上|上午|中午|下午|晚上)[^，,。\d]{0,3}?(?:从|才走|走|出发|动身|回|坐)"
)
_MEETING_AFTER = re.compile(
    r"[^，,。\d点去到回走]{0,5}?(?:要开会|开会|开个会|开一个会|有个?会|的会|面试|见客户)"
)


def event_part(text: str, start: int) -> bool:
    """True when the part of the day at `start` is an event's (12号中午在洛阳办婚礼, 上午在合肥
    面试, 早上在协和挂了号): the business is held then, and the ride is not (当天早上过去 says
    the ride's part of the day; with none said, the event's hour is the deadline)."""
    return _APPOINTMENT_PART.match(text, start) is not None


def meeting_before_leaving(text: str, start: int, end: int) -> bool:
    """True when the part of the day at `start`..`end` is a meeting's (上午开会) and a later
    part of the day said after it is when the ride leaves (下午从北京回天津): the meeting is
    where the ride starts, its part of the day neither the ride's nor a deadline."""
    period = text[start:end]
    if period not in _MEETING_BEGINS or not _MEETING_AFTER.match(text, end):
        return False
    later = _LEAVING_LATER.search(text, end)
    return later is not None and _MEETING_BEGINS[later.group("period")] > _MEETING_BEGINS[period]


# 上午10点到下午2点在苏州有个会: there by its start; a ride home said after it leaves once
# it is over.
_SPAN = (
    r"(?P<period>早上|上午|中午|下午|晚上)?(?P<h>" + _HOUR + r")\s*" + clock_unit() + r"\s*"
    r"(?:到|至|-|~|～)\s*(?P<period2>早上|上午|中午|下午|晚上)?(?P<h2>"
    + _HOUR
    + r")\s*"
    + clock_unit("half2")
    + r"钟?(?:之间)?"
)
_APPOINTMENT_RANGE = re.compile(
    _SPAN + r"[^，,。、\d]{0,6}?"
    r"(?:的会|开会|有个?会|面试|考试|上课|的课|培训|见客户|办事|的活动|的讲座)"
)
# The business said first, its span after: 去合肥开会，下午三点到五点.
# (开会，早上八点到九点之间走的车: the span is the ride's, said with its verb.)
_APPOINTMENT_THEN_RANGE = re.compile(
    r"(?:开会|会议|有个?会|培训|面试|考试|见客户)(?:时间)?[，,\s]*(?:是|在)?\s*"
    + _SPAN
    + r"(?![^，,。]{0,3}?(?:走|出发|发车|动身|的车|的票))"
)
# 开完会大概下午三点, 会议估计四点结束: when the business is over (the ride home leaves after it).
_BUSINESS_OVER_AT = re.compile(
    r"(?:开完会?|会开完|会议结束|散会|办完事?|事办完|忙完"
    # 会开到下午四点, 开到五点: the meeting runs until then (车开到 is the train's).
    r"|会议?(?:要|得|大概|估计|可能)?开到|(?<![车会要得计能])开到)"
    r"(?:了)?(?:大概|估计|差不多|应该|得|要)?(?:是|在|到)?\s*"
    r"(?P<period>早上|上午|中午|下午|晚上)?(?P<h>"
    + _HOUR
    + r")\s*"
    + clock_unit()
    + r"(?:左右|多)?"
    # (开完会下午5点以后回: the bound of the ride home, read as any hour with 以后 is.)
    r"(?![\s\d半分:：]*(?:前|以前|之前|到|至|以后|之后|后(?!天)))"
)
_HOME_SAID_AFTER = re.compile(
    r"会后|开完|结束后|散会|当天|回来|回家|直接回|再回|就回|(?:见|谈|签|面)完(?:客户)?(?:就|再)?回"
)
_RIDE_HOME_SAID = re.compile(
    r"会后|当天(?:就)?回|当天往返|当天来回|回来|回家|直接回|再回|就回"
    r"|(?:开|办|忙|见|谈|签|面)完(?:会|事|客户)?回"
)
# 下午开完就回, 中午办完事回: the part of the day the ride home leaves in.
_HOME_IN_PART = re.compile(
    r"(?P<period>早上|上午|中午|下午|傍晚|晚上)(?:会|事|试)?(?:开|办|忙|考)完(?:会|事|试)?(?:了)?"
    r"(?:就|再)?回"
)
# The appointment said first, its hour after (要在西安开会，上午十点; 医院约的下午两点, 约的
# 明天上午十点, 挂的号是九点半): the hour alone, with no 前/后 of its own.
_APPOINTMENT_FIRST = re.compile(
    r"(?:开会|的会|会议|面试|考试|上课|报到|婚礼|演出|比赛|见客户"
    r"|约的|约了|约好|预约|挂的号|挂了号|挂号|号是|复查|复诊|门诊|手术|体检|看病)"
    r"[^，,。\d]{0,3}?[，,]?\s*"
    r"(?:时间)?(?:是|在)?\s*(?P<period>早上|上午|中午|下午|晚上)?(?P<h>" + _HOUR + r")"
    r"\s*"
    + clock_unit()
    + r"(?:开始)?(?![\s\d半分:：]*(?:前|后|以前|以后|之前|之后|左右|到|至|-|~|多))"
)
_AROUND = re.compile(
    r"(?P<period>早上|上午|中午|下午|晚上)?(?P<h>"
    + _HOUR
    + r")\s*"
    + clock_unit()
    + r"\s*(?:左右|上下|前后)"
)
# 下午5点走, 晚上7点从南京出发, 八点的车, 大概5点: an hour said for leaving, or said as rough,
# is that hour give or take (the train nearest it, as 5点左右); 八点到 stays an arrival's.
_AT_HOUR = re.compile(
    r"(?P<rough>大概|大约|差不多|估计|约)?(?P<period>早上|上午|中午|下午|晚上)?(?P<h>"
    + _HOUR
    + r")\s*"
    + clock_unit()
    + r"(?:钟)?(?![\s\d半分:：]*(?:前|后|以前|以后|之前|之后|左右|上下|前后|到|至|-|~|多))"
    r"(?P<verb>的(?:车|火车|高铁|动车|班次|那班|那趟)|(?:就|准时|左右)?(?:走|出发|发车|动身|开车)"
    r"|(?=从))?"
)
_TWO_HOURS = re.compile(
    r"(?P<period>早上|上午|中午|下午|晚上)?(?<![周期拜])(?P<pair>一两|两三|三四|四五|五六|六七|七八|八九|九十)点"
)
_NOON_AROUND = re.compile(r"中午(?:左右|前后|上下)")
# 十点多: some time in that hour.
_HOUR_AND_SOME = re.compile(
    r"(?P<period>早上|上午|中午|下午|晚上)?(?P<h>" + _HOUR + r")\s*点多(?!钟?(?:以后|之后|后|前))"
)
# 最晚八点到 / 最晚下午三点走 / 最早九点出发: a bound said with 最晚/最早 before the hour.
_AT_THE_LATEST = re.compile(
    r"(?P<bound>最晚|最迟|最早)\s*(?:要|得|在|于)?\s*(?P<period>早上|上午|中午|下午|晚上|今晚|明晚)?"
    r"(?P<h>" + _HOUR + r")\s*" + clock_unit() + r"(?:钟)?\s*(?:之前|以前|前)?\s*"
    r"(?:要|得|能|就|必须)?\s*(?P<what>到|抵达|出发|走|发车|动身)?"
)
# 别太早 / 不要太早的车 (no hour said): not before eight; 别太晚到: there by ten at night.
_NOT_TOO_EARLY = re.compile(
    r"(?:别|不要|不想|不能|不用)(?:坐|买|订|选|给[他她]?买)?(?:太|那么|特别)早(?:的车|的|了|出发|走)?"
    r"|不想起(?:太|那么)?早"
    # 别让他们赶早, 不想赶早车: an early start spared.
    r"|(?:别|不要|不想|不用|不必)(?:让|叫)?(?:他们|她们|他|她|老人|孩子|我们|我)?赶早(?:车|班)?"
    # 老人早上起不来, 一大早起不了: the morning refused, not chosen.
    r"|(?:早上|早晨|一早|一大早|大早上|清早|太早)?(?:起不来|起不了|起不早|爬不起来)"
)
# 八点半要到, 9点得赶到, 十点到就行: a bare hour then an arrival said as a must or as enough
# (八点到上海 alone stays unread: it may be the departure's hour).
_BARE_ARRIVAL = re.compile(
    r"(?P<period>早上|上午|中午|下午|晚上|今晚|明晚)?(?P<h>"
    + _HOUR
    + r")\s*"
    + clock_unit()
    + r"钟?\s*"
    r"(?:(?:一定|务必|最好)?(?:要|得|必须|需要|须|能|可以)(?:赶)?(?:到|抵达)"
    r"|(?:到|抵达)(?:就行|就好|就可以|即可|也行))"
)
_NOT_IN_THE_NIGHT = re.compile(NOT_IN_THE_NIGHT)
# 不要天不亮的车, 天没亮的不要, 凌晨的就算了: no start before dawn (a night train boarded in the
# evening is not refused by it, so no `no_overnight`).
_NOT_BEFORE_DAWN = re.compile(
    r"(?:不要|别|不想|不坐|不用)(?:坐|买|选|订|是)?(?:天不亮|天还没亮|天没亮|摸黑)"
    r"(?:的车|的火车|的|就?出发|就?走|就?起)"
    r"|(?:天不亮|天还没亮|天没亮|摸黑|凌晨|半夜)(?:的车|的火车|的|出发的|走的)(?:就|我|可)?"
    r"(?:不要|不坐|算了|免了|不行|不考虑|坐不了)"
)
"""别是半夜的车: leave by day (06:00 on); the ride not running into the night is a wish."""
# 晚上不想太晚到家: the evening said with it is the same wish, no hour to leave at.
_NOT_TOO_LATE_THERE = re.compile(r"(?:晚上|夜里)?(?:别|不要|不想|不能)(?:太|那么)晚到(?P<home>家)?")
# 当天就回来…不想太晚到家: home after a ride back said before it is the ride back's arrival.
_BACK_SAID_BEFORE = re.compile(r"回来|回程|返程|来回|往返")
_MEALS = (
    (
        re.compile(
            r"(?:吃完|吃过|吃了)?(?:午饭|中饭|中午饭|晌午饭)(?:后|以后|之后)"
            r"|(?:吃完|吃过|吃了)(?:午饭|中饭|中午饭|晌午饭)"
        ),
        dt.time(13, 0),
        dt.time(18, 0),
    ),
    (re.compile(r"(?:吃完)?晚饭(?:后|以后|之后)|吃完晚饭"), dt.time(19, 0), END_OF_DAY),
    (re.compile(r"(?:吃完)?早饭(?:后|以后|之后)|吃完早饭"), dt.time(8, 0), dt.time(12, 0)),
)
_DAYTIME = re.compile(r"白天")
BUSY_THEN = re.compile(
    r"[^，,。；;!！？?\d点去到回走坐车]{0,10}?"
    r"(?:睡觉|要睡|得睡|休息|转转|转一转|逛逛|逛一逛|逛街|溜达|玩玩"
    r"|考完|考试|有考试|有课|上课|上完课|兴趣班|补习班|培训班|补课|辅导班)"
)
"""What follows a part of the day taken by something other than the ride (娃晚上要睡觉,
白天还想在格尔木转转, 上午考完/上午还有课): it says when the ride is not, and is no window
for it."""
_LEAVING = re.compile(r"(?:的时候|就)?(?:走|出发|动身|发车)")
_DUSK = re.compile(r"傍晚")
_HOUR_LABEL = re.compile(r"[0-9一二两三四五六七八九十]\s*(?:点|时|:)")
_EVENING_WORDS = re.compile(r"下班(?:后|以后|之后)|下了班|下班(?=就|直接|再|从|走|出发|回|去|坐)")
# 周五放学后带我弟回老家, 下了课就走: school is out in the afternoon (16:00 on).
_AFTER_SCHOOL_WORDS = re.compile(
    r"(?:放学|下课)(?:后|以后|之后)|放了学|下了课|(?:放学|下课)(?=就|直接|再|从|走|出发|回|去|坐)"
    # 周五上完课就走: class over, the afternoon.
    r"|(?:上完课|课上完)(?:后|以后|之后)?(?=就|直接|再|从|走|出发|回|去|坐|了|，|,|\s)"
)
# 下午四点考完, 六点下班, 4点下课: leaving once it is over (the hour is the departure's bound).
_DONE_AT = re.compile(
    r"(?P<period>早上|上午|中午|下午|晚上)?(?P<h>" + _HOUR + r")\s*" + clock_unit() + r"(?:钟)?"
    r"(?:左右|前后)?(?:我|我们)?(?:的)?(?:飞机|航班)?"
    # 三点在宝安机场落地: the airport said between the hour and the landing.
    r"(?:在[^，,。；;\d]{1,8}?(?=落地|降落))?"
    r"(?:才|就)?(?:能)?(?P<done>下班|下课|考完|放学|放假|开完会|散会|结束|完事|忙完|收工|下工"
    r"|落地|降落|下飞机|出来|出站|出关|下夜班|下了夜班|下大夜|交班"
    # 两点飞机落大兴机场: 落 alone, after the plane, before the airport.
    r"|(?<=飞机|航班)落(?![后下]))"
)
_LANDED = ("落地", "降落", "下飞机", "落")
LANDING_TO_TRAIN_MINUTES = 30
"""From a flight's landing to a train at the airport: off the plane and to the platform."""

_BUSINESS_DONE = ("开完会", "散会", "结束", "完事", "忙完")


@dataclass(frozen=True)
class Found:
    """A time-of-day phrase: its span, the window it means and its kind when the phrase fixes
    it (None: read from the words around it, as for any clock)."""

    start: int
    end: int
    window: TimeWindow
    kind: str | None = None
    weak: bool = False  # an appointment's hour: a deadline said in so many words wins


_LATIN_WORD = re.compile(r"[A-Za-z]+")


def context_period(text: str, start: int, arrival: bool) -> str | None:
    """The part of the day ("晚上", "下午" …) said before a bare hour at `start`, if any."""
    # A word typed in pinyin (cong suzhoubei dao hongqiao) is as far as one character.
    lead = _LATIN_WORD.sub("A", text[:start])[-CONTEXT_REACH:]
    cuts = list(_SENTENCE_END.finditer(lead))
    if cuts:
        lead = lead[cuts[-1].end() :]
    words = list(_CONTEXT.finditer(lead))
    if not words:
        return None
    word = words[-1]
    said = word.group()
    if arrival and _DEPART_VERB.match(lead[word.end() :]):
        return None  # 晚上走，7点前到: the evening is the departure's
    if said in _EVENING:
        return "晚上"
    if said in _AFTERNOON:
        return "下午"
    return None


def in_period(period: str | None, hour: int, carried: bool) -> int:
    """`hour` read in `period`: 晚上8点 is 20; a carried context moves only plausible hours."""
    if period not in ("下午", "晚上") or hour >= 12:
        return hour
    if carried and period == "晚上" and hour < 5:
        return hour
    if carried and period == "下午" and hour > 6:
        return hour
    return hour + 12


_SMALL_HOURS_SAID = re.compile(r"(?:凌晨|半夜|夜里|早上|上午|清早|一早|早晨|早)\s*$")


def meeting_part(
    period: str | None, hour: int | None, before: str, *, home: bool = False
) -> str | None:
    """The part of the day of an hour to be there by or of an appointment: one to five
    o'clock with no part said (两点前到, 会两点开始) is the afternoon's, as no one is met,
    nor asked to arrive, in the small hours; 凌晨两点前到 (`before` the hour) stays so. Home
    by an hour (`home`: 周日6点前到成都 of the ride back) is the evening's up to seven."""
    last = 7 if home else 5
    if period is None and hour is not None and 1 <= hour <= last:
        return period if _SMALL_HOURS_SAID.search(before) else "下午"
    return period


def _clock(period: str | None, hour_text: str, half: str | None) -> dt.time | None:
    hour = to_int(hour_text)
    if hour is None or hour > 23:
        return None
    return dt.time(in_period(period, hour, carried=False), minutes_of(half))


FLIGHT_CHECK_IN_MINUTES = 90
"""How long before a flight the traveller is at the airport (check-in and security)."""
_FLIGHT_LANDS = re.compile(r"[^，,。]{0,6}?(?:落地|降落|到达|到港|抵达|到(?!机场))")


def _shift_minutes(moment: dt.time, minutes: int) -> dt.time:
    total = max(0, min(23 * 60 + 59, moment.hour * 60 + moment.minute + minutes))
    return dt.time(total // 60, total % 60)


def _shift(moment: dt.time, hours: int) -> dt.time:
    return _shift_minutes(moment, hours * 60)


def _deadline_hour(text: str, match: re.Match[str], period: str | None) -> dt.time | None:
    """The clock of a deadline or an appointment said at `match` (its `h` and `half`), its
    part of the day as said, else as a meeting's hour is meant (`meeting_part`)."""
    hour = match.group("h")
    part = meeting_part(_part(period), to_int(hour), text[: match.start()])
    return _clock(part, hour, match.group("half"))


DUSK = dt.time(17, 30)
"""天黑: dusk in the travel season (December), when 天黑前 is the bound."""
DAWN = dt.time(7, 0)
"""天亮: daybreak in December."""
EVENING = dt.time(18, 0)
"""晚上之前到: the evening's start, when a deadline is said by it."""
_DAYLIGHT = re.compile(
    r"(?P<when>天黑|天亮|晚上)(?:之|以)?(?P<rel>前|后)\s*(?P<no>别|不要|不想|不能)?\s*"
    r"(?:(?:要|得|能|必须|就|一定|再)\s*){0,2}(?=到(?!不了)|走|出发|动身|发车)"
)


# 她五点多就起来了, 我六点起床: the hour the traveller is up; the train is one boarded after
# getting ready and reaching the station (`UP_TO_TRAIN_MINUTES`), not one at that hour.
_UP_AT = re.compile(
    r"(?P<period>早上|早晨|凌晨|清早)?(?P<h>[0-9]{1,2}|[一二两三四五六七八九十]{1,2})\s*"
    + clock_unit()
    + r"(?P<more>多|左右)?(?:钟)?(?:就|都|才|能|会)?(?:起来|起床|醒|起)(?!不)(?:了)?"
)
UP_TO_TRAIN_MINUTES = 30


_EITHER_PART = re.compile(
    r"(?P<a>早上|上午|中午|下午|晚上)(?:或者?|或是|还是|、|和)(?P<b>早上|上午|中午|下午|晚上)"
    r"(?=\s*(?:出发|走|的车)?\s*(?:都|也)(?:可以|行|ok|成|没问题))"
)


def extra_windows(text: str, said: str | None = None) -> list[Found]:
    """The time phrases a bare clock bound does not cover, in text order. `said`: the whole
    text as typed (`text` may have words masked), where a ride home is looked for."""
    typed = text if said is None else said
    found: list[Found] = []
    for match in _EITHER_PART.finditer(text):
        # 下午或晚上出发都可以: either part of the day, so from the one's start to the other's end.
        one, other = TIME_WINDOWS[match.group("a")], TIME_WINDOWS[match.group("b")]
        window = TimeWindow(
            start=min(one.start, other.start), end=max(one.end, other.end), label=match.group()
        )
        found.append(Found(match.start(), match.end(), window, "depart_window"))
    for match in _DAYLIGHT.finditer(text):
        # 天黑之前要到, 天亮以后再走, 天亮前别出发: dusk and dawn as the clock travellers mean.
        bound = {"天黑": DUSK, "天亮": DAWN, "晚上": EVENING}[match.group("when")]
        after = match.group("rel") == "后" or bool(match.group("no"))
        label = match.group("when") + match.group("rel")
        window = (
            TimeWindow(start=bound, end=END_OF_DAY, label=label)
            if after
            else TimeWindow(start=dt.time(0, 0), end=bound, label=label)
        )
        # Only the word itself is masked: what follows (之前要到) says whose bound it is.
        found.append(Found(match.start(), match.start() + 2, window))
    for match in (*_APPOINTMENT_RANGE.finditer(text), *_APPOINTMENT_THEN_RANGE.finditer(text)):
        period = match.group("period") or context_period(text, match.start(), arrival=False)
        begins = _clock(_part(period), match.group("h"), match.group("half"))
        ends = _clock(
            _part(match.group("period2") or period), match.group("h2"), match.group("half2")
        )
        if begins is None or ends is None or ends <= begins:
            continue
        there = TimeWindow(start=dt.time(0, 0), end=begins, label=match.group())
        found.append(Found(match.start(), match.end(), there, "arrive_window", weak=True))
        if _HOME_SAID_AFTER.search(typed, match.end()):
            home = TimeWindow(start=ends, end=END_OF_DAY, label="结束后")
            found.append(Found(match.start(), match.end(), home, "return_window"))
    for match in _UP_AT.finditer(text):
        up = _clock(_part(match.group("period")) or "早上", match.group("h"), match.group("half"))
        if up is not None and up < dt.time(12, 0):
            leaves = _shift_minutes(up, UP_TO_TRAIN_MINUTES)
            window = TimeWindow(start=leaves, end=END_OF_DAY, label=match.group())
            found.append(Found(match.start(), match.end(), window, "depart_window", weak=True))
    for match in _BUSINESS_OVER_AT.finditer(text):
        period = match.group("period") or context_period(text, match.start(), arrival=False)
        at = _clock(_part(period) or "下午", match.group("h"), match.group("half"))
        if at is not None:
            ride = "return_window" if _RIDE_HOME_SAID.search(typed) else "depart_window"
            window = TimeWindow(start=at, end=END_OF_DAY, label=match.group())
            found.append(Found(match.start(), match.end(), window, ride))
    for match in _HOME_IN_PART.finditer(text):
        part = TIME_WINDOWS[match.group("period")]
        window = TimeWindow(start=part.start, end=part.end, label=match.group())
        # The 回 is left for the day said before it (21号下午考完回: the 21st is the way home's).
        found.append(Found(match.start(), match.end() - 1, window, "return_window"))
    for match in _APPOINTMENT.finditer(text):
        period = match.group("period") or context_period(text, match.start(), arrival=False)
        at = _deadline_hour(text, match, period)
        if at is not None and match.group().endswith(("的飞机", "的航班")):
            if _FLIGHT_LANDS.match(text, match.end()):
                continue  # 八点的航班到广州: a flight that lands, said as context
            # 十点的飞机: at the airport an hour and a half before it, to check in.
            at = _shift_minutes(at, -FLIGHT_CHECK_IN_MINUTES)
        if at is not None:
            # As typed: a place said inside it (九点在滨海新区开会) is masked in `text`.
            label = typed[match.start() : match.end()] if len(typed) == len(text) else match.group()
            window = TimeWindow(start=dt.time(0, 0), end=at, label=label)
            found.append(Found(match.start(), match.end(), window, "arrive_window", weak=True))
    clock = _HOUR_LABEL.search(text)
    for match in _APPOINTMENT_PART.finditer(text):
        if clock is not None and not _HOME_CUE.search(text, 0, clock.start()):
            continue  # 早上开会，九点前到: the clock said for the ride out is its deadline
        if any(f.start <= match.start() < f.end for f in found):
            continue  # 下午两点的会: the clock said it
        if meeting_before_leaving(text, match.start("period"), match.end("period")):
            continue  # 周五上午开会，下午从北京回天津: the meeting is where the ride starts
        begins = _MEETING_BEGINS[match.group("period")]
        window = TimeWindow(start=dt.time(0, 0), end=begins, label=match.group())
        found.append(Found(match.start(), match.end(), window, "arrive_window", weak=True))
    for match in _APPOINTMENT_FIRST.finditer(text):
        period = match.group("period") or context_period(text, match.start(), arrival=False)
        at = _deadline_hour(text, match, period)
        if at is not None:
            # The span is the hour's: a day said between (约的明天上午十点) is the date's.
            hour_at = match.start("period") if match.group("period") else match.start("h")
            window = TimeWindow(start=dt.time(0, 0), end=at, label=text[hour_at : match.end()])
            found.append(Found(hour_at, match.end(), window, "arrive_window", weak=True))
    for match in _AROUND.finditer(text):
        period = match.group("period") or context_period(text, match.start(), arrival=False)
        # 一点左右走: one to five o'clock with no part of the day said is the afternoon's; no
        # one asks for a train around one in the night without saying so (凌晨一点左右).
        period = meeting_part(period, to_int(match.group("h")), text[: match.start()])
        at = _clock(_part(period), match.group("h"), match.group("half"))
        if at is not None:
            window = TimeWindow(start=_shift(at, -1), end=_shift(at, 1), label=match.group())
            found.append(Found(match.start(), match.end(), window))
    for match in _AT_HOUR.finditer(text):
        if not (match.group("rough") or match.group("verb") is not None):
            continue
        period = match.group("period") or context_period(text, match.start("h"), arrival=False)
        period = meeting_part(period, to_int(match.group("h")), text[: match.start()])
        at = _clock(_part(period), match.group("h"), match.group("half"))
        if at is not None:
            said_at = match.start("period") if match.group("period") else match.start("h")
            clock_end = match.start("verb") if match.group("verb") else match.end()
            label = text[said_at:clock_end] + "左右"
            window = TimeWindow(start=_shift(at, -1), end=_shift(at, 1), label=label)
            kind = "depart_window" if match.group("verb") else None
            found.append(Found(match.start(), match.end(), window, kind))
    for match in _TWO_HOURS.finditer(text):
        period = match.group("period") or context_period(text, match.start(), arrival=False)
        first, second = (to_int(c) for c in match.group("pair"))
        lo = _clock(_part(period), str(first), None)
        hi = _clock(_part(period), str(second), "半")
        if lo is not None and hi is not None and hi > lo:
            found.append(
                Found(match.start(), match.end(), TimeWindow(start=lo, end=hi, label=match.group()))
            )
    for match in _AT_THE_LATEST.finditer(text):
        period = match.group("period") or context_period(text, match.start(), arrival=False)
        at = _clock(_part(period), match.group("h"), match.group("half"))
        if at is None:
            continue
        arrival = match.group("what") in ("到", "抵达")
        latest = match.group("bound") != "最早"
        kind = "arrive_window" if arrival else ("depart_window" if match.group("what") else None)
        window = TimeWindow(
            start=dt.time(0, 0) if latest else at,
            end=at if latest else END_OF_DAY,
            label=match.group(),
        )
        found.append(Found(match.start(), match.end(), window, kind))
    for match in _DONE_AT.finditer(text):
        period = match.group("period") or context_period(text, match.start(), arrival=False)
        if (
            period is None
            and match.group("done") in ("下班", "收工", "下工", "放学")
            and "夜班" not in text  # a night shift ends in the morning (七点下班: 07:00)
        ):
            period = "下午"  # 五点半下班: a day's work ends in the afternoon or evening
        at = _clock(_part(period), match.group("h"), match.group("half"))
        if at is not None and match.group("done") in _LANDED:
            at = _shift_minutes(at, LANDING_TO_TRAIN_MINUTES)
        if at is not None:
            # As typed: the airport said inside it (三点在宝安机场落地) is masked in `text`.
            label = typed[match.start() : match.end()] if len(typed) == len(text) else match.group()
            window = TimeWindow(start=at, end=END_OF_DAY, label=label)
            # 五点散会，当天回来: the business over, the ride home said after it leaves then.
            over = match.group("done") in _BUSINESS_DONE
            if over and _RIDE_HOME_SAID.search(typed, match.end()) is not None:
                found.append(Found(match.start(), match.end(), window, "return_window"))
            else:
                found.append(Found(match.start(), match.end(), window, "depart_window"))
    for match in _HOUR_AND_SOME.finditer(text):
        period = match.group("period") or context_period(text, match.start(), arrival=False)
        at = _clock(_part(period), match.group("h"), None)
        if at is not None:
            window = TimeWindow(start=at, end=_shift(at, 1), label=match.group())
            found.append(Found(match.start(), match.end(), window))
    for match in _BARE_ARRIVAL.finditer(text):
        period = match.group("period") or context_period(text, match.start(), arrival=True)
        at = _deadline_hour(text, match, period)
        if at is not None:
            window = TimeWindow(start=dt.time(0, 0), end=at, label=match.group())
            found.append(Found(match.start(), match.end(), window, "arrive_window"))
    for match in _NOT_TOO_EARLY.finditer(text):
        window = TimeWindow(start=dt.time(8, 0), end=END_OF_DAY, label=match.group())
        found.append(Found(match.start(), match.end(), window, "depart_window"))
    for match in _NOT_BEFORE_DAWN.finditer(text):
        window = TimeWindow(start=dt.time(6, 0), end=END_OF_DAY, label=match.group())
        found.append(Found(match.start(), match.end(), window, "depart_window", weak=True))
    for match in _NOT_IN_THE_NIGHT.finditer(text):
        window = TimeWindow(start=dt.time(6, 0), end=END_OF_DAY, label=match.group())
        found.append(Found(match.start(), match.end(), window, "depart_window", weak=True))
    for match in _NOT_TOO_LATE_THERE.finditer(text):
        window = TimeWindow(start=dt.time(0, 0), end=dt.time(22, 0), label=match.group())
        back = match.group("home") and _BACK_SAID_BEFORE.search(typed[: match.start()])
        kind = "return_arrive_window" if back else "arrive_window"
        found.append(Found(match.start(), match.end(), window, kind, weak=True))
    for words, start, end in _MEALS:
        for match in words.finditer(text):
            window = TimeWindow(start=start, end=end, label=match.group())
            found.append(Found(match.start(), match.end(), window))
    for match in _NOON_AROUND.finditer(text):
        window = TimeWindow(start=dt.time(11, 0), end=dt.time(13, 0), label=match.group())
        found.append(Found(match.start(), match.end(), window))
    for words, start in ((_EVENING_WORDS, dt.time(18, 0)), (_AFTER_SCHOOL_WORDS, dt.time(16, 0))):
        if words is _EVENING_WORDS and "夜班" in text:
            continue  # 早上八点下夜班，下了班就走: a night shift ends in the morning
        for match in words.finditer(text):
            window = TimeWindow(start=start, end=END_OF_DAY, label=match.group())
            found.append(Found(match.start(), match.end(), window, "depart_window"))
    for match in _DUSK.finditer(text):
        window = TimeWindow(start=dt.time(17, 0), end=dt.time(19, 30), label=match.group())
        found.append(Found(match.start(), match.end(), window))
    for match in _DAYTIME.finditer(text):
        if BUSY_THEN.match(text, match.end()) or _MEETING_AFTER.match(text, match.end()):
            continue  # 白天开会: the day is the meeting's, no window for the ride
        leave = TimeWindow(start=dt.time(6, 0), end=dt.time(18, 0), label="白天")
        found.append(Found(match.start(), match.end(), leave, "depart_window"))
        if _LEAVING.match(text, match.end()):
            continue  # 白天走: when to leave, not a ride over by night (K1505 15:00→01:16)
        arrive = TimeWindow(start=dt.time(6, 0), end=END_OF_DAY, label="白天")
        found.append(Found(match.start(), match.end(), arrive, "arrive_window"))
    found.sort(key=lambda f: f.start)
    chosen: list[Found] = []
    for item in found:  # overlapping phrases: the first (longest-registered) wins
        if chosen and item.start < chosen[-1].end and item.start != chosen[-1].start:
            continue
        if chosen and item.start == chosen[-1].start and item.end > chosen[-1].end:
            # 三点左右我飞机落地 over 三点左右: the longer phrase says what the hour is.
            while chosen and chosen[-1].start == item.start and chosen[-1].end < item.end:
                chosen.pop()
        elif chosen and item.start == chosen[-1].start and item.end < chosen[-1].end:
            continue
        chosen.append(item)
    return chosen


def appointment_said(text: str) -> bool:
    """True when `text` says an appointment at a clock (会9点开始, 十点的会, 面试约的下午两点):
    its hour is read as meetings are held, not against the plan shown."""
    return any(
        regex.search(text) is not None
        for regex in (_APPOINTMENT, _APPOINTMENT_FIRST, _APPOINTMENT_RANGE, _APPOINTMENT_THEN_RANGE)
    )


_CLOCK_NEXT = re.compile(r"^\s*" + _HOUR + r"\s*(?:点|:|时)")


def names_a_clock(text: str, end: int) -> bool:
    """True when a part of the day ending at `end` is the part of a clock (早上8点前): the clock
    says the window, the part alone does not."""
    return _CLOCK_NEXT.match(text[end : end + 6]) is not None


# Parts of the day that, said of the departure with no day, are today's (xiawu cong nanjing qu
# shanghai: this afternoon); 凌晨 is as often the night to come, and is asked about.
_TODAYS_PARTS = frozenset({"早上", "上午", "中午", "下午", "傍晚", "晚上"})


def today_implied(windows: Iterable[TimeWindow], depart: TimeWindow | None = None) -> bool:
    """True when a window names an hour (下午五点前必须到), or the departure a part of the day
    (下午从南京去上海): said with no day, it is today's."""
    if depart is not None and depart.label in _TODAYS_PARTS:
        return True
    return any(_HOUR_LABEL.search(window.label) for window in windows)


_LOOSE_DAYLIGHT = frozenset({"天黑前", "天黑后", "天亮前", "天亮后", "晚上前", "晚上后"})


def narrowed(first: TimeWindow, second: TimeWindow) -> TimeWindow:
    """Two windows said of one ride: their overlap, or the first said when they do not meet,
    unless only the second names an hour: 早上别太早，9点以后 is after nine, the hour said
    outright wins over the loose words before it."""
    start, end = max(first.start, second.start), min(first.end, second.end)
    if first.label in _LOOSE_DAYLIGHT and _HOUR_LABEL.search(second.label):
        return second  # 天黑前要到，六点之前: the hour says when dusk is, to the traveller
    if start >= end and _HOUR_LABEL.search(second.label) and not _HOUR_LABEL.search(first.label):
        return second
    if start >= end:
        return first
    hour_only_second = _HOUR_LABEL.search(second.label) and not _HOUR_LABEL.search(first.label)
    # 最好上午到，下午两点开会: an appointment's hour is a deadline of its own, not the far edge
    # of the part of the day said (那 is the overlap, 上午).
    appointment = _APPOINTMENT.search(second.label) is not None
    if (
        hour_only_second
        and not appointment
        and second.start == dt.time(0, 0)
        and second.end > first.end
    ):
        # 下午走…晚上八点前得发车: the hour said outright moves the loose part's far edge.
        return TimeWindow(start=first.start, end=second.end, label=f"{first.label}{second.label}")
    if hour_only_second and second.end == END_OF_DAY and dt.time(0, 0) < second.start < first.start:
        return TimeWindow(start=second.start, end=first.end, label=f"{first.label}{second.label}")
    if (start, end) == (first.start, first.end) and not (
        _HOUR_LABEL.search(second.label) and not _HOUR_LABEL.search(first.label)
    ):
        return first
    # 晚上…六点下班: the same hours, the hour said kept in the label (what it is said of).
    return TimeWindow(start=start, end=end, label=f"{first.label}{second.label}")


def _part(period: str | None) -> str | None:
    return {"今晚": "晚上", "明晚": "晚上"}.get(period or "", period)


# 打车去虹桥要四十分钟, 坐地铁到车站得半小时, 到火车站开车一个小时: the way to the station
# after one is free (六点下班); the train leaves once it is reached.
_WAY_TAKES = re.compile(
    r"(?:(?:打车|打的|坐地铁|地铁|开车|骑车|走路|步行|坐公交|公交|坐车)(?:去|到)[^，,。；;！？\s]{0,8}?"
    r"|(?:去|到)(?:火)?车站[^，,。；;！？\s]{0,4}?)"
    r"(?:就)?(?:要|得|需要|大概|差不多|至少|起码){1,2}\s*"
    r"(?:(?P<half>半个?小时|半个钟头?)|(?P<h>[0-9一二两三]|一个|两个)\s*(?:个)?(?P<and_half>半)?"
    r"(?:小时|钟头)|(?P<m>[0-9]{1,3}|[一二三四五六七八九十]{1,3})\s*分钟?)"
)
_FREE_AT = re.compile(r"下班|下课|放学|考完|收工|下工|开完会|散会|忙完|完事|结束")
# 七点下班: the hour work ends, not the hour a train can be boarded. With no way to the
# station said, half an hour to reach it (the window shown says the hour it starts from).
_OFF_WORK_AT = re.compile(r"点(?:半|[0-9]{1,2}分?)?(?:下班|收工|下工)$")
OFF_WORK_TO_TRAIN_MINUTES = 30


def way_to_station_minutes(text: str, depart: TimeWindow | None) -> int:
    """The minutes a traveller said it takes to reach the station after the hour they are
    free (六点下班 打车去虹桥要四十分钟: 40), or 0 when no such way is said, or the departure
    is no hour one is free at."""
    if depart is None or _FREE_AT.search(depart.label) is None:
        return 0
    for took in _WAY_TAKES.finditer(text):
        if took.group("half"):
            return 30
        if took.group("h"):
            hours = 1 if took.group("h") == "一个" else 2 if took.group("h") == "两个" else None
            hours = hours if hours is not None else to_int(took.group("h")) or 0
            return 60 * hours + (30 if took.group("and_half") else 0)
        return to_int(took.group("m")) or 0
    return OFF_WORK_TO_TRAIN_MINUTES if _OFF_WORK_AT.search(depart.label) else 0


def later_by(window: TimeWindow, minutes: int) -> TimeWindow:
    """`window` starting `minutes` later (its end kept)."""
    start = dt.datetime.combine(dt.date.min, window.start) + dt.timedelta(minutes=minutes)
    if not minutes or start.date() != dt.date.min or start.time() >= window.end:
        return window
    return TimeWindow(start=start.time(), end=window.end, label=window.label)
