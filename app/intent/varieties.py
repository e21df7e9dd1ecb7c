"""Other ways of writing Chinese, read as the simplified Mandarin the parser knows.

Travellers from Hong Kong, Macau and Taiwan type traditional characters (下禮拜五由西九龍搭
高鐵去長沙), and Cantonese speakers write their own words in either script (有冇票, 唔好超過
500蚊, 聽日朝早). `as_mandarin` turns both into simplified Mandarin before anything else reads
the text: OpenCC's own traditional-to-simplified tables (the reference converter, not a table of
ours), then the handful of written-Cantonese words that change what a request means.

A simplified sentence is left alone: a few characters OpenCC would rewrite are ordinary in
simplified writing too (乾县, 於 as a surname), so only a character that is traditional and
nothing else counts as the sign of a traditional text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import opencc

# Characters of GB 2312 (simplified writing) that OpenCC's t2s still rewrites: their presence
# alone says nothing about the script (enumerated from GB 2312 against OpenCC 1.4; 後 is left
# out, it is the traditional form of 后 in every real text).
_ALSO_SIMPLIFIED = frozenset("乾菸薹拚捱摺吒徵夥榘於袷麴醣麽")
# Station names t2s would spoil (乾县 → 干县); put back after converting. A test checks this
# against every name of the station list.
FRAGILE_NAMES = ("乾县", "乾安")


@cache
def _converter() -> opencc.OpenCC:
    import opencc  # loaded by the first traditional sentence only

    return opencc.OpenCC("t2s")


@cache
def _outside_simplified(char: str) -> bool:
    """True for a CJK character simplified writing (GB 2312) has no place for (龍, 鐵, 禮)."""
    try:
        char.encode("gb2312")
    except UnicodeEncodeError:
        return True
    return False


def _may_be_traditional(text: str) -> bool:
    """A cheap look before the converter: a character of the CJK block outside GB 2312, or 後
    (GB 2312 keeps it, for 皇后/後 in names)."""
    return any(
        "\u4e00" <= char <= "\u9fff" and (char == "後" or _outside_simplified(char))
        for char in text
    )


def _traditional(text: str, converted: str) -> bool:
    if len(text) != len(converted):
        return True
    return any(a != b and a not in _ALSO_SIMPLIFIED for a, b in zip(text, converted, strict=True))


def simplified(text: str) -> str:
    """`text` in simplified characters when it is written in traditional ones, else as it is."""
    if not _may_be_traditional(text):
        return text
    converted = _converter().convert(text)
    if converted == text or not _traditional(text, converted):
        return text
    for name in FRAGILE_NAMES:
        converted = converted.replace(_converter().convert(name), name)
    # 係 is 是 in Cantonese and 系 only in 關係/聯係; t2s writes 系 for both.
    return re.sub(r"(?<![关联])系(?![统列])", "是", converted) if "係" in text else converted


_Table = tuple[tuple[re.Pattern[str], str], ...]
"""Patterns of one way of speaking with the standard words they are read as, in order."""


def _table(*pairs: tuple[str, str]) -> _Table:
    return tuple((re.compile(pattern), mandarin) for pattern, mandarin in pairs)


# Written Cantonese (in simplified characters, after `simplified`) → Mandarin, only the words
# that carry the request: days and parts of the day, negation and "is there", who, which,
# money, together, who comes (孙仔, 细路), the cold asked about (冻唔冻). Each pattern keeps to
# the Cantonese use (唔 before a word, not the interjection 唔，).
_CANTONESE = _table(
    (r"唔该(?:晒)?|唔好意思", ""),
    # 呢两个礼拜边日都得, 最平嗰日: these two weeks any day will do, the cheapest day.
    (r"呢(?=[两一三几]?个|排|次|趟|班)", "这"),
    (r"[边邊哪]日都得", "哪天都行"),
    (r"[嗰𠮶](?=日|班|趟|次)", "那"),
    # 最尾一班, 尾班车: the last train.
    (r"最尾|尾班", "最晚"),
    (r"收工(?=之后|之後|以后|后)", "下班"),
    (r"冻唔冻", "冷不冷"),
    # 礼拜一赶唔切: not in time for it (来不及).
    (r"赶唔切|赶唔及|嚟唔切|来唔切", "来不及"),
    (r"使唔使", "用不用"),
    (r"而家", "现在"),
    (r"唔好(?=[\u4e00-\u9fff0-9])", "不要"),
    (r"有冇", "有没有"),
    (r"冇", "没有"),
    (r"唔系", "不是"),
    (r"唔啱", "不对"),
    (r"(?:走|去|行)唔甩", "走不了"),
    (r"唔(?=[\u4e00-\u9fff])", "不"),
    (r"我哋", "我们"),
    (r"你哋", "你们"),
    (r"佢哋", "他们"),
    (r"佢", "他"),
    (r"喺", "在"),
    (r"嘅", "的"),
    (r"咗", "了"),
    (r"嗰", "那"),
    (r"(?<=[早晚快平贵])啲", "点"),
    (r"啲", "些"),
    (r"边(?=[班个趟日天度])", "哪"),
    (r"仲(?=[有要是])", "还"),
    (r"咁", "那"),
    (r"睇", "看"),
    (r"搵", "找"),
    (r"(?<=[订看买])埋", ""),
    (r"一齐", "一起"),
    (r"孙女仔", "孙女"),
    (r"(?<=我)[個个]仔", "儿子"),  # 我個仔: my son
    (r"孙仔", "孙子"),
    (r"细路(?:仔|女)?", "小孩"),
    # 两大一细: two grown-ups and a child.
    (r"(?<=大[一两二三俩1-3])细(?![心节致])", "小"),
    (r"屋企人", "家人"),
    (r"屋企", "家"),
    (r"返工", "上班"),
    (r"放工", "下班"),
    (r"返学", "上学"),
    (r"返(?=家)", "回"),
    (r"返嚟", "回来"),
    # 之后返广州: going back to a place (往返, 返程, 返回 stay Mandarin; 返工 is work).
    (r"(?<![往重折])返(?![程回工学校嚟乡])(?=[\u4e00-\u9fff])", "回"),
    # 22号返, 礼拜日返: coming back, said last.
    (r"(?<![往重折])返(?=\s*(?:[，。,.!！?？~]|$))", "回来"),
    (r"朝早", "早上"),
    (r"上昼", "上午"),
    (r"下昼", "下午"),
    (r"晏昼", "中午"),
    (r"夜晚", "晚上"),
    (r"琴日|寻日", "昨天"),
    (r"几多", "多少"),
    (r"咩", "什么"),
    (r"俾", "给"),
    (r"改做", "改成"),
    (r"老豆", "老爸"),
    (r"(?<![一个])老母(?!鸡)", "老妈"),
    # 加多个大人: one more.
    (r"加多(?=[一两二三0-9]?个|位)", "再加"),
    # 唔系礼拜五，系礼拜六: 系 is 是 (in simplified writing too) before what is said to be.
    (r"(?:(?<=^)|(?<=[，,\s]))系(?=[礼周星今明听后下这上0-9一二三四五六七八九十早晚朝])", "是"),
    # 最平嘅, 平啲: the cheapest, cheaper.
    (r"最平", "最便宜"),
    (r"平(?=点|嘅|的)", "便宜"),
    (r"(?<=[0-9一二三四五六七八九十百千两])蚊", "元"),
    (r"搭(?=[高动火夜早晚头尾第这那G-Zg-z]|车)", "坐"),
)
_CANTONESE_DAYS = {"听日": "明天", "听朝": "明早", "听晚": "明晚", "后日": "后天"}
_CANTONESE_DAY = re.compile("|".join(_CANTONESE_DAYS))
_CANTONESE_CUE = re.compile(
    r"听[日朝晚]|后日|唔|冇|哋|佢|喺|嘅|咗|嗰|啲|边[班个趟日天度]|仲[有要是]|咁|睇|搵|埋|屋企|返"
    r"|朝早|[上下晏]昼|琴日|寻日|几多|咩|俾|改做|蚊|搭|一齐|孙仔|孙女仔|细路|而家|大[一两二三俩1-3]细"
    r"|最平|平啲|平嘅|(?:^|[，,\s])系|老豆|老母|加多|唔啱|唔甩"
    # 放工之后, 探阿嫲: off work, a grandmother visited.
    r"|放工|阿嫲|阿爷"
)


def cantonese_as_mandarin(text: str) -> str:
    """Written Cantonese words read as their Mandarin (有冇票 → 有没有票, 唔好 → 不好)."""
    if not _CANTONESE_CUE.search(text):
        return text
    text = _CANTONESE_DAY.sub(lambda m: _CANTONESE_DAYS[m.group()], text)
    return _replaced(text, _CANTONESE)


def _replaced(text: str, table: _Table) -> str:
    """`text` with each pattern of `table` put as its standard word, in the table's order."""
    for pattern, mandarin in table:
        text = pattern.sub(mandarin, text)
    return text


