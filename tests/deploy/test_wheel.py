"""The installable package: `pip install .` gives a `railtrip` that works from any directory.

The wheel is built offline from a copy of the checkout and installed into a fresh venv
(tests/deploy/packaging.py); every command below runs in an empty directory with no
PYTHONPATH and no RAILTRIP_ settings, so only what the wheel carries can be read. Serving
from it (`/readyz`, tickets, the page) is tests/deploy/test_image.py, which runs the image's
own command on the same install.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from mcp import Client, StdioServerParameters

from app import __version__
from tests.deploy.packaging import ROOT, Installed, clean_env, run

# What the code reads at run time: generated data beside the package that reads it.
DATA_DIRS = ["sources/data", "rules/data", "app/playground/static"]
COMMANDS = ["serve", "mcp", "plan", "tickets", "stops", "stations", "eval-intent", "eval-plans"]


def checkout_data_files() -> list[str]:
    """Every data file under the data folders, generators (.py) aside."""
    files = []
    for folder in DATA_DIRS:
        for path in sorted((ROOT / folder).rglob("*")) if (ROOT / folder).is_dir() else []:
            if path.is_file() and path.suffix not in (".py", ".pyc"):
                files.append(path.relative_to(ROOT).as_posix())
    return files


def pins(requirements: Path) -> list[str]:
    lines = requirements.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def test_the_wheel_carries_the_three_packages_and_every_data_file_the_code_reads(
    installed: Installed,
) -> None:
    names = installed.names()
    data = checkout_data_files()
    assert {"sources/data/official_stations.csv", "app/playground/static/index.html"} <= set(data)
    assert any(name.endswith("network.json.gz") for name in data)
    assert [name for name in data if name not in names] == []
    top = {name.split("/")[0] for name in names}
    assert top == {"app", "sources", "rules", f"railtrip-{__version__}.dist-info"}
    # Generators, tests and bytecode are not shipped.
    assert not [n for n in names if re.search(r"(^|/)build_\w+\.py$|__pycache__|\.pyc$", n)]
    assert f"railtrip-{__version__}.dist-info/licenses/LICENSE" in names


def test_the_wheel_pins_the_runtime_dependencies_and_offers_the_tools_as_an_extra(
    installed: Installed,
) -> None:
    metadata = installed.read(f"railtrip-{__version__}.dist-info/METADATA").splitlines()
    requires = [
        line.removeprefix("Requires-Dist: ") for line in metadata if "Requires-Dist" in line
    ]
    runtime = [r for r in requires if "extra ==" not in r]
    dev = [r.split(";")[0] for r in requires if r.endswith('extra == "dev"')]
    assert runtime == pins(ROOT / "requirements.txt")
    assert dev == pins(ROOT / "requirements-dev.txt")
    assert all("==" in r for r in runtime)
    assert not {"pytest", "mypy", "playwright", "schemathesis"} & {
        r.split("==")[0] for r in runtime
    }
    assert f"Version: {__version__}" in metadata
    assert "License-Expression: MIT" in metadata
    entry_points = installed.read(f"railtrip-{__version__}.dist-info/entry_points.txt")
    assert "railtrip = app.cli:main" in entry_points


def test_one_version_for_the_package_the_server_and_openapi() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "app.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_railtrip_help_and_version_from_any_directory(installed: Installed, tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    helped = run(installed.bin / "railtrip", "--help", cwd=tmp_path, env=env).stdout
    assert helped.startswith("usage: railtrip ")
    assert [c for c in COMMANDS if c not in helped] == []
    version = run(installed.bin / "railtrip", "--version", cwd=tmp_path, env=env).stdout
    assert version.strip() == f"railtrip {__version__}"


def test_the_installed_package_reads_its_network_and_stations_from_the_wheel(
    installed: Installed, tmp_path: Path
) -> None:
    probe = (
        "import json, app, sources.stations as s, sources.sandbox.network as n\n"
        "print(json.dumps({'app': app.__file__, 'stations': len(s.default_directory()),"
        " 'trains': len(n.default_network().runs)}))"
    )
    out = run(installed.python, "-c", probe, cwd=tmp_path, env=clean_env(tmp_path)).stdout
    found = json.loads(out)
    assert Path(found["app"]).is_relative_to(installed.venv)  # not the checkout
    assert found["stations"] == 3364
    assert found["trains"] == 7749


async def test_railtrip_mcp_over_stdio_reports_the_version(
    installed: Installed, tmp_path: Path
) -> None:
    env = clean_env(tmp_path) | {"RAILTRIP_LOG_LEVEL": "WARNING"}
    server = StdioServerParameters(
        command=str(installed.bin / "railtrip"), args=["mcp"], cwd=tmp_path, env=env
    )
    async with Client(server, cache=None) as client:
        info = client.server_info
        tools = {tool.name for tool in (await client.list_tools()).tools}
    assert info is not None and info.name == "railtrip" and info.version == __version__
    assert {"search_tickets", "plan_trip", "check_booking"} <= tools
