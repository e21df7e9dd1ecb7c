"""Text matching over the station directory: what a traveller typed, tidied and compared.

`normalise_input` and `ascii_key` tidy input (full-width forms, tone marks, spaces, "station"
words); `TextSearch` is the directory's prefix search and typo suggestions (`search`,
`suggest`), ranked by `edit_distance` and by how likely a traveller means each place.
"""

from __future__ import annotations

import difflib
import itertools
import re
import unicodedata
from functools import cached_property

from sources.models import Station
from sources.stations.readings import per_character

PROVINCIAL_CAPITALS: tuple[str, ...] = (
    "北京", "天津", "上海", "重庆", "石家庄", "太原", "呼和浩特", "沈阳", "长春", "哈尔滨",
    "南京", "杭州", "合肥", "福州", "南昌", "济南", "郑州", "武汉", "长沙", "广州", "南宁",
    "海口", "成都", "贵阳", "昆明", "拉萨", "西安", "兰州", "西宁", "银川", "乌鲁木齐",
)  # fmt: skip
CAPITALS = frozenset(PROVINCIAL_CAPITALS)

DIRECTIONS = {"东": "dong", "西": "xi", "南": "nan", "北": "bei"}
ENGLISH_DIRECTIONS = {"east": "dong", "west": "xi", "south": "nan", "north": "bei"}
STATION_WORDS = ("railwaystation", "trainstation", "station", "huochezhan", "zhan")
STATION_SUFFIXES = ("火车站", "站")
"""A station named after its town's old town (平遥古城 beside 平遥): both are the town's
stations, whichever of the two names the traveller says."""


def normalise_input(text: str) -> str:
    """Tidy what a traveller typed: full-width forms, tone marks, stray spaces in Chinese.

    "ＶＮＰ" -> "VNP", "Běijīng Nán" -> "Beijing Nan", "Lüliang" -> "Lvliang" (12306 writes ü
    as v), "北京 南" -> "北京南". Romanised text keeps its spaces for `ascii_key`.
    """
    text = unicodedata.normalize("NFKC", text).strip()
    if text.isascii():
        return text
    plain = unicodedata.normalize("NFKD", text)
    plain = plain.replace("u\u0308", "v").replace("U\u0308", "V")  # ü, ǚ … keep their dots as v
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    return plain if plain.isascii() else "".join(text.split())


def ascii_key(text: str) -> str:
    """Normalise romanised input: "Xi'an North Railway Station" -> "xianbei"."""
    return _ascii_key(text)[0]


def _ascii_key(text: str) -> tuple[str, bool]:
    """`ascii_key` and whether the text said "station" (Beijing Station is not all Beijing)."""
    key = "".join(ch for ch in text.lower() if ch.isalnum())
    said_station = False
    for word in STATION_WORDS:
        if key.endswith(word) and len(key) > len(word):
            key, said_station = key.removesuffix(word), True
            break
    for english, pinyin in ENGLISH_DIRECTIONS.items():
        if key.endswith(english) and len(key) > len(english):
            return key.removesuffix(english) + pinyin, said_station
    return key, said_station


# Sounds an IME or a dialect confuses (模糊音): zh/z, ch/c, sh/s, -ng/-n.
_FUZZY_SOUNDS = (("zh", "z"), ("ch", "c"), ("sh", "s"), ("ng", "n"))
MAX_READINGS = 16
"""Readings of a typed word tried at most (a character with several readings multiplies)."""


def fuzzy_sound(romanised: str) -> str:
    """Toneless pinyin with the sounds travellers confuse folded together: "chongqing" and
    "chongqin" (重亲) are both "conqin", "shenzhen" and "shenzheng" (深证) "senzen"."""
    key = romanised.lower().replace("v", "u").replace("ü", "u")
    for sound, plain in _FUZZY_SOUNDS:
        key = key.replace(sound, plain)
    return key


_INITIAL = re.compile(r"^(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])")


_PLACE_WORDS = frozenset("站市省县区路街镇村方")
"""Characters that make a word of their own with the one before (南站, 北市, 南方): no typo."""


def _rhyme(syllable: str) -> str:
    """A toneless syllable without its initial, folded (`fuzzy_sound`): shen and chen are en."""
    return _INITIAL.sub("", fuzzy_sound(syllable)) or syllable


