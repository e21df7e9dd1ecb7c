"""A chat turn's change to the party: who joins, who drops out, whose age or fare was said.

The parser reads a turn's party as if it were the whole trip ("孩子奶奶也去" has a child word
and a companion, so two people one of them a child). Said in a chat, the same words change the
party already known, and the new people's kind comes from how they are named:

- **Joining** (再加一个人, 也去, 跟我一起, 还有我弟弟, 再加上…): adults, unless named as a child
  (孩子, 小孩, 宝宝; a kin word with a child's age: 再加个女儿 八岁; 孩子的表弟，5岁) or as a
  student (也是学生, 也有学生证); 孩子的爷爷 / 孩子奶奶 is the child's grandparent, an adult,
  and 她已经工作了不是学生 an adult. A total said with it (再加个同学，俩人) is the whole party.
- **A child's age** said of the party's child (孩子14了, 儿子其实12岁): that child's age; the
  fare rules then price a 14-year-old as an adult.
- **The whole party** said again (我们三个人，都是学生; 我和同事两个人): the count, with the
  children kept while they fit and 都是学生 making every grown-up a student.
- **The fare** alone (学生票, 就我自己，有学生证, 我们都是学生): the grown-ups on student tickets.

Pure functions over intents and the turn's text; `app/intent/followup.py` applies the result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.intent import lexicon, party
from app.intent.model import TravelIntent
from app.intent.numerals import NUMBER, to_int
from rules.limits import MAX_PARTY

# 我妈说…, 老板说…: whose wish the turn passes on (they are in the trip already, or not at
# all): no one added by it.
REPORTED = re.compile(
    r"(?:^|(?<=[，,。\s]))(?:我妈|我爸|我妈妈|我爸爸|老妈|老爸|我老婆|我老公|老板|领导|经理|他|她"
    r"|他们|她们)(?:又|还|刚)?(?:说|讲|说了|讲了)(?!好)[，,：:\s]*"
)
# Kin who may be children: a child when an age is said for them (还有我弟弟，他10岁).
_YOUNG_KIN = frozenset(
    {"弟弟", "妹妹", "表弟", "表妹", "堂弟", "堂妹", "侄子", "侄女", "外甥", "外甥女"}
    | {"我弟", "我妹", "小侄子", "小侄女"}
    | {"孙子", "孙女", "外孙", "外孙女", *party.KIN_CHILD_WORDS}
)
# People a turn may add by name (还有我弟弟): the parser's companions and the kin of a child.
_NAMED = sorted(
    {phrase for phrase, _ in lexicon.COMPANIONS if phrase != "学生"}  # 也是学生 is no one new
    | _YOUNG_KIN
    | {"哥哥", "姐姐", "表哥", "表姐", "室友", "舍友", "媳妇", "婆娘", "闺女", "老妹", "老姐"}
    | {"姥姥", "姥爷", "婆婆", "公公", "岳父", "岳母", "舅舅", "姑姑", "阿姨", "叔叔"},
    # Longest first, and a pair (爸妈) before the one it contains (我爸妈 is not 我爸); a short
    # form led by 我 (我弟) after the kin word it overlaps (我弟弟 is one brother).
    key=lambda phrase: (
        dict(lexicon.COMPANIONS).get(phrase, 1),
        len(phrase),
        not phrase.startswith("我"),
    ),
    reverse=True,
)
_PEOPLE = "|".join(_NAMED)
_COUNTS = dict(lexicon.COMPANIONS)
# What 再加 adds when it is no person: 再加一站杭州, 再加一天, 再加个城市, 再加个回程.
_NOT_PEOPLE = (
    r"(?:站|天|晚|夜|程|段|趟|班|周|日|城市|个城市|地方|景点|点|回程|返程|去程|行程|回来的)"
)
_JOIN = re.compile(
    r"(?:再加上?|加上|(?<![增参追附添])加了?(?=[一两二三四五六七八九1-9]?\s*(?:个|位|名)))"
    r"(?![一两二三四五六七八九1-9]?\s*(?:个|位|名)?\s*" + _NOT_PEOPLE + r")"
    r"(?P<n>[一两二三四五六七八九1-9])?\s*(?:个|位|名)?"
    r"|多(?:加|来)?(?P<m>[一两二三1-9])(?:个|位)(?!\s*" + _NOT_PEOPLE + r")"
    r"|也(?:要|想|得|会)?(?:一起)?(?:去|来|走|跟着)|(?:跟|和|陪)(?:我|我们)一起|一起(?:去|走|回)"
    # 还要带我屋里伢子一起: someone brought along.
    r"|(?<![不没别])带(?:上|着)?[^，,。？?\s]{1,6}?一起(?!吗|吧[？?])"
    r"|陪我|带上|也一起|也一块儿?|还有(?:我|她|他|孩子|俺)?的?(?:一?个|一位)?(?:" + _PEOPLE + r")"
    # 还有两个带队老师, 还有一个家长: so many more, called by what they do.
    r"|还有(?P<r>[一两二三四五六七八九1-9])\s*(?:个|位|名)\s*(?:带队|领队|随队|随行)?的?"
    r"(?=老师|教师|家长|大人|成人|司机|导游|人(?![吗呢]))"
    r"|(?:也|再)(?:帮.{0,4})?(?:买|订|要)(?P<t>[一两二三四五1-9])张"
    # 又来俩, 又来了两个: so many more turned up.
    r"|又(?:来|多)了?(?P<more>[一两二三四五六七八九1-9]|俩|仨)\s*(?:个|位|名)?(?:人|老乡|同事|同学|朋友)?"
    r"(?!\s*" + _NOT_PEOPLE + r")"
)
# Someone the cue is said of: 她也去, 我也去 (not 我们一起去, the party as it is).
_SOMEONE = re.compile(r"(?:我|她|他|孩子|同学|同事|朋友)(?!们)")
# Companions named as two (爸妈, 父母, 二老): two join, not one.
_PAIR_WORDS = tuple(phrase for phrase, count in lexicon.COMPANIONS if count == 2)
# What "we" are, said before the count (我们老乡三个, 咱们同学四个).
_GROUP = r"老乡|同乡|同学|同事|朋友|姐妹|兄弟|哥们|室友|舍友|一家|家|工友"
_TOTAL = re.compile(
    r"(?:一共|总共|共)?(?P<n>" + NUMBER + r"|俩|仨)\s*(?:个|位)?(?:人|大人)(?![均])"
    r"|(?:一共|总共|共)(?P<all>" + NUMBER + r")\s*(?:个|位)(?!\s*(?:站|天|晚|城市|地方))"
    # 又加了一个人 现在4个: the party as it now stands.
    r"|(?:现在|目前|这下)(?:是|有|就)?(?P<now>" + NUMBER + r")\s*(?:个|位)"
    # 现在三个大人: the grown-ups counted, read below with the children who still come.
    r"(?!\s*(?:站|天|晚|城市|地方|小时|月|星期|礼拜|点|钟头|大人|成人|人|老人|小孩|孩子|学生|老师))"
    # 又来俩 七个了: the party as it now stands.
    r"|(?P<so_far>" + NUMBER + r")\s*(?:个|位)(?:人)?了(?![吗呢吧])"
    r"|(?P<pair>俩人|我们俩|我俩|我们仨|两口子)"
    # 我们三个, 咱们四个, 我们老乡三个: the party counted by "we" with no 人 after it.
    r"|(?:我们|咱们|俺们)(?:" + _GROUP + r")?(?:一共|总共|共)?(?P<we>" + NUMBER + r")\s*(?:个|位)"
    r"(?!\s*(?:站|天|晚|城市|地方|小时|月|星期|礼拜))"
)
# A count corrected (不对，是5个 / 说错了，应该是六个人): the party, not a head more.
_FIXED_TOTAL = re.compile(
    r"(?:不对|错了|说错了|记错了|搞错了)[，,。\s]*(?:是|应该是|其实是)\s*(?P<n>"
    + NUMBER
    + r")\s*(?:个|位)"
    r"(?!\s*(?:站|天|晚|城市|地方|小时|月|星期|礼拜|点))"
)
# A turn opening with the grown-ups counted, then others joined to them (两个大人加一个学生).
_GROWN_UPS_FIRST = re.compile(
    r"\s*(?:我们|咱们|俺们)?(?:一共|总共)?(?:" + NUMBER + r"|俩)\s*(?:个|位)?(?:大人|成人)"
    r"\s*(?:加上?|和|带|还有|跟)"
)
# Grown-ups bringing the children (我和老婆两个人带孩子): the count is theirs alone.
_BRINGING = re.compile(r"(?P<n>" + NUMBER + r"|俩)\s*(?:个|位)?(?:人|大人)\s*(?:带|领|陪)")
# A grown-up named through a child (孩子奶奶, 孩子的爷爷): the grandparent, not the child.
_THROUGH_CHILD = re.compile(
    r"(?:孩子|小孩|儿子|女儿|闺女|宝宝|孙子|孙女|外孙女|外孙)(?:的|他|她)?"
    r"(?:奶奶|爷爷|姥姥|姥爷|外婆|外公|爸爸|妈妈|爸|妈|舅舅|舅妈|姑姑|姑父|姨|阿姨|叔叔|婶婶|伯伯|老师)"
)
_PARENT = r"(?:爸爸|妈妈|爸|妈|父亲|母亲)"
_COUPLE_AND_CHILD = re.compile(
    r"(?:我们俩|我俩|咱俩|我们两个|两口子)(?:加上?|和|带着?|跟)(?:一个|个)?"
    r"(?:娃|孩子|小孩|宝宝|儿子|女儿|闺女)"
)
_COUPLE_SAID = re.compile(
    r"两口子|我们俩|我们两个|我俩|咱俩|老两口|我和老公|我和老婆|我跟老公|我跟老婆"
)
_CHILD_NAMED = re.compile(
    r"孩子|小孩|娃|宝宝|小朋友|婴儿|儿童"
    # 她上初一, 上幼儿园大班的: a school child, whatever the age.
    r"|" + party.SCHOOL_CHILD
)
_KIDS_COUNTED = re.compile(r"(?P<n>[一两二三四1-4]|俩|仨)\s*(?:个)?(?:孩子|小孩|娃儿?|宝宝|小朋友)")
_AGE_SAID = re.compile(
    r"(?P<n>\d{1,2}|十[一二三四五六七八九]?|[一二两三四五六七八九]十?[一二三四五六七八九]?)"
    r"\s*(?:周?岁|了(?!吧?[吗呢])|了吧)"
)
_CHILD_AGE_OF = re.compile(
    r"(?:孩子|小孩|儿子|女儿|闺女|宝宝|娃|老大|老二|大的|小的)(?:已经|今年|现在|其实|都)?(?:是|满)?"
)
_STUDENT = re.compile(
    r"(?:也|都|全|我|她|他|我们|他们|她们)(?:都|也|全)?是(?:大学生|学生|研究生)"
    r"|学生证|学生票|学生优惠"
)
# 一共两个学生 after the student fare was claimed: the students as they now stand.
_STUDENTS_COUNTED = re.compile(
    r"(?P<n>" + NUMBER + r"|俩|仨)\s*(?:个|位|名)?(?:大学生|学生|研究生)(?!证|票)"
)
_SOME_STUDENTS = re.compile(
    r"(?:其中|有)?(?P<n>[一两二三四五六七八九1-9])\s*(?:个|位)(?:人)?(?:是|有)(?:大学生|学生|研究生|学生证)"
)
_NOT_STUDENT = re.compile(r"不是学生|没有学生证|没学生证|已经工作|上班了|工作了|毕业了")
_ALL = re.compile(r"都是|全是|都有|全都|也都")


@dataclass(frozen=True, slots=True)
class Party:
    """Everyone travelling, the students among them, and each child's age."""

    passengers: int
    students: int = 0
    children: tuple[int | None, ...] = ()

    @classmethod
    def of(cls, intent: TravelIntent) -> Party:
        return cls(intent.passengers, intent.students, tuple(intent.children))

    def fitted(self) -> Party:
        """Within the limits, students and children among the passengers."""
        children = self.children[: MAX_PARTY - 1]
        passengers = min(max(self.passengers, len(children) + 1, 1), MAX_PARTY)
        students = max(0, min(self.students, passengers - len(children)))
        return Party(passengers, students, children)


