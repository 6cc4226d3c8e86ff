"""What the real-browser tests share: Debian's Chromium driven by Playwright, and ``sy-tools
serve`` run as the table runs it (a process on 127.0.0.1, stopped with Ctrl-C).

Without a browser the tests skip with one line, outside CI; in CI (``CI`` set) they fail."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

SY_TOOLS = str(Path(sys.executable).with_name("sy-tools"))
REPO = Path(__file__).resolve().parents[2]

#: Where the screenshots go: docs/ when asked (``SY_TOOLS_SCREENSHOTS=docs``), else a test folder.
SHOTS_TO_DOCS = os.environ.get("SY_TOOLS_SCREENSHOTS") == "docs"


def chromium() -> str:
    """The browser to drive: ``SY_TOOLS_CHROMIUM``, else Debian's ``chromium``; skip (fail in CI)
    when there is none."""
    found = os.environ.get("SY_TOOLS_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    why = "no Chromium found (apt-get install chromium): the browser tests need one"
    if os.environ.get("CI"):
        pytest.fail(why)
    pytest.skip(why)


def shot_path(tmp_path: Path, name: str) -> Path:
    return (REPO / "docs" / name) if SHOTS_TO_DOCS else (tmp_path / name)


class Served:
    """``sy-tools serve`` in ``folder``: its table and Mr. X's URLs; :meth:`stop` is Ctrl-C."""

    def __init__(self, folder: Path, *args: str) -> None:
        self.folder = folder
        self.proc = subprocess.Popen([SY_TOOLS, "serve", *args, *([] if "--qr" in args else ["--no-qr"])], cwd=folder, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        self.mrx: str | None
        assert self.proc.stdout is not None
        while not any(line.startswith("Ctrl-C stops") for line in self.lines):
            line = self.proc.stdout.readline()
            if not line:
                self.proc.wait(timeout=30)
                raise AssertionError(f"serve ended: {self.proc.stderr.read() if self.proc.stderr else ''}")
            self.lines.append(line.rstrip("\n"))
        self.table = next(ln.split(" ", 1)[1] for ln in self.lines if ln.startswith("table: "))
        self.mrx = next((ln.split(" ", 1)[1] for ln in self.lines if ln.startswith("mr-x: ")), None)
        self.port = int(self.table.rsplit(":", 1)[1].strip("/"))

    def stop(self) -> str:
        """Ctrl-C: what it printed last (it must end with exit 0)."""
        self.proc.send_signal(signal.SIGINT)
        out, err = self.proc.communicate(timeout=60)
        assert self.proc.returncode == 0, err
        return out

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
