"""Scotland Yard in OpenSpiel: ``import sy_tools.env.openspiel`` registers the game
``python_scotland_yard`` with ``pyspiel`` (the ``[openspiel]`` extra); docs/openspiel.md shows
how to load it and run OpenSpiel's algorithms on it.

The game itself (rules from the engine, chance deals, observations, ``resample_from_infostate``)
is :mod:`sy_tools.selfplay.openspiel_game`, in the self-play layer so that ``simulate``'s
``openspiel-ismcts`` and ``openspiel-mcts`` policies can play it; this module is its public face
and adds what sits above self-play: loading with checked parameters and exporting a played game
as a record that ``sy-tools check`` referees.
"""

from __future__ import annotations

from typing import Any

from ..errors import InputError
from ..selfplay.openspiel_game import (
    GAME_NAME,
    PARAMETERS,
    ScotlandYardGame,
    ScotlandYardState,
    parse_rules,
    route_weights,
    rules_parameter,
    sample_route,
)


def load(**params: Any) -> Any:
    """``pyspiel.load_game(GAME_NAME, params)`` (parameters: :data:`PARAMETERS`); a bad value is
    one :class:`InputError`."""
    import pyspiel

    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise InputError(f"unknown parameter(s) {', '.join(unknown)}: expected {', '.join(PARAMETERS)}")
    try:
        return pyspiel.load_game(GAME_NAME, params)
    except pyspiel.SpielError as e:
        raise InputError(str(e).splitlines()[0]) from None


def to_record(state: Any) -> dict[str, Any]:
    """A game played in OpenSpiel as a full game.json record (every station of Mr. X, the
    capture marked): ``sy-tools check`` rules it legal, with the game's outcome."""
    if not isinstance(state, ScotlandYardState):
        raise InputError(f"expected a {GAME_NAME} state, got {type(state).__name__}")
    return state.to_record()


__all__ = ["GAME_NAME", "PARAMETERS", "ScotlandYardGame", "ScotlandYardState", "load", "parse_rules",
           "route_weights", "rules_parameter", "sample_route", "to_record"]