def students_said(words: str) -> bool | None:
    """True when the turn claims the student fare (也是学生, 有学生证), False when it denies it
    (不是学生, 已经工作了), None when it says neither."""
    if _NOT_STUDENT.search(words):
        return False
    return True if _STUDENT.search(words) else None


_STUDENT_TICKETS = re.compile(r"(?P<n>[两二三四五六2-6]|俩|仨)\s*张\s*学生票")


def party_after(previous: TravelIntent, turn: TravelIntent, words: str) -> Party | None:
    """The party after a chat turn, given the party so far (None: the turn says nothing of it)."""
    words = REPORTED.sub("", words)
    after = _party_after(previous, turn, words)
    tickets = _STUDENT_TICKETS.search(words)
    if tickets is not None:
        # 我室友也去 他也是学生 两张学生票: that many student tickets, the party at least so big.
        count = party.count_word(tickets.group("n")) or 1
        base = after or Party.of(previous)
        grown = max(base.passengers - len(base.children), count)
        return Party(grown + len(base.children), count, base.children).fitted()
    recount = _students_recounted_by_count(Party.of(previous), words)
    if after is None or recount is None or recount <= after.students:
        return after
    return Party(after.passengers, recount, after.children).fitted()


def _party_after(previous: TravelIntent, turn: TravelIntent, words: str) -> Party | None:
    before = Party.of(previous)
    denied = party.not_students(words)
    if denied and _STUDENT.search(words):
        # 她还在读研，能买学生票，我们俩不是: the party as it is, all but those on student tickets.
        grown = before.passengers - len(before.children)
        return Party(before.passengers, max(grown - denied, 1), before.children).fitted()
    fixed = _FIXED_TOTAL.search(words)
    if fixed is not None and (count := to_int(fixed.group("n"))) and count > 1:
        # 不对，是5个，还有个同事: the count corrected is the party, whoever is named after it.
        return _restated(before, turn, words, count).fitted()
    if _GROWN_UPS_FIRST.match(words) and party.counted_party(party.counts_before_names(words)):
        # 两个大人加一个学生: every group counted, the whole party (加 joins the groups said,
        # it adds nobody to the party known).
        return _restated(before, turn, words, turn.passengers).fitted()
    joining = _JOIN.search(words)
    if joining is not None and not _nobody_new(joining, words):
        return _joined(before, turn, words, joining).fitted()
    # A whole party said with the children's ages (孩子一个8岁一个15岁，还有我和孩子他爸) is
    # the party; an age alone (孩子14了) is one child's.
    restates = any(a is not None for a in turn.children) and turn.passengers > before.passengers
    aged = None if restates else _aged(before, words)
    if aged is not None:
        return aged.fitted()
    if _speaks_of_known_children(before, turn, words):
        return None  # 3岁那个不用买票吧: a question about a child already going
    # The parser's count when it read children apart with a count or their ages (我和老婆两个人
    # 带孩子: three in all); a child named alone (孩子要占座) says nothing of the party's size.
    counted = _total(words) is not None or _BRINGING.search(words) is not None
    aged_children = any(a is not None for a in turn.children)
    kept = len(before.children)
    total = turn.passengers if turn.children and (counted or aged_children) else _total(words, kept)
    if party.counted_party(party.counts_before_names(words)) is not None:
        total = turn.passengers  # 两个大人一个学生: every group counted, not the first alone
        if not turn.children and total == _total(words):
            total = _total(words, kept)  # 三个大人: the grown-ups alone, the children kept
    recount = _students_recounted(before, turn, words)
    if recount is not None:
        return recount.fitted()
    if total is not None or (turn.passengers != 1 and not turn.children):
        return _restated(before, turn, words, total or turn.passengers).fitted()
    some = _SOME_STUDENTS.search(words)
    if some is not None:  # 其中两个是学生: that many of the grown-ups
        count = to_int(some.group("n")) or 1
        return Party(before.passengers, count, before.children).fitted()
    if _STUDENT.search(words) and not _NOT_STUDENT.search(words):
        grown = before.passengers - len(before.children)
        students = grown if _ALL.search(words) or turn.students >= grown else turn.students
        return Party(before.passengers, max(students, 1), before.children).fitted()
    if _NOT_STUDENT.search(words) and before.students:
        return Party(before.passengers, before.students - 1, before.children).fitted()
    return None


