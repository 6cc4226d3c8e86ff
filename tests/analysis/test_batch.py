"""The batch hot path (``possible --format jsonl --weights uniform`` over many files) says
exactly what the validating path says: same lines, byte for byte, and the same errors."""

from __future__ import annotations

import json
import os
import random
import time
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import REPO

from sy_tools.analysis.batch import Failure, _uniform_unbuilt, jsonl_line, possible_many
from sy_tools.analysis.possible import possible
from sy_tools.analysis.referee import ILLEGAL_HINT, check, require_legal
from sy_tools.analysis.tracker import final_state, trace
from sy_tools.analysis.vouch import vouched_final_state
from sy_tools.engine.rules import PRESETS
from sy_tools.errors import SyToolsError
from sy_tools.formats.game_json import parse_record
from sy_tools.selfplay.generate import detectives_view, random_game


def _records(london, n: int, seed: int = 5) -> list[dict]:
    """Full records and the detectives' views of them, one in four under the 2014 rules (other
    decks and reveals); some end in a capture."""
    rng = random.Random(seed)
    docs = []
    for i in range(n):
        rules = PRESETS["2014" if i % 4 == 3 else "classic"]
        doc = random_game(london, rules, random.Random(rng.getrandbits(32)))
        docs += [doc, detectives_view(doc, rules)]
    return docs


def _collided(doc: dict, rng: random.Random) -> dict:
    """``doc`` with one detective move onto another detective's station (illegal, but the shape
    is fine: the filter must treat it exactly as before)."""
    doc = json.loads(json.dumps(doc))
    pos = {d["name"]: d["start"] for d in doc["detectives"]}
    moves = [(i, j) for i, r in enumerate(doc["rounds"]) for j, _ in enumerate(r.get("detectives", []))]
    if len(pos) < 2 or not moves:
        return doc
    cut = rng.randrange(len(moves))
    for i, j in moves[:cut]:
        m = doc["rounds"][i]["detectives"][j]
        pos[m["name"]] = m["to"]
    i, j = moves[cut]
    m = doc["rounds"][i]["detectives"][j]
    others = [s for name, s in pos.items() if name != m["name"]]
    m["to"] = rng.choice(others)
    m.pop("capture", None)
    return doc


def _contradicted(doc: dict, rng: random.Random) -> dict:
    """``doc`` with Mr. X's first reveal moved to a random station (mostly a contradiction)."""
    doc = json.loads(json.dumps(doc))
    legs = [m for r in doc["rounds"] for m in r["mrx"]]
    if len(legs) >= 3:
        legs[2]["to"] = rng.randint(1, 199)
    return doc


def _validating_line(path: str, text: str, ignore_illegal: bool = False) -> str:
    """The line the collecting (validating) parser and the referee lead to, or the error line."""
    try:
        rec = parse_record(json.loads(text), path)
        if not ignore_illegal:
            require_legal(rec, ILLEGAL_HINT)
        return jsonl_line(possible(rec, "uniform"))
    except SyToolsError as e:
        return f"error {e.exit_code}: {e}"


def test_batch_lines_equal_the_validating_path(london, tmp_path):
    rng = random.Random(11)
    docs = _records(london, 60)
    docs += [_collided(d, rng) for d in docs[:40]] + [_contradicted(d, rng) for d in docs[:40]]
    paths, expected = [], []
    for i, doc in enumerate(docs):
        p = tmp_path / f"g{i:04d}.json"
        text = json.dumps(doc)
        p.write_text(text)
        paths.append(str(p))
        expected.append(_validating_line(str(p), text))
    got = [r if not isinstance(r, Failure) else f"error {r.exit_code}: {r.message}"
           for _, r in possible_many(paths, "uniform", render=jsonl_line)]
    assert got == expected
    unbuilt = [_uniform_unbuilt(p.read_text(), str(p)) for p in map(Path, paths)]
    assert sum(r is not None for r in unbuilt) >= 100  # the batch's hot path did run (not the fallback)
    assert sum(line.startswith("{") for line in got) >= 100
    assert any('"capture":{' in line for line in got)
    assert any(line.startswith("error 1: ") and "[reveal-unreachable" in line for line in got)
    assert sum(line.startswith("error 1: ") and "the record is illegal: " in line for line in got) >= 40
    # with --ignore-illegal the moves are taken as written, on the hot path too
    expected = [_validating_line(p, Path(p).read_text(), ignore_illegal=True) for p in paths]
    got = [r if not isinstance(r, Failure) else f"error {r.exit_code}: {r.message}"
           for _, r in possible_many(paths, "uniform", render=jsonl_line, ignore_illegal=True)]
    assert got == expected and sum(line.startswith("{") for line in got) >= 150


