"""The detectives' advice warns while the table can still act (issue 39: following the advice,
every taxi was gone by round 17 with only a late "a detective is left stuck").

On generated positions (detectives close together, short of tickets, late in the game), each
move line's warning is what a brute force says of where the move leaves its detective: no move
at all, one more move before it is out, or fewer moves in a row than its tickets pay for in the
rounds sure to come; a team-mate that the joint move leaves with every move onto a detective
that moves after it (no legal move next round), or every move that keeps it in play (its other
moves strand it), is warned of, and so is a detective that one station alone keeps in play; the
summary names each warning in short.  None is given when the joint move catches him now."""

from __future__ import annotations

import random

from test_advise import NAMES, RULES, _longest_walk

from sy_tools.analysis.distances import distances
from sy_tools.engine.hops import detective_hops
from sy_tools.engine.position import Position
from sy_tools.engine.tickets import Tickets
from sy_tools.solvers.belief import advise_detectives


def rounds_to_come(pos: Position) -> int:
    """His log entries left less the double moves he may still make (each fills two in a round)."""
    doubles = min(pos.mrx_tickets.double, RULES.double_moves_per_game - pos.doubles)
    return max(0, RULES.log_length - pos.move - doubles)


def blocked(after: Position, horizon: int) -> dict[str, str]:
    """What the summary must say of each detective whose next move is at risk: every move it has
    leads onto a detective that moves after it (or is out): blocked; every move that keeps it in
    play does, the others stranding it: hemmed in; or one station alone keeps it in play."""
    out = {}
    for i, (name, station, tickets) in enumerate(zip(after.names, after.stations, after.tickets)):
        ways = list(detective_hops(after.board, station, tickets))
        held = {s for j, (n, s) in enumerate(zip(after.names, after.stations)) if j > i or (n in after.out and j != i)}
        if name in after.out or not ways:
            continue
        goal = min(tickets.taxi + tickets.bus + tickets.underground, horizon)
        run = {(t, to): 1 + _longest_walk(after.board, to, tickets.spend(t), max(0, goal - 1)) for t, to in ways}
        free = [run[w] for w in ways if w[1] not in held]
        good = {w[1] for w in ways if w[1] not in held and run[w] >= 2}
        if not free:
            out[name] = f"{name} is blocked next round"
        elif max(free) <= 1 and any(run[w] > max(free) for w in ways if w[1] in held):
            out[name] = f"{name} is hemmed in next round"
        elif len(good) == 1 and min(run.values()) <= 1:
            out[name] = f"only {min(good)} keeps {name} in play next round"
    return out


def positions(london, n: int, seed: int):
    """Detectives within two hops of one another, each with a small hand, late in the game; Mr.
    X possibly at a few stations near them."""
    rng = random.Random(seed)
    dist = distances(london)
    stations = sorted(london.stations)
    while n:
        centre = rng.choice(stations)
        near = [s for s in stations if dist[centre][s] <= rng.randint(1, 2)]
        k = rng.randint(2, 5)
        if len(near) < k + 3:
            continue
        dets = rng.sample(near, k)
        hands = tuple(Tickets(taxi=rng.randint(0, 3), bus=rng.randint(0, 3) * (rng.random() < 0.6),
                              underground=rng.randint(0, 2) * (rng.random() < 0.4)) for _ in dets)
        if not any(detective_hops(london, dets[0], hands[0])):
            continue
        move = rng.randint(12, 21)
        where = rng.sample([s for s in near if s not in dets], 3)
        yield Position(london, RULES, NAMES[:k], tuple(dets), hands, frozenset(),
                       Tickets(taxi=4, bus=3, underground=3, double=rng.randint(0, 1)), None, move, move, 0, 1), where
        n -= 1


def pockets(london, n: int, seed: int):
    """Red, who has moved this round, on a station with one or two ways on for its taxis, and the
    detectives still to move next to those ways, where Mr. X may be: landing there blocks Red."""
    rng = random.Random(seed)
    stations = sorted(london.stations)
    taxis = Tickets(taxi=3)
    while n:
        red = rng.choice(stations)
        ways = sorted({to for _, to in detective_hops(london, red, taxis)})
        if not 1 <= len(ways) <= 2:
            continue
        beside = sorted({to for w in ways for _, to in detective_hops(london, w, taxis)} - set(ways) - {red})
        if len(beside) < len(ways) + 1:
            continue
        others = rng.sample(beside, len(ways))
        more = sorted(set(beside) - set(others))
        where = ways + rng.sample(more, 1)
        k = 1 + len(others)
        yield Position(london, RULES, NAMES[:k], (red, *others), (taxis,) * k, frozenset(),
                       Tickets(taxi=4, bus=3, underground=3), None, 10, 10, 0, 2), where
        n -= 1


