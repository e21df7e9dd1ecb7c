""".ci/install-promtool: a no-op when promtool is present, a loud failure when it cannot install."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from tests.deploy.conftest import ROOT

SCRIPT = ROOT / ".ci" / "install-promtool"
BASH = shutil.which("bash") or "/bin/bash"
CHMOD = shutil.which("chmod") or "/bin/chmod"


def run_with_path(path_dirs: list[Path]) -> subprocess.CompletedProcess[str]:
    """Run the script with PATH limited to `path_dirs`, so tests decide what it can find."""
    env = {"PATH": os.pathsep.join(str(d) for d in path_dirs), "HOME": os.environ.get("HOME", "/")}
    return subprocess.run(
        [BASH, str(SCRIPT)], env=env, capture_output=True, text=True, timeout=30, check=False
    )


def tool(directory: Path, name: str, body: str = "exit 0") -> None:
    script = directory / name
    script.write_text(f"#!{BASH}\n{body}\n")
    script.chmod(0o755)


def test_script_is_executable_valid_bash() -> None:
    assert os.access(SCRIPT, os.X_OK)
    result = subprocess.run([BASH, "-n", str(SCRIPT)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_does_nothing_when_promtool_is_already_installed(tmp_path: Path) -> None:
    # apt-get here would record that it ran: it must not.
    tool(tmp_path, "promtool")
    tool(tmp_path, "apt-get", f"touch {tmp_path}/apt-get-ran")
    result = run_with_path([tmp_path])
    assert result.returncode == 0, result.stderr
    assert "already installed" in result.stdout
    assert not (tmp_path / "apt-get-ran").exists()


def test_fails_loudly_when_promtool_is_missing_and_apt_get_is_unavailable(tmp_path: Path) -> None:
    tool(tmp_path, "id", "echo 0")
    result = run_with_path([tmp_path])
    assert result.returncode != 0
    assert "apt-get unavailable" in result.stderr


def test_fails_when_the_package_installs_no_promtool(tmp_path: Path) -> None:
    # A stand-in apt-get that "succeeds" without providing promtool.
    tool(tmp_path, "id", "echo 0")
    tool(tmp_path, "apt-get", f'echo "$@" >> {tmp_path}/apt-get-calls')
    result = run_with_path([tmp_path])
    assert result.returncode != 0
    assert "promtool is not on PATH" in result.stderr
    calls = (tmp_path / "apt-get-calls").read_text().splitlines()
    assert calls[0].startswith("update")
    assert "install" in calls[1] and "--no-install-recommends" in calls[1]
    assert calls[1].split()[-1] == "prometheus"


def test_installs_through_apt_get_and_reports_the_version(tmp_path: Path) -> None:
    # The stand-in apt-get "installs" a promtool on PATH, as the Debian package does.
    tool(tmp_path, "id", "echo 0")
    tool(tmp_path, "head", 'read -r line; echo "$line"')
    tool(
        tmp_path,
        "apt-get",
        f'if [[ "$*" == *install* ]]; then '
        f"printf '#!{BASH}\\necho promtool, version 9.9.9\\n' > {tmp_path}/promtool; "
        f"{CHMOD} +x {tmp_path}/promtool; fi",
    )
    result = run_with_path([tmp_path])
    assert result.returncode == 0, result.stderr
    assert "promtool installed" in result.stdout
    assert "version 9.9.9" in result.stdout
