"""Numbers as travellers write them: 3, 两, 十二, 2千5, 一万二, 1.5万, 3k.

`cn2an` is applied to the extracted number span only: on a whole sentence it would turn 三亚
into 3亚 and 五一 into 51.
"""

from __future__ import annotations

import math
import re

import cn2an

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
    try:
        value = float(cn2an.cn2an(text, "smart"))
    except (ValueError, KeyError, IndexError, OverflowError):
        return None  # OverflowError: a thousand 一 is no amount anybody means
    return value if math.isfinite(value) else None


def to_int(span: str) -> int | None:
    """`to_number` for counts (days, people): None unless a whole positive number."""
    value = to_number(span)
    if value is None or value <= 0 or value != int(value):
        return None
    return int(value)
