"""Self-corrections inside one sentence: "周五，不对，周六早上…", "我们五个，哦不，四个人…",
"去苏州，啊不，去无锡". What is said after the marker replaces what was said right before it,
when both are of one kind (a day, a count of people, an hour, a place); the rest of the
sentence stands. A marker that is not set apart by punctuation ("是周六不是周五") is no
self-correction and is left to the other readers.
"""

from __future__ import annotations

import re

from app.intent.numerals import NUMBER

_MARKER = re.compile(
    r"[，,。\s]+(?:不对|哦不|噢不|喔不|啊不|呃不|额不|不是|错了|说错了|打错了)(?:不对)?[，,。!！\s]+"
)
_DAY = (
    r"(?:(?:这|下下|下|本)?(?:周|星期|礼拜)[一二三四五六七日天末]|大后天|今天|明天|后天"
    r"|今晚|明晚|明早|\d{1,2}月\d{1,2}[号日]?|\d{1,2}[号日])"
)
_COUNT = r"(?:" + NUMBER + r")(?:个人|个|位|人|口人|口)"
_HOUR = r"(?:" + NUMBER + r")点(?:半|\d{1,2}分?)?"
_CUE = r"(?:从|去|到|回|往|由)"
_PLACE = r"[\u4e00-\u9fff]{2,4}"
# (what it replaces, at the end of what came before; what says it, at the start of what comes
# after): days, counts of people and hours; a place is tried last.
_KINDS = [
    (re.compile(_DAY + r"$"), re.compile(_DAY)),
    (re.compile(_COUNT + r"$"), re.compile(_COUNT)),
    (re.compile(r"(?:" + NUMBER + r")(?:个|位)$"), re.compile(_COUNT)),  # 我们五个，哦不，四个人
    (re.compile(_HOUR + r"$"), re.compile(_HOUR)),
]
_PLACE_BEFORE = re.compile(r"(?P<cue>" + _CUE + r")(?P<place>" + _PLACE + r")$")
_PLACE_AFTER = re.compile(r"(?P<cue>" + _CUE + r")?" + _PLACE)


def self_corrected(text: str) -> str:
    """`text` with each corrected part dropped along with its marker."""
    while True:
        for marker in _MARKER.finditer(text):
            before, after = text[: marker.start()], text[marker.end() :]
            if not before.strip():
                continue  # "不对，是去蒙自": a turn correcting an earlier one, read by the chat
            fixed = _replaced(before, after)
            if fixed is not None:
                text = fixed
                break
        else:
            return text


def _replaced(before: str, after: str) -> str | None:
    for said, says in _KINDS:
        old = said.search(before)
        if old is not None and says.match(after):
            return before[: old.start()] + after
    old_place = _PLACE_BEFORE.search(before)
    new_place = _PLACE_AFTER.match(after)
    if old_place is not None and new_place is not None:
        if new_place.group("cue"):
            return before[: old_place.start()] + after
        return before[: old_place.start("place")] + after
    return None
