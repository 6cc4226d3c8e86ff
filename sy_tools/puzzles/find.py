"""Finding puzzles (:func:`find_puzzles`): candidate positions from game records and self-play
games, each proved or dropped.

A candidate is the start of a detectives' turn in a game, as the detectives know it (their
stations and tickets, Mr. X's possible set and tickets: :func:`record_candidates`).  It becomes
a puzzle when, in order:

1. the detectives force a capture within ``max_turns`` turns (the solver's proof; ``turns`` is
   the shortest, at least ``min_turns``);
2. the detectives that play no part are removed, one at a time, as long as the win in
   ``turns`` still holds (a problem composer's economy: a far-away detective would otherwise
   make every move of its own a second solution);
3. every detectives' turn of the main line has exactly one winning joint move, Mr. X answering
   his best (:meth:`~sy_tools.puzzles.prove.Prover.main_line`); a trivial last turn is trimmed;
4. it is not a position already kept, nor one on a kept puzzle's line.

The themes are read off the proof (:func:`themes_of`).

The second kind, ``survive`` (:mod:`sy_tools.puzzles.survive`): a candidate is Mr. X's turn,
his station known (a record's or self-play game's Mr. X turns, or a generated position:
:func:`generated_survive_candidates`).  The detectives that cannot reach anywhere he may be within
the turns asked are taken off; it becomes a puzzle when one of his moves alone survives ``N``
turns (with ``N - 1`` at least two do: :meth:`~sy_tools.puzzles.survive.SurviveProver.horizon`),
and after the detectives' strongest reply one move alone survives again, each turn of the line
(:meth:`~sy_tools.puzzles.survive.SurviveProver.main_line`); its themes:
:func:`survival_themes`."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.board import Board
from ..engine.game import Game, StepKind
from ..engine.observations import mrx_move_seen
from ..engine.position import Position
from ..engine.rules import PRESETS, Rules
from ..engine.stations import StationMask, mask_of, stations_of
from ..engine.tickets import DETECTIVE_KINDS, DETECTIVE_TICKETS, Ticket, Transport
from ..errors import InputError
from ..formats.record import Record
from ..solvers.forced_search import SearchLimit
from .model import Puzzle, steps_of
from .prove import PROVER_NODES, Belief, LineStep, NotUnique, Prover, belief_of

#: A win in four turns is searched with this many times the node budget of the shorter ones.
N4_SCALE = 50

#: The most turns a survival puzzle is searched for (its proofs grow fast with N).
SURVIVE_MAX_TURNS = 3

#: The self-play pairings a search cycles through, (Mr. X's policy, the detectives' policy).
DEFAULT_PAIRINGS: tuple[tuple[str, str], ...] = (("random", "greedy"), ("greedy", "greedy"))


@dataclass(frozen=True)
class Candidate:
    """A detectives' turn of a game as they know it: the position (Mr. X's station unknown),
    his possible set and where it came from."""

    position: Position
    possible: StationMask
    source: str


@dataclass
class FindStats:
    """What a search looked at: games played, records read, candidates (every detectives'
    turn), tried (possible set small enough), forced (a win within the turns asked), unique
    (after removing idle detectives, one solution all along the line), kept, duplicates, too
    hard (the node budget ran out), the solver's nodes and the seconds spent."""

    games: int = 0
    records: int = 0
    candidates: int = 0
    tried: int = 0
    forced: int = 0
    unique: int = 0
    kept: int = 0
    duplicates: int = 0
    too_hard: int = 0
    survive_tried: int = 0
    survive_kept: int = 0
    nodes: int = 0
    seconds: float = 0.0
    stopped: str | None = None  # "count", "time", "sources"

    @property
    def kept_share(self) -> float:
        """Kept puzzles per candidate tried."""
        return self.kept / self.tried if self.tried else 0.0

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["seconds"] = round(self.seconds, 2)
        d["kept_share"] = round(self.kept_share, 4)
        return d

    def line(self) -> str:
        """One line of progress."""
        return (f"{self.kept} puzzles kept; {self.tried} candidates tried ({self.forced} forced, {self.unique} "
                f"unique, {self.duplicates} repeats) from {self.games} games and {self.records} records; "
                f"{self.seconds:.0f} s")


