"""Names found in free text by the scanner are the ones the alternation of every name,
longest first, finds (the regular expression it replaced)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from app.intent.places import NameScanner
from sources.stations import default_directory

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def test_the_scanner_finds_what_the_longest_first_alternation_finds() -> None:
    names = tuple(default_directory().names())
    reference = re.compile("|".join(re.escape(n) for n in names))
    scanner = NameScanner(names)
    texts = [
        line
        for path in [*FIXTURES.glob("travellers/*.jsonl"), FIXTURES / "intent/eval.jsonl"]
        for line in path.read_text("utf-8").splitlines()
    ]
    rng = random.Random(27)  # names run together, overlapping at their edges
    texts += ["".join(rng.choices(names, k=4))[rng.randrange(3) :] for _ in range(2000)]
    for text in texts:
        expected = [(m.start(), m.end(), m.group()) for m in reference.finditer(text)]
        assert list(scanner.finditer(text)) == expected, text
    for text in texts[::10]:  # anchored at each position, as `Pattern.match(text, pos)`
        for pos in range(len(text) + 1):
            m = reference.match(text, pos)
            assert scanner.match_at(text, pos) == (m and (m.start(), m.end(), m.group())), pos


def test_the_longest_name_at_a_position_wins_and_names_do_not_overlap() -> None:
    scanner = NameScanner(("上海虹桥", "上海", "虹桥", "北京"))
    assert list(scanner.finditer("从上海虹桥到北京")) == [(1, 5, "上海虹桥"), (6, 8, "北京")]
