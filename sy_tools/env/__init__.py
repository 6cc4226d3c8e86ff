"""Scotland Yard as a PettingZoo environment, for game-AI research (the ``[rl]`` extra:
``pip install 'sy-tools[rl]'``).  docs/env.md describes the spaces, the action numbering, the
rewards, the seeds and the adapters.

:class:`ScotlandYardEnv` is an AEC environment on the rules engine (:func:`env` wraps it as
PettingZoo's factories do, :func:`parallel_env` is the parallel API; :class:`DetectivesEnv`
and :class:`MrXEnv` are single-agent Gymnasium envs; :mod:`sy_tools.env.vector` steps many
games at once, and :class:`SelfPlayVectorEnv` is a native Gymnasium vector env on it, with
:class:`SelfPlayEnv` its one-game twin); :func:`policy_agent` makes
any ``simulate`` policy an agent of it, and :func:`as_policy` makes an agent of it a
``simulate`` policy.  Only this package imports pettingzoo and gymnasium.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as e:  # pragma: no cover - the extra is part of [test]
    raise ImportError(f"sy_tools.env needs pettingzoo and gymnasium ({e.name} is missing): "
                      "pip install 'sy-tools[rl]'") from e

from .actions import ActionCodec  # noqa: E402
from .adapters import as_policy, play, policy_agent  # noqa: E402
from .aec import MRX_AGENT, ScotlandYardEnv, detective_agent, env, raw_env  # noqa: E402
from .flat import FlatLayout  # noqa: E402
from .gym_vector import SelfPlayEnv, SelfPlayVectorEnv  # noqa: E402
from .gym_vector import register as register_self_play  # noqa: E402
from .observe import ObservationLayout, PublicState  # noqa: E402
from .parallel import ScotlandYardParallelEnv, parallel_env  # noqa: E402
from .single import DetectivesEnv, MrXEnv, register  # noqa: E402

register()  # gymnasium.make("sy_tools/ScotlandYardDetectives-v0"), "sy_tools/ScotlandYardMrX-v0"
register_self_play()  # gymnasium.make / make_vec("sy_tools/ScotlandYardSelfPlay-v0")

__all__ = ["MRX_AGENT", "ActionCodec", "DetectivesEnv", "FlatLayout", "MrXEnv", "ObservationLayout", "PublicState", "ScotlandYardEnv", "SelfPlayEnv", "SelfPlayVectorEnv",
           "ScotlandYardParallelEnv", "as_policy", "detective_agent", "env", "parallel_env", "play", "policy_agent",
           "raw_env"]
