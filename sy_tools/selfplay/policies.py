
"""Self-play policies: how a simulated Mr. X or detective team chooses its move.

A policy is a function ``policy(observation, rng) -> Move`` that returns one of
``observation.legal_moves``; ``rng`` is the game's own ``random.Random``.  What a side may know is
what it is passed (OpenSpiel's observations are the model):

* Mr. X sees everything: a :class:`MrXObservation` holds the :class:`~sy_tools.engine.position.Position`
  (his station included) and the set of stations the detectives think possible.
* The detectives see a :class:`DetectiveObservation`: their stations and tickets, every player's
  ticket counts, the tickets Mr. X showed, his reveals and his possible set, never his station.
  Nothing in it refers to the position the simulator keeps.

Each observation carries ``memo``, a dict that lives for one game and one side, for policies
that plan ahead (``cordon``) or keep their own notes (a user's bot).

Built-in policies: ``random``, ``greedy``, ``advise``, ``mcts`` (both sides), ``cordon``
(detectives), OpenSpiel's ``openspiel-ismcts`` and ``openspiel-mcts`` (both sides;
``openspiel-ismcts:1000`` sets the simulations a decision: :mod:`.openspiel_bots`) and the computer's levels ``level-easy``, ``level-normal``, ``level-hard`` (both
sides: :mod:`.levels`).  Any other name is ``module:function`` or ``path/to/file.py:function``;
:func:`load_policy` resolves it.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..analysis.distances import distance_array, distances
from ..engine.hops import MRX, mrx_targets
from ..engine.moves import Move
from ..engine.observations import DetectiveObservation, MrXObservation, observed_position
from ..engine.position import Position, draw
from ..engine.stations import StationMask, stations_of
from ..engine.tickets import Ticket
from ..errors import InputError
from ..formats.files import file_type_name
from ..formats.notation import move_entry_text
from ..formats.report_text import plural
from ..solvers.advice import MrXOption, MrXPick
from ..solvers.advise import advise_mrx as rank_mrx_moves
from ..solvers.belief import MAX_CANDIDATES, POLICY_TIME_LIMIT, advise_detectives
from ..solvers.forced_hook import solve_hook
from .budgets import (
    ADVISE_CANDIDATES,
    DETECTIVE_PLAN_CANDIDATES,
    DETECTIVE_PLAN_ROLLOUTS,
    DETECTIVE_SOLVE_NODES,
    DETECTIVE_SOLVE_TURNS,
    LEVEL_POLICY_PREFIX,
    LEVEL_TABLE,
    LEVELS,
    MRX_ADVISE_CANDIDATES,
    MRX_ADVISE_ITERATIONS,
    POLICY_SOLVE_NODES,
)
from .stray import plug_in_call

Policy = Callable[[Any, Any], Move]


def random_mrx(obs: MrXObservation, rng: Any) -> Move:
    """Uniform over Mr. X's legal moves (double moves included, each counted once)."""
    return obs.legal_moves[draw(rng, len(obs.legal_moves))]


def random_detective(obs: DetectiveObservation, rng: Any) -> Move:
    """Uniform over the detective's legal moves."""
    return obs.legal_moves[draw(rng, len(obs.legal_moves))]


_TICKET_COST = {Ticket.TAXI: 0, Ticket.BUS: 1, Ticket.UNDERGROUND: 2}


def greedy_detective(obs: DetectiveObservation, rng: Any) -> Move:
    """Step towards the probability mass of Mr. X's possible set: the move whose destination has
    the smallest mean distance to the possible stations (each equally likely); ties go to the
    cheaper ticket (taxi, bus, underground), then at random."""
    poss = stations_of(obs.possible)
    if not poss:
        return random_detective(obs, rng)
    table = distance_array(obs.board)
    moves = obs.legal_moves
    totals = table[[m.stations[0] for m in moves]][:, poss].sum(axis=1).tolist()
    best: list[Move] = []
    best_key: tuple[int, int] | None = None
    for m, total in zip(moves, totals):
        key = (total, _TICKET_COST.get(m.tickets[0], 3))
        if best_key is None or key < best_key:
            best, best_key = [m], key
        elif key == best_key:
            best.append(m)
    return best[draw(rng, len(best))]


