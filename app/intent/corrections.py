"""Self-corrections inside one sentence: "周五，不对，周六早上…", "我们五个，哦不，四个人…",
"去苏州，啊不，去无锡". What is said after the marker replaces what was said right before it,
when both are of one kind (a day, a count of people, an hour, a place); the rest of the
sentence stands. A marker that is not set apart by punctuation ("是周六不是周五") is no
self-correction and is left to the other readers.
"""

from __future__ import annotations

import re

from app.intent.numerals import NUMBER

_SEP = r"[，,。!！\s]"
# 不对 / 哦不对 / 不对不对 / 说错了 …, then a pause or the 是 that introduces what is meant
# (哦不对是周六, 说错了是四个人); 应该是 alone corrects only a value said on its own
# (…，应该是周六，上午到): 周五出发，应该是周六到 is two facts, not a correction.
_NEGATION = (
    r"(?:(?:哦|噢|喔|啊|呃|额|哎|诶|欸)?不对|(?:哦|噢|喔|啊|呃|额|哎)?不是|(?:哦|噢|喔|啊|呃|额)不"
    r"|说错了|打错了|错了)"
)
_MARKER = re.compile(
    r"(?:[，,。\s]|…|\.\.\.)+(?:"
    + _NEGATION
    + r"(?:"
    + _SEP
    + r"*"
    + _NEGATION
    + r")*(?:"
    + _SEP
    + r"+(?:应该是|是)?|应该是|是)"
    + r"|(?P<weak>应该是))"
)
_ALONE = re.compile(_SEP + r"|$")  # what ends a value said on its own
DAY_SAID = (
    r"(?:(?:这|下下|下|本)?(?:周|星期|礼拜)[一二三四五六七日天末]|大后天|今天|明天|后天"
    r"|今晚|明晚|明早|\d{1,2}月\d{1,2}[号日]?|\d{1,2}[号日])"
)
# 两张票 counts the party as well: 两张…啊不对是三张 is three travellers.
_COUNT = r"(?:" + NUMBER + r")(?:个人|个|位|人|口人|口|张)"
_HOUR = r"(?:" + NUMBER + r")点(?:半|\d{1,2}分?)?"
_CUE = r"(?:从|去|到|回|往|由|在|住)"
_PLACE = r"(?:[\u4e00-\u9fff]{2,4}|[A-Z][a-z]{2,}(?:'[a-z]+)?)"
# (what it replaces, at the end of what came before; what says it, at the start of what comes
# after; what it replaces further back, when said once only): days, counts of people and
# hours; a place is tried last, and only right before the marker.
_KINDS: list[tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str] | None]] = [
    (re.compile(DAY_SAID + r"$"), re.compile(DAY_SAID), re.compile(DAY_SAID)),
    (re.compile(_COUNT + r"$"), re.compile(_COUNT), re.compile(_COUNT)),
    # 我们五个，哦不，四个人
    (re.compile(r"(?:" + NUMBER + r")(?:个|位)$"), re.compile(_COUNT), None),
    (re.compile(_HOUR + r"$"), re.compile(_HOUR), re.compile(_HOUR)),
]
_PLACE_BEFORE = re.compile(r"(?P<cue>" + _CUE + r")(?P<place>" + _PLACE + r")$")
_PLACE_AFTER = re.compile(r"(?P<cue>" + _CUE + r")?" + _PLACE)


# 不是后天，是大后天 / 不是下周一是这周日 / 不是五个而是四个: a value denied, then the one meant,
# of one kind. Unlike 是周六不是周五 (left to the other readers), the denial comes first, so
# what follows it is what is meant.
_VALUE = "|".join((DAY_SAID, _COUNT, _HOUR))
_DENIED_THEN_MEANT = re.compile(
    r"(?:^|(?<=[，,。!！\s]))(?:哦|噢|啊|哎|诶|呃)?不是(?P<old>"
    + _VALUE
    + r")"
    + _SEP
    + r"*(?:(?:我|哦|啊)?(?:说|记|搞|弄|打|写|看)错了"  # 不是这周日，我说错了，是下周日
    + _SEP
    + r"*)?(?:而是|应该是|是|改成|改为|改到|换成)(?P<new>"
    + _VALUE
    + r")"
)


