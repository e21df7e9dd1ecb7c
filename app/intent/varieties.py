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
from functools import cache

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
    return opencc.OpenCC("t2s")


def _traditional(text: str, converted: str) -> bool:
    if len(text) != len(converted):
        return True
    return any(a != b and a not in _ALSO_SIMPLIFIED for a, b in zip(text, converted, strict=True))


def simplified(text: str) -> str:
    """`text` in simplified characters when it is written in traditional ones, else as it is."""
    converted = _converter().convert(text)
    if converted == text or not _traditional(text, converted):
        return text
    for name in FRAGILE_NAMES:
        converted = converted.replace(_converter().convert(name), name)
    # 係 is 是 in Cantonese and 系 only in 關係/聯係; t2s writes 系 for both.
    return re.sub(r"(?<![关联])系(?![统列])", "是", converted) if "係" in text else converted


# Written Cantonese (in simplified characters, after `simplified`) → Mandarin, only the words
# that carry the request: days and parts of the day, negation and "is there", who, which,
# money. Each pattern keeps to the Cantonese use (唔 before a word, not the interjection 唔，).
_CANTONESE: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), mandarin)
    for pattern, mandarin in (
        (r"唔该(?:晒)?|唔好意思", ""),
        (r"唔好(?=[\u4e00-\u9fff0-9])", "不要"),
        (r"有冇", "有没有"),
        (r"冇", "没有"),
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
        (r"屋企人", "家人"),
        (r"屋企", "家"),
        (r"返(?=家)", "回"),
        (r"返嚟", "回来"),
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
        (r"(?<=[0-9一二三四五六七八九十百千两])蚊", "元"),
        (r"搭(?=[高动火夜早晚头尾第这那G-Zg-z]|车)", "坐"),
    )
)
_CANTONESE_DAYS = {"听日": "明天", "听朝": "明早", "听晚": "明晚", "后日": "后天"}
_CANTONESE_DAY = re.compile("|".join(_CANTONESE_DAYS))
_CANTONESE_CUE = re.compile(
    r"听[日朝晚]|后日|唔|冇|哋|佢|喺|嘅|咗|嗰|啲|边[班个趟日天度]|仲[有要是]|咁|睇|搵|埋|屋企|返"
    r"|朝早|[上下晏]昼|琴日|寻日|几多|咩|俾|改做|蚊|搭"
)


def cantonese_as_mandarin(text: str) -> str:
    """Written Cantonese words read as their Mandarin (有冇票 → 有没有票, 唔好 → 不好)."""
    if not _CANTONESE_CUE.search(text):
        return text
    text = _CANTONESE_DAY.sub(lambda m: _CANTONESE_DAYS[m.group()], text)
    for pattern, mandarin in _CANTONESE:
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


def english_as_chinese(text: str) -> str:
    """Place names in English (West Kowloon, HK) and tmr, in Chinese."""
    return _ENGLISH_WORD.sub(lambda m: _ENGLISH[" ".join(m.group().lower().split())], text)


def as_mandarin(text: str) -> str:
    """`text` in simplified characters and Mandarin words (see the module's docstring)."""
    return english_as_chinese(cantonese_as_mandarin(simplified(text)))