# Places a Hong Kong or Macau traveller names in English, which no pinyin reading finds, and
# English shorthand for a day (tmr).
_ENGLISH = {
    "hong kong west kowloon": "香港西九龙",
    "west kowloon": "香港西九龙",
    "hong kong": "香港",
    "hk": "香港",
    "macau": "澳门",
    "macao": "澳门",
    # English names that are not the pinyin (Harbin is haerbin, Urumqi wulumuqi).
    "harbin": "哈尔滨",
    "xi'an": "西安",
    "urumqi": "乌鲁木齐",
    "hohhot": "呼和浩特",
    "kashgar": "喀什",
    "lhasa": "拉萨",
    "turpan": "吐鲁番",
    "golmud": "格尔木",
    "shangri-la": "香格里拉",
    "canton": "广州",
    "peking": "北京",
    "tsingtao": "青岛",
    "tmr": "明天",
    "tmrw": "明天",
    "tmw": "明天",
}
_ENGLISH_WORD = re.compile(
    r"(?<![A-Za-z])(?:"
    + "|".join(sorted(_ENGLISH, key=len, reverse=True)).replace(" ", r"\s+")
    + r")(?![A-Za-z])",
    re.IGNORECASE,
)


_NUMBER_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
_COUNT = r"(?P<n>\d{1,2}|" + "|".join(_NUMBER_WORDS) + r")\s*"


def _count(match: re.Match[str]) -> str:
    said = match.group("n").lower()
    return str(_NUMBER_WORDS.get(said, said))


