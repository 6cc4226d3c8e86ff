"""A detective that cannot move (``blocked_detective``) and Mr. X's pass, against the plain
referee and the route oracle of tests/oracles.py, on generated games under every preset with
both values of ``blocked_detective`` and of ``trapped_loses`` (docs/rules.md: "A detective that
cannot move: blocked_detective", "How a game ends" and "`Position`: the engine from Python"):

* the engine at every ply: the legal moves, who is out, and why a detective cannot move
  (``Position.stuck`` / ``stuck_reason``: no ticket for a line from its station, or blocked by
  whom; out for good or waiting);
* ``check`` on each game's full record and detectives' view (legal, the same outcome), and on
  a pass put where Mr. X could move: refused under ``trapped_loses``, and otherwise unless some
  station he may be at leaves him no move;
* ``possible`` on the views against the route oracle, where a pass keeps the stations with no
  move;
* ``simulate``'s and the environment's possible set after a pass is the possible-set filter's;
* the random playout and the batch's legality test, which keep their own tables, follow the
  engine;
* a rules file takes, refuses and writes the field.
"""

from __future__ import annotations

import json
import random
import sys
import types
from collections import Counter

import pytest
from helpers import small_board
from oracles import NAMES, Plain, compare_with_oracle, oracle_routes, trapped_at

from sy_tools.analysis.referee import check
from sy_tools.analysis.tracker import trace
from sy_tools.engine.hops import MRX
from sy_tools.engine.moves import Move
from sy_tools.engine.position import Position
from sy_tools.engine.rules import PRESETS, rules_from_json
from sy_tools.engine.tickets import Ticket
from sy_tools.formats.game_json import parse_record

#: every preset, with each value of the two rules under test
RULE_SETS = [(p, b, t) for p in PRESETS for b in ("waits", "out") for t in (True, False)]


def _overrides(preset: str, blocked: str, trapped_loses: bool, rng: random.Random) -> dict:
    """The rules of a generated game: the preset with the two fields, and in half the games
    fewer detective tickets (so that some detective is left with none for its station)."""
    over = {"preset": preset, "blocked_detective": blocked, "trapped_loses": trapped_loses}
    if rng.random() < 0.5:
        over["detective_tickets"] = {"taxi": rng.randint(1, 4), "bus": rng.randint(0, 3),
                                     "underground": rng.randint(0, 2)}
    return over


def _shape(moves) -> set:
    return {(tuple(t.value for t in m.tickets), tuple(m.stations)) for m in moves}


def _check_stuck(pos: Position, plain: Plain, name: str) -> str | None:
    """``pos.stuck(name)`` against the plain game: None when it can move; else the detectives on
    the stations its tickets reach (empty: none reaches a line), out for good or waiting as the
    rule says.  Returns its reason (None when it can move)."""
    why = pos.stuck(name)
    if name not in plain.out and plain.det_moves(name):
        assert why is None and pos.stuck_reason(name) is None
        return None
    here = plain.pos[name]
    reach = {d for t in ("taxi", "bus", "underground") if plain.tk[name][t] > 0 for d in plain.adj.get((here, t), ())}
    assert why is not None
    assert why.blockers == tuple((n, s) for n, s in plain.pos.items() if n != name and s in reach)
    assert why.out == (name in plain.out or plain.rules.blocked_detective == "out" or not reach)
    reason = "out-earlier" if name in plain.out and plain.det_moves(name) else "blocked" if reach else "no-ticket"
    assert why.reason == reason and why.station == here
    text = pos.stuck_reason(name)
    assert text == why.describe() and text.startswith(name)
    assert ("it waits" in text) is (not why.out)
    if reason == "blocked":
        assert all(f"{n} ({s})" in text for n, s in why.blockers)
    return reason


