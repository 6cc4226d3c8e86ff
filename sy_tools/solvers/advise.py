
"""What each side should do now, and why (``sy-tools advise``).

Two advisors, both asking the rules engine (:mod:`sy_tools.engine.position`) what is legal:

* :func:`advise_detectives`: one move for each detective still to move this round, chosen
  jointly.  It sees what the detectives see (:class:`DetectiveObservation`: never Mr. X's
  station) and ranks joint moves by, in order:

  1. a win he cannot avoid: every station he may be at is moved onto, or he is left without a
     legal move (trapped), or, looking ``depth`` turns ahead, every ticket he may show next
     (black and double moves included) leaves a set the detectives can cover;
  2. the probability of catching him within the horizon whatever he shows (the worst ticket),
     then averaged over the tickets he may show;
  3. how small his possible set will be after his next move (averaged over his tickets);
  4. how close the detectives stand to his probability mass;
  5. tickets: a move that leaves a detective stuck is a last resort (shown with a warning)
     unless it wins; then cheap and plentiful tickets first.

  The search is anytime: a greedy joint move first, then a beam over joint moves in turn order
  that widens while time remains (``time_limit``; ``status`` says when the limit stopped it).
  The capture figure for his next move is exact: for each ticket he may show, a maximum
  matching of detectives to the stations he may then be at (a detective lands on one station).

* :func:`advise_mrx`: Mr. X's legal moves (black and double included) ranked by whether the
  detectives can catch him next turn (worst case over their moves, exact), whether they can
  trap him, the size of the possible set they will hold, the distance to the nearest
  detective, and whether spending a black ticket or a double move now is worth it.

The policies :func:`detective_policy` and :func:`mrx_policy` have the self-play signature
``policy(observation, rng) -> Move``.

Forced wins (``sy-tools solve``): both advisors take ``forced``, a callable
``forced(position, possible, time_limit) -> result or None`` (see :data:`ForcedHook`); when its
result says ``forced is True`` the detectives play its ``first_moves``.  :func:`solve_hook`
returns the hook backed by :mod:`sy_tools.solvers.forced` when that module is installed, else
None (then ``forced`` is null in the output); both live in :mod:`sy_tools.solvers.forced_hook`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..analysis.distances import distances
from ..engine.args import instance_arg, int_arg
from ..engine.board import Board
from ..engine.budget import deadline_within, time_budget
from ..engine.moves import Move
from ..engine.observations import DetectiveObservation, MrXObservation, mrx_move_seen, observed_position
from ..engine.position import Position
from ..engine.rules import Rules
from ..engine.stations import Station, StationMask, mask_of, stations_of
from ..engine.tickets import MRX_MOVE_TICKETS, Ticket
from ..errors import AnalysisError, InputError
from ..formats.notation import move_entry_text
from ..formats.record import RECORD_HINT, Record
from ..formats.report_text import plural
from .advice import (
    FAR,
    Advice,
    DetectiveAdvice,
    MrXChooser,
    MrXOption,
    advice_header,
    detective_reach,
    max_matching,
    mrx_move_words,
    tickets_spent,
)
from .belief import MAX_CANDIDATES, advise_detectives
from .forced_hook import ForcedHook, solve_hook
from .mrx_lookahead import look_ahead
from .puzzles import puzzle_detectives
from .puzzles import puzzle_position as _puzzle_position


def _mrx_after(pos: Position, S: StationMask, m: Move) -> tuple[StationMask, bool]:
    """The detectives' possible set after Mr. X plays ``m``, and whether he is shown."""
    legs = list(mrx_move_seen(pos, S, m))
    if not legs:  # a pass: nothing shown, the set as it was
        return S, False
    _leg, _t, after, seen = legs[-1]
    return after, seen is not None