def greedy_mrx(obs: MrXObservation, rng: Any) -> Move:
    """Keep the nearest detective as far away as possible (distances over 3 hops count as 3),
    then hide: prefer the move after which the detectives' possible set is largest, a black
    ticket only where it at least doubles it; double moves only when a detective stands next to
    him.  Ties at random."""
    pos = obs.position
    singles = obs.single_moves
    if not singles or (len(singles) == 1 and (not pos.can_double() or len(obs.legal_moves) == 1)):
        return obs.legal_moves[0]  # his only move (or the pass)
    dist = distances(pos.board)
    dets = pos.stations
    assert pos.mrx_at is not None
    here = dist[pos.mrx_at]
    threatened = min((here[s] for s in dets), default=99) <= 1
    moves = obs.legal_moves if threatened else singles
    occ = pos.occupied
    board, rules = pos.board, pos.rules
    hidden: dict[tuple[Ticket, ...], int] = {}
    best: list[Move] = []
    best_key: tuple[int, float, int] | None = None
    for m in moves:
        if m.is_double and not threatened:
            continue
        to = m.to
        assert to is not None
        row = dist[to]
        near = min(min((row[s] for s in dets), default=99), 3)
        size = hidden.get(m.tickets)
        if size is None:
            p = obs.possible
            for t in m.tickets:
                p = mrx_targets(board, p, t, occ, rules)
            size = hidden[m.tickets] = p.bit_count()
        if rules.is_reveal(pos.move + len(m.tickets)):
            size = 1
        hide = size / 2 if Ticket.BLACK in m.tickets else float(size)
        key = (near, hide, -len(m.tickets))
        if best_key is None or key > best_key:
            best, best_key = [m], key
        elif key == best_key:
            best.append(m)
    return best[draw(rng, len(best))]


#: the cordon detectives plan only when Mr. X's possible set is at most this large
CORDON_MAX_POSSIBLE = 40


def cordon_detective(obs: DetectiveObservation, rng: Any) -> Move:
    """Follow the 1-turn cordon plan (:func:`~sy_tools.solvers.cordon_model.solve_cordon`: seal the most of Mr. X's
    possible set, each station equally likely, with the fewest detectives on duty), made once per
    round when the first detective moves: the detectives on cordon duty take their planned moves;
    the others, a detective whose planned move is no longer legal, and every detective while the
    possible set has more than :data:`CORDON_MAX_POSSIBLE` stations move greedily.  The solver
    runs on one worker with ``memo["time_limit"]`` seconds (default 2) per plan."""
    memo = obs.memo
    if memo.get("round") != obs.round:
        memo["round"] = obs.round
        memo["plan"] = _cordon_plan(obs, float(memo.get("time_limit", 2.0)))
    planned = memo["plan"].get(obs.to_move)
    if planned is not None and planned in obs.legal_moves:
        return planned
    return greedy_detective(obs, rng)


def _cordon_plan(obs: DetectiveObservation, time_limit: float) -> dict[str, Move]:
    from ..engine.tickets import DETECTIVE_TICKET_KINDS
    from ..solvers.cordon_model import solve_cordon
    from ..solvers.cordon_result import DetectiveState

    if not obs.possible or obs.possible.bit_count() > CORDON_MAX_POSSIBLE:
        return {}
    start = obs.names.index(obs.to_move)
    dets = [DetectiveState(n, s, t.to_dict(DETECTIVE_TICKET_KINDS), True)
            for n, s, t in zip(obs.names[start:], obs.stations[start:], obs.tickets[start:]) if n not in obs.out]
    result = solve_cordon(obs.board, {p: 1 for p in stations_of(obs.possible)}, obs.mrx_tickets.to_dict(), dets,
                          moves=1, time_limit=time_limit, workers=1, rules=obs.rules, mrx_moves=obs.move)
    plan: dict[str, Move] = {}
    for p in result.plan:
        if p.on_duty and p.tickets and p.tickets[0] is not None:
            plan[p.name] = Move(p.name, (Ticket(p.tickets[0]),), (p.path[1],))
    return plan


