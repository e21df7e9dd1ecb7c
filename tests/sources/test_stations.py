"""The station directory: curated data, resolution, search, suggestions, parsing and loading."""

from __future__ import annotations

import csv
from pathlib import Path

import httpx
import pytest

from scripts import SHARED_DATA
from scripts.build_stations import official_rows
from sources.stations import (
    CURATED_CSV,
    OFFICIAL_CSV,
    PROVINCIAL_CAPITALS,
    AmbiguousStationError,
    StationDirectory,
    StationListError,
    UnknownStationError,
    ascii_key,
    curated_directory,
    default_directory,
    edit_distance,
    load_directory,
    normalise_input,
    parse_official_records,
    parse_station_name_js,
    refresh_directory,
)

# A verbatim subset of the official list (tests/fixtures/trim_station_list.py writes it), so
# no test depends on, or skips without, the full list kept beside the checkout.
OFFICIAL_JS = Path(__file__).parents[1] / "fixtures" / "station_name_trimmed.js"
SAMPLE_JS = Path(__file__).parents[1] / "fixtures" / "station_name_sample.js"
# The full list, beside the checkout: only the check that the committed official CSV is
# derived from it reads it (nothing else can stand in for it there).
FULL_OFFICIAL_JS = SHARED_DATA / "station_name.js"
needs_official = pytest.mark.skipif(
    not FULL_OFFICIAL_JS.exists(), reason=f"official station list not present at {FULL_OFFICIAL_JS}"
)

# Station names the sandbox timetable runs trains between: each must exist exactly so.
TIMETABLE_NAMES = """
北京南 廊坊 天津南 沧州西 德州东 济南西 泰安 曲阜东 徐州东 蚌埠南 滁州 南京南 镇江南 常州北 无锡东
苏州北 昆山南 上海虹桥 北京西 保定东 石家庄 邢台东 邯郸东 安阳东 新乡东 郑州东 许昌东 驻马店西
信阳东 武汉 岳阳东 长沙南 株洲西 衡阳东 郴州西 韶关 广州南 深圳北 杭州东 义乌 金华 衢州 上饶
南昌西 萍乡北 怀化南 贵阳北 昆明南 合肥南 汉口 宜昌东 恩施 重庆北 成都东 商丘 开封北 洛阳龙门
三门峡南 华山北 西安北 宝鸡南 天水南 兰州西 西宁 张掖西 嘉峪关南 哈密 吐鲁番北 乌鲁木齐 北京朝阳
承德南 沈阳北 长春西 哈尔滨西 宁波 温州南 福州 厦门北 潮汕 内江北 重庆西 汉中 广元 太原南 阳泉北
济南 淄博 潍坊 青岛北 北京北 张家口 呼和浩特东 银川 吴忠 南宁东 柳州 桂林北 海口东 三亚 大连北
拉萨 格尔木 合肥 天津 北京 上海 南京 杭州 西安 成都 重庆 广州 郑州 长沙 沈阳 哈尔滨 长春 兰州
昆明 贵阳 南昌 济南 太原 石家庄 呼和浩特 南宁
""".split()


@pytest.fixture(scope="module")
def directory() -> StationDirectory:
    return curated_directory()


@pytest.fixture(scope="module")
def sample() -> StationDirectory:
    return StationDirectory.from_station_name_js(SAMPLE_JS.read_text(encoding="utf-8"))


def names(stations: object) -> list[str]:
    return [s.name for s in stations]  # type: ignore[attr-defined]


# -- the curated table ------------------------------------------------------------------


def test_every_curated_row_is_copied_verbatim_from_the_official_list() -> None:
    official = {s.name: s for s in parse_station_name_js(OFFICIAL_JS.read_text(encoding="utf-8"))}
    with CURATED_CSV.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    mismatches = [
        (row["name"], field, row[field], getattr(official[row["name"]], field, None))
        for row in rows
        if row["name"] in official
        for field in ("telecode", "name", "city", "pinyin", "initials")
        if row[field] != getattr(official[row["name"]], field)
    ]
    missing = [row["name"] for row in rows if row["name"] not in official]
    assert missing == []
    assert mismatches == []


