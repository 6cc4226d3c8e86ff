"""Bitset lookup tables for :class:`~sy_tools.env.vector.VectorEngine`: the legal actions of
the agent to act as a few ``uint64`` words per game instead of a row of candidates.

Every station's candidates (a detective's hops, Mr. X's single and double moves: the batched
engine's candidate tables, in their order) are numbered ``0 .. K - 1``; a set of them is ``W =
ceil(K / 64)`` words, candidate ``k`` at bit ``k % 64`` of word ``k // 64``.  Per station, a
table gives the candidates the tickets held allow (indexed by a small ticket pattern) and the
candidates each station blocks when a detective stands on it, so the legal set of a game is one
lookup and-not the OR of one lookup per detective.  :func:`draw` picks the ``k``-th candidate of
a set a byte at a time, :func:`has` tests one, :func:`unpack` lists them.

The rules themselves are not here: the tables are built from the candidate tables, the tickets
each candidate spends and the stations it passes through; which of them the engine's rules allow
is the batched engine's (and through it the engine's) decision.
"""

from __future__ import annotations

import sys

import numpy as np

#: per byte value: how many bits are set
PC8 = np.array([bin(v).count("1") for v in range(256)], dtype=np.int16)
#: per byte value and ``k``: the position of its ``k``-th set bit (0 where there is none)
KTH8 = np.zeros((256, 8), dtype=np.int64)
for _v in range(256):
    for _k, _b in enumerate(b for b in range(8) if (_v >> b) & 1):
        KTH8[_v, _k] = _b

#: per 16-bit value: how many bits are set, and (``value * 16 + k``) the position of its
#: ``k``-th set bit (0 where there is none)
PC16 = (PC8[np.arange(65536) & 255] + PC8[np.arange(65536) >> 8]).astype(np.int64)
_bits16 = (np.arange(65536)[:, None] >> np.arange(16)) & 1
_r16, _b16 = np.nonzero(_bits16)
_kth16 = np.zeros((65536, 16), dtype=np.int8)
_kth16[_r16, (np.cumsum(_bits16, axis=1) - 1)[_r16, _b16]] = _b16
KTH16 = _kth16.reshape(-1)
del _bits16, _r16, _b16, _kth16

#: numpy's popcount where it has one (numpy 2)
_POPCOUNT = getattr(np, "bitwise_count", None)

if sys.byteorder != "little":  # pragma: no cover - the byte views below assume it
    raise ImportError("sy_tools.env.vector_bits needs a little-endian machine")


