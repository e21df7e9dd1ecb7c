"""Who travels: the party's children (with their ages) and students, from everyday phrases.

The offline parser counts heads first (`offline._passengers`: 一家三口, 四个人, 我和老公…);
this module reads who those heads are: 两个大人带一个3岁小孩 is two adults and a child of 3,
我跟老公带俩娃，大的10岁小的5岁 two adults and children of 10 and 5, 宿舍3个人都有学生证
three students. Ages are kept as said (a child of 14 is listed with its age; the fare rules
price it as an adult). 学生票, 学生证 and the like claim the student fare, and so do travellers
calling themselves students (都是学生, 我是大学生, 学生 said as a word of its own); 学生 inside
other words (带学生, 学生会) claims none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.intent import lexicon
from app.intent.numerals import NUMBER, to_int
from rules.limits import MAX_PARTY

CHILD_WORDS = ("小孩", "孩子", "娃", "宝宝", "儿童", "小朋友", "婴儿", "幼儿")
"""Words that always name a child."""
KIN_CHILD_WORDS = ("儿子", "女儿", "闺女")
"""A son or daughter is a child only with a child's age or a school (成年的儿子 rides adult)."""
GRANDCHILD_WORDS = ("外孙女", "外孙", "孙女", "孙子")
"""A grandchild brought along (带孙子, 和外孙女) is a child whose age is not said; one visited
(看孙子) is not of the party."""
SCHOOL_WORDS = (
    "小学",
    "初中",
    "幼儿园",
    "上学",
    "读书",
    "一年级",
    "二年级",
    "三年级",
    "四年级",
    "五年级",
    "六年级",
    "上初一",
    "上初二",
    "上初三",
)
YOUNG_KIN_WORDS = (
    "弟弟",
    "妹妹",
    "我弟",
    "我妹",
    "表弟",
    "表妹",
    "堂弟",
    "堂妹",
    "侄子",
    "侄女",
    "外甥女",
    "外甥",
    "表哥",
    "表姐",
    "堂哥",
    "堂姐",
)
"""Relatives counted as grown-up companions unless a child's age is said of them
(`kin_is_child`): 带我弟回老家 他7岁 is one grown-up and a child of 7, not three."""
STUDENT_FARE_WORDS = ("学生票", "学生证", "学生优惠", "学生价", "学生卡", "学生身份", "学生折扣")

