"""OpenSpiel's bots as ``simulate`` policies: ``openspiel-ismcts`` (its Python ``ISMCTSBot``) and
``openspiel-mcts`` (its ``MCTSBot``), both sides, on :mod:`.openspiel_game`.

Budget: simulations a decision, ``openspiel-ismcts:1000`` (default :data:`SIMULATIONS`).  Mr. X's
double move is three decisions in OpenSpiel (declare it, then each leg), each with the budget.

Fair: a policy sees only its observation.  The search starts from a state made from it
(:meth:`~.openspiel_game.ScotlandYardState.at`): for the detectives, Mr. X's station is not in
it, and ISMCTS draws a world per simulation with ``resample_from_infostate`` (his station from
the possible set the observation gives, by the path weights of the public record their
observations make up (:func:`path_weights`), then his route since by the path weights); the detectives' MCTS, a perfect-information search, runs on
one such draw a decision.  Mr. X knows everything, so his searches start from the true state.

Evaluator: our own random playout (:func:`~sy_tools.engine.playout.random_playout`, one a leaf,
on the engine's tables instead of through OpenSpiel's state API: many times faster).  Uniform
over the engine's whole moves (each double move one), where OpenSpiel's ``RandomRolloutEvaluator``
is uniform over actions (declaring a double move one): the playout plays more double moves.

Reproducible: each decision seeds the bot and the playouts from the game's own random stream,
so a game is the same from its seed whatever ``--jobs``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ..engine.hops import mrx_targets
from ..engine.moves import Move
from ..engine.observations import DetectiveObservation, MrXObservation, observed_position
from ..engine.playout import random_playout
from ..engine.stations import Station, StationMask, mask_of, stations_of
from ..errors import InputError
from .openspiel_game import PARAMETERS, ScotlandYardState, board_key, path_counts, rules_parameter, start_decks

#: simulations a decision unless the policy's name says (``openspiel-ismcts:1000``)
SIMULATIONS = 300

#: the UCT exploration constant of both bots (returns are +1 / -1)
UCT_C = 2.0


class PlayoutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """OpenSpiel's evaluator interface on the engine's random playout: a leaf's value is the
    outcome of one uniformly random game from it; the prior is uniform."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def evaluate(self, state: ScotlandYardState) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        pos = state.pos
        assert pos is not None
        final = random_playout(pos, self.rng).final  # (a half-chosen move of Mr. X: chosen afresh)
        p = state.spec.num_players
        x = 1.0 if final.outcome.winner == "mrx" else -1.0
        return np.array([x] + [-x / (p - 1)] * (p - 1))

    def prior(self, state: ScotlandYardState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()  # type: ignore[no-any-return]
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def _game(obs: Any) -> Any:
    rules = obs.position.rules if isinstance(obs, MrXObservation) else obs.rules
    board = obs.position.board if isinstance(obs, MrXObservation) else obs.board
    names = obs.position.names if isinstance(obs, MrXObservation) else obs.names
    params = dict(PARAMETERS, rules=rules_parameter(rules), map=board_key(board), detectives=len(names), team=True)
    return pyspiel.load_game("python_scotland_yard", params)


def _root(obs: Any) -> ScotlandYardState:
    game = _game(obs)
    if isinstance(obs, MrXObservation):
        return ScotlandYardState.at(game, obs.position, obs.possible)
    assert isinstance(obs, DetectiveObservation)
    return ScotlandYardState.at(game, observed_position(obs), obs.possible, obs.weights or path_weights(obs))


def path_weights(obs: DetectiveObservation) -> dict[Station, int] | None:
    """The number of routes that fit the public record and end at each of Mr. X's possible
    stations (the tracker's ``paths`` weights), from the record the detectives' observations make
    up call by call (kept in ``obs.memo``: each call sees the last caller's move and any legs of
    Mr. X since).  None where the record cannot be followed (a pass; a start other than the
    rules' deck: the filter's set then differs from the observation's): the stations count alike."""
    memo = obs.memo
    rec = memo.get(_RECORD)
    board, rules = obs.board, obs.rules
    stations = tuple(obs.stations)
    if rec is None:
        try:
            deck = start_decks(board, rules)[0]
        except InputError:
            deck = []
        rec = memo[_RECORD] = {"ok": bool(deck), "round": 1 if obs.move else 0, "move": 0, "stations": stations,
                               "start": mask_of(deck) & ~mask_of(stations), "steps": [], "sets": []}
    if not rec["ok"]:
        return None
    sets: list[StationMask] = rec["sets"]
    for was, now in zip(rec["stations"], stations):  # the last caller's move (before any new leg of his)
        if was != now:
            if sets:
                sets[-1] &= ~(1 << now)
            else:
                rec["start"] &= ~(1 << now)
    legs = obs.move - rec["move"]
    if obs.round - rec["round"] > (1 if legs else 0) or len(obs.shown) < obs.move:  # a pass; no log to follow
        rec["ok"] = False
        return None
    occ = mask_of(stations)
    for leg in range(rec["move"], obs.move):
        t = obs.shown[leg]
        here = mrx_targets(board, sets[-1] if sets else rec["start"], t, occ, rules)
        if leg + 1 in obs.reveals:
            here &= 1 << obs.reveals[leg + 1]
        rec["steps"].append((t, occ))
        sets.append(here)
    rec.update(round=obs.round, move=obs.move, stations=stations)
    if (sets[-1] if sets else rec["start"]) != obs.possible:
        rec["ok"] = False
        return None
    counts = path_counts(board, rules, rec["start"], rec["steps"], sets)[1][-1]
    return {s: counts.get(s, 0) for s in stations_of(obs.possible)}


_RECORD = "openspiel_record"


def _search(kind: str, state: ScotlandYardState, simulations: int, rng: random.Random) -> int:
    """One action of the player to move in ``state``, by ``kind`` (``ismcts`` or ``mcts``)."""
    seed = rng.getrandbits(32)
    local = random.Random(seed)
    evaluator = PlayoutEvaluator(local)
    player = state.current_player()
    if kind == "ismcts":
        bot = ismcts.ISMCTSBot(state.get_game(), evaluator, UCT_C, simulations,
                               random_state=np.random.RandomState(seed))
        bot.set_resampler(lambda s, p: s.resample_from_infostate(p, local))
        return int(bot.step(state))
    world = state if player == 0 else state.resample_from_infostate(player, local)
    bot = mcts.MCTSBot(state.get_game(), UCT_C, simulations, evaluator, solve=False,
                       random_state=np.random.RandomState(seed))
    return int(bot.step(world))


def decide(kind: str, obs: Any, rng: random.Random, simulations: int = SIMULATIONS) -> Move:
    """The move ``kind``'s bot plays for the side to move in ``obs`` (a whole move: Mr. X's
    double move is searched action by action)."""
    state = _root(obs)
    moves = len(state.moves)
    while len(state.moves) == moves:
        state.apply_action(_search(kind, state, simulations, rng))
    return state.moves[-1]  # type: ignore[no-any-return]


def policy(kind: str, simulations: int = SIMULATIONS) -> Any:
    """A ``simulate`` policy (either side) playing ``kind``'s bot with ``simulations`` a decision."""

    def play(obs: Any, rng: Any) -> Move:
        return decide(kind, obs, rng if isinstance(rng, random.Random) else random.Random(0), simulations)

    play.__name__ = play.__qualname__ = f"openspiel_{kind}_{simulations}"
    play.__doc__ = f"OpenSpiel's {kind.upper()} bot, {simulations} simulations a decision (:mod:`{__name__}`)."
    return play