def _record(board, over, starts, x0, log) -> dict:
    """The full game.json of a played log: every station of Mr. X, a pass as an empty list, the
    capture marked."""
    rounds: list[dict] = []
    for piece, tickets, stations, caught in log:
        if piece == MRX:
            rounds.append({"mrx": [{"ticket": t, "to": s} for t, s in zip(tickets, stations)], "detectives": []})
        else:
            entry = {"name": piece, "ticket": tickets[0], "to": stations[0]}
            rounds[-1]["detectives"].append({**entry, "capture": True} if caught else entry)
    return {"map": board.name, "rules": over, "detectives": [{"name": n, "start": s} for n, s in zip(NAMES, starts)],
            "mrx": {"start_candidates": "any", "start": x0}, "rounds": rounds}


def _view(doc: dict, rules) -> dict:
    """The detectives' record of the same game: no start, stations on the reveal moves only."""
    rounds, n = [], 0
    for rnd in doc["rounds"]:
        xs = []
        for m in rnd["mrx"]:
            n += 1
            xs.append(m if rules.is_reveal(n) else {"ticket": m["ticket"]})
        rounds.append({"mrx": xs, "detectives": rnd["detectives"]})
    return {**doc, "mrx": {"start_candidates": "any"}, "rounds": rounds}


class _Played:
    """One generated game: the board, rules, record, the Mr. X turns it passed through and what
    happened to the detectives."""

    def __init__(self, board, over, rules, doc, turns, events):
        self.board, self.over, self.rules, self.doc, self.turns, self.events = board, over, rules, doc, turns, events


def _play(rng: random.Random, preset: str, blocked: str, trapped_loses: bool) -> _Played | None:
    """A game on a small crowded map played by the plain referee, the engine beside it checked
    at every ply (legal moves, who is out, why each detective cannot move).  None when Mr. X
    has no move at the start under rules that end the game there."""
    board = small_board(rng, rng.randint(8, 12))
    over = _overrides(preset, blocked, trapped_loses, rng)
    rules = rules_from_json(over)
    k = rng.randint(3, 5)
    stations = rng.sample(board.stations, k + 1)
    plain = Plain(board, rules, stations[:k], stations[k])
    if rules.trapped_loses and not plain.x_moves():
        return None
    pos = Position.start(board, rules, list(zip(NAMES, stations[:k])), mrx_at=stations[k])
    log, turns = [], []
    events: Counter[str] = Counter()
    waiting: set[str] = set()
    while plain.turn is not None:
        assert pos.to_move == plain.turn
        legal = plain.legal()
        assert _shape(pos.legal_moves) == legal
        assert pos.out == plain.out
        for name in plain.names:
            events[f"reason-{_check_stuck(pos, plain, name)}"] += 1
        if plain.turn == MRX:  # (the record's round, the detectives, his tickets and moves, his options)
            turns.append((sum(p[0] == MRX for p in log), dict(plain.pos), Counter(plain.xt), plain.moves, legal))
        mover = plain.turn
        tickets, stations_ = rng.choice(sorted(legal))
        out_before = set(plain.out)
        plain.play(tickets, stations_)
        pos = pos.push(Move(mover, tuple(map(Ticket, tickets)), stations_))
        log.append((mover, tickets, stations_, plain.result == "capture"))
        if mover == MRX:
            events["pass" if not tickets else "mrx-move"] += 1
        elif mover in waiting:
            events["moved-after-waiting"] += 1  # (waits: it moves again once a move opens up)
            waiting.discard(mover)
        start = 0 if mover == MRX else plain.names.index(mover) + 1
        end = plain.names.index(plain.turn) if plain.turn in plain.names else len(plain.names)
        for name in plain.names[start:end] if plain.result != "capture" else ():  # the ones passed over
            if name in plain.out - out_before:
                events["out-" + ("blocked" if plain.rides(name) else "no-ticket")] += 1
            elif name not in plain.out:
                events["waited"] += 1
                waiting.add(name)
    assert pos.outcome.kind.value == plain.result
    events[f"result-{plain.result}"] += 1
    return _Played(board, over, rules, _record(board, over, stations[:k], stations[k], log), turns, events)