MAX_CHILD_AGE = 17
# A small count or age: one numeral run of its own (下周一两个大人 is 两, not 一两 = 12).
_SMALL = (
    r"(?:(?<![0-9周期拜])\d{1,2}|(?<![周期拜一二两三四五六七八九十])"
    r"(?:十[一二三四五六七八九]?|[一二两三四五六七八九]十?[一二三四五六七八九]?))"
)
AGE = re.compile(r"(?P<n>" + _SMALL + r")\s*(?:周)?岁(?!数)")
_CHILD = "(?:" + "|".join(CHILD_WORDS) + ")"
_CHILD_COUNT = re.compile(
    r"(?P<n>"
    + NUMBER
    + r")\s*个\s*(?:"
    + _SMALL
    + r"\s*(?:周)?岁的?)?\s*"
    + _CHILD
    + r"|(?P<pair>俩|两)\s*(?:娃|孩子|小孩|宝宝|小朋友)"
    # 带俩孙子, 带两个外孙: grandchildren brought, counted.
    r"|(?<=带)(?:着|上)?(?:(?P<gn>" + NUMBER + r")\s*个|(?P<gpair>俩|仨))\s*小?"
    r"(?:外孙女|外孙|孙女|孙子)"
)
# 两大一小; 一老一小, 两老一小: grown-ups (elders) and children counted in one breath.
_SMALLS = re.compile(r"(?:大|(?<=[一两二三俩1-3])老)\s*(?P<n>" + _SMALL + r"|俩)\s*(?:个)?小(?!时)")
_STUDENT_COUNT = re.compile(
    r"(?P<n>"
    + NUMBER
    + r")\s*(?:张|个|位)\s*(?:是)?\s*(?:学生票|大学生|研究生|学生)|学生票\s*(?P<after>"
    + NUMBER
    + r")\s*张"
    r"|学生票?\s*[x×*]\s*(?P<times>[1-9])(?![0-9])"
    # 其中三个还在读大学要买学生票: some of the party, counted, then said to study.
    r"|(?:其中|里面|里头|中间)(?:有)?(?P<among>"
    + NUMBER
    + r"|俩|仨)\s*(?:个|位)?[^，,。；;]{0,6}?(?:读大学|上大学|读书|上学|大学生|学生票|学生证|学生)"
    # 俩实习生还是在校大学生: those led, counted, then said to study.
    r"|(?P<led>" + NUMBER + r"|俩|仨)\s*(?:个|位|名)?\s*(?:实习生|徒弟|学员)[^，,。；;]{0,6}?"
    r"(?:在校|读大学|上大学|大学生|研究生|学生票|学生证|学生)"
)
_FAMILY = re.compile(r"(?:一家|我们|咱们|全家)(?P<n>" + _SMALL + r")口(?!子)")
_GROUP = re.compile(
    r"(?:我们|咱们|俺们|宿舍|寝室|室友)(?:宿舍|寝室|班|班上|班里|公司|单位|厂里)?(?:的)?"
    r"(?:一共|总共|共)?\s*(?:(?P<n>" + _SMALL + r")\s*个|(?P<pair>俩|仨))"
    r"(?:人|同学|室友|朋友|同事|老乡|兄弟|姐妹|工友)?(?!月|小时|钟头|星期|礼拜|晚|天|周|站|城市|地方|景点)"
    # The companions named first, then counted: 老乡四个, 同事们三个人, 工友仨.
    r"|(?<![带和跟与陪同及])(?:老乡|同学|朋友|同事|室友|工友|驴友|闺蜜|兄弟|姐妹)们?"
    r"(?:一共|总共|共)?\s*(?:(?P<n2>" + _SMALL + r")\s*个(?:人)?|(?P<pair2>俩|仨))"
    r"(?!月|小时|钟头|星期|礼拜|晚|天|周|站|城市|地方|景点|小孩|孩子|娃)"
)
_COUPLE = re.compile(r"老两口|老俩口|老夫妻|老夫老妻")
# Grandparents opening a clause travel (爷爷奶奶带孙子回老家, 孩子姥姥姥爷带着俩外孙): the two
# are the grown-ups; the ones visited (去看爷爷奶奶, 到姥姥姥爷家) are not aboard.
_GRANDPARENTS = re.compile(
    # (这周六爷爷奶奶带俩孙子: a day said first, or masked once read, still opens the clause.)
    r"(?:^|(?<=[，,。；;\s□])|(?<=周[一二三四五六日天])|(?<=[期拜][一二三四五六日天])"
    r"|(?<=[今明后]天)|(?<=[0-9]号))"
    r"(?:孩子|娃|我家|我们家|俺家|我|俺)?的?"
    r"(?:爷爷奶奶|奶奶爷爷|姥姥姥爷|姥爷姥姥|外公外婆|外婆外公|公公婆婆|婆婆公公|岳父岳母"
    r"|老丈人丈母娘)(?!家|那)"
)
_PARENTS_ALONE = re.compile(
    # (对了, 另外, 还有 lead a new ask in chat: 对了 我爸妈下周三要从梅州来广州.)
    r"^(?:(?:对了|另外|还有|哦对了?|噢对了?)[，,\s]*)?(?:我|给我|帮我)?(?:爸妈|父母|爸爸妈妈|二老)"
    r"(?!.{0,3}(?:和我|跟我))"
    # Parents seen off or booked for (送我爸妈回哈尔滨, 给我爸妈订票): they ride, the speaker
    # stays, unless the speaker says riding along (陪我爸妈, 我也去, 一起).
    r"|^(?!.*(?:陪|一起|一块|我也|俺也|我们|咱们))"
    r".*(?:送|给|帮|替)(?:我|俺)?的?(?:爸妈|父母|爸爸妈妈|二老)(?!.{0,3}(?:和我|跟我))"
)
_ADULTS = re.compile(
    r"(?P<n>"
    + _SMALL
    + r"|俩)\s*(?:个)?(?:大人|成人|[大老](?=\s*(?:"
    + _SMALL
    + r"|俩)\s*(?:个)?小))"
)
ADULT_ROLES = ("大人", "成人", "成年人")
"""Words that count grown-ups as such: the speaker is among them (两个大人带一个孩子 is three)."""
TEACHER_ROLES = ("老师", "教师")
"""Teachers counted with their students (一个老师五个学生: six) are the party's grown-ups;
counted alone (陪两个老师) they are the speaker's companions."""
ELDER_ROLES = ("老人家", "老年人", "老人", "长辈")
"""Elders ride on adult tickets: 两个老人两个大人 is four grown-ups."""
STUDENT_ROLES = ("大学生", "学生")
"""Students counted beside grown-ups (一个老师五个学生) ride on grown-up tickets, or on student
tickets when claimed."""
_TERM = re.compile(
    r"(?P<n>" + _SMALL + r"|俩|仨)\s*(?:个|位|名)?\s*(?:" + _SMALL + r"\s*(?:周)?岁半?的?)?\s*"
    r"(?:(?:带队|领队|随队|随行)的?(?=老师|教师))?"  # 两个带队老师: teachers all the same
    r"(?P<role>"
    + "|".join((*ADULT_ROLES, *ELDER_ROLES, *TEACHER_ROLES, *STUDENT_ROLES, *CHILD_WORDS))
    + r")"
)
# An age said as the one to come: 还差俩月满六岁, 快6岁了, 不到六岁 are five.
_SHORT_OF_AGE = re.compile(
    r"(?:差[^，,。岁]{0,5}?满|没满|不满|未满|不到|快(?:满)?|马上(?:就)?(?:满|到)?)\s*$"
)
# An age without 岁: 孩子14了, 儿子今年九, 女儿都12了.
_BARE_AGE = re.compile(
    r"(?:孩子|小孩|儿子|女儿|闺女|娃)(?:今年|已经|都|才)?(?P<n>" + _SMALL + r")(?=了|，|,|。|$)"
    # 带俺闺女，她12了: the child's age said of her right after she is named.
    r"|(?<=(?:儿子|女儿|闺女)[，,\s])[他她](?:今年|已经|都|才)?(?P<n2>" + _SMALL + r")(?=了)"
)
# 一周岁 is AGE's to read (twice read, 一个一周岁 was two children; 十一周岁 a child of one
# beside one of eleven).
_INFANT = re.compile(
    r"婴儿|刚满周岁|(?<![0-9一二两三四五六七八九十])(?:满周岁|周岁的)|不到一岁|没满周岁"
)
# A baby a month or so old (宝宝刚满月, 满月的孩子, 刚出生的闺女): no year old yet. 满月酒 is a
# party the traveller goes to, not a baby aboard.
_NEWBORN = re.compile(
    r"(?:宝宝|孩子|小孩|婴儿|娃|儿子|女儿|闺女|孙子|孙女|外孙女|外孙)[^，,。]{0,3}?"
    r"(?:刚|才|还没|没)?满月(?![酒宴席])"
    r"|(?:刚|才)?满月(?:的|了的)(?:宝宝|孩子|小孩|婴儿|娃|儿子|女儿|闺女)"
    r"|刚出生|新生儿|出了月子|刚出月子"
)
# Twins and triplets are two or three children of one age: 带双胞胎，他们6岁了.
_MULTIPLE_BIRTH = re.compile(r"(?P<n>双|三)胞胎|龙凤胎")
# An age said in months (宝宝8个月, 十个月大的孩子): a baby, whole years old.
_MONTHS_N = r"(?:[0-9]{1,2}|[一二两三四五六七八九十]{1,3}|半)"
_MONTHS_OLD = re.compile(
    # 还差三个月满六岁 counts months short of an age, not the age (差 before, 满 after).
    # 1岁10个月 is one year old: months after a year's age add to it (AGE reads the year).
    r"(?:宝宝|孩子|小孩|婴儿|娃|儿子|女儿|闺女|孙子|孙女|外孙女|外孙)[^，,。差岁]{0,3}?(?P<n>"
    + _MONTHS_N
    + r")\s*个(?:多)?月(?!后|以后|之后|前|以前|之前|内|就?满|就?到)"
    r"|(?<![岁零又])(?P<m>"
    + _MONTHS_N
    + r")\s*个(?:多)?月(?:大)?的(?:宝宝|孩子|小孩|婴儿|娃|儿子|女儿)"
    # 孩子一个5岁一个才8个月: the children listed one by one, the second in months.
    r"|(?<=[岁，,、\s])一个(?:才|刚|还不到|不到)?(?P<k>"
    + _MONTHS_N
    + r")\s*个(?:多)?月(?!后|以后|之后|前|以前|之前|内)"
)
# A son or daughter brought along by the couple (我和老婆带女儿, 我跟老公带着儿子): a child whose
# age is not said (asked for, or priced as the fare rules price a child of unknown age).
_KIN_BROUGHT = re.compile(
    r"(?:老婆|老公|媳妇|爱人|妻子|丈夫|孩子他爸|孩子他妈|两口子|我们俩|我俩)[^，,。]{0,3}?带(?:着|上)?"
    r"(?:我们|我家)?的?(?:儿子|女儿|闺女)(?![^，,。]{0,4}(?:工作|上班|大学|媳妇|女婿))"
)
_GRANDCHILD_BROUGHT = re.compile(
    # 送孙女回武汉: the grandchild taken there rides along.
    r"(?:带|和|跟|陪|同|送)(?:着|上)?(?:我|俺)?(?:家)?的?(?:(?:[一两二三四]个|俩|仨)\s*)?小?(?:"
    + "|".join(GRANDCHILD_WORDS)
    + r")(?!家)"
)
_CHILD_STUDENT = re.compile(r"(?:孩子|儿子|女儿|闺女)[^，,。]{0,4}(?:初中生|高中生|中学生|大学生)")
# Someone said to be at university (他在北京念大学, 她读大三, 外孙在读研): a grown-up, whoever
# brought them along; a student when the fare is claimed.
_AT_UNIVERSITY = (
    r"(?:他|她|孩子|儿子|女儿|闺女|外孙女|外孙|孙女|孙子|我弟|我妹|弟弟|妹妹)(?!们)[^，,。]{0,6}?"
    r"(?:(?:念|读|上)(?:大学|研究生|研|大[一二三四]|本科)|大学生|研究生)"
)
_BOUGHT_FOR_THEM = (
    r"(?:给|帮|替)(?:他|她|孩子|儿子|女儿|闺女|娃儿?)(?!们)(?:买|订|定|抢)[^，,。？?]{0,6}?学生票"
)
_HOLDS_THE_CARD = r"(?:他|她|孩子|儿子|女儿|闺女|娃儿?)(?!们)(?:是学生)?(?:也)?(?:有|带了?)学生证"
# The child of unknown age who rides on a student ticket instead (给她买学生票, 他在读大学,
# 帮孩子买张学生票, 娃有学生证).
_CHILD_IS_THE_STUDENT = re.compile(_AT_UNIVERSITY + "|" + _BOUGHT_FOR_THEM + "|" + _HOLDS_THE_CARD)
# The speaker said to ride along (我和…, 带他, 我们, 一起): a parent booking for a student
# child who says none of this stays home (儿子在南京上学…给他买学生票: one student).
_SPEAKER_ALONG = re.compile(
    r"[我俺咱](?:们|俩|仨|和|跟|与|带|陪|也)|(?:带|陪)(?:着|上)?(?:他|她)|一起|一块|一道"
    r"|(?:两|俩|三|仨|[2-9])\s*(?:个)?人"
)


