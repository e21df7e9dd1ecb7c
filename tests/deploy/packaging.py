"""Build railtrip's wheel and install it into a fresh venv, offline.

What `pip install .` and the image's build stage do, without the network: the wheel is built
from a copy of the checkout with the dev venv's setuptools (`--no-build-isolation`), then
installed `--no-deps --no-index` into a new venv that sees the dev venv's site-packages
through a .pth file (the pinned runtime dependencies are already there). The copy keeps the
build's own files (build/, *.egg-info) out of the checkout.
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import sysconfig
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.redis_server import free_port

ROOT = Path(__file__).resolve().parents[2]
# Not part of what `pip install .` sees in a fresh clone (or rebuilt by it).
NOT_SOURCES = shutil.ignore_patterns(
    ".git",
    ".venv",
    "__pycache__",
    "*.pyc",
    "build",
    "dist",
    "*.egg-info",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".hypothesis",
    ".cache",
    "test-artifacts",
    ".env",
)
BOUND_S = 120  # for a loaded 2-core machine, not an assertion about speed


@dataclass(frozen=True)
class Installed:
    """The built wheel and the fresh venv it is installed in."""

    wheel: Path
    venv: Path

    @property
    def bin(self) -> Path:
        return self.venv / "bin"

    @property
    def python(self) -> Path:
        return self.bin / "python"

    def names(self) -> list[str]:
        with zipfile.ZipFile(self.wheel) as archive:
            return archive.namelist()

    def read(self, name: str) -> str:
        with zipfile.ZipFile(self.wheel) as archive:
            return archive.read(name).decode("utf-8")


def run(*args: str | Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run a command with a time bound; raise with its output when it fails."""
    result = subprocess.run(
        [str(a) for a in args],
        capture_output=True,
        text=True,
        timeout=BOUND_S,
        check=False,
        **kwargs,  # type: ignore[call-overload]
    )
    assert result.returncode == 0, f"{args}: {result.stdout}\n{result.stderr}"
    return result


def clean_env(home: Path) -> dict[str, str]:
    """The environment of a user who has only installed railtrip: no RAILTRIP_ settings, no
    PYTHONPATH (so nothing of the checkout can be imported), an empty home."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAILTRIP_", "PYTHON"))}
    env["HOME"] = str(home)
    return env


def build_and_install(work: Path) -> Installed:
    """Build the wheel from a copy of the checkout and install it into a fresh venv."""
    source = work / "checkout"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCES)
    dist = work / "dist"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    run(*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", dist, source)
    (wheel,) = dist.glob("railtrip-*.whl")
    venv = work / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    fresh = Installed(wheel, venv)
    site = run(fresh.python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
    dev_site = sysconfig.get_paths()["purelib"]
    (Path(site.stdout.strip()) / "railtrip-dev-deps.pth").write_text(dev_site + "\n")
    run(*pip, "--python", fresh.python, "install", "--no-deps", "--no-index", wheel)
    return fresh


@contextmanager
def serving(argv: list[str | Path], cwd: Path, env: dict[str, str]) -> Iterator[str]:
    """Run a server command with `--host 127.0.0.1 --port <free>` appended; yield its base URL
    once uvicorn says it is running (its stderr is read line by line, no sleeping)."""
    port = free_port()
    proc = subprocess.Popen(
        [str(a) for a in argv] + ["--host", "127.0.0.1", "--port", str(port)],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str | None] = queue.Queue()
    assert proc.stderr is not None
    stderr = proc.stderr

    def read() -> None:
        for line in stderr:
            lines.put(line)
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    seen: list[str] = []
    try:
        while not any("Uvicorn running on" in line for line in seen):
            line = lines.get(timeout=BOUND_S)
            assert line is not None, "the server exited before serving:\n" + "".join(seen)
            seen.append(line)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        reader.join(timeout=30)