def _weigh_mrx_move(pos: Position, S: StationMask, m: Move, dist: list[list[int]]) -> MrXOption:
    """Mr. X's move ``m`` judged (``S``: the detectives' possible set now; ``dist``: hops, FAR
    where no detective route joins): who could catch him next, a trap, the set he leaves them,
    the nearest detective, what it spends, and the key that ranks it."""
    board = pos.board
    after = pos.push(m)
    to = m.to
    assert to is not None
    if after.ended is not None and after.ended.winner == "mrx":
        return MrXOption(m, (), False, 0, None, False, f"wins: {after.ended.describe()}", (2.0,))
    if after.ended is not None:  # onto a detective ("mrx_onto_detective: caught"): he loses at once
        by = after.ended.by or "a detective"
        return MrXOption(m, (by,), False, 0, 0, False, f"loses: {by} stands on {to} (caught)", (-1.0,))
    capturers = tuple(n for n in after.names if n not in after.out
                      and any(d.to == to for d in after.detective_moves(n)))
    S1, shown = _mrx_after(pos, S, m)
    size = S1.bit_count()
    # trappable: all his exits from ``to`` can be landed on by distinct detectives at once
    exits = 0
    for t in after.mrx_tickets.held(MRX_MOVE_TICKETS):
        exits |= board.step(1 << to, t)
    exits_l = stations_of(exits)
    trappable = False
    if after.rules.trapped_loses and len(exits_l) <= len(after.names):
        opts = []
        fixed = 0
        for n, s, tk in zip(after.names, after.stations, after.tickets):
            hops = detective_reach(board, s, tk)
            if n in after.out or not hops:
                fixed |= (1 << s) & exits
                continue
            opts.append(stations_of(hops & exits & ~(1 << to)))
        need = exits & ~fixed
        trappable = bool(exits) and max_matching([[x for x in o if need >> x & 1] for o in opts]) >= need.bit_count()
    near = min((dist[to][s] for s in after.stations), default=FAR)
    risk = 0.0 if not capturers else min(1.0, len(capturers) / max(size, 1))
    black = sum(1 for t in m.tickets if t is Ticket.BLACK)
    just_seen = S.bit_count() <= 1
    cost = black * (0.3 if just_seen else 1.0) + (2.0 if m.is_double else 0.0)
    hide = math.log2(max(size, 1)) - cost
    key = (1.0, -risk, 0.0 if trappable else 1.0, round(hide * 2) / 2, float(min(near, 4)), -cost)
    parts = []
    if capturers:
        parts.append(f"{_names(capturers)} can reach {to} next turn")
    else:
        parts.append(f"no detective can reach {to} next turn")
    if trappable:
        parts.append("they could take every exit")
    if m.took is not None:
        parts.append(f"you show yourself and take {m.took[0]}'s {m.took[1].value} ticket")
    parts.append("you are shown there (reveal)" if shown else
                 f"they will think you may be at {plural(size, 'station')}")
    parts.append(f"nearest detective {plural(near, 'hop')}" if near < FAR else "no detective route leads there")
    spent = tickets_spent(m)
    if spent:
        parts.append("spends " + " and ".join(spent) + (" (right after a reveal: worth it)" if just_seen and black
                                                       else ""))
    return MrXOption(m, capturers, trappable, size, None if near >= FAR else near, shown, "; ".join(parts), key)


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def advise_mrx(position: Position, possible: StationMask | Iterable[Station] | None = None, top: int = 5,
               time_limit: float = 10.0, doubles: str = "all", context: dict[str, Any] | None = None,
               sound: int | None = None, nodes: int | None = None, choose: MrXChooser | None = None) -> Advice:
    """Mr. X's legal moves ranked, best first (the ``top`` best).  ``position`` must know his
    station; ``possible`` is the set the detectives hold now (default: his station only).
    ``doubles``: ``"all"`` weighs every double move, ``"when-needed"`` only when no single move
    is sound (the self-play policy).  The forced-win search proves or clears the best moves
    until ``sound`` (default ``top``) moves that are no proved loss lead the ranking
    (:func:`~sy_tools.solvers.mrx_lookahead.look_ahead`), each search within ``nodes`` nodes
    when given (the self-play policy: games then do not depend on the machine's speed).
    ``choose`` (:class:`~sy_tools.solvers.advice.MrXChooser`, e.g. the self-play policy's tree
    search) then picks among the best sound moves within what is left of ``time_limit``; its
    pick leads the list, the rest keep the ranking's order."""
    sound = top if sound is None else sound
    if choose is not None:
        sound = max(sound, choose.candidates)
    t0 = time.monotonic()
    if position.ended is not None:
        raise AnalysisError(f"the game is over: {position.ended.describe()}")
    if position.turn != 0:
        raise AnalysisError(f"{position.to_move} is to move, not Mr. X")
    at = position.mrx_at
    if at is None:
        raise InputError("Mr. X's advice needs his station: a full record, or --at STATION", where="--at")
    S = (possible if isinstance(possible, int) else mask_of(possible)) if possible is not None else 1 << at
    S |= 1 << at
    dist = distances(position.board, FAR)
    legal = position.legal_moves()
    if not legal:
        raise AnalysisError("Mr. X has no legal move: he is trapped")
    deadline = deadline_within(time_limit)
    status = "exhaustive"
    judged: list[MrXOption] = []
    singles = [m for m in legal if not m.is_double]
    dbl = [m for m in legal if m.is_double]
    if any(m.is_pass for m in legal):
        judged = [MrXOption(legal[0], (), False, S.bit_count(), None, False, "no legal move: you pass", (0.0,))]
    else:
        for m in singles:
            judged.append(_weigh_mrx_move(position, S, m, dist))
        judged = look_ahead(position, S, judged, dist, deadline, sound, nodes)
        if dbl and (doubles == "all" or not any(o.sound for o in judged)):
            doubled = []
            for i, m in enumerate(dbl):
                if i & 15 == 0 and time.monotonic() > deadline:
                    status = "time-limit"
                    break
                doubled.append(_weigh_mrx_move(position, S, m, dist))
            judged += look_ahead(position, S, doubled, dist, deadline, sound, nodes)
        if time.monotonic() > deadline:
            status = "time-limit"
    judged.sort(key=lambda o: o.key, reverse=True)
    pick = None
    if choose is not None and len(judged) > 1:
        pick = choose(position, S, judged, deadline)
        if pick is not None and pick.index:
            judged.insert(0, judged.pop(pick.index))
    shown = tuple(judged[:top])
    header = advice_header(position, S, position.occupied, side="mrx", mrx_at=at)
    b = shown[0]
    summary = f"Mr. X: {b.entry} ({mrx_move_words(b.move)}): {b.reason}."
    return Advice("mrx", shown, S.bit_count(), header["reach"], header["to_reveal"], header["distances"],
                  header["holds"], header["note"], None, None, status, 1, 1, len(judged),
                  time.monotonic() - t0, summary, context or {}, tuple(sorted(position.out)), pick)