def _denied_then_meant(text: str) -> str:
    """`text` with each 不是X，是Y put as Y alone; an X said once earlier in the sentence
    (后天去上海，不是后天是大后天) becomes Y there and the correction is dropped."""
    for found in _DENIED_THEN_MEANT.finditer(text):
        old, new = found.group("old"), found.group("new")
        kind = next((k for k, _, _ in _KINDS if k.match(old) and k.match(new)), None)
        if kind is None:
            continue  # 不是后天是三个人: two kinds, no correction
        before, after = text[: found.start()], text[found.end() :]
        if before.count(old) == 1:
            at = before.index(old)
            head = before[:at] + new + before[at + len(old) :]
            return _denied_then_meant(head.rstrip("，,。 ") + after)
        return _denied_then_meant(before + new + after)
    return text


# 周四有会，改周五吧 / 请不下假，改成下周二: a later clause changing a value to another of its
# kind; the clause may follow the reason the value cannot stand (改 opens its clause).
_CHANGED_TO = re.compile(
    r"[，,。!！\s]+(?:那就|那|就|还是)?(?:改|换)(?:成|为|到)?(?P<new>"
    + _VALUE
    + r")(?:吧|呢|啊|呀|了)?(?=[，,。!！\s]|$)"
)


_CLAUSE = re.compile(r"(?=[，,。!！])")
_MARKER_ONLY = re.compile(r"^[，,。!！\s]*" + _NEGATION + r"[，,。!！\s]*$")
"""A clause that is only the marker (周六…，哦不对，周六还要加班，改成周日): it opened the
change."""


def _changed_to(text: str) -> str:
    """`text` with each 改成Y clause put as Y where the last value of its kind before it was
    first said (下周一请不下假，改成下周二 → 下周二请不下假); a later clause saying that value
    again is the reason it cannot stand and goes too (周四去杭州，哦不对周四有会，改周五 →
    周五去杭州). A change with nothing of its kind before it is left to the chat."""
    for found in _CHANGED_TO.finditer(text):
        new = found.group("new")
        earlier = next((e for k, _, e in _KINDS if e is not None and k.match(new)), None)
        if earlier is None:
            continue
        before, after = text[: found.start()], text[found.end() :]
        olds = [m.group() for m in earlier.finditer(before) if m.group() != new]
        if not olds:
            continue
        old = olds[-1]
        at = before.index(old) + len(old)
        head, rest = before[:at], before[at:]
        kept = [c for c in _CLAUSE.split(rest) if old not in c and not _MARKER_ONLY.match(c)]
        head = head[: -len(old)] + new + "".join(kept)
        return _changed_to(head + after)
    return text


# 去桂林…算了桂林去过了，还是去北海吧: a place given up (算了, with its reason), then the one
# gone to instead.
_PLACE_GIVEN_UP = re.compile(
    r"(?:去|到)(?:(?![不没别])[\u4e00-\u9fff]){2,4}?(?:[…\.。，,!！\s]|吧|了)*算了[^，,。！!]{0,12}?"
    r"[，,。！!\s]*(?:还是|那就|那还是|就|改成?|换成?)\s*(?=去|到)"
)


_PART = r"(?:凌晨|早上|上午|中午|下午|傍晚|晚上)"
# 明天上午走，算了上午有事，下午吧: the part of the day said busy, then the one meant.
_PART_GIVEN_UP = re.compile(
    r"[，,。!！\s]+(?:算了|哦不对|不对|啊不对|哦不)?[，,\s]*(?P<old>" + _PART + r")"
    r"(?:还)?(?:有事|不行|没空|走不了|不方便|来不及|要上班|要开会)[^，,。]{0,4}?[，,\s]*"
    r"(?:那就|那|就|还是|改成?)?(?P<new>" + _PART + r")(?:吧|的车|的|走)?(?=[，,。!！\s]|$)"
)


