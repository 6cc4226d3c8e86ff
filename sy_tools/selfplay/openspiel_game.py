"""Scotland Yard as an OpenSpiel game (``python_scotland_yard``): the rules are the engine's
:class:`~sy_tools.engine.position.Position`, this module only numbers its moves and says what
each player sees.

It lives in the self-play layer, not in :mod:`sy_tools.env`, because the ``openspiel-ismcts`` and
``openspiel-mcts`` policies of ``simulate`` play it and self-play may not import the layers
above it; :mod:`sy_tools.env.openspiel` is the public face (it registers this game and exports
games as records).  ``pyspiel`` is imported here at the top: import this module only where
OpenSpiel is wanted (the policies import it at their first decision).

Players: 0 is Mr. X; the detectives are player 1 as one team (``team=True``, the default: a
two-player zero-sum game) or players 1..D, one each in turn order (Mr. X's return is +1 or -1,
each detective's minus his divided by D: still zero-sum).

Chance: the detectives draw their start cards first, each from the rules' detective deck less
the cards drawn, then Mr. X from his deck less the detectives' stations, so his start is
uniform over the start candidates the tracker uses.  Chance outcomes are station indices.

Actions (``S`` stations, indexed in ascending order; ``D`` detectives):

* ``k * S + index(station)`` for ``k`` = taxi 0, bus 1, underground 2, black 3: one hop (a
  detective's move, Mr. X's single move, or one leg of his double move);
* ``4 * S``: Mr. X declares a double move (then he chooses its two legs, one action each);
* ``4 * S + 1``: Mr. X passes (trapped, where the rules let him);
* under ``voluntary_reveal`` only, every move of Mr. X ends with ``4 * S + 2`` (no reveal) or
  ``4 * S + 3 + (hop * D + detective) * 3 + ticket`` (shows himself after ``hop`` and takes that
  detective's taxi 0, bus 1 or underground 2 ticket).

Legal actions are read off the engine's list of legal moves, so a double move's first leg is
offered only when some legal second leg follows it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
import pyspiel

from ..engine.board import Board
from ..engine.hops import MRX, mrx_sources, mrx_targets
from ..engine.moves import Move
from ..engine.observations import mrx_move_seen
from ..engine.position import Position
from ..engine.rules import Rules, preset, rules_from_json
from ..engine.stations import Station, StationMask, mask_of, stations_of
from ..engine.tickets import DETECTIVE_TICKETS, MRX_MOVE_TICKETS, MRX_TICKET_KINDS, Ticket
from ..errors import InputError
from .game import DETECTIVE_NAMES, game_record

GAME_NAME = "python_scotland_yard"

#: The game's parameters and their defaults (``pyspiel.load_game(GAME_NAME, {...})``): ``rules``
#: a preset name with any overrides (:func:`parse_rules`); ``map`` what ``--map`` takes;
#: ``detectives`` 1 to 5; ``team`` the detectives as one player (True) or one player each.
PARAMETERS: dict[str, Any] = {"rules": "classic", "map": "london", "detectives": 5, "team": True}

_TICKET_CODE = {t: k for k, t in enumerate(MRX_MOVE_TICKETS)}
_DET_CODE = {t: k for k, t in enumerate(DETECTIVE_TICKETS)}

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Scotland Yard (sy-tools rules engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=1 + len(DETECTIVE_NAMES),
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


@dataclass(frozen=True, eq=False)
class Spec:
    """One parameter set made ready: board, rules, detective names, the action numbering."""

    board: Board
    rules: Rules
    names: tuple[str, ...]
    team: bool
    params: tuple[tuple[str, Any], ...]
    #: Mr. X's start deck and the detectives'
    decks: tuple[list[Station], list[Station]]

    def __deepcopy__(self, memo: dict[int, Any]) -> Spec:
        return self  # (immutable: a cloned state shares it)

    @cached_property
    def stations(self) -> tuple[Station, ...]:
        return tuple(sorted(self.board.stations))

    @cached_property
    def n(self) -> int:
        return len(self.board.stations)

    @property
    def num_players(self) -> int:
        return 2 if self.team else 1 + len(self.names)

    @cached_property
    def double(self) -> int:
        return 4 * self.n

    @cached_property
    def pass_action(self) -> int:
        return 4 * self.n + 1

    @cached_property
    def no_reveal(self) -> int:
        return 4 * self.n + 2

    @property
    def num_actions(self) -> int:
        return 4 * self.n + 3 + 6 * len(self.names)

    @property
    def max_rounds(self) -> int:
        """Rounds a game can last: the log, plus a round per pass where the rules let him pass
        (each such round spends some detective's ticket, or the game ends)."""
        extra = 0 if self.rules.trapped_loses else len(self.names) * sum(self.rules.detective_tickets.values())
        return self.rules.log_length + extra

    def player(self, turn: int) -> int:
        """The OpenSpiel player of the engine's ``turn`` (0 Mr. X, ``i + 1`` detective ``i``)."""
        return 0 if turn == 0 else (1 if self.team else turn)

    def leg(self, ticket: Ticket, station: Station) -> int:
        return _TICKET_CODE[ticket] * self.n + self.index[station]

    @cached_property
    def index(self) -> dict[Station, int]:
        return {s: i for i, s in enumerate(self.stations)}

    def tokens(self, move: Move) -> tuple[int, ...]:
        """A move as the actions that make it (module docstring)."""
        if move.piece != MRX:
            return (self.leg(move.tickets[0], move.stations[0]),)  # type: ignore[arg-type]
        if move.is_pass:
            return (self.pass_action,)
        legs = tuple(self.leg(t, s) for t, s in zip(move.tickets, move.stations))  # type: ignore[arg-type]
        out = (self.double, *legs) if move.is_double else legs
        if self.rules.voluntary_reveal:
            if move.took is None or move.shown is None:
                out += (self.no_reveal,)
            else:
                d = self.names.index(move.took[0])
                out += (self.no_reveal + 1 + (move.shown * len(self.names) + d) * 3 + _DET_CODE[move.took[1]],)
        return out

    def action_text(self, action: int) -> str:
        n = self.n
        if action < 4 * n:
            return f"{MRX_MOVE_TICKETS[action // n].value} {self.stations[action % n]}"
        if action == self.double:
            return "double"
        if action == self.pass_action:
            return "pass"
        if action == self.no_reveal:
            return "no reveal"
        k = action - self.no_reveal - 1
        hop, rest = divmod(k, 3 * len(self.names))
        d, t = divmod(rest, 3)
        return f"reveal after hop {hop}, take {self.names[d]}'s {DETECTIVE_TICKETS[t].value}"


#: Boards a game may name by key instead of a map spec (:func:`board_key`: the policies play on
#: the board their observation holds, which may come from no file)
BOARDS: dict[str, Board] = {}


def board_key(board: Board) -> str:
    """A ``map`` parameter that names ``board`` in this process (kept in :data:`BOARDS`)."""
    key = f"board:{board.name}:{id(board)}"
    BOARDS.setdefault(key, board)
    return key


@lru_cache(maxsize=16)
def make_spec(rules: str = "classic", map: str = "london", detectives: int = 5, team: bool = True) -> Spec:
    """The :class:`Spec` of a parameter set (:data:`PARAMETERS`); :class:`InputError` for bad values."""
    from ..formats.map_load import load_board

    if not isinstance(detectives, int) or not 1 <= detectives <= len(DETECTIVE_NAMES):
        raise InputError(f"expected 1 to {len(DETECTIVE_NAMES)}, got {detectives!r}", where="detectives")
    r = parse_rules(rules)
    board = BOARDS[map] if map in BOARDS else load_board(map)
    params = (("detectives", detectives), ("map", map), ("rules", rules), ("team", bool(team)))
    return Spec(board, r, DETECTIVE_NAMES[:detectives], bool(team), params, start_decks(board, r))


def parse_rules(text: str) -> Rules:
    """The ``rules`` parameter: a preset name, then any overrides as ``:field value`` (a value is
    JSON, numbers separated by spaces for a list (one number: a list of one), or ``kind number``
    pairs for a tickets field), e.g. ``classic:trapped_loses false:reveal_moves 3 8 13`` or
    ``2014:`` (a trailing colon keeps OpenSpiel's game string from reading the name as a number)."""
    name, *overrides = str(text).strip().split(":")
    doc: dict[str, Any] = {"preset": name.strip()}
    for item in overrides:
        if not item.strip():
            continue
        key, _, value = item.strip().partition(" ")
        if not value.strip():
            raise InputError(f"rules override {item!r}: expected 'field value'", where="rules")
        v = _override_value(value.strip())
        if isinstance(v, int) and not isinstance(v, bool) and isinstance(_preset_field(doc["preset"], key), (list, tuple)):
            v = [v]  # (a list of one number, written as the number)
        doc[key.strip()] = v
    return rules_from_json(doc if len(doc) > 1 else doc["preset"], where="rules")


def _preset_field(name: str, key: str) -> Any:
    """The preset ``name``'s value of field ``key`` (None where either is unknown: the rules
    reader then names what is wrong)."""
    try:
        return getattr(preset(name), key.strip(), None)
    except InputError:
        return None


def _override_value(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        pass
    parts = value.split()
    if parts and all(p.lstrip("-").isdigit() for p in parts):
        return [int(p) for p in parts]
    if len(parts) % 2 == 0 and all(p.isdigit() for p in parts[1::2]):
        return {k: int(v) for k, v in zip(parts[::2], parts[1::2])}
    return value


def rules_parameter(rules: Rules) -> str:
    """The ``rules`` parameter that gives ``rules`` (:func:`parse_rules`' form)."""
    name, over = rules.overrides()

    def text(v: Any) -> str:
        if isinstance(v, (list, tuple)):  # (numbers separated by spaces; JSON for fewer than two: no comma,
            return " ".join(map(str, v)) if len(v) > 1 else json.dumps(list(v))  # which a game string splits at)
        if isinstance(v, dict):
            return " ".join(f"{k} {n}" for k, n in v.items())
        return json.dumps(v)

    return name + ":" + ":".join(f"{k} {text(v)}" for k, v in over.items())


def start_decks(board: Board, rules: Rules) -> tuple[list[Station], list[Station]]:
    """Mr. X's deck and the detectives' (a map without decks deals from every station)."""
    decks = board.start_decks

    def deck(name: str) -> list[Station]:
        if decks and name not in decks:
            raise InputError(f"the rules' deck {name!r} is not a start deck of the map {board.name!r}",
                             where="rules")
        return sorted(decks.get(name) or board.stations)

    return deck(rules.mrx_deck), deck(rules.detective_deck)


class ScotlandYardGame(pyspiel.Game):
    """The game object ``pyspiel.load_game(GAME_NAME, params)`` returns."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = dict(PARAMETERS, **(params or {}))
        if str(p["rules"]).strip().isdigit():  # (a bare number would come back from the game string as an int)
            p["rules"] = f"{p['rules']}:"
        self.spec = make_spec(str(p["rules"]), str(p["map"]), int(p["detectives"]), bool(p["team"]))
        sp = self.spec
        info = pyspiel.GameInfo(num_distinct_actions=sp.num_actions, max_chance_outcomes=sp.n,
                                num_players=sp.num_players, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=sp.max_rounds * (4 + len(sp.names)))
        super().__init__(GAME_TYPE, info, p)

    def new_initial_state(self) -> ScotlandYardState:
        return ScotlandYardState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self.spec, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class ScotlandYardState(pyspiel.State):
    """A point in a game: the engine's :class:`Position` once the cards are dealt, Mr. X's
    partly chosen move, and the public record so far (the detectives' possible-set filter,
    step by step, for :meth:`resample_from_infostate`)."""

    def __init__(self, game: ScotlandYardGame) -> None:
        super().__init__(game)
        self.spec = game.spec
        # (OpenSpiel clones a state by deep-copying its attributes: these are all immutable, and
        # :class:`Frozen` and :class:`Shared` ones are shared by the copies, not copied)
        self.dealt: Frozen = Frozen()  # the detectives' starts, then Mr. X's
        self._pos = Shared(None)
        self.prefix: tuple[int, ...] = ()
        self.moves: Frozen = Frozen()
        self.candidates: Frozen = Frozen()
        #: the public filter: the set before his first move, each leg's (ticket, detectives'
        #: stations), and the set after each leg (pruned by what happened after it)
        self.start: StationMask = 0
        self.steps: Frozen = Frozen()
        self.sets: Frozen = Frozen()
        #: events as the detectives saw them and as Mr. X did
        self.public: Frozen = Frozen()
        self.private: Frozen = Frozen()
        self._options = Shared(None)
        self._routes = Shared(None)
        #: a state made by :meth:`at`: (the position it starts from, his possible set then, its weights)
        self._origin = Shared(None)

    @classmethod
    def at(cls, game: ScotlandYardGame, position: Position, possible: StationMask,
           weights: Mapping[Station, float] | None = None) -> ScotlandYardState:
        """A state that starts at ``position`` (a game's middle, as a policy is shown it) where
        the detectives consider ``possible`` for Mr. X, each station by ``weights`` (None: alike).
        Its record starts there: :meth:`resample_from_infostate` draws his station then from
        ``possible`` by those weights, and his route since by the path weights.  ``position``
        may leave Mr. X's station unknown (a detectives' view): one of ``possible`` is taken."""
        if position.ended is not None:
            raise ValueError("the game is over at that position")
        if position.mrx_at is None:
            position = position.with_mrx_at((possible & -possible).bit_length() - 1)  # (the lowest)
        st = game.new_initial_state()
        st._origin = Shared((position, possible, dict(weights) if weights else None))
        st.dealt = Frozen((*position.stations, position.mrx_at))
        st.start = possible
        st._pos = Shared(position)
        dets = " ".join(f"{n}@{s}{t.to_dict(['taxi', 'bus', 'underground'])}"
                        for n, s, t in zip(position.names, position.stations, position.tickets))
        head = (f"from {position.when}, doubles {position.doubles}, out {sorted(position.out)}: {dets}; "
                f"Mr. X {position.mrx_tickets.to_dict()} at one of {stations_of(possible)}")
        st._event(head, f"{head}: at {position.mrx_at}")
        st._trap_check()
        return st

    @property
    def pos(self) -> Position | None:
        """The engine's position (None while the cards are dealt)."""
        return self._pos.v  # type: ignore[no-any-return]

    # ---- OpenSpiel's API ----------------------------------------------------------------------

    def current_player(self) -> int:
        if self.pos is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.pos.ended is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.spec.player(self.pos.turn)

    def is_terminal(self) -> bool:
        return self.pos is not None and self.pos.ended is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        mrx_deck, det_deck = self.spec.decks
        d = len(self.spec.names)
        taken = set(self.dealt)
        pool = [s for s in (det_deck if len(self.dealt) < d else mrx_deck) if s not in taken]
        if not pool:
            raise InputError(f"the start decks leave no card for {len(self.dealt) + 1} players", where="rules")
        p = 1.0 / len(pool)
        index = self.spec.index
        return [(index[s], p) for s in pool]

    def _legal_actions(self, player: int) -> list[int]:
        if self.pos is None or self.pos.ended is not None:
            return []
        pos = self.pos
        if pos.turn != 0:
            return sorted({self.spec.tokens(m)[0] for m in pos.legal_moves})
        if not self.prefix and not self.spec.rules.voluntary_reveal:  # (no need to list his double moves)
            singles = pos.legal_moves.singles
            out = sorted({self.spec.tokens(m)[0] for m in singles()})
            if len(pos.legal_moves) > len(singles()):  # double moves (which need a single first leg) or the pass
                out.append(self.spec.double if out else self.spec.pass_action)
            return out
        k = len(self.prefix)
        return sorted({tk[k] for tk, _ in self.options() if tk[:k] == self.prefix})

    def options(self) -> list[tuple[tuple[int, ...], Move]]:
        """Mr. X's legal moves now, each with the actions that make it."""
        if self._options.v is None:
            assert self.pos is not None
            self._options = Shared([(self.spec.tokens(m), m) for m in self.pos.legal_moves])
        return self._options.v  # type: ignore[no-any-return]

    def _apply_action(self, action: int) -> None:
        if self.pos is None:
            self._deal(self.spec.stations[action])
            return
        if self.pos.turn != 0:
            name = self.pos.names[self.pos.turn - 1]
            n = self.spec.n
            self._push(Move(name, (MRX_MOVE_TICKETS[action // n],), (self.spec.stations[action % n],)))
            return
        self.prefix += (action,)
        move = self._complete()
        if move is not None:
            self.prefix = ()
            self._push(move)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            who = self.spec.names[len(self.dealt)] if len(self.dealt) < len(self.spec.names) else "Mr. X"
            return f"deal {who} {self.spec.stations[action]}"
        return self.spec.action_text(action)

    def returns(self) -> list[float]:
        p = self.spec.num_players
        if not self.is_terminal():
            return [0.0] * p
        assert self.pos is not None and self.pos.ended is not None
        x = 1.0 if self.pos.ended.winner == "mrx" else -1.0
        return [x] + [-x / (p - 1)] * (p - 1)

    def __str__(self) -> str:
        if self.pos is None:
            return f"dealing: {self.dealt}"
        return repr(self.pos) + (f"; Mr. X chose {[self.spec.action_text(a) for a in self.prefix]}" if self.prefix else "")

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> ScotlandYardState:
        """A state the player would find the same as this one: for a detective, Mr. X's route
        drawn from the routes that fit the public record, each equally likely (the ``paths``
        weights of the possible-set tracker); Mr. X knows everything, so his is a copy.
        ``probability_sampler()`` gives the uniform numbers (OpenSpiel's samplers; a
        ``random.Random`` or None works too)."""
        if player_id == 0 or self.pos is None or self.is_terminal():
            return self.clone()  # type: ignore[no-any-return]
        route = sample_route(self, _uniform(probability_sampler))
        return self.replay(route)

    # ---- the game's own -----------------------------------------------------------------------

    def replay(self, route: Sequence[Station]) -> ScotlandYardState:
        """This game's public record with Mr. X on ``route`` (start, then one station per
        leg), as a new state (Mr. X's half-chosen move, private to him, is dropped)."""
        origin = self._origin.v
        if origin is not None:
            st = self.at(self.get_game(), origin[0].with_mrx_at(route[0]), origin[1], origin[2])
        else:
            st = self.get_game().new_initial_state()
            index = self.spec.index
            for s in self.dealt[:len(self.spec.names)]:
                st.apply_action(index[s])
            st.apply_action(index[route[0]])
        leg = 1
        for m in self.moves:
            if m.piece == MRX and not m.is_pass:
                stations = tuple(route[leg:leg + len(m.tickets)])
                leg += len(m.tickets)
                m = Move(MRX, m.tickets, stations, m.shown, m.took)
            for a in self.spec.tokens(m):
                st.apply_action(a)
        return st

    def to_record(self) -> dict[str, Any]:
        """The game so far as a full record (game.json: Mr. X's every station, the capture
        marked), which ``sy-tools check`` referees."""
        if self.pos is None:
            raise ValueError("the start cards are not dealt yet")
        if self._origin.v is not None:
            raise ValueError("this state starts in a game's middle (ScotlandYardState.at): it has no whole record")
        d = len(self.spec.names)
        doc = game_record(self.spec.board, self.spec.rules, self.spec.names, self.dealt[:d], self.dealt[d],
                          self.candidates, self.moves)
        doc["map"] = dict(self.spec.params)["map"]  # (what loads the board: a built-in name or a path)
        return doc

    @property
    def possible(self) -> StationMask:
        """The stations the detectives consider possible for Mr. X now."""
        return self.sets[-1] if self.sets else self.start

    def _deal(self, s: Station) -> None:
        self.dealt = Frozen((*self.dealt, s))
        d = len(self.spec.names)
        if len(self.dealt) <= d:
            name = self.spec.names[len(self.dealt) - 1]
            self._event(f"{name}@{s}")
            return
        dets = self.dealt[:d]
        self.candidates = Frozen(c for c in self.spec.decks[0] if c not in dets)
        pos = Position.start(self.spec.board, self.spec.rules, list(zip(self.spec.names, dets)), s)
        self._pos = Shared(pos.with_mrx_at(s))
        self.start = mask_of(self.candidates) & ~pos.occupied
        self._event("X@?", f"X@{s}")
        self._trap_check()

    def _trap_check(self) -> None:
        """Mr. X to move with no legal move at all ends the game (as ``simulate`` rules)."""
        pos = self.pos
        assert pos is not None
        if pos.ended is None and pos.turn == 0 and not pos.legal_moves:
            self._pos = Shared(pos.declare_trapped(pos.mrx_at))

    def _complete(self) -> Move | None:
        """Mr. X's move once ``prefix`` names a whole one (by the actions' grammar alone)."""
        p, sp = self.prefix, self.spec
        if p[0] == sp.pass_action:
            return Move(MRX, (), ())
        legs = p[1:] if p[0] == sp.double else p
        want = 2 if p[0] == sp.double else 1
        if len(legs) < want + (1 if sp.rules.voluntary_reveal else 0):
            return None
        n = sp.n
        hops = legs[:want]
        move = Move(MRX, tuple(MRX_MOVE_TICKETS[a // n] for a in hops), tuple(sp.stations[a % n] for a in hops))
        if sp.rules.voluntary_reveal and legs[want] != sp.no_reveal:
            hop, rest = divmod(legs[want] - sp.no_reveal - 1, 3 * len(sp.names))
            d, t = divmod(rest, 3)
            move = move.revealing(hop, sp.names[d], DETECTIVE_TICKETS[t])
        return move

    def _push(self, move: Move) -> None:
        pos = self.pos
        assert pos is not None
        if move.piece == MRX:
            possible = self.possible
            if move.is_pass:
                possible = pos.trapped_stations(possible)
                self._set_current(possible)
                self._event("X pass")
            else:
                seen_legs, true_legs = [], []
                for leg, t, after, seen in mrx_move_seen(pos, possible, move):
                    self.steps = Frozen((*self.steps, (t, pos.occupied)))
                    self.sets = Frozen((*self.sets, after))
                    seen_legs.append(f"{t.value} {'?' if seen is None else f'{seen}!'}")
                    true_legs.append(f"{t.value} {move.stations[leg - pos.move - 1]}")
                head = "X 2x " if move.is_double else "X "
                took = "" if move.took is None else f" takes {move.took[0]}'s {move.took[1].value}"
                self._event(head + ", ".join(seen_legs) + took, head + ", ".join(true_legs) + took)
        else:
            self._event(f"{move.piece} {move.tickets[0].value} {move.to}")
            if move.to is not None and move.to != pos.mrx_at:
                self._set_current(self.possible & ~(1 << move.to))
        self.moves = Frozen((*self.moves, move))
        self._pos = Shared(pos.push(move))
        self._options = Shared(None)
        self._routes = Shared(None)  # (the record changed: the route counts are made afresh when asked)
        self._trap_check()

    def _set_current(self, mask: StationMask) -> None:
        if self.sets:
            self.sets = Frozen((*self.sets[:-1], mask))
        else:
            self.start = mask

    def _event(self, public: str, private: str | None = None) -> None:
        self.public = Frozen((*self.public, public))
        self.private = Frozen((*self.private, public if private is None else private))


class Frozen(tuple):  # type: ignore[type-arg]
    """A tuple that a deep copy shares (its items are never changed)."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> Frozen:
        return self


class Shared:
    """A value that a deep copy shares (it is never changed in place: a new one replaces it)."""

    __slots__ = ("v",)

    def __init__(self, v: Any) -> None:
        self.v = v

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self


def _uniform(sampler: Any) -> Any:
    """A function of no argument giving uniform numbers in [0, 1)."""
    if sampler is None:
        return random.random
    if isinstance(sampler, random.Random):
        return sampler.random
    return sampler


def route_weights(state: ScotlandYardState) -> tuple[list[StationMask], list[dict[Station, Any]]]:
    """The possible-set filter smoothed over the whole public record (``live[0]`` the start,
    ``live[i]`` after leg ``i``) and the number of consistent route prefixes ending at each
    station after each leg (``counts[i]``; exact integers): the tracker's ``paths`` weights."""
    origin = state._origin.v
    first = origin[2] if origin is not None and origin[2] else None
    return path_counts(state.spec.board, state.spec.rules, state.start, state.steps, state.sets, first)


def path_counts(board: Board, rules: Rules, start: StationMask, steps: Sequence[tuple[Ticket, StationMask]],
                sets: Sequence[StationMask], first: Mapping[Station, Any] | None = None
                ) -> tuple[list[StationMask], list[dict[Station, Any]]]:
    """:func:`route_weights` of a public record given by its parts: the set before Mr. X's first
    leg, each leg's ticket and the detectives' stations then, the set after each leg (pruned by
    what followed), and the start stations' weights (None: one each)."""
    live = [start, *sets]
    for i in range(len(steps) - 1, -1, -1):  # backwards: only stations on a whole route
        t, occ = steps[i]
        live[i] &= mrx_sources(board, live[i + 1], t, occ, rules)
    weight = first or {}
    counts: list[dict[Station, Any]] = [{s: weight.get(s, 1) for s in stations_of(live[0])}]
    for i, (t, occ) in enumerate(steps, 1):
        nxt: dict[Station, Any] = {}
        for s, c in counts[-1].items():
            for d in stations_of(mrx_targets(board, 1 << s, t, occ, rules) & live[i]):
                nxt[d] = nxt.get(d, 0) + c
        counts.append(nxt)
    return live, counts


def sample_route(state: ScotlandYardState, uniform: Any) -> list[Station]:
    """Mr. X's route (his start, then his station after each leg) drawn uniformly from the
    routes that fit ``state``'s public record: the last station by its route count, then each
    earlier one among the stations that lead to the next by that leg's ticket, by their counts.
    The counts are kept on the state (one table serves every draw from it)."""
    cached = state._routes.v
    if cached is None:
        cached = route_weights(state)
        state._routes = Shared(cached)
    _, counts = cached
    sp = state.spec
    last = _pick(counts[-1], uniform)
    route = [last]
    for i in range(len(state.steps) - 1, -1, -1):
        t, occ = state.steps[i]
        sources = mrx_sources(sp.board, 1 << route[-1], t, occ, sp.rules)
        cands = {s: c for s, c in counts[i].items() if sources >> s & 1
                 and mrx_targets(sp.board, 1 << s, t, occ, sp.rules) >> route[-1] & 1}
        route.append(_pick(cands, uniform))
    route.reverse()
    return route


def _pick(weights: dict[Station, Any], uniform: Any) -> Station:
    items = sorted(weights.items())
    total = sum(c for _, c in items)
    if not total:
        raise ValueError("no route of Mr. X fits the public record")
    x = uniform() * total
    if isinstance(total, int):
        x = int(x)
    for s, c in items:
        x -= c
        if x < 0:
            return s
    return items[-1][0]


class Observer:
    """OpenSpiel's observer: tensors and strings of what ``player`` sees.  With perfect recall
    (the information state) the whole public record (and, for Mr. X, his own route) is in
    them; without, the table as it stands (which holds the travel log: it lies open).

    The observation type's parts are kept apart as OpenSpiel means them: ``public_info`` the
    table (or record) all players see; ``private_info`` Mr. X's station, route and half-chosen
    move (``SINGLE_PLAYER``: only to Mr. X; ``ALL_PLAYERS``: to everyone; ``NONE``: to no one),
    with the ``player`` piece (and the ``pN |`` head of strings) only for ``SINGLE_PLAYER``, as
    only then does the view depend on who looks.  So ``PublicObservationString`` is the same
    for every player and ``PrivateObservationString`` holds only what is private."""

    def __init__(self, spec: Spec, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.spec = spec
        self.recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info
        self.public = bool(iig_obs_type.public_info)
        n, d, L = spec.n, len(spec.names), spec.rules.log_length
        single = self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        private = self.private != pyspiel.PrivateInfoType.NONE
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (spec.num_players,))] if single else []
        if self.public:
            pieces += [("to_move", (spec.num_players,)), ("clock", (2,)), ("detectives", (d, n)),
                       ("detective_tickets", (d, 3)), ("mrx_tickets", (len(MRX_TICKET_KINDS),)),
                       ("log_tickets", (L, 5)), ("log_reveals", (L, n)), ("log_took", (L, d, 3))]
        if private:
            pieces += [("mrx_station", (n,)), ("pending", (1 + 8 * n,))]
        if self.recall and self.public:
            pieces += [("detective_history", (1 + spec.max_rounds, d, n)),
                       ("detective_history_tickets", (1 + spec.max_rounds, d, 3)),
                       ("origin", (n + 1 + d,))]
        if self.recall and private:
            pieces += [("mrx_route", (1 + L, n))]
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, shape in pieces:
            k = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + k].reshape(shape)
            at += k

    def _sees_mrx(self, player: int) -> bool:
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return True
        return self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER and player == 0

    def set_from(self, state: ScotlandYardState, player: int) -> None:
        self.tensor.fill(0)
        t, sp = self.dict, self.spec
        if "player" in t:
            t["player"][player] = 1
        pos = state.pos
        index = sp.index
        if pos is None:  # (the cards so far: the detectives' are dealt face up)
            if self.recall and self.public:
                for i, s in enumerate(state.dealt[:len(sp.names)]):
                    t["detective_history"][0, i, index[s]] = 1
            return
        mine = self._sees_mrx(player)
        if self.public:
            if pos.ended is None:
                t["to_move"][sp.player(pos.turn)] = 1
            t["clock"][:] = (pos.round / sp.max_rounds, pos.move / sp.rules.log_length)
            for i, (s, tk) in enumerate(zip(pos.stations, pos.tickets)):
                t["detectives"][i, index[s]] = 1
                t["detective_tickets"][i] = [tk[k] for k in DETECTIVE_TICKETS]
            t["mrx_tickets"][:] = [pos.mrx_tickets[k] for k in MRX_TICKET_KINDS]
            origin = state._origin.v
            leg = origin[0].move if origin is not None else 0  # (the log's slot of each leg: its move less one)
            for m in state.moves:
                if m.piece != MRX:
                    continue
                for h, (tk, s) in enumerate(zip(m.tickets, m.stations)):
                    if leg >= sp.rules.log_length:
                        break
                    t["log_tickets"][leg, _TICKET_CODE[tk]] = 1
                    t["log_tickets"][leg, 4] = 1 if m.is_double else 0
                    if sp.rules.is_reveal(leg + 1) or m.shown == h:
                        t["log_reveals"][leg, index[s]] = 1  # type: ignore[index]
                        if m.took is not None:
                            t["log_took"][leg, sp.names.index(m.took[0]), _DET_CODE[m.took[1]]] = 1
                    leg += 1
            if self.recall:
                for r, (stations, tickets) in enumerate(_round_stations(state)):
                    if r <= sp.max_rounds:
                        for i, (s, used) in enumerate(zip(stations, tickets)):
                            t["detective_history"][r, i, index[s]] = 1
                            if used is not None:
                                t["detective_history_tickets"][r, i, _DET_CODE[used]] = 1
                if origin is not None:  # (a state made in a game's middle: where it started)
                    start, possible = origin[0], origin[1]
                    for s in stations_of(possible):
                        t["origin"][index[s]] = 1
                    t["origin"][sp.n] = start.doubles
                    for i, name in enumerate(sp.names):
                        t["origin"][sp.n + 1 + i] = 1 if name in start.out else 0
        if mine and pos.mrx_at is not None:
            t["mrx_station"][index[pos.mrx_at]] = 1
            if state.prefix:
                t["pending"][0] = 1 if state.prefix[0] == sp.double else 0
                legs = state.prefix[1:] if state.prefix[0] == sp.double else state.prefix
                for k, a in enumerate(legs[:2]):
                    if a < 4 * sp.n:
                        t["pending"][1 + k * 4 * sp.n + a] = 1
            if self.recall:
                for i, s in enumerate(_mrx_route(state)[:1 + sp.rules.log_length]):
                    t["mrx_route"][i, index[s]] = 1

    def string_from(self, state: ScotlandYardState, player: int) -> str:
        mine = self._sees_mrx(player)
        head = f"p{player} | " if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER else ""
        chose = f"chose {','.join(map(str, state.prefix))}" if mine and state.prefix else ""
        if not self.public:  # what is private alone: Mr. X's stations and his half-chosen move
            if not mine or state.pos is None:
                return head
            where = (f"route {','.join(map(str, _mrx_route(state)))}" if self.recall
                     else f"Mr. X at {state.pos.mrx_at}")
            return head + where + (f"; {chose}" if chose else "")
        if self.recall:
            events = state.private if mine else state.public
            return head + "; ".join(events) + (f" | {chose}" if chose else "")
        pos = state.pos
        if pos is None:
            return f"{head}dealt {len(state.dealt)}"
        dets = "; ".join(f"{n} {s} {t.to_dict(['taxi', 'bus', 'underground'])}"
                         for n, s, t in zip(pos.names, pos.stations, pos.tickets))
        log = []
        for e in state.public:
            if e.startswith("X ") and e != "X pass":
                log.append(e[2:])
        text = (f"{head}{pos.when}; to move {pos.to_move}; {dets}; Mr. X {pos.mrx_tickets.to_dict()}; "
                f"log {' / '.join(log)}")
        if mine:
            text += f"; Mr. X at {pos.mrx_at}" + (f"; {chose}" if chose else "")
        return text


def _mrx_route(state: ScotlandYardState) -> list[Station]:
    """Mr. X's stations so far: where he started (or stood when the state was made), then one
    a leg."""
    route = [state.dealt[len(state.spec.names)]] if len(state.dealt) > len(state.spec.names) else []
    for m in state.moves:
        if m.piece == MRX:
            route += m.stations
    return route


def _round_stations(state: ScotlandYardState) -> list[tuple[tuple[Station, ...], tuple[Ticket | None, ...]]]:
    """The detectives' stations as dealt (or as the state was made: row 0), then for each round
    so far (rows 1, 2, ...) their stations at its end (the last: now) and the ticket each used in
    it (None: did not move)."""
    d = len(state.spec.names)
    stations = list(state.dealt[:d])
    tickets: list[Ticket | None] = [None] * d
    out: list[tuple[tuple[Station, ...], tuple[Ticket | None, ...]]] = [(tuple(stations), tuple(tickets))]
    names = state.spec.names
    started = False
    for m in state.moves:
        if m.piece == MRX:
            if started:
                out.append((tuple(stations), tuple(tickets)))
                tickets = [None] * d
            started = True
        else:
            i = names.index(m.piece)
            stations[i] = m.to  # type: ignore[call-overload]
            tickets[i] = m.tickets[0] if m.tickets else None
    if started:
        out.append((tuple(stations), tuple(tickets)))
    return out


pyspiel.register_game(GAME_TYPE, ScotlandYardGame)
