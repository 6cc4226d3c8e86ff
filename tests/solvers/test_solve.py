"""solve: the same verdict as a plain brute-force search over every move on generated positions
(tiny random maps and London), every printed strategy replayed against every line of Mr. X's
play, and hand-made positions (a one-move capture, a trap, a double move escaping, a reveal in
the middle)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from helpers import REPO, small_board

from sy_tools.engine.board import Board, Connection
from sy_tools.engine.hops import MRX
from sy_tools.engine.moves import Move
from sy_tools.engine.position import Position
from sy_tools.engine.rules import PRESETS, Rules
from sy_tools.engine.stations import mask_of, stations_of
from sy_tools.engine.tickets import DETECTIVE_TICKETS, Ticket, Tickets, Transport
from sy_tools.errors import AnalysisError, InputError
from sy_tools.solvers.forced import puzzle_position, solve, solve_puzzle
from sy_tools.solvers.forced_tree import StrategyNode

CLASSIC = PRESETS["classic"]


# ---- the oracle: every move, one at a time, through the engine -------------------------------------


def oracle(pos: Position, S: frozenset[int], k: int) -> bool:
    """Can the detectives force a win within ``k`` of their turns?  Plain search over every legal
    move of every piece, Mr. X's moves enumerated station by station (not as sets)."""
    if pos.turn == 0:
        return _mrx_all(pos, S, k)
    moves = pos.legal_moves()
    if not moves:  # stuck: out
        return _after(pos.pass_turn(), S, k)
    for m in moves:
        S2 = S - {m.to}
        if not S2:
            return True
        if _after(pos.push(m, capture=False), S2, k):
            return True
    return False


def _after(p: Position, S: frozenset[int], k: int) -> bool:
    if p.ended is not None:
        return False  # log full or every detective stuck (no capture: capture=False)
    if p.turn != 0:
        return oracle(p, S, k)
    if p.rules.trapped_loses and not any(p.mrx_can_move_from(s) for s in S):
        return True
    return k > 1 and _mrx_all(p, S, k - 1)


def _observation(p: Position, mv: Move) -> tuple:
    """What the detectives see of his move: the tickets, the station on a fixed or voluntary
    reveal, and the ticket a voluntary reveal took."""
    return mv.tickets, tuple(s if p.rules.is_reveal(p.move + j + 1) or mv.shown == j else None
                             for j, s in enumerate(mv.stations)), mv.took


def _mrx_all(p: Position, S: frozenset[int], k: int) -> bool:
    groups: dict[tuple, set[int]] = {}
    occ = p.occupied
    for s in S:
        for mv in dataclasses.replace(p, mrx_at=s).legal_moves():
            if mv.to is not None and occ >> mv.to & 1:  # onto a detective ("caught"): the detectives win
                continue
            groups.setdefault(_observation(p, mv), set()).add(mv.to if mv.stations else s)
    for (tickets, _, took), dests in groups.items():
        p2 = p.push(Move(MRX, tickets, tuple(None for _ in tickets), None, took))
        if p2.ended is not None or not oracle(p2, frozenset(dests), k):
            return False
    return True


def shortest(pos: Position, S: frozenset[int], n: int) -> int | None:
    return next((k for k in range(1, n + 1) if oracle(pos, S, k)), None)


# ---- the verifier: replay a strategy against every line of Mr. X's play ------------------------------


def verify(pos: Position, S: int, node: StrategyNode, k: int) -> None:
    """Every world (his true station) and every legal move of his: the strategy's moves are
    legal, it has an answer to whatever he shows, and the detectives win within ``k`` turns."""
    assert node.turns <= k
    for s in stations_of(S):
        _play(dataclasses.replace(pos, mrx_at=s), node, k)


def _skip_stuck(p: Position) -> Position:
    while p.ended is None and p.turn != 0 and not p.legal_moves():
        p = p.pass_turn()
    return p


def _play(p: Position, node: StrategyNode, k: int) -> None:
    assert node.detectives_turn == (p.turn != 0)
    if node.detectives_turn:
        assert k >= 1
        for m in node.moves:
            p = _skip_stuck(p)
            if p.ended is not None:
                break
            assert p.is_legal(m), (m, p.problems(m))
            p = p.push(m)
        p = _skip_stuck(p)
        if node.end is not None or p.ended is not None:
            assert p.ended is not None and p.ended.winner == "detectives", (node.end, p)
            return
        k -= 1
        assert k >= 1
    assert p.turn == 0
    moves = p.legal_moves()
    if not moves:  # trapped in this world (possible only at the root: the round-end check sees it)
        assert p.rules.trapped_loses and not p.mrx_can_move_from(p.mrx_at)
        return
    for mv in moves:
        p2 = p.push(mv)
        if p2.ended is not None:  # he stepped onto a detective ("caught")
            assert p.rules.mrx_onto_detective == "caught" and p2.ended.winner == "detectives", p2
            continue
        obs = _observation(p, mv)
        reply = next((r for r in node.replies if (r.tickets, r.shown, r.took) == obs), None)
        assert reply is not None, (obs, [(r.tickets, r.shown, r.took) for r in node.replies])
        assert mv.to is None or reply.possible >> mv.to & 1
        _play(p2, reply.then, k)