@dataclass
class FindResult:
    """The puzzles found (new ones, in the order found) and the search's statistics."""

    puzzles: list[Puzzle] = field(default_factory=list)
    stats: FindStats = field(default_factory=FindStats)

    def to_dict(self) -> dict[str, Any]:
        return {"puzzles": [p.to_dict() for p in self.puzzles], "stats": self.stats.to_dict()}


# ---- candidates ------------------------------------------------------------------------------------

def record_mrx_turns(record: Record, source: str = "") -> Iterator[Candidate]:
    """Every Mr. X turn of ``record`` where his station is known (a full record, a self-play
    game's), as survival candidates: the position with him to move (possible: his station)."""
    name = source or record.file or "record"
    for step in Game.replay(record):
        if step.kind is StepKind.AFTER_END:
            return
        pos = step.before
        if step.kind is StepKind.MRX and pos.mrx_at is not None and pos.ended is None and pos.legal_moves():
            yield Candidate(pos, 1 << pos.mrx_at, f"{name} round {step.round}")


def generated_survive_candidates(seed: int = 0, map_spec: str = "london", rules: Rules | None = None,
                                 detectives: tuple[int, int] = (2, 4), board: Board | None = None,
                                 count: int | None = None) -> Iterator[Candidate]:
    """Generated survival candidates, each drawn from (seed, i) alone: Mr. X at a random station
    with two to four detectives two or three hops from him, tickets drawn for a game's middle
    (a few of each kind; a black ticket and a double move now and then), the move number
    between 4 and 18."""
    import random

    from ..engine.tickets import Tickets
    from ..formats.map_load import load_board

    board = board or load_board(map_spec)
    rules = rules or PRESETS["classic"]
    names = ("Red", "Blue", "Green", "Yellow", "Black")
    stations = sorted(board.stations)
    i = 0
    while count is None or i < count:
        rng = random.Random(f"sy-tools/survive/{seed}/{i}")
        i += 1
        x = rng.choice(stations)
        ring, frontier = 0, 1 << x
        seen = frontier
        for hop in range(1, 4):
            frontier = board.step_any(frontier, DETECTIVE_TICKETS) & ~seen
            seen |= frontier
            if hop >= 2:
                ring |= frontier
        n = rng.randint(*detectives)
        ring_st = stations_of(ring)
        if len(ring_st) < n:
            continue
        dets = tuple(rng.sample(ring_st, n))
        mt = Tickets.of({"taxi": rng.randint(2, 8), "bus": rng.randint(1, 6), "underground": rng.randint(0, 3),
                         "black": rng.choice((0, 0, 1, 2)), "double": rng.choice((0, 0, 1))})
        dt = tuple(Tickets.of({"taxi": rng.randint(3, 8), "bus": rng.randint(1, 5), "underground": rng.randint(0, 2)})
                   for _ in dets)
        move = rng.randint(4, 18)
        doubles = 0 if mt.double == 0 else rng.choice((0, 1))
        pos = Position(board, rules, names[:n], dets, dt, frozenset(), mt, x, move, move, doubles, 0)
        if pos.ended is None and pos.legal_moves():
            yield Candidate(pos, 1 << x, f"generated seed {seed} position {i - 1}")


def generated_capture_candidates(seed: int = 0, map_spec: str = "london", rules: Rules | None = None,
                                 board: Board | None = None, count: int | None = None) -> Iterator[Candidate]:
    """Generated capture candidates, each drawn from (seed, i) alone: the detectives to move
    with Mr. X's possible set one to three random stations (as after a reveal), two to four
    detectives two to four hops from it holding few tickets (two to six taxi, up to three bus,
    up to one underground: few routes, so a long win tends to have one solution), his tickets
    few too and no double move, the move number just after a reveal or two."""
    import random

    from ..engine.tickets import Tickets
    from ..formats.map_load import load_board

    board = board or load_board(map_spec)
    rules = rules or PRESETS["classic"]
    names = ("Red", "Blue", "Green", "Yellow")
    stations = sorted(board.stations)
    i = 0
    while count is None or i < count:
        rng = random.Random(f"sy-tools/capture/{seed}/{i}")
        i += 1
        S = mask_of(rng.sample(stations, rng.choice((1, 1, 2, 3))))
        ring, frontier, seen = 0, S, S
        for hop in range(1, 5):
            frontier = board.step_any(frontier, DETECTIVE_TICKETS) & ~seen
            seen |= frontier
            if hop >= 2:
                ring |= frontier
        n = rng.choice((2, 3, 3, 4))
        ring_st = stations_of(ring)
        if len(ring_st) < n:
            continue
        dets = tuple(rng.sample(ring_st, n))
        dt = tuple(Tickets.of({"taxi": rng.randint(2, 6), "bus": rng.randint(0, 3), "underground": rng.randint(0, 1)})
                   for _ in dets)
        mt = Tickets.of({"taxi": rng.randint(2, 6), "bus": rng.randint(0, 3), "underground": rng.randint(0, 2),
                         "black": rng.choice((0, 0, 1)), "double": 0})
        move = rng.choice([m + d for m in rules.reveal_moves for d in (1, 2) if m + d + 4 < rules.log_length])
        pos = Position(board, rules, names[:n], dets, dt, frozenset(), mt, None, move, move, 2, 1)
        yield Candidate(pos, S, f"generated seed {seed} position {i - 1}")


