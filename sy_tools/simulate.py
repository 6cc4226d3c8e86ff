"""Self-play: many seeded games between two policies, on one machine or a dask cluster.

Every move comes from :class:`~sy_tools.position.Position` (random-vs-random games from its
:func:`~sy_tools.position.random_playout`, the same games faster), so every rule field of the
rules applies.  Game ``i`` of a run with seed ``s`` draws all its randomness (start cards and
moves) from :func:`game_rng` ``(s, i)`` alone: the results do not depend on ``--jobs`` or on how
a cluster splits the work.

:func:`simulate` runs games and returns a :class:`SimulationResult` (summary, per start station,
rows as a DataFrame); :func:`iter_games` streams :class:`GameResult` in game order for callers
that must not hold a million games in memory.  :func:`random_game` and :func:`detectives_view`
make the seeded random records the tests and benchmarks use.
"""

from __future__ import annotations

import errno
import hashlib
import math
import os
import random
import re
import signal
import stat
import sys
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .board import DETECTIVE_TICKET_KINDS, MRX_TICKET_KINDS, Board, Station, mask_of
from .errors import InputError
from .files import _Signalled
from .policies import (
    DETECTIVE_POLICIES,
    MRX_POLICIES,
    DetectiveObservation,
    MrXObservation,
    Policy,
    describe,
    load_policy,
    run_policy,
)
from .position import MRX, Move, Position, counting_models, mrx_targets, random_playout, unmodelled_rule_fields
from .rules import PRESETS, Rules

#: detective names in turn order
DETECTIVE_NAMES = ("Red", "Blue", "Green", "Yellow", "Black")
#: how a game can end (the outcome kinds plus a forfeit)
END_REASONS = ("capture", "trapped", "detectives-stuck", "log-full", "forfeit")
#: the ticket columns of a result row
MRX_TICKET_COLUMNS = MRX_TICKET_KINDS
DETECTIVE_TICKET_COLUMNS = DETECTIVE_TICKET_KINDS


# ---- the set-up ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSpec:
    """Everything that defines a run's games except their number: plain data, so it can be sent
    to worker processes and dask workers.

    ``starts``: None (the rules' decks), ``"classic"`` / ``"2014"`` (those decks), or Mr. X's
    start stations (each game draws one; the detectives draw from the rules' deck)."""

    map: str = "london"
    rules: Rules = PRESETS["classic"]
    detectives: int = 5
    mrx_policy: str = "random"
    detective_policy: str = "random"
    starts: str | tuple[Station, ...] | None = None
    seed: int = 0
    cordon_time_limit: float = 2.0
    records: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"map": self.map, "rules": rules_json(self.rules), "detectives": self.detectives,
                "mrx_policy": self.mrx_policy, "detective_policy": self.detective_policy,
                "starts": list(self.starts) if isinstance(self.starts, tuple) else self.starts, "seed": self.seed}