def test_curated_table_is_exactly_what_the_generator_writes() -> None:
    from scripts.build_stations import build_rows

    with CURATED_CSV.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert rows == build_rows(OFFICIAL_JS.read_text(encoding="utf-8"))


def test_curated_directory_holds_at_least_150_stations_in_45_cities(
    directory: StationDirectory,
) -> None:
    assert len(directory) >= 150
    assert len(directory.cities()) >= 45


def test_curated_telecodes_and_names_are_unique() -> None:
    with CURATED_CSV.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len({row["telecode"] for row in rows}) == len(rows)
    assert len({row["name"] for row in rows}) == len(rows)


@pytest.mark.parametrize("capital", PROVINCIAL_CAPITALS)
def test_every_provincial_capital_is_a_city_queried_by_its_namesake_station(
    directory: StationDirectory, capital: str
) -> None:
    namesake = directory.by_name(capital)
    assert namesake is not None and namesake.city == capital
    assert directory.city_code(capital) == namesake.telecode
    assert directory.in_city(capital)[0] == namesake


def test_every_station_the_sandbox_timetable_uses_exists_under_its_official_name(
    directory: StationDirectory,
) -> None:
    assert [name for name in TIMETABLE_NAMES if directory.by_name(name) is None] == []


def test_big_cities_list_their_several_stations(directory: StationDirectory) -> None:
    expected = {
        "北京": {"北京", "北京南", "北京西", "北京北", "北京朝阳", "北京丰台"},
        "上海": {"上海", "上海虹桥", "上海南", "上海松江"},
        "广州": {"广州", "广州南", "广州东", "广州白云"},
        "深圳": {"深圳", "深圳北", "福田"},
        "武汉": {"武汉", "汉口", "武昌"},
        "成都": {"成都", "成都东", "成都南", "成都西"},
        "重庆": {"重庆", "重庆北", "重庆西"},
        "天津": {"天津", "天津南", "天津西"},
    }
    for city, stations in expected.items():
        assert stations <= set(names(directory.in_city(city))), city


def test_every_city_is_queried_by_one_of_its_own_stations_namesake_first(
    directory: StationDirectory,
) -> None:
    for city in directory.cities():
        members = directory.in_city(city)
        code = directory.city_code(city)
        assert code in {s.telecode for s in members}
        namesake = directory.by_name(city)
        if namesake is not None and namesake.city == city:
            assert code == namesake.telecode


def test_a_city_without_a_namesake_station_is_queried_by_its_main_station(
    directory: StationDirectory,
) -> None:
    assert directory.by_name("华阴") is None
    assert directory.city_code("华阴") == "HDY"  # 华山北, the high-speed station
    assert directory.city_code("潮州") == "CBQ"  # 潮汕


# -- resolution -------------------------------------------------------------------------


def test_city_name_resolves_to_the_whole_city_main_station_first(
    directory: StationDirectory,
) -> None:
    place = directory.resolve("北京")
    assert (place.name, place.city, place.telecode, place.is_city) == ("北京", "北京", "BJP", True)
    assert names(place.stations)[:3] == ["北京", "北京南", "北京西"]
    assert {"北京朝阳", "北京丰台", "清河"} <= set(names(place.stations))


def test_city_name_with_shi_suffix_and_surrounding_spaces_resolves_to_the_city(
    directory: StationDirectory,
) -> None:
    assert directory.resolve(" 上海市 ").is_city


def test_station_name_resolves_to_that_station_only(directory: StationDirectory) -> None:
    place = directory.resolve("北京南")
    assert (place.name, place.city, place.telecode, place.is_city) == (
        "北京南",
        "北京",
        "VNP",
        False,
    )
    assert names(place.stations) == ["北京南"]