# ---- generated positions ---------------------------------------------------------------------------


#: The rule variants (README, "Rule variants"): a name and the rule fields it sets.
VARIANTS = {"cutoff": {"cutoff_escape": True}, "caught": {"mrx_onto_detective": "caught"},
            "reveal": {"voluntary_reveal": True}}


def via_board(rng: random.Random, board: Board, share: float = 0.8) -> Board:
    """``board`` with made-up via data: most bus and underground lines pass over a station or two."""
    via: dict = {k: stations_of(m) for k, m in board.via.items()}
    for c in board.connections:
        if c.transport in (Transport.BUS, Transport.UNDERGROUND) and rng.random() < share:
            others = [s for s in board.stations if s not in (c.a, c.b)]
            via[(c.a, c.b, c.transport)] = rng.sample(others, rng.randint(1, 2))
    return Board.build(board.name, board.stations, board.connections, board.coords, dict(board.start_decks), via)


def random_position(rng: random.Random, board: Board, n_det: int, max_s: int,
                    variant: str | None = None) -> tuple[Position, frozenset[int]]:
    log = rng.choice([6, 24])
    move = rng.randrange(log)
    rules = dataclasses.replace(
        CLASSIC, **VARIANTS.get(variant or "", {}),
        trapped_loses=rng.random() < 0.8,
        tickets_to_mrx=rng.random() < 0.7,
        reveal_moves=tuple(sorted(rng.sample(range(1, 25), rng.randint(0, 6)))),
        log_length=log,
        double_moves_per_game=rng.choice([0, 1, 2]),
    )
    stations = rng.sample(board.stations, n_det)
    names = ("Red", "Blue", "Green", "Yellow", "Black")[:n_det]
    tks = tuple(Tickets(rng.randint(0, 4), rng.randint(0, 2), rng.randint(0, 1)) for _ in names)
    mt = Tickets(rng.randint(0, 3), rng.randint(0, 2), rng.randint(0, 1), rng.randint(0, 2), rng.randint(0, 1))
    free = [s for s in board.stations if s not in stations]
    S = frozenset(rng.sample(free, rng.randint(1, min(max_s, len(free)))))
    turn = rng.choice([0] + list(range(1, n_det + 1)))
    out = frozenset(n for i, n in enumerate(names, 1) if i != turn and rng.random() < 0.1)
    pos = Position(board, rules, names, tuple(stations), tks, out, mt, None, move, move, rng.randint(0, 1), turn)
    return pos, S


def check_against_oracle(pos: Position, S: frozenset[int], n: int) -> str:
    if pos.turn == 0 and pos.rules.trapped_loses and not any(pos.mrx_can_move_from(s) for s in S):
        with pytest.raises(AnalysisError):
            solve(pos, S, n)
        return "over"
    res = solve(pos, S, n)
    want = shortest(pos, S, n)
    assert res.status == "proved"
    assert res.forced == (want is not None), (pos, sorted(S), res.to_dict())
    if want is None:
        return "no"
    assert res.turns == want
    assert res.strategy is not None
    verify(pos, res.possible, res.strategy, want)
    return f"win{want}"


@pytest.mark.parametrize("seed", range(6))
def test_small_maps_agree_with_the_oracle(seed):
    rng = random.Random(seed)
    seen = set()
    for _ in range(80):
        board = small_board(rng, rng.randint(6, 12))
        pos, S = random_position(rng, board, rng.choice([2, 3]), rng.choice([2, 4]))
        seen.add(check_against_oracle(pos, S, rng.choice([1, 2, 2])))
    assert {"no", "win1"} <= seen


def test_three_turns_agree_with_the_oracle():
    rng = random.Random(77)
    seen = set()
    for _ in range(40):
        board = small_board(rng, rng.randint(6, 9))
        pos, S = random_position(rng, board, 2, 2)
        seen.add(check_against_oracle(pos, S, 3))
    assert {"no", "win1", "win2", "win3"} <= seen


def test_the_bounds_agree_with_the_oracle_three_turns_ahead():
    """The bounds that cut whole subtrees (the escape walk past every detective's reach, exits
    that need a detective each, one move of the last detective fitting every ticket, states
    with no win remembered part-way through a turn) against the plain search: three turns,
    three detectives, Mr. X short of some tickets, classic rules (where they apply)."""
    rng = random.Random(5)
    seen = set()
    for _ in range(60):
        board = small_board(rng, rng.randint(9, 13))
        pos, S = random_position(rng, board, 3, 3)
        pos = dataclasses.replace(pos, rules=dataclasses.replace(pos.rules, log_length=24))
        seen.add(check_against_oracle(pos, S, 3))
    assert {"no", "win2", "win3"} <= seen


