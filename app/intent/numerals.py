"""Numbers as travellers write them: 3, 两, 十二, 2千5, 一万二, 1.5万, 3k.

`cn2an` is applied to the extracted number span only: on a whole sentence it would turn 三亚
into 3亚 and 五一 into 51. The forms travellers write most (Arabic numbers, with 千 or 万 after
them, and Chinese numbers below 100,000 in their usual shapes: 三, 十二, 两千五百, 一万二) are
read here, as cn2an reads them (tests/app/intent/test_numerals.py compares every one of them
with it); cn2an itself is imported for the rest only: its import compiles regular
expressions for 0.2 s and holds 5 MiB, in every process that parses one sentence.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal

CN_DIGITS = "零〇一二两三四五六七八九十百千万"
# A number span: Arabic or Chinese numerals, optionally with a magnitude suffix (k, 千, 万)
# and the colloquial tail digit ("2千5" = 2500, "一万二" = 12000).
# A span starts only where a run of digits starts (the lookbehinds): without them every
# pattern built on NUMBER retried the match from each digit of a run, so a run of n digits
# cost n²/2 steps per pattern (1,000 digits: about 0.5-2 s of parser CPU on the event loop).
# A suffix of a run is never a number of its own, so nothing the parser reads is lost.
NUMBER = (
    rf"(?:(?<![\d.])\d+(?:\.\d+)?|(?<![{CN_DIGITS}])[{CN_DIGITS}]+)"
    rf"(?:\s?[kKwW千万](?:[0-9一二两三四五六七八九](?![0-9{CN_DIGITS}]))?)?"
)
NUMBER_RE = re.compile(NUMBER)
# The longest number a traveller writes ("一千二百三十四万五千六百" is 12): a longer span is not
# converted at all (cn2an's conversion is quadratic in its input, and no amount is meant).
MAX_SPAN = 24

_ENGLISH = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "a": 1,
    "an": 1,
}
_MAGNITUDE = {"k": 1000, "K": 1000, "千": 1000, "w": 10000, "W": 10000, "万": 10000}


def to_number(span: str) -> float | None:
    """The value of one number span, or None when it is not a number."""
    text = span.strip().replace(" ", "")
    if not text or len(text) > MAX_SPAN:
        return None
    if text.lower() in _ENGLISH:
        return float(_ENGLISH[text.lower()])
    # Latin magnitudes (3k, 1.5w, 2k5) are not cn2an's business: scale by hand.
    match = re.fullmatch(r"(\d+(?:\.\d+)?)([kKwW])(\d)?", text)
    if match:
        base = float(match.group(1)) * _MAGNITUDE[match.group(2)]
        tail = match.group(3)
        return base + (int(tail) * _MAGNITUDE[match.group(2)] / 10 if tail else 0)
    text = text.replace("〇", "零")
    common = read_common(text)
    if common is not None:
        return common
    from cn2an import cn2an  # the uncommon shapes only (see the module's docstring)

    try:
        value = float(cn2an(text, "smart"))
    except (ValueError, KeyError, IndexError, OverflowError):
        return None  # OverflowError: a thousand 一 is no amount anybody means
    return value if math.isfinite(value) else None


_DIGITS = "一二两三四五六七八九"
_DIGIT_VALUES = {"零": 0, **{d: v for v, d in enumerate("一二三四五六七八九", 1)}, "两": 2}
_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10000}
_D = f"[{_DIGITS}]"
_HUNDREDS = rf"{_D}百(?:{_D}十{_D}?|零{_D})?"
COMMON_CHINESE = re.compile(
    rf"零|{_D}|{_D}?十{_D}?|{_HUNDREDS}|{_D}千(?:{_HUNDREDS}|零{_D}十{_D}?|零{_D})?"
    rf"|{_D}万(?:{_D}千)?|{_D}[百千万]{_D}"
)
"""The Chinese numbers read without cn2an: 0-99, hundreds and thousands in full (三百零五,
两千四百五十), 一万 and 一万二千, and the spoken shortening 三百四 / 两千五 / 一万二."""
COMMON_ARABIC = re.compile(r"(\d+(?:\.\d+)?)([十百千万])?", re.ASCII)


def read_common(text: str) -> float | None:
    """The value of a number in one of the common shapes, as cn2an's "smart" mode reads it,
    or None when `text` has another shape."""
    arabic = COMMON_ARABIC.fullmatch(text)
    if arabic:
        number, unit = arabic.groups()
        return float(int(Decimal(number) * _UNITS[unit])) if unit else float(number)
    if not COMMON_CHINESE.fullmatch(text):
        return None
    if len(text) == 3 and text[1] in "百千万":
        # Spoken: the last digit counts in the next lower unit (两千五 is 2,500).
        unit = _UNITS[text[1]]
        return float(_DIGIT_VALUES[text[0]] * unit + _DIGIT_VALUES[text[2]] * unit // 10)
    total = digit = 0
    for char in text:
        if char in _UNITS:
            total += (digit or 1) * _UNITS[char]  # 十二: a leading 十 is one ten
            digit = 0
        else:
            digit = _DIGIT_VALUES[char]
    return float(total + digit)


def to_int(span: str) -> int | None:
    """`to_number` for counts (days, people): None unless a whole positive number."""
    value = to_number(span)
    if value is None or value <= 0 or value != int(value):
        return None
    return int(value)
