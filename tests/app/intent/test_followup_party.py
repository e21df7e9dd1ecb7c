"""A chat turn's change to the party (`app/intent/party_change.py` through `read_turn`): who
joins and as what, a child's age, the party said again, the fare said alone."""

from __future__ import annotations

import pytest

from app.intent.followup import TurnReading
from app.intent.model import TravelIntent


def trip(reading: TurnReading) -> TravelIntent:
    assert reading.declined is None
    return reading.intent


def party(intent: TravelIntent) -> tuple[int, int, int, list[int | None]]:
    """(passengers, adults, students, children's ages)."""
    return intent.passengers, intent.adults, intent.students, intent.children


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        # A grown-up named through the child is the grandparent, not another child.
        (("我们一家三口下周六从南京去上海，孩子5岁", "再加一个人，孩子奶奶也去"), (4, 3, 0, [5])),
        (("下周六从武汉去宜昌，两个大人，孩子6岁", "再加一个人，孩子的爷爷"), (4, 3, 0, [6])),
        (("下周六从武汉去宜昌，两个大人，孩子6岁", "孩子姥姥也跟着去"), (4, 3, 0, [6])),
        # A child named as such, or a kin word with a child's age, is a child.
        (("下周六从广州去长沙，两个大人带儿子，儿子5岁", "再加个女儿 八岁"), (4, 2, 0, [5, 8])),
        (
            ("下周六从天津去北京，两个大人带孩子，孩子9岁", "再加上孩子的表弟，5岁"),
            (4, 2, 0, [9, 5]),
        ),
        (("下周六从北京去上海，学生票", "还有我弟弟，他10岁"), (2, 0, 1, [10])),
        (("下周六从北京去上海", "再加一个孩子，7岁"), (2, 1, 0, [7])),
        # The grandson's mother is one grown-up, said twice (再加一个大人), not the grandson.
        (
            ("我和老伴带孙子从南京去上海，孙子5岁，周六去", "孙子他妈也要去，再加一个大人"),
            (4, 3, 0, [5]),
        ),
        # A sister (老妹儿) coming along with her child: a grown-up and a child of eight.
        (("下周六从武汉去宜昌", "俺家老妹儿也一块儿，她领个孩子，孩子八岁"), (3, 2, 0, [8])),
        # 再加俺俩同学: two more, students like the one going.
        (("下周六从武汉去宜昌，我是学生，要学生票", "再加俺俩同学，也都是学生"), (3, 0, 3, [])),
        # Cantonese: two of us, the other one a university student.
        (("下周六从广州去长沙", "我哋有两个人，另外一个系大学生，要学生票"), (2, 1, 1, [])),
        # In English: two students, with their cards.
        (("下周六从北京去上海", "we are 2 students btw, we have student cards"), (2, 0, 2, [])),
    ],
)
def test_who_joins_is_priced_as_what_they_are_called(chat, texts, expected):
    assert party(trip(chat(*texts))) == expected


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (("这周六从天津去北京，学生票", "再加一个同学，也是学生"), (2, 0, 2, [])),
        (("除夕那天回家，南昌到赣州，学生票", "我同学跟我一起，她也是学生"), (2, 0, 2, [])),
        (("下周五从北京回石家庄，学生票", "我同学也一起去，她已经工作了不是学生"), (2, 1, 1, [])),
        (("下周五从北京回石家庄，学生票", "再加个同学"), (2, 1, 1, [])),
        (("下周五从北京回石家庄，学生票", "再加两个人，也都是学生"), (3, 0, 3, [])),
        # 都是学生 said as one joins: the one already going is a student too
        (("下周六从合肥去南京", "我同学跟我一块去，我们都是学生"), (2, 0, 2, [])),
        (("下周六从合肥去南京", "还有我表哥和表姐，都有学生证"), (3, 0, 3, [])),
    ],
)
def test_a_companion_is_a_student_only_when_said(chat, texts, expected):
    assert party(trip(chat(*texts))) == expected


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (("下周末想去重庆吃火锅", "贵阳出发", "我们三个人，都是学生"), (3, 0, 3, [])),
        (("明天下午福州到厦门", "我和两个同事"), (3, 3, 0, [])),
        (("明天下午福州到厦门", "我和同事两个人"), (2, 2, 0, [])),
        (
            ("除夕那天回家，南昌到赣州，学生票", "我同学跟我一起，她也是学生", "两个人预算两百"),
            (2, 0, 2, []),
        ),
        (
            ("这周六带孩子从天津去北京，孩子9岁", "不是一个大人，是我和我老婆两个人带孩子"),
            (3, 2, 0, [9]),
        ),
        (("下周一从北京去上海", "我妈也去，两个人"), (2, 2, 0, [])),
        (("周五从北京回哈尔滨，预算三百", "再加个同学，俩人六百够吗"), (2, 2, 0, [])),
        # A count corrected is the party, whoever is named after it.
        (("下周六从南京去上海", "我们三个人", "说错了，是4个，还有我表哥"), (4, 4, 0, [])),
    ],
)
def test_the_party_said_again_is_the_party_with_what_is_known_kept(chat, texts, expected):
    assert party(trip(chat(*texts))) == expected


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (("春节一家三口从北京回赣州", "孩子14了，得买全票吧"), (3, 2, 0, [14])),
        (("我们一家三口下周六从南京去上海", "孩子其实12岁"), (3, 2, 0, [12])),
        # Ages said with the grown-ups are the whole party, not one child's age.
        (("带两个孩子从深圳去衡阳", "孩子一个8岁一个15岁，还有我和孩子他爸"), (4, 2, 0, [8, 15])),
    ],
)
def test_an_age_said_later_is_the_childs_and_the_party_keeps_its_size(chat, texts, expected):
    assert party(trip(chat(*texts))) == expected


