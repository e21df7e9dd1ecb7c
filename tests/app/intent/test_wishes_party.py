"""The offline parser reads wishes and the party as travellers say them (issue 22 items 4, 5)."""

from __future__ import annotations

import datetime as dt

import pytest

from app.intent.model import BERTH_LABELS, SLEEPER_SET, TravelIntent
from app.intent.offline import parse_offline
from rules.limits import MAX_PARTY
from sources.models import SeatClass
from sources.stations import StationDirectory, curated_directory, default_directory

TODAY = dt.date(2026, 12, 10)  # a Thursday


@pytest.fixture(scope="module")
def directory() -> StationDirectory:
    return curated_directory()


def parse(text: str, directory: StationDirectory) -> TravelIntent:
    return parse_offline(text, TODAY, directory)


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("明天北京到上海 越便宜越好", "cheapest"),
        ("明天北京到上海 便宜点", "cheapest"),
        ("明天北京到上海 最省钱", "cheapest"),
        ("下周六一家三口去长沙，广州南出发，能省则省", "cheapest"),
        ("明天北京到上海 越早越好", "earliest"),
        ("周六长沙去武汉 早点的车哈", "earliest"),
        ("明天北京到上海 晚点走", "latest"),
        ("明天北京到上海 最快", "fastest"),
        ("明天北京到上海 越快越好", "fastest"),
        ("明天北京到上海 最早到", "earliest_arrival"),
        ("明天北京到上海 希望早点到", "earliest_arrival"),
        ("明天北京到上海 最早一班", "earliest"),
        ("俺后天从合肥回阜阳 哪趟便宜就坐哪趟", "cheapest"),
        ("后天合肥到阜阳 什么便宜买什么", "cheapest"),
    ],
)
def test_the_order_vocabulary_in_colloquial_forms(
    text: str, order: str, directory: StationDirectory
) -> None:
    assert parse(text, directory).order == order


def test_a_clause_led_by_a_bare_hui_orders_the_ride_home(directory: StationDirectory) -> None:
    intent = parse("周六杭州去宁波玩 当天来回 去坐早点的 回坐最晚的", directory)
    assert (intent.order, intent.return_order) == ("earliest", "latest")


@pytest.mark.parametrize(
    "text",
    [
        "后天从南京去苏州办事，傍晚回南京，末班车",
        "周六上海去杭州玩 周日回 要最后一班",
        "下周一武汉到长沙见客户 晚上回武汉 最晚的",
    ],
)
def test_a_latest_train_said_alone_after_the_ride_home_is_the_ride_homes(
    text: str, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.order, intent.return_order) == (None, "latest")


def test_a_latest_train_after_a_one_way_ride_home_is_the_rides_own(
    directory: StationDirectory,
) -> None:
    intent = parse("今晚从苏州回南京，末班车", directory)
    assert (intent.order, intent.return_order) == ("latest", None)


def test_the_earliest_after_the_ride_home_stays_the_trips(directory: StationDirectory) -> None:
    assert parse("周六上海去杭州 周日回 最早一班", directory).order == "earliest"


def test_a_wish_said_of_the_ride_home_is_not_the_outbound_order(
    directory: StationDirectory,
) -> None:
    intent = parse("周六从厦门去福州 周日回 回来那趟晚一点的", directory)
    assert intent.order is None


@pytest.mark.parametrize(
    "text",
    [
        "周日带我妈从乌鲁木齐去北京 不要过夜",
        "周三武汉到北京 不坐夜车",
        "周六北京去青岛 白天的车",
        # With a wish for the latest train, the night still ruled out in other words.
        "周五从无锡回上海 越晚越好 可别是过夜的",
        "周五从无锡回上海 最晚的 不要跨夜的车",
        "周五从无锡回上海 晚点走没事 当天能到就行",
        # Refused with 再/了 around, named first then turned down, or as a night not borne.
        "下周二从哈尔滨回天津，上回坐怕了，不要再坐夜车",
        "周四从成都去西安 腿脚不好 不愿再坐过夜的火车了",
        "周日南昌去北京，过夜的车就不要了",
        "周日南昌去北京，夜车就免了吧",
        "周一从长沙去上海 我妈吃不消过夜",
        "周一从长沙去上海 别让老人夜里睡在车上",
        # Refused as a ride arranged for one: 别给我整, 不用帮我订.
        "下周三从南京去西安 别给我安排夜车",
        "周五广州到桂林，不用帮我订过夜的",
        # Hunanese 莫跟我搞: don't get me one.
        "礼拜六我要从长沙回吉首屋里，莫跟我搞过夜的车咯，熬不起",
    ],
)
def test_no_night_on_the_train(text: str, directory: StationDirectory) -> None:
    assert parse(text, directory).no_overnight is True


def test_no_overnight_is_unset_when_not_said(directory: StationDirectory) -> None:
    assert parse("周六北京去青岛", directory).no_overnight is None
    # A night train wanted stays one: its evening and next morning are kept.
    night = parse("周六北京去青岛 坐夜车，睡一觉就到", directory)
    assert night.no_overnight is None and night.depart_window is not None
    # 白天出发 is when to leave: a ride leaving by day may still arrive after midnight.
    leaving = parse("周六从徐州去上海，白天出发，越便宜越好", directory)
    assert leaving.no_overnight is None
    assert leaving.depart_window is not None and leaving.depart_window.span() == "06:00-18:00"
    assert leaving.arrive_window is None


def test_a_berth_wish_with_a_class_keeps_the_class(directory: StationDirectory) -> None:
    intent = parse("周五晚上北京到西安 软卧下铺 俩人", directory)
    assert intent.berth == "lower"
    assert intent.seat_class is not None and intent.seat_class.value == "soft_sleeper"
    assert intent.seat_classes == []