def test_final_set_equals_the_move_by_move_trace(london):
    """The batch's filter (stations of detectives as a set, one mask per round) against the
    move-by-move trace, also where detectives share a station and where a record breaks."""
    rng = random.Random(3)
    docs = _records(london, 40, seed=9)
    docs += [_collided(d, rng) for d in docs] + [_contradicted(d, rng) for d in docs]
    compared = broken = captured = 0
    for doc in docs:
        rec = parse_record(doc)
        try:
            tr = trace(rec)
        except SyToolsError as e:
            with pytest.raises(type(e)) as got:
                final_state(rec)
            assert str(got.value) == str(e)
            broken += 1
            continue
        fin = final_state(rec)
        assert (fin.mask, fin.capture, fin.last_reveal) == (tr.current, tr.capture, tr.last_reveal)
        captured += fin.capture is not None
        compared += 1
    assert compared >= 100 and broken >= 20 and captured >= 20
    # a record built by hand may place its moves as it likes: the capture keeps the move's own place
    rec = next(parse_record(d) for d in docs if any(m.get("capture") for r in d["rounds"] for m in r.get("detectives", [])))
    last = rec.rounds[-1]
    moved = replace(rec, rounds=rec.rounds[:-1] + (last._replace(detectives=tuple(
        m._replace(where="by hand") if m.capture else m for m in last.detectives)),))
    assert final_state(moved).capture == trace(moved).capture and trace(moved).capture.where == "by hand"


def test_fast_path_builds_long_records_like_the_parser():
    """More rounds than the fast path's precomputed places, passes, double moves."""
    from sy_tools.formats.game_fast import fast_record
    from sy_tools.formats.record_io import parse_record_json

    d = {"detectives": [{"name": "Red", "start": 13}, {"name": "Blue", "start": 26}],
         "rounds": [{"mrx": [], "detectives": [{"name": "Red", "ticket": "taxi", "to": 23 if i % 2 else 13}]}
                    for i in range(70)] + [{"mrx": [{"ticket": "taxi"}, {"ticket": "bus"}]}]}
    text = json.dumps(d)
    fast = fast_record(text, "g.json")
    assert fast is not None and fast == parse_record_json(text, "g.json")
    assert fast.rounds[69].detectives[0].where == "rounds[69].detectives[0]"
    assert fast.rounds[70].mrx[1].where == "rounds[70].mrx[1]"


def test_a_batch_uses_the_cores_it_may_run_on(monkeypatch, tmp_path):
    """On one allowed core (``taskset``, a container) a large batch runs in this process, however
    many cores the machine has."""
    import os

    import sy_tools.analysis.batch as batch

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 8)

    def no_workers(*args: object, **kwargs: object) -> None:
        raise AssertionError("a worker process was started")

    monkeypatch.setattr(os, "fork", no_workers)
    src = REPO / "examples" / "in-progress.json"
    paths = []
    for i in range(2 * batch.MIN_PER_WORKER):
        p = tmp_path / f"g{i}.json"
        p.write_bytes(src.read_bytes())
        paths.append(str(p))
    assert batch._cores() == 1
    assert len(list(possible_many(paths, "uniform", jobs=batch.AUTO_JOBS))) == len(paths)


# ---- the worker processes -------------------------------------------------------------------------

#: the process that runs the tests (a forked worker is any other)
_MAIN = os.getpid()


def _square(x: int) -> tuple[int, int, int]:
    """``x``, its square, and the process that computed it (slowly enough that all take part)."""
    time.sleep(0.001)
    return x, x * x, os.getpid()


def _square_or_die(x: int) -> tuple[int, int, int]:
    """A worker dies (as if killed) on the chunk it takes; this process computes everything."""
    if os.getpid() != _MAIN:
        os._exit(3)
    return _square(x)