def record_candidates(record: Record, source: str = "") -> Iterator[Candidate]:
    """Every start of a detectives' turn in ``record`` (replayed by the engine), with Mr. X's
    possible set as the detectives know it then (the record's start candidates, then each
    ticket he showed and each station he was shown at, less the stations detectives moved
    onto)."""
    name = source or record.file or "record"
    S = mask_of(record.start_candidates) if record.start_candidates else 0
    first = True
    for step in Game.replay(record):
        if step.kind is StepKind.AFTER_END:
            return
        before, after = step.before, step.after
        if first:
            S = (S or mask_of(before.board.stations)) & ~before.occupied
            first = False
        if step.kind is StepKind.MRX and step.move is not None:
            if step.move.is_pass:
                S = before.trapped_stations(S)
            else:
                legs = list(mrx_move_seen(before, S, step.move))
                S = legs[-1][2] if legs else S
            if after.ended is None and after.turn >= 1 and S:
                pos = dataclasses.replace(after, mrx_at=None)
                yield Candidate(pos, S & ~pos.occupied, f"{name} round {step.round}")
        elif step.kind is StepKind.DETECTIVE and step.move is not None and step.move.to is not None:
            S &= ~(1 << step.move.to)


def selfplay_candidates(seed: int = 0, map_spec: str = "london", rules: Rules | None = None, detectives: int = 5,
                        pairings: Sequence[tuple[str, str]] = DEFAULT_PAIRINGS, games: int | None = None,
                        stats: FindStats | None = None, kind: str = "capture") -> Iterator[Candidate]:
    """The candidates of self-play games (game ``i`` of the seeded run plays pairing ``i mod
    len(pairings)``); endless unless ``games`` is given.  ``kind="survive"``: Mr. X's turns."""
    from ..formats.game_json import parse_record
    from ..selfplay.game import GameSpec, check_spec, play_game

    rules = rules or PRESETS["classic"]
    specs = [GameSpec(map=map_spec, rules=rules, detectives=detectives, mrx_policy=x, detective_policy=d, seed=seed,
                      records=True) for x, d in pairings]
    if not specs:
        raise InputError("give at least one pairing of policies", where="--policies")
    for spec in specs:
        try:
            check_spec(spec)
        except InputError as e:
            where = "--policies" if e.where in ("--mrx-policy", "--detective-policy") else e.where
            raise InputError(e.detail, e.file, where) from None
    i = 0
    board = None
    while games is None or i < games:
        spec = specs[i % len(specs)]
        result = play_game(spec, i)
        if stats is not None:
            stats.games += 1
        if result.record is not None:
            if board is None:
                from ..formats.map_load import load_board

                board = load_board(map_spec)
            rec = parse_record(result.record, board=board)
            src = f"selfplay seed {seed} game {i} ({spec.mrx_policy} Mr. X, {spec.detective_policy} detectives)"
            yield from (record_mrx_turns(rec, src) if kind == "survive" else record_candidates(rec, src))
        i += 1


# ---- proving one ---------------------------------------------------------------------------------