def _clock(match: re.Match[str]) -> str:
    """10am → 上午10点, 6:30pm → 晚上6点30分, 12pm → 中午12点."""
    hour, minute, half = int(match.group("h")), match.group("m"), match.group("ap").lower()
    part = "上午" if half.startswith("a") else ("中午" if hour == 12 else "下午")
    if half.startswith("p") and hour >= 6 and hour != 12:
        part = "晚上"
    return f"{part}{hour}点" + (f"{int(minute)}分" if minute and int(minute) else "")


_WEEKDAYS = {
    "monday": "一", "tuesday": "二", "wednesday": "三", "thursday": "四", "friday": "五",
    "saturday": "六", "sunday": "日", "mon": "一", "tue": "二", "tues": "二", "wed": "三",
    "thu": "四", "thur": "四", "thurs": "四", "fri": "五", "sat": "六", "sun": "日",
}  # fmt: skip
# "this Monday" said on a Saturday is the coming Monday, not 这周一 (past by then): English
# "this"/"coming" with a weekday is the nearest one ahead, a bare 周一.
_WEEK_OF = {"next": "下"}
_APPOINTMENT_WORD = {"meeting": "开会", "interview": "面试", "appointment": "的号", "exam": "考试"}
_COMPANION_WORD = {
    "friend": "朋友", "buddy": "朋友", "mate": "朋友", "girlfriend": "女朋友", "gf": "女朋友",
    "boyfriend": "男朋友", "bf": "男朋友", "wife": "老婆", "husband": "老公", "mum": "我妈",
    "mom": "我妈", "mother": "我妈", "dad": "我爸", "father": "我爸", "brother": "我哥",
    "sister": "我姐", "colleague": "同事", "partner": "伴侣", "classmate": "同学",
}  # fmt: skip
# (The names joined longest first, so an abbreviation never cuts a full name short.)
_WEEKDAY_NAMES = "|".join(sorted(_WEEKDAYS, key=len, reverse=True))
_BACK_TO = r"(?<![A-Za-z])(?:come\s+|go\s+|get\s+|head(?:ing)?\s+)?back\s+to\s+"
_AMPM = r"(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>a\.?m\.?|p\.?m\.?)(?![A-Za-z])"
# English phrases of a request, each as a Chinese traveller says it; the rest of the reading
# (days, seat classes, train kinds, cities in pinyin) understands English already.
_ENGLISH_PHRASES: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), say)
    for pattern, say in (
        # Monday the week after next: 下下周一 (before the weekday alone is read).
        (
            r"(?<![A-Za-z])(?:on\s+)?(?P<day>" + _WEEKDAY_NAMES + r")\s+(?:of\s+)?the\s+week"
            r"\s+after\s+next",
            lambda m: "下下周" + _WEEKDAYS[m.group("day").lower()],
        ),
        # fri the 18th, Friday 18th: the day of the month said; the weekday only names it.
        (
            r"(?<![A-Za-z])(?:on\s+)?(?:" + _WEEKDAY_NAMES + r")\.?\s+(?:the\s+)?"
            r"(?=\d{1,2}(?:st|nd|rd|th)(?![A-Za-z])(?!\s*class))",
            "the ",
        ),
        # this coming Tuesday: the next Tuesday, whichever week it falls in.
        (r"(?<![A-Za-z])this\s+coming\s+(?=" + _WEEKDAY_NAMES + r")", ""),
        # come back after 7pm: the ride home's hours, before the hour is read; coming back on
        # the 16th: its day.
        (
            r"(?<![A-Za-z])(?:and\s+)?(?:come|coming|get|getting|head(?:ing)?|go(?:ing)?)\s+back"
            r"\s+(?=(?:after|before|by|at|around|about|on)\s)",
            "回来 ",
        ),
        # train home has to leave after 6pm: the ride home's hours, as 回来 said before them.
        (
            r"(?<![A-Za-z])(?:the\s+)?(?:train|ride|trip|way)\s+(?:home|back)\s+"
            r"(?:(?:has|have|needs?)\s+to\s+|must\s+|should\s+|to\s+|can\s+)?"
            r"(?:leave|depart|go)?\s*(?=(?:after|before|at|around|about)\s)",
            "回来 ",
        ),
        # we are 2 students: the party and the fare at once.
        (
            r"(?<![A-Za-z])we(?:'re|\s+are)\s+(?P<n>[2-9]|two|three|four|five|six)\s+"
            r"(?:(?:uni|college|university|intl|international|exchange|grad|phd|poor|broke)\s+)?"
            r"students\b",
            lambda m: (
                "我们"
                + str(_NUMBER_WORDS.get(m.group("n").lower(), m.group("n")))
                + "个学生 学生票"
            ),
        ),
        (r"(?<![A-Za-z])we\s+(?:both\s+|all\s+)?have\s+student\s+(?:cards|ids?)\b", "有学生证"),
        # a meeting in Shenzhen at 10am: the appointment's hour (开会), kept beside its place.
        (
            r"\b(?P<what>meeting|interview|appointment|exam)\b(?P<mid>[^.,;!?]{0,40}?)\bat\s+"
            + _AMPM,
            lambda m: m.group("mid") + " " + _clock(m) + _APPOINTMENT_WORD[m.group("what").lower()],
        ),
        # I must be in Shanghai before 2pm: there by then.
        (
            r"(?:be|get|arrive|arriving)\s+(?:in|at|to)\s+(?P<place>[A-Za-z']+)\s+"
            r"(?:before|by)\s+" + _AMPM,
            lambda m: "去" + m.group("place") + " " + _clock(m) + "前到",
        ),
        (r"(?:arrive|arriving|get there|be there)?\s*by\s+" + _AMPM, lambda m: _clock(m) + "前到"),
        # nothing before 9am: leaving after it, not before.
        (
            r"(?:nothing|no\s+trains?|not|none)\s+(?:leaving\s+)?(?:before|earlier\s+than)\s+"
            + _AMPM,
            lambda m: _clock(m) + "以后",
        ),
        # the old Huizhou villages, Hakka food: a place's name as an adjective, no place to go.
        (
            r"(?<![A-Za-z])[A-Z][a-z]+\s+(?=(?:villages?|style|food|cuisine|culture|architecture"
            r"|opera|noodles|tea|dishes)(?![A-Za-z]))",
            "",
        ),
        (r"before\s+" + _AMPM, lambda m: _clock(m) + "前"),
        (r"after\s+" + _AMPM, lambda m: _clock(m) + "以后"),
        (
            _AMPM + r"\s*(?:or\s+)?(?:later|onwards?|after)(?![A-Za-z])",
            lambda m: _clock(m) + "以后",
        ),
        (r"(?:around|about|at around)\s+" + _AMPM, lambda m: _clock(m) + "左右"),
        (_AMPM, _clock),
        (_COUNT + r"adults?(?![A-Za-z])", lambda m: _count(m) + "个大人"),
        # our two kids (5 and 8), 2 kids aged 5 and 8: the count and each age.
        (
            _COUNT + r"(?:kids?|child|children|sons|daughters)\s*(?:\(\s*|,\s*|aged\s+|ages\s+)"
            r"(?P<a>\d{1,2})\s*(?:and|&|,|/)\s*(?P<b>\d{1,2})\s*(?:years?\s+old|yrs?|yo)?\s*\)?",
            lambda m: f"{_count(m)}个小孩，一个{m.group('a')}岁一个{m.group('b')}岁，",
        ),
        # + kids aged 8 and 12: two children, counted by their ages.
        (
            r"(?<![A-Za-z0-9])(?:the\s+|our\s+|my\s+)?(?:kids|children)\s+(?:aged\s+|ages\s+)"
            r"(?P<a>\d{1,2})\s*(?:and|&|,|/)\s*(?P<b>\d{1,2})(?![0-9])\s*(?:years?\s+old|yrs?|yo)?",
            lambda m: f"两个小孩，一个{m.group('a')}岁一个{m.group('b')}岁，",
        ),
        (_COUNT + r"(?:kids?|child|children)(?![A-Za-z])", lambda m: _count(m) + "个小孩"),
        (
            _COUNT + r"(?:ppl|people|persons|pax|travell?ers|passengers|of us)(?![A-Za-z])",
            lambda m: _count(m) + "个人",
        ),
        (_COUNT + r"(?:tickets?|tix)(?![A-Za-z])", lambda m: _count(m) + "张票"),
        (r"(?<![A-Za-z0-9])(?P<n>\d{1,2})\s*zhang(?![A-Za-z])", lambda m: m.group("n") + "张票"),
        # after 10: an hour with no am or pm, read as the clock says it (10点以后).
        (
            r"(?<![A-Za-z])after\s+(?P<h>1[0-2]|[1-9])(?![0-9:.]|\s*(?:am|pm|a\.m|p\.m|days?|"
            r"nights?|hours?|hrs?|mins?|yuan|rmb|kuai|ppl|people))",
            lambda m: m.group("h") + "点以后",
        ),
        (r"christmas\s+eve", "平安夜"),
        (r"(?:christmas|xmas)(?:\s+day)?", "圣诞节"),
        (r"new\s+year'?s?\s+(?:day|eve)?", "元旦"),
        # I'm in Luoyang, no wait, Zhengzhou: where one is, then put right.
        (r"(?<![A-Za-z])i(?:'m|\s+am)\s+(?:in|at)\s+", "我在"),
        (r"(?<![A-Za-z])i\s+live\s+in\s+", "我住在"),
        (
            r"\s*[,，]?\s*(?:no\s+wait|wait\s+no|no\s+sorry|sorry\s*,?\s*i\s+mean|i\s+mean"
            r"|actually\s*,?\s*no|oops)\s*[,，]?\s*(?=[A-Za-z\u4e00-\u9fff])",
            "，不对，",
        ),
        (r"student (?:tickets?|fares?|discount)", "学生票"),
        (r"i(?:'m| am) a student", "我是学生"),
        (
            r"(?:come |coming |going |and )?(?:back|return(?:ing)?)\s+"
            r"(?:(?:on|in)\s+)?(?:the\s+)?(?:next\s+day|day\s+after)",
            "第二天回来",
        ),
        (
            r"(?:come |coming |going |and )?(?:back|return(?:ing)?)\s+(?:on\s+)?"
            r"(?P<when>(?:the\s+)?(?:next\s+)?(?:[A-Za-z]+day|(?:"
            + _WEEKDAY_NAMES
            + r")(?![A-Za-z]))(?:\s+(?:morning|afternoon|evening|night))?)",
            lambda m: m.group("when") + "回来",
        ),
        (
            r"(?<![A-Za-z])(?:(?P<which>next|this|coming)\s+)?(?P<day>" + _WEEKDAY_NAMES + r")"
            r"(?![A-Za-z])",
            lambda m: (
                _WEEK_OF.get((m.group("which") or "").lower(), "")
                + "周"
                + _WEEKDAYS[m.group("day").lower()]
            ),
        ),
        # A Chinese place after an English route word (I go 苏洲 from 上海): 去, 从.
        (
            r"(?<![A-Za-z])(?:go(?:ing)?|head(?:ing)?|travel(?:l?ing)?)(?:\s+to)?\s+"
            # go 成都 to 重庆 is a route said whole: its first place is where one starts.
            r"(?=[\u4e00-\u9fff])(?![\u4e00-\u9fff]+\s*(?:to\b|→|->|到|去))",
            "去",
        ),
        (r"(?<![A-Za-z])from\s+(?=[\u4e00-\u9fff])", "从"),
        # leave beijing fri the 18th: where one sets off.
        (
            r"(?<![A-Za-z])(?:leave|leaving|depart|departing)\s+(?:from\s+)?(?=[A-Za-z]{3,}\b)",
            "from ",
        ),
        # The weather asked in English: how cold is Harbin, do I need a down jacket.
        (
            r"(?<![A-Za-z])(?:how\s+(?:cold|hot|warm)\s+is|what(?:'s|\s+is)\s+the\s+weather"
            r"|weather\s+(?:in|like|forecast)|(?:need|bring)\s+a\s+(?:down\s+)?(?:jacket|coat))",
            "天气冷不冷",
        ),
        # The weather asked in pinyin (tianqi yubao, xia xue ma): what it is, not a place.
        (r"(?<![A-Za-z])tian\s?qi(?:\s?yu\s?bao)?(?![A-Za-z])", "天气预报"),
        (r"(?<![A-Za-z])xia\s?xue(?![A-Za-z])", "下雪"),
        (r"after lunch", "午饭后"),
        (r"after dinner", "晚饭后"),
        (r"after breakfast", "早饭后"),
        # not Saturday, Sunday: the day put right (after the weekdays above are read).
        (
            r"(?<![A-Za-z])not\s+(?P<old>(?:下|这)?周[一二三四五六日])\s*[,，]?\s*(?:but\s+)?"
            r"(?P<new>(?:下|这)?周[一二三四五六日])",
            lambda m: f"不是{m.group('old')}，是{m.group('new')}",
        ),
        (r"(?:and\s+)?come\s+back\s+(?:the\s+)?same\s+(?:evening|night)", "当天晚上回来"),
        (r"(?:and\s+)?come\s+back\s+(?:the\s+)?same\s+day", "当天回来"),
        # back to Shanghai same night: home that day.
        (
            # (the place may be read already: urumqi is 乌鲁木齐 by now)
            r"(?:and\s+)?(?:get\s+|come\s+|go\s+)?back\s+to\s+(?P<place>[^\s,，.]+)\s*,?\s+"
            r"(?:the\s+)?same\s+(?P<when>day|night|evening)",
            lambda m: ("当天回" if m.group("when") == "day" else "当天晚上回") + m.group("place"),
        ),
        # back to HK on Sunday: the day home said after the place.
        (
            _BACK_TO + r"(?P<place>[^\s,，.]+)\s+on\s+(?P<day>(?:下|这)?周[一二三四五六日])",
            lambda m: m.group("day") + "回" + m.group("place"),
        ),
        # Sun back to SH: the day home, then the place.
        (_BACK_TO, "回"),
        (r"(?<![A-Za-z])day[- ]trip(?![A-Za-z])", "一日游 当天往返"),
        (r"(?:leaving\s+|depart(?:ing)?\s+)?before\s+noon", "中午前出发"),
        (r"(?:leaving\s+|depart(?:ing)?\s+)?after\s+noon", "中午以后出发"),
        (r"(?:arrive|arriving|get there|be there)\s+by\s+noon", "中午前到"),
        # business class for 2 pls: the party counted after what it asks for.
        (
            r"(?<![A-Za-z])for\s+(?P<n>[2-9]|two|three|four|five|six)(?!\s*(?:days?|nights?|"
            r"hours?|hrs?|weeks?|am|pm|[:.]\d|\d|yuan|rmb|kuai))",
            lambda m: str(_NUMBER_WORDS.get(m.group("n").lower(), m.group("n"))) + "个人",
        ),
        # 2 nights in dali, then on to lijiang: the stay, then the place, as 大理住两晚.
        (
            r"(?<![A-Za-z])" + _COUNT + r"nights?\s+(?:in|at)\s+(?P<place>[A-Za-z]+)",
            lambda m: m.group("place") + "住" + _count(m) + "晚",
        ),
        # Dali 2 nights -> Lijiang 3 nights: a stay said after the place, as 大理住两晚.
        (
            r"(?<=[A-Za-z])\s+(?:for\s+)?"
            + _COUNT
            + r"nights?(?=\s*(?:->|→|>|,|，|;|\)|$|then\b))",
            lambda m: "住" + _count(m) + "晚",
        ),
        (r"(?<![A-Za-z])same\s+day(?![A-Za-z])", "当天"),
        (r"one[- ]way", "单程"),
        (r"round[- ]trip|return tickets?", "往返"),
        (
            r"(?:no|not|don'?t|do\s+not|never|avoid)\s+(?:want|need|take|like)?\s*(?:an?\s+)?"
            r"(?:overnight|night)(?:\s+(?:sleeper\s+)?trains?)?",
            "不要过夜的车",
        ),
        (r"(?<![A-Za-z])(?:during the )?day ?time(?![A-Za-z])", "白天"),
        (r"(?:overnight|night)\s+(?:sleeper\s+)?trains?|overnight\s+sleepers?", "夜车卧铺"),
        (r"tomorrow night", "明天晚上"),
        (r"(?<![A-Za-z])night(?![A-Za-z])", "晚上"),
        (r"lower (?:berth|bunk)|bottom (?:berth|bunk)", "下铺"),
        (r"upper (?:berth|bunk)|top (?:berth|bunk)", "上铺"),
        (r"middle (?:berth|bunk)", "中铺"),
        (r"window seats?", "靠窗"),
        (r"aisle seats?", "靠过道"),
        # A bullet train in English is any of China's EMUs, G and D alike.
        (r"bullet trains?|high[- ]speed trains?|high[- ]speed rail", "高铁动车"),
        # the train takes too long: the train waved off, as 火车太慢了 is.
        (r"(?:the\s+)?trains?\s+(?:takes?|is|are)\s+too\s+(?:long|slow)", "火车太慢了"),
        # 36h on a train sounds insane: the train waved off, a flight asked for instead.
        (
            r"(?:\d+\s*h(?:ours?|rs?)?\s+)?on\s+(?:a|the)\s+train\s+(?:sounds|is|seems|would\s+be)"
            r"\s+(?:insane|crazy|too\s+long|awful|terrible|like\s+forever)",
            "坐火车太折腾了",
        ),
        # leave as early as possible: the earliest; as late as possible: the latest.
        (r"(?:leave\s+|leaving\s+|depart\s+)?as\s+early\s+as\s+possible", "越早越好"),
        (r"(?:leave\s+|leaving\s+|depart\s+)?as\s+late\s+as\s+possible", "越晚越好"),
        # at least 8 hrs there: hours at the destination.
        (
            r"(?:want\s+|need\s+)?at\s+least\s+(?P<n>\d{1,2})\s*(?:hours?|hrs?|h)\s+there",
            lambda m: "在那边待" + m.group("n") + "个小时",
        ),
        # Children said in English: our 5yo son, my daughter (7), he's 4.
        (
            r"(?:(?:our|my|a|his|her|the)\s+)?(?P<age>\d{1,2})\s*[- ]?"
            r"(?:yo|y/o|y\.o\.|years?[- ]old|yr[- ]old)\s*(?:son|daughter|kid|child|boy|girl)",
            lambda m: m.group("age") + "岁的孩子",
        ),
        (
            r"(?:(?:our|my)\s+)?(?:son|daughter|kid|child|boy|girl)\s*\(\s*(?P<age>\d{1,2})\s*"
            r"(?:years?[- ]old|yrs?(?:[- ]old)?|yo|y/o)?\s*\)",
            lambda m: "孩子" + m.group("age") + "岁",
        ),
        (
            r"(?<![A-Za-z])(?:he|she)(?:'s|\s+is)\s+(?P<age>\d{1,2})(?![\d:.])"
            r"(?:\s*(?:yo|years?\s+old))?",
            lambda m: (
                ("他" if m.group().lower().startswith("he") else "她") + m.group("age") + "岁"
            ),
        ),
        # and a friend, a colleague is coming too: one more grown-up.
        (
            r"(?<![A-Za-z])(?:(?:and|with|plus)\s+)?an?\s+(?P<who>friend|buddy|mate|colleague"
            r"|classmate|coworker|co-worker)(?![A-Za-z])(?!\s+of\b)",
            lambda m: "和" + _COMPANION_WORD.get(m.group("who").lower(), "同事"),
        ),
        (r"(?<![A-Za-z])(?:is|are)\s+coming\s+(?:too|as well|along|with us)", "也去"),
        (r"(?<![A-Za-z])(?:our|my)\s+son(?![A-Za-z])", "儿子"),
        (r"(?<![A-Za-z])(?:our|my)\s+daughter(?![A-Za-z])", "女儿"),
        # my wife and I: the companion, then the speaker.
        (
            r"(?<![A-Za-z])(?:my\s+)?(?P<who>wife|husband|girlfriend|boyfriend|gf|bf|friend|mum|mom"
            r"|dad|brother|sister|colleague|partner)\s+and\s+i(?![A-Za-z'])",
            lambda m: "我和" + _COMPANION_WORD[m.group("who").lower()],
        ),
        # me + my wife, me and my husband: the speaker and a companion.
        (r"(?<![A-Za-z])me\s*(?:\+|and|&|,)\s*", "我和"),
        # our toddler, a baby: a small child, its age unsaid.
        (
            r"(?:,\s*|\s+)(?:and\s+)?(?:our|my|a|the)\s+(?:toddler|baby|infant|little\s+one)"
            r"(?![A-Za-z])",
            "带一个小孩",
        ),
        # me and my friend, with my mum: the companion in Chinese, so the party is counted.
        (
            r"(?<![A-Za-z])my\s+(?P<who>friend|buddy|mate|girlfriend|boyfriend|gf|bf|wife"
            r"|husband|mum|mom|mother|dad|father|brother|sister|colleague|partner)(?![A-Za-z])",
            lambda m: _COMPANION_WORD[m.group("who").lower()],
        ),
        (r"\s*\+\s*(?=我|老婆|老公|儿子|女儿|\d{1,2}岁的孩子|孩子)", "和"),
    )
)
_LATIN = re.compile(r"[A-Za-z]")
_CJK = re.compile(r"[\u4e00-\u9fff]")
# 2ren, 3ge ren: a count typed in pinyin beside Chinese words.
_PINYIN_COUNT = re.compile(r"(?<![A-Za-z0-9])(?P<n>\d{1,2})\s*(?:ge\s*)?ren(?![A-Za-z])", re.I)


