"""Word tables the offline parser reads: train types, seats, preferences, scope and party.

Each table maps the phrases travellers use to one canonical value; longer phrases are tried
first so 高级软卧 is not read as 软卧 and 不要绿皮 is not read as 绿皮.
"""

from __future__ import annotations

from app.intent.model import SLEEPER_SET
from sources.models import TRAIN_TYPES, SeatClass, TrainType

# -- seat classes and train types: one table each, read for wishes and for refusals ----------
# Longer phrases come before the shorter ones inside them (高级软卧 before 软卧, 一等座 before
# 一等, soft sleeper before sleeper); readers take them in this order and mask what they read.

SEAT_PHRASES: list[tuple[str, tuple[SeatClass, ...]]] = [
    ("高级软卧", (SeatClass.PREMIUM_SLEEPER,)),
    ("商务座", (SeatClass.BUSINESS,)),
    ("商务舱", (SeatClass.BUSINESS,)),
    ("特等座", (SeatClass.PREMIUM,)),
    ("一等座", (SeatClass.FIRST,)),
    ("二等座", (SeatClass.SECOND,)),
    ("一等", (SeatClass.FIRST,)),
    ("二等", (SeatClass.SECOND,)),
    ("动卧", (SeatClass.EMU_SLEEPER,)),
    ("软卧", (SeatClass.SOFT_SLEEPER,)),
    ("硬卧", (SeatClass.HARD_SLEEPER,)),
    ("卧铺", SLEEPER_SET),
    ("软座", (SeatClass.SOFT_SEAT,)),
    ("硬座", (SeatClass.HARD_SEAT,)),
    ("无座", (SeatClass.NO_SEAT,)),
    ("无坐", (SeatClass.NO_SEAT,)),  # typed by sound, as often as not
    ("站票", (SeatClass.NO_SEAT,)),
    ("站着", (SeatClass.NO_SEAT,)),
    ("business class", (SeatClass.BUSINESS,)),
    ("first class", (SeatClass.FIRST,)),
    ("1st class", (SeatClass.FIRST,)),
    ("second class", (SeatClass.SECOND,)),
    ("2nd class", (SeatClass.SECOND,)),
    ("soft sleeper", (SeatClass.SOFT_SLEEPER,)),
    ("hard sleeper", (SeatClass.HARD_SLEEPER,)),
    ("hard seat", (SeatClass.HARD_SEAT,)),
    ("sleeper", SLEEPER_SET),
    ("standing", (SeatClass.NO_SEAT,)),
]
"""Phrase → the seat classes it names: one class (二等座), or a category (卧铺: every sleeper)."""

SLEEPER_CATEGORY_PHRASES = tuple(p for p, classes in SEAT_PHRASES if classes == SLEEPER_SET)
"""卧铺, sleeper: any berth will do."""
SLEEPER_CLASS_PHRASES = tuple(
    p for p, classes in SEAT_PHRASES if len(classes) == 1 and classes[0].is_sleeper
)
"""软卧, 硬卧 …: one berth class named, which the category then does not widen."""

TRAIN_TYPE_PHRASES: list[tuple[str, tuple[TrainType, ...]]] = [
    *((f"{t.lower()}字头", (t,)) for t in TRAIN_TYPES),
    # G开头的, D打头的: the letter a train number starts with, said as such.
    *((f"{t.lower()}{head}", (t,)) for t in TRAIN_TYPES for head in ("开头", "打头")),
    # G次, 坐D车: the letter said as the kind of train (G1次 names a train, not the letter).
    *((f"{t.lower()}{word}", (t,)) for t in ("G", "D", "C") for word in ("次", "车")),
    # Asking whether a place is on the EMU network at all: any EMU will do.
    ("有没有动车", ("G", "D", "C")),
    ("有动车吗", ("G", "D", "C")),
    ("有动车没", ("G", "D", "C")),
    ("通动车", ("G", "D", "C")),
    ("动车组", ("G", "D", "C")),
    ("老式火车", ("Z", "T", "K")),
    ("普速列车", ("Z", "T", "K")),
    ("高铁动车", ("G", "D")),
    ("动车高铁", ("G", "D")),
    ("绿皮车", ("Z", "T", "K")),
    ("绿皮", ("Z", "T", "K")),
    ("普速", ("Z", "T", "K")),
    ("慢车", ("Z", "T", "K")),
    ("高铁", ("G",)),
    ("动车", ("D",)),
    ("城际", ("C",)),
    ("普快", ("K",)),
    ("特快", ("T",)),
    ("直特", ("Z",)),
    ("快速", ("K",)),
    ("high-speed", ("G",)),
    ("high speed", ("G",)),
    ("bullet train", ("G",)),
    ("slow train", ("Z", "T", "K")),
]
"""Phrase → the train types it names (高铁 G; 绿皮 the conventional Z, T and K)."""

