"""Regenerate `stations.csv` and `official_stations.csv` from the official `station_name.js`.

Run from the repository root: `python -m scripts.build_stations [path/to/station_name.js]`.
`official_stations.csv` is every official station (3,364 in the 2026-02 list), the default
directory; `stations.csv` is the curated subset whose order ranks stations and cities.
Every value written comes from the official list; this script only chooses which stations
railtrip ships and in which order (a city's main station first). It refuses to write when a
chosen name is missing or its official city differs from the group it is listed under, so a
newer official list that renames or regroups a station is noticed here, not in production.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from scripts import SHARED_DATA, SOURCES_DATA
from sources.stations import OFFICIAL_COLUMNS, parse_official_records, parse_station_name_js

OFFICIAL_JS = SHARED_DATA / "station_name.js"
# Written into the checkout (the package reads them as package data, `sources.stations`).
OFFICIAL_CSV = SOURCES_DATA / "official_stations.csv"
CURATED_CSV = SOURCES_DATA / "stations.csv"

# Official city -> station names, main station first. Where the official city is not what a
# traveller would say (义乌 under 金华, 昆山南 under 苏州, 华山北 under 华阴) the directory
# still uses it; resolving the station's own name (义乌, 昆山, 华山) works regardless.
CURATED: dict[str, tuple[str, ...]] = {
    # provincial capitals and municipalities
    "北京": (
        "北京",
        "北京南",
        "北京西",
        "北京北",
        "北京朝阳",
        "北京丰台",
        "北京东",
        "北京大兴",
        "清河",
    ),
    "天津": ("天津", "天津南", "天津西", "天津北", "滨海"),
    "上海": ("上海", "上海虹桥", "上海南", "上海西", "上海松江"),
    "重庆": ("重庆", "重庆北", "重庆西", "重庆东", "沙坪坝"),
    "石家庄": ("石家庄", "石家庄北"),
    "太原": ("太原", "太原南"),
    "呼和浩特": ("呼和浩特", "呼和浩特东"),
    "沈阳": ("沈阳", "沈阳北", "沈阳南"),
    "长春": ("长春", "长春西"),
    "哈尔滨": ("哈尔滨", "哈尔滨西", "哈尔滨东", "哈尔滨北"),
    "南京": ("南京", "南京南"),
    "杭州": ("杭州", "杭州东", "杭州西", "杭州南"),
    "合肥": ("合肥", "合肥南"),
    "福州": ("福州", "福州南"),
    "南昌": ("南昌", "南昌西"),
    "济南": ("济南", "济南西", "济南东"),
    "郑州": ("郑州", "郑州东", "郑州航空港"),
    "武汉": ("武汉", "汉口", "武昌"),
    "长沙": ("长沙", "长沙南"),
    "广州": ("广州", "广州南", "广州东", "广州白云", "广州北"),
    "南宁": ("南宁", "南宁东"),
    "海口": ("海口", "海口东", "美兰"),
    "成都": ("成都", "成都东", "成都南", "成都西"),
    "贵阳": ("贵阳", "贵阳北", "贵阳东"),
    "昆明": ("昆明", "昆明南"),
    "拉萨": ("拉萨",),
    "西安": ("西安", "西安北"),
    "兰州": ("兰州", "兰州西"),
    "西宁": ("西宁",),
    "银川": ("银川",),
    "乌鲁木齐": ("乌鲁木齐", "乌鲁木齐南"),
    # Beijing-Shanghai, Beijing-Guangzhou-Shenzhen and the Yangtze delta
    "廊坊": ("廊坊",),
    "沧州": ("沧州", "沧州西"),
    "德州": ("德州", "德州东"),
    "泰安": ("泰安", "泰山"),
    "济宁": ("济宁", "曲阜东", "曲阜"),
    "徐州": ("徐州", "徐州东"),
    "蚌埠": ("蚌埠", "蚌埠南"),
    "滁州": ("滁州", "滁州北"),
    "镇江": ("镇江", "镇江南"),
    "常州": ("常州", "常州北"),
    "无锡": ("无锡", "无锡东"),
    "苏州": ("苏州", "苏州北", "苏州园区", "昆山", "昆山南"),
    "保定": ("保定", "保定东"),
    "邢台": ("邢台", "邢台东"),
    "邯郸": ("邯郸", "邯郸东"),
    "安阳": ("安阳", "安阳东"),
    "新乡": ("新乡", "新乡东"),
    "许昌": ("许昌", "许昌东"),
    "驻马店": ("驻马店", "驻马店西"),
    "信阳": ("信阳", "信阳东"),
    "岳阳": ("岳阳", "岳阳东"),
    "株洲": ("株洲", "株洲西"),
    "衡阳": ("衡阳", "衡阳东"),
    "郴州": ("郴州", "郴州西"),
    "韶关": ("韶关",),
    "深圳": ("深圳", "深圳北", "福田", "深圳东"),
    "东莞": ("东莞", "东莞东"),
    "佛山": ("佛山", "佛山西"),
    "珠海": ("珠海",),
    # the south-east coast
    "宁波": ("宁波",),
    "绍兴": ("绍兴", "绍兴北"),
    "嘉兴": ("嘉兴", "嘉兴南"),
    "温州": ("温州", "温州南"),
    "台州": ("台州",),
    "金华": ("金华", "义乌"),
    "衢州": ("衢州",),
    "泉州": ("泉州",),
    "莆田": ("莆田",),
    "厦门": ("厦门", "厦门北", "厦门高崎"),
    "漳州": ("漳州",),
    "潮州": ("潮汕",),
    "汕头": ("汕头",),
    "南平": ("南平市", "武夷山北", "武夷山"),
    "黄山": ("黄山北", "黄山"),
    # Shanghai-Kunming, Hubei, Sichuan
    "上饶": ("上饶",),
    "萍乡": ("萍乡", "萍乡北"),
    "九江": ("九江", "庐山"),
    "赣州": ("赣州", "赣州西"),
    "怀化": ("怀化", "怀化南"),
    "张家界": ("张家界", "张家界西"),
    "宜昌": ("宜昌", "宜昌东"),
    "恩施": ("恩施",),
    "襄阳": ("襄阳", "襄阳东"),
    "十堰": ("十堰", "十堰东", "武当山"),
    "内江": ("内江", "内江北"),
    "绵阳": ("绵阳",),
    "广元": ("广元",),
    "宜宾": ("宜宾", "宜宾西"),
    "遵义": ("遵义",),
    "大理": ("大理",),
    "丽江": ("丽江",),
    # the north-west corridor
    "商丘": ("商丘",),
    "开封": ("开封", "开封北"),
    "洛阳": ("洛阳", "洛阳龙门"),
    "三门峡": ("三门峡", "三门峡南"),
    "华阴": ("华山北", "华山"),
    "宝鸡": ("宝鸡", "宝鸡南"),
    "汉中": ("汉中",),
    "天水": ("天水", "天水南"),
    "张掖": ("张掖", "张掖西"),
    "嘉峪关": ("嘉峪关", "嘉峪关南"),
    "酒泉": ("酒泉", "敦煌"),
    "哈密": ("哈密",),
    "吐鲁番": ("吐鲁番", "吐鲁番北"),
    "吴忠": ("吴忠",),
    "格尔木": ("格尔木",),
    # Shandong, Shanxi, Inner Mongolia, the north-east
    "淄博": ("淄博",),
    "潍坊": ("潍坊", "潍坊北"),
    "青岛": ("青岛", "青岛北", "青岛西"),
    "烟台": ("烟台", "烟台南"),
    "威海": ("威海",),
    "阳泉": ("阳泉", "阳泉北"),
    "大同": ("大同", "大同南"),
    "张家口": ("张家口", "太子城"),
    "包头": ("包头", "包头东"),
    "承德": ("承德", "承德南"),
    "秦皇岛": ("秦皇岛", "北戴河", "山海关"),
    "唐山": ("唐山",),
    "大连": ("大连", "大连北"),
    "丹东": ("丹东",),
    "锦州": ("锦州", "锦州南"),
    "吉林": ("吉林",),
    "齐齐哈尔": ("齐齐哈尔", "齐齐哈尔南"),
    "牡丹江": ("牡丹江",),
    # Guangxi, Hainan, Hong Kong
    "柳州": ("柳州",),
    "桂林": ("桂林", "桂林北", "桂林西"),
    "北海": ("北海",),
    "三亚": ("三亚",),
    "香港": ("香港西九龙",),
}


def build_rows(js_text: str) -> list[dict[str, str]]:
    """The curated rows, every value copied from the official list; raises on any mismatch."""
    official = {s.name: s for s in parse_station_name_js(js_text)}
    rows: list[dict[str, str]] = []
    problems: list[str] = []
    for city, names in CURATED.items():
        for name in names:
            station = official.get(name)
            if station is None:
                problems.append(f"{name}: not in the official list")
            elif station.city != city:
                problems.append(f"{name}: official city is {station.city}, listed under {city}")
            else:
                rows.append(station.model_dump())
    if problems:
        raise SystemExit("refusing to write stations.csv:\n  " + "\n  ".join(problems))
    return rows


def official_rows(js_text: str) -> list[dict[str, str]]:
    """Every official station, in the official order, with its English name if any."""
    return [
        {**record.station.model_dump(), "english": record.english}
        for record in parse_official_records(js_text)
    ]


def main(argv: list[str]) -> None:
    source = Path(argv[0]) if argv else OFFICIAL_JS
    text = source.read_text(encoding="utf-8")
    official = official_rows(text)
    with OFFICIAL_CSV.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(OFFICIAL_COLUMNS))
        writer.writeheader()
        writer.writerows(official)
    print(f"wrote {len(official)} official stations to {OFFICIAL_CSV}")
    rows = build_rows(text)
    with CURATED_CSV.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=["telecode", "name", "city", "pinyin", "initials"])
        writer.writeheader()
        writer.writerows(rows)
    cities = {row["city"] for row in rows}
    print(f"wrote {len(rows)} stations in {len(cities)} cities to {CURATED_CSV}")


if __name__ == "__main__":
    main(sys.argv[1:])
