"""The graded solvers' ratings, measured from games between them (:func:`measure_ladder`).

The solvers that attempt puzzles (:data:`~sy_tools.puzzles.attempt.SOLVERS`, the detectives'
policies at growing budgets, and :data:`~sy_tools.puzzles.attempt.MRX_SOLVERS`, Mr. X's) play
each other: every detectives' solver against every Mr. X solver, on the same generated
positions (:func:`~sy_tools.puzzles.find.generated_survive_candidates`: Mr. X to move with two to
four detectives two or three hops away, the puzzles' ground), a short game of ``rounds`` rounds
each, the detectives winning when they catch or trap him within them.  The detectives start
knowing his station (as after a reveal) and follow his possible set from the tickets he shows.
Each game's randomness comes from a SHA-256 of (seed, position, pairing) alone, so a seed gives
the same games and ratings on any machine.

The ratings are the Bradley-Terry fit of all games on the Glicko scale (a win probability of
``1 / (1 + 10 ** (-(r_a - r_b) / 400))``), by maximum likelihood with one drawn game of every
solver against a 1500 opponent as a prior (so a solver that wins every game still gets a finite
rating), shifted so the solvers' mean rating is 1500; each rating's deviation is one over the
square root of the likelihood's curvature (the Glicko scale).  ``python -m benchmarks.bench_puzzles
solver-ratings --seed S`` runs it and prints the constants :mod:`~sy_tools.puzzles.attempt`
holds."""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.moves import OutcomeKind
from ..engine.observations import DetectiveObservation, MrXObservation, mrx_move_seen
from ..engine.position import Position
from ..engine.stations import StationMask

#: The logistic scale of ratings: 400 / ln 10.
_Q = math.log(10) / 400.0


@dataclass
class LadderReport:
    """Every game (detectives' solver, Mr. X's solver, position, detectives won) and the
    fitted ratings: name -> (rating, deviation)."""

    games: list[tuple[str, str, int, bool]] = field(default_factory=list)
    ratings: dict[str, tuple[float, float]] = field(default_factory=dict)
    seed: int = 0
    rounds: int = 4

    def score(self, name: str) -> float:
        """The share of games ``name`` won."""
        won = [d == name and ok or x == name and not ok for d, x, _, ok in self.games if name in (d, x)]
        return sum(won) / len(won) if won else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "rounds": self.rounds, "games": len(self.games),
                "ratings": {k: {"rating": round(r, 1), "rd": round(d, 1), "score": round(self.score(k), 3)}
                            for k, (r, d) in self.ratings.items()}}