CONVENTIONAL_WISH = (
    "普通火车",
    "普通列车",
    "普通的火车",
    "普通车",
    "普通的车",
    "普通的卧铺车",
    "普通卧铺车",
)
"""Conventional trains wished for as a class of their own: the EMUs (G, D, C) refused, so the
ordinary trains without a letter count too (坐普通火车 is not only Z, T and K)."""

TYPE_PERMITTED_AFTER = ("就行", "也行", "也可以", "就可以", "也没事", "也无所谓")
TYPE_INSTEAD_AFTER = ("就行", "就可以")
"""Of those, the ones that name what will do instead when something was just refused (不要卧铺
了，高铁就行: the high-speed train is wished for)."""
SEAT_PERMITTED_AFTER = ("也行", "也可以", "也中", "也成", "也没事", "也无所谓", "也没关系")
"""After a class, words that permit it rather than ask for it: 站票也中 limits nothing (二等座
就行 still names the class wanted)."""
"""After a train type, words that permit it rather than ask for it: 坐慢车就行 limits nothing
(高铁动车都行 still names the two wished for)."""

ONLY_REFUSED = frozenset({"快速"})
"""Type phrases that name a type only when refused: wished for, 快速 means "quickly"."""

WISH_BY_REFUSAL: list[tuple[str, tuple[TrainType, ...]]] = [
    (phrase, tuple(t for t in TRAIN_TYPES if t not in ("Z", "T", "K")))
    for phrase in ("不要绿皮", "不坐绿皮", "别坐绿皮", "不要普速", "不坐普速", "no slow train")
]
"""Refusals of the conventional trains that also say what is wished for: the others (G, D, C)."""

PREFERENCE_PHRASES: dict[str, tuple[str, ...]] = {
    "舒适": ("舒适", "舒服", "不想太累", "宽敞", "comfortable", "comfort"),
    "便宜": ("便宜", "省钱", "实惠", "经济", "穷游", "性价比", "cheap"),
    "快": (
        "最快",
        "快一点",
        "快一些",
        "快点",
        "尽快",
        "赶时间",
        "要快",
        "越快越好",
        "时间最短",
        "fastest",
        "quick",
    ),
    "直达": (
        "直达",
        "不换乘",
        "不想换乘",
        "不要换乘",
        "不中转",
        "不要中转",
        "不转车",
        "direct",
        "non-stop",
        "nonstop",
    ),
    "卧铺": ("卧铺", "sleeper"),
    # G394 二等座有木有 木有就算了: that train or none, no other planned in its place.
    "只此车次": (
        "没有就算了",
        "木有就算了",
        "冇就算了",
        "没票就算了",
        "没有的话就算了",
        "没有就不去了",
        "没票就不去了",
        "没有就不走了",
        "没有就拉倒",
    ),
}