@dataclass(frozen=True, slots=True)
class PartyReading:
    """The party as read: everyone, the students among them, and each child's age."""

    passengers: int
    students: int = 0
    children: tuple[int | None, ...] = ()


# A group counted after its name (带队老师1个 学生5个, 大人两个 小孩一个): the count is put
# before it, as the party is read (一个老师 五个学生), also when a recount says how it now stands
# (学生变成38个了). Not a count of ages (孩子两个，一个8岁).
_NAME_THEN_COUNT = re.compile(
    # 我跟孩子俩 is the speaker and the child, two in all: a companion counted with the speaker.
    r"(?<![个位名俩仨0-9一二两三四五六七八九十和跟与])"
    # 带队老师4个: the teachers who lead, counted after (4个带队老师).
    r"(?P<lead>(?:带队|领队|随队|随行)的?(?=老师))?"
    r"(?P<role>大人|成人|老人|小孩|孩子|儿童|学生|老师)\s*"
    # A recount says how the group now stands (学生变成38个了, 老师还是4个).
    r"(?:变成|变为|改成|改为|换成|成了|还是|仍是|只剩|剩下?|就)?\s*"
    r"(?:(?P<n>" + _SMALL + r")\s*(?P<unit>个|位|名)|(?P<pair>俩|仨)(?P<unit2>个|位|名)?)"
    r"(?!多|半|月|小时|钟头|星期|礼拜|晚|天|周|站)人?"  # 孩子三个月: an age in months
    r"(?!\s*(?:" + _SMALL + r")\s*(?:周)?岁)"
    r"(?:(?<=[个位名])了)?"  # 学生变成38个了: the count as it now stands
)