def readings(text: str) -> list[str]:
    """The toneless pinyin readings of Chinese `text`, every reading of each character
    (重 is zhong and chong), at most `MAX_READINGS` of them, the usual one first."""
    syllables = per_character(text)  # pypinyin's readings in context (readings.py)
    if syllables is None:
        return []
    combos = itertools.islice(itertools.product(*syllables), MAX_READINGS)
    return list(dict.fromkeys("".join(combo) for combo in combos))


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance where swapping two neighbours costs one edit (shanghia/shanghai)."""
    previous: list[int] = []
    current = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        before, previous, current = previous, current, [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
    return current[len(b)]


class TextSearch:
    """Prefix search and typo suggestions over a directory's indexes (`StationDirectory`)."""

    _by_name: dict[str, Station]
    _by_city: dict[str, list[Station]]
    _city_order: dict[str, int]
    _ascii: dict[str, list[str]]
    _city_pinyin: dict[str, str]
    _city_initials: dict[str, str]

    def search(self, q: str, limit: int = 20) -> list[Station]:
        """Stations whose name, city, pinyin, initials or telecode start with `q`.

        Results come grouped by city (a city's stations together, main station first). Naming
        a whole city (北京, beijing, Peking, bj) brings all its stations; a prefix brings only
        the stations it matches. Groups are ordered by their best match (exact before prefix
        before initials before telecode), then groups whose city itself matches, then
        provincial capitals, then directory order."""
        text = normalise_input(q)
        text = next((text.removesuffix(s) for s in STATION_SUFFIXES if text.endswith(s)), text)
        if not text or limit <= 0:
            return []
        score = self._ascii_score if text.isascii() else self._chinese_score
        needle = ascii_key(text) if text.isascii() else text
        if not needle:
            return []
        groups: dict[str, list[tuple[int, Station]]] = {}
        for city, members in self._by_city.items():
            for station in members:
                s = score(needle, station)
                if s is not None:
                    groups.setdefault(city, []).append((s, station))
        ranked = sorted(
            groups.items(),
            key=lambda item: (
                min(s for s, _ in item[1]),
                not self._city_matches(needle, item[0]),  # 上海 before 北京's 沙河 for "sh"
                item[0] not in CAPITALS,
                self._city_order[item[0]],
            ),
        )
        return [station for _, hits in ranked for _, station in hits][:limit]

    def _city_matches(self, needle: str, city: str) -> bool:
        if not needle.isascii():
            return city.startswith(needle)
        romanised = (self._city_pinyin.get(city, ""), self._city_initials.get(city, ""))
        return any(r and r.startswith(needle) for r in romanised)

    def _chinese_score(self, needle: str, station: Station) -> int | None:
        # A city's other stations join only when the whole city is named (北京 -> 清河 too):
        # a prefix such as 北 would otherwise drag in every small station of every 北 city.
        if needle in (station.name, station.city):
            return 0
        if station.name.startswith(needle):
            return 1
        if len(needle) >= 2 and needle in station.name:
            return 3
        return None

    def _ascii_score(self, needle: str, station: Station) -> int | None:
        pinyin, initials = station.pinyin.lower(), station.initials.lower()
        code = station.telecode.lower()
        named = self._ascii.get(needle, ())  # pinyin and aliases: beijing, peking -> 北京
        if needle in (pinyin, code) or station.name in named or station.city in named:
            return 0
        if needle in (initials, self._city_initials.get(station.city)):
            return 1
        if pinyin.startswith(needle):
            return 1
        if initials.startswith(needle):
            return 2
        if code.startswith(needle):
            return 3
        return None

    @cached_property
    def _sounds(self) -> dict[str, list[str]]:
        """Every city and station name by its folded sound (`fuzzy_sound`), best rank first."""
        index: dict[str, list[str]] = {}
        for city, romanised in self._city_pinyin.items():
            index.setdefault(fuzzy_sound(romanised), []).append(city)
        for name, station in self._by_name.items():
            if station.pinyin and name not in self._by_city:
                index.setdefault(fuzzy_sound(station.pinyin), []).append(name)
        for names in index.values():
            names.sort(key=lambda n: (self._rank(n), self._city_order.get(n, 10**6)))
        return index

    def sound_alike(self, text: str, *, usual_only: bool = False) -> list[str]:
        """Known names that sound like Chinese `text` (无憾 -> 武汉, 郑洲 -> 郑州, 重亲 -> 重庆),
        the likeliest first: a provincial capital, another city, then stations. A name that
        is itself known sounds like nothing else. `usual_only`: by the usual reading of each
        character alone, not every reading."""
        if not text or text in self._by_name or text in self._by_city:
            return []
        found: list[str] = []
        for reading in readings(text)[:1] if usual_only else readings(text):
            found.extend(self._sounds.get(fuzzy_sound(reading), ()))
        unique = list(dict.fromkeys(found))
        unique.sort(key=lambda n: (self._rank(n), self._city_order.get(n, 10**6)))
        return unique

    def heard_as(self, text: str, *, routed: bool = False, paired: bool = False) -> str | None:
        """The one city Chinese `text` surely means, or None: the best of `sound_alike` when
        no other of its rank ties with it and it keeps a character of `text` (郑洲 -> 郑州,
        重亲 -> 重庆). A homophone sharing no character (无憾 for 武汉) is only a suggestion
        (`suggest`), unless `routed` (the word stands where a route names its places: 从无憾,
        去无憾) and it sounds like exactly one major city (a capital or a municipality).

        `paired`: the word is the second place of a route whose first is named (武汉到一常,
        从桂林去杨朔), a slot no everyday word stands in. There any city that alone sounds
        like it is meant (一常: 宜昌), and so is a station of two characters keeping one
        (杨朔: 阳朔), both read alike exactly by the characters' usual readings (a rare one of
        趟 makes 一趟 sound like 宜城; 义诊 yizhen is no 仪征 yizheng)."""
        if paired:
            said = readings(text)[:1]
            usual = [
                name
                for name in self.sound_alike(text, usual_only=True)
                if [self._romanised(name).lower()] == said
            ]
            best = usual[0] if usual else ""
            tied = [name for name in usual if self.importance(name) == self.importance(best)]
            if len(tied) == 1 and (best in self._by_city or set(best) & set(text)):
                return best
        alike = self.sound_alike(text)
        near = self.capital_one_sound_off(text) if routed else None
        if near is not None and not any(name in self._by_city for name in alike):
            # 从沉阳回丹东: chenyang is one letter off shenyang, a capital keeping 阳; the
            # district station 城阳 that sounds just like it is far less likely meant.
            return near
        if not alike:
            return None
        best = alike[0]
        tied = [name for name in alike if self._rank(name) == self._rank(best)]
        if routed and len(tied) == 1 and self._rank(best) == 0 and best in self._by_city:
            return best
        if len(tied) > 1:
            # 苏洲 sounds like 苏州 and 宿州 alike: the one that keeps a character is meant.
            kept = [name for name in tied if set(name) & set(text)]
            if len(kept) != 1:
                return None
            best = kept[0]
        # A city only: a small station's homophone is as likely an everyday word (家三口 is
        # no 孤山口), and is asked about instead; but a name of three characters or more typed
        # with one of them by sound (满州里: 满洲里, 额吉纳: 额济纳) is no everyday word.
        if best not in self._by_city:
            slips = sum(a != b for a, b in zip(best, text, strict=False))
            return best if len(text) >= 3 and len(best) == len(text) and slips == 1 else None
        return best if set(best) & set(text) else None

    def capital_one_sound_off(self, text: str) -> str | None:
        """The one provincial capital whose name Chinese `text` types with one character of
        like shape and sound: as long, the other characters kept, and the one changed read
        with the capital's rhyme, only its initial slipped (沉阳 chen: 沈阳 shen; 北就 jiu is
        no 北京 jing). None when none or several fit, or `text` is known."""
        if len(text) < 2 or text in self._by_name or text in self._by_city:
            return None
        typed = per_character(text)
        if typed is None:
            return None
        fits = []
        for city in PROVINCIAL_CAPITALS:
            if len(city) != len(text):
                continue
            slips = [i for i, (a, b) in enumerate(zip(city, text, strict=True)) if a != b]
            meant = per_character(city)
            if len(slips) != 1 or meant is None or len(meant) != len(text):
                continue
            if text[slips[0]] in _PLACE_WORDS:
                continue  # 南站 is a south station, no 南昌 typed by its sound
            rhyme = _rhyme(meant[slips[0]][0])
            if any(_rhyme(reading) == rhyme for reading in typed[slips[0]]):
                fits.append(city)
        return fits[0] if len(fits) == 1 else None

    def importance(self, name: str) -> tuple[int, int]:
        """How likely a traveller means `name` (a city or station) among names that read
        alike, lower first: `_rank`, then the city's place in the ranking (苏州 before 宿州)."""
        return self._rank(name), self._city_order.get(name, 10**6)

    def suggest(self, text: str, limit: int = 5) -> list[str]:
        """The nearest known names for a misspelt `text` (北惊 -> 北京, shanghia -> 上海).

        Chinese input first gets the names that sound alike (`sound_alike`: 无憾 -> 武汉, a
        homophone sharing no character), then the nearest by shape and sound: edit distance
        between the characters and between the readings (rapidfuzz), a swap of neighbours
        counting as one edit (typing order slips), then `_rank` (a capital before a small
        station), then similarity.
        """
        key = normalise_input(text)
        if not key or limit <= 0:
            return []
        if not key.isascii():
            # 河口 names 河口北 and 河口南: those first, then what sounds like it.
            alike = [
                key + d for d in DIRECTIONS if key + d in self._by_name and key not in self._by_name
            ] + self.sound_alike(key)
            near = self.capital_one_sound_off(key)
            if near is not None and not any(name in self._by_city for name in alike):
                # 沉阳: the capital 沈阳 one letter off before the district station 城阳.
                alike = [near, *(name for name in alike if name != near)]
            if alike:
                rest = [n for n in self._suggest_by_shape(key, limit) if n not in alike]
                return [*alike, *rest][:limit]
        return self._suggest_by_shape(key, limit)

    def _suggest_by_shape(self, key: str, limit: int) -> list[str]:
        if key.isascii():
            needle = ascii_key(key)
            # difflib's quick filters keep the candidate set small before the exact ranking.
            pool = difflib.get_close_matches(needle, list(self._ascii), n=limit * 8, cutoff=0.6)
            targets = [(k, name) for k in pool for name in self._ascii[k]]
        else:
            needle = key
            chars = set(key)
            targets = [
                (name, name)
                for name in set(self._by_name) | set(self._by_city)
                if chars & set(name)  # a typo keeps at least one character right
            ]
        scored = []
        sounds = [fuzzy_sound(r) for r in readings(needle)] if not needle.isascii() else []
        # Imported here, by the one path that compares readings: 3.5 MiB a process otherwise.
        from rapidfuzz.distance import Levenshtein

        for spelling, name in targets:
            ratio = difflib.SequenceMatcher(None, needle, spelling).ratio()
            if ratio >= 0.5:
                distance = edit_distance(needle, spelling)
                if sounds:
                    # Of two names one character away, the one that also sounds nearer.
                    heard = fuzzy_sound(self._romanised(name))
                    near = min(Levenshtein.distance(s, heard) for s in sounds)
                    scored.append((distance, near, self._rank(name), -ratio, name))
                else:
                    scored.append((distance, 0, self._rank(name), -ratio, name))
        return list(dict.fromkeys(entry[-1] for entry in sorted(scored)))[:limit]

    def _romanised(self, name: str) -> str:
        if name in self._city_pinyin:
            return self._city_pinyin[name]
        station = self._by_name.get(name)
        return station.pinyin if station is not None else ""

    # -- ranking --------------------------------------------------------------------------

    def _rank(self, name: str) -> int:
        """How likely a traveller means `name` when romanised input fits several places:
        0 a provincial capital, 1 another city, 2 a station of a capital, 3 any other station.

        Pinyin settles on any unique best rank (nanjing is 南京, not the station 南靖); initials
        only on a capital or a capital's station (bj is 北京 over 宝鸡, bjn 北京南 over 宝鸡南,
        while hs, 黄山 or 华山, stays ambiguous).
        """
        if name in self._by_city:
            return 0 if name in CAPITALS else 1
        return 2 if self._by_name[name].city in CAPITALS else 3
