"""Numbers in their common shapes are read without cn2an, exactly as cn2an reads them; every
other shape is still cn2an's."""

from __future__ import annotations

import itertools
import random

import cn2an
import pytest

from app.intent.numerals import COMMON_CHINESE, read_common, to_int, to_number

DIGITS = list("一二两三四五六七八九")
MAYBE = ["", *DIGITS]


def common_chinese() -> list[str]:
    """Every string of the common Chinese shapes, written out."""
    tens = [a + "十" + b for a in MAYBE for b in MAYBE]
    below_hundred = [x + "十" + y for x in DIGITS for y in MAYBE] + ["零" + y for y in DIGITS]
    hundreds = [d + "百" + rest for d in DIGITS for rest in ["", *below_hundred]]
    thousands = [
        d + "千" + rest
        for d in DIGITS
        for rest in ["", *hundreds, *("零" + r for r in below_hundred if not r.startswith("零"))]
        + ["零" + y for y in DIGITS]
    ]
    wan = [d + "万" + rest for d in DIGITS for rest in ["", *(x + "千" for x in DIGITS)]]
    spoken = [a + unit + b for a in DIGITS for unit in "百千万" for b in DIGITS]
    return ["零", *DIGITS, *tens, *hundreds, *thousands, *wan, *spoken]


def cn2an_reads(text: str) -> float | None:
    try:
        return float(cn2an.cn2an(text, "smart"))
    except (ValueError, KeyError, IndexError, OverflowError):
        return None


def test_every_common_chinese_number_is_read_as_cn2an_reads_it() -> None:
    shapes = common_chinese()
    assert len(shapes) > 10_000 and all(COMMON_CHINESE.fullmatch(s) for s in shapes)
    assert [s for s in shapes if read_common(s) != cn2an_reads(s)] == []


def test_nothing_outside_the_written_out_shapes_is_taken_for_a_common_one() -> None:
    shapes = set(common_chinese())
    rng = random.Random(27)
    alphabet = "零一二两三四五六七八九十百千万"
    texts = {"".join(p) for n in (1, 2, 3) for p in itertools.product(alphabet, repeat=n)}
    texts |= {"".join(rng.choices(alphabet, k=rng.randint(4, 8))) for _ in range(20_000)}
    assert [t for t in texts if COMMON_CHINESE.fullmatch(t) and t not in shapes] == []


@pytest.mark.parametrize(
    "text",
    ["0", "7", "007", "12", "2026", "1.5", "0.29", "2千", "1.5万", "0.29百", "12万", "10十"],
)
def test_an_arabic_number_with_or_without_a_unit_is_read_as_cn2an_reads_it(text: str) -> None:
    assert read_common(text) == cn2an_reads(text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("二零二六", 2026),
        ("2千5", 2500),
        ("十二万", 120000),
        ("一千二百三十四万五千六百", 12345600),
    ],
)
def test_other_shapes_are_still_read_by_cn2an(text: str, value: int) -> None:
    assert read_common(text) is None
    assert to_number(text) == value == cn2an_reads(text)


def test_counts_and_amounts_travellers_write() -> None:
    assert [to_int(t) for t in ("三", "两", "十二", "两千五", "一万二", "〇")] == [
        3, 2, 12, 2500, 12000, None,
    ]  # fmt: skip
    assert to_number("1.5万") == 15000 and to_number("3k") == 3000