def english_as_chinese(text: str) -> str:
    """Place names in English (West Kowloon, HK), tmr, and the English phrases of a request
    (2 adults 1 kid, before 10am, lower berth) in Chinese."""
    if not _LATIN.search(text):
        return text
    text = _ENGLISH_WORD.sub(lambda m: _ENGLISH[" ".join(m.group().lower().split())], text)
    for pattern, say in _ENGLISH_PHRASES:
        text = pattern.sub(say, text)
    if _CJK.search(text):  # a sentence all in pinyin is read as pinyin, its counts with it
        text = pinyin_heads(text)
    return text


def pinyin_heads(text: str) -> str:
    """`text` with a party counted in pinyin (2ren, 3 ge ren) as 2个人."""
    return _PINYIN_COUNT.sub(lambda m: m.group("n") + "个人", text)


# South-western and central Mandarin (四川, 重庆, 湖北, 湖南): 莫坐夜里的车 is 别坐, 莫得高铁
# 没有高铁, 冇得关系 没有关系. 莫 only before a verb of choosing (莫干山 stays a place).
_SOUTHWEST = _table(
    (r"莫得", "没有"),
    (r"冇得", "没有"),
    (r"没得(?=事|关系|问题|所谓)", "没"),
    (r"没得", "没有"),
    # 七点过后走: after seven.
    (r"(?<=[点时])过后", "以后"),
    (r"莫(?=[坐要买订定搞给选整让排开走跟帮在])", "别"),
    # 从成都切峨眉山耍两晚上: 切 is 去 before a place, 耍 is 玩, 两晚上 two nights.
    (
        r"(?<=[\u4e00-\u9fff])(?<![一亲迫密关确真急])切(?=[\u4e00-\u9fff]{2})"
        r"(?!换|记|断|开|掉|片|菜)",
        "去",
    ),
    (r"耍", "玩"),
    (r"(?<=[两三四五六七八九十\d])晚上(?=[，,。!！\s]|$)", "晚"),
)


