"""The envs' argument checks: what a caller hands an env's constructor, ``reset`` or ``step``
either is what it should be or is refused with one :class:`~sy_tools.errors.InputError` line
naming the argument and the value, never a Python error from deep inside (an ``AttributeError``
for a dict given as rules, an ``OverflowError`` for a huge number, ...).  Numpy integers are
integers everywhere."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..engine.board import Board
from ..engine.rules import PRESETS, Rules, preset
from ..engine.stations import Station
from ..errors import InputError
from ..selfplay.budgets import SEED_MAX, SEED_MIN


def is_int(value: object) -> bool:
    """A Python or numpy integer (not a bool)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def env_seed(seed: object, what: str = "seed") -> int:
    """``seed`` as an int: a Python or numpy integer from :data:`SEED_MIN` to :data:`SEED_MAX`
    (negative seeds too, as ``simulate --seed`` takes them)."""
    if not is_int(seed) or not SEED_MIN <= seed <= SEED_MAX:  # type: ignore[operator]
        raise InputError(f"expected a {what} from {SEED_MIN} to {SEED_MAX} (a 64-bit integer), got {show(seed)}")
    return int(seed)  # type: ignore[call-overload]


def gym_seed(seed: int) -> int:
    """The non-negative seed Gymnasium's ``np_random`` is seeded with for ``seed`` (it takes no
    negative one): ``seed`` modulo 2**64, so ``seed`` itself when it is not negative."""
    return seed % 2**64


def env_game(game: object) -> int:
    """A game number of a run (``reset`` option ``game``): an integer from 0 to :data:`SEED_MAX`."""
    if not is_int(game) or not 0 <= game <= SEED_MAX:  # type: ignore[operator]
        raise InputError(f"reset options: game must be a non-negative integer, got {show(game)} (a run's games "
                         f"are numbered 0 to {SEED_MAX})")
    return int(game)  # type: ignore[call-overload]


def env_rules(rules: object) -> Rules:
    """``rules``: a preset name, a rules file as ``--rules`` takes it (what ``sy-tools rules
    --format json`` writes, or ``{"preset": ..., overrides}``) or a :class:`Rules`."""
    from ..formats.rules_file import load_rules

    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return preset(rules) if rules in PRESETS else load_rules(rules, "rules")
    hint = " (a record's rules object: sy_tools.engine.rules.rules_from_json(d) makes Rules of it)" \
        if isinstance(rules, Mapping) else ""
    raise InputError(f"rules must be a preset name ({', '.join(PRESETS)}), a rules file or a sy_tools.engine.rules.Rules, "
                     f"got {type(rules).__name__}{hint}")


def env_board(board: object) -> Board:
    """``map``: a map spec as ``--map`` takes it (a built-in name or a file) or a :class:`Board`."""
    from ..formats.map_load import load_board

    if isinstance(board, Board):
        return board
    if not isinstance(board, str):
        raise InputError(f"map must be a map name or file (a string) or a sy_tools.engine.board.Board, "
                         f"got {type(board).__name__} {show(board)}")
    return load_board(board)


def env_detectives(detectives: object, most: int) -> int:
    """The number of detectives: an integer from 1 to ``most``."""
    if not is_int(detectives) or not 1 <= detectives <= most:  # type: ignore[operator]
        raise InputError(f"expected 1 to {most} detectives, got {show(detectives)}")
    return int(detectives)  # type: ignore[call-overload]


def env_starts(starts: object, board: Board) -> str | tuple[Station, ...] | None:
    """``starts``: None (the rules' decks), a deck name (``classic``, ``2014``: the deal checks
    it) or Mr. X's start stations, a non-empty list of stations of ``board``."""
    from ..formats.values import START_DECKS

    if starts is None or starts in START_DECKS:
        return starts  # type: ignore[return-value]
    if isinstance(starts, str):
        raise InputError(f"starts: unknown start deck {show(starts)}: expected {', '.join(START_DECKS)}, None or a "
                         "list of Mr. X's start stations (integers)")
    if isinstance(starts, (bytes, Mapping)) or not hasattr(starts, "__iter__"):
        raise InputError(f"starts must be None, a deck name (classic, 2014) or a list of Mr. X's start stations, "
                         f"got {type(starts).__name__} {show(starts)}")
    out = []
    for s in starts:
        if not is_int(s) or int(s) not in board:
            raise InputError(f"starts: {show(s)} is not a station of the map {board.name!r}")
        out.append(int(s))
    if not out:
        raise InputError("starts: an empty list of Mr. X's start stations")
    return tuple(out)


def env_slot(j: object, n: int, what: str = "record_json") -> int:
    """A game slot of a batch of ``n``: an integer from 0 to ``n - 1``."""
    if not is_int(j) or not 0 <= j < n:  # type: ignore[operator]
        raise InputError(f"{what}: expected a game from 0 to {n - 1}, got {show(j)}")
    return int(j)  # type: ignore[call-overload]