def test_running_out_of_tickets_is_no_escape():
    """Larger sparse maps, one or two detectives that may be far, Mr. X with two tickets or
    fewer of each kind: his escape walk (the bound) counts his tickets as the oracle does,
    who is trapped once he cannot move."""
    rng = random.Random(88)
    seen = set()
    for _ in range(60):
        board = small_board(rng, rng.randint(14, 18))
        pos, S = random_position(rng, board, rng.choice([1, 2]), 2)
        mt = Tickets(rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 2), 0)
        rules = dataclasses.replace(pos.rules, log_length=24, trapped_loses=True)
        pos = dataclasses.replace(pos, rules=rules, mrx_tickets=mt)
        seen.add(check_against_oracle(pos, S, 3))
    assert {"no", "win3"} <= seen


@pytest.mark.parametrize("seed", [6, 7])
def test_four_detectives_three_turns_agree_with_the_oracle(seed):
    """Four detectives on maps of 12-16 stations, Mr. X shown on the rulebook's moves: the
    bound that looks past his next move (detectives still to move anywhere within one move)
    against the plain search."""
    rng = random.Random(seed)
    seen = set()
    for _ in range(45):
        board = small_board(rng, rng.randint(12, 16))
        pos, S = random_position(rng, board, 4, 3)
        mt = Tickets(rng.randint(1, 4), rng.randint(1, 3), rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 1))
        rules = dataclasses.replace(pos.rules, log_length=24, reveal_moves=(3, 8, 13, 18, 24))
        pos = dataclasses.replace(pos, rules=rules, mrx_tickets=mt)
        seen.add(check_against_oracle(pos, S, 3))
    assert {"no", "win3"} <= seen


def test_london_agrees_with_the_oracle(london):
    rng = random.Random(11)
    seen = set()
    for _ in range(70):
        nd = rng.choice([2, 3])
        pos, S = random_position(rng, london, nd, 2)
        # close in: detectives within two hops of S; Mr. X with few kinds of ticket
        ring = stations_of(london.step_any(london.step_any(mask_of(S), DETECTIVE_TICKETS), DETECTIVE_TICKETS)
                           & ~mask_of(S))
        mt = Tickets(rng.randint(0, 3), rng.randint(0, 1), 0, rng.randint(0, 1), rng.randint(0, 1))
        pos = dataclasses.replace(pos, stations=tuple(rng.sample(ring, nd)), mrx_tickets=mt)
        seen.add(check_against_oracle(pos, S, rng.choice([1, 2, 2])))
    assert {"no", "win1"} <= seen


# ---- hand-made positions -----------------------------------------------------------------------------


def line_board() -> Board:
    """1 - 2 - 3 - 4 - 5 by taxi, and a bus 1 - 5."""
    conns = [Connection.of(a, a + 1, "taxi") for a in range(1, 5)] + [Connection.of(1, 5, "bus")]
    return Board.build("line", range(1, 6), conns)


def test_one_move_capture(london):
    # Mr. X is known to be at 83 (shown); Red at 101 takes a taxi onto him
    res = solve_puzzle(london, [83], [("Red", 101), ("Blue", 13)], turns=1)
    assert res.forced and res.turns == 1
    assert res.strategy is not None and res.strategy.end == "caught"
    assert res.first_moves == (Move.detective("Red", "taxi", 83),)


def test_a_trap_wins_and_only_where_the_rules_say_so():
    board = line_board()
    # Mr. X at 1 with taxi only: exits 2 (taxi).  Red from 3 takes 2: he is trapped
    mt = {"taxi": 2}
    res = solve_puzzle(board, [1], [("Red", 3), ("Blue", 5)], detective_tickets={"taxi": 2}, mrx_tickets=mt, turns=1)
    assert res.forced and res.strategy is not None and res.strategy.end == "trapped"
    pos, S = puzzle_position(board, [1], [("Red", 3), ("Blue", 5)], {"taxi": 2}, mt)
    verify(pos, S, res.strategy, 1)
    no_trap = dataclasses.replace(CLASSIC, trapped_loses=False)
    res2 = solve_puzzle(board, [1], [("Red", 3), ("Blue", 5)], {"taxi": 2}, mt, rules=no_trap, turns=1)
    assert res2.forced is False
    # ... but then he must pass, and Red steps onto him next turn
    res3 = solve_puzzle(board, [1], [("Red", 3), ("Blue", 5)], {"taxi": 2}, mt, rules=no_trap, turns=2)
    assert res3.forced and res3.turns == 2
    pos3, S3 = puzzle_position(board, [1], [("Red", 3), ("Blue", 5)], {"taxi": 2}, mt, rules=no_trap)
    assert oracle(pos3, frozenset(stations_of(S3)), 2)
    verify(pos3, S3, res3.strategy, 2)