def pack(flags: np.ndarray) -> np.ndarray:
    """``(..., K)`` bool as ``(..., ceil(K / 64))`` uint64 words (candidate ``k`` at bit ``k % 64``
    of word ``k // 64``)."""
    k = flags.shape[-1]
    w = max(1, -(-k // 64))
    padded = np.zeros(flags.shape[:-1] + (w * 64,), dtype=bool)
    padded[..., :k] = flags
    return np.ascontiguousarray(np.packbits(padded, axis=-1, bitorder="little")).view(np.uint64)


def rows(table: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``table[idx]`` for a ``(R, W)`` table and integer ``idx`` of any shape, by ``np.take``
    of whole rows (several times faster than fancy indexing)."""
    return table.take(idx, axis=0)


def union(table: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """The OR of ``table[idx[..., k]]`` over ``idx``'s last axis: ``(..., W)``."""
    # the OR runs over the leading axis (whole slabs at a time), not a short axis per row
    return np.bitwise_or.reduce(table.take(idx.transpose((idx.ndim - 1, *range(idx.ndim - 1))), axis=0), axis=0)


def unpack(words: np.ndarray) -> np.ndarray:
    """``(G, W)`` uint64 words as ``(G, 64 W)`` bool."""
    return np.unpackbits(np.ascontiguousarray(words).view(np.uint8), axis=1, bitorder="little").astype(bool)


def has(words: np.ndarray, slot: np.ndarray, rows: np.ndarray | None = None) -> np.ndarray:
    """Per row (of ``words``, or of ``words[rows]``), whether candidate ``slot`` (``>= 0``, below
    ``64 W``) is in the set."""
    if not len(slot):
        return np.zeros(0, dtype=bool)
    at = np.arange(len(slot)) if rows is None else rows
    w = words.reshape(-1).take(at * words.shape[1] + (slot >> 6))
    return ((w >> (slot & 63).astype(np.uint64)) & np.uint64(1)).astype(bool)


def _chunks(size: int | None) -> int | None:
    """How many 16-bit chunks hold a set of ``size`` candidates (None: more than one word)."""
    return None if size is None or size > 64 else max(1, -(-size // 16))


def _parts(words: np.ndarray, chunks: int) -> list[np.ndarray]:
    w = words[:, 0]
    return [((w >> np.uint64(16 * i)) & np.uint64(0xFFFF)).astype(np.intp) for i in range(chunks)]


def count(words: np.ndarray, size: int | None = None) -> np.ndarray:
    """Per row, how many candidates the set holds (``size``: as :func:`kth`)."""
    chunks = _chunks(size)
    if chunks is None:
        if _POPCOUNT is not None:
            return _POPCOUNT(words).sum(axis=1, dtype=np.int64)
        return PC8[_bytes(words, size)].sum(axis=1, dtype=np.int64)
    parts = _parts(words, chunks)
    n = PC16.take(parts[0])
    for part in parts[1:]:
        n = n + PC16.take(part)
    return n


def _kth(by: np.ndarray, pc: np.ndarray, cs: np.ndarray, k: np.ndarray) -> np.ndarray:
    r = np.arange(len(by))
    j = np.minimum((cs <= k[:, None]).sum(axis=1), by.shape[1] - 1)
    before = cs[r, j] - pc[r, j]
    return 8 * j + KTH8[by[r, j], np.clip(k - before, 0, 7)]


def _bytes(words: np.ndarray, size: int | None) -> np.ndarray:
    """The set's bytes, ``(G, 8 W)`` uint8, or only the first ``ceil(size / 8)`` when the
    candidates number ``size`` (the rest are 0)."""
    by = np.ascontiguousarray(words).view(np.uint8)
    return by if size is None else by[:, :max(1, -(-size // 8))]


def kth(words: np.ndarray, k: np.ndarray, size: int | None = None) -> np.ndarray:
    """Per row, the ``k``-th candidate of the set (0-based, in the candidates' order; ``k``
    below the set's size); ``size``: how many candidates there are at most (up to 64: read
    16 bits at a time from lookup tables; more: the word first, by its popcount)."""
    if not len(words):
        return np.zeros(0, dtype=np.int64)
    chunks = _chunks(size)
    if chunks is None:
        if _POPCOUNT is None:
            by = _bytes(words, size)
            pc = PC8[by]
            return _kth(by, pc, np.cumsum(pc, axis=1, dtype=np.int16), k)
        pw = _POPCOUNT(words).astype(np.int64)
        cs = np.cumsum(pw, axis=1)
        r = np.arange(len(words))
        j = np.minimum((cs <= k[:, None]).sum(axis=1), words.shape[1] - 1)
        return 64 * j + kth(words[r, j][:, None], k - (cs[r, j] - pw[r, j]), 64)
    parts = _parts(words, chunks)
    if chunks == 1:
        return KTH16.take(parts[0] * 16 + (k & 15)).astype(np.int64)
    slot = np.zeros(len(words), dtype=np.int64)
    rest = k
    for i, part in enumerate(parts):
        pc = PC16.take(part)
        here = (rest >= 0) & (rest < pc)
        slot = np.where(here, 16 * i + KTH16.take(part * 16 + (rest & 15)), slot)
        rest = rest - pc
    return slot


def draw(words: np.ndarray, u: np.ndarray, size: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the candidate at ``floor(u * n)`` in the set's order (``n`` its size, ``u`` in
    [0, 1)): a uniformly random one for uniform ``u``.  Returns ``(slot, n)``; ``slot`` is 0
    where the set is empty.  ``size``: as :func:`kth`."""
    if not len(words):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    n = count(words, size)
    return np.where(n > 0, kth(words, (u * n).astype(np.int64), size), 0), n


def _flat(table: np.ndarray) -> np.ndarray:
    """``(A, B, W)`` as ``(A * B, W)`` (row ``a * B + b``), for :func:`rows` and :func:`union`."""
    return np.ascontiguousarray(table.reshape(-1, table.shape[-1]))


class BitTables:
    """The lookup tables of one board's candidate tables (``tab``: as the batched engine builds
    them; ``s`` stations).  ``caught``: under ``mrx_onto_detective: caught`` a detective does
    not block Mr. X's destination (a double move's first leg still must be free).

    Tables are stored flat for ``np.take``: the bitset tables ``(A * B, W)``
    (``det_tmask[station * 8 + pattern]``), the slot tables 1-D (``det_slot[(station * 3 +
    ticket) * S + to]``).

    * ``det_tmask[station, pattern]``: a detective's hops its tickets allow (``pattern``: bit
      ``t`` set when ticket ``t`` of taxi, bus, underground is held); ``det_occ[station, other]``:
      the hops onto ``other``; ``det_slot[station, ticket, to]`` the hop's number or -1;
      ``det_act[station, slot]`` its action.
    * ``one_*``: Mr. X's single moves alike (pattern bits for taxi, bus, underground, black).
    * ``two_tmask[station, pattern]``: his double moves whose two tickets he holds (``pattern =
      sum(min(held[t], 2) * 3 ** t)`` over taxi, bus, underground, black); ``two_occ[station,
      other]`` the double moves a detective on ``other`` blocks; ``two_base[station, ticket1,
      to1]`` the number of the first double move of that first leg (-1: none), the second leg
      ``hop`` adding ``hop_rank[hop]``; ``two_act`` their actions."""

    def __init__(self, tab: dict[str, np.ndarray], hops: tuple[tuple[int, int, int], ...], s: int,
                 caught: bool) -> None:
        stations = np.arange(s)
        # ---- the detectives
        det = tab["det"]
        self.det_tmask, self.det_occ, self.det_slot, self.det_act = self._hops(det, 3, s)
        self.det_size = det.shape[1]
        #: ``det_reach[station * 8 + pattern]``: how many stations the hops its tickets allow go
        #: to (a detective with more than the other detectives can block surely has a move)
        ok, tk, to = det[:, :, 0] >= 0, np.maximum(det[:, :, 1], 0), np.maximum(det[:, :, 2], 0)
        reach = np.zeros((s, 8, s), dtype=bool)
        r, k = np.nonzero(ok)
        for p in range(8):
            use = ((p >> tk[r, k]) & 1) == 1
            reach[r[use], p, to[r[use], k[use]]] = True
        self.det_reach = reach.sum(axis=2).reshape(-1)
        # ---- Mr. X's single moves
        one = tab["single"]
        self.one_tmask, self.one_occ, self.one_slot, self.one_act = self._hops(one, 4, s)
        self.one_size = one.shape[1]
        # ---- Mr. X's double moves
        ok, pair = tab["d_valid"], tab["d_pair"]
        t1, t2 = pair // 4, pair % 4
        held = np.array([[(p // 3 ** t) % 3 for t in range(4)] for p in range(81)])  # (81, 4): 0, 1, 2+
        h1, h2 = held[:, t1], held[:, t2]  # (81, S, K): how many of each leg's ticket
        allowed = (h1 >= 1) & (h2 - (t1 == t2)[None] >= 1)  # (81, S, K)
        self.two_tmask = _flat(pack(ok[:, None, :] & allowed.transpose(1, 0, 2)))
        on1 = tab["d_to1"][:, None, :] == stations[None, :, None]
        on2 = tab["d_to2"][:, None, :] == stations[None, :, None]
        self.two_occ = _flat(pack(ok[:, None, :] & (on1 if caught else on1 | on2)))
        self.two_act = self._acts(np.where(ok, tab["d_act"], -1), self.two_tmask.shape[-1])
        self.two_size = ok.shape[1]
        hop_from = np.array([h[0] for h in hops], dtype=np.int64)
        self.hop_from, self.hop_ticket = hop_from, np.array([h[1] for h in hops], dtype=np.int64)
        self.hop_to = np.array([h[2] for h in hops], dtype=np.int64)
        rank = np.zeros(len(hops), dtype=np.int64)
        seen: dict[int, int] = {}
        for h, f in enumerate(hop_from.tolist()):
            rank[h] = seen.get(f, 0)
            seen[f] = int(rank[h]) + 1
        self.hop_rank = rank
        big = np.iinfo(np.int64).max
        base = np.full((s, 4, s), big, dtype=np.int64)
        r, k = np.nonzero(ok)
        np.minimum.at(base, (r, t1[r, k], tab["d_to1"][r, k]), k)  # the first slot of each first leg
        base[base == big] = -1
        self.two_base = base.reshape(-1)

    @classmethod
    def _hops(cls, cands: np.ndarray, tickets: int, s: int) -> tuple[np.ndarray, ...]:
        """The tables of one kind of single hops (``cands``: ``(S, K, 3)`` action, ticket, to;
        -1 padding): by ticket pattern, by station blocked, the slot of ``(ticket, to)``, and
        the action of each slot."""
        ok, tk, to = cands[:, :, 0] >= 0, np.maximum(cands[:, :, 1], 0), np.maximum(cands[:, :, 2], 0)
        pats = np.arange(2 ** tickets)
        tmask = _flat(pack(ok[:, None, :] & (((pats[:, None] >> tk[:, None, :]) & 1) == 1)))
        occ = _flat(pack(ok[:, None, :] & (to[:, None, :] == np.arange(s)[None, :, None])))
        return tmask, occ, cls._slots(ok, tk, to, tickets, s), cls._acts(cands[:, :, 0], tmask.shape[-1])

    @staticmethod
    def _slots(ok: np.ndarray, tk: np.ndarray, to: np.ndarray, tickets: int, s: int) -> np.ndarray:
        out = np.full((ok.shape[0], tickets, s), -1, dtype=np.int64)
        r, k = np.nonzero(ok)
        out[r, tk[r, k], to[r, k]] = k
        return out.reshape(-1)

    @staticmethod
    def _acts(acts: np.ndarray, words: int) -> np.ndarray:
        out = np.zeros((acts.shape[0], words * 64), dtype=np.int64)
        out[:, :acts.shape[1]] = np.maximum(acts, 0)
        return out