def test_station_name_with_zhan_suffix_resolves_to_the_station(
    directory: StationDirectory,
) -> None:
    assert directory.resolve("北京南站").telecode == "VNP"
    assert directory.resolve("汉口火车站").telecode == "HKN"


def test_namesake_station_with_zhan_means_the_station_not_the_city(
    directory: StationDirectory,
) -> None:
    place = directory.resolve("北京站")
    assert (place.telecode, place.is_city, names(place.stations)) == ("BJP", False, ["北京"])


def test_station_in_a_district_resolves_with_its_administrative_city(
    directory: StationDirectory,
) -> None:
    place = directory.resolve("汉口")
    assert (place.city, place.is_city) == ("武汉", False)


def test_town_name_covers_its_direction_suffixed_stations(directory: StationDirectory) -> None:
    place = directory.resolve("昆山")
    assert (place.city, place.telecode, place.is_city) == ("苏州", "KSH", False)
    assert names(place.stations) == ["昆山", "昆山南"]
    assert names(directory.resolve("华山").stations) == ["华山", "华山北"]


def test_city_without_namesake_station_resolves_to_its_stations(
    directory: StationDirectory,
) -> None:
    place = directory.resolve("华阴")
    assert (place.is_city, place.telecode, names(place.stations)) == (
        True,
        "HDY",
        ["华山北", "华山"],
    )


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("beijingnan", "北京南"),
        ("BeiJing", "北京"),
        ("Shanghai Hongqiao", "上海虹桥"),
        ("shanghai-hongqiao", "上海虹桥"),
        ("Xi'an North", "西安北"),
        ("Guangzhou South Railway Station", "广州南"),
        ("Shenzhen", "深圳"),
        ("Guangzhou", "广州"),
        ("Wuhan", "武汉"),
        ("Peking", "北京"),
        ("Canton", "广州"),
        ("Urumqi", "乌鲁木齐"),
        ("Hong Kong", "香港"),
    ],
)
def test_pinyin_and_english_names_resolve_ignoring_case_spaces_and_apostrophes(
    directory: StationDirectory, text: str, name: str
) -> None:
    assert directory.resolve(text).name == name


@pytest.mark.parametrize(
    ("text", "name"),
    [("ＶＮＰ", "北京南"), ("Běijīng Nán", "北京南"), ("北京 南", "北京南"), ("Xī'ān", "西安")],
)
def test_full_width_forms_tone_marks_and_stray_spaces_are_tidied(
    directory: StationDirectory, text: str, name: str
) -> None:
    assert directory.resolve(text).name == name


@pytest.mark.parametrize("text", ["Beijing Station", "Beijing Railway Station", "beijingzhan"])
def test_romanised_name_saying_station_means_the_station_not_the_city(
    directory: StationDirectory, text: str
) -> None:
    place = directory.resolve(text)
    assert (place.telecode, place.is_city, names(place.stations)) == ("BJP", False, ["北京"])


def test_romanised_town_saying_station_means_that_station_only(
    directory: StationDirectory,
) -> None:
    assert names(directory.resolve("Kunshan").stations) == ["昆山", "昆山南"]
    assert names(directory.resolve("Kunshan Station").stations) == ["昆山"]


def test_tone_marked_u_umlaut_reads_as_v_like_12306_pinyin() -> None:
    assert normalise_input("Lǚliáng") == "Lvliang"
    assert normalise_input("北京　南") == "北京南"


def test_pinyin_ending_like_a_station_word_still_resolves_exactly() -> None:
    (yinzhan,) = parse_station_name_js("@yzh|银盏|YZA|yinzhan|yz|1|1503|清远|||")
    assert StationDirectory([yinzhan]).resolve("yinzhan").name == "银盏"


def test_city_pinyin_resolves_to_the_whole_city(directory: StationDirectory) -> None:
    assert directory.resolve("chongqing").is_city