def _stuck_in_worker(x: int) -> tuple[int, int, int]:
    """A worker hangs on the chunk it takes (for 30 s, then it ends)."""
    if os.getpid() != _MAIN:
        time.sleep(30)
        os._exit(3)
    return _square(x)


@pytest.fixture
def forks(monkeypatch) -> list[int]:
    """The workers forked while the test runs, recorded as ``os.fork`` makes them."""
    pids: list[int] = []
    fork = os.fork

    def recorded() -> int:
        pid = fork()
        if pid:
            pids.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", recorded)
    return pids


def _forked(fn, items, jobs, seconds: int = 20) -> list:
    """``_forked_map``'s results, or TimeoutError after ``seconds`` (raised where it waits)."""
    import signal

    from sy_tools.analysis import batch

    def stuck(*_: object) -> None:
        raise TimeoutError("the forked map hangs")

    old = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(seconds)
    try:
        return list(batch._forked_map(fn, items, jobs))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # (a worker ended but not reaped would still answer)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked")
def test_worker_processes_keep_the_order(forks):
    items = list(range(300))
    got = _forked(_square, items, 3)
    assert [r[:2] for r in got] == [(x, x * x) for x in items]
    assert {r[2] for r in got} == {_MAIN, *forks}  # (each process computed some)
    assert len(forks) == 2 and all(_gone(p) for p in forks)  # (each waited for)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked")
def test_a_worker_that_dies_leaves_its_chunks_to_this_process(forks):
    items = list(range(200))
    got = _forked(_square_or_die, items, 2)
    assert got == [(x, x * x, _MAIN) for x in items]
    assert len(forks) == 1 and _gone(forks[0])


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked")
def test_a_stuck_worker_is_ended_when_this_process_gives_up(forks, monkeypatch):
    import signal

    recorded = os.fork

    def fork_then_give_up_soon() -> int:
        pid = recorded()
        if pid:  # this process gives up 1 s after the worker exists (on a busy machine the fork
            signal.alarm(1)  # itself may come later than 1 s after the call began)
        return pid

    monkeypatch.setattr(os, "fork", fork_then_give_up_soon)
    t = time.perf_counter()
    with pytest.raises(TimeoutError):  # (waiting for the stuck worker's chunk: Ctrl-C, say)
        _forked(_stuck_in_worker, list(range(200)), 2, seconds=20)
    assert time.perf_counter() - t < 60 and len(forks) == 1 and _gone(forks[0])  # (a hang bound only)


def test_without_a_process_to_spare_this_one_does_the_batch(monkeypatch):
    """A system that allows no more processes (fork fails: EAGAIN) still gets every answer."""
    def refused() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refused)
    items = list(range(100))
    assert _forked(_square, items, 2) == [(x, x * x, _MAIN) for x in items]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked")
def test_workers_end_when_the_caller_stops(forks):
    from sy_tools.analysis import batch

    results = batch._forked_map(_square, list(range(100_000)), 2)
    assert next(results)[:2] == (0, 0)
    results.close()  # (a reader that went away: ``sy-tools possible ... | head -1``)
    assert len(forks) == 1 and _gone(forks[0])


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_batch_leaves_the_collector_as_it_found_it(tmp_path, jobs):
    """The library's batch freezes nothing past forking its workers (they keep what they
    inherit out of their collector's walks; this process thaws it at once), so a caller's garbage
    cycles are collected as before: while the batch runs, after it, after an early stop, when the
    batch is dropped inside a reference cycle, and a caller's own freeze stays as it was."""
    import gc

    src = (REPO / "examples" / "in-progress.json").read_bytes()
    paths = []
    for i in range(120):
        (tmp_path / f"g{i}.json").write_bytes(src)
        paths.append(str(tmp_path / f"g{i}.json"))
    before = gc.get_freeze_count()
    results = possible_many(paths, weights="uniform", jobs=jobs)
    next(results)
    assert gc.get_freeze_count() == before
    results.close()
    assert gc.get_freeze_count() == before

    class Holder:
        pass

    held = Holder()
    held.me = held  # type: ignore[attr-defined]
    held.batch = possible_many(paths, weights="uniform", jobs=jobs)  # type: ignore[attr-defined]
    next(held.batch)  # type: ignore[attr-defined]
    del held
    gc.collect()
    assert gc.get_freeze_count() == before
    gc.freeze()  # the caller's own
    try:
        mine = gc.get_freeze_count()
        assert len(list(possible_many(paths, weights="uniform", jobs=jobs))) == 120
        assert gc.get_freeze_count() == mine
    finally:
        gc.unfreeze()