def counts_before_names(text: str) -> str:
    """`text` with each group counted after its name said the usual way round: 大人两个
    小孩一个 reads as 两个大人 一个小孩, so the party lists below read it."""
    return _NAME_THEN_COUNT.sub(
        lambda m: (
            (m.group("n") or m.group("pair"))
            + (m.group("unit") or m.group("unit2") or "")
            + (m.group("lead") or "")
            + m.group("role")
        ),
        text,
    )


def family_size(text: str) -> int | None:
    """一家五口, 我们三口: the whole family, said first whatever else counts heads."""
    match = _FAMILY.search(text)
    return to_int(match.group("n")) if match else None


SMALL_COUNT = _SMALL + "|俩|仨"
"""A small head count as said (两, 3, 俩)."""


def count_word(word: str) -> int | None:
    """The number a small head count says (俩 2, 仨 3, 两 2)."""
    return {"俩": 2, "仨": 3}.get(word) or to_int(word)


_GROWN_UP_ROLES = ADULT_ROLES + ELDER_ROLES + TEACHER_ROLES + STUDENT_ROLES


def adults_stated(text: str) -> int | None:
    """The grown-ups when counted as such: 两个大人, 俩大人, 两大两小; elders counted beside
    them are grown-ups too (两个老人两个大人: four)."""
    found = _party_list(text)
    if _names_grown_ups(found):
        return sum(n for role, n in found.terms if role in _GROWN_UP_ROLES) or None
    match = _ADULTS.search(text)
    if not match:
        return None
    return 2 if match.group("n") == "俩" else to_int(match.group("n"))


_LIST_JOIN = re.compile(r"^[\s、，,和跟与及带加还有外再以]{0,4}$")
# Companions brought along by the speaker (我带两个老人): the speaker is one more grown-up.
_BROUGHT_BEFORE = re.compile(r"(?:带|和|跟|与|陪|同|及|还有|加)(?:着|上)?\s*$")


@dataclass(frozen=True, slots=True)
class _PartyList:
    """Counted groups said as one list, and whether it opens the party (no 带/和 before it)."""

    terms: list[tuple[str, int]]
    leads: bool


def _party_list(text: str) -> _PartyList:
    """The first list of counted groups that names grown-ups (两个老人两个大人加一个8岁的孩子),
    as (role, count): groups joined by 和, 加, 带, 、 … belong to one list."""
    chain: list[tuple[str, int]] = []
    end = start = None
    for match in _TERM.finditer(text):
        join = text[end : match.start()] if end is not None else ""
        # A group again after a comma starts another list (the sentence said twice).
        again = any(role == match.group("role") for role, _ in chain) and re.search("[，,]", join)
        if end is not None and (again or not _LIST_JOIN.match(join)):
            if any(role in ADULT_ROLES for role, _ in chain):
                break
            chain = []
        if not chain:
            start = match.start()
        chain.append((match.group("role"), count_word(match.group("n")) or 0))
        end = match.end()
    leads = start is not None and not _BROUGHT_BEFORE.search(text[max(0, start - 3) : start])
    return _PartyList(chain, leads)


def _names_grown_ups(found: _PartyList) -> bool:
    """True when the list counts the party's grown-ups as such: 两个大人带一个孩子, or elders
    leading a list with children (两个老人带一个1岁半的宝宝: the two are the grown-ups, three in
    all; 我带两个老人 is the speaker's companions, counted elsewhere)."""
    roles = [role for role, _ in found.terms]
    if any(role in ADULT_ROLES for role in roles):
        return True
    if any(role in TEACHER_ROLES for role in roles) and any(r in STUDENT_ROLES for r in roles):
        return True
    return (
        found.leads
        and bool(roles)
        and roles[0] in ELDER_ROLES
        and any(role in CHILD_WORDS for role in roles)
    )