def _part_given_up(text: str) -> str:
    """`text` with a part of the day said busy after it was chosen (上午…算了上午有事，下午吧)
    put as the one meant where it was first said, the change dropped."""
    found = _PART_GIVEN_UP.search(text)
    if found is None or found.group("old") == found.group("new"):
        return text
    before, after = text[: found.start()], text[found.end() :]
    at = before.rfind(found.group("old"))
    if at < 0:
        return text
    return before[:at] + found.group("new") + before[at + len(found.group("old")) :] + after


# 明天没空，后天去: a day said busy, then the day meant (聽日唔得閒，後日…, as Mandarin).
_DAY_GIVEN_UP = re.compile(
    r"(?:^|(?<=[，,。!！\s]))" + DAY_SAID + r"(?:我|都|我都)?(?:还|要)?"
    r"(?:有事|没空|没有空|不得空|不得闲|没时间|不行|走不了|不方便)"
    r"(?:啦|呢|啊|的)?[，,。!！\s]+(?=[^，,。]{0,8}?" + DAY_SAID + r")"
)


# 后天…哎不对，后天我娃要回来，那就大后天走: the reason between the denial and the day meant
# (那就大后天) adds nothing to the correction; the day said last is the one meant.
_REASON_THEN_DAY = re.compile(
    r"(?P<marker>(?:哎|哦|噢|啊|呃)?不对(?:不对)?[，,\s]+)[^，,。！!？?]{1,14}?[，,\s]+"
    r"(?:那就|那|就|还是|只好|只能)(?=" + DAY_SAID + r")"
)


# 住两晚太紧了 改成住三晚: the stay said, found wanting, then the one meant.
_STAY_CHANGED = re.compile(
    r"(?:住|待|呆|玩)?(?:" + NUMBER + r")\s*(?:个)?(?:晚上?|夜|天)[^，,。！!]{0,8}?[，,\s]*"
    r"(?:那就|就|还是)?(?:改成|改为|换成|改)(?=\s*(?:住|待|呆|玩)?\s*(?:"
    + NUMBER
    + r")\s*(?:个)?(?:晚|夜|天))"
)


def self_corrected(text: str) -> str:
    """`text` with each corrected part dropped along with its marker."""
    text = _STAY_CHANGED.sub("", text)
    text = _REASON_THEN_DAY.sub(r"\g<marker>", text)
    text = _DAY_GIVEN_UP.sub("", text)
    text = _part_given_up(_PLACE_GIVEN_UP.sub("", text))
    text = _changed_to(_denied_then_meant(text))
    while True:
        for marker in _MARKER.finditer(text):
            before, after = text[: marker.start()], text[marker.end() :]
            if not before.strip():
                continue  # "不对，是去蒙自": a turn correcting an earlier one, read by the chat
            fixed = _replaced(before, after, alone=marker.group("weak") is not None)
            if fixed is not None:
                text = fixed
                break
        else:
            return text


def _replaced(before: str, after: str, *, alone: bool) -> str | None:
    """`before` corrected by `after`, or None when `after` corrects nothing in it.

    The value corrected is the one of its kind said right before the marker (周五，不对，
    周六早上); failing that, the only one of its kind said earlier in the sentence (周五从
    苏州去上海见客户，哦不对是周六: the day is put where 周五 stood, so what was said of it
    stays in place). `alone`: a correction without a negation (应该是) counts only for a
    value said on its own."""
    for said, says, said_earlier in _KINDS:
        new = says.match(after)
        if new is None or (alone and not _ALONE.match(after, new.end())):
            continue
        old = said.search(before)
        if old is not None:
            return before[: old.start()] + after
        if said_earlier is None:
            continue
        olds = list(said_earlier.finditer(before))
        if len(olds) == 1:
            rest = after[new.end() :]
            if rest and not _ALONE.match(rest):
                rest = "，" + rest  # 哦不对是周六早上: 早上 is its own clause now
            return before[: olds[0].start()] + new.group() + before[olds[0].end() :] + rest
    if alone or any(says.match(after) for _, says, _ in _KINDS):
        return None  # a day, a count or an hour is never a place (周五去周日回，不对是周六)
    old_place = _PLACE_BEFORE.search(before)
    new_place = _PLACE_AFTER.match(after)
    if old_place is not None and new_place is not None:
        if new_place.group("cue"):
            return before[: old_place.start()] + after
        return before[: old_place.start("place")] + after
    return None
