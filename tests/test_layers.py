"""The house, measured from its imports: no import circle, every module on a declared floor
(tests/layers.py), and imports that run down the floors, but for the few named here."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.layers import FLOORS, Upward, cycles, floor_of, imports, modules, upward

ALLOWED_UPWARD: dict[tuple[str, str], str] = {}
"""(importer, imported) → why this import may run up a floor. At most two; none is needed."""

KNOWN = modules()
EDGES = imports(KNOWN)


def test_there_is_no_import_circle() -> None:
    assert cycles(EDGES) == []


def test_every_module_is_on_a_declared_floor() -> None:
    unplaced = []
    for name in KNOWN:
        try:
            floor_of(name)
        except LookupError:
            unplaced.append(name)
    assert unplaced == []


def test_imports_run_down_the_floors_but_for_the_named_exceptions() -> None:
    assert len(ALLOWED_UPWARD) <= 2
    found = {(u.importer, u.imported) for u in upward(EDGES)}
    unexplained = sorted(str(Upward(*pair)) for pair in found - set(ALLOWED_UPWARD))
    assert unexplained == []
    assert set(ALLOWED_UPWARD) <= found, "an allowed upward import that no longer exists"


def test_the_lower_floors_keep_their_contract() -> None:
    # README "Layout": sources imports nothing of app or rules; rules only the data model and
    # the railway's fare rules (pure functions over it: a party is priced per ticket kind).
    outside = {
        (a, b)
        for a, targets in EDGES.items()
        for b in targets
        if (a.startswith("sources") and not b.startswith("sources"))
        or (
            a.startswith("rules")
            and not b.startswith(("rules", "sources.models", "sources.fare_rules"))
        )
    }
    assert outside == set()


def test_floors_are_declared_once_each() -> None:
    prefixes = [p for _, declared in FLOORS for p in declared]
    assert len(prefixes) == len(set(prefixes))


# -- the analysis itself, on a package written here: it must see what it claims to -------------


def _package(root: Path, files: dict[str, str]) -> dict[str, set[str]]:
    for relative, text in files.items():
        path = root / "app" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return imports(modules(root))


def test_function_level_type_checking_and_re_exported_imports_are_all_seen(
    tmp_path: Path,
) -> None:
    edges = _package(
        tmp_path,
        {
            "__init__.py": "",
            "low/__init__.py": "from app.low.core import thing\n",
            "low/core.py": "thing = 1\n",
            "low/other.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from app.high import view\n"
                "def f():\n    import app.mid\n"
            ),
            "mid.py": "from app.low import thing\nfrom app.low import core\n",
            "high.py": "view = 1\n",
        },
    )
    assert edges["app.low.other"] == {"app.high", "app.mid"}
    # `from app.low import core` is the submodule; `thing` is the package's re-export.
    assert edges["app.mid"] == {"app.low", "app.low.core"}
    assert edges["app.low"] == {"app.low.core"}


def test_a_circle_through_a_package_re_export_is_caught(tmp_path: Path) -> None:
    edges = _package(
        tmp_path,
        {
            "__init__.py": "",
            "pkg/__init__.py": "from app.pkg.a import A\n",
            "pkg/a.py": "from app.pkg.b import B\nA = 1\n",
            "pkg/b.py": "from app.pkg import A\nB = 2\n",  # the package, mid-import: a circle
        },
    )
    assert cycles(edges) == [["app.pkg", "app.pkg.a", "app.pkg.b"]]


def test_an_import_up_a_floor_is_named_with_both_floors() -> None:
    found = upward({"app.tickets.x": {"app.agent.y"}, "app.agent.y": {"app.tickets.x"}})
    assert found == [Upward("app.tickets.x", "app.agent.y")]
    assert str(found[0]) == "app.tickets.x (tickets) -> app.agent.y (agent)"


@pytest.mark.parametrize(
    ("module", "floor"),
    [
        ("app.cli.render", "faces"),  # the most specific declaration wins over app.cli's
        ("app.cli", "drivers"),
        ("app.observability.requests", "base"),
        ("app.tools.runner", "tools"),
    ],
)
def test_a_module_is_on_its_most_specific_floor(module: str, floor: str) -> None:
    assert FLOORS[floor_of(module)][0] == floor