@pytest.mark.parametrize("blocked", ["out", "waits"])
def test_a_double_move_escapes(blocked):
    # a triangle 1-2-4 with a tail 2-3 and a hub 4-5, 4-6, 4-7: Mr. X at 1, Red 5, Blue 7.  Blue
    # is stuck once Red stands on 4: out for good under blocked_detective: out, and he escapes
    # with a double move; under waits (classic) Blue moves to 4 once Red leaves it, and traps him
    rules = dataclasses.replace(CLASSIC, blocked_detective=blocked)
    edges = [(1, 2), (1, 4), (2, 3), (2, 4), (4, 5), (4, 6), (4, 7)]
    board = Board.build("hub", range(1, 8), [Connection.of(a, b, "taxi") for a, b in edges])
    dets = [("Red", 5), ("Blue", 7)]
    single = solve_puzzle(board, [1], dets, {"taxi": 3}, {"taxi": 4}, turns=2, rules=rules)
    assert single.forced and single.turns == 2
    double = solve_puzzle(board, [1], dets, {"taxi": 3}, {"taxi": 4, "double": 1}, turns=2, rules=rules)
    assert double.forced is (blocked == "waits")
    if blocked == "out":
        assert double.refutation is not None and double.refutation.reply is not None
        assert len(double.refutation.reply.tickets) == 2  # he escapes with a double move
    for res, mt in ((single, {"taxi": 4}), (double, {"taxi": 4, "double": 1})):
        pos, S = puzzle_position(board, [1], dets, {"taxi": 3}, mt, rules=rules)
        assert oracle(pos, frozenset(stations_of(S)), 2) == res.forced
        if res.forced:
            verify(pos, S, res.strategy, 2)


def test_a_reveal_in_the_middle(london):
    # Mr. X at 14 or 25 with taxis only; his next move (3) is a reveal move: the strategy
    # branches on the station he is shown at, and without the reveal there is no forced win
    dets = [("Red", 16), ("Blue", 51), ("Green", 24)]
    mt = {"taxi": 4}
    res = solve_puzzle(london, [14, 25], dets, mrx_tickets=mt, move_number=2, turns=2)
    assert res.forced and res.turns == 2 and res.strategy is not None
    shown = [r.shown for r in res.strategy.replies]
    assert all(len(s) == 1 and s[0] is not None for s in shown) and len(shown) >= 2
    pos, S = puzzle_position(london, [14, 25], dets, mrx_tickets=mt, move_number=2)
    verify(pos, S, res.strategy, 2)
    hidden = dataclasses.replace(CLASSIC, reveal_moves=())
    assert solve_puzzle(london, [14, 25], dets, mrx_tickets=mt, move_number=2, turns=2, rules=hidden).forced is False
    pos, S = puzzle_position(london, [14, 25], dets, mrx_tickets=mt, move_number=2, rules=hidden)
    assert oracle(pos, frozenset(stations_of(S)), 2) is False


def test_irrelevant_detectives_still_block():
    """A far detective's moves do not branch, but its station blocks: on a path 1..9 with Blue
    standing on 6, Red at 3 cannot use 6 and Mr. X at 5 cannot flee there."""
    board = Board.build("path", range(1, 10), [Connection.of(a, a + 1, "taxi") for a in range(1, 9)])
    res = solve_puzzle(board, [5], [("Red", 3), ("Blue", 6)], {"taxi": 3}, {"taxi": 4}, turns=2)
    pos, S = puzzle_position(board, [5], [("Red", 3), ("Blue", 6)], {"taxi": 3}, {"taxi": 4})
    assert res.forced == oracle(pos, frozenset(stations_of(S)), 2)


def test_tickets_handed_to_mrx_open_exits():
    """A detective far from Mr. X still matters through the ticket it hands him.  Mr. X at 1
    holds taxis only; Red 3 -T-> 2 traps him unless Blue (at 6, far away) rides the bus 6-8:
    that bus ticket passes to him and opens the bus 1-5."""
    board = Board.build("hook", range(1, 9), [Connection.of(a, a + 1, "taxi") for a in range(1, 7)]
                        + [Connection.of(1, 5, "bus"), Connection.of(6, 8, "bus")])
    dets = [("Red", 3), ("Blue", 6)]
    res = solve_puzzle(board, [1], dets, {"taxi": 2, "bus": 2}, {"taxi": 2}, turns=1)
    assert res.forced and res.strategy is not None and res.strategy.end == "trapped"
    assert all(m.tickets == (Ticket.TAXI,) for m in res.first_moves)
    pos, S = puzzle_position(board, [1], dets, {"taxi": 2, "bus": 2}, {"taxi": 2})
    verify(pos, S, res.strategy, 1)
    bus_only = dataclasses.replace(pos, tickets=(Tickets(taxi=2), Tickets(bus=2)))  # Blue must ride the bus
    assert oracle(bus_only, frozenset([1]), 1) is False
    assert solve(bus_only, S, 1).forced is False
    no_gift = dataclasses.replace(bus_only, rules=dataclasses.replace(CLASSIC, tickets_to_mrx=False))
    assert oracle(no_gift, frozenset([1]), 1) is True
    assert solve(no_gift, S, 1).forced is True


def test_limits_give_unknown(london):
    dets = [("Red", 102), ("Blue", 89), ("Green", 37), ("Yellow", 85), ("Black", 13)]
    res = solve_puzzle(london, [38], dets, move_number=3, turns=3, max_nodes=50)
    assert res.forced is None and res.status == "unknown" and res.limit == "nodes"
    assert res.to_dict()["forced"] is None


def test_bad_puzzle_input(london):
    with pytest.raises(InputError, match="--around"):
        solve_puzzle(london, [500], [("Red", 13)])
    with pytest.raises(InputError, match="both stand on 13"):
        solve_puzzle(london, [83], [("Red", 13), ("Blue", 13)])
    with pytest.raises(InputError, match="occupied"):
        solve_puzzle(london, [13], [("Red", 13)])
    with pytest.raises(InputError, match="--moves"):
        solve_puzzle(london, [83], [("Red", 13)], turns=0)


