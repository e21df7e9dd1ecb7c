"""The repository's documents stand alone: nothing sends a reader to a file outside it.

The design contract is not in the repository, so nothing may cite it; the operator's pages
(README.md, deploy/README.md, bench/README.md) name only paths that exist in the checkout
and link only inside it. Generators that read the reference data kept beside a checkout
(build_*.py, and tests of their output) take its folder as an argument and are not docs.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.deploy.packaging import ROOT

PAGES = [ROOT / "README.md", ROOT / "deploy" / "README.md", ROOT / "bench" / "README.md"]
TOP = r"(?:app|sources|rules|tests|deploy|bench|scripts|\.ci)"
REPO_PATH = re.compile(rf"^(?:\.venv/bin/python )?({TOP}/[\w./*-]*\w/?)")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    ).stdout.splitlines()
    files = [ROOT / name for name in listed]
    return [f for f in files if f.is_file() and f.suffix not in (".gz", ".png", ".pyc")]


def test_no_file_cites_the_design_document_that_is_not_in_the_repository() -> None:
    citing = [
        str(path.relative_to(ROOT))
        for path in tracked_text_files()
        if path.name != Path(__file__).name
        and re.search(r"DESIGN(\.md| §)", path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert citing == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_path_a_page_names_is_in_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    named = {m.group(1) for tok in re.findall(r"`([^`\n]+)`", text) if (m := REPO_PATH.match(tok))}
    assert named, "expected the page to name repository paths"
    missing = [
        path
        for path in sorted(named)
        if not (list(ROOT.glob(path)) if "*" in path else (ROOT / path).exists())
    ]
    assert missing == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_stays_inside_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+://", target):
            continue
        resolved = (page.parent / target).resolve()
        assert resolved.is_relative_to(ROOT), f"{target} leaves the repository"
        assert resolved.exists(), f"{target} does not exist"
    assert "../shared" not in text
    assert "/work/" not in text