@pytest.mark.parametrize(
    ("text", "wish", "label"),
    [
        ("周三去满洲里 从哈尔滨 卧铺 不要上铺", "not_upper", "下铺或中铺"),
        ("周三哈尔滨去满洲里，老人爬不了上铺", "not_upper", "下铺或中铺"),
        ("周三哈尔滨去满洲里 硬卧，上铺就算了", "not_upper", "下铺或中铺"),
        ("周三哈尔滨去满洲里 硬卧 别给我下铺", "not_lower", "中铺或上铺"),
    ],
)
def test_a_berth_refused_wishes_for_the_others_and_keeps_the_sleeper(
    text: str, wish: str, label: str, directory: StationDirectory
) -> None:
    # 卧铺 不要上铺 refuses the top berth, not the sleeper said before it.
    intent = parse(text, directory)
    assert intent.berth == wish and BERTH_LABELS[wish] == label
    assert not intent.exclude_seat_classes
    assert intent.seat_classes == list(SLEEPER_SET) or (
        intent.seat_class is not None and intent.seat_class.value == "hard_sleeper"
    )


def test_a_berth_wish_alone_means_some_sleeper(directory: StationDirectory) -> None:
    intent = parse("周五晚上北京到西安 要上铺", directory)
    assert intent.berth == "upper"
    assert intent.seat_classes == list(SLEEPER_SET)


@pytest.mark.parametrize(
    ("text", "leisure"),
    [
        ("下周五从北京去上海玩三天", True),
        ("周末北京到天津当天来回", True),
        ("明天北京到上海出差", False),
        ("明天北京到上海", False),
    ],
)
def test_a_trip_for_pleasure(text: str, leisure: bool, directory: StationDirectory) -> None:
    assert parse(text, directory).leisure is leisure


def test_nights_at_every_stop_said_once(directory: StationDirectory) -> None:
    intent = parse("下周一北京出发去西安和成都，每个城市待两天，再回北京", directory)
    assert intent.stop_nights == 2
    assert [(stop.city, stop.nights) for stop in intent.via] == [("西安", 2)]
    assert intent.destination == "成都" and intent.nights == 2
    assert intent.days is None  # 待两天 is the stay at each stop, not the trip's length


def test_nights_said_as_nights(directory: StationDirectory) -> None:
    intent = parse("12月24日北京到上海 住两晚", directory)
    assert intent.nights == 2 and intent.date_end == dt.date(2026, 12, 26)


@pytest.mark.parametrize(
    ("text", "passengers", "students", "children"),
    [
        ("两个大人带一个3岁小孩 北京到上海 明天", 3, 0, [3]),
        ("我们宿舍四个人 周六 长沙到武汉 学生票", 4, 4, []),
        ("宿舍我们4个这周六想去武汉玩 从长沙出发", 4, 0, []),
        ("我和老公带两个孩子 广州去长沙 周日", 4, 0, [None, None]),
        ("老两口 北京到西安 周五晚上", 2, 0, []),
        ("一家三口 明天 上海到杭州", 3, 0, [None]),  # two parents and a child, as said
        ("元旦三天带娃从长沙去张家界，俩大人一个孩子，孩子两岁半", 3, 0, [2]),
        ("周六带孩子去千岛湖，从上海虹桥走，孩子9岁，我和他爸", 3, 0, [9]),
        ("我和孩子她妈带她去南京玩，她10岁，明天从上海出发", 3, 0, [10]),
        ("带爸妈和孩子去峨眉山 成都东出发 下周二 孩子是初中生 有学生证", 4, 1, []),
        ("我爸妈七十多了 哈尔滨到北京 下周四", 2, 0, []),
        ("爸妈从上海去苏州 平安夜那天", 2, 0, []),
        ("我和老伴从上海去北京看孙子 后天", 2, 0, []),
        ("我俩从北京去广州 这周六", 2, 0, []),
        ("我一个人带刚满周岁的宝宝回衡阳，深圳北上车，周六", 2, 0, [1]),
        ("我和老婆还有两个孩子，一个是婴儿一个8岁，下周三从厦门去福州", 4, 0, [0, 8]),
        ("周六北京去北戴河，两大两小（5岁、8岁）", 4, 0, [5, 8]),
        ("我们两口子带俩孩子从郑州去北京玩三天，孩子5岁7岁", 4, 0, [5, 7]),
        ("两大一小去上海 明天 北京出发", 3, 0, [None]),
        ("下周一两个大人一个小孩，北京西到石家庄", 3, 0, [None]),  # 周一 is no count: not 一两
        ("周日两大一小 北京去天津", 3, 0, [None]),
        ("下周六一家三口去长沙，孩子上小学了，广州南出发", 3, 0, [None]),
        ("带着老妈 南京到上海 后天", 2, 0, []),
        ("我跟我老公 带俩娃 大的10岁小的5岁 广州到长沙 周日上午", 4, 0, [10, 5]),
        ("我们俩加女儿13岁，20号从广州去三亚", 3, 0, [13]),
        ("下周五晚上我们三口从南京去北京 女儿14周岁了", 3, 0, [14]),
        ("带着爸妈和我儿子（8岁）北京去青岛 周六", 4, 0, [8]),
        ("除夕前一天一家五口从上海回合肥，两个老人我们俩，还有个上初中的闺女", 5, 0, [None]),
        ("哈尔滨到齐齐哈尔，这周六上午，宿舍3个人，都有学生证", 3, 3, []),
        ("重庆到贵阳 这周末 两张学生票", 2, 2, []),
        ("郑州到洛阳 后天 学生票", 1, 1, []),
        # Travellers calling themselves students claim the fare, 学生 said on its own too.
        ("学生 元旦 从石家庄去北京玩 三个人", 3, 3, []),
        ("这周六跟舍友两个人从长沙去韶山，我们都是学生", 2, 2, []),
        ("杭州到宁波 后天 硬座 大学生", 1, 1, []),
        ("我是研究生，下周一从南京去合肥", 1, 1, []),
        # 学生 inside other words, or denied, claims nothing.
        ("下周一带学生从南京去合肥春游，三个人", 3, 0, []),
        ("我不是学生 下周一从南京去合肥", 1, 0, []),
        # A couple is two grown-ups, whatever children the sentence names elsewhere.
        ("带孩子从武汉去宜昌，孩子6岁，我们两口子，周六走", 3, 0, [6]),
        # Grown-ups counted by what they do: 两个退休工人 is two.
        ("两个退休工人下周二从西安去延安", 2, 0, []),
        ("三位老师下周二从西安去延安", 3, 0, []),
        # A count of one denied is no count: the party follows.
        ("不是我一个人，我和我姐俩，下周二从西安去延安", 2, 0, []),
        # A son named with no child's age rides beside the speaker as a grown-up.
        ("我跟我儿子下周二从西安去延安", 2, 0, []),
        ("下周二我和女儿（26了）从西安去延安", 2, 0, []),
        # Kin said the short way, and in-laws, are companions too.
        ("下周二跟我姐从西安去延安", 2, 0, []),
        ("我和女儿女婿下周二从西安去延安", 3, 0, []),
        ("下周二和舅舅舅妈从西安去延安", 3, 0, []),
        # A grandchild brought along is a child of unknown age; one visited is not aboard.
        ("老两口带外孙下周二从西安去延安", 3, 0, [None]),
        ("下周二我带孙女从西安去延安，她7岁", 2, 0, [7]),
        # 仨人, 咱俩, and a digit count amid pinyin.
        ("仨人下周二从西安去延安", 3, 0, []),
        ("咱俩下周二从西安去延安", 2, 0, []),
        ("xia zhou er cong xian qu yanan 3 ge ren", 3, 0, []),
        # Some of the party said to be students: only they claim the fare.
        ("下周二五个人从西安去延安 里面两个学生", 5, 2, []),
        ("下周二西安去延安，三个人，有一个是研究生", 3, 1, []),
        ("下周二西安去延安 学生一个 求便宜", 1, 1, []),
        ("下周二西安去延安，三个人，两个学生", 3, 2, []),
        # The party counted as students claims the fare; pupils brought along are companions.
        ("我们两个大学生下周二从西安去延安", 2, 2, []),
        ("下周二带五个学生从西安去延安", 6, 0, []),
        ("下周二西安去延安还有车吗 学生", 1, 1, []),  # 还有 asks for a train, no companion
        # Named after the route, then said to come along.
        ("下周二西安去延安，老公孩子一起，孩子4岁", 3, 0, [4]),
        ("下周二西安去延安，我爸妈也一起", 3, 0, []),
        # A ticket times a count, as typed on a phone.
        ("下周二 西安去延安 学生票x3", 3, 3, []),
        ("下周二 西安去延安 二等座×2", 2, 0, []),
    ],
)
def test_the_party_from_everyday_phrases(
    text: str,
    passengers: int,
    students: int,
    children: list[int | None],
    directory: StationDirectory,
) -> None:
    intent = parse(text, directory)
    assert (intent.passengers, intent.students, intent.children) == (
        passengers,
        students,
        children,
    )
    assert intent.adults == passengers - students - len(children)