def test_the_fare_said_alone_makes_the_grown_ups_students(chat):
    assert party(trip(chat("寒假想从大连去哈尔滨玩", "学生票"))) == (1, 0, 1, [])
    assert party(trip(chat("下周一我们俩从大连去哈尔滨", "我们都是学生"))) == (2, 0, 2, [])


def test_a_budget_per_person_follows_the_party_that_joins(chat):
    intent = trip(chat("下周一从北京去上海，人均500", "再加一个人，孩子的爷爷"))
    assert intent.passengers == 2 and intent.budget == 1000


def test_a_ticket_question_or_another_stop_adds_nobody(chat):
    assert party(trip(chat("下周一从北京去上海，两个人", "还有票吗"))) == (2, 2, 0, [])
    assert party(trip(chat("下周一从北京去南京玩两天", "再加一站杭州"))) == (1, 1, 0, [])
    assert party(trip(chat("下周一从北京去南京玩两天", "再加一天"))) == (1, 1, 0, [])


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("加一个人", (2, 2, 0, [])),
        ("还有我爸妈", (3, 3, 0, [])),
        ("帮我爸妈也买两张", (3, 3, 0, [])),
        ("我女朋友也一起", (2, 2, 0, [])),
        ("加上我同事一共三个", (3, 3, 0, [])),
        ("再带上我儿子，他12岁", (2, 1, 0, [12])),
    ],
)
def test_more_ways_of_joining(chat, said, expected):
    assert party(trip(chat("12月5日从北京去上海", said))) == expected


def test_fewer_and_alone_and_a_child_named_without_a_count(chat):
    assert party(trip(chat("12月5日我们三个从北京去上海", "少一个人")))[0] == 2
    assert party(trip(chat("12月5日从北京去上海，两个人", "其实就我一个")))[0] == 1
    family = trip(chat("12月5日一家三口从北京去上海，孩子5岁", "孩子要占座"))
    assert party(family) == (3, 2, 0, [5]), "a child named alone says nothing of the size"
    assert trip(chat("12月5日从北京去上海", "加上我同事一共三个")).budget is None


def test_people_of_two_kinds_named_together_join_as_what_they_are(chat):
    intent = trip(chat("2月6日从杭州回商丘", "还有俺媳妇跟闺女 闺女5岁"))
    assert party(intent) == (3, 2, 0, [5])
    intent = trip(chat("2月6日从杭州回商丘", "还有我爸妈和我弟弟，弟弟8岁"))
    assert party(intent) == (4, 3, 0, [8])


def test_some_of_the_party_are_students(chat):
    assert party(trip(chat("12月5日从北京去上海，两个人", "一个是学生"))) == (2, 1, 1, [])
    assert party(trip(chat("12月5日从北京去上海，三个人", "其中两个是学生"))) == (3, 1, 2, [])