def refuse_keywords(others: Mapping[str, object], keywords: Sequence[str], owner: str = "the env",
                    why: Mapping[str, str] | None = None) -> None:
    """Keywords an env was given that it does not take (``others``; gymnasium.make hands every
    keyword on): one line naming the first, its value and the ``keywords`` it takes (``why``: a
    reason by keyword, in brackets after it)."""
    if others:
        name, value = next(iter(others.items()))
        reason = f" ({why[name]})" if why and name in why else ""
        raise InputError(f"{owner} takes no keyword {name}={show(value)}{reason}: its keywords are {', '.join(keywords)}")


def env_max_cycles(max_cycles: object) -> int | None:
    """``max_cycles``: None (every game to its end) or a positive integer (numpy's too)."""
    if max_cycles is not None and (not is_int(max_cycles) or max_cycles < 1):  # type: ignore[operator]
        raise InputError(f"max_cycles must be a positive integer or None, got {show(max_cycles)}")
    return None if max_cycles is None else int(max_cycles)  # type: ignore[call-overload]


def env_flag(value: object, name: str) -> bool:
    """A yes/no argument: a bool (numpy's too), never a string or a number read as one."""
    if not isinstance(value, (bool, np.bool_)):
        raise InputError(f"{name} must be True or False, got {show(value)}")
    return bool(value)


def action_array(actions: Any, shape: tuple[int, ...], expected: str, what: str = "action") -> Any:
    """``actions`` ready for a batched step of ``shape`` (``(N,)``, or ``(N, 2)`` for pairs): an
    integer numpy array as it is (the step checks its shape and values); a list or tuple of
    Python or numpy integers as an int64 array (numpy would turn a list mixing its unsigned and
    Python integers into floats); anything else as it is, for the step to refuse.  A number no
    64-bit signed integer holds (a huge Python int, a ``uint64`` past 2**63 - 1) is refused here,
    naming the game and what is ``expected`` (``"actions 0 to 99"``), instead of wrapping round to another
    action."""
    if isinstance(actions, np.ndarray):
        if actions.dtype.kind == "u" and actions.size and actions.shape == shape and int(actions.max()) > SEED_MAX:
            _too_big(actions, shape, expected, what)
        return actions
    if not isinstance(actions, (list, tuple)):
        return actions
    try:
        obj = np.asarray(actions, dtype=object)
    except (ValueError, TypeError):
        return actions
    if obj.shape != shape or not all(is_int(v) for v in obj.flat):
        return actions
    if not all(SEED_MIN <= v <= SEED_MAX for v in obj.flat):
        _too_big(obj, shape, expected, what)
    return obj.astype(np.int64)


def _too_big(actions: np.ndarray, shape: tuple[int, ...], expected: str, what: str) -> None:
    big = np.array([not SEED_MIN <= int(v) <= SEED_MAX for v in actions.flat]).reshape(shape)
    j = int(np.argmax(big.reshape(shape[0], -1).any(axis=1)))
    value = actions[j].tolist() if isinstance(actions[j], np.ndarray) else int(actions[j])
    raise InputError(f"game {j}: the {what} {show(value)} is out of range ({expected}; "
                     "nothing was played)")


def show(value: object) -> str:
    """``value`` for a message: its repr, cut to one short line."""
    text = repr(value).replace("\n", " ")
    return text if len(text) <= 60 else text[:57] + "..."


class EndAtDeal:
    """The one rule of the one-game Gymnasium envs (``SelfPlayEnv``, ``DetectivesEnv``,
    ``MrXEnv``) for a game over inside ``reset``: Mr. X trapped at the deal on a small map, or
    caught by the built-in opponent's moves played in ``reset`` (``mrx_onto_detective:
    caught``).  ``reset`` then returns the final observation (an all-0 mask), and the next
    ``step``, with any action of the space, reports the end (``terminated`` or ``truncated``,
    the final reward) without playing it; a step after that is refused (``call reset()``).
    The class using it has ``aec``, its :class:`~sy_tools.env.aec.ScotlandYardEnv`."""

    aec: Any
    _unreported = False

    def _over(self) -> bool:
        aec = self.aec
        return any(aec.terminations.values()) or any(aec.truncations.values())

    def _dealt(self) -> None:
        """Call at the end of ``reset``: a game over by now is reported by the next step."""
        self._unreported = self._over()

    def _begin_step(self, action: object, size: int) -> tuple[int, bool]:
        """Check a step may be taken and ``action`` is an action (else :class:`InputError`, nothing
        changes): ``(action, True)`` when this step only reports the end at the deal."""
        from .actions import action_int

        if not self.aec.agents:
            raise InputError("step() before reset(): call reset() first")
        if self._over() and not self._unreported:
            raise InputError("the game is over: call reset()")
        a = action_int(action, size, "the action")
        if self._unreported:
            self._unreported = False
            return a, True
        return a, False