def test_each_warning_is_what_a_brute_force_says(london):
    said = {"no ticket": 0, "no move": 0, "last": 0, "fewer": 0, "blocked": 0, "hemmed in": 0, "keeps": 0, "none": 0}
    for pos, where in [*positions(london, 120, seed=9), *pockets(london, 30, seed=4)]:
        adv = advise_detectives(pos, where, time_limit=30, max_candidates=27)
        sure = "catches or traps him now" in adv.summary
        horizon = rounds_to_come(pos)
        after = pos
        for a in adv.moves:
            while after.turn and after.to_move != a.name and after.ended is None:
                after = after.pass_turn()
            if a.move is not None and after.ended is None:
                after = after.push(a.move)
        for a in adv.moves:
            if a.move is None:
                continue
            left = a.tickets_left
            goal = min(left.taxi + left.bus + left.underground, horizon)
            walk = _longest_walk(london, a.move.to, left, goal)
            text = a.warning or ""
            expected = None if sure else ("no ticket" if goal == 0 < horizon and not left.total else
                                          "no move" if walk == 0 < goal else "last" if walk == 1 and walk < horizon
                                          else "fewer" if walk < goal else None)
            assert ("last ticket: out from the next round" in text) == (expected == "no ticket"), (a, walk, goal)
            assert ("no move from" in text) == (expected == "no move"), (a, walk, goal)
            assert ("its next move is its last" in text) == (expected == "last"), (a, walk, goal)
            assert ("more moves in a row" in text) == (expected == "fewer"), (a, walk, goal)
            said[expected or "none"] += 1
            if expected:
                assert "WARNING:" in adv.summary and a.name in adv.summary.split("WARNING:")[1]
        stuck = {} if sure or after.ended is not None else blocked(after, horizon)
        for short in stuck.values():
            assert short in adv.summary, (stuck, adv.describe())
            said[next(k for k in ("blocked", "hemmed in", "keeps") if k in short)] += 1
        for a in adv.moves:  # (what a blocked detective does then, as the rules say)
            if "has no free move next round" in (a.warning or ""):
                assert "so it waits a round (blocked_detective: waits)" in (a.warning or ""), a.warning
        assert adv.summary.count(" next round") == len(stuck), (stuck, adv.describe())
        assert ("WARNING" in adv.summary) == any(a.warning for a in adv.moves)
    assert min(said.values()) >= 1, said


def test_a_detective_blocked_this_round_says_why_in_the_engines_words(london):
    """Blue's one way on (by bus) is Green's station, and Green moves after Blue: Blue cannot move when
    its turn comes. Its line is the engine's reason at that moment (Position.stuck), which says
    whether it waits or is out under the rules' blocked_detective."""
    import dataclasses

    taxis, bus = Tickets(taxi=3), Tickets(bus=3)
    pockets = [(s, ways[0]) for s in sorted(london.stations)
               if len(ways := sorted({to for _, to in detective_hops(london, s, bus)})) == 1]
    assert pockets
    said = set()
    for rule in ("waits", "out"):
        rules = dataclasses.replace(RULES, blocked_detective=rule)
        for blue, green in pockets[:6]:
            red = next(s for s in sorted(london.stations) if s not in (blue, green)
                       and any(detective_hops(london, s, taxis)))
            where = [x for _, x in detective_hops(london, green, taxis) if x not in (blue, red)][:2]
            pos = Position(london, rules, NAMES[:3], (red, blue, green), (taxis, bus, taxis), frozenset(),
                           Tickets(taxi=4, bus=3, underground=3), None, 10, 10, 0, 1)
            adv = advise_detectives(pos, where, time_limit=30, max_candidates=27)
            line = next(a for a in adv.moves if a.name == "Blue")
            if "catches or traps him now" in adv.summary:
                continue
            at_its_turn = pos.push(next(a.move for a in adv.moves if a.name == "Red"))
            assert line.move is None and line.reason == at_its_turn.stuck("Blue").describe(), line
            assert line.line() == line.reason and "Blue cannot move from" in line.reason
            said.add("waits" if "it waits" in line.reason else "out" if "out for the rest" in line.reason else "?")
    assert said == {"waits", "out"}, said