def game_rng(seed: int, index: int) -> random.Random:
    """Game ``index``'s random stream: seeded from a SHA-256 of ``(seed, index)`` alone."""
    digest = hashlib.sha256(f"sy-tools/{seed}/{index}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "little"))


def rules_json(rules: Rules) -> str | dict[str, Any]:
    """The record form of ``rules`` (:meth:`Rules.to_record`: every override kept)."""
    return rules.to_record()


def _decks(board: Board, rules: Rules, starts: str | tuple[Station, ...] | None) -> tuple[list[Station], list[Station]]:
    """(Mr. X's deck, the detectives' deck)."""
    decks = board.start_decks

    def deck(name: str, where: str, field: str) -> list[Station]:
        # a map without start decks deals from every station; one with decks must have this one
        if decks and name not in decks:
            raise InputError(f"{field} {name!r} is not a start deck of the map {board.name!r} (its decks: "
                             f"{', '.join(sorted(decks))})", where=where)
        return list(decks.get(name) or board.stations)

    if starts is None:
        return (deck(rules.mrx_deck, "--rules", "the rules' mrx_deck"),
                deck(rules.detective_deck, "--rules", "the rules' detective_deck"))
    if starts == "classic":
        return deck("classic", "--starts", "deck"), deck("classic", "--starts", "deck")
    if starts == "2014":
        return deck("2014-mrx", "--starts", "deck"), deck("2014-detectives", "--starts", "deck")
    if isinstance(starts, str):
        raise InputError(f"unknown start deck {starts!r}: expected classic, 2014 or a list of stations",
                         where="--starts")
    return list(starts), deck(rules.detective_deck, "--rules", "the rules' detective_deck")


def deal(board: Board, rules: Rules, n_detectives: int, starts: str | tuple[Station, ...] | None,
         rng: random.Random) -> tuple[Station, list[Station], list[Station]]:
    """Mr. X's start, the detectives' starts and Mr. X's start candidates (his deck less the
    detectives' stations): Mr. X draws first, then each detective from its deck less the stations
    drawn."""
    mrx_deck, det_deck = _decks(board, rules, starts)
    mrx = mrx_deck[int(rng.random() * len(mrx_deck))]
    pool = [s for s in det_deck if s != mrx]
    if len(pool) < n_detectives:
        raise InputError(f"the detectives' start deck has {len(pool)} free stations for {n_detectives} detectives",
                         where="--starts")
    dets = rng.sample(pool, n_detectives)
    taken = set(dets)
    return mrx, dets, sorted({s for s in mrx_deck if s not in taken})


# ---- one game ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """One simulated game: a row of the results table (plus its full record when asked)."""

    game: int
    seed: int
    mrx_policy: str
    detective_policy: str
    mrx_start: Station
    detective_starts: tuple[Station, ...]
    winner: str  # "mrx" or "detectives"
    reason: str  # one of END_REASONS
    rounds: int
    mrx_moves: int
    mrx_tickets_used: tuple[int, ...]  # MRX_TICKET_COLUMNS
    detective_tickets_used: tuple[int, ...]  # DETECTIVE_TICKET_COLUMNS, all detectives
    forfeit: str | None = None
    record: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def mrx_won(self) -> bool:
        return self.winner == "mrx"

    def row(self) -> dict[str, Any]:
        """The flat row (``--out``; one column per ticket kind)."""
        out: dict[str, Any] = {
            "game": self.game, "seed": self.seed, "mrx_policy": self.mrx_policy,
            "detective_policy": self.detective_policy, "mrx_start": self.mrx_start,
            "detective_starts": " ".join(map(str, self.detective_starts)), "winner": self.winner,
            "mrx_won": self.mrx_won, "reason": self.reason, "rounds": self.rounds, "mrx_moves": self.mrx_moves,
        }
        for k, n in zip(MRX_TICKET_COLUMNS, self.mrx_tickets_used):
            out[f"mrx_{k}"] = n
        for k, n in zip(DETECTIVE_TICKET_COLUMNS, self.detective_tickets_used):
            out[f"detectives_{k}"] = n
        out["forfeit"] = self.forfeit or ""
        return out


ROW_COLUMNS = tuple(GameResult(0, 0, "", "", 0, (), "", "", 0, 0, (0,) * 5, (0,) * 3).row())


class _Runtime:
    """A spec made ready to play: board loaded, policies resolved (once per process)."""

    def __init__(self, spec: GameSpec) -> None:
        from .mapio import load_board

        self.spec = spec
        if not SEED_MIN <= spec.seed <= SEED_MAX:  # rows keep it as a 64-bit integer (parquet)
            raise InputError(f"expected a seed from {SEED_MIN} to {SEED_MAX} (a 64-bit integer), got "
                             f"{str(spec.seed)[:40]}", where="--seed")
        self.board = load_board(spec.map)
        self.mrx_policy: Policy = load_policy(spec.mrx_policy, "mrx")
        self.detective_policy: Policy = load_policy(spec.detective_policy, "detectives")
        #: a user's policy runs with its prints sent to stderr (stdout is ours)
        self.quiet = {"mrx": spec.mrx_policy not in MRX_POLICIES,
                      "detectives": spec.detective_policy not in DETECTIVE_POLICIES}
        # the list-based playout keeps only tickets and stations: variants take the Move path
        self.fast = (spec.mrx_policy == "random" and spec.detective_policy == "random"
                     and counting_models(spec.rules))
        _decks(self.board, spec.rules, spec.starts)  # unknown deck names fail here
        for s in spec.starts if isinstance(spec.starts, tuple) else ():
            if s not in self.board:
                raise InputError(f"station {s} is not on the map {self.board.name!r}", where="--starts")
        odd = [f for f in unmodelled_rule_fields(spec.rules) if f not in SIMULATED_VARIANTS]
        if odd:  # a field the simulator does not know
            raise InputError(f"simulate does not handle the rule field(s) {', '.join(odd)} yet", where="--rules")
        if not 1 <= spec.detectives <= len(DETECTIVE_NAMES):
            raise InputError(f"expected 1 to {len(DETECTIVE_NAMES)} detectives, got {spec.detectives}",
                             where="--detectives")
        self.names = DETECTIVE_NAMES[:spec.detectives]
        # every game starts from this position with its own stations (cheaper than Position.start)
        self.template = Position.start(self.board, spec.rules, list(zip(self.names, range(len(self.names)))))


#: The seeds a run accepts (a row stores the seed as a 64-bit integer).
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1

#: Rule variants the simulator plays (through the engine's exact move listing).
SIMULATED_VARIANTS = frozenset({"mrx_onto_detective", "cutoff_escape", "voluntary_reveal"})

_RUNTIME: _Runtime | None = None


def _runtime(spec: GameSpec) -> _Runtime:
    global _RUNTIME
    if _RUNTIME is None or _RUNTIME.spec != spec:
        _RUNTIME = _Runtime(spec)
    return _RUNTIME


def check_spec(spec: GameSpec) -> None:
    """Check everything about ``spec`` (map, rules, decks, policies, seed): an
    :class:`InputError` before any game is played."""
    _runtime(spec)


def play_game(spec: GameSpec, index: int) -> GameResult:
    """Play game ``index`` of ``spec``."""
    return _play(_runtime(spec), index)


def _play(rt: _Runtime, index: int) -> GameResult:
    spec, board, rules = rt.spec, rt.board, rt.spec.rules
    rng = game_rng(spec.seed, index)
    mrx_start, det_starts, candidates = deal(board, rules, spec.detectives, spec.starts, rng)
    names = rt.names
    start = replace(rt.template, stations=tuple(det_starts), mrx_at=mrx_start)
    forfeit: str | None = None
    forfeit_side = ""
    if rt.fast:
        playout = random_playout(start, rng)
        final = playout.final
        moves = playout.to_moves() if spec.records else None
        used_x, used_d = _tickets_spent(start, final)
    else:
        final, moves, forfeit, forfeit_side = _play_policies(rt, start, candidates, rng)
        used_x, used_d = _tickets_used((m.piece == MRX, m.tickets) for m in moves)
    if forfeit is not None:
        winner, reason = ("detectives" if forfeit_side == "mrx" else "mrx"), "forfeit"
    else:
        out = final.outcome
        winner, reason = out.winner or "", out.kind.value
    record = None
    if spec.records and moves is not None:
        record = game_record(board, rules, names, det_starts, mrx_start, candidates, moves)
    return GameResult(index, spec.seed, spec.mrx_policy, spec.detective_policy, mrx_start, tuple(det_starts),
                      winner, reason, final.round, final.move, used_x, used_d, forfeit, record)


_IDX = {"taxi": 0, "bus": 1, "underground": 2, "black": 3}


def _tickets_spent(start: Position, final: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What :func:`_tickets_used` counts, from the tickets held at the start and the end (the
    detectives' used tickets are handed to Mr. X when the rules say so)."""
    d0 = [sum(t.taxi for t in start.tickets), sum(t.bus for t in start.tickets),
          sum(t.underground for t in start.tickets)]
    d1 = [sum(t.taxi for t in final.tickets), sum(t.bus for t in final.tickets),
          sum(t.underground for t in final.tickets)]
    used_d = tuple(a - b for a, b in zip(d0, d1))
    x0, x1 = start.mrx_tickets, final.mrx_tickets
    gained = used_d if start.rules.tickets_to_mrx else (0, 0, 0)
    used_x = (x0.taxi + gained[0] - x1.taxi, x0.bus + gained[1] - x1.bus, x0.underground + gained[2] - x1.underground,
              x0.black - x1.black, x0.double - x1.double)
    return used_x, used_d


def _tickets_used(moves: Iterable[tuple[bool, tuple[Any, ...]]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Tickets Mr. X used (taxi, bus, underground, black, double) and all detectives used
    (taxi, bus, underground), from ``(is Mr. X, tickets)`` per move."""
    used_x = [0] * 5
    used_d = [0] * 3
    for is_mrx, tks in moves:
        if is_mrx:
            for t in tks:
                used_x[_IDX[t]] += 1
            if len(tks) == 2:
                used_x[4] += 1
        else:
            used_d[_IDX[tks[0]]] += 1
    return tuple(used_x), tuple(used_d)


def _play_policies(rt: _Runtime, pos: Position, candidates: Sequence[Station],
                   rng: random.Random) -> tuple[Position, list[Move], str | None, str]:
    """The general loop: each side's policy sees its observation; the detectives' possible set
    is kept up to date move by move (:func:`~sy_tools.position.mrx_targets`)."""
    board, rules = pos.board, pos.rules
    possible = mask_of(candidates) & ~pos.occupied
    memo_x: dict[str, Any] = {}
    memo_d: dict[str, Any] = {"time_limit": rt.spec.cordon_time_limit}
    shown: list[Any] = []
    reveals: dict[int, Station] = {}
    moves: list[Move] = []
    while not pos.is_over():
        legal: tuple[Move, ...] = ()
        if pos.turn == 0:
            if not pos.legal_move_count():
                pos = pos.declare_trapped(pos.mrx_at)
                break
            side, policy = "mrx", rt.mrx_policy
            obs: Any = MrXObservation(pos, possible, memo_x)
        else:
            legal = tuple(pos.legal_moves())
            side, policy = "detectives", rt.detective_policy
            obs = DetectiveObservation(board, rules, pos.names[pos.turn - 1], pos.names, pos.stations, pos.tickets,
                                       pos.out, pos.mrx_tickets, tuple(shown), dict(reveals), possible,
                                       pos.round, pos.move, legal, memo_d)
        name = rt.spec.mrx_policy if side == "mrx" else rt.spec.detective_policy
        try:
            move = run_policy(policy, obs, rng, rt.quiet[side])
        except (KeyboardInterrupt, _Signalled):  # Ctrl-C, SIGTERM: stop the run
            raise
        except BaseException as e:  # a policy is user code: any failure (sys.exit too) forfeits the game
            return pos, moves, f"{side} policy {name!r} raised {describe(e, error=True)}", side
        why = _illegal(pos, move, legal)
        if why:
            return pos, moves, f"{side} policy {name!r} returned an illegal move {describe(move)}: {why}", side
        if side == "mrx":
            if move.is_pass:
                possible = mask_of(p for p in _stations(possible) if not pos.mrx_can_move_from(p))
            occ = pos.occupied
            for leg, (t, to) in enumerate(zip(move.tickets, move.stations), pos.move + 1):
                shown.append(t)
                possible = mrx_targets(board, possible, t, occ, rules)
                if (rules.is_reveal(leg) or move.shown == leg - pos.move - 1) and to is not None:
                    reveals[leg] = to
                    possible = 1 << to
        pos = pos.push(move)
        moves.append(move)
        if side == "detectives" and move.to is not None:
            possible &= ~(1 << move.to)
    return pos, moves, None, ""


def _illegal(pos: Position, move: Any, legal: tuple[Move, ...]) -> str:
    """Why ``move`` is not a legal move of the piece to move ("" when it is).  Mr. X's move is
    checked by :meth:`Position.problems` (his double moves are not all listed); a detective's
    must be one of ``legal``, its legal moves."""
    if not isinstance(move, Move):
        return f"not a Move: {describe(move)}"
    if pos.turn == 0:
        if move.piece != MRX or None in move.stations:
            return "it is Mr. X's turn; his move names each station"
        return "; ".join(p[1] for p in pos.problems(move))
    if move in legal:
        return ""
    return "; ".join(p[1] for p in pos.problems(move)) or "not a legal move of the detective to move"


def _stations(mask: int) -> list[Station]:
    from .board import stations_of

    return stations_of(mask)


def game_record(board: Board, rules: Rules, names: Sequence[str], det_starts: Sequence[Station],
                mrx_start: Station, candidates: Sequence[Station], moves: Iterable[Move]) -> dict[str, Any]:
    """The full game.json of a game: every station of Mr. X, the capture marked, the rules with
    every override, a pass (trapped, where the rules let him pass) as an empty ``"mrx"`` list."""
    doc: dict[str, Any] = {
        "version": 1,
        "map": board.name,
        "rules": rules_json(rules),
        "detectives": [{"name": n, "start": s} for n, s in zip(names, det_starts)],
        "mrx": {"start": mrx_start, "start_candidates": list(candidates)},
        "rounds": [],
    }
    at = mrx_start
    for m in moves:
        if m.piece == MRX:
            legs: list[dict[str, Any]] = [{"ticket": t.value, "to": s} for t, s in zip(m.tickets, m.stations)]
            if m.shown is not None and m.took is not None:  # a voluntary reveal and its price
                legs[m.shown].update(shown=True, took={"from": m.took[0], "ticket": m.took[1].value})
            doc["rounds"].append({"mrx": legs, "detectives": []})
            if m.to is not None:
                at = m.to
        else:
            entry: dict[str, Any] = {"name": m.piece, "ticket": m.tickets[0].value, "to": m.to}
            if m.to == at:
                entry["capture"] = True
            doc["rounds"][-1]["detectives"].append(entry)
    return doc


# ---- running many ------------------------------------------------------------------------------


def _run_chunk(spec: GameSpec, start: int, stop: int) -> list[GameResult]:
    rt = _runtime(spec)
    return [_play(rt, i) for i in range(start, stop)]


def _chunks(n: int, size: int, first: int = 0) -> Iterator[tuple[int, int]]:
    for a in range(first, first + n, size):
        yield a, min(a + size, first + n)


def _chunk_size(n: int, workers: int) -> int:
    return max(1, min(2000, n // (workers * 8) or 1))


#: The most worker processes a run starts (the command line refuses more).
MAX_JOBS = 64
#: Seconds to connect to a dask scheduler, everything included.
CONNECT_SECONDS = 10.0


def _worker_init(spec: GameSpec) -> None:
    """A worker process: Ctrl-C is the parent's to handle (it ends the workers), SIGTERM/SIGHUP
    end the worker at once, and what a policy prints goes to stderr (stdout is the parent's)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    try:
        sys.stdout.flush()
        os.dup2(2, 1)
    except (OSError, ValueError):  # pragma: no cover - no stderr to send it to
        pass
    sys.stdout = sys.stderr
    _runtime(spec)


def _stop(pool: Any, finished: bool) -> None:
    """Shut the pool down; unless the run ``finished``, end the workers now (they may be deep in
    a long game, and must not outlive the run)."""
    if finished:
        pool.shutdown(wait=True)
        return
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for p in procs:
        try:
            p.terminate()
        except (OSError, ValueError, AttributeError):  # pragma: no cover - already gone
            pass
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        try:
            p.join(2.0)
        except (OSError, ValueError, AttributeError, AssertionError):  # pragma: no cover
            pass


def iter_games(spec: GameSpec, n: int, jobs: int | None = None, scheduler: str | None = None,
               chunk_size: int | None = None, first: int = 0) -> Generator[GameResult, None, None]:
    """Games ``first`` .. ``first + n - 1`` of ``spec``, in order, played by ``jobs`` processes
    (default: all cores; at most :data:`MAX_JOBS` and never more than there are chunks of games;
    1 plays here) or on the dask cluster at ``scheduler``.  Work goes out in chunks with a
    bounded number in flight, so memory stays bounded however many games.  A worker that dies
    (a policy calling ``os._exit``, the system killing it) is an :class:`InputError`, and when
    the iteration stops early (an error, Ctrl-C, ``close()``) the workers are ended with it."""
    _runtime(spec)  # bad policies, maps, decks fail here, before any worker starts
    if scheduler is not None:
        yield from _iter_dask(spec, n, scheduler, chunk_size, first)
        return
    jobs = min(jobs or os.cpu_count() or 1, MAX_JOBS, max(n, 1))
    if jobs <= 1:
        rt = _runtime(spec)
        for i in range(first, first + n):
            yield _play(rt, i)
        return
    import multiprocessing as mp
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    size = chunk_size or _chunk_size(n, jobs)
    jobs = min(jobs, -(-n // size))  # no idle workers
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("fork" if "fork" in methods else "spawn")
    pool = ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_worker_init, initargs=(spec,))
    finished = False
    try:
        pending: deque[tuple[Any, int, int]] = deque()
        chunks = _chunks(n, size, first)
        for a, b in chunks:
            pending.append((pool.submit(_run_chunk, spec, a, b), a, b))
            if len(pending) >= 4 * jobs:
                break
        while pending:
            done, a, b = pending.popleft()
            nxt = next(chunks, None)
            if nxt is not None:
                pending.append((pool.submit(_run_chunk, spec, *nxt), *nxt))
            try:
                games = done.result()
            except BrokenProcessPool:
                raise InputError(f"a worker process died while playing games {a}-{b - 1} (a policy that calls "
                                 "os._exit or crashes Python, or the system ended it); run with --jobs 1 to see "
                                 "which game", where="--jobs") from None
            yield from games
        finished = True
    finally:
        _stop(pool, finished)


#: A dask scheduler address: PROTOCOL://HOST:PORT (or HOST:PORT, tcp assumed).
_ADDRESS = re.compile(r"^(?:[a-z]+://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):[0-9]{1,5}$")


def _quiet_unraisable(args: Any) -> None:
    """Drop what a half-made dask client reports while it is collected (we said why already)."""
    mod = getattr(type(args.object), "__module__", "") or ""
    if mod.startswith(("distributed", "tornado")) or isinstance(args.exc_value, TimeoutError):
        return
    sys.__unraisablehook__(args)


def _connect(scheduler: str, deadline: float = CONNECT_SECONDS) -> Any:
    """A dask client for ``scheduler``, or one :class:`InputError` line within ``deadline``
    seconds whatever answers there (nothing, a web server, garbage)."""
    import threading

    from distributed import Client

    box: dict[str, Any] = {}

    def make() -> None:
        try:
            box["client"] = Client(scheduler, timeout="3s", set_as_default=False)
        except BaseException as e:  # anything a non-dask peer provokes (even a 3 EiB allocation)
            box["error"] = e

    t = threading.Thread(target=make, name="sy-tools dask connect", daemon=True)
    t.start()
    t.join(deadline)
    if t.is_alive() or "error" in box:
        sys.unraisablehook = _quiet_unraisable
        why = (f"no dask scheduler answered within {deadline:g} s" if t.is_alive()
               else describe(box["error"], error=True, limit=200))
        raise InputError(f"cannot reach the dask scheduler at {scheduler}: {why}", where="--scheduler")
    return box["client"]


def _iter_dask(spec: GameSpec, n: int, scheduler: str, chunk_size: int | None, first: int) -> Iterator[GameResult]:
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise InputError("--scheduler needs dask.distributed: pip install 'sy-tools[cluster]'") from None
    if not _ADDRESS.match(scheduler):
        raise InputError(f"expected a scheduler address like tcp://HOST:PORT, got {scheduler[:60]!r}",
                         where="--scheduler")
    client = _connect(scheduler)
    try:
        workers = max(1, sum(client.nthreads().values()))
        size = chunk_size or _chunk_size(n, workers)
        pending: list[Any] = []
        chunks = _chunks(n, size, first)
        for a, b in chunks:
            pending.append(client.submit(_run_chunk, spec, a, b, pure=False))
            if len(pending) >= 4 * workers:
                break
        while pending:
            done = pending.pop(0)
            nxt = next(chunks, None)
            if nxt is not None:
                pending.append(client.submit(_run_chunk, spec, *nxt, pure=False))
            yield from done.result()
            done.release()
    finally:
        client.close()


# ---- summaries ---------------------------------------------------------------------------------


def wilson(wins: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for ``wins`` out of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    low = 0.0 if wins == 0 else max(0.0, centre - half)  # (exact at the ends: no 5.55e-17)
    high = 1.0 if wins == n else min(1.0, centre + half)
    return (low, high)


@dataclass
class Summary:
    """Counts over games: Mr. X's wins, how games ended, rounds played (a histogram, so
    quartiles are exact at any size)."""

    games: int = 0
    mrx_wins: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    rounds: Counter[int] = field(default_factory=Counter)

    def add(self, g: GameResult) -> None:
        self.games += 1
        self.mrx_wins += g.mrx_won
        self.reasons[g.reason] += 1
        self.rounds[g.rounds] += 1

    @property
    def win_rate(self) -> float:
        return self.mrx_wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.mrx_wins, self.games)

    @property
    def forfeits(self) -> int:
        return self.reasons.get("forfeit", 0)

    def rounds_mean(self) -> float:
        return sum(r * c for r, c in self.rounds.items()) / self.games if self.games else 0.0

    def rounds_quantile(self, q: float) -> float:
        """The ``q`` quantile of rounds played (linear interpolation, as numpy's default)."""
        if not self.games:
            return 0.0
        pos = q * (self.games - 1)
        lo, frac = int(pos), pos - int(pos)

        def nth(k: int) -> int:
            seen = 0
            for r in sorted(self.rounds):
                seen += self.rounds[r]
                if k < seen:
                    return r
            return max(self.rounds)

        a = nth(lo)
        return a + frac * (nth(lo + 1) - a) if frac else float(a)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {
            "games": self.games, "mrx_wins": self.mrx_wins, "mrx_win_rate": round(self.win_rate, 6),
            "interval": [round(lo, 6), round(hi, 6)],
            "reasons": {r: self.reasons.get(r, 0) for r in END_REASONS},
            "forfeits": self.forfeits,
            "rounds": {"mean": round(self.rounds_mean(), 4), "q1": self.rounds_quantile(0.25),
                       "median": self.rounds_quantile(0.5), "q3": self.rounds_quantile(0.75)},
        }


@dataclass
class SimulationResult:
    """What :func:`simulate` found: the summary, a summary per Mr. X start station, and (unless
    ``keep_rows=False``) every game's result."""

    spec: GameSpec
    summary: Summary = field(default_factory=Summary)
    by_start: dict[Station, Summary] = field(default_factory=dict)
    games: list[GameResult] | None = field(default_factory=list)

    def add(self, g: GameResult) -> None:
        self.summary.add(g)
        self.by_start.setdefault(g.mrx_start, Summary()).add(g)
        if self.games is not None:
            self.games.append(g)

    def win_rate_by_start(self) -> dict[Station, tuple[int, float, float, float]]:
        """Mr. X start station -> (games, win rate, interval low, interval high)."""
        return {s: (v.games, v.win_rate, *v.interval) for s, v in sorted(self.by_start.items())}

    def to_dict(self, by_start: bool = False) -> dict[str, Any]:
        out = {"spec": self.spec.to_dict(), **self.summary.to_dict()}
        if by_start:
            out["by_start"] = [{"start": s, **v.to_dict()} for s, v in sorted(self.by_start.items())]
        return out

    def to_frame(self) -> Any:
        """One row per game (a pandas DataFrame, columns :data:`ROW_COLUMNS`)."""
        import pandas as pd

        if self.games is None:
            raise ValueError("the games were not kept (keep_rows=False)")
        return pd.DataFrame([g.row() for g in self.games], columns=list(ROW_COLUMNS))


def win_rates_from_file(path: str) -> dict[Station, tuple[int, float, float, float]]:
    """Mr. X start station -> (games, win rate, 95% interval low, high) from a results file
    written by ``--out`` (``.csv`` or ``.parquet``): what a win-rate map of the board needs."""
    counts: dict[Station, list[int]] = {}
    if path.endswith(".parquet"):
        try:
            import pyarrow.parquet as pq
        except ImportError:
            raise InputError("reading .parquet needs pyarrow: pip install 'sy-tools[parquet]'", path) from None
        from .files import read_bytes

        read_bytes(path)  # a regular file of a sane size, or one clear line
        try:
            table = pq.read_table(path, columns=["mrx_start", "mrx_won"])
        except (OSError, ValueError, KeyError) as e:  # pyarrow's errors derive from these
            raise InputError(f"not a simulate results file: {describe(e, error=True, limit=200)}", path) from None
        pairs: Iterable[tuple[Any, Any]] = zip(table.column("mrx_start").to_pylist(),
                                               table.column("mrx_won").to_pylist())
    else:
        import csv

        try:
            with open(path, newline="", encoding="utf-8") as f:
                pairs = [(r["mrx_start"], r["mrx_won"] in ("True", "true", "1")) for r in csv.DictReader(f)]
        except KeyError as e:
            raise InputError(f"not a simulate results file: no column {e}", path) from None
    for start, won in pairs:
        c = counts.setdefault(int(start), [0, 0])
        c[0] += 1
        c[1] += bool(won)
    return {s: (n, w / n, *wilson(w, n)) for s, (n, w) in sorted(counts.items())}


def simulate(spec: GameSpec, n: int, jobs: int | None = None, scheduler: str | None = None,
             keep_rows: bool = True, on_game: Callable[[GameResult], None] | None = None,
             chunk_size: int | None = None) -> SimulationResult:
    """Play ``n`` games of ``spec``; ``on_game`` sees each result in game order (to stream rows
    or records out).  See :func:`iter_games` for ``jobs`` and ``scheduler``."""
    if n < 0:
        raise InputError(f"the number of games must be at least 0, got {n}", where="-n")
    result = SimulationResult(spec, games=[] if keep_rows else None)
    games = iter_games(spec, n, jobs, scheduler, chunk_size)
    try:
        for g in games:
            result.add(g)
            if on_game is not None:
                on_game(g)
    finally:
        games.close()  # an early stop ends the worker processes now
    return result


# ---- output ------------------------------------------------------------------------------------


class RowWriter:
    """Writes result rows to ``.csv`` or ``.parquet`` as they come (parquet in row groups of
    ``batch`` games; it needs pyarrow: ``pip install 'sy-tools[parquet]'``).

    Everything is checked when it is made (the name, pyarrow, the folder, that ``path`` is not
    one of ``inputs``); nothing is written before :meth:`open`.  Rows go to a temporary file
    beside the target (through a symbolic link, beside the file it names), renamed over it by
    :meth:`close`; :meth:`abort` (a failed or interrupted run) removes it, so the old file stays
    as it was.  A named pipe or a character device is written to directly (CSV only)."""

    def __init__(self, path: str, batch: int = 50_000, inputs: Sequence[str | os.PathLike[str]] = ()) -> None:
        from .files import _kind, _target, refuse_overwrite

        self.path = path
        self.batch = batch
        self._rows: list[dict[str, Any]] = []
        self._writer: Any = None
        self._file: Any = None
        self._tmp: str | None = None
        if not path:
            raise InputError("expected a file name ending in .csv or .parquet, got ''", where="--out")
        if path.endswith(".parquet"):
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                raise InputError("writing .parquet needs pyarrow: pip install 'sy-tools[parquet]' (or use .csv)",
                                 path) from None
            self.kind = "parquet"
        elif path.endswith(".csv"):
            self.kind = "csv"
        else:
            raise InputError("--out must end in .csv or .parquet", path)
        try:
            self._target, st = _target(path)
        except OSError as e:
            raise InputError(f"cannot write: {e.strerror or e}", path, "--out") from None
        self._mode = st.st_mode if st is not None else None
        self.special = st is not None and not stat.S_ISREG(st.st_mode)
        if st is not None and self.special:
            if not (stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
                raise InputError(f"is {_kind(st.st_mode)}, not a file; refusing to write", path, "--out")
            if self.kind == "parquet":
                raise InputError(f"is {_kind(st.st_mode)}: parquet needs a regular file (write .csv to a pipe or "
                                 "device)", path, "--out")
        refuse_overwrite([path], inputs)

    def open(self) -> None:
        """Start writing (the temporary file, or the pipe or device itself)."""
        import tempfile

        folder = self._target.parent if str(self._target.parent) else "."
        try:
            if self.special:
                fifo = self._mode is not None and stat.S_ISFIFO(self._mode)
                try:
                    fd = os.open(self._target, os.O_WRONLY | (os.O_NONBLOCK if fifo else 0))
                except OSError as e:
                    if e.errno == errno.ENXIO:
                        raise InputError("a named pipe with no reader", self.path, "--out") from None
                    raise
                os.set_blocking(fd, True)
            else:
                fd, self._tmp = tempfile.mkstemp(prefix=f".{self._target.name}.", suffix=".tmp", dir=folder)
                if self._mode is not None:
                    mode = self._mode & 0o7777
                else:
                    umask = os.umask(0)
                    os.umask(umask)
                    mode = 0o666 & ~umask
                os.chmod(self._tmp, mode)
            if self.kind == "csv":
                self._file = os.fdopen(fd, "w", newline="", encoding="utf-8")
            else:
                self._file = os.fdopen(fd, "wb")
            if self.kind == "csv":
                import csv

                self._csv = csv.DictWriter(self._file, fieldnames=list(ROW_COLUMNS))
                self._csv.writeheader()
        except OSError as e:
            self.abort()
            raise InputError(f"cannot write: {e.strerror or e}", self.path, "--out") from None

    def write(self, g: GameResult) -> None:
        if self._file is None:
            self.open()
        try:
            if self.kind == "csv":
                self._csv.writerow(g.row())
                return
            self._rows.append(g.row())
            if len(self._rows) >= self.batch:
                self._flush()
        except OSError as e:
            raise OSError(e.errno, e.strerror or str(e), self.path) from None

    def _flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pylist(self._rows, schema=_schema())
        if self._writer is None:
            self._writer = pq.ParquetWriter(self._file, table.schema)
        self._writer.write_table(table)
        self._rows = []

    def close(self) -> None:
        """Finish: the rows so far become the file (the temporary file is renamed over it)."""
        from .files import _signals_held

        if self._file is None:
            self.open()
        try:
            if self.kind == "parquet":
                if self._rows or self._writer is None:
                    self._flush()
                self._writer.close()
            self._file.flush()
            if self._tmp is not None:
                os.fsync(self._file.fileno())
            self._file.close()
            if self._tmp is not None:
                with _signals_held():
                    os.replace(self._tmp, self._target)
                    self._tmp = None
        except OSError as e:
            self.abort()
            raise OSError(e.errno, e.strerror or str(e), self.path) from None

    def abort(self) -> None:
        """Give up: remove the temporary file (the old file, if any, is untouched)."""
        if self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass
        if self._tmp is not None:
            try:
                os.unlink(self._tmp)
            except OSError:
                pass
            self._tmp = None


def _schema() -> Any:
    import pyarrow as pa

    types = {"mrx_policy": pa.string(), "detective_policy": pa.string(), "detective_starts": pa.string(),
             "winner": pa.string(), "reason": pa.string(), "forfeit": pa.string(), "mrx_won": pa.bool_()}
    return pa.schema([(c, types.get(c, pa.int64())) for c in ROW_COLUMNS])


def input_files(spec: GameSpec, rules_file: str | None = None) -> list[str]:
    """The files a run reads (its map's, the rules file, the policies' source files): what its
    outputs must never replace."""
    from .mapio import source_files
    from .policies import policy_source

    out = [] if _builtin_map(spec.map) else [str(p) for p in source_files(spec.map)]
    if rules_file:
        out.append(rules_file)
    for p in (spec.mrx_policy, spec.detective_policy):
        src = policy_source(p)
        if src:
            out.append(src)
    return out


def _builtin_map(spec: str) -> bool:
    """Whether ``--map`` names a built-in map (as :func:`sy_tools.validate.load_board` decides)."""
    return spec == "london" and not os.path.exists(spec)


#: What :func:`write_record` names the records.
RECORD_NAME = re.compile(r"^game-([0-9]{7,})\.json$")


def records_dir(path: str, inputs: Sequence[str | os.PathLike[str]] = (), n: int | None = None) -> str:
    """Check and make ``--records``'s folder: an :class:`InputError` for an empty name, a file, a
    symbolic link to nothing, or a record name of the run (games 0 to ``n - 1``) that is one of
    ``inputs``."""
    from .files import same_file

    if not path:
        raise InputError("expected a folder name, got ''", where="--records")
    if os.path.islink(path) and not os.path.exists(path):
        raise InputError(f"is a symbolic link to {os.readlink(path)[:200]!r}, which does not exist; give a folder",
                         path, "--records")
    if os.path.exists(path) and not os.path.isdir(path):
        raise InputError("expected a folder for the records, but this is a file", path, "--records")
    if os.path.isdir(path) and inputs:
        try:
            names = os.listdir(path)
        except OSError as e:
            raise InputError(f"cannot read the folder: {e.strerror or e}", path, "--records") from None
        for name in names:
            m = RECORD_NAME.match(name)
            if m is None or (n is not None and int(m.group(1)) >= n):
                continue
            entry = os.path.join(path, name)
            for src in inputs:
                if same_file(entry, src):
                    raise InputError(f"refusing to overwrite an input ({os.fspath(src)}) with a record; choose "
                                     "another folder", entry, "--records")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise InputError(f"cannot make the folder: {e.strerror or e}", path, "--records") from None
    return path


def record_map(map_spec: str, directory: str) -> str:
    """The ``map`` a record in ``directory`` names for ``--map map_spec``: the built-in name, or
    the map's path relative to the folder (a record's map path is read relative to the record),
    absolute where no relative path exists."""
    if _builtin_map(map_spec):
        return map_spec
    target = os.path.abspath(map_spec)
    try:
        rel = os.path.relpath(target, os.path.abspath(directory))
    except ValueError:  # pragma: no cover - another drive (Windows)
        return target
    return rel if ":" not in rel else target


def write_record(directory: str, g: GameResult, map_spec: str | None = None) -> None:
    """Write game ``g``'s record as ``DIRECTORY/game-NNNNNNN.json`` (its ``map`` set to
    ``map_spec``, e.g. from :func:`record_map`, when given)."""
    from .files import atomic_write_text
    from .output import dumps

    if g.record is not None:
        doc = g.record if map_spec is None else {**g.record, "map": map_spec}
        atomic_write_text(os.path.join(directory, f"game-{g.game:07d}.json"), dumps(doc) + "\n")


# ---- seeded random records (tests, benchmarks) ---------------------------------------------------


def random_game(
    board: Board,
    rules: Rules,
    rng: random.Random,
    n_detectives: int | None = None,
    double_chance: float = 0.15,
    hunt_chance: float = 0.7,
    mrx_start_candidates: list[Station] | None = None,
) -> dict[str, Any]:
    """Play one random legal game; return its full game.json document (every move from
    :meth:`Position.legal_moves`, the rules written with every override).

    Mr. X makes a double move with probability ``double_chance`` when he may; detectives step
    onto Mr. X whenever they can with probability ``hunt_chance`` (so games do end in captures);
    otherwise every choice is uniform among the legal ones."""
    n_det = n_detectives if n_detectives is not None else rng.randint(1, 5)
    det_deck = list(board.start_decks.get(rules.detective_deck) or board.stations)
    starts = rng.sample(det_deck, n_det)
    names = list(DETECTIVE_NAMES[:n_det])
    if mrx_start_candidates is None:
        mrx_deck = [s for s in (board.start_decks.get(rules.mrx_deck) or board.stations) if s not in starts]
    else:
        mrx_deck = [s for s in mrx_start_candidates if s not in starts]
    mrx_at = rng.choice(mrx_deck)
    pos = Position.start(board, rules, list(zip(names, starts)), mrx_at=mrx_at)
    moves: list[Move] = []
    while not pos.is_over():
        legal = pos.legal_moves()
        if not legal:
            pos = pos.declare_trapped(pos.mrx_at)
            break
        if pos.turn == 0:
            doubles = [m for m in legal if m.is_double]
            singles = [m for m in legal if not m.is_double]
            move = rng.choice(doubles if doubles and rng.random() < double_chance else singles)
        else:
            hits = [m for m in legal if m.to == pos.mrx_at]
            move = hits[0] if hits and rng.random() < hunt_chance else rng.choice(legal)
        moves.append(move)
        pos = pos.push(move)
    doc = game_record(board, rules, names, starts, mrx_at, [], moves)
    if mrx_start_candidates is None:
        del doc["mrx"]["start_candidates"]
    else:
        doc["mrx"]["start_candidates"] = sorted(set(mrx_start_candidates))
    return doc


def detectives_view(doc: dict[str, Any], rules: Rules) -> dict[str, Any]:
    """The record the detectives kept: no true start, no stations on hidden moves (a fixed
    reveal, and a voluntary one with the ticket he took, they saw)."""
    out = {k: v for k, v in doc.items() if k not in ("mrx", "rounds")}
    mrx = {k: v for k, v in doc.get("mrx", {}).items() if k != "start"}
    if mrx:
        out["mrx"] = mrx
    rounds = []
    n = 0
    for rnd in doc["rounds"]:
        xs = []
        for m in rnd["mrx"]:
            n += 1
            xs.append(m if rules.is_reveal(n) or m.get("shown") else {"ticket": m["ticket"]})
        rounds.append({"mrx": xs, "detectives": list(rnd.get("detectives", []))})
    out["rounds"] = rounds
    return out


# ---- command-line helpers ----------------------------------------------------------------------


def resolve_rules(value: str) -> Rules:
    """``--rules``: a preset name or a rules JSON file (:func:`sy_tools.rules.load_rules`)."""
    from .rules import load_rules

    return load_rules(value)


def parse_starts(value: str | None) -> str | tuple[Station, ...] | None:
    """``--starts``: ``classic``, ``2014`` or a comma-separated list of Mr. X's start stations."""
    if value is None or value in ("classic", "2014"):
        return value
    try:
        stations = tuple(int(x) for x in value.split(",") if x.strip())
    except ValueError:
        raise InputError(f"expected classic, 2014 or stations like 166,146, got {value!r}", where="--starts") from None
    if not stations:
        raise InputError("expected at least one station", where="--starts")
    return stations


def summary_rows(result: SimulationResult, by_start: bool) -> tuple[list[str], list[list[Any]]]:
    """The summary as a header and rows (one row, or one per Mr. X start station)."""
    head = ["games", "mrx_wins", "win_rate", "ci_low", "ci_high", *END_REASONS, "rounds_mean", "rounds_q1",
            "rounds_median", "rounds_q3"]
    groups: list[tuple[Any, Summary]] = (sorted(result.by_start.items()) if by_start
                                         else [("all", result.summary)])
    rows = []
    for key, s in groups:
        lo, hi = s.interval
        rows.append([key, s.games, s.mrx_wins, s.win_rate, lo, hi,
                     *(s.reasons.get(r, 0) for r in END_REASONS), s.rounds_mean(),
                     s.rounds_quantile(0.25), s.rounds_quantile(0.5), s.rounds_quantile(0.75)])
    return ["start", *head], rows


def format_summary(result: SimulationResult, fmt: str, by_start: bool = False) -> str:
    """The summary as ``table``, ``csv`` or ``json``."""
    if fmt == "json":
        from .output import dumps

        return dumps(result.to_dict(by_start))
    head, rows = summary_rows(result, by_start)
    if fmt == "csv":
        import csv
        import io

        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(head)
        w.writerows([[round(v, 6) if isinstance(v, float) else v for v in r] for r in rows])
        return buf.getvalue().rstrip("\n")
    from .output import table

    s = result.summary
    lo, hi = s.interval
    spec = result.spec
    lines = [f"{s.games} games, {spec.mrx_policy} Mr. X vs {spec.detective_policy} detectives "
             f"({spec.detectives}), rules {spec.rules.name}, seed {spec.seed}: "
             f"Mr. X wins {s.win_rate:.1%} (95% CI {lo:.1%}-{hi:.1%})"]
    short = ["start", "games", "mrx wins", "win rate", "95% CI", "capture", "trapped", "stuck", "log full",
             "forfeit", "rounds mean", "q1", "median", "q3"]
    trows = [[r[0], r[1], r[2], f"{r[3]:.1%}", f"{r[4]:.1%}-{r[5]:.1%}", *r[6:11], f"{r[11]:.1f}",
              *(f"{q:g}" for q in r[12:15])] for r in rows]
    right = [by_start] + [True] * (len(short) - 1)
    lines.append(table(short, trows, right))
    return "\n".join(lines)
