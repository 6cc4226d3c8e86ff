"""Stations as bitsets: ``Station``, ``StationMask`` and the :class:`StationSet` view."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from typing import Any

Station = int

StationMask = int


class StationSet(AbstractSet[Station]):
    """A set of stations over a bitmask (python-chess's ``SquareSet``): the set protocol and
    set algebra on an ``int``.  ``StationSet(mask)``, ``StationSet.of([13, 26])``; ``.mask`` is the
    int the hot paths use."""

    __slots__ = ("mask",)

    def __init__(self, mask: StationMask = 0) -> None:
        self.mask = int(mask)

    @classmethod
    def of(cls, stations: Iterable[Station]) -> StationSet:
        return cls(mask_of(stations))

    def __iter__(self) -> Iterator[Station]:
        """Stations in ascending order."""
        return iter(stations_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, station: object) -> bool:
        return isinstance(station, int) and station >= 0 and bool(self.mask >> station & 1)

    def __bool__(self) -> bool:
        return bool(self.mask)

    def __int__(self) -> int:
        return self.mask

    def __eq__(self, other: object) -> bool:
        if isinstance(other, StationSet):
            return self.mask == other.mask
        return AbstractSet.__eq__(self, other)

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: AbstractSet[Any]) -> StationSet:  # type: ignore[override]
        return StationSet(self.mask | _mask(other))

    def __and__(self, other: AbstractSet[Any]) -> StationSet:
        return StationSet(self.mask & _mask(other))

    def __sub__(self, other: AbstractSet[Any]) -> StationSet:
        return StationSet(self.mask & ~_mask(other))

    def __xor__(self, other: AbstractSet[Any]) -> StationSet:  # type: ignore[override]
        return StationSet(self.mask ^ _mask(other))

    def __repr__(self) -> str:
        return f"StationSet({list(self)})"


def _mask(other: AbstractSet[Any]) -> StationMask:
    return other.mask if isinstance(other, StationSet) else StationSet.of(other).mask


def mask_of(stations: Iterable[Station]) -> StationMask:
    """The bitmask holding ``stations`` (linear time also for thousands of stations)."""
    items = stations if isinstance(stations, (list, tuple, set, frozenset, range)) else list(stations)
    if len(items) <= 64:
        m = 0
        for s in items:
            m |= 1 << s
        return m
    if min(items) < 0:
        raise ValueError("negative shift count")
    buf = bytearray(max(items) // 8 + 1)
    for s in items:
        buf[s >> 3] |= 1 << (s & 7)
    return int.from_bytes(buf, "little")

#: For each byte value, the positions of its set bits.
_BITS: tuple[tuple[int, ...], ...] = tuple(tuple(i for i in range(8) if b >> i & 1) for b in range(256))


def stations_of(mask: StationMask) -> list[Station]:
    """The stations in ``mask``, ascending (linear time in the mask's size)."""
    if mask.bit_length() <= 512:
        out: list[Station] = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
    data = mask.to_bytes((mask.bit_length() + 7) // 8, "little")
    return [8 * i + b for i, byte in enumerate(data) if byte for b in _BITS[byte]]
