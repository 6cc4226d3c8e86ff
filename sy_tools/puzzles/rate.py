"""Puzzle ratings: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012) from attempts
by graded solvers (:data:`~sy_tools.puzzles.attempt.SOLVERS`).

Each attempt is a game between a solver and the puzzle: the puzzle wins when the solver goes
wrong.  A solver's rating and deviation are fixed, measured from games between the solvers
(:mod:`sy_tools.puzzles.ladder`); every
puzzle starts at 1500 (deviation 350, volatility 0.06) and all its attempts form one rating
period, so the order of the attempts does not matter.  Each attempt's randomness comes from a
SHA-256 of (seed, puzzle id, solver, try) alone: the same seed gives the same ratings."""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .attempt import MRX_SOLVERS, SOLVERS, attempt, attempt_survival
from .model import Puzzle, Rating

#: Glicko-2's scale factor and the system constant (tau) used here.
SCALE = 173.7178
TAU = 0.5

#: The rating deviation of a solver that does not give its own (``rd``).
SOLVER_RD = 30.0


def glicko2(rating: Rating, games: Sequence[tuple[float, float, float]], tau: float = TAU) -> Rating:
    """``rating`` after one rating period of ``games``, each (opponent's rating, opponent's
    deviation, score: 1 win, 0 loss, 0.5 draw).  No games: the deviation grows by the
    volatility only."""
    mu = (rating.rating - 1500.0) / SCALE
    phi = rating.rd / SCALE
    sigma = rating.volatility
    if not games:
        phi2 = math.sqrt(phi * phi + sigma * sigma)
        return Rating(rating.rating, min(350.0, phi2 * SCALE), sigma, rating.attempts)
    v_inv = 0.0
    total = 0.0
    for r_j, rd_j, s in games:
        mu_j, phi_j = (r_j - 1500.0) / SCALE, rd_j / SCALE
        g = 1.0 / math.sqrt(1.0 + 3.0 * phi_j * phi_j / math.pi ** 2)
        e = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        v_inv += g * g * e * (1.0 - e)
        total += g * (s - e)
    v = 1.0 / v_inv
    delta = v * total
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    lo = a
    if delta * delta > phi * phi + v:
        hi = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        hi = a - k * tau
    f_lo, f_hi = f(lo), f(hi)
    while abs(hi - lo) > 1e-6:
        c = lo + (lo - hi) * f_lo / (f_hi - f_lo)
        f_c = f(c)
        if f_c * f_hi <= 0:
            lo, f_lo = hi, f_hi
        else:
            f_lo /= 2.0
        hi, f_hi = c, f_c
    sigma2 = math.exp(lo / 2.0)
    phi_star = math.sqrt(phi * phi + sigma2 * sigma2)
    phi2 = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu2 = mu + phi2 * phi2 * total
    return Rating(mu2 * SCALE + 1500.0, phi2 * SCALE, sigma2, rating.attempts + len(games))


class RatedSolver(Protocol):
    """A solver on the ladder: a name, a fixed rating, and a chooser made from a random stream."""

    @property
    def name(self) -> str: ...

    @property
    def rating(self) -> float: ...

    def chooser(self, rng: random.Random) -> Any: ...


def attempt_rng(seed: int, puzzle_id: str, solver: str, index: int) -> random.Random:
    """The random stream of one attempt (see the module docstring)."""
    digest = hashlib.sha256(f"sy-tools/puzzle/{seed}/{puzzle_id}/{solver}/{index}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "little"))


@dataclass
class RatingReport:
    """The rated puzzles (in the order given) and every attempt: (puzzle id, solver, try,
    solved)."""

    puzzles: list[Puzzle] = field(default_factory=list)
    attempts: list[tuple[str, str, int, bool]] = field(default_factory=list)

    def solved_by(self, puzzle_id: str) -> dict[str, float]:
        """Each solver's share of tries solved on one puzzle."""
        out: dict[str, list[bool]] = {}
        for pid, name, _, ok in self.attempts:
            if pid == puzzle_id:
                out.setdefault(name, []).append(ok)
        return {k: sum(v) / len(v) for k, v in out.items()}

    def to_dict(self) -> dict[str, Any]:
        return {"puzzles": [{"id": p.id, "rating": None if p.rating is None else p.rating.to_dict(),
                             "solved_by": self.solved_by(p.id)} for p in self.puzzles],
                "attempts": [{"puzzle": p, "solver": s, "try": i, "solved": ok} for p, s, i, ok in self.attempts]}


def rate_puzzles(puzzles: Sequence[Puzzle], solvers: Sequence[RatedSolver] = SOLVERS, tries: int = 2, seed: int = 0,
                 progress: Callable[[int, int], None] | None = None,
                 mrx_solvers: Sequence[RatedSolver] = MRX_SOLVERS) -> RatingReport:
    """Rate each puzzle from ``tries`` attempts by each solver (see the module docstring):
    ``solvers`` play the detectives' puzzles, ``mrx_solvers`` Mr. X's (survive);
    ``progress(done, total)`` after each puzzle."""
    report = RatingReport()
    for n, p in enumerate(puzzles, 1):
        games = []
        for s in (mrx_solvers if p.survival else solvers):
            for t in range(tries):
                rng = attempt_rng(seed, p.id, s.name, t)
                ok = (attempt_survival(p, s.chooser(rng)) if p.survival else attempt(p, s.chooser(rng))).solved
                report.attempts.append((p.id, s.name, t, ok))
                games.append((s.rating, getattr(s, "rd", SOLVER_RD), 0.0 if ok else 1.0))
        report.puzzles.append(p.with_rating(glicko2(Rating(), games)))
        if progress is not None:
            progress(n, len(puzzles))
    return report