def test_going_together_with_nobody_named_adds_nobody(chat):
    assert party(trip(chat("12月5日我们俩从北京去上海", "我们一起去吧")))[0] == 2
    assert party(trip(chat("12月5日从北京去上海", "大家一起走")))[0] == 1
    assert party(trip(chat("12月5日从北京去上海", "她也去")))[0] == 2


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        # A count said by "we" with no 人 after it is the whole party.
        (("下周六从南京去合肥", "朋友也去，我们四个"), (4, 4, 0, [])),
        # One of them dropping out: one fewer, the fare they were said to pay kept.
        (("下周六从南京去合肥，我们五个人", "都是学生", "其中两个去不了"), (3, 0, 3, [])),
    ],
)
def test_the_party_counted_by_we_and_one_dropping_out(chat, texts, expected):
    assert party(trip(chat(*texts))) == expected


def test_groups_counted_in_a_turn_and_those_paying_full_fare(chat):
    # Every group counted is the party, not the first one alone.
    assert party(trip(chat("下周六从武汉去宜昌", "三个大人两个学生"))) == (5, 3, 2, [])
    # Those said not to be students keep the full fare.
    said = ("下周六我们仨从武汉去宜昌", "他在读大学，能买学生票，我们俩不是")
    assert party(trip(chat(*said))) == (3, 2, 1, [])


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        # More grown-ups counted by what they do join the students.
        (("下周六从南京去扬州，30个学生，买学生票", "还有三个带队老师 也算上"), (33, 3, 30, [])),
        (("下周六从南京去扬州，两个大人", "还有一个家长"), (3, 3, 0, [])),
        # A question about a child already going by its age changes nobody.
        (
            ("周六从杭州去上海 两个大人 孩子一个8岁一个4岁", "4岁的那个要买票吗？坐腿上就行"),
            (4, 2, 0, [8, 4]),
        ),
        # The speaker and the child counted as a pair, said again with a budget.
        (("周六杭州去上海，我跟孩子俩，孩子7岁", "两个人一共两百以内"), (2, 1, 0, [7])),
        # Half in English: one of two on a student ticket.
        (("明天成都到重庆", "oh 2 ppl, my bf is a student so 学生票 for him"), (2, 1, 1, [])),
    ],
)
def test_the_party_said_in_a_later_turn_as_travellers_say_it(chat, texts, expected):
    assert party(trip(chat(*texts))) == expected


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        # A group recounted by how it now stands: each group as said again.
        (
            ("下周一从合肥去南京研学，20个学生2个老师，学生买学生票", "老师变成3个，学生还是20个"),
            (23, 3, 20, []),
        ),
        # The students alone recounted: their teachers still come.
        (
            ("下周一从合肥去南京研学，20个学生2个老师，学生买学生票", "学生只剩18个了"),
            (20, 2, 18, []),
        ),
        # One more, with the count as it now stands: that count, not one on top of it.
        (("下周日从天津去济南，我们5个人", "又加了个同事，现在是六个"), (6, 6, 0, [])),
        (("下周日从天津去济南，我们5个人", "加了一位 目前7个"), (7, 7, 0, [])),
        # The party grown to the count, then all of it on student fares.
        (("下周日从天津去济南，我们两个人", "又加了一个人 现在3个", "我们都是学生"), (3, 0, 3, [])),
        # A grandchild joining in Cantonese joins the two grown-ups.
        (("礼拜日我同老婆由深圳北返汕头", "仲有个孙女仔一齐去 佢七岁"), (3, 2, 0, [7])),
    ],
)
def test_a_recount_or_a_join_said_with_the_new_total_changes_only_the_party(chat, texts, expected):
    assert party(trip(chat(*texts))) == expected


def test_a_couple_and_their_child_said_whole_in_chat(chat):
    intent = chat("下个星期三从成都去重庆，越便宜越好", "我们两口子加个八岁的娃儿，三个人").intent
    assert (intent.passengers, intent.children) == (3, [8])


def test_mum_and_my_son_said_in_cantonese_in_chat(chat):
    intent = chat("星期六由深圳去广州，坐高铁", "仲有我阿媽同我個仔一齊去，佢六歲").intent
    assert (intent.passengers, intent.children) == (3, [6])