def counted_party(text: str) -> tuple[int, int] | None:
    """(everyone, the grown-ups) when the text counts its party in groups with the grown-ups
    named as such: 两个老人两个大人加一个8岁的孩子 is five, four of them grown-ups. None when
    no group of grown-ups is counted (我带两个孩子: the speaker is one more)."""
    found = _party_list(text)
    if not _names_grown_ups(found):
        return None
    terms = found.terms
    grown_ups = sum(n for role, n in terms if role in _GROWN_UP_ROLES)
    children = sum(n for role, n in terms if role in CHILD_WORDS)
    return grown_ups + children, grown_ups


_OTHER_CHILD = re.compile("|".join((*CHILD_WORDS, *KIN_CHILD_WORDS, *GRANDCHILD_WORDS)))


def kin_is_child(text: str, phrase: str, end: int) -> bool:
    """True when the relative `phrase` named just before `end` (表弟, 我弟) is given a child's
    age later on with no other child or relative named in between (表弟5岁, 带我弟回老家 他7岁,
    带侄子去杭州，侄子今年8岁): the age is theirs, so they ride as that child (`child_ages`
    lists it), not as a grown-up beside it."""
    match = AGE.search(text, end)
    if not match:
        return False
    between = text[end : match.start()].replace(phrase, "")
    if _OTHER_CHILD.search(between) or any(word in between for word in YOUNG_KIN_WORDS):
        return False  # 带表弟和儿子，儿子5岁: the age is the son's
    age = to_int(match.group("n"))
    return age is not None and 0 <= age <= MAX_CHILD_AGE


def _age(text: str, match: re.Match[str]) -> int | None:
    age = to_int(match.group("n") or match.groupdict().get("n2") or "")
    if age is not None and _SHORT_OF_AGE.search(text[max(0, match.start() - 8) : match.start()]):
        age -= 1  # 还差俩月满六岁: five until the birthday
    return age


def group_size(text: str) -> int | None:
    """A head count the general party patterns miss: 宿舍我们4个, 我们寝室6个, 老两口, and
    parents travelling on their own (爸妈从上海去苏州: the traveller books for them)."""
    if is_pair_of_elders(text):
        return 2
    match = _GROUP.search(text)
    if match:
        pair = match.group("pair") or match.group("pair2")
        count = count_word(pair) if pair else to_int(match.group("n") or match.group("n2"))
        if count and count > 1:
            return count + counted_on(text, match.end())
    return None


def counted_on(text: str, at: int) -> int:
    """Others counted on right after a head count ending at `at` (我们宿舍四个人加上俩已经上班的
    学长: two), or 0."""
    more = _GROUP_PLUS.match(text, at)
    if more is None:
        return 0
    return count_word(more.group("n")) or to_int(more.group("n")) or 0


_GROUP_PLUS = re.compile(
    r"[，,\s]*(?:再)?(?:加上|加|还有|外加|另外还有)\s*(?P<n>俩|仨|" + _SMALL + r")\s*(?:个|位)?"
    r"[^，,。；;\d]{0,6}?(?:学长|学姐|学弟|学妹|同事|朋友|同学|大人|老人|老师|老乡|工友|人)"
)
# 俩已经上班的学长, 两个工作了的: those of the party said to work, counted.
_WORKING_COUNTED = re.compile(
    r"(?P<n>俩|仨|" + _SMALL + r")\s*(?:个|位)?(?:已经|早就|都)?(?:参加)?(?:工作|上班)(?:了)?的"
    # 两个已经上班了, 俩都工作了: so many of the party said to work.
    r"|(?P<m>俩|仨|" + _SMALL + r")\s*(?:个|位)(?:人)?(?:已经|都|早就)(?:参加)?(?:工作|上班)了"
    # 我和我对象（都上班了）: the speaker and the one named, both working.
    r"|(?P<pair>(?:我|俺)(?:和|跟)(?:我|俺)?[\u4e00-\u9fff]{1,3}?)[（(\s]*都(?:已经)?(?:参加)?"
    r"(?:工作|上班)了"
)


# A roll call of the family (爷爷奶奶 爸妈 我和我姐 还有我姐家两个娃): each grown-up named,
# pairs as two, the speaker among them; the children, whoever's they are, are read by
# `child_ages`. A kin word may carry the speaker's mark (我表妹, 我爸妈): one name, not two.
_ROLL_PAIRS = (
    "爷爷奶奶",
    "奶奶爷爷",
    "姥姥姥爷",
    "姥爷姥姥",
    "外公外婆",
    "外婆外公",
    "公公婆婆",
    "婆婆公公",
    "岳父岳母",
)
_ROLL_COUNTS = {
    **dict(lexicon.COMPANIONS),
    **dict.fromkeys(_ROLL_PAIRS, 2),
}
for _young in (*CHILD_WORDS, *KIN_CHILD_WORDS, *GRANDCHILD_WORDS):
    _ROLL_COUNTS.pop(_young, None)
