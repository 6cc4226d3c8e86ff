"""The bundled map works from a normal (non-editable) install."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from helpers import REPO

ROOT = REPO


def test_non_editable_install_finds_london(tmp_path):
    # build from a copy, so the suite writes no build/ or egg-info into the checkout
    src = tmp_path / "src"
    for part in ("sy_tools", "data"):
        shutil.copytree(ROOT / part, src / part, ignore=shutil.ignore_patterns("__pycache__"))
    for part in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / part, src / part)
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(src)],
        check=True, capture_output=True, cwd=tmp_path,
    )
    env = dict(os.environ, PYTHONPATH=str(target))
    code = ("import sy_tools, sys; from sy_tools.cli import main; "
            "assert sy_tools.__file__.startswith(sys.argv[1]), sy_tools.__file__; "
            "main(['validate', 'london'])")
    r = subprocess.run([sys.executable, "-c", code, str(target)], capture_output=True, text=True, env=env,
                       cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "london: ok" in r.stdout
    assert (target / "sy_tools" / "data" / "london.json").is_file()
