"""reach/coverage against a plain breadth-first search over (station, tickets left) states."""

from __future__ import annotations

import random
from collections import deque

from sy_tools.analysis.reach import coverage, reach
from sy_tools.engine.tickets import DETECTIVE_TICKETS, Ticket


def plain_reach(board, start, tickets, kinds=DETECTIVE_TICKETS):
    kinds = list(kinds)
    first = (start, tuple(tickets.get(t.value, 0) for t in kinds))
    seen = {first}
    dist = {start: 0}
    todo = deque([(first, 0)])
    while todo:
        (s, left), n = todo.popleft()
        for i, t in enumerate(kinds):
            if left[i] <= 0:
                continue
            for d in board.moves(s, t):
                state = (d, left[:i] + (left[i] - 1,) + left[i + 1:])
                if state not in seen:
                    seen.add(state)
                    dist.setdefault(d, n + 1)
                    todo.append((state, n + 1))
    return dist


def test_reach_with_ticket_limits_matches_plain_bfs(london):
    rng = random.Random(3)
    for _ in range(25):
        start = rng.choice(london.stations)
        tickets = {"taxi": rng.randint(0, 4), "bus": rng.randint(0, 3), "underground": rng.randint(0, 2)}
        assert reach(london, start, tickets) == plain_reach(london, start, tickets)


def test_reach_unlimited_and_black(london):
    d = reach(london, 13)
    assert d[13] == 0 and d[46] == 1 and d[14] == 1 and len(d) == 199  # taxi alone connects the board
    assert 157 not in reach(london, 194, {"taxi": 0, "bus": 5, "underground": 5})
    black = reach(london, 194, {"black": 1}, kinds=(Ticket.BLACK,))
    assert black == {194: 0, 192: 1, 193: 1, 195: 1, 157: 1}


def test_coverage_is_the_nearest_detective(london):
    dets = {"Red": (13, {"taxi": 10, "bus": 8, "underground": 4}), "Blue": (194, {"taxi": 2})}
    cov = coverage(london, dets)
    assert cov[13] == 0 and cov[194] == 0 and cov[46] == 1 and cov[192] == 1
    a = reach(london, 13, dets["Red"][1])
    b = reach(london, 194, dets["Blue"][1])
    assert all(cov[s] == min(a.get(s, 99), b.get(s, 99)) for s in cov)
    assert set(cov) == set(a) | set(b)


def test_full_detective_tickets_and_several_starts_match_plain_bfs(london):
    rng = random.Random(11)
    full = {"taxi": 10, "bus": 8, "underground": 4}
    for start in (13, 194, rng.choice(london.stations)):
        assert reach(london, start, full) == plain_reach(london, start, full)
    from sy_tools.analysis.reach import reach_from

    for _ in range(5):
        starts = rng.sample(london.stations, 3)
        tickets = {"taxi": rng.randint(0, 3), "bus": rng.randint(0, 2), "underground": rng.randint(0, 1)}
        each = [plain_reach(london, s, tickets) for s in starts]
        want = {s: min(d[s] for d in each if s in d) for s in set().union(*each)}
        assert reach_from(london, starts, tickets) == want


def test_nearest_names_every_detective_at_the_fewest_moves(london):
    from sy_tools.analysis.reach import nearest

    rng = random.Random(5)
    dets = {n: (s, {"taxi": rng.randint(1, 4), "bus": rng.randint(0, 2), "underground": rng.randint(0, 1)})
            for n, s in zip(("Red", "Blue", "Green"), rng.sample(london.stations, 3))}
    each = {n: plain_reach(london, s, t) for n, (s, t) in dets.items()}
    got = nearest(london, dets)
    assert set(got) == set().union(*each.values())
    for s, (n, names) in got.items():
        best = min(d[s] for d in each.values() if s in d)
        assert n == best and names == tuple(k for k, d in each.items() if d.get(s) == best)
    assert any(len(names) > 1 for _, names in got.values())  # ties happen and are all named