def without(position: Position, i: int) -> Position:
    """``position`` with detective ``i`` taken off the board (Mr. X's station unknown)."""
    keep = [j for j in range(len(position.names)) if j != i]
    names = tuple(position.names[j] for j in keep)
    return Position(position.board, position.rules, names, tuple(position.stations[j] for j in keep),
                    tuple(position.tickets[j] for j in keep), position.out & frozenset(names), position.mrx_tickets,
                    None, position.move, position.round, position.doubles, 1)


def economical(position: Position, possible: StationMask, turns: int, deadline: float | None,
               max_nodes: int) -> tuple[Position, Prover]:
    """Take off, last first, each detective without which the win within ``turns`` still
    holds; the position left and a prover on it."""
    prover = Prover(position, deadline, max_nodes)
    i = len(position.names) - 1
    while i >= 0 and len(position.names) > 1:
        smaller = without(position, i)
        p2 = Prover(smaller, deadline, max_nodes)
        if p2.wins_within(belief_of(smaller, possible), turns):
            position, prover = smaller, p2
        i -= 1
    return position, prover


def themes_of(board: Board, rules: Rules, line: Sequence[LineStep]) -> tuple[str, ...]:
    """What the proof shows, in a fixed order: ``double move`` (Mr. X could double on the
    line: the solution beats his doubles), ``black ticket`` (his best reply on the line shows
    one), ``ferry`` (a station he may be at has a ferry),
    ``reveal trap`` (a reply of the line shows him), ``trap`` (the line ends with him without a
    move), ``cordon`` (the capture covers two or more stations at once), ``quiet move`` (a turn
    of the line moves onto none of his stations), ``blocked detective`` / ``stuck detective``
    (one cannot move on the line: others hold its stations / no ticket fits), ``underground``
    (the solution rides it), ``long`` (three turns or more)."""
    from ..engine.position import double_allowed
    from ..engine.tickets import DETECTIVE_TICKETS

    found: set[str] = set()
    for st in line:
        b = st.before
        S = b.possible
        if any(Transport.FERRY in board.transports_at(s) for s in stations_of(S)):
            found.add("ferry")
        if st.reply is not None or st.joint.end is None:
            if double_allowed(rules, st.joint.after.mrx_tickets.double, b.doubles, b.move):
                found.add("double move")
        if st.reply is not None and Ticket.BLACK in st.reply.tickets:
            found.add("black ticket")
        if st.reply is not None and any(s is not None for s in st.reply.shown):
            found.add("reveal trap")
        if st.joint.end == "trapped":
            found.add("trap")
        if st.joint.end == "caught" and S.bit_count() >= 2:
            found.add("cordon")
        if st.joint.end is None and not st.trivial and not any(m.to is not None and S >> m.to & 1
                                                               for m in st.joint.moves):
            found.add("quiet move")
        if any(m.tickets[0] is Ticket.UNDERGROUND for m in st.joint.moves):
            found.add("underground")
        occ = mask_of(b.stations)
        for i, (s, t) in enumerate(zip(b.stations, b.tickets)):
            if b.out >> i & 1:
                continue
            hops = [(k, d) for k in DETECTIVE_TICKETS if t[k] > 0 for d in board.destinations(s, k)]
            if not hops:
                found.add("stuck detective")
            elif all(occ >> d & 1 for _, d in hops):
                found.add("blocked detective")
    if len(line) >= 3:
        found.add("long")
    return tuple(t for t in THEMES if t in found)


#: Every theme, in the order a puzzle lists them.
THEMES = ("double move", "black ticket", "ferry", "reveal trap", "trap", "cordon", "quiet move",
          "blocked detective", "stuck detective", "underground", "long")


def belief_key(map_name: str, b: Belief) -> tuple[Any, ...]:
    """A belief state's identity for spotting repeats."""
    return (map_name, b.stations, tuple(tuple(t.to_dict(DETECTIVE_KINDS).values()) for t in b.tickets), b.out,
            b.possible, tuple(b.mrx_tickets.to_dict().values()), b.move, b.doubles)


