"""Generate `sources/data/readings.json.gz`: pypinyin's toneless readings as compact tables.

Run from the repository root: `python -m scripts.build_readings` (needs `pypinyin`, a pin of
requirements-dev.txt). The input is the installed pypinyin, asked through its public API:
every character it reads (`pinyin(ch, style=NORMAL, heteronym=True)`) and every phrase of its
phrase list (read as one word, as its segmenter cuts it). `sources/stations/readings.py`
answers from these tables what pypinyin would, without importing it (pypinyin holds 56 MiB
and takes ~0.3–0.6 s to import; the tables hold the same answers in ~2 MiB, in ~30 ms).

The document (JSON, gzip):

    pypinyin       the version read
    lists          the distinct reading lists, each "reading,reading" in pypinyin's order
                   (the usual reading first); a list's code is chr(CODE_BASE + its index)
    chars          every character with readings, ascending
    char_codes     one code per character of `chars`
    phrases        the phrases, ascending, each followed by "\\n"
    phrase_codes   the same layout: one code per character of each phrase, then "\\n"; `=`
                   where the phrase reads the character as it reads alone (most characters
                   of most phrases: the table compresses to half)

Deterministic: the same pypinyin, the same bytes.
"""

from __future__ import annotations

import gzip
import json
import sys
from importlib.metadata import version

from scripts import SOURCES_DATA

OUTPUT = SOURCES_DATA / "readings.json.gz"
CODE_BASE = 0x100
"""Codes start past Latin-1 and stay below the surrogates (5,208 lists with pypinyin 0.55)."""
AS_ALONE = "="
"""A phrase's code for a character it reads as the character alone."""
FORMAT = 1


def build() -> dict[str, object]:
    """The document from the installed pypinyin."""
    import pypinyin
    from pypinyin.constants import PHRASES_DICT, PINYIN_DICT, RE_HANS

    def read(text: str) -> list[list[str]]:
        return pypinyin.pinyin(text, style=pypinyin.Style.NORMAL, heteronym=True, errors="ignore")

    lists: dict[str, str] = {}

    def code(readings: list[str]) -> str:
        key = ",".join(readings)
        if key not in lists:
            lists[key] = chr(CODE_BASE + len(lists))
        return lists[key]

    # Only what pypinyin reads as Chinese (RE_HANS) can ever have a reading: it cuts anything
    # else off before looking it up.
    chars = sorted(chr(point) for point in PINYIN_DICT if RE_HANS.match(chr(point)))
    char_codes = {}
    for char in chars:
        (readings,) = read(char)
        char_codes[char] = code(readings)
    phrases = sorted(p for p in PHRASES_DICT if RE_HANS.match(p))
    phrase_codes = []
    for phrase in phrases:
        per_char = read(phrase)
        if len(per_char) != len(phrase):
            raise ValueError(f"pypinyin reads {phrase!r} as {per_char!r}: not one per character")
        codes = (code(readings) for readings in per_char)
        phrase_codes.append(
            "".join(
                AS_ALONE if c == char_codes.get(ch) else c
                for ch, c in zip(phrase, codes, strict=True)
            )
        )
    if CODE_BASE + len(lists) >= 0xD800:
        raise ValueError(f"{len(lists)} reading lists do not fit below the surrogates")
    return {
        "format": FORMAT,
        "pypinyin": version("pypinyin"),
        "lists": list(lists),
        "chars": "".join(chars),
        "char_codes": "".join(char_codes.values()),
        "phrases": "".join(p + "\n" for p in phrases),
        "phrase_codes": "".join(c + "\n" for c in phrase_codes),
    }


def render(document: dict[str, object]) -> bytes:
    """The committed bytes: compact JSON, gzip without a timestamp (same input, same bytes)."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def main() -> None:
    document = build()
    OUTPUT.write_bytes(render(document))
    print(
        f"{len(document['chars'])} characters, {document['phrases'].count(chr(10))} phrases, "  # type: ignore[union-attr]
        f"{len(document['lists'])} reading lists -> {OUTPUT} "  # type: ignore[arg-type]
        f"({OUTPUT.stat().st_size / 1024:.0f} KiB)",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