_SOUTHWEST_CUE = re.compile(r"莫|冇得|没得|[点时]过后|耍|切")


# Shanghainese (Wu): 阿拉明朝想到苏州去白相 is 我们明天想到苏州去玩. Read only in a sentence
# with one of its own words (`_WU_CUE`): 额, 伊 and 眼 are ordinary characters elsewhere.
_WU = _table(
    # 落班以后: after work.
    (r"落班", "下班"),
    (r"阿拉", "我们"),
    (r"伊拉", "他们"),
    (r"侬", "你"),
    (r"拿伊", "把它"),
    (r"(?<![一-龥])伊(?=[一-龥])", "他"),
    (r"勿", "不"),
    (r"白相相", "玩玩"),  # (not 玩相, which spells 万象)
    (r"白相", "玩"),
    (r"辰光", "时候"),
    (r"早浪向?", "早上"),
    (r"夜快(?:头)?", "傍晚"),
    (r"夜里[向厢]?", "晚上"),
    (r"屋里[向厢]", "家里"),
    # 两家头, 三家头: two, three of us.
    (r"(?P<n>[两三四五六])家头", r"\g<n>个人"),
    (r"转来(?=上海|[一-龥]{2}(?:的|了|，|,|$))", "回"),
    (r"转来", "回来"),
    (r"上半日|上半天", "上午"),
    (r"下半日|下半天", "下午"),
    (r"价钿", "价钱"),
    (r"(?<=[宜早晚快])一?眼", "点"),
    (r"明朝", "明天"),
    (r"今朝", "今天"),
    (r"后日", "后天"),
    (r"(?<=[一两二三四五六七1-7])日(?=[，,。\s]|$|来回|往返)", "天"),
    (r"当日", "当天"),
    (r"(?<=[一-龥])额", "的"),
    (r"交关", "很"),
    (r"哪能", "怎么"),
)
_WU_CUE = re.compile(
    r"阿拉|侬|伊拉|勿|白相|辰光|早浪|转来|[上下]半日|价钿|明朝|今朝|交关|哪能|拿伊|家头|里厢"
    # 有伐, 好伐, 早一眼的有伐: the question's own particle.
    r"|[有好对行要]伐|伐[？?。！!]?$"
)

