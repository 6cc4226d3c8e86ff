"""The web table of one game: a Starlette app over a :class:`~sy_tools.web.table.Table`.

Endpoints (every answer JSON, every error ``{"error": CODE, "message": ...}``):

* ``GET /`` the table page, ``GET /x/TOKEN`` Mr. X's page, ``GET /static/...`` their scripts;
* ``GET /api/board`` the map; ``GET /api/state`` the table's view; ``GET /api/events`` the same
  pushed as server-sent events (``event: state``) after every change;
* ``POST /api/move`` a detective's move (a capture claim too), ``POST /api/mrx-move`` Mr. X's
  public move in a game without his log, ``POST /api/undo``, ``POST /api/redo``;
* ``GET /api/analysis/possible|advise|cordon|solve`` an answer on the public record;
* behind Mr. X's token: ``GET /api/x/TOKEN/state``, ``GET /api/x/TOKEN/events``,
  ``POST /api/x/TOKEN/move``, ``GET /api/x/TOKEN/advise``.

What the table's endpoints answer is built from the public record alone; Mr. X's need his token
(compared in constant time; a wrong one is answered as an unknown page).  Requests whose Host is
not one of the server's names, or that come from another site (``Origin``,
``Sec-Fetch-Site``), are refused; bodies are JSON objects of at most :data:`MAX_BODY` bytes.
All work on the game runs one request at a time, under one lock, in a worker thread (the
computer's move included), so two screens racing for one turn get exactly one move taken.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .pages import PAGES, STATIC, page_html
from .table import Table, WebRefused

#: The largest request body read (bytes): a move is a few dozen.
MAX_BODY = 4096

#: Seconds between keep-alive pings on an idle event stream (a dead connection is noticed
#: then, so the server's memory stays flat; a page that hears none for a while reconnects).
HEARTBEAT = 15.0

#: Why Mr. X's page and endpoints refuse while the computer plays him and the game goes on.
HIDDEN = "the computer plays Mr. X: his secrets are his own until the end"

#: The host names a server bound to the loopback answers to by default.
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


#: Every page and script is the package's own: nothing from another origin, no inline script.
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                                 b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


def error(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status,
                        headers={"cache-control": "no-store"})


class Guard:
    """ASGI middleware: refuse a foreign Host (DNS rebinding) or a request from another site
    (a cross-site post), and add the security headers to every answer."""

    def __init__(self, app: ASGIApp, hosts: Collection[str], hub: Hub | None = None) -> None:
        self.app = app
        self.hosts = frozenset(h.lower() for h in hosts)
        self.hub = hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        refusal = None
        if _hostname(host) not in self.hosts:
            refusal = error("forbidden-host", "this server answers only to its own address (the Host header names "
                                              "another)", 403)
        elif "origin" in headers and headers["origin"].lower() not in (f"http://{host}".lower(),
                                                                       f"https://{host}".lower()):
            refusal = error("forbidden-origin", "a page of another site may not use this table", 403)
        elif headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            refusal = error("forbidden-origin", "a page of another site may not use this table", 403)

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        if refusal is not None:
            await refusal(scope, receive, secured)
            return
        await self.app(scope, receive, secured)


def _hostname(host: str) -> str:
    """The name in a Host header, without its port (``[::1]:80`` -> ``::1``)."""
    host = host.strip().lower()
    if host.startswith("[") and "]" in host:
        end = host.find("]")
        rest = host[end + 1:]
        return host[1:end] if rest == "" or (rest[:1] == ":" and rest[1:].isdigit() and rest.isascii()) else host
    if host.count(":") != 1:
        return host
    name, port = host.split(":")
    return name if port.isdigit() and port.isascii() else host  # ("127.0.0.1:80.evil.example" is no port)


class Hub:
    """The one game, its lock, and what was last pushed: the table's state as bytes (served
    to every page without touching the game) and a wake-up for the event streams."""

    def __init__(self, table: Table, token: str | None, pace: float | None, heartbeat: float) -> None:
        self.table = table
        self.token = token
        self.pace = pace
        self.heartbeat = heartbeat
        self.stopping = False
        self._lock: asyncio.Lock | None = None
        self._changed: asyncio.Event | None = None
        self._computer: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.tag = ""
        self.public_json = b""

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self._computer = asyncio.Event()
        await self.call(lambda: None)

    @property
    def lock(self) -> asyncio.Lock:
        assert self._lock is not None, "the app's lifespan has not started"
        return self._lock

    async def call(self, work: Callable[[], Any]) -> Any:
        """Run ``work`` on the game, alone, in a worker thread; then push a change if there was one."""
        async with self.lock:
            try:
                return await asyncio.to_thread(work)
            finally:
                await self._refresh()

    async def _refresh(self) -> None:
        state = await asyncio.to_thread(self.table.public_state)
        if state["tag"] != self.tag or not self.public_json:
            self.tag = state["tag"]
            self.public_json = json.dumps(state, separators=(",", ":")).encode()
            assert self._changed is not None and self._computer is not None
            self._changed.set()
            self._changed = asyncio.Event()
            self._computer.set()

    def stop(self) -> None:
        """The server is stopping: every event stream ends (so that the pages' connections close
        within the server's graceful shutdown) and the computer plays no more.  Safe to call from
        a signal handler or another thread."""
        self.stopping = True
        if self._loop is not None:
            try:
                self._loop.call_soon_threadsafe(self._wake)
            except RuntimeError:  # (the loop is closed: nothing waits any more)
                pass

    def _wake(self) -> None:
        if self._changed is not None and self._computer is not None:
            self._changed.set()
            self._computer.set()

    def wait_change(self) -> asyncio.Event:
        assert self._changed is not None
        return self._changed

    def mrx_ok(self, token: str) -> bool:
        return self.token is not None and hmac.compare_digest(token.encode(), self.token.encode())

    def _computer_due(self) -> bool:
        s = self.table.session
        return not s.over and s.computer_to_move()

    async def computer_loop(self) -> None:
        """The computer plays as soon as it is its turn (at ``pace`` when it plays both sides)."""
        assert self._computer is not None
        while not self.stopping:
            await self._computer.wait()
            self._computer.clear()
            s = self.table.session
            if s.computer is None:
                continue
            try:
                while not self.stopping:
                    async with self.lock:
                        due = await asyncio.to_thread(self._computer_due)
                    if not due:
                        break
                    if s.computer == "both" and self.pace:
                        await asyncio.sleep(self.pace)
                    if await self.call(self.table.computer_step) is None:
                        break  # (it could not move: the pages are told, and the next change tries again)
            except Exception as e:  # (the loop lives on: the pages are told)
                await self.call(functools.partial(self.table.computer_failed, e))


async def read_json(request: Request) -> dict[str, Any]:
    """The request's body: a JSON object of at most :data:`MAX_BODY` bytes."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise WebRefused("bad-request", "send the body as JSON (content-type: application/json)", 415)
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise WebRefused("too-large", f"the body may be at most {MAX_BODY} bytes", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise WebRefused("too-large", f"the body may be at most {MAX_BODY} bytes", 413)
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise WebRefused("bad-request", "the body is not JSON", 400) from None
    except RecursionError:  # (nested deeper than the parser goes, well within the bound)
        raise WebRefused("bad-request", "the body is nested too deeply", 400) from None
    if not isinstance(data, dict):
        raise WebRefused("bad-request", "the body must be a JSON object", 400)
    return data


def create_app(table: Table, *, token: str | None = None, hosts: Collection[str] = LOCAL_HOSTS,
               pace: float | None = None, heartbeat: float = HEARTBEAT) -> Guard:
    """The app serving ``table``: Mr. X's endpoints under ``token`` (None: none), answering to
    the host names ``hosts``; the computer plays both sides at ``pace`` seconds a move."""
    hub = Hub(table, token, pace if pace is not None else table.session.pace, heartbeat)

    pages = {kind: page_html(kind) for kind in PAGES}

    def page(kind: str) -> Response:
        return HTMLResponse(pages[kind], headers={"cache-control": "no-store"})

    def api(handler: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                result = await handler(request)
            except WebRefused as e:
                return error(e.code, e.message, e.status)
            if isinstance(result, Response):
                return result
            return JSONResponse(result, headers={"cache-control": "no-store"})
        return endpoint

    def mrx_only(request: Request) -> None:
        if not hub.mrx_ok(request.path_params.get("token", "")):
            raise WebRefused("not-found", "no such page", 404)
        if table.mrx_hidden():
            raise WebRefused("private", HIDDEN, 403)

    async def table_page(request: Request) -> Response:
        return page("table")

    async def mrx_page(request: Request) -> Response:
        if not hub.mrx_ok(request.path_params["token"]):
            return error("not-found", "no such page", 404)
        if table.mrx_hidden():
            return error("private", HIDDEN, 403)
        return page("mrx")

    async def board(request: Request) -> Any:
        return await hub.call(table.board)

    async def state(request: Request) -> Response:
        return Response(hub.public_json, media_type="application/json", headers={"cache-control": "no-store"})

    def acting(action: Any) -> Any:
        """An endpoint that hands the request's JSON body to ``action`` (a move, undo, redo)
        under the game's lock, and answers what it said and the state's new tag."""
        async def endpoint(request: Request) -> Any:
            body = await read_json(request)
            said = await hub.call(lambda: action(body))
            return {"ok": True, "said": said, "tag": hub.tag}
        return endpoint

    move = acting(table.detective_move)
    table_mrx_move = acting(table.table_mrx_move)
    undo = acting(table.undo)
    redo = acting(table.redo)

    async def analysis(request: Request) -> Any:
        kind = request.path_params["kind"]
        return await hub.call(lambda: table.analysis(kind))

    async def mrx_state(request: Request) -> Any:
        mrx_only(request)
        return await hub.call(table.mrx_state)

    async def mrx_move(request: Request) -> Any:
        mrx_only(request)
        body = await read_json(request)
        said = await hub.call(lambda: table.mrx_move(body))
        return {"ok": True, "said": said, "tag": hub.tag}

    async def mrx_advise(request: Request) -> Any:
        mrx_only(request)
        return await hub.call(table.mrx_advice)

    def stream(frame: Callable[[], Awaitable[tuple[str, bytes] | None]]) -> StreamingResponse:
        """An event stream of what ``frame`` gives after every change (None: the stream ends)."""
        async def events() -> AsyncIterator[bytes]:
            ping = f"event: ping\ndata: {hub.heartbeat:g}\n\n".encode()  # (an event: a page sees no comment)
            yield b"retry: 1000\n\n" + ping
            sent = None
            while not hub.stopping:
                changed = hub.wait_change()
                got = await frame()
                if got is None:
                    return
                tag, data = got
                if tag != sent:
                    sent = tag
                    yield b"id: " + tag.encode() + b"\nevent: state\ndata: " + data + b"\n\n"
                try:
                    await asyncio.wait_for(changed.wait(), timeout=hub.heartbeat)
                except asyncio.TimeoutError:
                    yield ping
        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"cache-control": "no-store", "x-accel-buffering": "no"})

    async def public_frame() -> tuple[str, bytes] | None:
        return hub.tag, hub.public_json

    async def events(request: Request) -> Response:
        return stream(public_frame)

    async def mrx_events(request: Request) -> Response:
        mrx_only(request)

        def seen() -> dict[str, Any] | None:
            return None if table.mrx_hidden() else table.mrx_state()  # (an undo may hide him again)

        async def frame() -> tuple[str, bytes] | None:
            data = await hub.call(seen)
            return None if data is None else (data["tag"], json.dumps(data, separators=(",", ":")).encode())
        return stream(frame)

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 404
        if status == 404:
            return error("not-found", "no such page", 404)
        if status == 405:
            return error("method", f"{request.method} is not allowed here", 405)
        return error("http", str(getattr(exc, "detail", "refused")), status)

    async def crashed(request: Request, exc: Exception) -> Response:
        return error("internal", f"the server could not answer ({type(exc).__name__}); the game's files hold the "
                                  "last move", 500)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        task = asyncio.create_task(hub.computer_loop())
        try:
            yield
        finally:
            hub.stop()
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass

    routes = [
        Route("/", table_page),
        Route("/x/{token}", mrx_page),
        Route("/api/board", api(board)),
        Route("/api/state", api(state)),
        Route("/api/events", events),
        Route("/api/move", api(move), methods=["POST"]),
        Route("/api/mrx-move", api(table_mrx_move), methods=["POST"]),
        Route("/api/undo", api(undo), methods=["POST"]),
        Route("/api/redo", api(redo), methods=["POST"]),
        Route("/api/analysis/{kind}", api(analysis)),
        Route("/api/x/{token}/state", api(mrx_state)),
        Route("/api/x/{token}/events", api(mrx_events)),
        Route("/api/x/{token}/move", api(mrx_move), methods=["POST"]),
        Route("/api/x/{token}/advise", api(mrx_advise)),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: not_found, Exception: crashed})
    return Guard(app, hosts, hub)
