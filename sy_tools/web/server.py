"""Running the web table: Mr. X's link, the addresses to print, and uvicorn.

* :func:`mrx_token`: Mr. X's private link's token (192 random bits), kept in a file of his own
  beside his log (``game.mrx.txt`` -> ``game.mrx.txt.token``, readable by its owner only) so
  that his page keeps working when the server is restarted.
* :func:`bind`: the listening socket (``port`` 0: a free one) and the host names the server
  answers to.
* :func:`run`: serve until Ctrl-C (or SIGTERM), then stop with the game saved.
"""

from __future__ import annotations

import os
import re
import secrets
import signal
import socket
from collections.abc import Callable, Generator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..formats.record import Record
from ..play.session import Session

#: A token as :func:`mrx_token` writes it: 32 URL-safe characters (192 bits).
TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")

#: The hosts that mean "every interface".
ANY_HOST = ("0.0.0.0", "::", "")


def token_file(game: str, log: str | None) -> str:
    """Where Mr. X's token is kept for the record ``game`` and his log ``log``: beside his log
    (beside the record for a game without one)."""
    return (log or game) + ".token"


def token_path(session: Session) -> str:
    """Where the token of ``session``'s game is kept (:func:`token_file`)."""
    return token_file(session.path, session.log)


def check_token_apart(game: str, log: str | None, record: Record | None = None) -> None:
    """Mr. X's token must be a file of its own, apart from the session's files (the record, his
    log, the lock, the map): :class:`InputError` naming the two otherwise (a record named like
    his log's token would be written over by the token)."""
    from ..play.files import distinct_targets
    from ..play.setup import session_files

    distinct_targets([*session_files(game, log, record), ("Mr. X's token", token_file(game, log))])


def mrx_token(session: Session) -> str:
    """Mr. X's token: the one kept beside his log, or a new one (written there, mode 0600);
    :class:`InputError` when that file would be one of the session's own."""
    check_token_apart(session.path, session.log, session.setup)
    path = token_path(session)
    try:
        with open(path, encoding="ascii") as f:
            kept = f.read().strip()
        if TOKEN.fullmatch(kept):
            return kept
    except FileNotFoundError:
        pass
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read Mr. X's token: {getattr(e, 'strerror', None) or e}", path) from None
    token = secrets.token_urlsafe(24)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(token + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise InputError(f"cannot keep Mr. X's token: {e.strerror or e}", path) from None
    return token


@dataclass
class Bound:
    """A listening socket, the host names it answers to, and the URLs that reach it."""

    sock: socket.socket
    port: int
    hosts: set[str]
    urls: list[str] = field(default_factory=list)


def _url_host(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def lan_addresses() -> list[str]:
    """This machine's addresses other than the loopback (from its host name: no traffic)."""
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, proto=socket.IPPROTO_TCP)
    except OSError:
        infos = []
    for info in infos:
        address = str(info[4][0])
        if not address.startswith(("127.", "::1", "fe80:")) and address not in found:
            found.append(address)
    return found


def bind(host: str, port: int) -> Bound:
    """Listen on ``host``:``port`` (``port`` 0: a free one): :class:`InputError` when that fails."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host or "0.0.0.0", port))
        sock.listen(128)
        sock.set_inheritable(True)
    except OSError as e:
        sock.close()
        raise InputError(f"cannot listen on {host}:{port}: {e.strerror or e}", where="--host/--port") from None
    real = int(sock.getsockname()[1])
    hosts = {"127.0.0.1", "localhost", "::1"}
    if host in ANY_HOST:
        lan = lan_addresses()
        names = [socket.gethostname()]
        hosts |= {*lan, *names, *(f"{n}.local" for n in names)}
        urls = [f"http://{_url_host(a)}:{real}" for a in lan] or [f"http://127.0.0.1:{real}"]
    else:
        hosts.add(host.lower())
        urls = [f"http://{_url_host(host)}:{real}"]
    return Bound(sock, real, hosts, urls)


def qr_text(url: str) -> str:
    """``url`` as a QR code drawn with block characters (a terminal shows it; a phone reads it)."""
    import io

    import segno

    buf = io.StringIO()
    segno.make(url, error="m", micro=False).terminal(out=buf, compact=True, border=2)
    return buf.getvalue()


class Runner:
    """uvicorn serving an app: SIGINT and SIGTERM are caught from the moment it is made (one
    that comes before the server is up stops it as soon as it is), and not raised again after
    the server stopped (the command line says it stopped and why)."""

    def __init__(self, app: Any, bound: Bound, on_stop: Callable[[], None] | None = None) -> None:
        import uvicorn

        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                                timeout_graceful_shutdown=2, proxy_headers=False, server_header=False)

        class Server(uvicorn.Server):
            @contextmanager
            def capture_signals(self) -> Generator[None, None, None]:
                yield  # (the runner holds them)

        self.server = Server(config)
        self.bound = bound
        self.on_stop = on_stop
        self.stopped_by = 0
        self._before = {sig: signal.signal(sig, self._exit) for sig in (signal.SIGINT, signal.SIGTERM)}

    def _exit(self, sig: int, frame: Any) -> None:
        if self.stopped_by:
            self.server.force_exit = True
        self.stopped_by = sig
        if self.on_stop is not None:
            self.on_stop()
        self.server.should_exit = True

    def run(self) -> int:
        """Serve until a signal; the signal's number."""
        try:
            if not self.server.should_exit:
                self.server.run(sockets=[self.bound.sock])
        finally:
            for sig, handler in self._before.items():
                signal.signal(sig, handler)
            self.bound.sock.close()
        return self.stopped_by