def prove_candidate(c: Candidate, min_turns: int = 1, max_turns: int = 4, deadline: float | None = None,
                    max_nodes: int = PROVER_NODES, map_name: str = "london",
                    stats: FindStats | None = None) -> tuple[Puzzle, list[Belief]] | None:
    """The puzzle a candidate makes (and the beliefs along its line), or None (see the module
    docstring).  :class:`SearchLimit` ("time") when ``deadline`` passes; a candidate that needs
    more than ``max_nodes`` nodes in one proof is dropped."""
    stats = stats if stats is not None else FindStats()
    pos, S = c.position, c.possible
    prover = Prover(pos, deadline, max_nodes)
    try:
        k = prover.shortest(belief_of(pos, S), min(max_turns, 3))
        stats.nodes += prover.nodes
        if k is None and max_turns >= 4:  # a win in four: a search of its own, with a larger budget
            max_nodes *= N4_SCALE
            prover = Prover(pos, deadline, max_nodes)
            k = 4 if prover.wins_within(belief_of(pos, S), 4) else None
            stats.nodes += prover.nodes
        if k is None or k < min_turns:
            return None
        stats.forced += 1
        pos, prover = economical(pos, S, k, deadline, max_nodes)
        b = belief_of(pos, S)
        k = prover.shortest(b, k) or k  # (a detective taken off may have been in the way: a faster win)
        if k < min_turns:
            return None
        try:
            line = prover.main_line(b, k)
        except NotUnique:
            return None
        finally:
            stats.nodes += prover.nodes
    except SearchLimit as e:
        if e.limit == "time":
            raise
        stats.too_hard += 1
        return None
    if line[0].trivial:
        return None
    stats.unique += 1
    names = pos.names
    puzzle = Puzzle(map_name, pos.rules, tuple(zip(names, pos.stations, pos.tickets)), tuple(sorted(pos.out)),
                    tuple(stations_of(b.possible)), pos.mrx_tickets, pos.move, pos.round, pos.doubles, k,
                    steps_of(line), "capture", themes_of(pos.board, pos.rules, line), c.source, None, pos.board)
    beliefs = [st.before for st in line]
    return puzzle, beliefs


# ---- survival puzzles ----------------------------------------------------------------------------

def reachable_only(position: Position, turns: int) -> Position:
    """``position`` (Mr. X to move, his station known) without the detectives that cannot meet
    him, or a detective that can, within ``turns`` turns (:meth:`SurviveProver.relevant`)."""
    from .survive import SurviveProver

    keep = SurviveProver(position, None, None).relevant(position, turns + 1)
    if keep is None or keep == (1 << len(position.names)) - 1:
        return position
    idx = [i for i in range(len(position.names)) if keep >> i & 1]
    names = tuple(position.names[i] for i in idx)
    return Position(position.board, position.rules, names, tuple(position.stations[i] for i in idx),
                    tuple(position.tickets[i] for i in idx), position.out & frozenset(names), position.mrx_tickets,
                    position.mrx_at, position.move, position.round, position.doubles, 0)


def survival_themes(board: Board, line: Sequence[Any]) -> tuple[str, ...]:
    """What a survival line shows, in a fixed order (:data:`SURVIVAL_THEMES`): ``double move``,
    ``black ticket``, ``ferry``, ``underground`` (a move of his on the line uses one),
    ``toward the detectives`` (his first move ends nearer the nearest detective than he
    stood), ``blocked detective`` / ``stuck detective`` (one cannot move on the line: others
    hold its stations / no ticket fits), ``long`` (three turns or more)."""
    from ..engine.tickets import DETECTIVE_TICKETS as KINDS
    from .survive import SurviveProver

    found: set[str] = set()
    for st in line:
        m, pos = st.move, st.before
        if m.is_double:
            found.add("double move")
        if Ticket.BLACK in m.tickets:
            found.add("black ticket")
        if Ticket.UNDERGROUND in m.tickets:
            found.add("underground")
        at = pos.mrx_at
        for t, to in zip(m.tickets, m.stations):
            if at is not None and to is not None and t is Ticket.BLACK and \
                    board.transports_between(at, to) == frozenset({Transport.FERRY}):
                found.add("ferry")
            at = to
        occ = mask_of(pos.stations)
        for n, s, t in zip(pos.names, pos.stations, pos.tickets):
            if n in pos.out:
                continue
            hops = [d for k in KINDS if t[k] > 0 for d in board.destinations(s, k)]
            if not hops:
                found.add("stuck detective")
            elif all(occ >> d & 1 for d in hops):
                found.add("blocked detective")
    if line:
        first = line[0]
        pr = SurviveProver(first.before, None, None)
        dets = [s for n, s in zip(first.before.names, first.before.stations) if n not in first.before.out]
        x0 = first.before.mrx_at
        to = first.move.to
        if x0 is not None and to is not None and dets:
            before = min(pr.distances(x0).get(s, 99) for s in dets)
            after = min(pr.distances(to).get(s, 99) for s in dets)
            if after < before:
                found.add("toward the detectives")
    if len(line) >= 3:
        found.add("long")
    return tuple(t for t in SURVIVAL_THEMES if t in found)