_ROLL_KIN = "|".join(sorted(_ROLL_COUNTS, key=len, reverse=True))
_SIBLINGS = "姐姐|哥哥|弟弟|妹妹|表姐|表哥|表弟|表妹|堂姐|堂哥|堂弟|堂妹|姐|哥|弟|妹"
_ROLL_ONE = re.compile(
    # Children, a sibling's too (我姐家两个娃, 表哥家的孩子): read by `child_ages`.
    r"(?P<kids>(?:[我他她]?(?:" + _SIBLINGS + r")家的?)?(?:(?:" + _SMALL + r"|俩|仨)\s*(?:个)?\s*)?"
    r"(?:娃|孩子|小孩|宝宝|小朋友|" + "|".join(GRANDCHILD_WORDS) + r"))"
    r"|(?:[我俺]的?)?(?P<who>" + _ROLL_KIN + r")(?![家的那们])"
    r"|(?P<me>[我俺]|自己)(?![们家的那])"
)
_ROLL_SEP = re.compile(r"[\s、，,]*(?:和|跟|与|以及|及|还有|加上?|带着?)\s*|[\s、，,]+")
_ROLL_START = re.compile(r"(?:^|(?<=[\s，,。；;:：!！]))(?=[^\s，,。；;:：!！])")


def _roll_runs(text: str) -> list[list[re.Match[str]]]:
    """The runs of people named one after another, each led from a pause."""
    runs = []
    for start in _ROLL_START.finditer(text):
        run, at = [], start.start()
        while (one := _ROLL_ONE.match(text, at)) is not None:
            run.append(one)
            sep = _ROLL_SEP.match(text, one.end())
            if sep is None:
                break
            at = sep.end()
        if len(run) > 1:
            runs.append(run)
    return runs


def roll_call(text: str, original: str | None = None) -> int | None:
    """The grown-ups of a family named one by one with the speaker among them (爷爷奶奶 爸妈
    我和我姐: six); None unless three or more are named so. A young relative given a child's
    age in `original` (the text before masking, same positions) is that child, no grown-up."""
    said = original if original is not None else text
    for run in _roll_runs(text):
        if not any(one.group("me") for one in run):
            continue
        grown = [
            _ROLL_COUNTS[one.group("who")] if one.group("who") else 1
            for one in run
            if one.group("me")
            or (
                one.group("who")
                and not (
                    one.group("who") in YOUNG_KIN_WORDS
                    and kin_is_child(said, one.group("who"), one.end())
                )
            )
        ]
        if len(grown) >= 3:
            return sum(grown)
    return None


def is_pair_of_elders(text: str) -> bool:
    """老两口, parents travelling on their own, or grandparents leading the sentence: two
    grown-ups, any child said is added."""
    return bool(
        _COUPLE.search(text)
        or _PARENTS_ALONE.search(text.strip())
        or _GRANDPARENTS.search(text.strip())
    )


# A grown-up named through the child (孩子他爸, 孩子的奶奶): the word names no child aboard.
_NAMED_THROUGH_CHILD = re.compile(
    r"(?:孩子|娃|宝宝)的?(?:他|她)?(?:爸爸|妈妈|爸|妈|爷爷|奶奶|姥姥|姥爷|外公|外婆|舅舅|姑姑|小姨|大姨)"
)


# 女孩子, 男孩子 say what someone is (女孩子晚上到不放心: the daughter travelling), not that a
# child rides; a girl given a child's age is still read by her age.
_GIRL_OR_BOY = re.compile(r"(?<![0-9一二两三四五六七八九十个俩])[女男]孩子?")


# A child at school said by its class (上幼儿园大班的, 她上初一, 读小学三年级): a child of unknown
# age (a fare is priced per age, so the age is asked or the child's fare taken).
SCHOOL_CHILD = (
    r"(?:在)?(?:上|读)(?:幼儿园|托班|小班|中班|大班|学前班|小学|[一二三四五六]年级|初[一二三]|初中)"
)
_SCHOOL_ONE = re.compile(r"(?:一个|另一个|另外一个|小的|大的)" + SCHOOL_CHILD)