def total_said(words: str) -> int | None:
    """The head count a turn says outright (俩人, 两口子, 七个了), if any."""
    return _total(words)


def _total(words: str, children: int = 0) -> int | None:
    """A head count said outright (俩人, 三个人, 一共四位), the last one said; a count of one
    (一个人) is no total: 再加一个人 adds one. Grown-ups counted (三个大人了) are the party
    but its `children`, who still come."""
    found = None
    for match in _TOTAL.finditer(words):
        if words[: match.start()].endswith(("加", "加上", "加了", "多")):
            continue  # 再加两个人: two more, not two in all
        if match.group("pair"):
            found = 3 if "仨" in match.group("pair") else 2
            continue
        said = (
            match.group("n")
            or match.group("all")
            or match.group("we")
            or match.group("now")
            or match.group("so_far")
        )
        count = party.count_word(said)
        if count and count > 1:
            found = count + (children if match.group().endswith("大人") else 0)
    return found


def _students_recounted(before: Party, turn: TravelIntent, words: str) -> Party | None:
    """The students alone counted again (学生只剩30个了) where grown-ups who are no students
    go too (their teachers): the new count of students, the others kept."""
    others = before.passengers - before.students - len(before.children)
    if not before.students or others <= 0 or turn.children or _total(words) is not None:
        return None
    if not turn.students or turn.students != turn.passengers or _STUDENT.search(words):
        return None  # 我们都是学生 / 学生票: the fare claimed, not a group recounted
    if party.counted_party(party.counts_before_names(words)) is not None:
        return None  # the other groups counted too (学生38个，老师4个)
    return Party(others + turn.students, turn.students, before.children)


