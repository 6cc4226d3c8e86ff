"""Child process for the hostile-input fuzz test: caps its own memory, then runs CLI cases sent
as JSON lines on stdin through click's CliRunner and answers one JSON line per case."""

from __future__ import annotations

import json
import os
import resource
import signal
import sys
import traceback


class _Timeout(BaseException):
    pass


def main() -> None:
    mem_mb = int(sys.argv[1])
    limit = mem_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from click.testing import CliRunner

    from sy_tools.cli.app import main as cli

    def alarm(signum: int, frame: object) -> None:
        raise _Timeout

    signal.signal(signal.SIGALRM, alarm)
    out = sys.stdout
    for line in sys.stdin:
        case = json.loads(line)
        os.chdir(case["cwd"])
        signal.alarm(int(case.get("timeout", 20)))
        try:
            r = CliRunner().invoke(cli, case["args"], catch_exceptions=True)
            exc = r.exception
            tb = ""
            if exc is not None and not isinstance(exc, SystemExit):
                tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-3000:]
            answer = {"code": r.exit_code, "stdout": r.stdout[-2000:], "stderr": r.stderr[-2000:], "traceback": tb}
        except _Timeout:
            answer = {"code": None, "stdout": "", "stderr": "", "traceback": "timeout"}
        finally:
            signal.alarm(0)
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