def test_json_shape(london):
    d = solve_puzzle(london, [83], [("Red", 101), ("Blue", 13)], turns=1).to_dict()
    assert {"forced", "turns", "status", "strategy", "nodes", "wall_time"} <= set(d)
    assert d["forced"] is True and d["turns"] == 1 and d["status"] == "proved"
    assert d["strategy"]["moves"] == [{"piece": "Red", "tickets": ["taxi"], "stations": [83]}]


def test_a_full_log_ends_the_game():
    """The game ends after the detectives' round that follows his last log entry: on a path
    with Mr. X at its end 9 and Red at 5, Red traps him in three turns, which a log of 5 moves
    (3 made) denies: the full log is checked before the trap."""
    board = Board.build("path", range(1, 10), [Connection.of(a, a + 1, "taxi") for a in range(1, 9)])
    long_log, short_log = Rules(log_length=24, reveal_moves=()), Rules(log_length=5, reveal_moves=())
    for rules, want in ((long_log, True), (short_log, False)):
        pos, S = puzzle_position(board, [9], [("Red", 5), ("Blue", 1)], {"taxi": 5}, {"taxi": 5}, move_number=3,
                                 rules=rules)
        res = solve(pos, S, 3)
        assert res.forced == oracle(pos, frozenset(stations_of(S)), 3)
        assert res.forced is want
        assert res.turns == (3 if want else None)


def test_far_detectives_do_not_branch(london):
    """A detective that cannot reach Mr. X's area in time, and whose tickets cannot matter to
    him, plays one representative move: adding one changes neither the verdict nor (much) the
    work, and the strategy it returns is still checked against every line of his play."""
    dets = [("Red", 185), ("Blue", 130), ("Green", 168)]
    mt = {"taxi": 4, "bus": 3, "underground": 3, "black": 0, "double": 0}
    base = solve_puzzle(london, [154], dets, mrx_tickets=mt, move_number=3)
    far = solve_puzzle(london, [154], dets + [("Yellow", 1)], mrx_tickets=mt, move_number=3)
    assert base.forced and far.forced and base.turns == far.turns == 2
    assert far.nodes <= 2 * base.nodes + 2
    assert far.strategy is not None and any(m.piece == "Yellow" for m in far.strategy.moves)
    pos, S = puzzle_position(london, [154], dets + [("Yellow", 1)], mrx_tickets=mt, move_number=3)
    verify(pos, S, far.strategy, 2)


def _record_case(board, rules, rng: random.Random):
    """A random game on ``board``, the detectives' record of it cut at a random place, solved
    within 1 or 2 turns and checked against :func:`shortest` (and its strategy replayed):
    ``(position, shortest win or None)``, or None when the cut game is over."""
    from sy_tools.errors import SyToolsError
    from sy_tools.formats.game_json import parse_record
    from sy_tools.selfplay.generate import detectives_view, random_game
    from sy_tools.solvers.forced import solve_inputs, solve_record

    doc = random_game(board, rules, random.Random(rng.getrandbits(32)), n_detectives=rng.choice([2, 3]),
                      mrx_start_candidates=board.start_decks["classic"])
    rec = parse_record(dict(detectives_view(doc, rules), map="london"))  # parsed against London, then swapped
    cands = tuple(sorted(set(doc["mrx"]["start_candidates"]) - {d["start"] for d in doc["detectives"]}))
    rec = dataclasses.replace(rec, board=board, rules=rules, start_candidates=cands)
    if not rec.rounds:
        return None
    r = rng.randrange(len(rec.rounds)) + 1
    cut = rec.truncated(r, rng.randint(0, len(rec.rounds[r - 1].detectives)))
    try:
        pos, S, _ = solve_inputs(cut)
    except SyToolsError:
        return None  # over (a capture) or trapped
    n = rng.choice([1, 2])
    res = solve_record(cut, n)
    want = shortest(pos, frozenset(stations_of(S)), n)
    assert res.forced == (want is not None) and res.turns == want
    if want is not None:
        verify(pos, S, res.strategy, want)
    return pos, want


def test_records_cut_anywhere_agree_with_the_oracle():
    """The record adapter: games on small maps cut after Mr. X's move, mid-round or after the
    round (who moves next, who is out, tickets passed on, double moves used) give the position
    the oracle sees too."""
    rng = random.Random(5)
    kinds = set()
    checked = 0
    while checked < 40 or (len(kinds) < 4 and checked < 200):
        board = small_board(rng, rng.randint(8, 12))
        rules = dataclasses.replace(CLASSIC, reveal_moves=(2, 5, 8), log_length=10)
        case = _record_case(board, rules, rng)
        if case is None:
            continue
        pos, want = case
        kinds.add(("mrx to move" if pos.turn == 0 else "detectives to move", want is not None))
        checked += 1
    assert len(kinds) == 4  # Mr. X or the detectives to move, with and without a forced win


# ---- the rule variants: the same oracle, the engine's moves under each ---------------------------