def test_unambiguous_initials_resolve(directory: StationDirectory) -> None:
    assert directory.resolve("shhq").name == "上海虹桥"
    assert directory.resolve("GZN").name == "广州南"


def test_initials_shared_with_a_capital_resolve_to_the_capital(
    directory: StationDirectory,
) -> None:
    # bj is also 宝鸡 and bjn 宝鸡南: the capital is what a traveller means.
    assert directory.resolve("bj").name == "北京"
    assert directory.resolve("bjn").name == "北京南"


def test_initials_shared_by_places_of_equal_standing_are_ambiguous(
    directory: StationDirectory,
) -> None:
    with pytest.raises(AmbiguousStationError) as caught:
        directory.resolve("sz")
    assert set(caught.value.suggestions) == {"苏州", "深圳"}
    assert isinstance(caught.value, UnknownStationError)


def test_shared_pinyin_prefers_a_capital_then_a_city(sample: StationDirectory) -> None:
    assert sample.resolve("nanjing").name == "南京"  # over the station 南靖
    assert sample.resolve("fuzhou").name == "福州"  # over the city 抚州


def test_upper_case_telecode_resolves_to_exactly_that_station(
    directory: StationDirectory,
) -> None:
    assert names(directory.resolve("VNP").stations) == ["北京南"]
    place = directory.resolve("BJP")
    assert (place.is_city, names(place.stations)) == (False, ["北京"])


def test_lower_case_telecode_resolves_when_it_is_not_pinyin_or_initials(
    directory: StationDirectory,
) -> None:
    assert directory.resolve("vnp").telecode == "VNP"
    assert directory.resolve("aoh").name == "上海虹桥"


def test_unknown_name_raises_with_ranked_suggestions(directory: StationDirectory) -> None:
    with pytest.raises(UnknownStationError) as caught:
        directory.resolve("北惊")
    assert caught.value.suggestions[0] == "北京"
    assert caught.value.text == "北惊"
    assert "北京" in str(caught.value)


@pytest.mark.parametrize(
    ("typo", "meant"),
    [
        ("北惊", "北京"),
        ("杭洲", "杭州"),
        ("上海红桥", "上海虹桥"),
        ("北京西战", "北京西"),
        ("shanghia", "上海"),
        ("guangzou", "广州"),
        ("chengdou", "成都"),
        ("shenzen", "深圳"),
        ("nanjin", "南京"),
    ],
)
def test_typo_suggestions_put_the_meant_name_first(
    directory: StationDirectory, typo: str, meant: str
) -> None:
    assert directory.suggest(typo)[0] == meant


def test_typo_suggestions_stay_sensible_against_the_official_list() -> None:
    full = StationDirectory.from_station_name_js(OFFICIAL_JS.read_text(encoding="utf-8"))
    assert full.suggest("北惊")[0] == "北京"
    assert full.suggest("shanghia")[0] == "上海"
    assert full.suggest("杭洲")[0] == "杭州"


def test_blank_input_is_unknown_without_suggestions(directory: StationDirectory) -> None:
    with pytest.raises(UnknownStationError) as caught:
        directory.resolve("   ")
    assert caught.value.suggestions == []


def test_every_curated_station_resolves_by_name_telecode_and_pinyin(
    directory: StationDirectory,
) -> None:
    for station in directory:
        assert station in directory.resolve(station.name).stations
        assert directory.resolve(station.telecode).stations == (station,)
        try:
            assert station in directory.resolve(station.pinyin).stations
        except AmbiguousStationError as exc:
            assert station.name in exc.suggestions or station.city in exc.suggestions


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Xi'an North Railway Station", "xianbei"),
        ("  Shanghai  Hongqiao ", "shanghaihongqiao"),
        ("BEIJING-SOUTH", "beijingnan"),
        ("station", "station"),
    ],
)
def test_ascii_key_normalises_romanised_names(text: str, key: str) -> None:
    assert ascii_key(text) == key