def _ages(words: str) -> list[int]:
    ages = []
    for match in _AGE_SAID.finditer(words):
        age = to_int(match.group("n"))
        if age is not None and 0 <= age <= party.MAX_CHILD_AGE:
            ages.append(age)
    return ages


def _nobody_new(joining: re.Match[str], words: str) -> bool:
    """ "我们一起去吧", "大家也去": a cue of going together with nobody named and no count is
    the party going as it is, not one more."""
    said = joining.groupdict()
    if (
        joining.group().startswith(("再加", "加", "多", "还有"))
        or said.get("t")
        or said.get("more")
    ):
        return False
    return not _named_people(words) and not _SOMEONE.search(words) and _total(words) is None


def _joined(before: Party, turn: TravelIntent, words: str, joining: re.Match[str]) -> Party:
    """Companions added to those already going; a total said with them is the whole party."""
    said = joining.groupdict()
    count = to_int(said.get("n") or said.get("m") or said.get("t") or said.get("r") or "") or 0
    if said.get("more"):
        count = party.count_word(said["more"]) or 1
    if not count and any(word in words for word in _PAIR_WORDS):
        count = 2  # 还有我爸妈
    pair = _PAIR_JOINS.match(words, joining.end())
    if not count and pair is not None:
        count = party.count_word(pair.group("n")) or 2  # 再加俺俩同学: two more
    ages = _ages(words)
    if (
        before.children
        and all(a is None for a in before.children)
        and len(ages) == len(before.children)
        and _KNOWN_CHILDREN_AGED.search(words)
    ):
        # 孩子一个6岁一个10岁，他爸也一起: the ages are the known children's; the one
        # joining is the grown-up named.
        grown = max(count, 1)
        return Party(before.passengers + grown, before.students, tuple(ages))
    total = _total(words, len(before.children))
    if total is not None and _COUPLE_SAID.search(words):
        # 我们两口子加个八岁的娃儿，三个人: the couple (the speaker one of them) and the
        # children said, the whole party.
        known = _ages(words) or [a for a in turn.children if a is not None]
        kids = max(0, total - 2)
        if total == 2 and _COUPLE_AND_CHILD.search(words):
            # 孩子他爸也一起 我们俩加娃: the two of us and the child known, not two in all.
            known = known or [a for a in before.children if a is not None]
            kids = max(len(before.children), 1)
            total += kids
        children = tuple(known[:kids]) + (None,) * max(0, kids - len(known))
        students = before.students
        if _STUDENT.search(words) and _ALL.search(words) and not _NOT_STUDENT.search(words):
            students = total - kids  # 再加个同学 我俩都是学生: both of us
        return Party(total, students, children)
    if total is not None and total > before.passengers:
        count = total - before.passengers
    elif total is not None and not count:
        return Party(total, before.students, before.children)  # 我朋友也去，两个人: already two
    named = _named_people(words)
    counted = any(said.get(key) for key in ("n", "m", "t", "r", "more"))
    if not counted and len(named) > 1:
        # 还有俺媳妇跟闺女，闺女5岁: each person named, as what they are.
        young = [w for w in named if w in _YOUNG_KIN or w in party.CHILD_WORDS]
        children = tuple(ages[: len(young)]) + (None,) * max(0, len(young) - len(ages))
        grown = sum(_COUNTS.get(w, 1) for w in named if w not in young)
        students = before.students + (grown if _STUDENT.search(words) else 0)
        if _STUDENT.search(words) and _ALL.search(words) and not _NOT_STUDENT.search(words):
            students = before.passengers - len(before.children) + grown  # 都是学生: all of us
        if not ages:  # kin without an age are grown-ups (带着儿子: a grown son)
            grown, children = grown + len(young), ()
        passengers = before.passengers + grown + len(children)
        return Party(passengers, students, before.children + children)
    grown_named = [w for w in named if w not in _YOUNG_KIN and w not in party.CHILD_WORDS]
    if not counted and grown_named and _CHILD_NAMED.search(_without_the_childs(words)):
        # 我老婆跟两个娃一起回 大的8岁小的5岁: the wife and the children, each as what they are.
        kids_said = _KIDS_COUNTED.search(words)
        kids = (party.count_word(kids_said.group("n")) or 1) if kids_said else max(len(ages), 1)
        children = tuple(ages[:kids]) + (None,) * max(0, kids - len(ages))
        grown = sum(_COUNTS.get(w, 1) for w in grown_named)
        passengers = before.passengers + grown + len(children)
        return Party(passengers, before.students, before.children + children)
    count = max(count, 1)
    grown_up = _THROUGH_CHILD.search(words) is not None or _NOT_STUDENT.search(words) is not None
    named_child = _CHILD_NAMED.search(_without_the_childs(words)) is not None
    if not grown_up and (ages or named_child or turn.children):
        known = ages or [a for a in turn.children if a is not None]
        new = tuple(known[:count]) + (None,) * max(0, count - len(known))
        return Party(before.passengers + len(new), before.students, before.children + new)
    students = before.students
    if _STUDENT.search(words) and not _NOT_STUDENT.search(words):
        students += count
        if _ALL.search(words):  # 室友也一起，都是学生: the one already going too
            students = before.passengers + count - len(before.children)
    return Party(before.passengers + count, students, before.children)