def _classic(pos: Position) -> Position:
    return dataclasses.replace(pos, rules=dataclasses.replace(pos.rules, cutoff_escape=False, voluntary_reveal=False,
                                                              mrx_onto_detective="illegal"))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_small_maps_agree_with_the_oracle_under_each_variant(variant):
    """Tiny maps (with made-up via data for the cut-off escape): the verdict, the shortest win
    and the replayed strategy agree with the plain search under the variant, and the variant
    changes the verdict somewhere (so a solver ignoring it would fail here)."""
    rng = random.Random({"caught": 3, "cutoff": 4, "reveal": 5}[variant])
    seen = set()
    differs = 0
    for _ in range(150 if variant != "reveal" else 60):
        board = small_board(rng, rng.randint(6, 10))
        if variant == "cutoff":
            board = via_board(rng, board)
        pos, S = random_position(rng, board, rng.choice([2, 3]), rng.choice([2, 3]), variant)
        n = rng.choice([1, 2, 2])
        got = check_against_oracle(pos, S, n)
        seen.add(got)
        if got != "over":
            plain = _classic(pos)
            differs += got != ("over" if plain.turn == 0 and plain.rules.trapped_loses and not any(
                plain.mrx_can_move_from(s) for s in S) else f"win{shortest(plain, S, n)}".replace("winNone", "no"))
    assert {"no", "win1", "win2"} <= seen
    assert differs >= 2, differs


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_three_turns_agree_with_the_oracle_under_each_variant(variant):
    rng = random.Random({"caught": 31, "cutoff": 32, "reveal": 33}[variant])
    seen = set()
    for _ in range(60):
        board = small_board(rng, rng.randint(6, 9))
        if variant == "cutoff":
            board = via_board(rng, board)
        pos, S = random_position(rng, board, 2, 2, variant)
        seen.add(check_against_oracle(pos, S, 3))
    assert {"no", "win3"} <= seen


def _london_via(london: Board) -> Board:
    """London with the rulebook's via data (153-140 over 154, 74-46 over 58 and 45) and more
    made up, so that closed hops are common near the positions below."""
    return via_board(random.Random(4), london, share=0.5)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_london_agrees_with_the_oracle_under_each_variant(london, variant):
    board = _london_via(london) if variant == "cutoff" else london
    rng = random.Random(21 + len(variant))
    seen = set()
    for _ in range(40):
        nd = rng.choice([2, 3])
        pos, S = random_position(rng, board, nd, rng.choice([1, 2]), variant)
        ring = board.step_any(mask_of(S), DETECTIVE_TICKETS)
        if rng.random() < 0.5:
            ring = board.step_any(ring, DETECTIVE_TICKETS)
        ring = stations_of(ring & ~mask_of(S))
        mt = Tickets(rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 1), 0, rng.randint(0, 1))
        pos = dataclasses.replace(pos, stations=tuple(rng.sample(ring, nd)), mrx_tickets=mt)
        seen.add(check_against_oracle(pos, S, rng.choice([1, 2, 2])))
    assert {"no", "win1"} <= seen


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_records_cut_anywhere_agree_with_the_oracle_under_each_variant(variant):
    """Random games under the variant on small maps (via data for the cut-off escape), the
    detectives' record (voluntary reveals kept: shown and took) cut anywhere: the record's
    position agrees with the oracle."""
    rng = random.Random(len(variant) * 7)
    checked = 0
    kinds = set()
    tries = 0
    while checked < 14 and tries < 300:
        tries += 1
        board = small_board(rng, rng.randint(8, 11))
        if variant == "cutoff":
            board = via_board(rng, board)
        rules = dataclasses.replace(CLASSIC, reveal_moves=(3, 6), log_length=8, **VARIANTS[variant])
        case = _record_case(board, rules, rng)
        if case is None:
            continue
        kinds.add(case[1] is not None)
        checked += 1
    assert checked >= 10 and kinds == {True, False}


def test_a_detective_on_a_via_station_closes_his_shuttle():
    """Under the cut-off escape a detective far from Mr. X still matters: Red (on a taxi path
    1-7) cannot reach him at 10, but standing on 5 closes the bus 11-12, which passes over 5.
    Mr. X (one taxi, two buses) goes 10 -T-> 11 -B-> 12 and is trapped there when Red is back
    on 5 after his third move (parity: not sooner).  Without the rule he shuttles for ever."""
    conns = [Connection.of(a, a + 1, "taxi") for a in range(1, 7)] + [Connection.of(10, 11, "taxi"),
                                                                     Connection.of(11, 12, "bus")]
    board = Board.build("shuttle", [1, 2, 3, 4, 5, 6, 7, 10, 11, 12], conns, via={(11, 12, "bus"): [5]})
    plain = Rules(reveal_moves=(), tickets_to_mrx=False)
    cut = dataclasses.replace(plain, cutoff_escape=True)
    for rules, want in ((plain, None), (cut, 3)):
        pos, S = puzzle_position(board, [10], [("Red", 4)], {"taxi": 10}, {"taxi": 1, "bus": 2}, rules=rules)
        res = solve(pos, S, 3)
        assert res.turns == want == shortest(pos, frozenset([10]), 3)
        if want:
            assert res.strategy is not None and res.strategy.moves[0].to in (3, 5)
            verify(pos, S, res.strategy, want)


