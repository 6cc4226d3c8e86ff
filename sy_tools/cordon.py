"""The smallest detective cordon around Mr. X, and the detective moves that reach it (CP-SAT).

Definitions (README, "cordon"):

* ``P``: Mr. X's possible stations when the detectives are to move (expanded by his next move
  first when the record ends on the detectives' moves).
* ``exits(p)``: stations Mr. X can move to from ``p`` with the tickets he holds.
* ``p`` is *sealed* by an occupied set ``C`` when ``p`` is in ``C`` (capture) or every exit of
  ``p`` is in ``C`` (trapped).
* cordon size: the minimum ``|C|`` sealing every station of the target.
* plan (``moves`` = k turns): a legal move sequence per detective such that the final stations
  seal the target: ``P`` expanded by k - 1 moves of Mr. X with any ticket he holds.  Objective:
  seal the most probability (all of it when possible), then fewest detectives on cordon duty,
  then fewest bus/underground tickets.

ortools is imported only inside the solving functions.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .board import (
    DETECTIVE_TICKETS,
    Board,
    Station,
    StationMask,
    Ticket,
    mask_of,
    stations_of,
)
from .errors import AnalysisError, InputError
from .position import DETECTIVE_KINDS, MRX, Position, Tickets, detective_hops, mrx_targets, puzzle_detectives
from .record import Record

SCALE = 1_000_000  # probability -> integer weight
STATUS_NAMES = {"OPTIMAL": "optimal", "FEASIBLE": "feasible", "INFEASIBLE": "infeasible",
                "MODEL_INVALID": "model-invalid", "UNKNOWN": "unknown"}


@dataclass(frozen=True)
class DetectiveState:
    """A detective as the plan starts: where, with which tickets, and whether it moves in the
    first planned turn (False when it already moved in the current round)."""

    name: str
    station: Station
    tickets: Mapping[str, int]
    moves_first: bool = True


@dataclass(frozen=True)
class Option:
    """One way a detective can spend its next k turns."""

    path: tuple[Station, ...]  # k + 1 stations, the first where it stands now
    tickets: tuple[Ticket | None, ...]  # per turn; None = no move
    blocked: tuple[StationMask | None, ...]  # per turn: a stay needs all these destinations occupied
    cost: int  # bus + underground tickets used


@dataclass(frozen=True)
class DetectivePlan:
    name: str
    path: tuple[Station, ...]
    tickets: tuple[str | None, ...]
    on_duty: bool

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "path": list(self.path), "tickets": list(self.tickets), "on_duty": self.on_duty}

    def describe(self) -> str:
        parts = [str(self.path[0])]
        for t, s in zip(self.tickets, self.path[1:]):
            parts.append(f"-{_LETTER[t]}-> {s}" if t else "(no move)")
        return " ".join(parts)


_LETTER = {"taxi": "T", "bus": "B", "underground": "U", None: "-"}


@dataclass(frozen=True)
class CordonResult:
    """What ``cordon`` found.  ``feasible`` is None when no detectives were given (puzzle mode
    asks only for the cordon size)."""

    target: tuple[Station, ...]
    probabilities: dict[Station, float]
    moves: int
    cordon_size: int | None
    cordon: tuple[Station, ...]
    cordon_status: str
    feasible: bool | None
    plan: tuple[DetectivePlan, ...]
    open: tuple[Station, ...]
    sealed_probability: float
    status: str
    wall_time: float
    detectives_available: int = 0
    context: dict[str, Any] = field(default_factory=dict)

    def to_frame(self):  # -> pandas.DataFrame
        """The plan as a pandas DataFrame: one row per detective and turn (``detective``,
        ``turn`` 1-based, ``ticket`` or None for no move, ``from``, ``to``, ``on_duty``)."""
        import pandas as pd

        rows = [(p.name, j, t, a, b, p.on_duty) for p in self.plan
                for j, (t, a, b) in enumerate(zip(p.tickets, p.path, p.path[1:]), 1)]
        return pd.DataFrame(rows, columns=["detective", "turn", "ticket", "from", "to", "on_duty"])

    def to_dict(self) -> dict[str, Any]:
        """The stable JSON form (README, "cordon --format json")."""
        return {
            "moves": self.moves,
            "target": list(self.target),
            "cordon_size": self.cordon_size,
            "cordon": list(self.cordon),
            "cordon_status": self.cordon_status,
            "feasible": self.feasible,
            "plan": [p.to_dict() for p in self.plan],
            "open": list(self.open),
            "sealed_probability": self.sealed_probability,
            "status": self.status,
            "wall_time": round(self.wall_time, 4),
            "detectives": self.detectives_available,
            **self.context,
        }


# ---- geometry ---------------------------------------------------------------------------------


def held_tickets(mrx_tickets: Mapping[str, int]) -> tuple[Ticket, ...]:
    """The move tickets Mr. X holds at least one of."""
    return Tickets.of(mrx_tickets).held()


def exits(board: Board, station: Station, tickets: Iterable[Ticket]) -> StationMask:
    """Stations Mr. X can move to from ``station`` with ``tickets`` (detectives not excluded)."""
    m = 0
    for t in tickets:
        m |= mrx_targets(board, 1 << station, t, 0)
    return m


def distances_to(board: Board, goal: StationMask, tickets: Sequence[Ticket] = DETECTIVE_TICKETS) -> dict[Station, int]:
    """Fewest hops (any of ``tickets``, counts ignored) from every station to the nearest
    station of ``goal``."""
    out = {s: 0 for s in stations_of(goal)}
    seen = frontier = goal
    hops = 0
    while frontier:
        hops += 1
        frontier = board.step_any(frontier, tickets) & ~seen
        seen |= frontier
        for s in stations_of(frontier):
            out[s] = hops
    return out


def tickets_after(tickets: Sequence[Ticket], plan: Sequence[Option], tickets_to_mrx: bool = True) -> tuple[Ticket, ...]:
    """The kinds Mr. X holds once the detectives have played ``plan`` (their tickets go to him)."""
    if not tickets_to_mrx:
        return tuple(tickets)
    used = {t for o in plan for t in o.tickets if t is not None}
    return tuple(t for t in Ticket if t in tickets or t in used)


def is_sealed(board: Board, p: Station, occupied: StationMask, tickets: Sequence[Ticket]) -> bool:
    """``p`` is in ``occupied`` or every exit of ``p`` is."""
    return bool(occupied >> p & 1) or not (exits(board, p, tickets) & ~occupied)


def expand(board: Board, weights: Mapping[Station, int], tickets: Sequence[Ticket], times: int,
           blocked: StationMask = 0) -> dict[Station, int]:
    """Route counts after ``times`` more Mr. X moves with any of ``tickets`` (no pruning but
    ``blocked`` stations)."""
    cur = dict(weights)
    for _ in range(times):
        nxt: dict[Station, int] = {}
        for s, c in cur.items():
            for d in stations_of(exits(board, s, tickets) & ~blocked):
                nxt[d] = nxt.get(d, 0) + c
        cur = nxt
    return cur


# ---- options ---------------------------------------------------------------------------------


def detective_options(board: Board, det: DetectiveState, k: int, others: int) -> list[Option]:
    """Every legal way for ``det`` to spend its next ``k`` turns with its own tickets (the
    engine's :func:`~sy_tools.position.detective_hops`), ignoring the other detectives except
    that a stay is kept only when at most ``others`` destinations would need blocking.

    A stay is the engine's "stuck": the detective has no legal move when its turn comes (every
    destination occupied, or no ticket for any connection), and it is then out for good, so
    every later turn of that option is a stay too."""
    Partial = tuple[tuple[Station, ...], tuple[Ticket | None, ...], tuple[StationMask | None, ...], Tickets, int,
                    bool]
    opts: list[Partial] = [((det.station,), (), (), Tickets.of(det.tickets), 0, False)]
    for j in range(k):
        nxt: list[Partial] = []
        for path, tks, blk, left, cost, out in opts:
            here = path[-1]
            if out or (j == 0 and not det.moves_first):
                nxt.append((path + (here,), tks + (None,), blk + (None,), left, cost, out))
                continue
            dests = 0
            for t, d in detective_hops(board, here, left):
                dests |= 1 << d
                nxt.append((path + (d,), tks + (t,), blk + (None,), left.spend(t), cost + (t is not Ticket.TAXI),
                            False))
            if dests.bit_count() <= others:
                nxt.append((path + (here,), tks + (None,), blk + (dests,), left, cost, True))
        opts = nxt
    return [Option(p, t, b, c) for p, t, b, _, c, _ in opts]


# ---- the CP-SAT models ------------------------------------------------------------------------


#: The most detective options (move sequences, summed over detectives) a plan model may hold.
#: Each costs about 10 kB of model and a fifth of a millisecond to build; the count grows
#: exponentially with the number of turns, so it is estimated before anything is built.
MAX_PLAN_OPTIONS = 50_000
#: Memory CP-SAT may use per solve (it stops the search beyond this).
SOLVER_MEMORY_MB = 2048
#: Longest --time-limit accepted (a day).
MAX_TIME_LIMIT = 86_400.0


class _OutOfTime(Exception):
    """The deadline passed while a model was being built."""


def _check_deadline(deadline: float | None) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise _OutOfTime


def _remaining(time_limit: float, deadline: float | None) -> float:
    """Seconds a solve may take: the time limit, cut to what is left before ``deadline``."""
    if deadline is None:
        return time_limit
    return min(time_limit, deadline - time.monotonic())


def _solver(time_limit: float, workers: int | None):
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    solver.parameters.max_memory_in_mb = SOLVER_MEMORY_MB
    # CP-SAT would otherwise take Ctrl-C for itself and return a result; _solve stops it instead
    solver.parameters.catch_sigint_signal = False
    if workers:
        solver.parameters.num_workers = int(workers)
    return solver


def _solve(solver: Any, model: Any) -> Any:
    """``solver.solve(model)`` in a helper thread, so Ctrl-C (KeyboardInterrupt in the main
    thread) stops the search at once and propagates instead of being swallowed."""
    import threading

    box: dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            box["status"] = solver.solve(model)
        except BaseException as e:  # pragma: no cover - re-raised below
            box["error"] = e
        finally:
            done.set()

    # wait on an Event, not Thread.join: an interrupted join can leave the thread marked as
    # finished while it still runs
    threading.Thread(target=run, name="cp-sat", daemon=True).start()
    try:
        while not done.wait(0.05):
            pass
    except BaseException:
        solver.stop_search()
        done.wait(5)
        raise
    if "error" in box:
        raise box["error"]
    return box["status"]


def check_time_limit(time_limit: float) -> float:
    """``time_limit`` as a float, if it is a usable number of seconds (finite, positive, at most
    a day); otherwise :class:`InputError`."""
    try:
        t = float(time_limit)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"--time-limit must be a number of seconds, got {time_limit!r}") from None
    if not math.isfinite(t) or t <= 0 or t > MAX_TIME_LIMIT:
        raise InputError(f"--time-limit must be a positive number of seconds up to {MAX_TIME_LIMIT:g}, "
                         f"got {time_limit!r}")
    return t


def count_options(board: Board, det: DetectiveState, k: int, others: int) -> int:
    """How many options :func:`detective_options` gives ``det`` for ``k`` turns, counted by
    walking (station, out) states instead of listing them (an upper bound: ticket counts running
    out are ignored, except kinds it holds none of).  A stay is "stuck": out for good."""
    held = Tickets.of(det.tickets)
    paths: dict[tuple[Station, bool], int] = {(det.station, False): 1}
    for j in range(k):
        nxt: dict[tuple[Station, bool], int] = {}
        for (here, out), c in paths.items():
            if out or (j == 0 and not det.moves_first):
                nxt[here, out] = nxt.get((here, out), 0) + c
                continue
            dests = 0
            for _, d in detective_hops(board, here, held):
                dests |= 1 << d
                nxt[d, False] = nxt.get((d, False), 0) + c
            if dests.bit_count() <= others:
                nxt[here, True] = nxt.get((here, True), 0) + c
        paths = nxt
    return sum(paths.values())


def check_plan_size(board: Board, detectives: Sequence[DetectiveState], k: int,
                    limit: int = MAX_PLAN_OPTIONS) -> int:
    """The estimated number of options a ``k``-turn plan weighs; :class:`InputError` (naming the
    most turns that fit) when it exceeds ``limit``."""
    n = len(detectives)

    def total(turns: int) -> int:
        return sum(count_options(board, d, turns, n - 1) for d in detectives)

    size = total(k)
    if size > limit:
        fits = max((j for j in range(1, k) if total(j) <= limit), default=0)
        hint = f"use --moves {fits} or fewer" if fits else "use fewer detectives"
        raise InputError(f"--moves {k}: a {k}-turn plan weighs about {size:,} detective move sequences, "
                         f"more than the {limit:,} that fit in bounded time and memory; {hint}")
    return size


def min_cordon(board: Board, target: Sequence[Station], tickets: Sequence[Ticket], time_limit: float = 10.0,
               workers: int | None = None, deadline: float | None = None) -> tuple[int | None, tuple[Station, ...], str]:
    """The smallest set of stations sealing every station of ``target``: (size, one such set,
    solver status).  ``deadline`` (``time.monotonic()``) cuts the solve short."""
    from ortools.sat.python import cp_model

    if not target:
        return 0, (), "optimal"
    ex = {p: exits(board, p, tickets) for p in target}
    places = sorted(set(target) | {s for m in ex.values() for s in stations_of(m)})

    model = cp_model.CpModel()
    # variables: x[s] = a detective stands on s
    x = {s: model.new_bool_var(f"x[{s}]") for s in places}
    # every possible station is sealed: caught there, or every exit is covered
    for p in target:
        trap = model.new_bool_var(f"trap[{p}]")
        for e in stations_of(ex[p]):
            model.add_implication(trap, x[e])
        model.add_bool_or([x[p], trap])
    model.minimize(sum(x.values()))

    limit = _remaining(time_limit, deadline)
    if limit <= 0.005:
        return None, (), "unknown"
    solver = _solver(limit, workers)
    status = _solve(solver, model)
    name = STATUS_NAMES.get(solver.status_name(status), "unknown")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, (), name
    chosen = tuple(s for s in places if solver.boolean_value(x[s]))
    return len(chosen), chosen, name


def plan_cordon(
    board: Board,
    detectives: Sequence[DetectiveState],
    target_weights: Mapping[Station, int],
    tickets: Sequence[Ticket],
    k: int = 1,
    time_limit: float = 10.0,
    workers: int | None = None,
    tickets_to_mrx: bool = True,
    deadline: float | None = None,
) -> tuple[list[Option] | None, list[bool], str]:
    """Choose one option per detective: seal the most weight of ``target_weights`` (route counts
    or any positive weights), then fewest detectives on duty, then fewest bus/underground
    tickets, then final stations closest to the target.  With ``tickets_to_mrx``, a kind of ticket Mr. X lacks but a planned move uses is
    his afterwards, so its connections count as exits too.  Returns (chosen options or None,
    on-duty flags, solver status).

    The model's size is estimated first (:func:`check_plan_size`: too many options is an
    :class:`InputError`); ``deadline`` (``time.monotonic()``) bounds building and solving
    together: past it the status is ``unknown``."""
    check_plan_size(board, detectives, k)
    try:
        return _plan_cordon(board, detectives, target_weights, tickets, k, time_limit, workers, tickets_to_mrx,
                            deadline)
    except _OutOfTime:
        return None, [], "unknown"


def _plan_cordon(
    board: Board,
    detectives: Sequence[DetectiveState],
    target_weights: Mapping[Station, int],
    tickets: Sequence[Ticket],
    k: int,
    time_limit: float,
    workers: int | None,
    tickets_to_mrx: bool,
    deadline: float | None,
) -> tuple[list[Option] | None, list[bool], str]:
    from ortools.sat.python import cp_model

    n = len(detectives)
    options = []
    for det in detectives:
        options.append(detective_options(board, det, k, n - 1))
        _check_deadline(deadline)
    target = sorted(target_weights)
    total = sum(target_weights.values()) or 1
    weight = {p: max(1, round(SCALE * target_weights[p] / total)) for p in target}
    ex = {p: exits(board, p, tickets) for p in target}

    model = cp_model.CpModel()
    # variables: z[d, o] = detective d follows option o
    z = {(d, o): model.new_bool_var(f"z[{detectives[d].name},{o}]")
         for d in range(n) for o in range(len(options[d]))}
    for d in range(n):
        model.add_exactly_one(z[d, o] for o in range(len(options[d])))

    # at[d][j][s]: the option literals that put detective d on s after turn j (j = 0 .. k)
    at: list[list[dict[Station, list[Any]]]] = [[{} for _ in range(k + 1)] for _ in range(n)]
    moving: list[list[dict[Station, list[Any]]]] = [[{} for _ in range(k + 1)] for _ in range(n)]
    for d in range(n):
        for o, opt in enumerate(options[d]):
            for j, s in enumerate(opt.path):
                at[d][j].setdefault(s, []).append(z[d, o])
                if j and opt.tickets[j - 1] is not None:
                    moving[d][j].setdefault(s, []).append(z[d, o])

    def when(e: int, d: int, j: int) -> int:
        """Which of e's positions stands while d makes its turn-j move (turn order is the order
        of ``detectives``, so names need not be unique for the model to be right)."""
        return j if e < d else j - 1

    _check_deadline(deadline)
    # never onto a station another detective occupies at that moment
    for d in range(n):
        for j in range(1, k + 1):
            _check_deadline(deadline)
            for s, lits in moving[d][j].items():
                for e in range(n):
                    if e != d and s in at[e][when(e, d, j)]:
                        model.add(sum(lits) + sum(at[e][when(e, d, j)][s]) <= 1)

    # a detective that can move must move: a stay needs every destination occupied then
    for d in range(n):
        for o, opt in enumerate(options[d]):
            if not o % 256:
                _check_deadline(deadline)
            for j, blk in enumerate(opt.blocked, 1):
                if not blk:
                    continue
                for x in stations_of(blk):
                    blockers = [lit for e in range(n) if e != d for lit in at[e][when(e, d, j)].get(x, [])]
                    if blockers:
                        model.add_bool_or(blockers).only_enforce_if(z[d, o])
                    else:
                        model.add(z[d, o] == 0)

    # two detectives never end on one station (implied by the rule above; stated for propagation)
    finals: dict[Station, list[Any]] = {}
    for d in range(n):
        for s, lits in at[d][k].items():
            finals.setdefault(s, []).extend(lits)
    for lits in finals.values():
        if len(lits) > 1:
            model.add(sum(lits) <= 1)

    # tickets the plan hands to Mr. X: gained[t] is true when some planned move uses t
    gained: dict[Ticket, Any] = {}
    if tickets_to_mrx:
        for t in DETECTIVE_TICKETS:
            if t in tickets:
                continue
            users = [z[d, o] for d in range(n) for o, opt in enumerate(options[d]) if t in opt.tickets]
            if users:
                gained[t] = model.new_bool_var(f"gained[{t.value}]")
                for lit in users:
                    model.add_implication(lit, gained[t])
    extra = {(p, t): board.neighbours[t][p] & ~ex[p] for p in target for t in gained}

    # final stations of detectives on cordon duty
    duty = [model.new_bool_var(f"duty[{detectives[d].name}]") for d in range(n)]
    places = set(target) | {s for m in ex.values() for s in stations_of(m)}
    places |= {s for m in extra.values() for s in stations_of(m)}
    guard: dict[Station, list[Any]] = {}
    for d in range(n):
        for s, lits in at[d][k].items():
            if s in places:
                g = model.new_bool_var(f"guard[{detectives[d].name},{s}]")
                model.add(g <= sum(lits))
                model.add_implication(g, duty[d])
                guard.setdefault(s, []).append(g)

    # sealed[p]: a guard on p, or on every exit of p
    _check_deadline(deadline)
    sealed = {}
    for p in target:
        sealed[p] = model.new_bool_var(f"sealed[{p}]")
        trap = model.new_bool_var(f"trap[{p}]")
        for e in stations_of(ex[p]):
            if e in guard:
                model.add(trap <= sum(guard[e]))
            else:
                model.add(trap == 0)
        for t, got in gained.items():  # exits opened by a ticket the plan hands him
            for e in stations_of(extra[p, t]):
                if e in guard:
                    model.add(sum(guard[e]) >= 1).only_enforce_if([trap, got])
                else:
                    model.add_bool_or([trap.Not(), got.Not()])
        model.add(sealed[p] <= sum(guard.get(p, [])) + trap)

    # objective, in strict priority: sealed weight; fewest on duty; fewest bus/underground
    # tickets; detectives ending close to the target (so a partial plan still closes in)
    near = distances_to(board, mask_of(target))
    far = max(near.values(), default=0) + 1
    tickets_used = sum(opt.cost * z[d, o] for d in range(n) for o, opt in enumerate(options[d]))
    distance = sum(min(near.get(opt.path[-1], far), far) * z[d, o]
                   for d in range(n) for o, opt in enumerate(options[d]))
    w_ticket = n * far + 1  # one ticket outweighs any distance total
    w_duty = w_ticket * (3 * k * n + 1)  # one detective on duty outweighs any ticket total
    w_seal = w_duty * (n + 1)  # one unit of sealed weight outweighs everything below it
    model.maximize(w_seal * sum(weight[p] * sealed[p] for p in target) - w_duty * sum(duty)
                   - w_ticket * tickets_used - distance)

    _check_deadline(deadline)
    limit = _remaining(time_limit, deadline)
    if limit <= 0.005:
        return None, [], "unknown"
    solver = _solver(limit, workers)
    status = _solve(solver, model)
    name = STATUS_NAMES.get(solver.status_name(status), "unknown")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, [], name
    chosen = [next(options[d][o] for o in range(len(options[d])) if solver.boolean_value(z[d, o]))
              for d in range(n)]
    return chosen, [bool(solver.boolean_value(v)) for v in duty], name


def _check_detectives(board: Board, detectives: Sequence[DetectiveState]) -> None:
    """Names unique and non-empty, stations on the map and distinct: otherwise the plan would
    be about pieces that cannot exist."""
    if detectives:
        puzzle_detectives(board, [(d.name, d.station) for d in detectives], limit=len(detectives))


def solve(
    board: Board,
    possible_weights: Mapping[Station, int],
    mrx_tickets: Mapping[str, int],
    detectives: Sequence[DetectiveState] = (),
    moves: int = 1,
    time_limit: float = 10.0,
    workers: int | None = None,
    context: dict[str, Any] | None = None,
    tickets_to_mrx: bool = True,
) -> CordonResult:
    """Cordon size and (with detectives) the best k-turn plan for Mr. X's possible stations
    ``possible_weights`` (station -> route count or any positive weight) at the moment the
    detectives are to move.  ``tickets_to_mrx``: the tickets the plan uses pass to him (so a
    kind he lacks can open exits).

    ``time_limit`` bounds the whole call, model building included (a third of it at most goes
    to the cordon size when a plan is asked for); a plan model too large to build in bounded
    memory is refused up front (:func:`check_plan_size`)."""
    if moves < 1:
        raise InputError(f"--moves must be at least 1, got {moves}")
    time_limit = check_time_limit(time_limit)
    _check_detectives(board, detectives)
    t0 = time.perf_counter()
    deadline = time.monotonic() + time_limit
    if detectives:
        check_plan_size(board, detectives, moves)
    tickets = held_tickets(mrx_tickets)
    target_w = expand(board, possible_weights, tickets, moves - 1)
    target = tuple(sorted(target_w))
    total = sum(target_w.values())
    probs = {s: target_w[s] / total for s in target} if total else {}
    size, cordon, c_status = min_cordon(board, target, tickets, time_limit / 3 if detectives else time_limit,
                                        workers, deadline)
    plan: tuple[DetectivePlan, ...] = ()
    feasible: bool | None = None
    open_: tuple[Station, ...] = target
    sealed_p = 0.0
    status = c_status
    if detectives:
        chosen, duty, status = plan_cordon(board, detectives, target_w, tickets, moves, time_limit, workers,
                                           tickets_to_mrx, deadline)
        if chosen is not None:
            final = mask_of(o.path[-1] for o in chosen)
            after = tickets_after(tickets, chosen, tickets_to_mrx)
            open_ = tuple(p for p in target if not is_sealed(board, p, final, after))
            feasible = not open_
            sealed_p = sum(probs[p] for p in target if p not in open_)
            plan = tuple(
                DetectivePlan(d.name, o.path, tuple(t.value if t else None for t in o.tickets), on)
                for d, o, on in zip(detectives, chosen, duty)
            )
        if status == "optimal" and c_status != "optimal":
            status = c_status  # report the weaker of the two proofs
    elif size is not None:
        sealed_p = 1.0
        open_ = ()
    return CordonResult(
        target=target,
        probabilities=probs,
        moves=moves,
        cordon_size=size,
        cordon=cordon,
        cordon_status=c_status,
        feasible=feasible,
        plan=plan,
        open=open_,
        sealed_probability=sealed_p,
        status=status,
        wall_time=time.perf_counter() - t0,
        detectives_available=len(detectives),
        context=context or {},
    )


@dataclass(frozen=True)
class CordonInputs:
    """What the solver needs from a record: Mr. X's possible stations (route counts) when the
    detectives are to move, his tickets, and the detectives as they stand."""

    board: Board
    weights: dict[Station, int]
    mrx_tickets: dict[str, int]
    detectives: tuple[DetectiveState, ...]
    context: dict[str, Any]
    tickets_to_mrx: bool = True
    position: Position | None = None  # the engine's position the record reaches


def cordon_inputs(record: Record, after: Ticket | None = None) -> CordonInputs:
    """Replay ``record`` (it must be legal and in progress) and set up the cordon problem."""
    from .referee import check
    from .tracker import possible

    result = check(record)
    if not result.legal:
        first = result.errors[0]
        raise AnalysisError(f"the record is illegal: {first.message} (run 'sy-tools check')", record.file,
                            first.where)
    status, pos = result.status, result.position
    assert pos is not None
    if status.over:
        raise AnalysisError(f"the game is over: {status.describe()}", record.file)
    poss = possible(record, weights="paths")
    weights = dict(poss.route_counts or {s: 1 for s in poss.stations})
    if pos.to_move == MRX:
        tickets = (after,) if after is not None else pos.mrx_tickets.held()
        if after is not None and pos.mrx_tickets[after] <= 0:
            raise InputError(f"--after {after.value}: Mr. X has no {after.value} ticket left", record.file)
        weights = expand(record.board, weights, tickets, 1, blocked=pos.occupied)
        if not weights:
            raise AnalysisError("Mr. X has no move with that ticket from any possible station", record.file)
        first_movers = set(pos.names)
    else:
        if after is not None:
            raise InputError("--after applies only when Mr. X moves next; the detectives are to move now",
                             record.file)
        first_movers = set(pos.names[pos.turn - 1:])
    dets = tuple(DetectiveState(n, s, t.to_dict(DETECTIVE_KINDS), n in first_movers)
                 for n, s, t in zip(pos.names, pos.stations, pos.tickets) if n not in pos.out)
    ctx = {"round": status.round, "mrx_moves": status.move, "to_move": "mrx" if pos.to_move == MRX else pos.to_move,
           "file": record.file}
    return CordonInputs(record.board, weights, pos.mrx_tickets.to_dict(), dets, ctx, record.rules.tickets_to_mrx,
                        pos)


def cordon(record: Record, moves: int = 1, after: Ticket | None = None, time_limit: float = 10.0,
           workers: int | None = None) -> CordonResult:
    """The cordon for the position a game record reaches (detectives' point of view).

    Raises :class:`AnalysisError` when the record is illegal or the game is over."""
    inp = cordon_inputs(record, after)
    return solve(inp.board, inp.weights, inp.mrx_tickets, inp.detectives, moves, time_limit, workers, inp.context,
                 inp.tickets_to_mrx)


def puzzle(board: Board, around: Sequence[Station], detectives: Sequence[tuple[str, Station]] = (),
           detective_tickets: Mapping[str, int] | None = None,
           mrx_tickets: Mapping[str, int] | None = None, moves: int = 1, time_limit: float = 10.0,
           workers: int | None = None, tickets_to_mrx: bool = True) -> CordonResult:
    """Puzzle mode: Mr. X is somewhere in ``around`` (equally likely); how many detectives trap
    him, and can these ``detectives`` (name, station) do it in ``moves`` turns?"""
    for s in around:
        if s not in board:
            raise InputError(f"station {s} is not on the map {board.name!r}", where="--around")
    pos = set(puzzle_detectives(board, detectives)) if detectives else set()
    weights = {s: 1 for s in around if s not in pos}
    if not weights:
        raise InputError("every --around station is occupied by a detective", where="--around")
    from .rules import PRESETS

    tickets = dict(detective_tickets or PRESETS["classic"].detective_tickets)
    mt = dict(mrx_tickets or PRESETS["classic"].mrx_tickets)
    dets = [DetectiveState(n, s, tickets, True) for n, s in detectives]
    return solve(board, weights, mt, dets, moves, time_limit, workers, {"around": sorted(weights)}, tickets_to_mrx)
