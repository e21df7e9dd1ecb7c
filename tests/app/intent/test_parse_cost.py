"""Bounded work per request: the offline parser is linear in its input. Adversarial texts
(long digit runs, numerals, repeated dates, random text over the characters the parser's
patterns care about) cost at most a few times a normal text of the same length, and doubling
an input at most about doubles its cost. Only ratios of CPU times measured in one run are
compared, never absolute timings (the box is shared)."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.intent.numerals import to_number
from app.intent.offline import parse_offline
from sources.stations import StationDirectory
from tests.app.intent.conftest import TODAY

NORMAL = "下周五从北京去上海玩三天，预算两千左右，两个大人一个孩子，不要无座"
LENGTH = 1000  # the API's cap on a request's text
# Every character some pattern of the parser starts, continues or anchors on.
HOT = (
    "0123456789一二两三四五六七八九十百千万零〇.:- kKwW"
    "天日晚夜人张位口元块月号周点半到去从至后前早晚上下"
)


def cpu_ms(parse: Callable[[str], object], text: str, runs: int = 5) -> float:
    """The fastest of a few runs: the least disturbed by the other processes on the box."""
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        parse(text)
        best = min(best, time.process_time() - started)
    return max(best, 1e-5) * 1000


@pytest.fixture(scope="module")
def parse(directory_module: StationDirectory) -> Callable[[str], object]:
    return lambda text: parse_offline(text, TODAY, directory_module)


@pytest.fixture(scope="module")
def directory_module() -> StationDirectory:
    from sources.stations import curated_directory

    return curated_directory()


@pytest.fixture(scope="module")
def normal_ms(parse) -> float:
    """A normal text of the API's maximum length: ordinary sentences, one after another."""
    parse(NORMAL)  # warm the pattern caches
    return cpu_ms(parse, (NORMAL * (LENGTH // len(NORMAL) + 1))[:LENGTH])


ADVERSARIAL = {
    "digits": "1" * LENGTH,
    "digits and spaces": "1 " * (LENGTH // 2),
    "chinese numerals": "一" * LENGTH,
    "mixed numerals": "一2" * (LENGTH // 2),
    "decimal points": "1." * (LENGTH // 2),
    "dates": "12月5日" * (LENGTH // 5),
    "clock times": "12:30" * (LENGTH // 5),
    "train numbers": "G1 " * (LENGTH // 3),
    "counts without units": "3个" * (LENGTH // 2),
}


@pytest.mark.parametrize("name", list(ADVERSARIAL))
def test_an_adversarial_text_costs_at_most_five_times_a_normal_text_of_its_length(
    parse, normal_ms, name
) -> None:
    text = ADVERSARIAL[name]
    assert len(text) <= LENGTH
    assert cpu_ms(parse, text) <= 5 * normal_ms


@pytest.mark.parametrize("name", ["digits", "chinese numerals", "decimal points", "dates"])
def test_doubling_an_adversarial_text_twice_costs_about_four_times_not_sixteen(parse, name) -> None:
    unit = ADVERSARIAL[name]
    small, large = cpu_ms(parse, unit), cpu_ms(parse, unit * 4)
    # Linear: x4; the quadratic digit run of the past cost x16 (250/500/1,000 digits:
    # 135/502/1,959 ms). x8 leaves room for noise and still fails anything quadratic.
    assert large <= 8 * small


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.text(alphabet=HOT, min_size=LENGTH, max_size=LENGTH))
def test_random_text_over_the_parsers_hot_characters_stays_linear(parse, normal_ms, text) -> None:
    try:
        cost = cpu_ms(parse, text, runs=3)
    except ValueError:  # an out-of-range reading (7,000 passengers) is the caller's to catch
        return
    assert cost <= 5 * normal_ms


@pytest.mark.parametrize("span", ["一" * 400, "9" * 400, "1e999"])
def test_a_number_too_large_for_a_float_is_no_number(span: str) -> None:
    assert to_number(span) is None
