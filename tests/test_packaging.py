"""The package as people install it: pyproject.toml builds a wheel that carries the data files, and its
`explainer` console script runs outside the source tree (the same program as `python -m explainer`).

The wheel is built and installed into a fresh virtual environment that sees the already installed dependencies
(a .pth line) but not the source tree, so the test needs no network and takes seconds. The full check, with
the dependencies resolved from pyproject.toml, is `python3 -m venv /tmp/v && /tmp/v/bin/pip install . &&
/tmp/v/bin/explainer bleu --help` (README, "Install")."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
from pathlib import Path

import pytest

from tests.conftest import ROOT


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv directory, environment for subprocesses) with the built wheel installed."""
    tmp = tmp_path_factory.mktemp("package")
    src = tmp / "src"
    src.mkdir()
    shutil.copy(ROOT / "pyproject.toml", src)
    shutil.copy(ROOT / "README.md", src)
    shutil.copytree(ROOT / "explainer", src / "explainer", ignore=shutil.ignore_patterns("__pycache__"))
    wheels = tmp / "wheels"
    p = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                        str(wheels), str(src)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    (wheel,) = wheels.glob("*.whl")
    env_dir = tmp / "venv"
    venv.create(env_dir, with_pip=False)
    py = env_dir / "bin" / "python"
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # the dependencies: the test environment's site-packages (not the source tree)
    (Path(site) / "_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps",
                        "--no-index", str(wheel)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return env_dir, env, tmp


def test_console_script_runs_outside_the_source_tree(installed):
    env_dir, env, tmp = installed
    exe = env_dir / "bin" / "explainer"
    p = subprocess.run([str(exe), "bleu", "--help"], capture_output=True, text=True, cwd=tmp, env=env, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("usage: explainer bleu") and "--bootstrap N" in p.stdout
    where = subprocess.run([str(env_dir / "bin" / "python"), "-c", "import explainer; print(explainer.__file__)"],
                           capture_output=True, text=True, cwd=tmp, env=env, check=True).stdout
    assert where.startswith(str(env_dir)), where
    seg = json.dumps({"candidate": "the cat sat on the mat", "references": ["the cat is on the mat"]}) + "\n"
    same = [subprocess.run(cmd, input=seg, capture_output=True, text=True, cwd=tmp, env=env, timeout=120)
            for cmd in ([str(exe), "bleu", "--jsonl", "-"],
                        [str(env_dir / "bin" / "python"), "-m", "explainer", "bleu", "--jsonl", "-"])]
    assert same[0].returncode == same[1].returncode == 0 and same[0].stdout == same[1].stdout, same[0].stderr
    assert json.loads(same[0].stdout)["counts"] == [5, 3, 1, 0]


def test_wheel_carries_the_rouge155_data_files(installed):
    """ROUGE-1.5.5's -m uses the WordNet exception list shipped as a data file: 'took' -> 'take'."""
    env_dir, env, tmp = installed
    seg = json.dumps({"candidate": "they took it", "references": ["they take it"]}) + "\n"
    p = subprocess.run([str(env_dir / "bin" / "explainer"), "rouge", "--jsonl", "-", "--dialect", "rouge155",
                        "--stem", "--types", "rouge1"], input=seg, capture_output=True, text=True, cwd=tmp, env=env,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["rouge1"]["recall"] == 1.0


def test_pyproject_declares_the_runtime_requirements():
    """Every runtime requirement of requirements.txt is a dependency of the package (the three libraries the
    dialects reproduce at their exact versions)."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    deps = {d.split("=")[0].split(">")[0].split("<")[0].strip().lower(): d for d in meta["dependencies"]}
    reqs = [ln.split("==") for ln in (ROOT / "requirements.txt").read_text().splitlines()
            if ln and not ln.startswith(("#", "-"))]
    assert {name.lower() for name, _ in reqs} == set(deps)
    pinned = dict(reqs)
    for name in ("sacrebleu", "nltk", "rouge-score"):
        assert deps[name] == f"{name}=={pinned[name]}"
    assert meta["scripts"]["explainer"] == "explainer.cli:main"
    assert "ruff" in " ".join(meta["optional-dependencies"]["test"])