def _games(per_set: int, seed: int):
    rng = random.Random(seed)
    for preset, blocked, trapped_loses in RULE_SETS:
        made = 0
        while made < per_set:
            game = _play(rng, preset, blocked, trapped_loses)
            if game is not None:
                made += 1
                yield (preset, blocked, trapped_loses), game


def _parsed(doc: dict, board):
    """The record of a game.json document on ``board`` (read as from a file)."""
    return parse_record(json.loads(json.dumps(doc)), board=board)


def _errors(doc: dict, board) -> list[tuple[str, str]]:
    return [(p.code, p.where) for p in check(_parsed(doc, board)).errors]


def test_the_engine_and_check_follow_the_plain_referee_on_stuck_detectives():
    """Every ply of 60 games per preset and rule values: legal moves, who is out and why a
    detective cannot move are the plain game's; the full record and the detectives' view are
    legal with its outcome.  A blocked detective waits and moves again (waits), or is out
    (out); one with no ticket for its station is out under both."""
    seen: dict[str, Counter[str]] = {"waits": Counter(), "out": Counter()}
    for (preset, blocked, _), game in _games(60, 39):
        seen[blocked].update(game.events)
        rec = _parsed(game.doc, game.board)
        full = check(rec)
        assert full.legal, (preset, blocked, [p.line(None) for p in full.problems])
        result = next(k[7:] for k in game.events if k.startswith("result-"))
        assert full.status.kind.value == result
        view = check(_parsed(_view(game.doc, game.rules), game.board))
        assert view.legal, (preset, blocked, [p.line(None) for p in view.problems])
        if result != "trapped":  # (with his station unknown, a trap shows only where every station is one)
            assert view.status == full.status
    waits, out = seen["waits"], seen["out"]
    assert waits["moved-after-waiting"] > 20 and waits["out-blocked"] == 0 and waits["out-no-ticket"] > 5, waits
    assert out["out-blocked"] > 20 and out["waited"] == 0 and out["moved-after-waiting"] == 0, out
    for c in (waits, out):
        assert min(c["reason-blocked"], c["reason-no-ticket"], c["pass"], c["result-detectives-stuck"]) > 5, c
    assert out["reason-out-earlier"] > 5, out


def _forward_set(board, doc: dict, n_rounds: int) -> set[int]:
    """Where the detectives may think him at his turn of round ``n_rounds + 1`` (the route
    oracle on the view of the rounds before)."""
    rec = _parsed({**doc, "rounds": doc["rounds"][:n_rounds]}, board)
    routes = oracle_routes(rec, 200_000)
    assert routes is not None
    return {r[-1] for r in routes}


def test_a_pass_is_refused_where_mrx_loses_and_where_he_could_move():
    """A pass put in place of a Mr. X move he could have made, the record cut right after it:
    `check` refuses it on the full record (mrx-pass: he had a move, or trapped_loses forbids
    passing), and on the detectives' view unless trapped_loses is false and some station the
    oracle leaves him has no move (then the pass is his, and possible keeps those stations)."""
    kinds: Counter[str] = Counter()
    rng = random.Random(7)
    for (_preset, _blocked, trapped_loses), game in _games(12, 40):
        moves = [t for t in game.turns if t[4] != {((), ())}]
        for r, dets, xt, n, _legal in rng.sample(moves, min(3, len(moves))):
            cut = {**game.doc, "rounds": game.doc["rounds"][:r] + [{"mrx": [], "detectives": []}]}
            where = ("mrx-pass", f"rounds[{r}].mrx")
            assert where in _errors(cut, game.board)
            view = _view(cut, game.rules)
            g = game.board.to_networkx()
            occ = set(dets.values())
            could_pass = any(trapped_at(g, game.board, game.rules, s, occ, xt, n)
                             for s in _forward_set(game.board, view, r))
            refused = where in _errors(view, game.board)
            assert refused is (trapped_loses or not could_pass), (trapped_loses, could_pass)
            kinds[f"{trapped_loses}-{refused}"] += 1
            if not refused:
                assert compare_with_oracle(_parsed(view, game.board))
    assert kinds["True-True"] > 40 and kinds["False-True"] > 20 and kinds["False-False"] > 10, kinds