def test_lists_longer_than_the_fast_path_covers_go_the_general_way():
    """Three Mr. X entries in a round (the parser refuses them) and eleven detective moves in
    one (it takes them): the fast path declines both, so each reads as the parser says."""
    from sy_tools.formats.game_fast import fast_record
    from sy_tools.formats.record_io import parse_record_json

    base = {"detectives": [{"name": "Red", "start": 13}, {"name": "Blue", "start": 26}]}
    three = dict(base, rounds=[{"mrx": [{"ticket": "taxi"}] * 3}])
    assert fast_record(json.dumps(three)) is None
    with pytest.raises(SyToolsError, match=r"rounds\[0\]\.mrx"):
        parse_record_json(json.dumps(three))
    eleven = dict(base, rounds=[{"mrx": [], "detectives": [{"name": "Red", "ticket": "taxi", "to": 23 if i % 2 else 13}
                                                            for i in range(11)]}])
    assert fast_record(json.dumps(eleven)) is None
    assert len(parse_record_json(json.dumps(eleven)).rounds[0].detectives) == 11
    ten = dict(base, rounds=[{"mrx": [], "detectives": eleven["rounds"][0]["detectives"][:10]}])
    assert fast_record(json.dumps(ten)) == parse_record_json(json.dumps(ten))


class _Slow(Exception):
    pass


def _raise_slow():
    raise _Slow


def _vouched(rec) -> bool:
    """Whether the batch's one-walk test vouches for ``rec`` (given as its Record's parts; the
    filter's call for the trace counts as not vouched: the batch then goes the general way)."""
    try:
        return vouched_final_state(rec.board, rec.rules, rec.detectives, [d.tickets for d in rec.detectives],
                                   rec.mrx_tickets, rec.mrx_start, rec.start_candidates, rec.rounds,
                                   _raise_slow) is not None
    except _Slow:
        return False


def _corrupted(doc: dict, rng: random.Random) -> dict:
    """``doc`` with one random change of the kinds a record typed by hand has: a detective's move to
    another station or with another ticket, a move dropped, repeated or swapped, a round
    dropped or a move appended after the end, Mr. X's ticket changed, a station shown on a
    hidden move, a capture mark moved, tickets cut."""
    doc = json.loads(json.dumps(doc))
    rounds = doc["rounds"]
    dms = [(i, j) for i, r in enumerate(rounds) for j, _ in enumerate(r.get("detectives", []))]
    kind = rng.randrange(10)
    if kind == 0 and dms:
        i, j = rng.choice(dms)
        rounds[i]["detectives"][j]["to"] = rng.randint(1, 199)
    elif kind == 1 and dms:
        i, j = rng.choice(dms)
        rounds[i]["detectives"][j]["ticket"] = rng.choice(["taxi", "bus", "underground", "black"])
    elif kind == 2 and dms:
        i, j = rng.choice(dms)
        del rounds[i]["detectives"][j]
    elif kind == 3 and dms:
        i, j = rng.choice(dms)
        rounds[i]["detectives"].insert(rng.randrange(len(rounds[i]["detectives"]) + 1), dict(rounds[i]["detectives"][j]))
    elif kind == 4 and dms:
        i, _ = rng.choice(dms)
        rng.shuffle(rounds[i]["detectives"])
    elif kind == 5 and rounds:
        del rounds[rng.randrange(len(rounds))]
    elif kind == 6 and rounds:
        if rng.random() < 0.5:
            moved = rounds[-1].setdefault("detectives", [])
            moved.append(dict(moved[0]) if moved else {"name": doc["detectives"][0]["name"], "ticket": "taxi", "to": 1})
        else:
            rounds.append({"mrx": [{"ticket": "taxi"}], "detectives": []})
    elif kind == 7 and rounds:
        leg = rng.choice([m for r in rounds for m in r["mrx"]] or [{}])
        leg["ticket"] = rng.choice(["taxi", "bus", "underground", "black", "double"])
    elif kind == 8 and rounds:
        leg = rng.choice([m for r in rounds for m in r["mrx"]] or [{}])
        leg["to"] = rng.randint(1, 199)
    elif kind == 9:
        d = rng.choice(doc["detectives"])
        d["tickets"] = {"taxi": rng.randint(0, 4), "bus": rng.randint(0, 3), "underground": rng.randint(0, 1)}
    return doc