def test_edit_distance_counts_a_swap_of_neighbours_as_one_edit() -> None:
    assert edit_distance("shanghia", "shanghai") == 1
    assert edit_distance("北惊", "北京") == 1
    assert edit_distance("", "abc") == 3
    assert edit_distance("kitten", "sitting") == 3


# -- search -----------------------------------------------------------------------------


def test_search_by_city_lists_its_stations_main_first(directory: StationDirectory) -> None:
    hits = directory.search("北京")
    assert names(hits)[:3] == ["北京", "北京南", "北京西"]
    assert {s.city for s in hits} == {"北京"}


def test_search_groups_each_citys_stations_together(directory: StationDirectory) -> None:
    for q in ("sh", "bj", "zz", "x", "n"):
        cities = [s.city for s in directory.search(q, limit=200)]
        runs = [c for i, c in enumerate(cities) if i == 0 or cities[i - 1] != c]
        assert len(runs) == len(set(runs)), q


def test_search_puts_a_capital_before_other_prefix_matches(directory: StationDirectory) -> None:
    assert names(directory.search("bj"))[0] == "北京"
    assert "宝鸡" in names(directory.search("bj"))
    assert directory.search("sh")[0].city == "上海"


def test_search_by_pinyin_prefix_initials_and_telecode(directory: StationDirectory) -> None:
    assert names(directory.search("shanghaih")) == ["上海虹桥"]
    assert names(directory.search("bjn"))[0] == "北京南"
    assert names(directory.search("VNP")) == ["北京南"]
    assert names(directory.search("aoh")) == ["上海虹桥"]


def test_search_exact_station_comes_first_and_zhan_is_ignored(
    directory: StationDirectory,
) -> None:
    assert names(directory.search("上海虹桥站")) == ["上海虹桥"]
    assert names(directory.search("汉口")) == ["汉口"]


def test_search_finds_a_chinese_name_inside_a_station_name(directory: StationDirectory) -> None:
    assert names(directory.search("虹桥")) == ["上海虹桥"]


def test_search_naming_a_whole_city_lists_all_its_stations_a_prefix_only_matching_ones(
    directory: StationDirectory,
) -> None:
    assert "清河" in names(directory.search("Peking"))
    assert "清河" in names(directory.search("北京"))
    assert "清河" not in names(directory.search("北"))
    assert names(directory.search("北"))[:2] == ["北京", "北京南"]


def test_official_list_puts_curated_main_stations_first() -> None:
    full = StationDirectory.from_station_name_js(OFFICIAL_JS.read_text(encoding="utf-8"))
    assert names(full.in_city("北京"))[:3] == ["北京", "北京南", "北京西"]
    assert names(full.in_city("武汉"))[:3] == ["武汉", "汉口", "武昌"]
    assert names(full.search("北京"))[:3] == ["北京", "北京南", "北京西"]
    assert full.search("sh")[0].name == "上海"


def test_search_respects_limit_and_ignores_blank(directory: StationDirectory) -> None:
    assert len(directory.search("s", limit=3)) == 3
    assert directory.search("  ") == []
    assert directory.search("北京", limit=0) == []


def test_search_for_nothing_known_is_empty(directory: StationDirectory) -> None:
    assert directory.search("不存在的站") == []
    assert names(directory.search("Běijīng"))[:2] == ["北京", "北京南"]
    assert directory.search("qqqq") == []


# -- the official format ------------------------------------------------------------------


def test_parser_reads_every_record_of_the_recorded_sample() -> None:
    stations = parse_station_name_js(SAMPLE_JS.read_text(encoding="utf-8"))
    assert len(stations) == 29
    first = stations[0]
    assert (first.telecode, first.name, first.city, first.pinyin, first.initials) == (
        "VAP",
        "北京北",
        "北京",
        "beijingbei",
        "bjb",
    )