# Minnan (闽南, 台语): 我明仔载下晡欲去泉州 is 我明天下午要去泉州, 阮四个 我们四个.
_MINNAN = _table(
    (r"明仔载|明仔日", "明天"),
    (r"今仔日", "今天"),
    (r"下晡", "下午"),
    (r"暗时|暗暝", "晚上"),
    (r"上暗(?:的)?(?:彼|那)?(?:班|趟|帮)?", "最晚的那班"),
    (r"上早(?:的)?(?:彼|那)?(?:班|趟|帮)?", "最早的那班"),
    (r"越晏越好", "越晚越好"),
    (r"阮", "我们"),
    (r"欲", "要"),
    (r"(?<=回程|返程|回来)免(?:啦|了)?", "不用了"),
    (r"彼", "那"),
    (r"囝仔", "小孩"),
    (r"(?<=[一-龥])否(?=[？?。，,\s]|$)", "吗"),
    (r"(?<![一-龥])伊(?=[一-龥])", "他"),
    (r"佮", "和"),
    # 透早: early in the morning; 八点进前: before eight; 毋是: is not.
    (r"透早", "一早"),
    (r"(?<=点)进前", "之前"),
    (r"毋是", "不是"),
    (r"毋", "不"),
    # 会足寒袂: will it be cold (a weather question); 礼拜一早起: Monday morning.
    (r"(?:会)?(?:足|真|诚)?寒(?:袂|无|吗)", "冷不冷"),
    (r"早起(?=[，,。\s]|$|的|时)", "早上"),
    # 对福州转来厦门: from 福州 back to 厦门.
    (r"(?<![一-龥])对(?=[一-龥]{2,3}(?:转来|回))", "从"),
    (r"转来(?=[一-龥]{2})", "回"),
    (r"转来", "回来"),
)
_MINNAN_CUE = re.compile(
    r"明仔|今仔日|下晡|暗时|暗暝|上暗|越晏|阮|欲|免啦|彼|囝仔|佮|袂|足寒|透早|毋是|歹势"
    r"|(?<![一-龥])对[一-龥]{2,3}(?:转来|回)"
)