# The children already going, their ages said (孩子一个6岁一个10岁, 俩娃一个5岁一个8岁).
_KNOWN_CHILDREN_AGED = re.compile(
    r"(?:孩子|小孩|娃儿?|俩娃|两个娃|俩孩子|两个孩子|宝宝)(?:们)?[，,\s]*(?:一个|大的|老大)"
)


_PAIR_JOINS = re.compile(
    r"\s*(?:我|俺|咱)?(?P<n>俩|仨)(?:个)?(?:同学|同事|朋友|老乡|室友|舍友|人)?"
)


def _students_recounted_by_count(before: Party, words: str) -> int | None:
    """我是学生… 同学也一起去，一共两个学生: the fare claimed before, the students counted now."""
    said = _STUDENTS_COUNTED.search(words) if before.students else None
    if said is None:
        return None
    return party.count_word(said.group("n"))


def _without_the_childs(words: str) -> str:
    """`words` without a child named only as whose someone is (孩子奶奶, 孩子的同学): no child
    of the party is said there."""
    text = _THROUGH_CHILD.sub("", words)
    return re.sub(r"(?:孩子|小孩|儿子|女儿|闺女|宝宝)的(?=" + _PEOPLE + r")", "", text)


def _named_people(words: str) -> list[str]:
    """The people a turn names, each once, longest names first; a grown-up named through a
    child (孩子奶奶) is that grown-up, and 孩子的表弟 is the cousin."""
    text = _THROUGH_CHILD.sub(lambda m: "#" + m.group()[-2:], words)
    text = re.sub(r"(?:孩子|小孩|儿子|女儿|闺女|宝宝)的(?=" + _PEOPLE + r")", "", text)
    # 同学妈妈也一起, 朋友的爸爸: someone's parent is the parent alone.
    text = re.sub(r"(?:同学|朋友|室友|舍友|同事|闺蜜)的?(?=" + _PARENT + r")", "", text)
    found: list[str] = []
    for name in _NAMED:
        if name in text:
            found.append(name)
            text = text.replace(name, "#")
    return found


