"""``ScotlandYardEnv``: Scotland Yard as a PettingZoo AEC environment, on the rules engine.

Agents are ``mrx`` and ``det_0`` .. ``det_{D-1}`` (the detectives Red, Blue, Green, Yellow,
Black in turn order, as ``simulate`` names them).  Turns are the engine's
(:class:`~sy_tools.engine.position.Position`): Mr. X, then each detective that can move; a
detective with no legal move is skipped, and once out for good (``rules.blocked_detective``)
never selected again (it stays in ``agents`` and shares the team's reward at the end).  A double move is one action of Mr. X.  Actions are
:mod:`sy_tools.env.actions`' numbering, observations :mod:`sy_tools.env.observe`'s; docs/env.md
describes both.

What is not an action at all (anything but an integer of the agent's space: a float, a bool,
a string, None, an array of shape (1,) or more) is refused with an :class:`InputError` and
changes nothing.  An illegal action (an action whose ``action_mask`` entry is 0) is never
applied: under ``illegal_action="end"`` (the default), as PettingZoo's
``TerminateIllegalWrapper`` does, the game ends at once with reward -1 for the agent that chose
it and 0 for every other (``infos[...]["outcome"]`` is ``"illegal-action"``); under
``illegal_action="random"`` a uniformly random legal action (from the game's stream
``env.rng``) is played instead and ``infos[agent]["replaced"]`` holds the refused one.

:func:`env` is the factory PettingZoo's environments have (the env wrapped in
``OrderEnforcingWrapper``), :func:`raw_env` the class itself.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, NoReturn

import numpy as np
from gymnasium import logger, spaces
from pettingzoo import AECEnv

from ..engine.board import Board
from ..engine.hops import MRX
from ..engine.moves import Move
from ..engine.observations import DetectiveObservation, MrXObservation, mrx_move_seen
from ..engine.position import Position
from ..engine.rules import Rules
from ..engine.stations import Station, mask_of
from ..engine.tickets import Ticket
from ..errors import InputError
from ..selfplay.budgets import SEED_MAX
from ..selfplay.game import DETECTIVE_NAMES, deal, game_record, game_rng
from .actions import ActionCodec, action_int
from .checks import (
    env_board,
    env_detectives,
    env_game,
    env_max_cycles,
    env_rules,
    env_seed,
    env_starts,
    refuse_keywords,
    show,
)
from .flat import Batch, FlatLayout
from .observe import ObservationLayout, PublicState

#: the agent name of Mr. X
MRX_AGENT = "mrx"

#: the outcome ``infos`` report for a game ended by an illegal action
ILLEGAL = "illegal-action"

RENDER_MODES = ("human", "ansi", "rgb_array")
#: the frames a second a viewer shows the renderings at (``metadata["render_fps"]``: a turn-based
#: game has no natural rate; two turns a second are readable)
RENDER_FPS = 2

#: what an illegal action does: end the game (-1 for its agent) or play a random legal one
ILLEGAL_ACTIONS = ("end", "random")


def detective_agent(i: int) -> str:
    """The agent name of the ``i``-th detective in turn order."""
    return f"det_{i}"


#: the keywords of :class:`ScotlandYardEnv` (every env of the package built on it takes them)
AEC_KEYWORDS = ("rules", "map", "detectives", "render_mode", "probabilities", "starts", "max_cycles", "illegal_action",
                "observation")


class ScotlandYardEnv(AECEnv):  # type: ignore[misc]
    """Scotland Yard for ``detectives`` detectives on ``map`` (a map spec, as ``--map`` takes
    it, or a :class:`Board`) under ``rules`` (a preset name or :class:`Rules`).

    ``probabilities``: a weights name of :func:`~sy_tools.analysis.possible.possible`
    (``paths``, ``uniform``, ``moves``) to add Mr. X's probability per station to every
    observation (None: not computed).  ``starts``: the start decks, as ``GameSpec.starts``
    (None: the rules' decks).  ``max_cycles``: end every game after that many rounds (every
    agent truncated; None: play to the end).  ``illegal_action``: ``"end"`` or ``"random"``
    (the module's docstring)."""

    metadata = {"name": "scotland_yard_v0", "render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS,
                "is_parallelizable": False}

    def __init__(self, rules: Rules | str = "classic", map: str | Board = "london", detectives: int = 5,
                 render_mode: str | None = None, probabilities: str | None = None,
                 starts: str | tuple[Station, ...] | None = None, max_cycles: int | None = None,
                 illegal_action: str = "end", observation: str = "dict", **others: Any) -> None:
        from ..analysis.tracker import WEIGHTS

        refuse_keywords(others, (*AEC_KEYWORDS, "and opponent, level for the single-agent envs"))
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InputError(f"unknown render_mode {render_mode!r}: expected None, {', '.join(RENDER_MODES)}")
        if probabilities is not None and probabilities not in WEIGHTS:
            raise InputError(f"unknown probabilities {probabilities!r}: expected None or one of {', '.join(WEIGHTS)}")
        detectives = env_detectives(detectives, len(DETECTIVE_NAMES))
        max_cycles = env_max_cycles(max_cycles)
        if observation not in ("dict", "flat"):
            raise InputError(f"unknown observation {observation!r}: expected dict or flat")
        self.observation_kind = observation
        if illegal_action not in ILLEGAL_ACTIONS:
            raise InputError(f"unknown illegal_action {illegal_action!r}: expected {' or '.join(ILLEGAL_ACTIONS)}")
        self.max_cycles = max_cycles
        self.illegal_action = illegal_action
        self.rules: Rules = env_rules(rules)
        self.board: Board = env_board(map)
        self.map_spec = map if isinstance(map, str) else self.board.name
        self.render_mode = render_mode
        self.starts = env_starts(starts, self.board)
        self.names: tuple[str, ...] = DETECTIVE_NAMES[:detectives]
        self.codec = ActionCodec(self.board, self.rules, self.names)
        self.layout = ObservationLayout(self.codec, self.rules, probabilities)
        self.possible_agents = [MRX_AGENT] + [detective_agent(i) for i in range(detectives)]
        self.observation_spaces = {a: self.layout.mrx_space if a == MRX_AGENT else self.layout.detective_space
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.codec.size(self.piece(a))) for a in self.possible_agents}
        self.flat = FlatLayout(self.board, self.rules, detectives)
        #: the space of :meth:`state`: the flat observation of everything (Mr. X's station included)
        self.state_space = self.flat.space()
        if observation == "flat":
            self.observation_spaces = {a: self.flat.space() for a in self.possible_agents}
        deal(self.board, self.rules, detectives, starts, random.Random(0))  # a deck the map lacks fails here
        self._template = Position.start(self.board, self.rules, list(zip(self.names, range(detectives))))
        self._seed: int | None = None
        self._game = -1
        self._truncated = False
        self.agents: list[str] = []
        self.rng = random.Random(0)

    # ---- names ------------------------------------------------------------------------------------

    def piece(self, agent: str) -> str:
        """The engine's piece for ``agent``: ``MRX`` or the detective's name."""
        if agent == MRX_AGENT:
            return MRX
        try:
            return self.names[self.possible_agents.index(agent) - 1]
        except ValueError:
            self._unknown(agent)

    def _unknown(self, agent: object) -> NoReturn:
        raise InputError(f"unknown agent {show(agent)}: expected {', '.join(self.possible_agents)}")

    def agent_of(self, piece: str) -> str:
        """The agent that moves ``piece``."""
        return MRX_AGENT if piece == MRX else detective_agent(self.names.index(piece))

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        if agent not in self.observation_spaces:
            self._unknown(agent)
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        if agent not in self.action_spaces:
            self._unknown(agent)
        return self.action_spaces[agent]

    # ---- the game ---------------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The engine's position now (Mr. X's station included: not for the detectives)."""
        return self._pos

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves made so far."""
        return tuple(self._moves)

    @property
    def start(self) -> tuple[Station, tuple[Station, ...], tuple[Station, ...]]:
        """Mr. X's start, the detectives' starts and Mr. X's start candidates, of this game."""
        return self._start

    @property
    def game(self) -> tuple[int, int]:
        """``(seed, game)``: this game is game ``game`` of ``sy-tools simulate --seed seed``."""
        return (self._seed if self._seed is not None else 0), self._game

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Start a game.  ``reset(seed=s)`` deals game 0 of ``sy-tools simulate --seed s`` (the
        same start cards, drawn from the same stream); each later ``reset()`` without a seed
        deals the next game of that run (a first ``reset()`` without one picks a seed).

        ``options`` (others are ignored): ``game`` (deal that game of the run instead),
        ``mrx_start`` and ``detective_starts`` (set the start stations: both or neither), and with
        them ``start_candidates`` (Mr. X's start candidates, the detectives' first possible set,
        less the detectives' stations as the deal's are; default: the rules' Mr. X deck less the
        detectives' stations)."""
        if options is not None and not isinstance(options, Mapping):
            raise InputError(f"reset options must be a dict, got {type(options).__name__}")
        opts = dict(options or {})
        if seed is not None:
            new_seed, new_game = env_seed(seed), 0
        elif self._seed is None:
            new_seed, new_game = random.SystemRandom().randrange(SEED_MAX), 0
        else:
            new_seed, new_game = self._seed, self._game + 1
        if "game" in opts:
            new_game = env_game(opts["game"])
        rng = game_rng(new_seed, new_game)
        mrx, dets, candidates = deal(self.board, self.rules, len(self.names), self.starts, rng)
        if "mrx_start" in opts or "detective_starts" in opts or "start_candidates" in opts:
            mrx, dets, candidates = self._chosen_starts(opts)
        # every option checked: only now does the environment change
        self._seed, self._game, self.rng = new_seed, new_game, rng
        self._truncated = False
        self._start = (mrx, tuple(dets), tuple(candidates))
        self._pos = replace(self._template, stations=tuple(dets), mrx_at=mrx)
        self._possible = mask_of(candidates) & ~self._pos.occupied
        self._shown: list[Ticket] = []
        self._reveals: dict[int, Station] = {}
        self._moves: list[Move] = []
        self._illegal: str | None = None
        self._cache: dict[Any, Any] = {}
        #: the notes a policy keeps for one game, per side (``simulate``'s ``memo``)
        self.memos: dict[str, dict[str, Any]] = {"mrx": {}, "detectives": {}}
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = MRX_AGENT
        self._advance()

    def _station(self, value: Any, what: str) -> Station:
        """A start station from reset options: an integer (numpy's too) on the map."""
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise InputError(f"reset options: {what} must be a station number, got {value!r}")
        if int(value) not in self.board:
            raise InputError(f"reset options: {what} {value!r} is not a station of the map {self.board.name!r}")
        return int(value)

    def _stations(self, value: Any, what: str) -> list[Station]:
        if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
            raise InputError(f"reset options: {what} must be a list of stations, got {value!r}")
        return [self._station(v, f"{what} entry") for v in value]

    def _chosen_starts(self, opts: Mapping[str, Any]) -> tuple[Station, list[Station], list[Station]]:
        if "mrx_start" not in opts or "detective_starts" not in opts:
            alone = "start_candidates is taken only with mrx_start and detective_starts (what the detectives " \
                "know of his start, given those); " if "start_candidates" in opts else ""
            raise InputError(f"reset options: {alone}give both mrx_start and detective_starts, or neither")
        mrx = self._station(opts["mrx_start"], "mrx_start")
        dets = self._stations(opts["detective_starts"], "detective_starts")
        if len(dets) != len(self.names):
            raise InputError(f"reset options: expected {len(self.names)} detective_starts, got {len(dets)}")
        if len(set(dets)) != len(dets) or mrx in dets:
            raise InputError("reset options: the start stations must all differ")
        if "start_candidates" in opts:
            candidates = sorted(set(self._stations(opts["start_candidates"], "start_candidates")) - set(dets))
        else:
            deck = self.board.start_decks.get(self.rules.mrx_deck) or self.board.stations
            candidates = sorted(set(deck) - set(dets))
        if mrx not in candidates:
            raise InputError(f"reset options: mrx_start {mrx} is not one of Mr. X's start candidates")
        return mrx, dets, candidates

    def step(self, action: Any) -> None:
        """The agent to act (``agent_selection``) plays ``action``; a finished agent steps with
        None (PettingZoo's convention)."""
        if not self.agents:
            raise InputError("step() before reset(): call reset() first" if not hasattr(self, "_pos") else
                             "the game is over and every agent has stepped out: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise InputError(f"{agent} is done (the game is over): the only valid action is None, as "
                                 f"PettingZoo's loop steps it, or reset(); got {show(action)}")
            self._was_dead_step(action)
            return
        piece = self.piece(agent)
        a = action_int(action, self.codec.size(piece), f"{agent}'s action")  # refused: nothing changes
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        move = self.codec.decode(piece, a) if self._mask(piece)[a] else None
        replaced = None
        if move is None and self.illegal_action == "random":
            legal = np.flatnonzero(self._mask(piece))
            replaced, move = a, self.codec.decode(piece, int(legal[int(self.rng.random() * len(legal))]))
        if move is None:
            self._illegal = f"{agent} chose {action!r}, which is not a legal action"
            self._cache.clear()
            self._finish({a: 0.0 for a in self.agents} | {agent: -1.0})
        else:
            self._play(move)
            self._advance()
            if replaced is not None:
                self.infos[agent]["replaced"] = replaced
        self._accumulate_rewards()

    def _play(self, move: Move) -> None:
        """Push ``move``, keeping the detectives' view up to date as ``simulate`` does."""
        pos = self._pos
        if move.piece == MRX:
            if move.is_pass:
                self._possible = pos.trapped_stations(self._possible)
            for leg, t, after, seen in mrx_move_seen(pos, self._possible, move):
                self._shown.append(t)
                if seen is not None:
                    self._reveals[leg] = seen
                self._possible = after
        self._pos = pos.push(move)
        self._moves.append(move)
        if move.piece != MRX and move.to is not None:
            self._possible &= ~(1 << move.to)
        self._cache.clear()

    def _advance(self) -> None:
        """After a move: Mr. X with no legal move is trapped (as in ``simulate``); hand the
        turn on, or end the game."""
        pos = self._pos
        if pos.ended is None and pos.turn == 0 and not pos.legal_moves:
            self._pos = pos = pos.declare_trapped(pos.mrx_at)
            self._cache.clear()
        info = self._info()
        for a in self.agents:
            self.infos[a] = dict(info)
        if pos.ended is not None:
            mrx_won = pos.ended.winner == "mrx"
            self._finish({a: (1.0 if (a == MRX_AGENT) == mrx_won else -1.0) for a in self.agents})
        else:
            assert pos.to_move is not None
            self.agent_selection = self.agent_of(pos.to_move)
            if self.max_cycles is not None and pos.turn == 0 and pos.round >= self.max_cycles:
                self._truncated = True  # max_cycles rounds played: every agent truncated
                self.truncations = {a: True for a in self.agents}
                self._cache.clear()
                for a in self.agents:
                    self.infos[a]["truncated"] = True
            if self.observation_kind == "flat":
                self._flat_masks()

    def _finish(self, rewards: Mapping[str, float]) -> None:
        """End the game: every agent is done, with ``rewards``."""
        self.rewards = dict(rewards)
        self.terminations = {a: True for a in self.agents}
        info = self._info()
        for a in self.agents:
            self.infos[a] = dict(info)
        if self.observation_kind == "flat":
            self._flat_masks()

    def _flat_masks(self) -> None:
        """Under ``observation="flat"``: each agent's mask in its ``infos`` entry."""
        for a in self.agents:
            self.infos[a]["action_mask"] = self.observe_mask(a)

    def observe_mask(self, agent: str) -> np.ndarray:
        """``agent``'s action mask now (int8; all 0 unless it is to act)."""
        piece = self.piece(agent)
        if agent == self.agent_selection and not self._truncated:
            return self._mask(piece).copy()
        return np.zeros(self.codec.size(piece), np.int8)

    def _info(self) -> dict[str, Any]:
        """What ``infos`` carry: the outcome kind (``in-progress``, ``capture``, ``trapped``,
        ``detectives-stuck``, ``log-full`` or ``illegal-action``), the winner, round and move."""
        out = self._pos.outcome
        if self._illegal is not None:
            return {"outcome": ILLEGAL, "winner": None, "round": out.round, "move": out.move,
                    "illegal": self._illegal}
        return {"outcome": out.kind.value, "winner": out.winner, "round": out.round, "move": out.move}

    @property
    def outcome(self) -> str:
        """How the game stands: an outcome kind, or ``illegal-action``."""
        return str(self._info()["outcome"])

    # ---- observations -------------------------------------------------------------------------------

    def _mask(self, piece: str) -> np.ndarray:
        key = ("mask", piece)
        if key not in self._cache:
            live = self._illegal is None and self._pos.ended is None and not self._truncated
            self._cache[key] = self.codec.mask(self._pos, piece) if live else np.zeros(self.codec.size(piece), np.int8)
        return self._cache[key]  # type: ignore[no-any-return]

    def public_state(self) -> PublicState:
        """What every agent sees now."""
        if "public" not in self._cache:
            pos = self._pos
            over = pos.ended is not None or self._illegal is not None or self._truncated
            self._cache["public"] = PublicState(
                pos.stations, pos.tickets, pos.out, None if over else pos.turn, pos.mrx_tickets, tuple(self._shown),
                dict(self._reveals), self._possible, pos.round, pos.move, self.probabilities())
        return self._cache["public"]  # type: ignore[no-any-return]

    def probabilities(self) -> dict[Station, float] | None:
        """Mr. X's probability per station under the ``probabilities`` weights (None when the
        environment was made without them): :func:`~sy_tools.analysis.possible.possible` of
        the game so far, which reads only what the detectives saw."""
        weights = self.layout.probabilities
        if weights is None:
            return None
        if "probabilities" not in self._cache:
            from ..analysis.possible import possible

            self._cache["probabilities"] = dict(possible(self.record(), weights=weights).probabilities)
        return self._cache["probabilities"]  # type: ignore[no-any-return]

    def observe(self, agent: str) -> Any:
        """``agent``'s observation: its side's view and its action mask (all 0 unless it is to
        act); under ``observation="flat"`` the flat view (:meth:`flat_observation`)."""
        if self.observation_kind == "flat":
            return self.flat_observation(agent)
        piece = self.piece(agent)
        mask = self._mask(piece).copy() if agent == self.agent_selection else np.zeros(self.codec.size(piece), np.int8)
        if "arrays" not in self._cache:
            self._cache["arrays"] = self.layout.public(self.public_state())
        public = {k: v.copy() for k, v in self._cache["arrays"].items()}
        if piece == MRX:
            return self.layout.mrx(public, self._pos.mrx_at, self._pos.doubles, mask)
        return self.layout.detective(public, piece, mask)

    def batch(self, mrx_known: bool = True) -> Batch:
        """This game as a one-game :class:`~sy_tools.env.flat.Batch` (Mr. X's station left out
        unless ``mrx_known``)."""
        pos, st = self._pos, self.public_state()
        idx = self.codec.index
        last = max(self._reveals) if self._reveals else None
        possible = np.zeros((1, len(self.codec.stations)), dtype=bool)
        possible[0] = self.layout.public(st)["possible"] if "arrays" not in self._cache \
            else self._cache["arrays"]["possible"]
        tk = [[t.taxi, t.bus, t.underground] for t in pos.tickets]
        x = pos.mrx_tickets
        return Batch(
            det_at=np.array([[idx[s] for s in pos.stations]]), det_tk=np.array([tk], dtype=np.int64),
            out=np.array([[n in pos.out for n in self.names]]),
            mrx_at=np.array([idx[pos.mrx_at] if mrx_known and pos.mrx_at is not None else -1]),
            mrx_tk=np.array([[x.taxi, x.bus, x.underground, x.black, x.double]], dtype=np.int64),
            move=np.array([pos.move]), round=np.array([pos.round]), doubles=np.array([pos.doubles]),
            turn=np.array([-1 if st.turn is None else st.turn]), possible=possible,
            last_reveal=np.array([-1 if last is None else idx[self._reveals[last]]]))

    def state(self) -> np.ndarray:
        """The whole game as one float32 vector in [0, 1] (for a centralised critic): the flat
        observation (:mod:`sy_tools.env.flat`) with Mr. X's station, in :attr:`state_space`."""
        return self.flat.encode(self.batch(), True)[0]

    def flat_observation(self, agent: str) -> np.ndarray:
        """``agent``'s view as the flat observation (the batched engine's): a detective's
        without Mr. X's station, Mr. X's with it."""
        if agent not in self.observation_spaces:
            self._unknown(agent)
        return self.flat.encode(self.batch(agent == MRX_AGENT), agent == MRX_AGENT)[0]

    def policy_observation(self, agent: str | None = None) -> MrXObservation | DetectiveObservation:
        """What ``simulate`` hands a policy when ``agent`` (default: the agent to act) is to move:
        Mr. X's :class:`MrXObservation` or the detectives' :class:`DetectiveObservation` (no
        station of Mr. X in it), with the side's ``memo`` for this game."""
        agent = agent or self.agent_selection
        pos = self._pos
        if self.piece(agent) != pos.to_move:
            raise InputError(f"it is not {agent}'s turn")
        if agent == MRX_AGENT:
            return MrXObservation(pos, self._possible, self.memos["mrx"])
        return DetectiveObservation(self.board, self.rules, pos.names[pos.turn - 1], pos.names, pos.stations,
                                    pos.tickets, pos.out, pos.mrx_tickets, tuple(self._shown), dict(self._reveals),
                                    self._possible, pos.round, pos.move, tuple(pos.legal_moves()),
                                    self.memos["detectives"], self.probabilities())

    # ---- the record ---------------------------------------------------------------------------------

    def record_json(self) -> dict[str, Any]:
        """The game so far as a game.json document (every station of Mr. X, the capture marked,
        the rules with every override): what ``simulate --records`` writes."""
        mrx, dets, candidates = self._start
        doc = game_record(self.board, self.rules, self.names, dets, mrx, candidates, self._moves)
        doc["map"] = self.map_spec
        return doc

    def record(self) -> Any:
        """The game so far as a :class:`~sy_tools.formats.record.Record` (what ``check`` and
        ``possible`` take)."""
        from ..formats.game_json import parse_record

        return parse_record(self.record_json(), board=self.board)

    def save_record(self, path: str) -> None:
        """Write the game so far as a game.json file (atomically; a map given as a path is
        named relative to the file's folder)."""
        import os

        if not isinstance(path, (str, os.PathLike)):
            raise InputError(f"save_record: expected a file path, got {type(path).__name__} {show(path)}")
        from ..formats.files import atomic_write_text
        from ..formats.output import dumps
        from ..selfplay.results import record_map

        doc = self.record_json()
        if isinstance(self.map_spec, str):
            doc["map"] = record_map(self.map_spec, os.path.dirname(os.path.abspath(path)))
        atomic_write_text(path, dumps(doc) + "\n")

    # ---- pictures -----------------------------------------------------------------------------------

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the game as the detectives see it, in a few lines of text; ``human``: the
        same printed to standard output (returns None); ``rgb_array``: the detectives'
        possible-positions heatmap (``sy-tools heatmap``'s ``possible`` layer) as an RGB array."""
        if self.render_mode is None:
            logger.warn("render() called without a render_mode: give render_mode='human', 'ansi' or 'rgb_array'")
            return None
        if not hasattr(self, "_pos"):
            raise InputError("render() before reset(): call reset() first")
        if self.render_mode in ("ansi", "human"):
            from .render import text

            if self.render_mode == "ansi":
                return text(self)
            print(text(self), file=sys.stdout, flush=True)
            return None
        from .render import picture

        return picture(self)

    def close(self) -> None:
        """Nothing to release (each picture's figure is closed once drawn)."""


#: the environment class itself (PettingZoo's name for the unwrapped env)
raw_env = ScotlandYardEnv


def env(**kwargs: Any) -> Any:
    """``ScotlandYardEnv(**kwargs)`` wrapped as PettingZoo's factories wrap theirs
    (``OrderEnforcingWrapper``: stepping before ``reset`` is an error; its attributes read
    through)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(ScotlandYardEnv(**kwargs))