def test_a_ticket_taken_by_a_voluntary_reveal_is_his_to_use():
    """With ``tickets_to_mrx`` the ticket a voluntary reveal takes is his from his next move on
    (the engine's push): in this generated position it is what keeps him from being trapped, so
    there is no forced win in 2 (a solver that drops the ticket finds one)."""
    rng = random.Random(109)
    board = small_board(rng, rng.randint(5, 8))
    pos, S = random_position(rng, board, 2, 2, "reveal")
    pos = dataclasses.replace(pos, rules=dataclasses.replace(pos.rules, tickets_to_mrx=True))
    assert shortest(pos, S, 2) is None
    assert solve(pos, S, 2).forced is False


# ---- the shared builders: one puzzle builder, one record reader, one double-move rule ---------------


def _puzzle_solvers():
    """Each solver's puzzle entry point, called with (board, around, detectives, **flags)."""
    from sy_tools.solvers import cordon
    from sy_tools.solvers.advise import advise_puzzle

    return {
        "solve": lambda b, around, dets, **kw: solve_puzzle(b, around, dets, turns=1, time_limit=5, **kw),
        "advise": lambda b, around, dets, **kw: advise_puzzle(b, around, None, dets, time_limit=1, **kw),
        "cordon": lambda b, around, dets, **kw: cordon.cordon_puzzle(b, around, dets, time_limit=5, **kw),
    }


@pytest.mark.parametrize("solver", ["solve", "advise", "cordon"])
@pytest.mark.parametrize("around, dets, where, message", [
    ([999], [("Red", 100)], "--around", "station 999 is not on the map"),
    ([83], [("Red", 999)], "--detectives", "Red: station 999 is not on the map"),
    ([83], [("Red", 100), ("Red", 101)], "--detectives", "detective 'Red' is named twice"),
    ([83], [("Red", 100), ("Blue", 100)], "--detectives", "Blue and Red both stand on 100"),
    ([83], [("Mr. X", 100)], "--detectives", "the name is Mr. X's"),
    ([100], [("Red", 100)], "--around", "every --around station is occupied by a detective"),
])
def test_puzzle_errors_are_the_same_through_every_solver(london, solver, around, dets, where, message):
    with pytest.raises(InputError) as e:
        _puzzle_solvers()[solver](london, around, dets)
    assert e.value.where == where and message in str(e.value)


@pytest.mark.parametrize("solver, where", [("solve", "--around"), ("advise", "--detectives"),
                                           ("cordon", "--around")])
def test_puzzle_errors_keep_each_solvers_order(london, solver, where):
    """Both flags wrong: solve and cordon name --around first, advise --detectives (as always)."""
    with pytest.raises(InputError) as e:
        _puzzle_solvers()[solver](london, [999], [("Red", 999)])
    assert e.value.where == where


@pytest.mark.parametrize("solver", ["solve", "advise"])
def test_puzzle_move_number_is_checked_where_it_places_the_position(london, solver):
    with pytest.raises(InputError, match="expected a move number from 0 to 23, got 24") as e:
        _puzzle_solvers()[solver](london, [83], [("Red", 100)], move_number=24)
    assert e.value.where == "--move-number"


@pytest.mark.parametrize("solver", ["solve", "advise"])
def test_puzzle_needs_detectives_except_for_the_cordons_size(london, solver):
    with pytest.raises(InputError, match="give the detectives") as e:
        _puzzle_solvers()[solver](london, [83], [])
    assert e.value.where == "--detectives"


def test_cordon_puzzle_takes_no_detectives_and_the_shared_move_number_bound(london):
    from sy_tools.solvers import cordon

    res = cordon.cordon_puzzle(london, [83, 83, 101], (), time_limit=5, move_number=23)
    assert res.cordon_size is not None and res.context == {"around": [83, 101]}
    with pytest.raises(InputError, match="expected a move number from 0 to 23, got 30"):  # as solve and advise
        cordon.cordon_puzzle(london, [83, 101], (), time_limit=5, move_number=30)


def test_puzzle_position_is_the_one_builder(london):
    from sy_tools.solvers import advise, forced, puzzles

    assert forced.puzzle_position is puzzles.puzzle_position
    pos, S = puzzles.puzzle_position(london, [83, 100], [("Red", 100)], move_number=0)
    assert (pos.turn, pos.mrx_at, pos.round, pos.move, S) == (1, None, 1, 0, mask_of([83]))
    pos, S = advise.advise_puzzle_position(london, [83, 84], 84, [("Red", 100)], "mrx", move_number=5)
    assert (pos.turn, pos.mrx_at, pos.round, pos.move, S) == (0, 84, 5, 5, mask_of([83, 84]))
    pos, _ = advise.advise_puzzle_position(london, [83, 84], 84, [("Red", 100)], "detectives")
    assert (pos.turn, pos.mrx_at) == (1, None)  # his station is never in a detectives' position
    with pytest.raises(InputError, match="needs his station") as e:
        advise.advise_puzzle_position(london, [83], None, [("Red", 100)], "mrx")
    assert e.value.where == "--at"
    for at, message in ((100, "Red is there"), (999, "not on the map"), (85, "not one of the --around")):
        with pytest.raises(InputError, match=message):
            advise.advise_puzzle_position(london, [83, 84], at, [("Red", 100)], "mrx")


