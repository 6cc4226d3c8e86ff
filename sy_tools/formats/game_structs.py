
"""The shape of game.json as msgspec structs, for the fast path of :mod:`sy_tools.formats.game_fast`
(imported only by it, and only when a batch asks for speed: msgspec then checks types, required
and unknown keys in C).  Every optional key defaults to ``UNSET`` so that the reader can tell a
missing key from one written out."""

from __future__ import annotations

from typing import Annotated, Union

import msgspec
from msgspec import UNSET, Meta, UnsetType

from ..engine.tickets import Ticket as TicketName


class DetectiveMoveS(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    name: str
    ticket: TicketName
    to: int
    capture: Union[bool, UnsetType] = UNSET


class MrXMoveS(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    ticket: TicketName
    to: Union[int, None, UnsetType] = UNSET
    took = None  # (not a field: the filter reads it as it reads a MrXMove's; "took" in the JSON is refused)


class RoundS(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    # (lengths the fast path's precomputed places cover, checked while decoding: a longer list
    # goes the general way, whose collector names what is wrong with it)
    mrx: Annotated[list[MrXMoveS], Meta(max_length=2)]
    detectives: Union[Annotated[list[DetectiveMoveS], Meta(max_length=10)], UnsetType] = UNSET


class DetectiveS(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    name: str
    start: int
    tickets: Union[dict[str, int], UnsetType] = UNSET


class MrXS(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    start_candidates: Union[list[int], str, UnsetType] = UNSET
    start: Union[int, UnsetType] = UNSET
    tickets: Union[dict[str, int], UnsetType] = UNSET


class RecordS(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    detectives: list[DetectiveS]
    version: Union[int, UnsetType] = UNSET
    map: Union[str, UnsetType] = UNSET
    rules: Union[str, UnsetType] = UNSET
    mrx: Union[MrXS, UnsetType] = UNSET
    rounds: Union[list[RoundS], UnsetType] = UNSET
    comment: Union[str, UnsetType] = UNSET

DECODER = msgspec.json.Decoder(RecordS)


FAILURE = msgspec.MsgspecError
