""".ci/install-test-tools, which `make test` runs first: on a bare machine it installs the Debian
packages the suite drives (as root), or stops at once with the one command to run.

This machine has every tool, so each case runs the script with PATH limited to a folder of
stand-ins (dpkg-query, apt-get, id, sudo, promtool, kubectl) and the chromium path pointed
into it: the tests decide what the script finds, and a stand-in apt-get records its calls.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.deploy.conftest import ROOT

SCRIPT = ROOT / ".ci" / "install-test-tools"
BASH = shutil.which("bash") or "/bin/bash"
CHMOD = shutil.which("chmod") or "/bin/chmod"
TOUCH = shutil.which("touch") or "/usr/bin/touch"
EVERY_PACKAGE = ["chromium", "fonts-wqy-zenhei", "prometheus", "kubernetes-client"]


class Machine:
    """A folder of stand-in programs the script sees as its whole PATH."""

    def __init__(self, root: Path) -> None:
        self.bin = root / "bin"
        self.bin.mkdir()
        self.chromium = root / "chromium"
        self.calls = root / "apt-get-calls"
        for name in ("grep", "cat"):  # real ones: the script pipes through grep
            (self.bin / name).symlink_to(shutil.which(name) or f"/bin/{name}")
        self.fonts(installed=False)

    def tool(self, name: str, body: str = "exit 0") -> None:
        script = self.bin / name
        script.write_text(f"#!{BASH}\n{body}\n")
        script.chmod(0o755)

    def fonts(self, installed: bool) -> None:
        status = "install ok installed" if installed else ""
        self.tool("dpkg-query", f"printf '%s' '{status}'; [ -n '{status}' ]")

    def has_everything(self) -> None:
        self.chromium.write_text("")
        self.chromium.chmod(0o755)
        self.fonts(installed=True)
        self.tool("promtool")
        self.tool("kubectl")

    def apt_get(self, provides: bool) -> None:
        """apt-get that records its arguments and, when `provides`, installs what is asked."""
        installs = (
            f"{TOUCH} {self.chromium}; {CHMOD} +x {self.chromium}; "
            f"printf '#!{BASH}\\nprintf \"install ok installed\"\\n' > {self.bin}/dpkg-query; "
            f"printf '#!{BASH}\\nexit 0\\n' > {self.bin}/promtool; "
            f"printf '#!{BASH}\\nexit 0\\n' > {self.bin}/kubectl; "
            f"{CHMOD} +x {self.bin}/dpkg-query {self.bin}/promtool {self.bin}/kubectl"
        )
        body = f'echo "$@" >> {self.calls}'
        if provides:
            body += f'\nif [[ "$*" == *install* ]]; then {installs}; fi'
        self.tool("apt-get", body)

    def run(self) -> subprocess.CompletedProcess[str]:
        env = {
            "PATH": str(self.bin),
            "HOME": os.environ.get("HOME", "/"),
            "TEST_TOOLS_CHROMIUM": str(self.chromium),
        }
        return subprocess.run(
            [BASH, str(SCRIPT)], env=env, capture_output=True, text=True, timeout=30, check=False
        )

    def apt_calls(self) -> list[str]:
        return self.calls.read_text().splitlines() if self.calls.exists() else []


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return Machine(tmp_path)


def test_script_is_executable_valid_bash() -> None:
    assert os.access(SCRIPT, os.X_OK)
    result = subprocess.run([BASH, "-n", str(SCRIPT)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_does_nothing_when_every_tool_is_there(machine: Machine) -> None:
    machine.has_everything()
    machine.apt_get(provides=True)
    machine.tool("id", "echo 0")
    result = machine.run()
    assert result.returncode == 0, result.stderr
    assert "test tools present" in result.stdout
    assert machine.apt_calls() == []


def test_as_root_on_a_bare_machine_installs_every_package_through_apt_get(
    machine: Machine,
) -> None:
    machine.tool("id", "echo 0")
    machine.apt_get(provides=True)
    result = machine.run()
    assert result.returncode == 0, result.stderr
    update, install = machine.apt_calls()
    assert update.startswith("update")
    assert install.split()[:4] == ["install", "-y", "-qq", "--no-install-recommends"]
    assert install.split()[4:] == EVERY_PACKAGE
    assert "test tools installed" in result.stdout


def test_installs_only_what_is_missing(machine: Machine) -> None:
    machine.has_everything()
    (machine.bin / "kubectl").unlink()
    machine.tool("id", "echo 0")
    machine.apt_get(provides=True)
    result = machine.run()
    assert result.returncode == 0, result.stderr
    assert machine.apt_calls()[-1].split()[-1] == "kubernetes-client"
    assert "chromium" not in machine.apt_calls()[-1]


def test_without_root_or_sudo_it_stops_at_once_with_the_one_command(machine: Machine) -> None:
    machine.tool("id", "echo 1000")
    machine.apt_get(provides=True)
    result = machine.run()
    assert result.returncode != 0
    assert machine.apt_calls() == []  # nothing attempted
    command = [line for line in result.stderr.splitlines() if line.startswith("  sudo")]
    assert command == [
        "  sudo sh -c 'apt-get update && apt-get install -y --no-install-recommends "
        + " ".join(EVERY_PACKAGE)
        + "'"
    ]


def test_with_passwordless_sudo_it_installs_through_sudo(machine: Machine) -> None:
    machine.tool("id", "echo 1000")
    machine.tool("sudo", f'echo "sudo $*" >> {machine.calls}; [ "$1" = -n ] && exit 0; "$@"')
    machine.apt_get(provides=True)
    result = machine.run()
    assert result.returncode == 0, result.stderr
    calls = machine.apt_calls()
    assert "sudo apt-get update -qq" in calls
    assert any(c.startswith("sudo apt-get install") for c in calls)


def test_fails_when_apt_get_installs_nothing(machine: Machine) -> None:
    machine.tool("id", "echo 0")
    machine.apt_get(provides=False)
    result = machine.run()
    assert result.returncode != 0
    assert "still missing after apt-get: " + " ".join(EVERY_PACKAGE) in result.stderr


def test_fails_loudly_without_apt_get(machine: Machine) -> None:
    machine.tool("id", "echo 0")
    result = machine.run()
    assert result.returncode != 0
    assert "apt-get is unavailable" in result.stderr


def test_make_test_installs_the_tools_before_it_runs_the_suite() -> None:
    dry = subprocess.run(
        ["make", "-n", "test"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    tools = next(i for i, line in enumerate(dry) if ".ci/install-test-tools" in line)
    suite = next(i for i, line in enumerate(dry) if "-m pytest" in line)
    assert tools < suite


def test_ci_runs_the_readme_command() -> None:
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert "make test" in lines
    assert not any("apt-get" in line for line in lines)  # make test installs, not CI alone


def test_make_run_installs_the_runtime_pins_only(tmp_path: Path) -> None:
    # A venv that does not exist yet: make prints every step it would take to serve.
    dry = subprocess.run(
        ["make", "-n", "run", f"VENV={tmp_path / 'venv'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    installs = [line for line in dry.splitlines() if "pip install" in line]
    assert installs and all(line.endswith("-r requirements.txt") for line in installs)
    assert "requirements-dev.txt" not in dry and "install-test-tools" not in dry
