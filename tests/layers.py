"""The floors of the house, declared in one place, and the import graph they are checked on.

Every module of `app`, `sources` and `rules` is parsed with `ast`; every import counts, at
module level, inside functions and under `if TYPE_CHECKING` alike. `from pkg import name` is
an import of the module `pkg.name` when there is one (a submodule), else of `pkg` itself (a
name its `__init__` defines or re-exports). A floor may import its own floor and the ones
below; an import from a lower floor up to a higher one is a design question, answered by
moving the definition to the floor both can reach (STYLE.md), or allowed by name with its
reason in `ALLOWED_UPWARD` (tests/test_layers.py).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sources", "rules", "app")

FLOORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("sources", ("sources",)),  # ticket data model, adapters, stations, sandbox: nothing of app
    ("rules", ("rules",)),  # the pure rule engine over the sources' data model
    (
        "base",  # what every floor of app stands on: configuration, clocks, errors, watching
        (
            "app",  # the package itself: its version
            "app.settings",
            "app.runtime",
            "app.errors",
            "app.policy",
            "app.observability",
            "app.gcra",
            "app.redis_url",
            "app.redis_client",
            "app.redis_health",
            "app.access",
        ),
    ),
    ("tickets", ("app.tickets",)),  # the query service: guards, fan-out, caches, freshness
    ("intent", ("app.intent",)),  # text → a validated TravelIntent
    ("agent", ("app.agent",)),  # the planning state machine
    ("services", ("app.sessions", "app.services")),  # what the use cases run on
    ("use cases", ("app.usecases",)),  # one home per use case
    ("tools", ("app.tools",)),  # read-only tools for the agent's tool mode and MCP
    (
        "faces",  # each translates its protocol to the use cases and back
        ("app.http", "app.mcp", "app.cli.commands", "app.cli.render", "app.playground"),
    ),
    ("composition root", ("app.wiring", "app.main")),  # where the app is wired and served
    (
        "drivers",  # entry points that start the root: argv, uvicorn, the evaluations
        ("app.cli", "app.__main__", "app.serving", "app.evaluation"),
    ),
)


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the packages by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def _resolve(target: str, known: Iterable[str]) -> str | None:
    """The module an import names: itself, else its nearest enclosing package."""
    names = set(known)
    while target and target not in names:
        target = target.rpartition(".")[0]
    return target or None


def imports(known: dict[str, Path]) -> dict[str, set[str]]:
    """Each module's imports of the others (module level, functions, TYPE_CHECKING)."""
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    targets.append(submodule if submodule in known else node.module)
            for target in targets:
                resolved = _resolve(target, known)
                if resolved is not None and resolved != name:
                    edges[name].add(resolved)
    return edges


def floor_of(module: str) -> int:
    """The index of the floor a module is on (the most specific declaration wins)."""
    best, depth = -1, -1
    for index, (_, prefixes) in enumerate(FLOORS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > depth:
                best, depth = index, len(prefix)
    if best < 0:
        raise LookupError(f"{module} is on no floor: declare it in tests/layers.py FLOORS")
    return best


@dataclass(frozen=True, order=True)
class Upward:
    """One import from a lower floor up to a higher one."""

    importer: str
    imported: str

    def __str__(self) -> str:
        below, above = FLOORS[floor_of(self.importer)][0], FLOORS[floor_of(self.imported)][0]
        return f"{self.importer} ({below}) -> {self.imported} ({above})"


def upward(edges: dict[str, set[str]]) -> list[Upward]:
    """Every import that runs from a lower floor up to a higher one."""
    return sorted(
        Upward(a, b) for a, targets in edges.items() for b in targets if floor_of(b) > floor_of(a)
    )


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # Iterative: a recursive walk of a few hundred modules is fine, but needs no limit.
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for name in sorted(edges):
        if name not in index:
            visit(name)
    return found