def before_detectives(record: Record, n_round: int) -> Record:
    """``record`` as it stood before the detectives' moves of round ``n_round`` (Mr. X's move of
    that round made): where their advice for that round is given.  :class:`InputError` naming
    ``--round`` when the record has no such round."""
    if not 1 <= n_round <= len(record.rounds):
        raise InputError(f"--round {n_round} is out of range: {_detective_rounds(record)}", record.file)
    return record.truncated(n_round, 0)


def _detective_rounds(record: Record) -> str:
    """Which rounds of ``record`` the detectives' advice can be asked for, as a clause."""
    n = len(record.rounds)
    if not n:
        return "the record has no round yet (the detectives first move in round 1)"
    return "the detectives move in round 1 of the record" if n == 1 else \
        f"the detectives move in rounds 1..{n} of the record"


def advise_record(record: Record, side: str | None = None, at: Station | None = None, depth: int = 2,
                  top: int = 5, time_limit: float = 10.0, forced: ForcedHook | None = None,
                  choose: MrXChooser | None = None, candidates: int = MAX_CANDIDATES,
                  round_: int | None = None) -> Advice:
    """Advice for the side to move at the end of ``record`` (``side`` must be that side when
    given).  Mr. X's advice needs his station: a full record, or ``at``; ``choose``: see
    :func:`advise_mrx`; ``candidates`` caps the detectives' joint moves weighed (more where his
    possible set is small: :func:`~sy_tools.solvers.belief.advise_detectives`).

    ``round_`` advises on the record as it stood at that round of a finished or running game:
    with ``side="detectives"`` before the detectives' moves of round ``round_`` (what they were
    advised then: :func:`before_detectives`; the context's ``played`` says what the record has
    them play), otherwise after the round (``Record.at_round``), Mr. X to move."""
    from ..analysis.possible import possible
    from ..analysis.record_position import record_position

    instance_arg(record, Record, "record", RECORD_HINT)
    top = int_arg(top, "top", 1)
    played: list[str] | None = None
    if round_ is not None:
        round_ = int_arg(round_, "round_", 0)
    if round_ is not None and side == "detectives":
        played = [move_entry_text(Move.detective(d.name, d.ticket, d.to), d.capture)
                  for d in record.rounds[round_ - 1].detectives] if 1 <= round_ <= len(record.rounds) else []
        record = before_detectives(record, round_)
    elif round_ is not None:
        record = record.at_round(round_)
    # (where the detectives' advice is refused, the line says how to ask for a round of the game)
    hint = f"; for the detectives' advice of a round: --round N --side detectives ({_detective_rounds(record)})" \
        if record.rounds and round_ is None else ""
    # one budget for the whole call: the replay and the possible set count too, and the search gets
    # what is left of it (OutOfTime when the replay takes the whole limit)
    with time_budget(time_limit):
        try:
            pos = record_position(record, at, in_progress=True)
        except AnalysisError as e:
            if hint and side != "mrx" and e.detail.startswith("the game is over"):
                raise AnalysisError(e.detail + hint, e.file, e.where) from None
            raise
        to_move = "mrx" if pos.turn == 0 else "detectives"
        side = side or to_move
        if side != to_move:
            who = "Mr. X" if to_move == "mrx" else pos.to_move
            raise InputError(f"{who} is to move, so only --side {to_move} can be advised here"
                             + (hint if side == "detectives" else ""), record.file, "--side")
        where = possible(record)
        S = mask_of(where.stations)
        out = pos.outcome
        ctx: dict[str, Any] = {"file": record.file, "round": out.round, "move": out.move,
                               "to_move": "mrx" if pos.turn == 0 else pos.to_move, "when": pos.when}
        if played is not None:
            ctx["played"] = played
        if side == "mrx":
            if pos.mrx_at is None:
                raise InputError("Mr. X is to move and the record does not say where he is: give --at STATION for his "
                                 "advice (the detectives' comes after his move)", record.file, "--at")
            return advise_mrx(pos, S, top, time_limit, context=ctx, choose=choose)
        if at is not None:
            raise InputError("--at places Mr. X; the detectives' advice never uses his station", record.file, "--at")
        return advise_detectives(pos, S, where.probabilities, depth, time_limit, forced, candidates, context=ctx,
                                 came_from=came_from(record))


