"""The toneless pinyin readings of Chinese text, as pypinyin reads it, from compact tables.

`per_character(text)` answers what `pypinyin.pinyin(text, style=Style.NORMAL,
heteronym=True, errors="ignore")` answers for Chinese text: the text cut into the words of
pypinyin's phrase list (its forward maximum matching, `pypinyin.seg.mmseg`, strict mode), a
word read as the list reads it (广州 is guang zhou, never 广's rare "an"; 重庆 chong qing),
any other character by every reading it has, the usual one first. The phrase list matters:
read character by character, 去广州 sounds like 泉州 (qu-an-zhou).

The tables (`sources/data/readings.json.gz`) are generated from pypinyin by
`scripts/build_readings.py` and compared with it by tests/scripts/test_build_readings.py.
pypinyin itself is not imported at run time: it holds 56 MiB (its phrase dictionary, copied
again at import) and takes 0.3–0.6 s to import, more than the rest of a served replica's own
code; these tables give the same answers from ~2 MiB, loaded on first use in ~30 ms.
"""

from __future__ import annotations

import gzip
import itertools
import json
from array import array
from bisect import bisect_left
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

READINGS_FILE = files("sources") / "data" / "readings.json.gz"
FORMAT = 1
CODE_BASE = 0x100
AS_ALONE = "="
"""In a phrase's codes: the character is read as it is alone."""


@dataclass(frozen=True)
class ReadingTables:
    """The generated tables: reading lists by code, characters, phrases (see the generator)."""

    lists: tuple[tuple[str, ...], ...]
    chars: str  # ascending
    char_codes: str
    phrases: str  # ascending, each followed by "\n"
    phrase_codes: str  # the same layout
    starts: array  # where each phrase starts in `phrases`

    @classmethod
    def from_document(cls, document: dict) -> ReadingTables:
        if document.get("format") != FORMAT:
            raise ValueError(f"readings format {document.get('format')!r}, expected {FORMAT}")
        phrases = document["phrases"]
        lengths = map(len, phrases.split("\n")[:-1])
        starts = array("I", itertools.accumulate(lengths, lambda at, n: at + n + 1, initial=0))
        starts.pop()  # where the phrase after the last would start
        return cls(
            lists=tuple(tuple(entry.split(",")) for entry in document["lists"]),
            chars=document["chars"],
            char_codes=document["char_codes"],
            phrases=phrases,
            phrase_codes=document["phrase_codes"],
            starts=starts,
        )

    def char(self, char: str) -> tuple[str, ...] | None:
        """Every reading of one character alone, or None when it has none."""
        at = bisect_left(self.chars, char)
        if at == len(self.chars) or self.chars[at] != char:
            return None
        return self.lists[ord(self.char_codes[at]) - CODE_BASE]

    def _phrase(self, index: int) -> str:
        start = self.starts[index]
        return self.phrases[start : self.phrases.index("\n", start)]

    def lookup(self, word: str) -> tuple[bool, int | None]:
        """Whether some phrase starts with `word`, and the index of `word` if it is one."""
        low, high = 0, len(self.starts)
        while low < high:  # bisect over the phrases without a list of 47,000 strings
            middle = (low + high) // 2
            if self._phrase(middle) < word:
                low = middle + 1
            else:
                high = middle
        if low == len(self.starts):
            return False, None
        found = self._phrase(low)
        return found.startswith(word), (low if found == word else None)

    def phrase(self, index: int) -> list[tuple[str, ...]] | None:
        """Per character, the readings of phrase `index` as the phrase reads them."""
        start = self.starts[index]
        readings: list[tuple[str, ...]] = []
        for offset, code in enumerate(self.phrase_codes[start : self.phrases.index("\n", start)]):
            if code == AS_ALONE:
                alone = self.char(self.phrases[start + offset])
                if alone is None:
                    return None
                readings.append(alone)
            else:
                readings.append(self.lists[ord(code) - CODE_BASE])
        return readings


@cache
def tables() -> ReadingTables:
    """The packaged tables (loaded once per process, on first use)."""
    return ReadingTables.from_document(json.loads(gzip.decompress(READINGS_FILE.read_bytes())))


def words(text: str, reading: ReadingTables) -> list[tuple[str, int | None]]:
    """`text` cut as pypinyin's strict forward maximum matching cuts it: (word, phrase index
    or None for a lone character)."""
    cut: list[tuple[str, int | None]] = []
    remain = text
    while remain:
        last: tuple[str, int] | None = None
        for end in range(1, len(remain) + 1):
            is_prefix, index = reading.lookup(remain[:end])
            if not is_prefix:
                if last is not None:
                    cut.append(last)
                    remain = remain[len(last[0]) :]
                else:
                    cut.append((remain[0], None))
                    remain = remain[1:]
                break
            if index is not None:
                last = (remain[:end], index)
        else:  # all of the rest is the start of some phrase
            if last is not None:
                cut.append(last)
                remain = remain[len(last[0]) :]
            else:  # and none of it a phrase: pypinyin reads it character by character
                cut.extend((char, None) for char in remain)
                remain = ""
    return cut


def per_character(text: str) -> list[tuple[str, ...]] | None:
    """Per character of `text`, its toneless readings in context (usual first), or None when
    a character has none (not Chinese, or unknown to pypinyin)."""
    reading = tables()
    found: list[tuple[str, ...]] = []
    for word, index in words(text, reading):
        if index is not None:
            in_phrase = reading.phrase(index)
            if in_phrase is None:
                return None
            found.extend(in_phrase)
            continue
        alone = reading.char(word)
        if alone is None:
            return None
        found.append(alone)
    return found