def test_a_party_larger_than_its_head_count_is_taken_whole() -> None:
    intent = TravelIntent(passengers=1, students=1, children=[4, 9])
    assert intent.passengers == 3 and intent.adults == 0


def test_a_childs_age_is_bounded() -> None:
    with pytest.raises(ValueError, match="age"):
        TravelIntent(children=[30])


@pytest.mark.parametrize(
    ("text", "passengers"),
    [
        # A two-digit head count is the count, not its last digit (35个同学 was read as 5).
        ("明天我们班35个同学从北京去天津", 35),
        ("明天我们班三十五个同学从北京去天津", 35),
        ("明天12个同事从北京去天津", 12),
        ("明天三个大学生从北京去天津", 3),
        ("明天我们45个人从北京去天津", 45),
        # A crowd past what an intent states keeps its trip (a parse failure lost it).
        ("明天我们年级120个学生从北京去天津", MAX_PARTY),
        ("明天我们75个人从北京去天津", MAX_PARTY),
    ],
)
def test_a_head_count_is_read_whole_and_a_group_keeps_its_trip(
    text: str, passengers: int, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.origin, intent.destination) == ("北京", "天津")
    assert intent.passengers == passengers


@pytest.mark.parametrize(
    ("text", "children"),
    [
        # An age in months is a baby's (宝宝8个月 was a child of unknown age, priced at half).
        ("带宝宝回老家，宝宝8个月，明天从深圳去赣州", [0]),
        ("带个十个月大的孩子明天从深圳去赣州", [0]),
        ("孩子18个月，我们一家三口明天从深圳去赣州", [1]),
    ],
)
def test_a_babys_age_in_months_is_its_age(
    text: str, children: list[int], directory: StationDirectory
) -> None:
    assert parse(text, directory).children == children


def test_months_ahead_are_no_age(directory: StationDirectory) -> None:
    assert parse("带孩子三个月后从深圳去赣州", directory).children == [None]


@pytest.mark.parametrize(
    "text",
    [
        "明天北京到上海 坐夜车 省一晚住宿",
        "明天北京到上海，夜车去能省个酒店钱",
        "明天北京到上海 睡一觉就到",
    ],
)
def test_a_night_train_wish_leaves_in_the_evening_and_arrives_the_next_morning(
    text: str, directory: StationDirectory
) -> None:
    # 省一晚住宿 had been a night's stay (a round trip) and a hotel question.
    intent = parse(text, directory)
    assert intent.kind == "query_tickets" and intent.nights is None and intent.date_end is None
    assert intent.depart_window is not None and intent.depart_window.start == dt.time(18, 0)
    assert intent.arrive_date == TODAY + dt.timedelta(days=2)
    assert intent.arrive_window is not None and intent.arrive_window.end == dt.time(12, 0)