#: Every theme of a survival puzzle, in the order a puzzle lists them.
SURVIVAL_THEMES = ("double move", "black ticket", "ferry", "underground", "toward the detectives",
                   "blocked detective", "stuck detective", "long")


def survival_key(map_name: str, pos: Position) -> tuple[Any, ...]:
    """A survival position's identity for spotting repeats."""
    return ("survive", map_name, pos.mrx_at, pos.stations,
            tuple(tuple(t.to_dict(DETECTIVE_KINDS).values()) for t in pos.tickets), tuple(sorted(pos.out)),
            tuple(pos.mrx_tickets.to_dict().values()), pos.move, pos.doubles)


def prove_survival(c: Candidate, min_turns: int = 1, max_turns: int = 3, deadline: float | None = None,
                   max_nodes: int | None = None, map_name: str = "london",
                   stats: FindStats | None = None) -> tuple[Puzzle, list[Position]] | None:
    """The survival puzzle a candidate makes (and the positions along its line), or None (see
    the module docstring).  :class:`SearchLimit` ("time") when ``deadline`` passes; a candidate
    that needs more than ``max_nodes`` nodes is dropped."""
    from .model import survival_steps_of
    from .survive import SURVIVE_NODES, NotUniqueSurvival, SurviveProver

    stats = stats if stats is not None else FindStats()
    pos = reachable_only(c.position, max_turns)
    prover = SurviveProver(pos, deadline, max_nodes or SURVIVE_NODES)
    try:
        n = prover.horizon(pos, max_turns)
        if n is None or n < min_turns:
            return None
        stats.forced += 1
        try:
            line = prover.main_line(pos, n)
        except NotUniqueSurvival:
            return None
    except SearchLimit as e:
        if e.limit == "time":
            raise
        stats.too_hard += 1
        return None
    finally:
        stats.nodes += prover.nodes
    stats.unique += 1
    x = pos.mrx_at
    assert x is not None
    puzzle = Puzzle(map_name, pos.rules, tuple(zip(pos.names, pos.stations, pos.tickets)), tuple(sorted(pos.out)),
                    (x,), pos.mrx_tickets, pos.move, pos.round, pos.doubles, n, survival_steps_of(line), "survive",
                    survival_themes(pos.board, line), c.source, None, pos.board)
    return puzzle, [st.before for st in line]


# ---- the search ----------------------------------------------------------------------------------