def test_parser_keeps_country_and_english_name_of_cross_border_stations() -> None:
    records = {r.station.name: r for r in parse_official_records(SAMPLE_JS.read_text("utf-8"))}
    vientiane = records["万象"]
    assert (vientiane.station.telecode, vientiane.station.city) == ("YTM", "万象")
    assert (vientiane.country_code, vientiane.country, vientiane.english) == (
        "lao",
        "老挝",
        "vientiane",
    )
    assert records["香港西九龙"].station.city == "香港"
    assert records["北京"].country == ""


def test_cross_border_english_names_resolve(sample: StationDirectory) -> None:
    assert sample.resolve("Vientiane").name == "万象"
    assert sample.resolve("Boten").name == "磨丁"
    assert sample.resolve("hongkong").name == "香港"


def test_parser_accepts_bare_records_and_skips_malformed_ones() -> None:
    text = (
        "@bji|北京|BJP|beijing|bj|2|0357|北京|||"
        "@bad|坏站|b1|x|x|0|0|坏|||"  # telecode is not three capitals
        " @|||@x"  # empty and truncated records
        "@shn|上海南|SNH|shanghainan|shn|18|0712|上海|||"
    )
    assert names(parse_station_name_js(text)) == ["北京", "上海南"]


def test_record_without_city_uses_its_own_name() -> None:
    (station,) = parse_station_name_js("@abc|某站|ABC|mouzhan|mz|1|")
    assert station.city == "某站"


def test_official_list_loads_every_record() -> None:
    text = OFFICIAL_JS.read_text(encoding="utf-8")
    full = StationDirectory.from_station_name_js(text)
    assert len(full) == text.count("@")
    assert full.resolve("北京").telecode == "BJP"
    assert full.resolve("资阳").telecode == "FYW"  # no namesake: 资阳北 stands for the city


# -- loading ------------------------------------------------------------------------------


async def test_load_directory_without_location_is_the_default_directory() -> None:
    assert await load_directory(None) is default_directory()


def test_the_default_directory_is_every_official_station_with_the_curated_ranking() -> None:
    full = default_directory()
    assert len(full) == 3364
    assert {s.telecode for s in curated_directory()} <= {s.telecode for s in full}
    assert full.resolve("北京通州").telecode == "BUI"  # opened after the curated table
    assert full.resolve("北京").telecode == "BJP"
    # the curated order still ranks a city's stations: 北京南 before the newer ones
    names = [s.name for s in full.in_city("北京")]
    assert names.index("北京南") < names.index("北京通州")
    assert full.resolve("beijingnan").telecode == "VNP"


@needs_official
def test_the_committed_official_csv_is_what_the_build_script_derives() -> None:
    text = FULL_OFFICIAL_JS.read_text(encoding="utf-8")
    with OFFICIAL_CSV.open(encoding="utf-8", newline="") as fh:
        assert list(csv.DictReader(fh)) == official_rows(text)


def js_of(*records: str) -> str:
    return "var station_names ='" + "".join(records) + "';"


# A list of the official size in the official format, written from the bundled directory (the
# refresh refuses lists much shorter than the real one).
FULL_JS = js_of(
    *(
        f"@{s.initials}|{s.name}|{s.telecode}|{s.pinyin}|{s.initials}|{i}|0000|{s.city}|||"
        for i, s in enumerate(default_directory())
    )
)


async def test_refresh_takes_the_live_list_and_caches_it_on_disk(tmp_path: Path) -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, text=FULL_JS))
    cache = tmp_path / "cache" / "station_name.js"
    async with httpx.AsyncClient(transport=transport) as client:
        directory, origin = await refresh_directory("https://x.test/s.js", cache, client)
    assert origin == "live" and len(directory) == 3364
    assert cache.read_text(encoding="utf-8") == FULL_JS


