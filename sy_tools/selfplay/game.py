"""One self-play game: its set-up (spec, seeds, decks) and its loop."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..engine.board import Board
from ..engine.budget import check_time_limit
from ..engine.hops import MRX
from ..engine.moves import Move, plain_move
from ..engine.observations import DetectiveObservation, MrXObservation, mrx_move_seen
from ..engine.playout import random_playout
from ..engine.position import Position
from ..engine.rules import PRESETS, Rules, counting_models, unmodelled_rule_fields
from ..engine.stations import Station, mask_of
from ..engine.tickets import DETECTIVE_TICKET_KINDS, MRX_TICKET_KINDS
from ..errors import InputError
from ..formats.files import Signalled
from .budgets import check_seed
from .policies import Policy, is_plug_in, load_policy, run_policy, safe_repr

#: detective names in turn order
DETECTIVE_NAMES = ("Red", "Blue", "Green", "Yellow", "Black")

#: how a game can end (the outcome kinds plus a forfeit)
END_REASONS = ("capture", "trapped", "detectives-stuck", "log-full", "forfeit")

#: the ticket columns of a result row
MRX_TICKET_COLUMNS = MRX_TICKET_KINDS

DETECTIVE_TICKET_COLUMNS = DETECTIVE_TICKET_KINDS


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
    return random.Random(_game_seed(seed, index))


def _game_seed(seed: int, index: int) -> int:
    """The integer :func:`game_rng` seeds game ``index``'s stream with."""
    digest = hashlib.sha256(f"sy-tools/{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:16], "little")


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
    drawn (:func:`_draw`; :class:`Dealer` for many games)."""
    mrx_deck, det_deck = _decks(board, rules, starts)
    mrx, dets = _draw(mrx_deck, det_deck, n_detectives, rng, None)
    return mrx, dets, _candidates(mrx_deck, dets)


def _candidates(mrx_deck: list[Station], dets: list[Station]) -> list[Station]:
    """Mr. X's start candidates: his deck less the detectives' stations, ascending."""
    taken = set(dets)
    return sorted({s for s in mrx_deck if s not in taken})


def _draw(mrx_deck: list[Station], det_deck: list[Station], n_detectives: int, rng: random.Random,
          pools: dict[Station, list[Station]] | None) -> tuple[Station, list[Station]]:
    """The deal's draws: Mr. X's start from his deck, then the detectives' from theirs less his
    (``pools``: those lists per start of Mr. X, kept across calls)."""
    mrx = mrx_deck[int(rng.random() * len(mrx_deck))]
    pool = None if pools is None else pools.get(mrx)
    if pool is None:
        pool = [s for s in det_deck if s != mrx]
        if pools is not None:
            pools[mrx] = pool
    if len(pool) < n_detectives:
        raise InputError(f"the detectives' start deck has {len(pool)} free stations for {n_detectives} detectives",
                         where="--starts")
    return mrx, rng.sample(pool, n_detectives)


class Dealer:
    """:func:`deal` for one ``(board, rules, detectives, starts)``: the decks looked up once, so
    dealing many games (:meth:`draw_games`, the batched env's auto-reset) costs only the draws
    (:func:`_draw`, the same as :func:`deal`'s)."""

    def __init__(self, board: Board, rules: Rules, n_detectives: int,
                 starts: str | tuple[Station, ...] | None) -> None:
        self.mrx_deck, self.det_deck = _decks(board, rules, starts)
        self.n = n_detectives
        #: the detectives' deck less Mr. X's start, per start (built on first use)
        self._pools: dict[Station, list[Station]] = {}
        self._rng: random.Random | None = None

    def draw(self, rng: random.Random) -> tuple[Station, list[Station]]:
        """Mr. X's start and the detectives' starts, drawn from ``rng``."""
        return _draw(self.mrx_deck, self.det_deck, self.n, rng, self._pools)

    def deal(self, rng: random.Random) -> tuple[Station, list[Station], list[Station]]:
        """:meth:`draw` and Mr. X's start candidates (his deck less the detectives' stations)."""
        mrx, dets = self.draw(rng)
        return mrx, dets, _candidates(self.mrx_deck, dets)

    def draw_games(self, seed: int, games: range) -> list[tuple[Station, list[Station]]]:
        """:meth:`draw` of each of ``games`` of the run ``seed``, each from its
        :func:`game_rng` stream (one generator re-seeded: the same stream, without building a
        new one per game)."""
        if self._rng is None:
            self._rng = random.Random()
        rng, out = self._rng, []
        for g in games:
            rng.seed(_game_seed(seed, g))
            out.append(self.draw(rng))
        return out


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
        from ..formats.map_load import load_board

        self.spec = spec
        check_seed(spec.seed)  # rows keep it as a 64-bit integer (parquet)
        check_time_limit(spec.cordon_time_limit, "cordon_time_limit")
        self.board = load_board(spec.map)
        self.mrx_policy: Policy = load_policy(spec.mrx_policy, "mrx")
        self.detective_policy: Policy = load_policy(spec.detective_policy, "detectives")
        #: a user's policy runs with its prints sent to stderr (stdout is ours)
        self.quiet = {"mrx": is_plug_in(spec.mrx_policy, "mrx"),
                      "detectives": is_plug_in(spec.detective_policy, "detectives")}
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
    is kept up to date move by move (:func:`~sy_tools.engine.hops.mrx_targets`)."""
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
            if not pos.legal_moves:
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
        except (KeyboardInterrupt, Signalled):  # Ctrl-C, SIGTERM: stop the run
            raise
        except BaseException as e:  # a policy is user code: any failure (sys.exit too) forfeits the game
            return pos, moves, f"{side} policy {name!r} raised {safe_repr(e, error=True)}", side
        try:  # what it returned is user code too (its __index__, __eq__, properties ...)
            why = _illegal(pos, move, legal)
            plain = plain_move(move) if not why else None  # (numpy stations as ints, a subclass of Move as a plain one)
        except (KeyboardInterrupt, Signalled):
            raise
        except BaseException as e:
            return (pos, moves, f"{side} policy {name!r} returned a move that raised {safe_repr(e, error=True)} "
                    "when read", side)
        if why:
            return pos, moves, f"{side} policy {name!r} returned an illegal move {safe_repr(move)}: {why}", side
        assert isinstance(plain, Move)
        move = plain
        if side == "mrx":
            if move.is_pass:
                possible = pos.trapped_stations(possible)
            for leg, t, after, seen in mrx_move_seen(pos, possible, move):
                shown.append(t)
                if seen is not None:
                    reveals[leg] = seen
                possible = after
        pos = pos.push(move)
        moves.append(move)
        if side == "detectives" and move.to is not None:
            possible &= ~(1 << move.to)
    return pos, moves, None, ""


def _illegal(pos: Position, move: Any, legal: tuple[Move, ...]) -> str:
    """Why ``move`` is not a legal move of the piece to move ("" when it is).  Mr. X's move is
    checked by :meth:`Position.problems` (his double moves are not all listed); a detective's
    must be one of ``legal``, its legal moves."""
    plain = plain_move(move)
    if isinstance(plain, str):
        return plain
    move = plain
    if pos.turn == 0:
        if move.piece != MRX or None in move.stations:
            return "it is Mr. X's turn; his move names each station"
        return "; ".join(p[1] for p in pos.problems(move))
    if move in legal:
        return ""
    return "; ".join(p[1] for p in pos.problems(move)) or "not a legal move of the detective to move"



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