def find_puzzles(sources: Iterable[Candidate] | None = None, count: int = 10, seed: int = 0,
                 min_turns: int = 1, max_turns: int = 4, time_limit: float | None = None,
                 known: Iterable[Puzzle] = (), max_possible: int = 12, max_nodes: int = PROVER_NODES,
                 map_spec: str = "london", rules: Rules | None = None, detectives: int = 5,
                 pairings: Sequence[tuple[str, str]] = DEFAULT_PAIRINGS, records: Sequence[Record] = (),
                 selfplay: bool | None = None, progress: Callable[[FindStats, Puzzle | None], None] | None = None,
                 kind: str = "capture", generated: bool | None = None) -> FindResult:
    """Find up to ``count`` new puzzles (``known`` ones, and positions on their lines, are
    skipped): first from ``records``, then from ``sources``, then (with ``selfplay``; None: when
    neither records nor sources are given) from endless self-play games seeded by ``seed``,
    cycling through ``pairings``, each candidate whose possible set has at
    most ``max_possible`` stations tried by :func:`prove_candidate`.  ``time_limit`` (seconds)
    bounds the whole search: it stops with what it found.  ``progress(stats, puzzle)`` is called
    after each candidate tried (``puzzle``: the one just kept, or None).

    ``kind="survive"`` finds survival puzzles instead: from Mr. X's turns of ``records``, then
    ``sources``, then (with ``selfplay``) self-play games, and (when neither records nor sources
    are given and ``selfplay`` is not True) generated positions seeded by ``seed``
    (:func:`generated_survive_candidates`); ``max_possible`` does not apply.  ``kind="both"``
    alternates: each candidate position of the capture search is followed by one generated
    survival candidate.  ``generated`` (capture): generated positions
    (:func:`generated_capture_candidates`) instead of self-play when neither records nor
    sources are given (True), or not at all (False; survive: no generated positions)."""
    if kind not in ("capture", "survive", "both"):
        raise InputError(f"expected a kind of capture, survive or both, got {kind!r}", where="--kind")
    if not 1 <= min_turns <= max_turns <= 6:
        raise InputError(f"expected 1 <= min turns <= max turns <= 6, got {min_turns} and {max_turns}",
                         where="--turns")
    if count < 1:
        raise InputError(f"expected a count of at least 1, got {count}", where="--count")
    if kind == "survive" and min_turns > SURVIVE_MAX_TURNS:
        raise InputError(f"survive puzzles go up to {SURVIVE_MAX_TURNS} turns, got {min_turns}", where="--turns")
    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    result = FindResult()
    stats = result.stats
    seen: set[tuple[Any, ...]] = set()
    for p in known:
        seen.update(_line_keys(p))

    def capture_sources() -> Iterator[Candidate]:
        for r in records:
            stats.records += 1
            yield from record_candidates(r)
        if sources is not None:
            yield from sources
        if generated and not selfplay:
            yield from generated_capture_candidates(seed, map_spec, rules)
        elif selfplay or (selfplay is None and not records and sources is None):
            yield from selfplay_candidates(seed, map_spec, rules, detectives, pairings, stats=stats)

    def survive_sources() -> Iterator[Candidate]:
        for r in records:
            stats.records += 1
            yield from record_mrx_turns(r)
        if sources is not None:
            yield from sources
        if selfplay:
            yield from selfplay_candidates(seed, map_spec, rules, detectives, pairings, stats=stats, kind="survive")
        elif not records and sources is None and generated is not False:
            yield from generated_survive_candidates(seed, map_spec, rules)

    def both() -> Iterator[Candidate]:
        gen = generated_survive_candidates(seed, map_spec, rules)
        for c in capture_sources():
            yield c
            yield next(gen)

    def all_sources() -> Iterator[Candidate]:
        return {"capture": capture_sources, "survive": survive_sources, "both": both}[kind]()

    try:
        for c in all_sources():
            stats.candidates += 1
            if deadline is not None and time.monotonic() > deadline:
                stats.stopped = "time"
                break
            survival = c.position.mrx_at is not None and c.position.turn == 0
            if not survival and c.possible.bit_count() > max_possible:
                continue
            stats.tried += 1
            if survival:
                stats.survive_tried += 1
                got = prove_survival(c, min_turns, min(max_turns, SURVIVE_MAX_TURNS), deadline, None,
                                     c.position.board.name, stats)
                found_keys = None if got is None else (got[0], [survival_key(got[0].map, p) for p in got[1]])
            else:
                found = prove_candidate(c, min_turns, max_turns, deadline, max_nodes, c.position.board.name, stats)
                found_keys = None if found is None else (found[0], [belief_key(found[0].map, b) for b in found[1]])
            kept = None
            if found_keys is not None:
                puzzle, keys = found_keys
                if keys[0] in seen:
                    stats.duplicates += 1
                else:
                    seen.update(keys)
                    result.puzzles.append(puzzle)
                    stats.kept += 1
                    if puzzle.survival:
                        stats.survive_kept += 1
                    kept = puzzle
            stats.seconds = time.monotonic() - t0
            if progress is not None:
                progress(stats, kept)
            if stats.kept >= count:
                stats.stopped = "count"
                break
        else:
            stats.stopped = "sources"
    except SearchLimit:
        stats.stopped = "time"
    stats.seconds = time.monotonic() - t0
    return result


def _line_keys(p: Puzzle) -> list[tuple[Any, ...]]:
    """The puzzle's position and those after each reply of its line (positions a later find
    must not keep)."""
    from .check import replay_line, survival_positions

    if p.survival:
        return [survival_key(p.map, q) for q in survival_positions(p)]
    return [belief_key(p.map, p.belief())] + [belief_key(p.map, b) for b in replay_line(p)]