# Topics outside the service. Each group of words is said once here and read by the sentence
# parser (`constraints.SCOPE_WORDS`), the chat (`followup`) and the refusal text alike.
# Hostels and inns are lodging too: booking one is a hotel question (订西安的青旅).
HOSTEL_WORDS = ("青旅", "青年旅舍", "青年旅馆", "客栈", "旅社", "招待所", "hostel")
LODGING_WORDS = (
    "酒店",
    "宾馆",
    "住宿",
    "民宿",
    "旅馆",
    "hotel",
    "订房",
    "开房",
    "大床房",
    "双床房",
    "标间",
    "海景房",
    "订个房",
    "订间房",
    # A room let by the day (日租房, 短租): lodging as much as a hotel.
    "日租房",
    "短租房",
    "短租",
    "租个房",
    "租房子",
    *HOSTEL_WORDS,
)
WEATHER_WORDS = (
    "天气",
    "气温",
    "温度",
    "多少度",
    "下雨",
    "下雪",
    # Cantonese and southern speech: 会唔会落雪.
    "落雨",
    "落雪",
    "冷吗",
    "冷不冷",
    "热吗",
    "热不热",
    "穿什么",
    "穿啥",
    "多冷",
    "多热",
    "穿几件",
    "穿多少",
    "穿多厚",
    "穿棉袄",
    # The cold said in degrees or in layers (零下二十多度, 穿几条秋裤).
    "零下",
    "几度",
    "穿几条",
    "秋裤",
    "weather",
)
FLIGHT_WORDS = (
    "机票",
    "航班",
    "飞机",
    "flight",
    "航空",
    "值机",
    "值个机",
    "登机",
    "东航",
    "南航",
    "国航",
)
# A ride within a city, to or from the station: beside a train trip, never one itself.
LOCAL_RIDE_WORDS = (
    "打车",
    "打个车",
    "叫车",
    "叫个车",
    "叫辆车",
    "约个车",
    "约车",
    "约辆车",
    "网约车",
    "顺风车",
    "专车",
    "滴滴",
    "出租车",
    "的士",
    "接站",
    "送站",
    "接机",
    "送机",
    "地铁",
    "公交",
    "几号线",
    "几路车",
)
# Services around a train trip that sell no ticket: tours, papers, insurance, a car, what may
# be carried, the station's rooms, lost property, complaints and talk for its own sake.
TRIP_SERVICE_WORDS = (
    "跟团",
    "旅行团",
    "报团",
    "报个团",
    "导游",
    "签证",
    "护照",
    "通行证",
    "边防证",
    "保险",
    "意外险",
    "租车",
    "租个车",
    "租辆车",
    "租一辆车",
    "租台车",
    "自驾",
    "宠物",
    "带猫",
    "带狗",
    "带只猫",
    "带只狗",
    "猫咪",
    "狗狗",
    "充电宝",
    "行李",
    "托运",
    "候车室",
    "寄存",
    "充电",
    "卫生间",
    "厕所",
    "失物",
    "丢了",
    "丢在",
    "落在",
    "找回",
    "投诉",
    "赔偿",
    "赔钱",
    "聊天",
    "聊聊",
    "写一首",
    "写作业",
    # A VAT invoice (专票) asked of a hotel or a service: its 票 is no ticket.
    "增值税专票",
    "专票",
    "普票",
    "寒假作业",
    "暑假作业",
    "写首",
    "景区",
    "几点开门",
    "开放时间",
    "好玩的地方",
    "有什么好玩",
    "有哪些好玩",
    "哪里好玩",
    # Life beside the trip: work to find, exam results to look up.
    "招工",
    "招普工",
    "招人",
    "招聘",
    "找工作",
    "找活干",
    "包吃住",
    "查成绩",
    "成绩啥时候",
    "成绩什么时候",
    "四六级",
    "查分",
)
# Money matters beside the railway (铁路股能不能抄底, 中国中车你怎么看): no ticket in them.
MONEY_WORDS = (
    "股票",
    "炒股",
    "抄底",
    "股价",
    "股市",
    "收盘",
    "开盘",
    "涨停",
    "跌停",
    "基金",
    "理财",
    "stock",
    # Papers for a trip abroad (落地签要准备些啥): no ticket in them either.
    "签证",
    "落地签",
    "visa",
)
OUT_OF_SCOPE_TOPICS: dict[str, tuple[str, ...]] = {
    "refund": ("退票", "改签", "退款", "refund"),
    "writing": ("游记", "写一篇", "写篇", "作文", "文案", "写攻略", "write"),
    "weather": WEATHER_WORDS,
    "flight": FLIGHT_WORDS,
    "food": ("餐厅", "美食", "饭店", "好吃", "restaurant"),
    "other": ("笑话", "讲个故事", "joke", *MONEY_WORDS),
    "hotel": LODGING_WORDS,
}
EXCLUSIVE_TOPICS = ("refund", "writing", "weather", "flight", "food", "other")
TRAIN_WORDS = ("火车", "高铁", "动车", "车票", "火车票", "train", "车次")
# Words that ask for tickets next to an out-of-scope topic ("退了G1，再买一张明天去上海的"):
# the ticket part is kept. Read with the topic's own words masked out (退票 is no 票).
TICKET_WORDS = ("票", "车次", "高铁", "动车", "火车", "train", "ticket", "座", "卧")
# Words that look something up: said of an out-of-scope topic (帮我查下北京明天天气) they look
# up that topic, not tickets.
LOOKUP_CUES = (
    "查一下",
    "查查",
    "帮我查",
    "再查",
    "看看",
    "看一下",
    "有没有",
    "还有没有",
)
ACQUIRE_CUES = (
    *LOOKUP_CUES,
    "买",
    "再订",
    "另订",
    "重新订",
    "订票",
    "订一张",
    "订两张",
    "规划",
    "安排",
    "玩",
    "旅游",
    "出发",
)