# Northern and north-eastern words for the parts of the day and for "none" (Hunan 冒得 too):
# 下晌 is the afternoon, 咯个礼拜六 this Saturday, 有冒得 is there any.
_NORTHERN = _table(
    (r"下晌|后晌|过晌", "下午"),
    (r"(?<!晌)上晌|头晌|前晌", "上午"),
    (r"嗯呐", "嗯"),
    # 明儿个, 后儿个, 大后儿个, 今儿个: the days by their northern names.
    (r"大后儿个?", "大后天"),
    (r"(?<!大)后儿个", "后天"),
    (r"明儿个", "明天"),
    (r"今儿个", "今天"),
    (r"有冒得", "有没有"),
    (r"冒得", "没有"),
    (r"咯个", "这个"),
    (r"走不脱", "走不了"),
    (r"嘎嘎便宜(?:的|那种|那趟|那个)?", "最便宜的"),
    # 回来那趟整下午的: the afternoon one wanted (整 is to get, in the north-east).
    (r"整(?=下午|上午|晚上|早上|中午|傍晚)", "要"),
    # 整个动车就行: get a D train (整 is to get, in the north-east).
    (r"整(?:个|张|一张|俩|两张)(?=动车|高铁|卧铺|硬卧|软卧|一等座|二等座|下铺|票)", "买个"),
    # 整动车高铁就行: the kind of train to get.
    (r"(?<![别不])整(?=动车|高铁|卧铺|硬卧|软卧)", "坐"),
)
# Every word of the table is its own: the cue is the table itself.
_NORTHERN_CUE = re.compile("|".join(pattern.pattern for pattern, _ in _NORTHERN))