def came_from(record: Record) -> dict[str, Station]:
    """Where each detective of ``record`` stood before its last move (one that has not moved
    yet is absent): the detectives' advice does not send one straight back without a reason."""
    at = {d.name: d.start for d in record.detectives}
    before: dict[str, Station] = {}
    for rnd in record.rounds:
        for dm in rnd.detectives:
            if dm.name in at:
                before[dm.name] = at[dm.name]
                at[dm.name] = dm.to
    return before


def advise_puzzle_position(board: Board, around: Sequence[Station] | None, at: Station | None,
                    detectives: Sequence[tuple[str, Station]], side: str,
                    detective_tickets: Mapping[str, int] | None = None, mrx_tickets: Mapping[str, int] | None = None,
                    move_number: int = 0, rules: Rules | None = None) -> tuple[Position, StationMask]:
    """A puzzle's position and Mr. X's possible set: the detectives (name, station) each hold
    ``detective_tickets``, Mr. X is somewhere in ``around`` (or at ``at``) holding
    ``mrx_tickets`` and has made ``move_number`` moves; ``side`` says who is to move."""
    puzzle_detectives(board, detectives)  # a bad --detectives is named before a bad --around, as always
    pos, S = _puzzle_position(board, around, detectives, detective_tickets, mrx_tickets, move_number, rules, at,
                              mrx_to_move=side == "mrx")
    if side == "mrx" and at is None:
        raise InputError("Mr. X's advice needs his station: give --at STATION", where="--at")
    return pos, S


def advise_puzzle(board: Board, around: Sequence[Station] | None, at: Station | None,
                  detectives: Sequence[tuple[str, Station]], side: str | None = None,
                  detective_tickets: Mapping[str, int] | None = None, mrx_tickets: Mapping[str, int] | None = None,
                  move_number: int = 0, depth: int = 2, top: int = 5, time_limit: float = 10.0,
                  forced: ForcedHook | None = None, rules: Rules | None = None,
                  choose: MrXChooser | None = None, candidates: int = MAX_CANDIDATES) -> Advice:
    """Advice in puzzle mode (see :func:`advise_puzzle_position`; ``rules`` default classic); ``side``
    defaults to Mr. X when his station ``at`` is given, else the detectives; ``choose``: see
    :func:`advise_mrx`; ``candidates`` caps the detectives' joint moves weighed (more where his
    possible set is small: :func:`~sy_tools.solvers.belief.advise_detectives`)."""
    top = int_arg(top, "top", 1)
    side = side or ("mrx" if at is not None and not around else "detectives")
    pos, S = advise_puzzle_position(board, around, at, detectives, side, detective_tickets, mrx_tickets, move_number, rules)
    ctx: dict[str, Any] = {"around": stations_of(S), "move_number": move_number}
    if side == "mrx":
        return advise_mrx(pos, S, top, time_limit, context=ctx, choose=choose)
    return advise_detectives(pos, S, None, depth, time_limit, forced, candidates, context=ctx)

__all__ = ["Advice", "DetectiveAdvice", "DetectiveObservation", "ForcedHook", "MrXChooser", "MrXObservation", "MrXOption",
           "advise_detectives", "advise_mrx", "advise_puzzle", "advise_record", "before_detectives", "came_from",
           "distances", "observed_position", "advise_puzzle_position", "solve_hook"]
