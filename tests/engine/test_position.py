"""The rules engine against a plain, independent referee written here from docs/rules.md (dicts,
sets and Counters over the map's connection list, nothing from sy_tools but the map), on random
games under varied rules: at every ply the same legal moves, tickets, turn and outcome; and
`sy-tools moves` / `check --format json` on records cut from those games agree with it."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from oracles import NAMES, RIDES, Plain

from sy_tools.engine.hops import MRX
from sy_tools.engine.moves import Move, OutcomeKind
from sy_tools.engine.position import Position
from sy_tools.engine.rules import PRESETS
from sy_tools.engine.tickets import Ticket, Tickets


def _rules(rng):
    r = PRESETS[rng.choice(["classic", "2014"])]
    changes = rng.choice([{}, {"double_moves_per_round": 0}, {"tickets_to_mrx": False}, {"trapped_loses": False},
                          {"log_length": rng.randint(4, 12)}, {"double_moves_per_game": 1},
                          {"detective_tickets": {"taxi": 3, "bus": 2, "underground": 1}},
                          {"mrx_tickets": {"taxi": 2, "bus": 1, "underground": 1, "black": 1, "double": 2}},
                          {"mrx_onto_detective": "caught"}, {"cutoff_escape": True},
                          {"cutoff_escape": True, "mrx_onto_detective": "caught"}, {"voluntary_reveal": True},
                          {"voluntary_reveal": True, "tickets_to_mrx": False}])
    return replace(r, **changes)


def _shape(moves):
    return {(tuple(t.value for t in m.tickets), tuple(m.stations)) for m in moves}


def _random_games(board, n, seed):
    """(rules, starts, mrx start, [(tickets, stations), ...]) played by the oracle."""
    rng = random.Random(seed)
    for _ in range(n):
        rules = _rules(rng)
        k = rng.randint(1, 5)
        stations = rng.sample(board.stations, k + 1)
        plain = Plain(board, rules, stations[:k], stations[k])
        pos = Position.start(board, rules, list(zip(NAMES, stations[:k])), mrx_at=stations[k])
        if rules.trapped_loses and not plain.x_moves():
            continue
        yield rules, plain, pos, rng


def _with_via(board, via):
    from sy_tools.engine.board import Board

    return Board.build(board.name, board.stations, board.connections, board.coords, board.start_decks, via)


#: The rulebook's examples (Chinese text): underground 153-140 passes over 154; 74-46 over 58
#: and 45.  Plus made-up via data on busy lines, so random games meet closed connections often.
RULEBOOK_VIA = {(140, 153, "underground"): [154], (46, 74, "underground"): [58, 45]}
MADE_UP_VIA = {(1, 46, "underground"): [9, 20], (13, 46, "underground"): [24], (13, 89, "underground"): [55],
               (67, 89, "underground"): [68], (79, 111, "underground"): [93], (89, 140, "underground"): [105],
               (13, 52, "bus"): [23], (14, 52, "bus"): [25], (15, 41, "bus"): [28], (67, 102, "bus"): [84]}


def test_cutoff_escape_rulebook_examples(london):
    board = _with_via(london, RULEBOOK_VIA)
    cut = replace(PRESETS["classic"], cutoff_escape=True)
    for rules, closed in ((PRESETS["classic"], False), (cut, True)):
        pos = Position.start(board, rules, [("Red", 154)], mrx_at=153)
        assert ((Move.mrx(("underground", 140)) in pos.legal_moves) is not closed)
        if closed:
            assert [p.code for p in pos.problems(Move.mrx(("underground", 140)))] == ["mrx-cutoff"]
        # black on the same line is cut off too; the 153-154 taxi hop is still his (not onto Red)
        assert (Move.mrx(("black", 140)) in pos.legal_moves) is not closed
        for blocker in (58, 45):
            pos = Position.start(board, rules, [("Red", blocker)], mrx_at=74)
            assert (Move.mrx(("underground", 46)) in pos.legal_moves) is not closed
    # a detective elsewhere closes nothing
    assert Move.mrx(("underground", 140)) in Position.start(board, cut, [("Red", 13)], mrx_at=153).legal_moves


def test_engine_matches_the_plain_referee_at_every_ply(london):
    london = _with_via(london, {**RULEBOOK_VIA, **MADE_UP_VIA})
    plies = games = 0
    seen: Counter[str] = Counter()
    for _rules, plain, pos, rng in _random_games(london, 150, 7):
        games += 1
        while plain.turn is not None:
            assert pos.to_move == plain.turn
            legal = plain.legal()
            engine = list(pos.legal_moves)
            assert _shape(m for m in engine if m.took is None) == legal
            if plain.turn == MRX:
                assert {(tuple(t.value for t in m.tickets), m.stations, m.shown, m.took[0], m.took[1].value)
                        for m in engine if m.took is not None} == plain.voluntary()
            assert pos.ticket_table()[MRX] == {k: plain.xt[k] for k in ("taxi", "bus", "underground", "black",
                                                                          "double")}
            for n in plain.names:
                assert pos.ticket_table()[n] == {k: plain.tk[n][k] for k in ("taxi", "bus", "underground")}
            assert pos.out == plain.out
            took = None
            if plain.turn == MRX and plain.voluntary() and rng.random() < 0.2:
                tickets, stations, h, name, t = rng.choice(sorted(plain.voluntary()))
                took = (name, t)
                move = Move(MRX, tuple(map(Ticket, tickets)), stations, h, (name, Ticket(t)))
            else:
                tickets, stations = rng.choice(sorted(legal))
                move = Move(plain.turn, tuple(map(Ticket, tickets)), stations)
            assert pos.is_legal(move)
            plain.play(tickets, stations, took)
            pos = pos.push(move)
            plies += 1
        assert pos.outcome.kind.value == plain.result
        seen[plain.result] += 1
    assert plies > 3000 and games > 100
    assert set(seen) == {"capture", "log-full", "detectives-stuck"} or len(seen) == 4, seen


def test_illegal_moves_are_named(london):
    pos = Position.start(london, PRESETS["classic"], [("Red", 13), ("Blue", 46)], mrx_at=1)
    codes = lambda m: [p.code for p in pos.problems(m)]  # noqa: E731
    assert codes(Move.mrx(("taxi", 8))) == []
    assert codes(Move.mrx(("bus", 8))) == ["mrx-connection"]
    assert codes(Move.mrx(("underground", 46))) == ["mrx-onto-detective"]
    assert codes(Move.detective("Red", "taxi", 23)) == ["turn"]
    no_black = pos._with(mrx_tickets=Tickets(taxi=4, double=0))
    assert codes(Move.mrx(("black", 8))) == []
    assert [p.code for p in no_black.problems(Move.mrx(("black", 8)))] == ["mrx-ticket"]
    assert [p.code for p in no_black.problems(Move.mrx(("taxi", 8), ("taxi", 1)))] == ["double-allowance"]
    ferry = Position.start(london, PRESETS["classic"], [("Red", 13)], mrx_at=194)
    assert [p.code for p in ferry.problems(Move.mrx(("taxi", 157)))] == ["mrx-ferry"]
    assert ferry.is_legal(Move.mrx(("black", 157)))


def test_trapped_mrx_passes_only_where_the_rules_say(london):
    # 194's exits: taxi 192, 193, 195 and the ferry to 157; detectives on all three taxi stops, no black
    tk = {"taxi": 4, "bus": 0, "underground": 0, "black": 0, "double": 0}
    dets = [("Red", 192), ("Blue", 193), ("Green", 195)]
    loses = Position.start(london, PRESETS["classic"], dets, mrx_at=194, mrx_tickets=tk)
    assert not loses.legal_moves and len(loses.legal_moves) == 0 and loses.legal_moves() == []
    assert loses.with_mrx_at(194).outcome.kind is OutcomeKind.TRAPPED
    passes = Position.start(london, replace(PRESETS["classic"], trapped_loses=False), dets, mrx_at=194,
                            mrx_tickets=tk)
    assert passes.legal_moves() == [Move(MRX, (), ())] == list(passes.legal_moves)
    assert passes.legal_moves and Move(MRX, (), ()) in passes.legal_moves and not passes.legal_moves.singles
    after = passes.push(Move(MRX, (), ()))
    assert after.to_move == "Red" and after.move == 0 and after.round == 1


def _cut_record(plain_log, starts, mrx_start, rules, upto):
    rounds = []
    for piece, tickets, stations in plain_log[:upto]:
        if piece == MRX:
            rounds.append({"mrx": [{"ticket": t, "to": s} for t, s in zip(tickets, stations)], "detectives": []})
        else:
            rounds[-1]["detectives"].append({"name": piece, "ticket": tickets[0], "to": stations[0]})
    doc = {"rules": {"preset": rules.name.rstrip("+"), **{k: v for k, v in rules.to_dict().items()
                                                          if k != "name" and v != PRESETS[rules.name.rstrip("+")]
                                                          .to_dict()[k]}},
           "detectives": [{"name": n, "start": s} for n, s in zip(NAMES, starts)],
           "mrx": {"start_candidates": "any", "start": mrx_start}, "rounds": rounds}
    return doc


@pytest.mark.parametrize("seed", [1, 2])
def test_moves_and_check_tickets_agree_with_the_plain_referee(london, cli, tmp_path, seed):
    """Records cut at random plies (both sides to move): `moves --format json` lists the oracle's
    legal moves, `check --format json` its tickets."""
    checked = 0
    for rules, plain, _pos, rng in _random_games(london, 25, 100 + seed):
        if any(m == ((), ()) for m in plain.x_moves()) or not rules.trapped_loses:
            continue  # a pass has no record form yet
        starts, x0 = list(plain.pos.values()), plain.x
        log, snapshots = [], []
        while plain.turn is not None:
            legal = plain.legal()
            snapshots.append((len(log), plain.turn, legal | (plain.voluntary() if plain.turn == MRX else set()), {n: dict(plain.tk[n]) for n in plain.names},
                              dict(plain.xt)))
            tickets, stations = rng.choice(sorted(plain.legal()))
            log.append((plain.turn, tickets, stations))
            plain.play(tickets, stations)
        for upto, turn, legal, det_tk, x_tk in rng.sample(snapshots, min(3, len(snapshots))):
            f = tmp_path / f"g{checked}.json"
            f.write_text(json.dumps(_cut_record(log, starts, x0, rules, upto)))
            r = cli("moves", str(f), "--format", "json")
            assert r.exit_code == 0, r.output + r.stderr
            d = json.loads(r.stdout)
            assert d["piece"] == turn and d["count"] == len(legal)
            assert {(tuple(m["tickets"]), tuple(m["stations"]))
                    + ((m["shown"], m["took"]["from"], m["took"]["ticket"]) if "took" in m else ())
                    for m in d["moves"]} == legal
            c = json.loads(cli("check", str(f), "--format", "json").stdout)
            assert c["tickets"][MRX] == {k: x_tk.get(k, 0) for k in ("taxi", "bus", "underground", "black", "double")}
            for n, t in det_tk.items():
                assert c["tickets"][n] == {k: t.get(k, 0) for k in ("taxi", "bus", "underground")}
            checked += 1
    assert checked >= 30


def test_package_exposes_modules_not_functions_under_module_names():
    import sy_tools.cordon

    import sy_tools

    assert callable(sy_tools.cordon.cordon) and callable(sy_tools.cordon.puzzle) and callable(sy_tools.cordon.solve)
    assert sy_tools.Position is Position


def test_library_conveniences(london):
    """dir(sy_tools) lists the public names (the lazy loader hid them); Position.start takes a
    preset name as the rest of the library does."""
    import sy_tools

    assert set(sy_tools.__all__) <= set(dir(sy_tools)) and "Finding" in sy_tools.__all__
    assert sy_tools.Finding is sy_tools.findings.Finding
    a = Position.start(london, "classic", [("Red", 13)], mrx_at=45)
    b = Position.start(london, PRESETS["classic"], [("Red", 13)], mrx_at=45)
    assert a.rules is b.rules and list(a.legal_moves) == list(b.legal_moves)
    from sy_tools.errors import InputError

    with pytest.raises(InputError):
        Position.start(london, "nope", [("Red", 13)], mrx_at=45)


def test_double_move_at_the_end_of_the_log_matches_the_plain_referee(london):
    """Generated positions where Mr. X holds a double ticket with one, two or three log entries
    left (random games seldom get there): the engine, the playout's tables and the plain
    referee agree on his moves.  A double move needs room for both entries (docs/rules.md)."""
    from sy_tools.engine.position import double_allowed

    rng = random.Random(11)
    checked = {1: 0, 2: 0, 3: 0}
    for _ in range(300):
        rules = replace(_rules(rng), double_moves_per_round=1)
        left = rng.choice((1, 2, 3))
        if rules.log_length < left:
            continue
        k = rng.randint(1, 4)
        stations = rng.sample(london.stations, k + 1)
        xt = Tickets(taxi=rng.randint(0, 3), bus=rng.randint(0, 3), underground=rng.randint(0, 2),
                     black=rng.randint(0, 2), double=rng.randint(1, 2))
        used = rng.randint(0, max(rules.double_moves_per_game - 1, 0))
        moved = rules.log_length - left
        pos = Position(london, rules, tuple(NAMES[:k]), tuple(stations[:k]),
                       tuple(Tickets(**rules.detective_tickets) for _ in range(k)), frozenset(), xt, stations[k],
                       moved, moved, used, 0)
        plain = Plain(london, rules, stations[:k], stations[k])
        plain.xt = Counter(xt.to_dict())
        plain.moves, plain.doubles = moved, used
        engine = _shape(m for m in pos.legal_moves if m.took is None)
        assert engine == plain.x_moves()
        has_double = any(len(t) == 2 for t, _ in engine)
        assert not has_double or left >= 2
        assert double_allowed(rules, xt.double, used, moved) == (left >= 2 and used < rules.double_moves_per_game)
        checked[left] += has_double or left == 1
    assert min(checked.values()) > 20, checked


# ---- the legal-moves view and the replay, against the plain referee ----------------------------

ORDER = {"taxi": 0, "bus": 1, "underground": 2, "black": 3}


def _plain_order(plain):
    """The plain referee's legal moves (voluntary reveals included) as Moves, in the order the
    engine documents (sy_tools.engine.movegen): a detective's by ticket then station; Mr. X's
    singles by ticket then station, doubles by first leg, second ticket, station, then each of
    those again with a reveal after a hop, per detective and ticket; or the pass alone."""
    legal = plain.legal()
    if plain.turn != MRX:
        return [Move(plain.turn, (Ticket(t),), (d,)) for (t,), (d,) in sorted(legal, key=lambda m: (ORDER[m[0][0]], m[1]))]
    if legal == {((), ())}:
        return [Move(MRX, (), ())]
    base = sorted(legal, key=lambda m: (len(m[0]), [(ORDER[t], d) for t, d in zip(*m)]))
    rank = {m: i for i, m in enumerate(base)}
    reveals = sorted(plain.voluntary(), key=lambda v: (rank[v[:2]], v[2], plain.names.index(v[3]), ORDER[v[4]]))
    return ([Move(MRX, tuple(map(Ticket, t)), s) for t, s in base]
            + [Move(MRX, tuple(map(Ticket, t)), s, h, (n, Ticket(k))) for t, s, h, n, k in reveals])


def _candidates(board, plain, rng, legal):
    """Moves to ask ``in`` about: the legal ones changed a little (station, ticket, a second hop,
    a reveal's hop, detective or ticket, hidden hops, another piece), most of them illegal."""
    names = plain.names
    at = plain.x if plain.turn == MRX else plain.pos[plain.turn]
    near = sorted({d for t in RIDES for d in plain.adj.get((at, t), set())} | set(rng.sample(board.stations, 4)))
    out = [Move(MRX, (), ()), Move(MRX, (Ticket.TAXI,), (None,))]
    for piece in [MRX, *names]:
        for t in Ticket:
            out += [Move(piece, (t,), (d,)) for d in rng.sample(near, min(2, len(near)))]
    for m in rng.sample(legal, min(4, len(legal))):
        if not m.tickets:
            continue
        d1 = m.stations[0]
        seconds = sorted({d for t in RIDES for d in plain.adj.get((d1, t), set())})
        for t2 in Ticket:
            out += [Move(m.piece, (m.tickets[0], t2), (d1, d)) for d in rng.sample(seconds, min(2, len(seconds)))]
        out.append(Move(m.piece, m.tickets, (None,) * len(m.stations)))
        for _ in range(4):
            out.append(Move(m.piece, m.tickets, m.stations, rng.choice((0, 1)), (rng.choice(names), rng.choice(list(Ticket)))))
        out.append(Move(m.piece, m.tickets, m.stations, 0, None))
        out.append(Move(m.piece, tuple(t.value for t in m.tickets), m.stations))  # spelled as strings
    return out


def test_the_legal_moves_view_matches_the_plain_referee(london):
    """pos.legal_moves at every ply of generated games: iteration in the documented order, len,
    truth, indexing (negative too), calling, `in` for the legal moves and for near misses (double
    moves and reveals among them), and the singles view; the old method names agree."""
    london = _with_via(london, {**RULEBOOK_VIA, **MADE_UP_VIA})
    plies = asked = 0
    kinds: Counter[str] = Counter()
    for _rules, plain, pos, rng in _random_games(london, 12, 23):
        while plain.turn is not None:
            view = pos.legal_moves
            want = _plain_order(plain)
            assert list(iter(view)) == want
            assert view() == want and len(view) == len(want) and bool(view) == bool(want)
            for k in {0, len(want) // 2, len(want) - 1, rng.randrange(len(want))} if want else ():
                assert view[k] == want[k] == pos.legal_move_at(k)
            if want:
                assert view[-1] == want[-1] and view[1:3] == want[1:3]
            for k in (len(want), -len(want) - 1):
                with pytest.raises(IndexError):
                    view[k]
            assert pos.legal_move_count() == len(want) and pos.legal_moves() == want
            singles = [m for m in want if len(m.tickets) == 1] if plain.turn == MRX else []
            sv = view.singles
            assert sv() == list(sv) == singles == pos.mrx_single_moves()
            assert len(sv) == len(singles) and bool(sv) == bool(singles)
            assert [sv[k] for k in range(len(singles))] == singles
            listed = set(want)
            assert all(m in view for m in rng.sample(want, min(len(want), 40)))
            for m in _candidates(london, plain, rng, want):
                asked += 1
                inside = m in view
                assert inside == (m in listed), m
                assert (m in sv) == (inside and len(m.tickets) == 1 and m.piece == MRX), m
                kinds[f"{'double' if m.is_double else 'reveal' if m.took else 'move'}-{inside}"] += 1
            tickets, stations = rng.choice(sorted(plain.legal()))
            move = Move(plain.turn, tuple(map(Ticket, tickets)), stations)
            plain.play(tickets, stations)
            pos = pos.push(move)
            plies += 1
        assert not pos.legal_moves and len(pos.legal_moves) == 0 and list(pos.legal_moves) == []
    assert plies > 300 and asked > 20_000, (plies, asked)
    assert min(kinds[f"{k}-{v}"] for k in ("double", "reveal", "move") for v in (True, False)) > 50, kinds


def test_the_legal_moves_view_needs_mrx_station(london):
    """Mr. X's moves need his station: every question about them says so, as the list did."""
    pos = Position.start(london, "classic", [("Red", 13)])
    for ask in (len, bool, list, lambda v: v(), lambda v: v[0], lambda v: Move.mrx(("taxi", 8)) in v):
        with pytest.raises(ValueError):
            ask(pos.legal_moves)
    assert "legal moves of" in repr(pos.legal_moves) and "single moves" in repr(pos.legal_moves.singles)


def test_game_replay_matches_the_plain_referee(london, tmp_path):
    """Game.replay on records of generated games (voluntary reveals included): one step per ply,
    each position after it matching the plain referee's game at that ply (whose turn, stations,
    tickets, who is out, the result), and Game.final the last one."""
    from sy_tools.engine.game import Game, StepKind
    from sy_tools.formats.game_json import parse_record

    replayed = 0
    seen: Counter[str | None] = Counter()
    for rules, plain, _pos, rng in _random_games(london, 40, 31):
        if not rules.trapped_loses:
            continue  # a pass has no record form
        starts, x0 = list(plain.pos.values()), plain.x
        states, rounds = [], []
        while plain.turn is not None:
            piece = plain.turn
            if piece == MRX and plain.voluntary() and rng.random() < 0.3:
                tickets, stations, h, name, t = rng.choice(sorted(plain.voluntary()))
                took = (name, t)
            else:
                (tickets, stations), h, took = rng.choice(sorted(plain.legal())), None, None
            plain.play(tickets, stations, took)
            if piece == MRX:
                entries = [{"ticket": t, "to": s} for t, s in zip(tickets, stations)]
                if took is not None:
                    entries[h].update(shown=True, took={"from": took[0], "ticket": took[1]})
                rounds.append({"mrx": entries, "detectives": []})
            else:
                entry = {"name": piece, "ticket": tickets[0], "to": stations[0]}
                if plain.result == "capture":
                    entry["capture"] = True
                rounds[-1]["detectives"].append(entry)
            states.append((piece, plain.turn, dict(plain.pos), {n: dict(plain.tk[n]) for n in plain.names},
                           {k: plain.xt[k] for k in ("taxi", "bus", "underground", "black", "double")},
                           set(plain.out), plain.result))
        doc = _cut_record([], starts, x0, rules, 0)
        doc["rounds"] = rounds
        record = parse_record(doc)
        steps = list(Game.replay(record))
        assert len(steps) == len(states)
        for step, (piece, turn, stations, det_tk, x_tk, out, result) in zip(steps, states):
            after = step.after
            assert step.kind is (StepKind.MRX if piece == MRX else StepKind.DETECTIVE) and step.piece == piece
            assert step.in_turn and not step.repeated and not step.skipped
            assert step.before.is_legal(step.move)
            assert after.to_move == turn and after.detective_stations() == stations and after.out == out
            assert after.ticket_table() == {**det_tk, MRX: x_tk}
            assert (after.outcome.kind.value if result else None) == result
        assert Game.final(record).outcome == steps[-1].after.outcome
        # the detectives' record of the same game: Mr. X hidden but where he shows himself (or
        # steps onto a detective); the capture mark says when he was caught
        occupied = [set(starts)] + [set(st[2].values()) for st in states]
        n = 0
        for j, rnd in enumerate(rounds):
            for m in rnd["mrx"]:
                n += 1
                if not rules.is_reveal(n) and "took" not in m and m["to"] not in occupied[j]:
                    m["to"] = None
        del doc["mrx"]["start"]
        hidden = list(Game.replay(parse_record(doc)))
        assert len(hidden) == len(states)
        for step, (_piece, turn, stations, det_tk, x_tk, out, result) in zip(hidden, states):
            if result == "trapped":  # (with his station unknown, only the referee's possible set sees it)
                break
            assert step.after.to_move == turn and step.after.detective_stations() == stations
            assert step.after.ticket_table() == {**det_tk, MRX: x_tk} and step.after.out == out
            assert (step.after.outcome.kind.value if result else None) == result
            seen[result] += 1
        replayed += 1
    assert replayed > 20 and seen["capture"] >= 5, seen


def test_game_replay_steps_name_what_the_record_did(london):
    """The steps a judge needs: a detective moving out of turn or twice, one the record skips
    (before a later one's move, and at the round's end), and a round after the game ended."""
    from sy_tools.engine.game import Game, StepKind
    from sy_tools.formats.game_json import parse_record

    doc = {"detectives": [{"name": "Red", "start": 13}, {"name": "Blue", "start": 26}, {"name": "Green", "start": 29}],
           "mrx": {"start_candidates": "any", "start": 51},
           "rounds": [{"mrx": [{"ticket": "taxi", "to": 52}],
                       "detectives": [{"name": "Blue", "ticket": "taxi", "to": 27},
                                      {"name": "Red", "ticket": "taxi", "to": 23},
                                      {"name": "Blue", "ticket": "taxi", "to": 26}]},
                      {"mrx": [{"ticket": "taxi", "to": 51}], "detectives": [{"name": "Red", "ticket": "taxi", "to": 13}]},
                      {"mrx": [{"ticket": "taxi", "to": 52}], "detectives": []}]}
    steps = list(Game.replay(parse_record(doc)))
    got = [(s.kind.value, s.round, s.piece, s.in_turn, s.repeated, s.skipped) for s in steps]
    assert got == [("mrx", 1, MRX, True, False, ()),
                   ("detective", 1, "Blue", True, False, ("Red",)),
                   ("detective", 1, "Red", False, False, ()),
                   ("detective", 1, "Blue", False, True, ()),
                   ("absent", 1, "Green", True, False, ()),
                   ("mrx", 2, MRX, True, False, ()),
                   ("detective", 2, "Red", True, False, ()),
                   ("absent", 2, "Blue", True, False, ()),
                   ("absent", 2, "Green", True, False, ()),
                   ("mrx", 3, MRX, True, False, ())]
    assert steps[2].after.turn == steps[2].before.turn  # out of turn: applied where it stands
    caught = dict(doc, rounds=[{"mrx": [{"ticket": "taxi", "to": 52}],
                                "detectives": [{"name": "Red", "ticket": "taxi", "to": 52, "capture": True}]},
                               {"mrx": [{"ticket": "taxi", "to": 51}], "detectives": []}])
    steps = list(Game.replay(parse_record(caught)))
    assert [s.kind for s in steps] == [StepKind.MRX, StepKind.DETECTIVE, StepKind.AFTER_END]
    assert steps[-1].round == 2 and steps[-1].before is steps[-1].after and steps[-1].after.ended is not None