# Hakka (客家话): 𠊎天光日爱去广州 is 我明天要去广州, 下昼三点前爱到 下午三点前要到.
_HAKKA_I = r"(?<![天生边无际])[涯偓](?=[系係想要同老屋们爱冇唔去来的在今明后])"
"""涯 (or 偓) typed for 𠊎, I, before what the speaker does (涯系梅州个; 天涯 is no one)."""
_HAKKA = _table(
    (r"𠊎", "我"),
    # 兩儕人，𠊎同𠊎阿姆: two people, my mother and I.
    (r"(?<=[一两二三四五六七八九十俩几])[儕侪]", "个"),
    (r"阿姆", "妈妈"),
    (_HAKKA_I, "我"),
    (r"(?<=我)系(?=[\u4e00-\u9fff]{2,4}?个[，,\s。]|[\u4e00-\u9fff]{2,4}?人)", "是"),
    (r"(?<=[\u4e00-\u9fff])(?<![一二两三四五六七八九十几这那哪每])个(?=[，,。\s]|$)", "的"),
    (r"天光日", "明天"),
    (r"今晡日", "今天"),
    (r"下昼", "下午"),
    (r"上昼", "上午"),
    (r"(?<![可恋])爱(?=[坐去到买订走要回])", "要"),
    (r"做得无", "可以吗"),
    (r"佢", "他"),
    (r"(?<=[我你他])同(?=[我你他])", "和"),
)
_HAKKA_CUE = re.compile(r"𠊎|天光日|今晡日|做得无|[上下]昼|[两二三四][儕侪]|" + _HAKKA_I)

_REGIONAL = (
    (_WU_CUE, _WU),
    (_MINNAN_CUE, _MINNAN),
    (_NORTHERN_CUE, _NORTHERN),
    (_HAKKA_CUE, _HAKKA),
)


def regional_as_mandarin(text: str) -> str:
    """Shanghainese, Minnan and northern words read as their standard forms."""
    for cue, table in _REGIONAL:
        if cue.search(text):
            text = _replaced(text, table)
    return text


def southwest_as_mandarin(text: str) -> str:
    """South-western Mandarin words read as their standard forms (莫坐 → 别坐)."""
    return _replaced(text, _SOUTHWEST) if _SOUTHWEST_CUE.search(text) else text


def as_mandarin(text: str) -> str:
    """`text` in simplified characters and Mandarin words (see the module's docstring)."""
    return english_as_chinese(
        cantonese_as_mandarin(regional_as_mandarin(southwest_as_mandarin(simplified(text))))
    )