def detective_policy(obs: DetectiveObservation | Any, rng: Any = None) -> Move:
    """The advise detectives as a self-play policy: plan the joint move when the first detective
    of a round moves (``obs.memo`` keeps it for the others), then play each detective's part;
    a part no longer legal is re-planned.  Budget: ``memo["advise_time_limit"]`` (or
    ``memo["time_limit"]``) seconds, default :data:`POLICY_TIME_LIMIT`; ``memo["advise_depth"]``
    (default 2); ``memo["advise_candidates"]`` caps the joint moves weighed (a fixed cap makes
    games reproducible whatever the machine's speed; more where his possible set is small:
    :func:`~sy_tools.solvers.belief.advise_detectives`); a forced win within
    ``memo["advise_solve_turns"]`` turns (default :data:`DETECTIVE_SOLVE_TURNS`) that ``solve``
    finds within ``memo["advise_solve_nodes"]`` nodes (default :data:`DETECTIVE_SOLVE_NODES`;
    0: no search) is played; with ``memo["advise_plan_rollouts"]`` rollouts (0, the default: no
    plan) the planning search (:mod:`sy_tools.solvers.plan`) chooses among the
    ``memo["advise_plan_candidates"]`` best joint moves, its stream seeded by a draw of ``rng``.
    ``obs`` may also be ``simulate``'s
    observation (the same fields).  Where each detective came from (so that none is sent
    straight back without a reason: :func:`advise_detectives`' ``came_from``) is
    ``memo["came_from"]`` when the caller knows it (from a record), else followed in ``memo``
    from one call to the next."""
    memo = obs.memo
    came = memo.get("came_from")
    if came is None:
        last = memo.setdefault("advise_last_at", {})
        came = memo.setdefault("advise_came_from", {})
        for name, at in zip(obs.names, obs.stations):
            was = last.get(name)
            if was is not None and was != at:
                came[name] = was
            last[name] = at
    key = (obs.round, obs.move)
    plan: dict[str, Move] | None = memo.get("advise_plan") if memo.get("advise_key") == key else None
    if plan is None or plan.get(obs.to_move) not in obs.legal_moves:
        limit = float(memo.get("advise_time_limit", memo.get("time_limit", POLICY_TIME_LIMIT)))
        nodes = memo.get("advise_solve_nodes", DETECTIVE_SOLVE_NODES)
        turns = int(memo.get("advise_solve_turns", DETECTIVE_SOLVE_TURNS))
        rollouts = int(memo.get("advise_plan_rollouts", 0))
        plan_with = None
        if rollouts > 0:
            from ..solvers.plan import planner

            plan_with = planner(rollouts, int(memo.get("advise_plan_candidates", DETECTIVE_PLAN_CANDIDATES)),
                                int(rng.random() * 2**53) if rng is not None else obs.round)
        adv = advise_detectives(observed_position(obs), obs.possible, getattr(obs, "weights", None),
                                int(memo.get("advise_depth", 2)), limit,
                                forced=solve_hook(turns, int(nodes)) if nodes else None,
                                max_candidates=int(memo.get("advise_candidates", MAX_CANDIDATES)),
                                came_from=dict(came), planner=plan_with)
        plan = {a.name: a.move for a in adv.moves if a.move is not None}
        memo["advise_key"] = key
        memo["advise_plan"] = plan
    move = plan.get(obs.to_move)
    if move is None or move not in obs.legal_moves:
        return obs.legal_moves[0]
    return move


