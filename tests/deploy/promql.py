"""Just enough PromQL reading to list the metric names an expression selects."""

from __future__ import annotations

import re

# Label matchers and range/offset durations hold no metric names (and may hold strings).
_MATCHERS = re.compile(r"\{[^{}]*\}")
_RANGES = re.compile(r"\[[^\[\]]*\]")
# Grouping and vector-matching clauses list label names, not metrics.
_CLAUSES = re.compile(
    r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^()]*\)", re.IGNORECASE
)
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')
# An identifier not followed by "(" (that would be a function call).
_IDENT = re.compile(r"(?<![\w:.$])([A-Za-z_:][\w:]*)\b(?!\s*\()")
_KEYWORDS = frozenset(
    {
        "and",
        "or",
        "unless",
        "by",
        "without",
        "on",
        "ignoring",
        "group_left",
        "group_right",
        "offset",
        "bool",
        "inf",
        "nan",
        "le",
    }
)


def metric_names(expr: str) -> set[str]:
    """Metric (and recording-rule) names selected by a PromQL expression."""
    text = _STRINGS.sub('""', expr)
    text = _MATCHERS.sub(" ", text)
    text = _RANGES.sub(" ", text)
    text = _CLAUSES.sub(" ", text)
    return {name for name in _IDENT.findall(text) if name.lower() not in _KEYWORDS}
