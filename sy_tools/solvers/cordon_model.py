"""The CP-SAT models of the cordon: options, the minimum cordon, the plan."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.args import int_arg
from ..engine.board import Board
from ..engine.budget import check_time_limit, deadline_within
from ..engine.hops import detective_hops
from ..engine.position import double_allowed
from ..engine.rules import PRESETS, Rules
from ..engine.stations import Station, StationMask, mask_of, stations_of
from ..engine.tickets import DETECTIVE_TICKETS, Ticket, Tickets, Transport
from ..errors import InputError
from .cordon_result import SCALE, CordonResult, CordonStatus, DetectivePlan, DetectiveState, Option
from .puzzles import puzzle_detectives
from .seal import SealExit, distances_to, expand, held_tickets, is_sealed, seal_exits, tickets_after


def detective_options(board: Board, det: DetectiveState, k: int, others: int,
                      takes: Sequence[int] = (), rules: Rules | None = None) -> list[Option]:
    """Every legal way for ``det`` to spend its next ``k`` turns with its own tickets (the
    engine's :func:`~sy_tools.engine.hops.detective_hops`), ignoring the other detectives except
    that a stay is kept only when at most ``others`` destinations would need blocking.

    A stay is the engine's "stuck": the detective has no legal move when its turn comes (every
    destination occupied, or no ticket for any connection).  Where ``rules`` (default: classic)
    make it out for good (:meth:`Rules.stuck_is_out`) every later turn of that option is a stay
    too; otherwise (``blocked_detective: waits``) a later turn moves or stays blocked again.

    ``takes`` (voluntary reveal; :func:`reveal_takes`): per turn, how many tickets Mr. X may
    have taken before it; only options that survive any such takes are kept (:func:`robust`)."""
    Partial = tuple[tuple[Station, ...], tuple[Ticket | None, ...], tuple[StationMask | None, ...], Tickets, int,
                    bool]
    stuck_is_out = (rules or PRESETS["classic"]).stuck_is_out
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
                nxt.append((path + (here,), tks + (None,), blk + (dests,), left, cost, stuck_is_out(bool(dests))))
        opts = nxt
    start = Tickets.of(det.tickets)
    return [Option(p, t, b, c) for p, t, b, _, c, _ in opts if robust(start, t, takes)]


def reveal_takes(rules: Rules | None, k: int, mrx_moves: int | None = None, mrx_first: bool = False) -> tuple[int, ...]:
    """Under ``rules.voluntary_reveal``: per planned turn ``j`` = 1 .. ``k``, how many of Mr. X's
    turns before it may be voluntary reveals, each taking one ticket from one detective (all
    zero otherwise).  He moves between planned turns, and before the first when ``mrx_first``
    (he is to move now); a turn whose travel-log entry is a fixed reveal (single moves: entry
    ``mrx_moves + 1``, ``+ 2``, ...) or past the log takes nothing.  ``mrx_moves`` None (a
    puzzle) means any of his turns may."""
    if rules is None or not rules.voluntary_reveal:
        return (0,) * k
    out: list[int] = []
    n = 0
    for j in range(1, k + 1):
        if j > 1 or mrx_first:
            if mrx_moves is None:
                n += 1
            else:
                entry = mrx_moves + (j if mrx_first else j - 1)
                n += entry <= rules.log_length and not rules.is_reveal(entry)
        out.append(n)
    return tuple(out)


def robust(start: Tickets, tickets: Sequence[Ticket | None], takes: Sequence[int]) -> bool:
    """Whether a detective holding ``start`` can play ``tickets`` (one per turn, None: no move)
    whatever Mr. X takes from it: before turn ``j`` he may have taken ``takes[j - 1]`` tickets of
    his choice.  His best try is to take every time the kind the detective needs, so each kind
    it uses must keep, after its last use, at least as many spare as he may have taken by then."""
    if not takes or not takes[-1]:
        return True
    used: dict[Ticket, int] = {}
    last: dict[Ticket, int] = {}
    for j, t in enumerate(tickets):
        if t is not None:
            used[t] = used.get(t, 0) + 1
            last[t] = j
    return all(start[t] - used[t] >= takes[last[t]] for t in used)


def undominated(options: Sequence[Option], lacking: Sequence[Ticket] = (), exact: bool = False) -> list[Option]:
    """``options`` less those another option dominates: the same stations and stays turn by turn
    (so the same moves for the movement rules), no more bus/underground tickets, and of the kinds
    in ``lacking`` (Mr. X lacks them; the plan hands him what it uses) a subset, the same set when
    ``exact`` (a handed kind can then help the seal: a capture along it).  Swapping a dominated
    option for its dominator keeps a plan legal and its objective no worse, so the best plan's
    value is unchanged; of equal ones (e.g. bus or underground between the same two stations
    while he holds both) the first is kept, which also removes that symmetry from the search.
    Only without voluntary reveals: with them which tickets are played decides more."""
    groups: dict[tuple[tuple[Station, ...], tuple[StationMask | None, ...]], list[tuple[Option, frozenset[Ticket]]]] = {}
    for o in options:
        kinds = frozenset(t for t in o.tickets if t is not None and t in lacking)
        groups.setdefault((o.path, o.blocked), []).append((o, kinds))
    out = []
    for group in groups.values():
        if len(group) == 1:
            out.append(group[0][0])
            continue
        kept: list[tuple[Option, frozenset[Ticket]]] = []
        for o, kinds in sorted(group, key=lambda g: (g[0].cost, len(g[1]))):
            if not any(c.cost <= o.cost and (ks == kinds if exact else ks <= kinds) for c, ks in kept):
                kept.append((o, kinds))
        out += [o for o, _ in kept]
    return out


def takeable(det: DetectiveState, option: Option, takes: Sequence[int]) -> frozenset[Ticket]:
    """The kinds Mr. X could take from ``det`` following ``option``: those it still holds at his
    first chance to take one (holdings only shrink afterwards)."""
    first = next((j for j, r in enumerate(takes) if r), None)
    if first is None:
        return frozenset()
    left = Tickets.of(det.tickets)
    for t in option.tickets[:first]:
        if t is not None:
            left = left.spend(t)
    return frozenset(left.held(DETECTIVE_TICKETS))


#: The most detective options (move sequences, summed over detectives) a plan model may hold.
#: Each costs about 10 kB of model and a fifth of a millisecond to build; the count grows
#: exponentially with the number of turns, so it is estimated before anything is built.
MAX_PLAN_OPTIONS = 50_000

#: Memory CP-SAT may use per solve (it stops the search beyond this).
SOLVER_MEMORY_MB = 2048

#: CP-SAT threads when --workers is not given: one, at linearization level 2 (:func:`_new_solver`).
DEFAULT_WORKERS = 1


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


def _new_solver(time_limit: float, workers: int | None):
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    solver.parameters.max_memory_in_mb = SOLVER_MEMORY_MB
    # CP-SAT would otherwise take Ctrl-C for itself and return a result; _solve_interruptibly stops it instead
    solver.parameters.catch_sigint_signal = False
    # Both models are covering problems whose proofs come from the LP with cuts (clique cuts above
    # all): at linearization level 2 one worker proves in well under a second what CP-SAT's default
    # 2-thread portfolio (no LP-heavy worker) leaves unproven after 10 s (docs/benchmarks.md, cordon;
    # the measurement itself is in that page's git history, 2026-12-02).
    solver.parameters.linearization_level = 2
    solver.parameters.num_workers = int(workers) if workers else DEFAULT_WORKERS
    return solver


def _solve_interruptibly(solver: Any, model: Any) -> Any:
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


def count_options(board: Board, det: DetectiveState, k: int, others: int, rules: Rules | None = None) -> int:
    """How many options :func:`detective_options` gives ``det`` for ``k`` turns, counted by
    walking (station, out) states instead of listing them (an upper bound: ticket counts running
    out are ignored, except kinds it holds none of).  A stay is "stuck": out for good where
    ``rules`` say so, as there."""
    counts = _option_counts(board, det, others, rules)
    total = 1
    for _ in range(k):
        total = next(counts)
    return total


def _option_counts(board: Board, det: DetectiveState, others: int, rules: Rules | None = None) -> Iterator[int]:
    """:func:`count_options` for 1, 2, 3 ... turns, one turn further each time it is asked (never
    fewer than the turn before: every state has a way on, a move or the stay)."""
    stuck_is_out = (rules or PRESETS["classic"]).stuck_is_out
    held = Tickets.of(det.tickets)
    paths: dict[tuple[Station, bool], int] = {(det.station, False): 1}
    j = 0
    while True:
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
                gone = stuck_is_out(bool(dests))
                nxt[here, gone] = nxt.get((here, gone), 0) + c
        paths = nxt
        j += 1
        yield sum(paths.values())


def check_plan_size(board: Board, detectives: Sequence[DetectiveState], k: int,
                    limit: int = MAX_PLAN_OPTIONS, deadline: float | None = None, rules: Rules | None = None) -> int:
    """The estimated number of options a ``k``-turn plan weighs; :class:`InputError` (naming the
    most turns that fit) when it exceeds ``limit``.  Counted a turn at a time (the count never
    falls), so a huge ``k`` costs little more than the turns that fit: past them the count goes
    on to ``k`` only up to :data:`SIZE_SHOWN_TURNS` turns, to say how many; :class:`_OutOfTime`
    past ``deadline``."""
    n = len(detectives)
    walks = [_option_counts(board, d, n - 1, rules) for d in detectives]
    size = 0
    fits: int | None = None
    for turn in range(1, k + 1):
        _check_deadline(deadline)
        size = sum(next(w) for w in walks)
        if size > limit and fits is None:
            fits = turn - 1
        if fits is not None and (turn == k or k > SIZE_SHOWN_TURNS):
            hint = f"use --moves {fits} or fewer" if fits else "use fewer detectives"
            shown = f"about {size:,}" if turn == k else f"more than {size:,}"
            raise InputError(f"--moves {k}: a {k}-turn plan weighs {shown} detective move sequences, "
                             f"more than the {limit:,} that fit in bounded time and memory; {hint}")
    return size


#: Up to this many turns, a plan too large is refused with its estimated size for every turn.
SIZE_SHOWN_TURNS = 12


def min_cordon(board: Board, target: Sequence[Station], tickets: Sequence[Ticket], time_limit: float = 10.0,
               workers: int | None = None, deadline: float | None = None,
               rules: Rules | None = None) -> tuple[int | None, tuple[Station, ...], CordonStatus]:
    """The smallest set of stations sealing every station of ``target`` (:func:`is_sealed`
    under ``rules``): (size, one such set, solver status).  ``deadline`` (``time.monotonic()``)
    cuts the solve short (and when it has passed, the solver is not even loaded)."""
    if not target:
        return 0, (), CordonStatus.OPTIMAL
    if _remaining(time_limit, deadline) <= 0.005:
        return None, (), CordonStatus.UNKNOWN
    from ortools.sat.python import cp_model
    cutoff = bool(rules is not None and rules.cutoff_escape and board.via)
    ways = {p: seal_exits(board, p, tickets, (), cutoff) for p in target}
    places = sorted(_places(target, ways))

    model = cp_model.CpModel()
    # variables: x[s] = a detective stands on s
    x = {s: model.new_bool_var(f"x[{s}]") for s in places}
    stand = {s: [v] for s, v in x.items()}
    # every possible station is sealed
    sealed = _add_seals(model, target, ways, stand, stand, rules, {})
    for v in sealed.values():
        model.add(v == 1)
    model.minimize(sum(x.values()))

    limit = _remaining(time_limit, deadline)
    if limit <= 0.005:
        return None, (), CordonStatus.UNKNOWN
    solver = _new_solver(limit, workers)
    status = CordonStatus.of_solver(solver.status_name(_solve_interruptibly(solver, model)))
    if not status.found:
        return None, (), status
    chosen = tuple(s for s in places if solver.boolean_value(x[s]))
    return len(chosen), chosen, status


def _places(target: Sequence[Station], ways: Mapping[Station, Sequence[SealExit]]) -> set[Station]:
    """Stations a seal looks at: the targets, their exits, and the stations lines pass over."""
    out = set(target)
    for xs in ways.values():
        for x in xs:
            out.add(x.to)
            if x.via:
                out.update(stations_of(x.via))
    return out


def _add_seals(model: Any, target: Sequence[Station], ways: Mapping[Station, Sequence[SealExit]],
               guard: Mapping[Station, list[Any]], stand: Mapping[Station, list[Any]], rules: Rules | None,
               gained: Mapping[Ticket, Any]) -> dict[Station, Any]:
    """``sealed[p]`` for each target station: true only if :func:`is_sealed` holds for the final
    stations.  ``guard[s]``: literals of a detective (on duty) standing on ``s`` at the end;
    ``stand[s]``: literals of any detective standing there (at most one true); ``gained[t]``: Mr. X
    holds kind ``t`` by then (``SealExit.needs``)."""
    trapped_loses = rules is None or rules.trapped_loses
    caught = rules is not None and rules.mrx_onto_detective == "caught"

    # cut[line]: a guard on a station the line passes over closes it (cut-off escape)
    cut: dict[tuple[Station, Station, Transport], Any] = {}

    def cut_of(x: SealExit) -> Any:
        if x.key not in cut:
            c = cut[x.key] = model.new_bool_var(f"cut[{x.key[0]}-{x.key[1]},{x.key[2].value}]")
            closers = [g for v in stations_of(x.via) for g in guard.get(v, [])]
            model.add(c <= sum(closers)) if closers else model.add(c == 0)
        return cut[x.key]

    sealed = {}
    for p in target:
        sealed[p] = model.new_bool_var(f"sealed[{p}]")
        # trap[p]: every way out leads onto a guard or is cut (a way a handed ticket opens: only
        # once he holds it)
        trap = model.new_bool_var(f"trap[{p}]")
        for x in ways[p]:
            closers = guard.get(x.to, []) + ([cut_of(x)] if x.via else [])
            when = [trap] if x.needs is None else [trap, gained[x.needs]]
            if closers:
                model.add_bool_or(closers).only_enforce_if(when)
            else:
                model.add_bool_or([w.Not() for w in when])
        if trapped_loses:
            wins = [trap]
        elif caught:  # no free move, and some open move onto a detective: he must take it, caught
            hits = []
            for x in ways[p]:
                if not guard.get(x.to):
                    continue
                h = model.new_bool_var(f"hit[{p},{x.to},{x.key[2].value}]")
                model.add(h <= sum(guard[x.to]))
                if x.needs is not None:
                    model.add_implication(h, gained[x.needs])
                for v in stations_of(x.via):  # the line must be open: nobody on it
                    if stand.get(v):
                        model.add(h + sum(stand[v]) <= 1)
                hits.append(h)
            onto = model.new_bool_var(f"onto[{p}]")
            model.add(onto <= trap)
            model.add(onto <= sum(hits))
            wins = [onto]
        else:  # trapped without a move, he passes: only a capture seals
            wins = []
        model.add(sealed[p] <= sum(guard.get(p, [])) + sum(wins))
    return sealed


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
    rules: Rules | None = None,
    takes: Sequence[int] = (),
) -> tuple[list[Option] | None, list[bool], CordonStatus]:
    """Choose one option per detective: seal the most weight of ``target_weights`` (route counts
    or any positive weights), then fewest detectives on duty, then fewest bus/underground
    tickets, then final stations closest to the target.  With ``tickets_to_mrx``, a kind of
    ticket Mr. X lacks but a planned move uses is his afterwards, so its connections count as
    exits too.  ``rules`` decide the seal (:func:`is_sealed`); ``takes`` (:func:`reveal_takes`)
    keep only plans that survive his voluntary reveals, and any kind he could take counts as his.
    Returns (chosen options or None, on-duty flags, solver status).

    The model's size is estimated first (:func:`check_plan_size`: too many options is an
    :class:`InputError`); ``deadline`` (``time.monotonic()``) bounds building and solving
    together: past it the status is ``unknown``."""
    try:
        check_plan_size(board, detectives, k, deadline=deadline, rules=rules)
        plan = _PlanModel.build(board, detectives, target_weights, tickets, k, tickets_to_mrx, deadline, rules,
                                tuple(takes) or (0,) * k)
        return plan.solve(time_limit, workers, deadline)
    except _OutOfTime:
        return None, [], CordonStatus.UNKNOWN


@dataclass
class _PlanModel:
    """The plan's CP-SAT model, built top to bottom by :meth:`build`: data, variables, the
    detectives' movement rules, the tickets handed to Mr. X, the seal, the objective."""

    board: Board
    detectives: Sequence[DetectiveState]
    k: int
    options: list[list[Option]]
    model: Any = None
    #: z[d, o]: detective d follows option o
    z: dict[tuple[int, int], Any] = field(default_factory=dict)
    #: at[d][j][s]: the option literals that put detective d on s after turn j (j = 0 .. k)
    at: list[list[dict[Station, list[Any]]]] = field(default_factory=list)
    #: duty[d]: detective d's final station takes part in the seal
    duty: list[Any] = field(default_factory=list)

    @classmethod
    def build(cls, board: Board, detectives: Sequence[DetectiveState], target_weights: Mapping[Station, int],
              tickets: Sequence[Ticket], k: int, tickets_to_mrx: bool, deadline: float | None,
              rules: Rules | None, takes: Sequence[int]) -> _PlanModel:
        _check_deadline(deadline)  # (past it, the solver is not even loaded)
        from ortools.sat.python import cp_model

        n = len(detectives)
        exact = rules is not None and not rules.trapped_loses and rules.mrx_onto_detective == "caught"
        lacking = [t for t in DETECTIVE_TICKETS if t not in tickets] if tickets_to_mrx else []
        options = []
        for det in detectives:
            opts = detective_options(board, det, k, n - 1, takes, rules)
            options.append(opts if any(takes) else undominated(opts, lacking, exact))
            _check_deadline(deadline)
        plan = cls(board, detectives, k, options, cp_model.CpModel())
        plan._add_choices()
        _check_deadline(deadline)
        plan._add_movement_rules(deadline)
        gained = plan._add_gained(tickets, tickets_to_mrx, takes, exact)
        _check_deadline(deadline)
        target = sorted(target_weights)
        cutoff = bool(rules is not None and rules.cutoff_escape and board.via)
        ways = {p: seal_exits(board, p, tickets, gained, cutoff) for p in target}
        guard, stand = plan._add_guards(target, ways, exact)
        sealed = _add_seals(plan.model, target, ways, guard, stand, rules, gained)
        plan._add_objective(target_weights, sealed)
        _check_deadline(deadline)
        return plan

    def _add_choices(self) -> None:
        """z: one option per detective; at and moving: where each option stands after each turn."""
        n, k, model = len(self.detectives), self.k, self.model
        self.z = {(d, o): model.new_bool_var(f"z[{self.detectives[d].name},{o}]")
                  for d in range(n) for o in range(len(self.options[d]))}
        for d in range(n):
            model.add_exactly_one(self.z[d, o] for o in range(len(self.options[d])))
        self.at = [[{} for _ in range(k + 1)] for _ in range(n)]
        self.moving: list[list[dict[Station, list[Any]]]] = [[{} for _ in range(k + 1)] for _ in range(n)]
        for d in range(n):
            for o, opt in enumerate(self.options[d]):
                for j, s in enumerate(opt.path):
                    self.at[d][j].setdefault(s, []).append(self.z[d, o])
                    if j and opt.tickets[j - 1] is not None:
                        self.moving[d][j].setdefault(s, []).append(self.z[d, o])

    @staticmethod
    def _when(e: int, d: int, j: int) -> int:
        """Which of e's positions stands while d makes its turn-j move (turn order is the order
        of ``detectives``, so names need not be unique for the model to be right)."""
        return j if e < d else j - 1

    def _add_movement_rules(self, deadline: float | None) -> None:
        n, k, model, at, z = len(self.detectives), self.k, self.model, self.at, self.z
        when = self._when
        # never onto a station another detective occupies at that moment
        for d in range(n):
            for j in range(1, k + 1):
                _check_deadline(deadline)
                for s, lits in self.moving[d][j].items():
                    for e in range(n):
                        if e != d and s in at[e][when(e, d, j)]:
                            model.add(sum(lits) + sum(at[e][when(e, d, j)][s]) <= 1)

        # a detective that can move must move: a stay needs every destination occupied then
        for d in range(n):
            for o, opt in enumerate(self.options[d]):
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

    def _add_gained(self, tickets: Sequence[Ticket], tickets_to_mrx: bool, takes: Sequence[int],
                    exact: bool = False) -> dict[Ticket, Any]:
        """gained[t]: Mr. X holds kind t (which he lacks now) after the plan: true when a planned
        move uses it, or (voluntary reveal) a detective still holds it when he may take one.  It
        only opens exits, so the solver never sets it needlessly; with ``exact`` (a capture by
        stepping onto a detective along it counts for the seal) it is false otherwise too."""
        gained: dict[Ticket, Any] = {}
        if not tickets_to_mrx:
            return gained
        for t in DETECTIVE_TICKETS:
            if t in tickets:
                continue
            users = [self.z[d, o] for d, det in enumerate(self.detectives) for o, opt in enumerate(self.options[d])
                     if t in opt.tickets or t in takeable(det, opt, takes)]
            if users:
                gained[t] = self.model.new_bool_var(f"gained[{t.value}]")
                for lit in users:
                    self.model.add_implication(lit, gained[t])
                if exact:
                    self.model.add_bool_or(users).only_enforce_if(gained[t])
        return gained

    def _add_guards(self, target: Sequence[Station], ways: Mapping[Station, Sequence[SealExit]], stands: bool
                    ) -> tuple[dict[Station, list[Any]], dict[Station, list[Any]]]:
        """guard[s]: a detective on cordon duty ends on s (only stations the seal looks at);
        stand[s] (only when ``stands``): the option literals that end some detective on s."""
        model = self.model
        self.duty = [model.new_bool_var(f"duty[{d.name}]") for d in self.detectives]
        places = _places(target, ways)
        guard: dict[Station, list[Any]] = {}
        stand: dict[Station, list[Any]] = {}
        for d, det in enumerate(self.detectives):
            for s, lits in self.at[d][self.k].items():
                if stands:
                    stand.setdefault(s, []).extend(lits)
                if s in places:
                    g = model.new_bool_var(f"guard[{det.name},{s}]")
                    model.add(g <= sum(lits))
                    model.add_implication(g, self.duty[d])
                    guard.setdefault(s, []).append(g)
        return guard, stand

    def _add_objective(self, target_weights: Mapping[Station, int], sealed: Mapping[Station, Any]) -> None:
        """In strict priority: sealed weight; fewest on duty; fewest bus/underground tickets;
        detectives ending close to the target (so a partial plan still closes in)."""
        n, k, z, options = len(self.detectives), self.k, self.z, self.options
        target = sorted(target_weights)
        total = sum(target_weights.values()) or 1
        weight = {p: max(1, round(SCALE * target_weights[p] / total)) for p in target}
        near = distances_to(self.board, mask_of(target))
        far = max(near.values(), default=0) + 1
        tickets_used = sum(opt.cost * z[d, o] for d in range(n) for o, opt in enumerate(options[d]))
        distance = sum(min(near.get(opt.path[-1], far), far) * z[d, o]
                       for d in range(n) for o, opt in enumerate(options[d]))
        w_ticket = n * far + 1  # one ticket outweighs any distance total
        w_duty = w_ticket * (3 * k * n + 1)  # one detective on duty outweighs any ticket total
        w_seal = w_duty * (n + 1)  # one unit of sealed weight outweighs everything below it
        self.model.maximize(w_seal * sum(weight[p] * sealed[p] for p in target) - w_duty * sum(self.duty)
                            - w_ticket * tickets_used - distance)

    def solve(self, time_limit: float, workers: int | None, deadline: float | None
              ) -> tuple[list[Option] | None, list[bool], CordonStatus]:
        """Solve within the time limit (cut to the deadline) and read the chosen options off."""
        limit = _remaining(time_limit, deadline)
        if limit <= 0.005:
            return None, [], CordonStatus.UNKNOWN
        solver = _new_solver(limit, workers)
        status = CordonStatus.of_solver(solver.status_name(_solve_interruptibly(solver, self.model)))
        if not status.found:
            return None, [], status
        chosen = [next(opt for o, opt in enumerate(self.options[d]) if solver.boolean_value(self.z[d, o]))
                  for d in range(len(self.detectives))]
        return chosen, [bool(solver.boolean_value(v)) for v in self.duty], status