def mrx_policy(obs: MrXObservation | Any, rng: Any = None) -> Move:
    """The advise Mr. X as a self-play policy: advise's ranking (double moves weighed only when
    no single move is sound) with :class:`TreeSearch` as its chooser: the look-ahead proves or
    clears its best ``memo["advise_mrx_candidates"]`` moves (default
    :data:`MRX_ADVISE_CANDIDATES`) and the Monte-Carlo tree search
    (``memo["advise_mrx_iterations"]`` iterations, default :data:`MRX_ADVISE_ITERATIONS`; 0: no
    search) chooses among those that are not proved losses, the ones no detective can reach next
    turn only when there are such.  So he never plays a move proved lost within two turns when
    another is not.  Without a search (or one candidate): his top-ranked move, ties among the
    best to ``rng``.  Each forced-win search of his look-ahead visits at most
    ``memo["advise_solve_nodes"]`` nodes (default :data:`POLICY_SOLVE_NODES`) and the tree search
    is counted in iterations, so games do not depend on the machine's speed (``memo["time_limit"]``,
    default 10 s, bounds the whole decision)."""
    memo = obs.memo
    k = max(1, int(memo.get("advise_mrx_candidates", MRX_ADVISE_CANDIDATES)))
    iterations = int(memo.get("advise_mrx_iterations", MRX_ADVISE_ITERATIONS))
    chooser = TreeSearch(iterations, k, rng) if iterations > 0 and rng is not None else None
    adv = rank_mrx_moves(obs.position, obs.possible, top=1_000_000, time_limit=float(memo.get("time_limit", 10.0)),
                         doubles="when-needed", sound=1, nodes=int(memo.get("advise_solve_nodes", POLICY_SOLVE_NODES)) or None,
                         choose=chooser)
    if adv.search is not None:
        return adv.moves[0].move  # type: ignore[no-any-return]
    best = [o for o in adv.moves if o.key == adv.moves[0].key]
    if rng is not None and len(best) > 1:
        return best[int(rng.random() * len(best))].move
    return best[0].move  # type: ignore[no-any-return]


class TreeSearch:
    """An :class:`~sy_tools.solvers.advice.MrXChooser`: the Monte-Carlo tree search of
    :func:`~sy_tools.selfplay.mcts.search_mrx` (``iterations`` playouts, fewer if the deadline
    comes first) among the ``candidates`` best of Mr. X's ranked options that the look-ahead did
    not prove lost (:func:`sound_candidates`); ``rng`` (a ``random.Random``, or a seed) seeds it.
    ``sy-tools advise`` uses it for Mr. X (``--playouts``, ``--seed``), as the ``advise`` policy
    does in self-play."""

    def __init__(self, iterations: int = 0, candidates: int = 0, rng: Any = 0) -> None:
        self.iterations = iterations or MRX_ADVISE_ITERATIONS
        self.candidates = candidates or MRX_ADVISE_CANDIDATES
        self.rng = random.Random(rng) if isinstance(rng, int) else rng

    def __call__(self, position: Position, possible: StationMask, options: Sequence[MrXOption],
                 deadline: float) -> MrXPick | None:
        from .mcts import search_mrx

        pool = sound_candidates(options, self.candidates)
        if len(pool) < 2:
            return None
        found = search_mrx(MrXObservation(position, possible), self.rng, self.iterations, [o.move for o in pool],
                           deadline)
        index = next(i for i, o in enumerate(options) if o.move == found.move)
        score = {m: (v, round(q, 3)) for m, v, q in found.stats}
        cut = "" if found.complete else ", cut short by the time limit"
        weighed = len(found.stats) or 1
        among = f"your {len(pool)} best sound moves" if weighed == len(pool) else \
            f"{weighed} of your {len(pool)} best sound moves"
        head = f"tree search ({plural(found.playouts, 'playout')} among {among}{cut})"
        first = options[0].move
        v, q = score.get(found.move, (0, 0.0))
        chosen = f"{head} chose {move_entry_text(found.move)}: it scores {q:.2f} over {plural(v, 'playout')}"
        if found.stats and index:  # (the ranking's best is named as what it is, not as a second choice)
            v0, q0 = score.get(first, (0, 0.0))
            note = (f"{chosen}; without the search the ranking would play {move_entry_text(first)}, which scores "
                    f"{q0:.2f} over {plural(v0, 'playout')}")
        elif found.stats:
            runner = found.stats[1] if len(found.stats) > 1 else None
            rest = f"; next {move_entry_text(runner[0])} scores {runner[2]:.2f} over {plural(runner[1], 'playout')}" \
                if runner else ""
            note = f"{chosen}, the ranking's best move too{rest}"
        else:
            note = f"{head} chose {move_entry_text(found.move)}: the one move that passes its filter"
        detail = {"playouts": found.playouts, "complete": found.complete, "chosen": found.move.to_dict(),
                  "candidates": [{**m.to_dict(), "playouts": v, "score": round(q, 4)} for m, v, q in found.stats]}
        return MrXPick(index, note, detail)