def game_rng(seed: int, position: int, detectives: str, mrx: str) -> random.Random:
    digest = hashlib.sha256(f"sy-tools/ladder/{seed}/{position}/{detectives}/{mrx}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "little"))


def short_game(pos: Position, detectives: Any, mrx: Any, rng: random.Random, rounds: int = 4) -> bool:
    """A game of at most ``rounds`` rounds from ``pos`` (Mr. X to move, his station known):
    ``mrx`` and ``detectives`` are policies (:mod:`sy_tools.selfplay.policies`); True when the
    detectives catch or trap him within them."""
    assert pos.mrx_at is not None
    possible: StationMask = 1 << pos.mrx_at
    x_memo: dict[str, Any] = dict(getattr(mrx, "memo_", {}))
    d_memo: dict[str, Any] = dict(getattr(detectives, "memo_", {}))
    for _ in range(rounds):
        if pos.ended is not None:
            break
        if pos.turn == 0:
            move = mrx(MrXObservation(pos, possible, x_memo), rng)
            legs = list(mrx_move_seen(pos, possible, move)) if not move.is_pass else []
            possible = legs[-1][2] if legs else pos.trapped_stations(possible)
            pos = pos.push(move)
        while pos.ended is None and pos.turn >= 1:
            if not pos.legal_moves():
                pos = pos.pass_turn()
                continue
            m = detectives(DetectiveObservation.of(pos, possible, memo=d_memo), rng)
            if m.to is not None:
                possible &= ~(1 << m.to)
            pos = pos.push(m)
    return pos.ended is not None and pos.ended.kind in (OutcomeKind.CAPTURE, OutcomeKind.TRAPPED)


def fit_ratings(games: Sequence[tuple[str, str, bool]], iterations: int = 200) -> dict[str, tuple[float, float]]:
    """Bradley-Terry ratings (see the module docstring) of ``games`` (winner-agnostic: (a, b,
    a won))."""
    names = sorted({n for a, b, _ in games for n in (a, b)})
    r = {n: 0.0 for n in names}  # in logistic units (ln-odds)

    def grad_hess() -> tuple[dict[str, float], dict[str, float]]:
        g = {n: 0.0 for n in names}
        h = {n: 0.0 for n in names}
        for n in names:  # the prior: half a win and half a loss against a 0 opponent
            e = 1.0 / (1.0 + math.exp(-r[n]))
            g[n] += 0.5 - e
            h[n] += e * (1 - e)
        for a, b, won in games:
            e = 1.0 / (1.0 + math.exp(-(r[a] - r[b])))
            s = 1.0 if won else 0.0
            g[a] += s - e
            g[b] -= s - e
            h[a] += e * (1 - e)
            h[b] += e * (1 - e)
        return g, h

    for _ in range(iterations):
        g, h = grad_hess()
        step = max(abs(g[n] / h[n]) for n in names)
        for n in names:
            r[n] += max(-1.0, min(1.0, g[n] / h[n]))
        if step < 1e-9:
            break
    _, h = grad_hess()
    mean = sum(r.values()) / len(r)
    return {n: (1500.0 + (r[n] - mean) / _Q, 1.0 / math.sqrt(h[n]) / _Q) for n in names}


def measure_ladder(seed: int = 1, positions: int = 12, rounds: int = 4, detectives: Sequence[Any] | None = None,
                   mrx: Sequence[Any] | None = None, map_spec: str = "london",
                   progress: Callable[[int, int], None] | None = None) -> LadderReport:
    """Play every pairing of the detectives' solvers (default
    :data:`~sy_tools.puzzles.attempt.SOLVERS`) and Mr. X's (default
    :data:`~sy_tools.puzzles.attempt.MRX_SOLVERS`) on ``positions`` generated positions of
    ``seed`` and fit their ratings (see the module docstring)."""
    from ..selfplay.policies import load_policy
    from .attempt import MRX_SOLVERS, SOLVERS
    from .find import generated_survive_candidates

    dets = list(detectives if detectives is not None else SOLVERS)
    xs = list(mrx if mrx is not None else MRX_SOLVERS)
    starts = [c.position for c in generated_survive_candidates(seed, map_spec, detectives=(3, 4), count=positions * 3)]
    starts = starts[:positions]
    report = LadderReport(seed=seed, rounds=rounds)
    total = len(dets) * len(xs) * len(starts)
    done = 0
    for d in dets:
        d_pol = _with_memo(load_policy(d.policy, "detectives"), dict(d.memo))
        for x in xs:
            x_pol = _with_memo(load_policy(x.policy, "mrx"), dict(x.memo))
            for i, pos in enumerate(starts):
                won = short_game(pos, d_pol, x_pol, game_rng(seed, i, d.name, x.name), rounds)
                report.games.append((d.name, x.name, i, won))
                done += 1
                if progress is not None:
                    progress(done, total)
    report.ratings = fit_ratings([(d, x, won) for d, x, _, won in report.games])
    return report


class _with_memo:  # noqa: N801  (a policy with the memo entries it starts each game with)
    def __init__(self, policy: Any, memo: dict[str, Any]) -> None:
        self.policy = policy
        self.memo_ = memo

    def __call__(self, obs: Any, rng: Any) -> Any:
        return self.policy(obs, rng)


def constants_text(report: LadderReport, command: str, date: str) -> str:
    """The ratings as the lines of :mod:`~sy_tools.puzzles.attempt` that hold them."""
    lines = [f"# measured by `{command}` on {date}: {len(report.games)} games of {report.rounds} rounds"]
    for name, (r, d) in report.ratings.items():
        lines.append(f"{name}: rating {r:.0f}, rd {d:.0f}, score {report.score(name):.0%}")
    return "\n".join(lines)