def test_possible_keeps_after_a_pass_the_stations_where_he_had_no_move():
    """The detectives' views of games with passes (trapped_loses false, every preset and value
    of blocked_detective), cut after each pass and at the end: possible's set, history and route
    counts are the route oracle's, which keeps after a pass only the stations where he had no
    move; in many of them that drops stations the set held before the pass."""
    compared = narrowed = 0
    for (_preset, _blocked, trapped_loses), game in _games(40, 41):
        passes = [r for r, rnd in enumerate(game.doc["rounds"]) if not rnd["mrx"]]
        if trapped_loses or not passes:
            continue
        view = _view(game.doc, game.rules)
        for end in sorted({r + 1 for r in passes} | {len(view["rounds"])}):
            cut = {**view, "rounds": view["rounds"][:end]}
            compared += compare_with_oracle(_parsed(cut, game.board))
        for r in passes:
            if _forward_set(game.board, view, r) != _forward_set(game.board, {**view, "rounds": view["rounds"][:r] + [
                    {"mrx": [], "detectives": []}]}, r + 1):
                narrowed += 1
    assert compared > 40 and narrowed > 15, (compared, narrowed)


def test_simulate_sees_a_pass_as_the_possible_set_filter_does(london):
    """simulate's detectives are handed, after a pass, the stations where he had no move, as the
    possible-set filter has them for the record so far (Mr. X short of tickets, so that he is
    often left with a bus ticket alone, with no move away from the bus stations)."""
    from sy_tools.selfplay.game import GameSpec
    from sy_tools.selfplay.runner import simulate

    asked: dict[int, list[tuple[int, str, int]]] = {}  # one list per game (its memo)
    alive: list[object] = []  # each game's memo held, so that no later game's memo reuses its id

    def det(obs, rng):
        if id(obs.memo) not in asked:
            alive.append(obs.memo)
        asked.setdefault(id(obs.memo), []).append((obs.round, obs.to_move, obs.possible))
        return obs.legal_moves[int(rng.random() * len(obs.legal_moves))]

    mod = types.ModuleType("sy_test_pass_spy")
    mod.det = det  # type: ignore[attr-defined]
    sys.modules["sy_test_pass_spy"] = mod
    checked = after_pass = 0
    try:
        for preset in PRESETS:
            for blocked in ("waits", "out"):
                rules = rules_from_json({"preset": preset, "trapped_loses": False, "tickets_to_mrx": False,
                                         "blocked_detective": blocked,
                                         "mrx_tickets": {"taxi": 2, "bus": 4, "underground": 0, "black": 0,
                                                         "double": 0}})
                spec = GameSpec(rules=rules, detectives=3, detective_policy="sy_test_pass_spy:det", seed=5,
                                records=True)
                asked.clear()
                alive.clear()
                games = simulate(spec, 6, jobs=1).games
                assert len(asked) == len(games)
                for g, calls in zip(games, asked.values()):
                    rec = parse_record(g.record)
                    for rnd, name, possible in calls:
                        j = [d.name for d in rec.rounds[rnd - 1].detectives].index(name)
                        assert possible == trace(rec.truncated(rnd, j)).current, (rnd, name)
                        checked += 1
                        after_pass += not rec.rounds[rnd - 1].mrx
    finally:
        del sys.modules["sy_test_pass_spy"]
    assert checked > 500 and after_pass > 300, (checked, after_pass)