def sound_candidates(ranked: Any, k: int) -> list[Any]:
    """Of Mr. X's ranked options (:func:`~sy_tools.solvers.advise.advise_mrx` with ``sound=k``,
    best first), the at most ``k`` best that the look-ahead searched and did not prove lost (a
    win on the spot alone; none when every move is proved lost), the ones no detective can reach
    next turn only when there are such."""
    if not ranked or len(ranked[0].key) <= 1:
        return [ranked[0]] if ranked and ranked[0].key[:1] == (2.0,) else []
    pool = [o for o in ranked[:k] if len(o.key) > 1 and o.key[1] == 1.0 and o.loses_within is None]
    safe = [o for o in pool if o.safe]
    return safe or pool


def _advise_detective(obs: DetectiveObservation, rng: Any) -> Move:
    """The registry's "advise" detectives: :func:`detective_policy` weighing at most
    :data:`ADVISE_CANDIDATES` joint moves two turns ahead (a fixed cap, not a time budget; nine
    times as many where his possible set is small: :data:`~sy_tools.solvers.beam.SMALL_SET_WIDTH`)."""
    obs.memo.setdefault("advise_candidates", ADVISE_CANDIDATES)
    obs.memo.setdefault("advise_time_limit", 60.0)
    return detective_policy(obs, rng)


MRX_POLICIES: dict[str, Policy] = {"random": random_mrx, "greedy": greedy_mrx, "advise": mrx_policy}


DETECTIVE_POLICIES: dict[str, Policy] = {"random": random_detective, "greedy": greedy_detective,
                                         "cordon": cordon_detective, "advise": _advise_detective}
MRX_POLICIES["mcts"] = lambda obs, rng: importlib.import_module(".mcts", __package__).mcts_mrx(obs, rng)
DETECTIVE_POLICIES["mcts"] = lambda obs, rng: importlib.import_module(".mcts", __package__).mcts_detective(obs, rng)
for _name in ("evasive", "twoply", "mcts-1000"):  # Mr. X opponents of other kinds (:mod:`.opponents`)
    MRX_POLICIES[_name] = functools.partial(lambda n, obs, rng: importlib.import_module(".opponents", __package__)
                                            .POLICIES[n](obs, rng), _name)



def _at_level(side: str, level: str) -> Policy:
    """``side``'s ``level`` of :data:`~sy_tools.selfplay.budgets.LEVEL_TABLE`: its budget set
    into ``obs.memo`` (``setdefault``: a caller's keys win), then its built-in policy (looked up
    at each call)."""
    spec = LEVEL_TABLE[side][level]
    registry = MRX_POLICIES if side == "mrx" else DETECTIVE_POLICIES
    budget = tuple(spec.budget.items())

    def policy(obs: Any, rng: Any) -> Move:
        memo = obs.memo
        for key, value in budget:
            memo.setdefault(key, value)
        return registry[spec.policy](obs, rng)

    policy.__name__ = policy.__qualname__ = f"{side}_{level}"
    policy.__doc__ = f"{'Mr. X' if side == 'mrx' else 'The detectives'} at level {level}: {spec.summary}."
    return policy