def test_batch_never_vouches_for_what_check_refuses(london):
    """The batch's cheap legality test against the referee (the oracle) on random legal records,
    both views, and on random corruptions of them: whatever it vouches for, check rules legal
    (with the possible-set filter's consent, as the batch runs them); and it vouches for nearly
    every legal record, or the batch would lose its speed."""
    from sy_tools.analysis.tracker import final_state

    rng = random.Random(22)
    docs = _records(london, 60, seed=22)
    vouched = legal = 0
    for doc in docs + [_corrupted(d, rng) for d in docs for _ in range(3)]:
        try:
            rec = parse_record(doc)
        except SyToolsError:
            continue
        result = check(rec)
        if _vouched(rec):
            try:
                final_state(rec)
            except SyToolsError:
                continue  # the filter sends it the general way, where check speaks
            assert result.legal, [str(p) for p in result.errors]
            vouched += 1
        legal += result.legal
    assert vouched >= 0.85 * legal and vouched >= 100



def _onto_neighbour(doc: dict, board, rng: random.Random) -> dict:
    """``doc`` with one detective's move changed to a taxi hop onto another detective (a legal
    hop, an illegal move), where some detective has one."""
    from sy_tools.engine.stations import stations_of
    from sy_tools.engine.tickets import Ticket

    doc = json.loads(json.dumps(doc))
    pos = {d["name"]: d["start"] for d in doc["detectives"]}
    found = []
    for r in doc["rounds"]:
        for m in r.get("detectives", []):
            here = pos[m["name"]]
            near = set(stations_of(board.step(1 << here, Ticket.TAXI)))
            found += [(m, s) for name, s in pos.items() if name != m["name"] and s in near]
            pos[m["name"]] = m["to"]
    if found:
        m, s = rng.choice(found)
        m.update(ticket="taxi", to=s)
        m.pop("capture", None)
    return doc


def test_vouched_final_state_is_the_filters_where_check_agrees(london):
    """The batch judges and filters a record in one walk: on random records (both views, both
    rule sets, some ending in a capture) and random corruptions of them, as the batch decodes
    them, wherever it vouches it returns exactly the filter's final state and check rules the
    record legal; and on legal records it vouches for nearly all (or the batch would lose its
    speed)."""
    from sy_tools.analysis.tracker import final_state_of_parts
    from sy_tools.formats.game_fast import decode_plain_record

    rng = random.Random(23)
    docs = _records(london, 40, seed=23)
    seen = {"vouched": 0, "refused": 0, "slow": 0}
    legal = 0
    for doc in docs + [_corrupted(d, rng) for d in docs for _ in range(3)] + [_onto_neighbour(d, london, rng)
                                                                             for d in docs]:
        v = decode_plain_record(json.dumps(doc))
        if v is None:
            continue
        rounds = v.doc.rounds or ()
        try:
            got = vouched_final_state(v.board, v.rules, v.doc.detectives, v.detective_tickets, v.mrx_tickets,
                                      v.mrx_start, v.start_candidates, rounds, _raise_slow)
        except _Slow:
            seen["slow"] += 1
            continue
        ok = check(parse_record(doc)).legal
        legal += ok
        if got is None:
            seen["refused"] += 1
            continue
        assert ok, doc
        assert got == final_state_of_parts(v.board, v.rules, v.doc.detectives, v.start_candidates, rounds,
                                           _raise_slow)
        seen["vouched"] += 1
    assert seen["refused"] >= 10 and seen["vouched"] >= 0.85 * legal, (seen, legal)
