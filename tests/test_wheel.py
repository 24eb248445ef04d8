"""Packaging: the wheel holds one `chanspec` namespace with the rule table, and works alone.

Builds the wheel, installs it (without dependencies: the CLI needs only the standard
library) into a fresh virtual environment that does not see the checkout or the system
site-packages, and runs the installed ``chanspec`` from a directory outside the checkout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HAND = "2v 2v 3n 3n 4s 4s 5v 5v 6n 6n 7s 8v 8v 9n 9n 1v 1v 2n 2n 3s 3s 4v 4v".split()


def _run(
    cmd: list[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(cmd)} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
         cwd=ROOT)
    wheels = list(out.glob("chanspec-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_wheel_contents(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "chanspec/spec/family.toml" in names
    assert "chanspec/spec/scales/tan.toml" in names  # the scales `check --ruleset tan` reads
    for mod in ("model/table.py", "model/chan/win.py", "model/chan/cards.py", "checks/cli/app.py",
                "checks/cli/cmd_win.py", "checks/findings/questions.py"):
        assert f"chanspec/{mod}" in names, mod
    tops = {n.split("/", 1)[0] for n in names}
    assert not tops & {"model", "checks", "spec", "tests", "bench"}, tops
    assert {t for t in tops if not t.endswith(".dist-info")} == {"chanspec"}
    entry = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "chanspec = chanspec.checks.cli:main" in zipfile.ZipFile(wheel).read(entry).decode()


def test_installed_wheel_runs_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    py = bindir / "python"
    _run([str(py), "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", str(wheel)],
         cwd=tmp_path)
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"

    where = _run([str(py), "-c", "import chanspec.model.table as t, chanspec.checks.cli as c; "
                  "print(t.__file__); print(c.__file__); print(t.builtin_path('family'))"],
                 cwd=work, env=env).stdout.splitlines()
    for path in where:
        assert Path(path).resolve().is_relative_to(env_dir.resolve()), where
        assert not Path(path).resolve().is_relative_to(ROOT), where

    chanspec = str(bindir / "chanspec")
    helped = _run([chanspec, "--help"], cwd=work, env=env).stdout
    assert "win" in helped and "questions" in helped and "judge whether a hand wins" in " ".join(
        helped.split())

    out = _run([chanspec, "win", *HAND, "--with", "7s", "--json"], cwd=work, env=env).stdout
    obj = json.loads(out)
    assert obj["win"] is True and obj["chan"] == 12 and ["7s", "7s"] in obj["pairs"]
    assert obj["rules"] == ["win-shape", "win-counts"]

    text = _run([chanspec, "win", *HAND, "--with", "7s", "--players", "4"], cwd=work, env=env)
    assert "Kết quả: Ù" in text.stdout and "win-shape" in text.stdout

    bad = subprocess.run([chanspec, "win", *HAND, "--with", "7x"], cwd=work, env=env,
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "unknown card" in bad.stderr and "Traceback" not in bad.stderr
