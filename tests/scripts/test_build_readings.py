"""The committed reading tables are what the generator makes of the pinned pypinyin, and the
run-time reader (sources/stations/readings.py) answers what pypinyin answers, in context."""

from __future__ import annotations

import gzip
import json
import random
import re
from importlib.metadata import version
from pathlib import Path

import pypinyin
import pytest

from scripts.build_readings import OUTPUT, build, render
from sources.stations import default_directory
from sources.stations.readings import READINGS_FILE, per_character, tables, words

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def pypinyin_reads(text: str) -> list[tuple[str, ...]] | None:
    """What railtrip asked pypinyin before the tables: None when a character had no reading."""
    found = pypinyin.pinyin(text, style=pypinyin.Style.NORMAL, heteronym=True, errors="ignore")
    return [tuple(r) for r in found] if len(found) == len(text) else None


def test_the_committed_tables_are_what_the_generator_makes_of_the_pinned_pypinyin() -> None:
    document = json.loads(gzip.decompress(READINGS_FILE.read_bytes()))
    regenerate = "python -m scripts.build_readings"
    assert document["pypinyin"] == version("pypinyin"), regenerate
    assert OUTPUT.read_bytes() == render(build())


def test_a_phrase_is_read_as_one_word_and_a_lone_character_by_all_its_readings() -> None:
    assert [w for w, _ in words("去广州", tables())] == ["去", "广州"]
    assert per_character("去广州") == [("qu",), ("guang",), ("zhou",)]  # not qu-an-zhou (泉州)
    assert per_character("重庆") == [("chong",), ("qing",)]
    assert ("zhong", "chong") == per_character("重亲")[0][:2]  # type: ignore[index]
    assert per_character("G1") is None and per_character("北京G") is None


def corpus() -> list[str]:
    """Every station and city name, every run of Chinese in the travellers' sentences and
    dialogues and the intent set, and the 2- to 4-character pieces of the sentences' runs
    (what the parser asks about a word typed by its sound)."""
    directory = default_directory()
    texts = set(directory.names()) | set(directory.cities())
    for path in sorted(FIXTURES.glob("travellers/*.jsonl")) + [FIXTURES / "intent/eval.jsonl"]:
        for run in re.findall(r"[\u4e00-\u9fff]+", path.read_text("utf-8")):
            texts.add(run)
            if path.name == "sentences.jsonl":
                texts.update(run[i : i + n] for n in (2, 3, 4) for i in range(len(run) - n + 1))
    return sorted(texts)


def test_readings_are_pypinyins_on_every_name_and_the_travellers_words() -> None:
    differ = [text for text in corpus() if per_character(text) != pypinyin_reads(text)]
    assert differ == []


@pytest.mark.parametrize("seed", range(3))
def test_readings_are_pypinyins_where_phrases_overlap_and_meet_odd_characters(seed: int) -> None:
    # Phrases run together (where the forward matching's cut points decide the reading), and
    # characters pypinyin cannot read (Latin, kana, unassigned Chinese code points).
    rng = random.Random(seed)
    phrases = tables().phrases.split("\n")[:-1]
    chars = tables().chars
    odd = "aＧ。ぁ\u9fff\u4dbf〇"
    texts = []
    for _ in range(1500):
        parts = [
            rng.choice(phrases)[rng.randrange(2) :] if rng.random() < 0.7 else rng.choice(chars)
            for _ in range(rng.randint(1, 4))
        ]
        if rng.random() < 0.05:
            parts.insert(rng.randrange(len(parts) + 1), rng.choice(odd))
        texts.append("".join(parts))
    assert [t for t in texts if per_character(t) != pypinyin_reads(t)] == []