for _level in LEVELS:  # the computer's strength levels (:mod:`.levels`): level-easy, level-normal, level-hard
    MRX_POLICIES[LEVEL_POLICY_PREFIX + _level] = _at_level("mrx", _level)
    DETECTIVE_POLICIES[LEVEL_POLICY_PREFIX + _level] = _at_level("detectives", _level)


def hard_with_plan(obs: DetectiveObservation | Any, rng: Any = None) -> Move:
    """``advise-plan``: the ``level-hard`` detectives with the planning search on
    (:mod:`sy_tools.solvers.plan`: :data:`DETECTIVE_PLAN_ROLLOUTS` rollouts for each of advise's
    :data:`DETECTIVE_PLAN_CANDIDATES` best joint moves): issue 45's candidate, a ``simulate``
    policy so that the opponents table can set it beside ``level-hard``; no level uses it until
    it is measured stronger."""
    memo = obs.memo
    memo.setdefault("advise_plan_rollouts", DETECTIVE_PLAN_ROLLOUTS)
    memo.setdefault("advise_plan_candidates", DETECTIVE_PLAN_CANDIDATES)
    return DETECTIVE_POLICIES[LEVEL_POLICY_PREFIX + "hard"](obs, rng)


DETECTIVE_POLICIES["advise-plan"] = hard_with_plan


def _openspiel(kind: str, simulations: int | None = None) -> Policy:
    """OpenSpiel's ``kind`` bot (:mod:`.openspiel_bots`, imported at its first move: OpenSpiel
    loads only where it plays) with ``simulations`` a decision (None: its default)."""

    def play(obs: Any, rng: Any) -> Move:
        bots = importlib.import_module(".openspiel_bots", __package__)
        return bots.decide(kind, obs, rng, simulations or bots.SIMULATIONS)  # type: ignore[no-any-return]

    return play


#: Built-in policies that take a budget after a colon (``openspiel-ismcts:1000``: simulations a
#: decision): name -> the policy with that budget (both sides)
BUDGETED: dict[str, Callable[[int], Policy]] = {"openspiel-ismcts": lambda n: _openspiel("ismcts", n),
                                                "openspiel-mcts": lambda n: _openspiel("mcts", n)}
for _name in BUDGETED:
    MRX_POLICIES[_name] = DETECTIVE_POLICIES[_name] = _openspiel(_name.removeprefix("openspiel-"))


def _budgeted(spec: str, option: str) -> Policy | None:
    """The policy ``NAME:BUDGET`` names, for a name of :data:`BUDGETED` (None for any other)."""
    name, colon, budget = spec.partition(":")
    if not colon or name not in BUDGETED:
        return None
    if not budget.isdigit() or int(budget) < 1:
        raise InputError(f"{spec}: expected {name}:N, N a whole number of simulations a decision (at least 1)",
                         where=option)
    return BUDGETED[name](int(budget))


def safe_repr(obj: Any, error: bool = False, limit: int = 300) -> str:
    """``repr(obj)`` (for an exception ``error=True``: ``Type: message``) that never raises,
    however broken the object's ``__repr__``/``__str__``; cut to ``limit`` characters."""
    try:
        kind = type(obj).__name__
        if not isinstance(kind, str):
            kind = "object"
    except Exception:
        kind = "object"
    try:
        text = str(obj) if error else repr(obj)
        if not isinstance(text, str):
            raise TypeError
    except KeyboardInterrupt:
        raise
    except BaseException:
        text = f"<{kind} object whose {'str' if error else 'repr'}() failed>"
    text = text.replace("\n", " ")
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{kind}: {text}" if error else text


#: The former name of :func:`safe_repr` (selfplay's runner, game and results still call it so).
describe = safe_repr