def _speaks_of_known_children(before: Party, turn: TravelIntent, words: str) -> bool:
    """True when the turn names children only by the ages the party's children have, with no
    head count (3岁那个不用买票吧, 9岁的要买儿童票吗): those children, nobody new."""
    ages = [a for a in turn.children if a is not None]
    if not ages or len(ages) != len(turn.children) or _total(words) is not None:
        return False
    known = list(before.children)
    for age in ages:
        if age not in known:
            return False
        known.remove(age)
    return True


def _aged(before: Party, words: str) -> Party | None:
    """A child of the party given an age (孩子14了): that child's age, the party unchanged."""
    if not before.children or not _CHILD_AGE_OF.search(words):
        return None
    ages = _ages(words)
    if len(ages) != 1 and not (len(ages) == len(before.children) and len(ages) > 1):
        return None
    children = list(before.children)
    if len(ages) == len(children):
        return Party(before.passengers, before.students, tuple(ages))
    (age,) = ages
    unknown = [i for i, a in enumerate(children) if a is None]
    at = unknown[0] if unknown else (0 if len(children) == 1 else None)
    if at is None:
        return None  # which of several children is meant is not said
    children[at] = age
    return Party(before.passengers, before.students, tuple(children))


def _restated(before: Party, turn: TravelIntent, words: str, total: int) -> Party:
    """The whole party said again: its count, its children when said (else those known, while
    they fit), and its students (都是学生: every grown-up; else those known, while they fit)."""
    children = tuple(turn.children) or before.children
    if all(a is None for a in children) and len(children) == len(before.children):
        children = before.children  # 带孩子 again: the child whose age is known
    bringing = _BRINGING.search(words)
    if bringing is not None and children:
        adults = 2 if bringing.group("n") == "俩" else to_int(bringing.group("n")) or 1
        total = adults + len(children)
    if len(children) >= total and not turn.children:
        children = ()
    grown = max(0, total - len(children))
    if _STUDENT.search(words) and not _NOT_STUDENT.search(words):
        students = grown if _ALL.search(words) or not turn.students else turn.students
    else:
        students = turn.students or before.students
    return Party(total, min(students, grown), children)