def test_a_rules_file_takes_and_refuses_blocked_detective(cli, tmp_path):
    """A rules file (and a record's rules, and the notation) takes `blocked_detective: out`,
    refuses any other word with one line naming the file, place, value and the words expected;
    `sy-tools rules` prints it, and what it prints reads back (docs/rules.md)."""
    from sy_tools.formats.rules_file import load_rules

    shown = cli("rules", "classic", "--format", "json")
    assert json.loads(shown.stdout)["blocked_detective"] == "waits"
    assert "blocked_detective       waits" in cli("rules", "2014").stdout
    f = tmp_path / "r.json"
    f.write_text(json.dumps({**json.loads(shown.stdout), "blocked_detective": "out"}))
    rules = load_rules(str(f))
    assert rules.blocked_detective == "out" and rules.to_record() == {"preset": "classic", "blocked_detective": "out"}
    assert rules_from_json(rules.to_record()) == rules
    f.write_text(json.dumps({"preset": "classic", "blocked_detective": "sometimes"}))
    r = cli("simulate", "-n", "1", "--rules", str(f))
    assert r.exit_code == 2
    assert r.stderr.strip().splitlines() == [
        f"error: {f}: rules.blocked_detective: expected one of waits, out, got 'sometimes'"]
    text = "rule blocked_detective out\nX: T\nRed 13: T 14\n"
    g = tmp_path / "g.txt"
    g.write_text(text)
    r = cli("check", str(g), "--format", "json")
    assert r.exit_code == 0, r.output
    from sy_tools import load_record

    assert load_record(g).rules.blocked_detective == "out"


def test_the_random_playout_and_the_batch_follow_the_engine_on_stuck_detectives():
    """The fast paths that keep their own tables follow blocked_detective as the engine does:
    the random playout makes exactly the moves of the reference loop over Position (the same
    draws) and ends where it does; the batch's cheap legality test vouches for every generated
    record without a pass (full and detectives' view; it leaves passes to the general path) and
    gives the possible-set filter's final state."""
    from sy_tools.analysis.tracker import final_state_of_parts
    from sy_tools.analysis.vouch import vouched_final_state
    from sy_tools.engine.playout import random_playout
    from sy_tools.engine.position import draw

    rng = random.Random(43)
    waited = 0
    for (_preset, blocked, _), game in _games(15, 42):
        x0, dets = game.doc["mrx"]["start"], [(d["name"], d["start"]) for d in game.doc["detectives"]]
        start = Position.start(game.board, game.rules, dets, mrx_at=x0)
        seed = rng.getrandbits(32)
        fast = random_playout(start, random.Random(seed))
        pos, draws, moves = start, random.Random(seed), []
        while not pos.is_over():
            n = len(pos.legal_moves)
            if n == 0:
                pos = pos.declare_trapped(pos.mrx_at)
                continue
            moves.append(pos.legal_moves[draw(draws, n)])
            waited += blocked == "waits" and any(pos.stuck(m) is not None and m not in pos.out for m in pos.names)
            pos = pos.push(moves[-1])
        assert fast.to_moves() == moves and fast.final.ended == pos.ended and fast.final.out == pos.out
        if any(not rnd["mrx"] for rnd in game.doc["rounds"]):
            continue
        for doc in (game.doc, _view(game.doc, game.rules)):
            rec = _parsed(doc, game.board)
            parts = (rec.board, rec.rules, rec.detectives, [d.tickets for d in rec.detectives], rec.mrx_tickets,
                     rec.mrx_start, rec.start_candidates, rec.rounds, lambda: pytest.fail("no trace needed"))
            got = vouched_final_state(*parts)
            assert got is not None and got == final_state_of_parts(*parts[:2], rec.detectives, rec.start_candidates,
                                                                   rec.rounds, parts[-1])
    assert waited > 20, waited