def _check_detectives(board: Board, detectives: Sequence[DetectiveState]) -> None:
    """Names unique and non-empty, stations on the map and distinct: otherwise the plan would
    be about pieces that cannot exist."""
    if detectives:
        puzzle_detectives(board, [(d.name, d.station) for d in detectives], limit=len(detectives))


def solve_cordon(
    board: Board,
    possible_weights: Mapping[Station, int],
    mrx_tickets: Mapping[str, int],
    detectives: Sequence[DetectiveState] = (),
    moves: int = 1,
    time_limit: float = 10.0,
    workers: int | None = None,
    context: dict[str, Any] | None = None,
    tickets_to_mrx: bool | None = None,
    rules: Rules | None = None,
    mrx_moves: int | None = None,
    mrx_first: bool = False,
    deadline: float | None = None,
) -> CordonResult:
    """Cordon size and (with detectives) the best k-turn plan for Mr. X's possible stations
    ``possible_weights`` (station -> route count or any positive weight) at the moment the
    detectives are to move.  ``tickets_to_mrx``: the tickets the plan uses pass to him (so a
    kind he lacks can open exits); None: as ``rules`` say (default: yes).

    ``rules`` (default: classic) decide the seal and the variants (module docstring); for the
    voluntary reveal, ``mrx_moves`` is how many travel-log entries he has made (None: unknown,
    any of his turns may reveal) and ``mrx_first`` whether he moved before the detectives' first
    planned turn (the caller expanded ``possible_weights`` by that move).

    ``time_limit`` bounds the whole call, model building included (a third of it at most goes
    to the cordon size when a plan is asked for); an earlier ``deadline`` (``time.monotonic()``,
    e.g. a caller's own budget) cuts it further.  A plan model too large to build in bounded
    memory is refused up front (:func:`check_plan_size`)."""
    moves = int_arg(moves, "moves", 1)
    time_limit = check_time_limit(time_limit)
    _check_detectives(board, detectives)
    t0 = time.perf_counter()
    # (an enclosing budget, a command's, may end sooner, and so may the caller's own deadline)
    deadline = min(deadline_within(time_limit), deadline if deadline is not None else math.inf)
    if tickets_to_mrx is None:
        tickets_to_mrx = rules.tickets_to_mrx if rules is not None else True
    takes = reveal_takes(rules, moves, mrx_moves, mrx_first)
    tickets = held_tickets(mrx_tickets)
    # doubles used are not known here: counting none over-approximates his reach (a seal still holds)
    doubles = double_allowed(rules or PRESETS["classic"], mrx_tickets.get("double", 0), 0, mrx_moves or 0)
    target_w = dict(possible_weights)
    try:
        if detectives:
            check_plan_size(board, detectives, moves, deadline=deadline)
        for _ in range(moves - 1):  # (a turn at a time: a long expansion stops at the deadline)
            _check_deadline(deadline)
            target_w = expand(board, target_w, tickets, 1, doubles=doubles)
    except _OutOfTime:
        return CordonResult.out_of_time(moves, time.perf_counter() - t0, context, len(detectives))
    target = tuple(sorted(target_w))
    total = sum(target_w.values())
    probs = {s: target_w[s] / total for s in target} if total else {}
    size, cordon, c_status = min_cordon(board, target, tickets, time_limit / 3 if detectives else time_limit,
                                        workers, deadline, rules)
    plan: tuple[DetectivePlan, ...] = ()
    feasible: bool | None = None
    open_: tuple[Station, ...] = target
    sealed_p = 0.0
    status = c_status
    if detectives:
        chosen, duty, status = plan_cordon(board, detectives, target_w, tickets, moves, time_limit, workers,
                                           tickets_to_mrx, deadline, rules, takes)
        if chosen is not None:
            final = mask_of(o.path[-1] for o in chosen)
            taken = {t for d, o in zip(detectives, chosen) for t in takeable(d, o, takes)}
            after = tickets_after(tickets, chosen, tickets_to_mrx, taken)
            open_ = tuple(p for p in target if not is_sealed(board, p, final, after, rules))
            feasible = not open_
            sealed_p = sum(probs[p] for p in target if p not in open_)
            plan = tuple(
                DetectivePlan(d.name, o.path, tuple(t.value if t else None for t in o.tickets), on)
                for d, o, on in zip(detectives, chosen, duty)
            )
        if status is CordonStatus.OPTIMAL and c_status is not CordonStatus.OPTIMAL:
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