def run_policy(policy: Policy, obs: Any, rng: Any, quiet: bool = False) -> Any:
    """``policy(obs, rng)``; with ``quiet`` (a plug-in's) as :func:`~sy_tools.selfplay.stray.plug_in_call`
    runs it: the working folder kept, and what it prints kept off standard output (the results)."""
    if not quiet:
        return policy(obs, rng)
    with plug_in_call():
        return policy(obs, rng)


def policy_source(spec: str) -> str | None:
    """The file a ``file.py:function`` or ``module:function`` policy was loaded from (None for a
    built-in name or when not known)."""
    if ":" not in spec:
        return None
    target = spec.rpartition(":")[0]
    if target.endswith(".py") or os.sep in target:
        return target if os.path.isfile(target) else None
    module = sys.modules.get(target)
    path = getattr(module, "__file__", None)
    return path if isinstance(path, str) else None


def is_plug_in(spec: str, side: str) -> bool:
    """Whether the policy named ``spec`` for ``side`` (``"mrx"`` or ``"detectives"``) is a user's
    (``module:function``, ``file.py:function``) rather than a built-in one."""
    return spec not in (MRX_POLICIES if side == "mrx" else DETECTIVE_POLICIES) and spec.partition(":")[0] not in BUDGETED


def load_policy(spec: str, side: str, where: str | None = None) -> Policy:
    """The policy named ``spec`` for ``side`` (``"mrx"`` or ``"detectives"``): a built-in name,
    ``module:function`` or ``path/to/file.py:function``.  :class:`InputError` when it does not
    exist, does not import or is not callable, naming ``where`` it was given (default: the
    CLI's ``--mrx-policy`` / ``--detective-policy``; a library caller names its argument)."""
    builtins = MRX_POLICIES if side == "mrx" else DETECTIVE_POLICIES
    option = where or ("--mrx-policy" if side == "mrx" else "--detective-policy")
    if spec in builtins:
        return builtins[spec]
    budgeted = _budgeted(spec, option)
    if budgeted is not None:
        return budgeted
    if ":" not in spec:
        raise InputError(f"unknown policy {spec!r}: expected one of {', '.join(builtins)}, module:function or "
                         "file.py:function", where=option)
    target, _, name = spec.rpartition(":")
    try:
        if target.endswith(".py") or os.sep in target:
            if not os.path.exists(target):
                raise InputError(f"{spec}: no such file {target!r}", where=option)
            if not os.path.isfile(target):
                kind = file_type_name(os.stat(target).st_mode)
                raise InputError(f"{spec}: {target!r} is {kind}, not a regular file; give a .py file", where=option)
            mod_name = "sy_tools_policy_" + os.path.splitext(os.path.basename(target))[0]
            sp = importlib.util.spec_from_file_location(mod_name, target)
            if sp is None or sp.loader is None:
                raise InputError(f"{spec}: cannot load {target!r} as Python", where=option)
            module = importlib.util.module_from_spec(sp)
            with plug_in_call():  # its prints must not mix with our output, nor its chdir move our files
                sp.loader.exec_module(module)
        else:
            with plug_in_call():
                module = importlib.import_module(target)
    except (InputError, KeyboardInterrupt):
        raise
    except BaseException as e:  # a user's module may raise anything while importing, sys.exit too
        raise InputError(f"{spec}: cannot import {target!r}: {safe_repr(e, error=True)}", where=option) from None
    fn = getattr(module, name, None)
    if fn is None:
        raise InputError(f"{spec}: {target!r} has no {name!r}", where=option)
    if not callable(fn):
        raise InputError(f"{spec}: {name!r} is not callable", where=option)
    return fn  # type: ignore[no-any-return]


__all__ = ["MRX", "DetectiveObservation", "MrXObservation", "Policy", "distances", "load_policy",
           "random_mrx", "random_detective", "greedy_mrx", "greedy_detective", "cordon_detective"]