PLAN_CUES = (
    "玩",
    "旅游",
    "旅行",
    "游",
    "度假",
    "逛",
    "行程",
    "规划",
    "计划",
    "安排",
    "出游",
    "trip",
    "travel",
    "visit",
    "vacation",
    "holiday",
    "tour",
)

UPDATE_CUES = ("换成", "改成", "改为", "换到", "改到", "换为", "change to", "instead")
APPEND_CUES = (
    "再加",
    "加一站",
    "加上",
    "顺便去",
    "顺路去",
    "顺便到",
    "顺道",
    "also add",
    "add a stop",
)

# Companions counted on top of the speaker: phrase → people.
COMPANIONS: list[tuple[str, int]] = [
    ("孩子他爸", 1),
    ("孩子她爸", 1),
    ("孩子他妈", 1),
    ("孩子她妈", 1),
    ("孩子爸", 1),
    ("孩子妈", 1),
    ("他爸", 1),
    ("她爸", 1),
    ("他妈", 1),
    ("她妈", 1),
    ("老伴儿", 1),
    ("老伴", 1),
    # 老头子腰不好, 我搭阿拉老太婆: an elderly spouse.
    ("老头子", 1),
    ("老太婆", 1),
    ("老婆子", 1),
    # A spouse called by age (我和老头子带孙子): one grown-up.
    ("老头子", 1),
    ("老头儿", 1),
    ("老太婆", 1),
    ("老婆子", 1),
    ("爸爸妈妈", 2),
    ("父母", 2),
    ("爸妈", 2),
    ("二老", 2),
    ("老婆", 1),
    ("媳妇儿", 1),
    ("媳妇", 1),
    ("老爷子", 1),
    ("老太太", 1),
    ("老母亲", 1),
    ("老父亲", 1),
    ("婆婆", 1),
    ("公公", 1),
    ("岳父", 1),
    ("岳母", 1),
    ("丈母娘", 1),
    ("老丈人", 1),
    ("姥姥", 1),
    ("姥爷", 1),
    ("哥哥", 1),
    ("姐姐", 1),
    ("弟弟", 1),
    ("妹妹", 1),
    ("嫂子", 1),
    ("老公", 1),
    # Typed in English amid Chinese (我和我wife, 跟husband一起): a spouse all the same.
    ("wife", 1),
    ("husband", 1),
    ("妻子", 1),
    ("丈夫", 1),
    ("爱人", 1),
    ("女朋友", 1),
    ("男朋友", 1),
    ("女友", 1),
    ("男友", 1),
    ("对象", 1),
    ("朋友", 1),
    ("同事", 1),
    # Said by an assistant booking for a boss (老总带一个秘书, 他带夫人和孩子).
    ("秘书", 1),
    ("助理", 1),
    ("夫人", 1),
    ("同学", 1),
    ("闺蜜", 1),
    ("妈妈", 1),
    ("我妈", 1),
    ("我爸", 1),
    ("爸爸", 1),
    ("母亲", 1),
    ("父亲", 1),
    ("老妈", 1),
    # Northern and central words for mum and dad (带俺娘去郑州看病, 俺爹也去).
    ("俺娘", 1),
    ("俺爹", 1),
    ("俺妈", 1),
    ("俺爸", 1),
    ("我娘", 1),
    ("我爹", 1),
    ("咱妈", 1),
    ("咱爸", 1),
    ("老爸", 1),
    ("阿妈", 1),  # Cantonese, as 同阿妈: with mum
    ("阿爸", 1),
    ("老人家", 1),
    ("老年人", 1),
    ("老人", 1),
    ("长辈", 1),
    ("奶奶", 1),
    ("爷爷", 1),
    ("外婆", 1),
    ("外公", 1),
    # Kin and friends said the short way (我跟我哥, 和舅舅一起): one grown-up each. A client or
    # a boss is left out: 和客户开会, 跟老板请假 name the errand, not a companion.
    ("女婿", 1),
    ("儿媳妇", 1),
    ("儿媳", 1),
    ("舅舅", 1),
    ("舅妈", 1),
    ("姑姑", 1),
    ("姑父", 1),
    ("姨妈", 1),
    ("小姨", 1),
    ("阿姨", 1),
    ("叔叔", 1),
    ("婶婶", 1),
    ("伯伯", 1),
    ("大伯", 1),
    ("表哥", 1),
    ("表姐", 1),
    ("表弟", 1),
    ("表妹", 1),
    ("堂哥", 1),
    ("堂姐", 1),
    ("堂弟", 1),
    ("堂妹", 1),
    ("侄子", 1),
    ("侄女", 1),
    ("外甥女", 1),
    ("外甥", 1),
    ("我哥", 1),
    ("我姐", 1),
    ("我弟", 1),
    ("我妹", 1),
    # 我跟我老妹两个, 老弟: a younger sibling said the northern and central way.
    ("老妹", 1),
    ("老弟", 1),
    # Older and younger schoolmates (加上俩已经上班的学长).
    ("学长", 1),
    ("学姐", 1),
    ("学弟", 1),
    ("学妹", 1),
    ("室友", 1),
    ("舍友", 1),
    ("老乡", 1),
    ("兄弟", 1),
    ("哥们", 1),
    ("发小", 1),
    ("驴友", 1),
    ("亲家", 1),
    ("孩子", 1),
    ("小孩", 1),
    ("儿子", 1),
    ("女儿", 1),
    ("闺女", 1),
    ("宝宝", 1),
    # A grandchild brought along by grandparents is a child of unknown age (party.CHILD_WORDS).
    ("外孙女", 1),
    ("外孙", 1),
    ("孙女", 1),
    ("孙子", 1),
]
# People of the traveller's work, companions only when said riding along (我跟老板一起, 陪客户
# 去杭州): 和客户开会, 跟老板请假 name the errand (`ERRAND_COMPANION` in the offline parser).
WORK_COMPANIONS = (
    *("老板", "领导", "经理", "客户", "主管", "总监", "上司", "老总", "导师", "老师"),
    *("实习生", "新同事", "徒弟"),
)

COMPANION_CUES = ("和", "跟", "带", "与", "陪", "同", "还有", "及", "with", "我、")
"""Words that lead a companion; 我、 is the speaker listed first (我、我妈、我儿子)."""