def _record_readers():
    """Every solver's way into a record, each ending in the shared record_position."""
    from sy_tools.analysis.legal import legal_moves
    from sy_tools.solvers.advise import advise_record
    from sy_tools.solvers.cordon import cordon_inputs
    from sy_tools.solvers.forced import solve_inputs

    return {"moves": legal_moves, "solve": solve_inputs, "cordon": cordon_inputs,
            "advise": lambda rec: advise_record(rec, time_limit=1)}


@pytest.mark.parametrize("reader", ["moves", "solve", "cordon", "advise"])
@pytest.mark.parametrize("name, message", [("capture.json", "the game is over: detectives won: Yellow caught"),
                                           ("broken/wrong-ticket.json", "the record is illegal: "),
                                           ("broken/two-on-one-station.json", "the record is illegal: ")])
def test_records_are_read_the_same_by_every_solver(reader, name, message):

    from sy_tools.formats.record_io import load_record

    rec = load_record(str(REPO / "examples" / name))
    with pytest.raises(AnalysisError) as e:
        _record_readers()[reader](rec)
    assert str(e.value).startswith(message) or message in str(e.value)
    assert e.value.file == rec.file


def test_solve_inputs_hides_his_station_and_says_when():

    from sy_tools.analysis.record_position import record_position
    from sy_tools.formats.record_io import load_record
    from sy_tools.solvers.forced import solve_inputs

    rec = load_record(str(REPO / "examples" / "in-progress.json"))
    pos, S, ctx = solve_inputs(rec)
    full = record_position(rec)
    assert pos.mrx_at is None and pos.stations == full.stations and S
    assert ctx == {"round": full.round, "mrx_moves": full.move, "to_move": "mrx", "file": rec.file,
                   "when": full.when}


@pytest.mark.parametrize("per_round", [0, 1])
@pytest.mark.parametrize("per_game", [0, 1, 2, 3])
def test_the_search_counts_double_moves_by_the_engines_rule(per_round, per_game):
    """The horizon's double moves: as many as his tickets and the allowance leave, at most one
    per turn (what the search counted before it asked the engine)."""
    from sy_tools.solvers.forced_search import Search as _Search

    rules = dataclasses.replace(CLASSIC, double_moves_per_round=per_round, double_moves_per_game=per_game)
    pos, _ = puzzle_position(line_board(), [1], [("Red", 3)], {"taxi": 2}, {"taxi": 2}, rules=rules)
    search = _Search(pos, None, None, 100)
    for tickets in range(4):
        for used in range(4):
            for turns in range(4):
                left = max(0, min(tickets, per_game - used)) if per_round >= 1 else 0
                got = search.doubles_within(Tickets.of({"double": tickets}), used, turns)
                assert got == min(turns, left), (tickets, used, turns)


def test_matching_of_stations_to_detectives_agrees_with_trying_every_assignment():
    """The bounds' matching (each station its own detective): Hall's condition for up to three
    stations, a set-of-sets walk beyond, against every assignment of distinct detectives."""
    import itertools

    from sy_tools.solvers.forced_search import _matchable

    rng = random.Random(5)
    seen = {True: 0, False: 0}
    for _ in range(3000):
        n = rng.randint(1, 6)
        stations = rng.sample(range(1, 9), rng.randint(0, min(n + 1, 7)))
        lands = [mask_of(rng.sample(range(1, 9), rng.randint(0, 4))) for _ in range(n)]
        want = any(all(lands[j] >> s & 1 for s, j in zip(stations, perm))
                   for perm in itertools.permutations(range(n), len(stations))) if len(stations) <= n else False
        assert _matchable(stations, lands) is want, (stations, [stations_of(m) for m in lands])
        seen[want] += 1
    assert min(seen.values()) > 500  # both answers well represented


def test_the_matching_cache_stays_within_the_table_size(london, monkeypatch):
    """Memory is bounded: the station-to-detective matchings, which fill far faster than the
    transposition table, are forgotten once they reach ``table_size``; the verdict holds."""
    from sy_tools.solvers import forced_search

    seen: list[int] = []
    real = forced_search.Search._musts

    def musts(self, *args, **kwargs):
        got = real(self, *args, **kwargs)
        seen.append(len(self.cover_cache))
        return got

    monkeypatch.setattr(forced_search.Search, "_musts", musts)
    dets = [("Red", 102), ("Blue", 89), ("Green", 37), ("Yellow", 85), ("Black", 13)]
    pos, S = puzzle_position(london, [38], dets, move_number=3)
    big = solve(pos, S, 3, 60)
    assert max(seen) > 200  # (else this puzzle tests nothing)
    seen.clear()
    small = solve(pos, S, 3, 60, table_size=50)
    assert small.forced is big.forced is False and small.status == big.status == "proved"
    assert max(seen) <= 50