def test_no_night_train_is_no_night_window(directory: StationDirectory) -> None:
    intent = parse("明天北京到上海 不要夜车", directory)
    assert intent.depart_window is None and intent.no_overnight
    intent = parse("周日从苏州回南京学校 越晚越好 但是别是过夜的车", directory)
    assert intent.depart_window is None and intent.no_overnight and intent.order == "latest"


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("明天北京到上海 不想坐太久", "fastest"),
        ("明天北京到上海 老人坐太久受不了", "fastest"),
        ("明天北京到上海 穷游", "cheapest"),
        ("明天北京到上海 普快就行 省钱", "cheapest"),
        # A wish denied is no wish: 不省时间 is not 省时间.
        ("明天北京到上海 不省时间，便宜就行", "cheapest"),
    ],
)
def test_time_and_money_said_as_burdens_are_orders(
    text: str, order: str, directory: StationDirectory
) -> None:
    assert parse(text, directory).order == order


@pytest.mark.parametrize(
    ("text", "classes"),
    [
        ("后天长春到北京 硬卧，实在没有的话就硬座", ["hard_sleeper", "hard_seat"]),
        ("后天长春到北京 一等座或二等座都可以", ["first", "second"]),
    ],
)
def test_two_classes_either_will_do(
    text: str, classes: list[str], directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert [c.value for c in intent.seat_classes] == classes
    assert intent.seat_class is None


def test_a_class_said_of_the_ride_home_is_its_own(directory: StationDirectory) -> None:
    intent = parse("周六从郑州去洛阳 周日下午回 回来坐一等座", directory)
    assert intent.return_seat_classes == ["first"] and intent.seat_class is None
    both = parse("周六郑州去洛阳周日回 去程硬座 回程二等座", directory)
    assert (both.seat_class, both.return_seat_classes) == ("hard_seat", ["second"])


@pytest.mark.parametrize(
    ("text", "seats", "types"),
    [
        ("后天从长春去北京，我爸受不了一晚上硬座，给他买卧铺", ["hard_seat"], []),
        ("后天从长春去沈阳 我坐高铁会晕", [], ["G"]),
    ],
)
def test_what_the_body_cannot_take_is_refused(
    text: str, seats: list[str], types: list[str], directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert [c.value for c in intent.exclude_seat_classes] == seats
    assert intent.exclude_train_types == types


@pytest.mark.parametrize(
    ("text", "seats"),
    [
        # A night in a seat, refused by whoever is spared it, before or after the verb.
        ("后天从长春去北京 别让爸妈坐一整夜硬座", ["hard_seat"]),
        ("后天从长春去北京 我熬不住一宿站票", ["no_seat"]),
        ("后天从长春去北京 扛不住通宵无座", ["no_seat"]),
        ("后天从长春去北京 不想一晚上坐硬座", ["hard_seat"]),
        ("后天从长春去北京 别叫孩子坐一夜硬座", ["hard_seat"]),
    ],
)
def test_a_night_in_a_seat_refused_is_the_class_refused_and_no_stay(
    text: str, seats: list[str], directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert [c.value for c in intent.exclude_seat_classes] == seats
    assert intent.seat_class is None
    assert intent.date_end is None and intent.nights is None


def test_a_berth_said_as_enough_beside_a_night_seat_refused(directory: StationDirectory) -> None:
    intent = parse("下周一哈尔滨去满洲里，卧铺就行，受不了一晚上硬座", directory)
    assert set(intent.seat_classes) == set(SLEEPER_SET)
    assert intent.exclude_seat_classes == ["hard_seat"] and intent.seat_class is None


def test_money_words_that_are_no_budget_and_a_limit_said_as_dont(
    directory: StationDirectory,
) -> None:
    classes = parse("后天长春到沈阳 一共两个人，都买一等座", directory)
    assert classes.budget is None and classes.seat_class == "first"
    limit = parse("后天长春到沈阳 穷学生 别超过80", directory)
    assert (limit.budget, limit.students) == (80.0, 1)


def test_a_type_not_needed_is_refused(directory: StationDirectory) -> None:
    intent = parse("后天长春到沈阳 普快就行，不需要高铁", directory)
    assert "G" in intent.exclude_train_types and "G" not in intent.train_types


def test_a_class_the_body_cannot_take_is_refused(directory: StationDirectory) -> None:
    intent = parse("后天从广州回贵阳，给我弄个卧铺，硬座老人家吃不消", directory)
    assert "hard_seat" in intent.exclude_seat_classes
    assert set(intent.seat_classes) == set(SLEEPER_SET)
    assert intent.depart_window is None


@pytest.mark.parametrize(
    "text",
    [
        # How long the ride is, between the class and the body's word.
        "周五从成都去广州，硬座坐十几个小时屁股受不了，来个卧铺",
        "下周二郑州到乌鲁木齐 硬座站三十个钟头我扛不住 要卧铺",
        # 遭罪 / 受罪: the ride itself a hardship.
        "后天上海回重庆 硬座太遭罪了 卧铺就行",
        "下周一合肥到昆明，硬座也受罪，买卧铺",
    ],
)
def test_a_class_borne_for_hours_or_a_hardship_is_refused(
    text: str, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert "hard_seat" in intent.exclude_seat_classes and intent.seat_class is None
    assert set(intent.seat_classes) == set(SLEEPER_SET)


@pytest.mark.parametrize(
    ("text", "excluded"),
    [
        # The body's word said first, the class or type after it.
        ("明天北京到上海，只坐高铁，孩子坐不住绿皮车", {"K", "T", "Z"}),
        ("周五从广州回贵阳，老人受不了硬座", {"hard_seat"}),
    ],
)
def test_a_class_the_body_cannot_take_said_first_is_refused(
    text: str, excluded: set[str], directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert excluded <= {*intent.exclude_train_types, *intent.exclude_seat_classes}


def test_a_trip_counted_in_days_and_nights_is_a_tour(directory: StationDirectory) -> None:
    # 两天一夜 left on Saturday at 19:06 to save 80 yuan: a tour ranks time there first.
    assert parse("这周六从上海去黄山，两天一夜", directory).leisure
    assert parse("下周三从上海去黄山出差，三天两晚", directory).leisure is False


@pytest.mark.parametrize(
    ("text", "passengers", "students", "children"),
    [
        # Companions named first, then counted.
        ("工友仨下周五从东莞回赣州", 3, 0, []),
        ("同事们三个人后天从武汉去长沙", 3, 0, []),
        # A couple bringing a son or daughter along: a child whose age is not said.
        ("我跟老公带着儿子周日从合肥去南京", 3, 0, [None]),
        # Travellers calling themselves students, in a word of their own or in pinyin.
        ("学生党 周六从西安去宝鸡 硬座就行", 1, 1, []),
        ("苦学生一枚 周日从洛阳回郑州", 1, 1, []),
        ("houtian cong jinan qu qingdao, xuesheng piao", 1, 1, []),
    ],
)
def test_the_party_is_read_as_travellers_say_it(
    text: str, passengers: int, students: int, children: list[int | None]
) -> None:
    intent = parse_offline(text, dt.date(2026, 12, 9), default_directory())
    assert (intent.passengers, intent.students, intent.children) == (
        passengers,
        students,
        children,
    )


@pytest.mark.parametrize(
    ("text", "passengers", "children"),
    [
        # A baby a month old is no year old (刚满月 was a child of unknown age, priced at half).
        ("闺女才满月，我跟她妈周五从苏州回淮安", 3, [0]),
        ("下周一带刚出生的儿子从苏州回淮安，我和我爱人", 3, [0]),
        # 满月酒 is a party gone to, no baby aboard.
        ("下周一从苏州去淮安喝侄子的满月酒", 1, []),
        # 十一周岁 is eleven, not a child of one beside a child of eleven.
        ("下周一我带女儿从苏州去淮安，她十二周岁", 2, [12]),
        ("下周一带两个孩子从苏州去淮安，一个一周岁一个十一周岁", 3, [1, 11]),
        # Twins are two children, of the one age said of them.
        ("我和孩子他妈带龙凤胎下周一从苏州去淮安，两个宝贝都4岁", 4, [4, 4]),
        ("下周一带三胞胎从苏州去淮安", 4, [None, None, None]),
        ("下周一带两个孩子从苏州去淮安，是双胞胎，7岁", 3, [7, 7]),
    ],
)
def test_babies_and_twins_as_parents_say_them(
    text: str, passengers: int, children: list[int | None], directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.passengers, intent.children) == (passengers, children)


@pytest.mark.parametrize(
    ("text", "passengers", "children"),
    [
        # Elders leading a list with children are its grown-ups: the child is one more.
        ("两位老人带一个两岁的娃 下周一从苏州去淮安", 3, [2]),
        ("两个老人带俩孩子下周一从苏州去淮安", 4, [None, None]),
        # Elders brought along by the speaker: the speaker is one more.
        ("我带两个老人下周一从苏州去淮安", 3, []),
        # Grandparents opening the sentence travel, the grandchild with them.
        ("外公外婆带外孙女下周一从苏州回淮安", 3, [None]),
        ("孩子爷爷奶奶带着他下周一从苏州回淮安，他六岁", 3, [6]),
        # Grandparents visited are not aboard.
        ("下周一带孩子从苏州回淮安看外公外婆", 2, [None]),
        # A couple counted by the speaker is the grown-ups, the child named elsewhere added.
        ("孩子五岁半，我跟我老婆两个人，下周一从苏州去淮安", 3, [5]),
        ("我和孩子他爸俩下周一从苏州去淮安", 2, []),
    ],
)
def test_the_grown_ups_are_the_ones_said_to_bring_the_children(
    text: str, passengers: int, children: list[int | None], directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.passengers, intent.children) == (passengers, children)


@pytest.mark.parametrize(
    ("text", "passengers", "children"),
    [
        # In-laws opening the sentence travel, as grandparents do.
        ("岳父岳母带我儿子下周一从苏州回淮安，儿子9岁", 3, [9]),
        # Months after a year's age add to it: 两岁三个月 is one child of two.
        ("孩子两岁三个月，我和老婆下周一从苏州去淮安", 3, [2]),
        ("下周一带一岁零八个月的闺女从苏州去淮安", 2, [1]),
        # A group counted roughly is at least that many: more than one order holds.
        ("下周一工友十几个从苏州回淮安", 11, []),
        ("我们村三十多个老乡下周一从苏州回淮安", 31, []),
    ],
)
def test_ages_and_counts_said_roughly_or_in_parts(
    text: str, passengers: int, children: list[int | None], directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.passengers, intent.children) == (passengers, children)


@pytest.mark.parametrize(
    ("text", "passengers"),
    [
        ("下周三广州到长沙出差，我和领导一块儿", 2),
        ("后天陪导师从南京去合肥开会", 2),
        ("周四跟主管一起从深圳去珠海", 2),
        # The errand, not a companion: 和客户见面, 跟老板请假.
        ("明天从杭州去宁波和客户见面", 1),
        ("跟老板请了假 周六从成都去重庆", 1),
    ],
)
def test_a_person_of_work_said_riding_along_is_one_of_the_party(
    text: str, passengers: int, directory: StationDirectory
) -> None:
    assert parse(text, directory).passengers == passengers


@pytest.mark.parametrize(
    ("text", "passengers", "students", "children"),
    [
        # A younger relative given a child's age is that child, not a grown-up beside it.
        ("下周一带着侄子从苏州去淮安，侄子今年8岁", 2, 0, [8]),
        ("我和外甥女下周一从苏州去淮安，她12岁", 2, 0, [12]),
        ("我跟我爸带表妹下周一从苏州去淮安 表妹6岁", 3, 0, [6]),
        # The age said of another child, or a grown-up's age, leaves the relative grown.
        ("下周一带表弟和女儿从苏州去淮安，女儿5岁", 3, 0, [5]),
        ("下周一和堂哥从苏州去淮安 他30岁", 2, 0, []),
        # Groups counted after their names, and teachers counted with their students.
        ("下周一从苏州去淮安 大人三个 孩子一个 孩子4岁", 4, 0, [4]),
        ("下周一从苏州去淮安 老人俩 小孩一个", 3, 0, [None]),
        ("夏令营 老师2个 学生6个 下周一从苏州去淮安", 8, 6, []),
        ("两位老师带十个学生下周一从苏州去淮安，学生都买学生票", 12, 10, []),
        ("下周一陪两个老师从苏州去淮安", 3, 0, []),
        ("孩子两个，一个9岁一个3岁，下周一从苏州去淮安", 3, 0, [9, 3]),
        # Those said to pay the full fare ride on no student ticket; 带学生证 brings no one.
        ("下周一我和女儿从苏州去淮安，她读大三有学生证，给她买学生票，我买全价", 2, 1, []),
        ("下周一我和表姐从苏州去淮安，她有学生证，我不是", 2, 1, []),
        ("我和同学都是研究生，带学生证的，下周一从苏州去淮安", 2, 2, []),
        # A count said again after someone joins is the party.
        ("下周一从苏州去淮安，两个人，哦我爸也去，那就三个人", 3, 0, []),
        # One of the party claiming it for themself: that one alone.
        ("我跟我爸下周一从苏州去淮安 我有学生证 要学生票", 2, 1, []),
        ("下周一我和儿子从苏州去淮安，他是研究生，买学生票", 2, 1, []),
        # Someone at university is a grown-up of the party, and the one student among them.
        ("下周一带孙女从苏州去淮安，她在南京读大二，给她买学生票", 2, 1, []),
        ("我和我妹下周一从苏州去淮安，她还在念研究生，要学生票", 2, 1, []),
        ("下周一带外孙女从苏州去淮安，她上大学了", 2, 0, []),
        ("下周一我和表哥从苏州去淮安，给他买学生票", 2, 1, []),
        ("下周一带孙女从苏州去淮安，给她买学生票", 2, 1, []),
        ("下周一带孙女从苏州去淮安，我有学生证", 2, 1, [None]),
        # Elders counted onto a couple are more grown-ups.
        ("我们两口子加两位老人 下周一从苏州去淮安，女儿6岁", 5, 0, [6]),
        # Kin brought along after a couple are grown-ups; an age in brackets is the child's.
        ("我俩带着我爸和女儿（6岁）下周一从苏州去淮安", 4, 0, [6]),
        ("两口子带闺女(9岁)还有丈母娘 下周一从苏州去淮安", 4, 0, [9]),
        ("我们两口子带爸妈下周一从苏州去淮安", 4, 0, []),
        ("我们俩带我妹 她10岁 下周一从苏州去淮安", 3, 0, [10]),
        # The party typed in pinyin.
        (
            "xia zhou yi cong suzhou qu huaian, san ge da ren dai liang ge hai zi",
            5,
            0,
            [None, None],
        ),
        ("xia zhou yi cong suzhou qu huaian, 1 ge da ren 1 ge 6 sui xiao hai", 2, 0, [6]),
    ],
)
def test_each_traveller_is_counted_once(
    text: str,
    passengers: int,
    students: int,
    children: list[int | None],
    directory: StationDirectory,
) -> None:
    intent = parse(text, directory)
    assert (intent.passengers, intent.students, intent.children) == (passengers, students, children)


@pytest.mark.parametrize(
    ("text", "passengers", "children"),
    [
        ("后天我、老公、闺女(8岁)从杭州去上海", 3, [8]),
        ("后天我、我爸从杭州去上海", 2, []),
        ("下周六我、我姐还有我女儿(6岁)从南京去苏州", 3, [6]),
    ],
)
def test_the_speaker_listed_first_with_a_mark_counts_everyone_after(
    text: str, passengers: int, children: list[int], directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.passengers, intent.children) == (passengers, children)


@pytest.mark.parametrize(
    ("text", "passengers", "students", "children"),
    [
        # A parent booking a student ticket for a grown child who travels alone: one student.
        ("闺女在西安读大学 下周六回宝鸡 帮她订张学生票", 1, 1, []),
        ("给儿子买一张学生票 周五从合肥回安庆", 1, 1, []),
        ("孩子在长沙上学 周五回岳阳 替他抢张学生票 越早越好", 1, 1, []),
        ("娃在武汉念书 周五回襄阳 他有学生证 给他挑便宜的", 1, 1, []),
        # …unless the speaker is said to go along.
        ("我和孩子周五从合肥回安庆 给孩子买学生票", 2, 1, []),
        ("带着孩子周五从合肥回安庆 孩子在读大学 给他买学生票", 2, 1, []),
        # 女孩子 says what the traveller is, not that a child rides.
        ("女儿一个人从南京回扬州 下周五 女孩子走夜路不安全", 1, 0, []),
    ],
)
def test_a_student_child_booked_for_is_the_one_traveller(
    text: str,
    passengers: int,
    students: int,
    children: list[int | None],
    directory: StationDirectory,
) -> None:
    intent = parse(text, directory)
    assert (intent.passengers, intent.students, intent.children) == (passengers, students, children)


@pytest.mark.parametrize(
    ("text", "passengers", "students", "children"),
    [
        # A spouse called by age is a grown-up companion.
        ("我跟老太婆带外孙女 周六从杭州去宁波 外孙女5岁", 3, 0, [5]),
        # Teachers counted with a word for their duty are the class's grown-ups.
        ("我们年级12个学生和1个领队老师 下周三从西安去延安 学生买学生票", 13, 12, []),
        # A family named one by one, the speaker among them, then the children.
        ("全家出动 外公外婆 我爸妈 我 还有我表妹 下周六从杭州去黄山", 6, 0, []),
        ("爸爸妈妈、我、老婆和两个孩子 周日从郑州去开封 孩子一个6岁一个10岁", 6, 0, [6, 10]),
        ("去看爷爷奶奶 我和我姐 周六从南京去常州", 2, 0, []),
        # A ticket each is no count of one; the speaker and a companion counted as a pair.
        ("下周一上海到南京 我和老婆一人一张 二等座", 2, 0, []),
        ("周六我和小孩俩从成都去绵阳 小孩8岁", 2, 0, [8]),
        # Half in English.
        ("sat shanghai to hangzhou, 3 ppl", 3, 0, []),
        ("周六 shanghai to hangzhou, 2 ppl, my wife is a student so 学生票 for her", 2, 1, []),
    ],
)
def test_who_travels_as_the_party_says_it(
    text: str,
    passengers: int,
    students: int,
    children: list[int | None],
    directory: StationDirectory,
) -> None:
    intent = parse(text, directory)
    assert (intent.passengers, intent.students, intent.children) == (passengers, students, children)


@pytest.mark.parametrize(
    ("text", "passengers"),
    [
        # the one who leads and the people led
        ("下周三我带5名员工从成都去重庆", 6),
        ("明天带8个同事去苏州 从上海走", 9),
        # a spouse typed in English amid Chinese
        ("我跟husband周六从北京去天津", 2),
    ],
)
def test_the_party_led_or_typed_in_english(
    text: str, passengers: int, directory: StationDirectory
) -> None:
    assert parse(text, directory).passengers == passengers


def test_a_spouse_in_english_with_children_is_two_grown_ups(directory: StationDirectory) -> None:
    intent = parse("我和wife带两个kids (4岁和8岁) 周六从北京去天津", directory)
    assert (intent.passengers, intent.children) == (4, [4, 8])


@pytest.mark.parametrize(
    ("text", "order", "return_order"),
    [
        # the place said inside 越早到…越好
        ("后天从苏州去上海，越早到虹桥越好", "earliest_arrival", None),
        # an order said of the day home and its ride is the ride home's
        ("周五从苏州去南京玩，周日回来，周日那班越晚越好", None, "latest"),
        ("周五从苏州去南京玩，周日回来，周五那趟越早越好", "earliest", None),
    ],
)
def test_orders_said_of_a_place_or_of_the_day_home(
    text: str, order: str | None, return_order: str | None, directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.order, intent.return_order) == (order, return_order)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The family said whole: the daughter at university is the fourth, on a student fare.
        ("周六一家四口从南京去北京，俩大人，大女儿读大学要买学生票，小儿子12岁", (4, 1, [12])),
        ("周六从南京去北京，俩大人，女儿要买学生票", (3, 1, [])),
        # Grown children at university counted as such: students beside the parents.
        ("我和老婆还有两个大学生孩子（都有学生证），周六从北京去天津", (4, 2, [])),
    ],
)
def test_grown_children_at_university_ride_beside_their_parents(
    text: str, expected: tuple[int, int, list[int]], directory: StationDirectory
) -> None:
    intent = parse(text, directory)
    assert (intent.passengers, intent.students, intent.children) == expected


def test_where_a_companion_studies_is_no_stop() -> None:
    # 他在广州读大专 says where the son studies: the trip is 广州 → 周口, one way.
    intent = parse(
        "下周五我带儿子从广州回周口，他在广州读大专，有学生证，给他买学生票，我买普通的",
        default_directory(),
    )
    assert (intent.origin, intent.destination, intent.via) == ("广州", "周口", [])
    assert (intent.passengers, intent.students) == (2, 1)


def test_any_day_this_week_cheapest_either_class_and_no_hurry() -> None:
    intent = parse(
        "这个礼拜哪天走都行，从杭州回贵阳，活干完了不赶时间，就找最便宜的，硬卧硬座都可以",
        default_directory(),
    )
    assert intent.order == "cheapest" and "快" not in intent.preferences
    assert intent.seat_classes == [SeatClass.HARD_SLEEPER, SeatClass.HARD_SEAT]
    assert intent.flexible_until == dt.date(2026, 12, 13)  # this week's Sunday


def test_those_named_beside_others_then_everyone_counted(directory: StationDirectory) -> None:
    intent = parse("帮我们刘总和两位同事订下周二北京到天津的票，三个人都要一等座", directory)
    assert intent.passengers == 3


@pytest.mark.parametrize(
    ("text", "passengers", "children"),
    [
        ("一老一小，明天北京到天津", 2, [None]),
        ("两老一小，明天北京到天津", 3, [None]),
        ("我们一老两小三个人明天北京到天津", 3, [None, None]),
        # A grandchild said small (小孙子) beside a named train is a child all the same.
        ("我带小孙子坐G1明天去上海，一老一小俩人", 2, [None]),
    ],
)
def test_elders_and_children_counted_in_one_breath(
    directory: StationDirectory, text: str, passengers: int, children: list[None]
) -> None:
    intent = parse(text, directory)
    assert (intent.passengers, intent.children) == (passengers, children)


@pytest.mark.parametrize(
    "text",
    [
        "我哥已经上班了，我还在读书，我们俩明天北京去天津，我要学生票",
        "我和我姐明天北京去天津，她已经工作了，我是学生",
        "我是大学生，我对象已经工作了，我们俩明天北京去天津",
        "我和我哥（已经上班了）明天北京去天津，我有学生证",
    ],
)
def test_a_companion_said_to_work_pays_the_full_fare(
    directory: StationDirectory, text: str
) -> None:
    intent = parse(text, directory)
    assert (intent.passengers, intent.students) == (2, 1)


def test_a_night_slept_aboard_wished_for_or_refused() -> None:
    directory = default_directory()
    wished = parse_offline("打算在火车上睡一觉，周五晚上广州去北京", TODAY, directory)
    assert set(wished.seat_classes) == set(SLEEPER_SET)
    aboard = parse_offline("周五广州去北京，车上过一夜", TODAY, directory)
    assert aboard.arrive_window is not None and aboard.arrive_date == dt.date(2026, 12, 12)
    refused = parse_offline("不想在火车上睡一晚，周五广州去桂林", TODAY, directory)
    assert refused.seat_classes == [] and refused.arrive_window is None


@pytest.mark.parametrize(
    ("text", "types", "excluded"),
    [
        ("周三北京到上海的G次", ["G"], []),
        ("周三北京到上海，坐G车", ["G"], []),
        ("周三北京到上海，只要D车", ["D"], []),
        ("周三北京到上海，不坐D车", [], ["D"]),
    ],
)
def test_the_letter_said_as_a_kind_of_train(
    directory: StationDirectory, text: str, types: list[str], excluded: list[str]
) -> None:
    intent = parse(text, directory)
    assert (intent.train_types, intent.exclude_train_types) == (types, excluded)
    assert intent.train_numbers == []


def test_a_refusal_ends_at_a_space_and_the_next_wish_is_a_wish() -> None:
    intent = parse_offline(
        "12月18号 合肥去黄山爬山 不要绿皮车 二等座 下午两点前到", TODAY, default_directory()
    )
    assert intent.seat_class == SeatClass.SECOND
    assert SeatClass.SECOND not in intent.exclude_seat_classes
    assert set(intent.exclude_train_types) == {"K", "T", "Z"}
    joined = parse_offline("不要无座 和 硬座，明天北京去上海", TODAY, default_directory())
    assert set(joined.exclude_seat_classes) == {SeatClass.NO_SEAT, SeatClass.HARD_SEAT}


@pytest.mark.parametrize(
    ("text", "passengers", "students", "children"),
    [
        (
            "我们五个人下周六从成都去重庆耍，其中三个还在读大学要买学生票，另外两个已经上班了",
            5,
            3,
            [],
        ),
        (
            "我跟我对象还有我弟三个人，这周六从福州去泉州，我弟还在上大学买学生票，我俩上班了",
            3,
            1,
            [],
        ),
        ("周五下班后带老婆孩子从深圳回潮汕老家，周日回来，孩子一个5岁一个才8个月", 4, 0, [0, 5]),
        ("下个礼拜三我跟我老妹两个从衡阳切广州，有么子车咯", 2, 0, []),
        (
            "我们宿舍四个人加上俩已经上班的学长，下周一从西安去成都，能买学生票的都买学生票",
            6,
            4,
            [],
        ),
    ],
)
def test_parties_said_in_parts_from_the_h18_round(
    text: str, passengers: int, students: int, children: list[int]
) -> None:
    intent = parse_offline(text, TODAY, default_directory())
    assert (intent.passengers, intent.students) == (passengers, students)
    assert sorted(intent.children) == children


@pytest.mark.parametrize(
    ("text", "passengers", "students", "children"),
    [
        ("我们宿舍四个人下周六从岳阳去长沙玩 其中俩有学生证 能买学生票的就买学生票", 4, 2, []),
        ("周六我们三个从南京去苏州玩 两个已经上班了 一个还在读研有学生证 只坐G字头", 3, 1, []),
        (
            "元旦那天我和我对象（都上班了）带我弟从郑州去北京玩，我弟大二有学生证要买学生票",
            3,
            1,
            [],
        ),
        ("我们两个大人 一个上幼儿园大班的 一个刚满周岁 周六杭州去上海", 4, 0, [1, None]),
    ],
)
def test_parties_said_in_parts_from_the_h19_round(
    text: str, passengers: int, students: int, children: list[int | None]
) -> None:
    intent = parse_offline(text, TODAY, default_directory())
    assert (intent.passengers, intent.students) == (passengers, students)
    assert intent.children == children


def test_either_part_of_the_day_is_both(directory: StationDirectory) -> None:
    intent = parse("下周一从福州去平潭，下午或晚上出发都可以", directory)
    assert intent.depart_window is not None and intent.depart_window.span() == "12:00-23:59"


def test_a_train_to_the_station_nearest_then_a_bus_is_a_ticket_asked() -> None:
    text = "周日从杭州去周庄古镇 周庄没火车站吧 那就坐到离它近的站 剩下一段我坐公交"
    assert parse_offline(text, TODAY, default_directory()).kind != "out_of_scope"


def test_a_room_let_by_the_day_is_a_lodging_question() -> None:
    intent = parse_offline(
        "老乡 帮我找下东莞长安镇便宜点的日租房呗 一晚上五六十那种", TODAY, default_directory()
    )
    assert intent.kind == "out_of_scope" and "hotel" in intent.out_of_scope_topics


def test_a_day_in_a_hard_seat_refused_beside_a_sleeper_wished() -> None:
    intent = parse_offline(
        "周四从乌市回兰州 要卧铺 下铺最好 不想坐一天硬座了", TODAY, default_directory()
    )
    assert set(intent.seat_classes) == set(SLEEPER_SET)
    assert SeatClass.HARD_SEAT in intent.exclude_seat_classes
