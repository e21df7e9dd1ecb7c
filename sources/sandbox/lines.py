"""The corridors the sandbox runs trains on: real lines as ordered stations with km from the start.

Distances are close to the real ones (rounded); `*` marks the major stations where trains
short-turn and almost always stop. Every line is run in both directions. Lines are referenced
by station name and resolved against the station directory when the timetable is built.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial


@dataclass(frozen=True)
class LineStop:
    name: str
    km: int
    major: bool


@dataclass(frozen=True)
class Service:
    """How many trains of one kind run each way per day; `sleeper` marks overnight EMUs."""

    kind: str
    per_direction: int
    sleeper: bool = False


@dataclass(frozen=True)
class Line:
    name: str
    speed_kmh: int
    stops: tuple[LineStop, ...]
    services: tuple[Service, ...]

    @property
    def conventional(self) -> bool:
        """True for the old network (Z/T/K trains at conventional stations)."""
        return self.speed_kmh < 200

    @property
    def length_km(self) -> int:
        return self.stops[-1].km - self.stops[0].km


def _stops(spec: str) -> tuple[LineStop, ...]:
    """Parse "北京南 0*, 廊坊 59, …" into stops."""
    stops = []
    for item in spec.split(","):
        name, km = item.split()
        stops.append(LineStop(name=name, km=int(km.rstrip("*")), major=km.endswith("*")))
    return tuple(stops)


def _line(name: str, speed: int, spec: str, *services: Service) -> Line:
    return Line(name=name, speed_kmh=speed, stops=_stops(spec), services=services)


# Shorthands for the tables below: G(28) is 28 G trains each way per day.
G, D, C, Z, T, K = (partial(Service, kind) for kind in "GDCZTK")

LINES: tuple[Line, ...] = (
    # -- high-speed corridors ----------------------------------------------------------------
    _line(
        "京沪高铁",
        350,
        "北京南 0*, 廊坊 59, 天津南 131*, 沧州西 219, 德州东 314, 济南西 406*, 泰安 465,"
        "曲阜东 535, 徐州东 692*, 蚌埠南 844, 滁州 960, 南京南 1023*, 镇江南 1088, 常州北 1153,"
        "无锡东 1210, 苏州北 1237, 昆山南 1268, 上海虹桥 1318*",
        G(28),
        Service("D", 1, sleeper=True),
    ),
    _line(
        "京广高铁",
        350,
        "北京西 0*, 保定东 139, 石家庄 281*, 邢台东 390, 邯郸东 446, 安阳东 513, 新乡东 622,"
        "郑州东 693*, 许昌东 780, 驻马店西 905, 信阳东 1005, 武汉 1229*, 岳阳东 1444,"
        "长沙南 1591*, 株洲西 1640, 衡阳东 1767, 郴州西 1917, 韶关 2077, 广州南 2298*,"
        "深圳北 2400*",
        G(24),
        Service("D", 1, sleeper=True),
    ),
    _line(
        "京西高铁",
        350,
        "北京西 0*, 保定东 139, 石家庄 281*, 邯郸东 446, 郑州东 693*, 洛阳龙门 833,"
        "三门峡南 973, 华山北 1123, 西安北 1233*",
        G(8),
    ),
    _line(
        "沪昆高铁",
        350,
        "上海虹桥 0*, 杭州东 159*, 义乌 282, 金华 326, 衢州 401, 上饶 517, 南昌西 711*,"
        "萍乡北 950, 长沙南 1078*, 怀化南 1456, 贵阳北 1741*, 昆明南 2252*",
        G(16),
    ),
    _line(
        "沪汉蓉",
        250,
        "上海虹桥 0*, 南京南 295*, 合肥南 460*, 汉口 828*, 宜昌东 1120, 恩施 1370,"
        "重庆北 1640*, 成都东 1960*",
        G(6),
        D(10),
    ),
    _line(
        "徐兰高铁",
        350,
        "徐州东 0*, 商丘 146, 开封北 290, 郑州东 360*, 洛阳龙门 500, 三门峡南 640,"
        "华山北 790, 西安北 900*, 宝鸡南 1067, 天水南 1220, 兰州西 1413*",
        G(14),
    ),
    _line(
        "兰新高铁",
        250,
        "兰州西 0*, 西宁 190*, 张掖西 500, 嘉峪关南 720, 哈密 1280, 吐鲁番北 1680,乌鲁木齐 1786*",
        G(2),
        D(6),
    ),
    _line(
        "京哈高铁",
        350,
        "北京朝阳 0*, 承德南 190, 沈阳北 700*, 长春西 990*, 哈尔滨西 1230*",
        G(14),
    ),
    _line("哈大高铁", 350, "哈尔滨西 0*, 长春西 240*, 沈阳北 540*, 大连北 920*", G(10)),
    _line(
        "杭深铁路",
        250,
        "杭州东 0*, 宁波 155*, 温州南 390*, 福州 750*, 厦门北 1000*, 潮汕 1290, 深圳北 1450*",
        G(6),
        D(10),
    ),
    _line("成渝高铁", 350, "成都东 0*, 内江北 150, 重庆西 308*", G(10), D(8)),
    _line("西成高铁", 250, "西安北 0*, 汉中 250, 广元 420, 成都东 658*", G(8), D(4)),
    _line("石太客专", 250, "石家庄 0*, 阳泉北 110, 太原南 190*", G(4), D(8)),
    _line("胶济客专", 250, "济南 0*, 淄博 110, 潍坊 210, 青岛北 390*", G(4), D(10)),
    _line("京张高铁", 350, "北京北 0*, 张家口 174*, 呼和浩特东 430*", G(6), D(4)),
    _line("南广桂", 250, "南宁东 0*, 柳州 250*, 桂林北 420*", D(10)),
    _line("京津城际", 350, "北京南 0*, 天津 120*", C(20)),
    _line("银吴城际", 250, "银川 0*, 吴忠 60*", C(8)),
    _line("海南东环", 250, "海口东 0*, 三亚 290*", C(12)),
    # -- conventional lines: overnight Z/T/K trains with sleepers -------------------------------
    _line(
        "京沪普速",
        120,
        "北京 0*, 天津 137*, 济南 494*, 南京 1157*, 上海 1463*",
        Z(2),
        T(2),
        K(2),
    ),
    _line(
        "京广普速",
        120,
        "北京西 0*, 石家庄 277*, 郑州 689*, 武汉 1225*, 长沙 1587*, 广州 2294*",
        Z(2),
        T(2),
        K(2),
    ),
    _line(
        "京哈普速",
        120,
        "北京 0*, 天津 137*, 沈阳 741*, 长春 1046*, 哈尔滨 1288*",
        Z(1),
        T(2),
        K(2),
    ),
    _line(
        "京兰普速",
        120,
        "北京西 0*, 石家庄 277*, 郑州 689*, 西安 1200*, 兰州 1876*",
        Z(1),
        T(1),
        K(2),
    ),
    _line("青藏铁路", 120, "兰州 0*, 西宁 216*, 格尔木 1030*, 拉萨 2150*", Z(1), K(1)),
    _line(
        "沪昆普速",
        120,
        "上海 0*, 杭州 189*, 南昌 825*, 长沙 1245*, 贵阳 1890*, 昆明 2530*",
        Z(1),
        T(1),
        K(2),
    ),
    _line(
        "京福普速",
        120,
        "北京 0*, 天津 137*, 济南 494*, 合肥 1100*, 南昌 1550*, 福州 2170*",
        Z(1),
        K(2),
    ),
    _line(
        "京南普速",
        120,
        "北京西 0*, 石家庄 277*, 郑州 689*, 武汉 1225*, 长沙 1587*, 柳州 2297*, 南宁 2552*",
        Z(1),
        K(1),
    ),
    _line("西成渝普速", 120, "西安 0*, 成都 842*, 重庆 1150*", T(1), K(2)),
    _line("京太普速", 120, "北京西 0*, 石家庄 277*, 太原 508*", T(1), K(2)),
    _line("京包普速", 120, "北京 0*, 张家口 196*, 呼和浩特 668*", Z(1), K(2)),
)


def station_names(lines: tuple[Line, ...] = LINES) -> set[str]:
    """Every station name the lines reference."""
    return {stop.name for line in lines for stop in line.stops}