def child_ages(text: str) -> tuple[int | None, ...]:
    """One entry per child the text speaks of, its age when said (None: not said)."""
    text = _NAMED_THROUGH_CHILD.sub(lambda m: "、" * len(m.group()), text)
    text = _GIRL_OR_BOY.sub(lambda m: "、" * len(m.group()), text)
    smalls = _SMALLS.search(text)
    small = (2 if smalls.group("n") == "俩" else to_int(smalls.group("n")) or 0) if smalls else 0
    births = [3 if m.group("n") == "三" else 2 for m in _MULTIPLE_BIRTH.finditer(text)]
    has_child_word = (
        any(word in text for word in CHILD_WORDS)
        or bool(_SCHOOL_ONE.search(text))
        or small > 0
        or bool(births)
        or bool(_GRANDCHILD_BROUGHT.search(text))
    )
    kin = any(word in text for word in KIN_CHILD_WORDS)
    ages = []
    months = list(_MONTHS_OLD.finditer(text))
    for match in months:
        said = match.group("n") or match.group("m") or match.group("k")
        ages.append(0 if said == "半" else (to_int(said) or 0) // 12)
    if _NEWBORN.search(text) and not months:
        ages.append(0)
    elif _INFANT.search(text) and not months:
        ages.append(0 if "婴儿" in text or "不到一岁" in text or "没满" in text else 1)
    for match in [*AGE.finditer(text), *_BARE_AGE.finditer(text)]:
        age = _age(text, match)
        if age is not None and 0 <= age <= MAX_CHILD_AGE:
            ages.append(age)
    if not (has_child_word or kin) and not ages:
        return ()
    if (
        not has_child_word
        and kin
        and not ages
        and not any(w in text for w in SCHOOL_WORDS)
        and not (_KIN_BROUGHT.search(text) and "成年" not in text)
    ):
        return ()  # 和儿子一起: a grown-up son, as far as the text says
    counted = 0
    for match in _CHILD_COUNT.finditer(text):
        grandchildren = match.group("gpair") or match.group("gn")
        if grandchildren:
            counted += count_word(grandchildren) or 1
        else:
            counted += 2 if match.group("pair") else to_int(match.group("n")) or 1
    # 带俩孩子…两大两小: the same children said twice, two of them, not four.
    said = max(small, counted, len(ages) + len(_SCHOOL_ONE.findall(text)))
    twins = sum(births)
    if twins and len(ages) == 1:
        ages *= twins  # twins share the one age said of them
    count = max(said, twins, len(ages), 1 if (has_child_word or kin) else 0)
    return tuple(ages) + (None,) * (count - len(ages))


# The travellers calling themselves students claim the fare too: 我们仨都是学生, 我是大学生,
# or 学生 said as a word of its own (… 要卧铺 下铺 学生). 带学生, 学生会 claim nothing.
_STUDENT_SELF = re.compile(
    r"(?<!不)(?<!不都)(?<!不全)是(?:在校)?(?:的)?(?:大学生|学生|研究生|中学生|高中生)(?!会|家长|时代)"
    r"|(?:^|(?<=[\s，,。；;!！]))(?:大学生|学生)(?=[\s，,。；;!！~]|$)"
    # Said of oneself as a kind of person: 穷学生一枚, 学生党.
    r"|(?:大学生|学生|研究生)(?:一枚|一个人|党|狗|一个(?=$|[\s，,。!！~]))|穷(?:一个)?学生"
    # 我和同学 都学生: the party said to be students, 是 left out.
    r"|(?<=都)(?:大学生|学生|研究生)(?!会|家长|时代)"
    # Some of the party named as students: 四个人其中一个学生, 有两个是大学生.
    # The party counted as students: 我们三个大学生, 两个研究生 (not 带三个学生, a teacher's).
    # 两个大人加一个大学生: a group of the party added with 加.
    r"|(?:^|(?<=[我咱俺]们)|(?<=[\s，,。加]))(?:"
    + NUMBER
    + r")\s*(?:个|位|名)\s*(?:大学生|研究生|学生)"
    r"(?!会|家长|时代|的)"
    r"|(?:其中|有|里面|里头|人[\s，,、]{0,2})\s*(?:" + NUMBER + r")\s*(?:个|位)\s*(?:是)?"
    r"(?:大学生|学生|研究生)"
    r"(?!会|家长|时代)"
)


def claims_student_fare(text: str) -> bool:
    """True when the text claims the student fare for the party's grown-ups."""
    return any(word in text for word in STUDENT_FARE_WORDS) or bool(_STUDENT_SELF.search(text))


# Grown-ups said to pay the full fare (我买全价的, 我们俩不是, 我不是学生): no student tickets.
_NOT_STUDENTS = re.compile(
    r"(?P<who>我们俩|我俩|我们两个|我们仨|我们三个|我"
    # 我买学生票，我爸买普通的: a companion said to pay the full fare.
    r"|(?:我|俺)?(?:爸|妈|老爸|老妈|爸爸|妈妈|老公|老婆|媳妇|哥|姐|弟|妹|哥哥|姐姐|爷爷|奶奶)"
    r"|(?:我|俺)?(?:对象|男朋友|女朋友|男友|女友)"
    r"|[他她](?!们))(?:都|也|就|自己)?"
    r"(?:不是(?:学生)?(?=$|[，,。.!！\s；;])"
    # 我哥（已经上班了）, 她已经工作了: one who works pays the full fare.
    r"|[（(]?(?:(?:已经|早就|早|都)(?:参加)?(?:工作|上班)了?|(?:工作|上班)了)"
    r"|(?:买|要|用|是|坐)?(?:全价|全票|成人票|普通票|普通的|成人的|大人票))"
)


def not_students(text: str) -> int:
    """How many grown-ups `text` says pay the full fare (我买全价的: one, 我们俩不是: two,
    我买学生票我爸买普通的: one)."""
    working = _WORKING_COUNTED.search(text)
    if working is not None:
        if working.group("pair"):
            return 2
        said = working.group("n") or working.group("m")
        return count_word(said) or to_int(said) or 0
    match = _NOT_STUDENTS.search(text)
    if not match:
        return 0
    return {"我们俩": 2, "我俩": 2, "我们两个": 2, "我们仨": 3, "我们三个": 3}.get(
        match.group("who"), 1
    )


# One traveller of a party claiming the fare for themself (我和我妈两个人…我有学生证, 我和我女儿…
# 她大学生有学生证): that one alone, unless the others are said to have it too (都, 也).
_ONE_STUDENT = re.compile(
    r"(?<![们])(?:我|他|她|俺|儿子|女儿|闺女)(?:是)?(?:在校)?(?:大学生|研究生|学生)?(?:有|带了?)学生证"
    r"|(?<![们])(?:他|她)(?:是)?(?:在校)?(?:大学生|研究生)"
    # 我妈带我和我弟…我大学生要学生票: the speaker alone at university.
    r"|(?<![们])(?<![和跟])我(?:是)?(?:在校)?(?:大学生|研究生)(?!们)"
    # 我们两个人，另外一个是大学生 / 其中一个是学生: one of those counted.
    r"|(?:另外|另|其中)一(?:个|位)(?:人)?(?:是|系)?(?:在校)?(?:大学生|研究生|学生)"
    # The one at university (我跟我弟…他还在读大学), or the one the fare is bought for
    # (给他买学生票).
    r"|(?<![们])"
    + _AT_UNIVERSITY
    + "|"
    + _BOUGHT_FOR_THEM
    # Said in English of one companion: my gf is a student, 学生票 for her.
    + r"|\b(?:she|he|gf|bf|girlfriend|boyfriend|wife|husband|friend)(?:'s| is) a (?:uni |college )?"
    r"student\b|学生票\s*for (?:her|him)\b"
)
_OTHERS_TOO = re.compile(r"都|也|全|我们|咱们|俺们|我俩|咱俩")


def student_count(text: str, grown_ups: int) -> int:
    """How many ride on student tickets: as counted (两张学生票), all (都有学生证), else every
    grown-up of the party when the text claims the fare at all, but those said to pay the
    full fare (给他买学生票，我买全价的: one student of two)."""
    if not claims_student_fare(text):
        return 0
    match = _STUDENT_COUNT.search(text)
    if match:
        count = count_word(
            match.group("n")
            or match.group("after")
            or match.group("times")
            or match.group("among")
            or match.group("led")
        )
        if count:
            return min(count, max(grown_ups, 1))
    one = _ONE_STUDENT.search(text)
    if one and not _OTHERS_TOO.search(text[one.start() :]) and "都是" not in text:
        return 1
    return max(grown_ups - not_students(text), 1)


def read_party(text: str, passengers: int, *, adults_said: int | None = None) -> PartyReading:
    """The party of `text` given the head count already read (`passengers`). `adults_said`:
    the grown-ups the text counted apart from its children (两个大人, 我和老公), whose
    children are then added; otherwise the count is taken to include them."""
    heads = passengers
    children = child_ages(text)[: MAX_PARTY - 1]
    stated = adults_stated(text)
    if stated:
        # The head count may name more grown-ups than the counted groups (两个大人带一个孩子，
        # 还有奶奶: three).
        adults_said = max(stated, adults_said or 0)
    elif not children and passengers == 3 and "一家三口" in text:
        children = (None,)  # 一家三口: two parents and a child, as the phrase is used
    if adults_said is not None:
        passengers = adults_said + len(children)
        if not children and not stated:
            # 我和我儿子: the son was counted beside the speaker, and he is no child (no age,
            # no school said): he rides as a grown-up, not out of the party.
            passengers = max(passengers, heads)
    passengers = max(passengers, len(children) + 1) if children else passengers
    if passengers > max(heads, MAX_PARTY):
        # Only a head count said as such may exceed the limit (and is refused by name then).
        passengers = max(heads, MAX_PARTY)
    if children and None in children and _CHILD_IS_THE_STUDENT.search(text):
        # 带外孙…他在北京念大学, 带孙女…给她买学生票: the grandchild rides as a grown-up or a
        # student, not as a child too.
        at = children.index(None)
        children = children[:at] + children[at + 1 :]
        if heads == 1 and adults_said is None and not _SPEAKER_ALONG.search(text):
            # 孩子在北京读研…他有学生证, 给孩子买张学生票: the parent books and stays home;
            # the grown child is the one traveller.
            passengers = 1 + len(children)
    if children and None in children and _CHILD_STUDENT.search(text):
        if any(word in text for word in STUDENT_FARE_WORDS):
            # 孩子是初中生 有学生证: the child of unknown age is the student.
            at = children.index(None)
            children = children[:at] + children[at + 1 :]
            return PartyReading(passengers, 1, children)
    grown = _GROWN_CHILDREN_STUDYING.search(text)
    if grown:
        # 我和老婆还有两个大学生孩子（都有学生证）: the grown children ride too, as students,
        # beside the speaker and the spouse said.
        count = count_word(grown.group("n")) or 1
        kept = [age for age in children if age is not None]
        parents = adults_said if adults_said is not None else 1 + bool(_SPOUSE.search(text))
        return PartyReading(parents + len(kept) + count, count, tuple(kept))
    family = family_size(text)
    if adults_said is not None and (stated or children) and _ELDEST_AT_UNIVERSITY.search(text):
        # 2个大人+1个5岁的娃 还有老大在读大学要买学生票, 俩大人，大女儿读大学要买学生票: the
        # eldest rides too, as a student.
        return PartyReading(max(passengers + 1, family or 0), 1, children)
    if family is not None and passengers < family <= MAX_PARTY:
        # 一家四口…俩大人…小儿子12岁: the family said whole; the one not counted is grown-up.
        passengers = family
    students = student_count(text, passengers - len(children))
    return PartyReading(passengers, students, children)


_SPOUSE = re.compile(r"老婆|老公|爱人|媳妇|太太|丈夫|妻子|老伴")
_GROWN_CHILDREN_STUDYING = re.compile(
    r"(?P<n>一|两|俩|三|仨|1|2|3)\s*个\s*(?:大学生|研究生|读大学的?|上大学的?)\s*(?:的)?"
    r"(?:孩子|子女|儿女|仔女|女儿|儿子|闺女)"
)


_ELDEST_AT_UNIVERSITY = re.compile(
    r"(?:还有)?(?:我家|俺家)?(?:老大|老二|大儿子|大女儿|大闺女|哥哥|姐姐|女儿|儿子|闺女)[^，,。]{0,6}?"
    r"(?:读大学|在读大学|上大学|大学生|研究生|读研|学生票|学生证)"
)