def test_the_env_sees_a_pass_as_the_possible_set_filter_does():
    """The environment's public possible set after every step is the possible-set filter's on
    its record so far, passes included (the rules of the simulate test above; small maps and
    London, every preset and value of blocked_detective)."""
    import numpy as np

    from sy_tools.env import ScotlandYardEnv
    from sy_tools.formats.map_load import load_board

    rng = random.Random(44)
    london = load_board("london")
    checked = after_pass = 0
    for preset in PRESETS:
        for blocked in ("waits", "out"):
            over = {"preset": preset, "trapped_loses": False, "tickets_to_mrx": False, "blocked_detective": blocked,
                    "mrx_tickets": {"taxi": 2, "bus": 4, "underground": 0, "black": 0, "double": 0}}
            small = {**over, "mrx_deck": "classic", "detective_deck": "classic"}  # (a small map's one deck)
            for i in range(4):
                board = london if i % 2 else small_board(rng)
                env = ScotlandYardEnv(rules=rules_from_json(over if i % 2 else small), map=board, detectives=3)
                env.reset(seed=i)
                for _agent in env.agent_iter():
                    obs, _, terminated, truncated, _ = env.last()
                    if terminated or truncated:
                        env.step(None)
                        continue
                    actions = np.flatnonzero(obs["action_mask"])
                    env.step(int(actions[int(rng.random() * len(actions))]))
                    tr = trace(env.record())
                    if tr.capture is None:
                        assert tr.current == env.public_state().possible
                        checked += 1
                        after_pass += not env.record().rounds[-1].mrx
    assert checked > 300 and after_pass > 100, (checked, after_pass)


def test_the_tree_search_sim_follows_the_engine_on_stuck_detectives():
    """The tree search's own game state (selfplay.mcts) keeps the turn, who is out and the end
    as the engine does over every generated game's moves (its horizon out of the way; it makes
    Mr. X's passes itself)."""
    import sy_tools.selfplay.mcts as mcts
    from sy_tools.engine.tickets import MRX_MOVE_TICKETS

    index = {t.value: i for i, t in enumerate(MRX_MOVE_TICKETS)}
    PASS = Move(MRX, (), ())
    stepped = 0
    for _, game in _games(30, 45):
        dets = [(d["name"], d["start"]) for d in game.doc["detectives"]]
        pos = Position.start(game.board, game.rules, dets, mrx_at=game.doc["mrx"]["start"])
        search = mcts._Search(game.board, game.rules, random.Random(1), 10**9)
        s = mcts._Sim()
        s.at = s.phantom = pos.mrx_at
        s.st, s.tk = list(pos.stations), [[t.taxi, t.bus, t.underground] for t in pos.tickets]
        x = pos.mrx_tickets
        s.xt, s.out, s.occ = [x.taxi, x.bus, x.underground, x.black, x.double], [False] * len(dets), pos.occupied
        s.move, s.rnd, s.doubles, s.turn, s.over, s.catcher, s.value = 0, 0, 0, 0, False, -1, 0.0
        for rnd in game.doc["rounds"]:
            legs = [(m["ticket"], m["to"]) for m in rnd["mrx"]]
            pos = pos.push(Move(MRX, tuple(Ticket(t) for t, _ in legs), tuple(d for _, d in legs)))
            if legs:
                search.play_mrx(s, tuple((index[t], d) for t, d in legs))
            elif s.turn == 0:  # (it passes for him at a round's end: at the start, as it would then)
                s.rnd, s.turn = s.rnd + 1, 1
                search._next_detective(s)
            for m in rnd["detectives"]:
                i = pos.names.index(m["name"])
                pos = pos.push(Move.detective(m["name"], m["ticket"], m["to"]))
                search.play_detective(s, i, (index[m["ticket"]], m["to"]))
                stepped += 1
                now = pos.push(PASS) if pos.turn == 0 and pos.legal_moves() == [PASS] else pos  # (as the sim)
                assert s.over == (now.ended is not None)
                if not s.over:
                    assert s.out == [n in now.out for n in now.names] and s.turn == now.turn
    assert stepped > 1000, stepped


def test_stuck_names_the_detectives_for_an_unknown_name(london):
    """Position.stuck of a name that is no detective of the game: one line naming them."""
    pos = Position.start(london, "classic", [("Red", 13), ("Blue", 26)], mrx_at=1)
    with pytest.raises(ValueError, match=r"^no detective 'Green' in this game \(its detectives: Red, Blue\)$"):
        pos.stuck("Green")