async def test_refresh_falls_back_to_the_disk_cache_then_to_the_bundled_list(
    tmp_path: Path,
) -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(503))
    cache = tmp_path / "station_name.js"
    async with httpx.AsyncClient(transport=transport) as client:
        directory, origin = await refresh_directory("https://x.test/s.js", cache, client)
        assert origin.startswith("bundled") and "503" in origin
        assert directory is default_directory()
        cache.write_text(FULL_JS, encoding="utf-8")
        directory, origin = await refresh_directory("https://x.test/s.js", cache, client)
    assert origin.startswith("disk cache") and len(directory) == 3364


async def test_a_truncated_live_list_is_not_taken(tmp_path: Path) -> None:
    short = js_of("@bjb|北京北|VAP|beijingbei|bjb|0|0357|北京|||")
    transport = httpx.MockTransport(lambda request: httpx.Response(200, text=short))
    async with httpx.AsyncClient(transport=transport) as client:
        directory, origin = await refresh_directory(
            "https://x.test/s.js", tmp_path / "s.js", client
        )
    assert origin.startswith("bundled") and directory is default_directory()
    assert not (tmp_path / "s.js").exists()


async def test_load_directory_reads_a_station_name_js_file() -> None:
    loaded = await load_directory(str(SAMPLE_JS))
    assert len(loaded) == 29
    assert loaded.resolve("上海虹桥").telecode == "AOH"


async def test_load_directory_reads_a_curated_csv_file() -> None:
    loaded = await load_directory(str(CURATED_CSV))
    assert len(loaded) == len(curated_directory())


async def test_load_directory_missing_file_raises_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StationListError, match="cannot load station list from"):
        await load_directory(str(tmp_path / "absent.js"))


async def test_load_directory_file_without_records_raises(tmp_path: Path) -> None:
    empty = tmp_path / "empty.js"
    empty.write_text("var station_names ='';", encoding="utf-8")
    with pytest.raises(StationListError, match="no station records"):
        await load_directory(str(empty))


async def test_load_directory_fetches_a_url_with_the_given_client() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, content=SAMPLE_JS.read_bytes())

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
        loaded = await load_directory("https://example.test/station_name.js", client)
    assert seen == ["https://example.test/station_name.js"]
    assert loaded.resolve("汉口").city == "武汉"


@pytest.mark.parametrize(
    ("response", "message"),
    [
        (httpx.Response(503), "503"),
        (httpx.Response(200, text="<html>busy</html>"), "no station records"),
        (httpx.Response(200, content=b"\xff\xfe\xfa"), "not UTF-8"),
    ],
)
async def test_load_directory_bad_url_answer_raises_a_clear_error(
    response: httpx.Response, message: str
) -> None:
    transport = httpx.MockTransport(lambda request: response)
    async with httpx.AsyncClient(transport=transport) as client:
        with pytest.raises(StationListError, match=message) as caught:
            await load_directory("https://example.test/station_name.js", client)
    assert caught.value.location == "https://example.test/station_name.js"


async def test_load_directory_unreachable_url_raises_a_clear_error() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    async with httpx.AsyncClient(transport=httpx.MockTransport(refuse)) as client:
        with pytest.raises(StationListError, match="connection refused"):
            await load_directory("http://example.test/station_name.js", client)


def test_the_bundled_list_is_read_when_first_asked_in_place_for_every_holder() -> None:
    from sources.stations.directory import _ReadOnFirstUse

    reads: list[int] = []

    def read() -> StationDirectory:
        reads.append(1)
        return StationDirectory.from_official_csv(OFFICIAL_CSV)

    directory = _ReadOnFirstUse(read)
    held = directory  # what the adapters, the sandbox and the parser hold
    assert reads == []  # handed out, not read
    assert directory.get("VNP") is not None and directory.get("VNP").name == "北京南"
    assert reads == [1]
    assert len(held) == len(default_directory()) and held.search("北京")[0].name == "北京"
    assert reads == [1]  # once
    with pytest.raises(AttributeError):
        _ = directory.no_such_index  # type: ignore[attr-defined]
