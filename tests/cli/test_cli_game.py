"""check / possible through the real CLI: exit codes, exact messages, output formats."""

from __future__ import annotations

import json
import os

from helpers import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EX = REPO / "examples"
FUZZ_EXAMPLES = int(os.environ.get("SY_FUZZ_EXAMPLES", "60"))  # raise it for a long local hunt


def test_check_examples(cli):
    r = cli("check", str(EX / "capture.json"))
    assert r.exit_code == 0
    assert r.output.strip().endswith("legal; detectives won: Yellow caught Mr. X at 155 in round 14")
    assert "Mr. X won: his travel log is full" in cli("check", str(EX / "mrx-wins.json")).output
    assert "in progress: round 10, after Mr. X's move 11; Mr. X to move" in cli("check", str(EX / "in-progress.json")).output
    assert cli("check", str(EX / "double-and-ferry.json")).exit_code == 0


def test_check_broken_examples(cli):
    r = cli("check", str(EX / "broken" / "wrong-ticket.json"))
    assert r.exit_code == 1
    assert r.output.splitlines()[0] == (
        f"{EX / 'broken' / 'wrong-ticket.json'}: rounds[1].detectives[0].to: error: Red moves 38 -> 51 by "
        "underground, but there is no such connection (only taxi) [det-connection]")
    r = cli("check", str(EX / "broken" / "missing-reveal.json"))
    assert r.exit_code == 2 and "rounds[2].mrx[0].to" in r.output.splitlines()[0]  # lacks input: as in possible
    assert cli("possible", str(EX / "broken" / "missing-reveal.json")).exit_code == 2
    r = cli("check", str(EX / "broken" / "contradiction.json"))
    assert r.exit_code == 1 and "at move 8 (round 6)" in r.output.splitlines()[0]
    r = cli("check", str(EX / "broken" / "not-on-map.json"))
    assert r.exit_code == 2
    assert r.stderr.strip() == (f"error: {EX / 'broken' / 'not-on-map.json'}: rounds[3].detectives[1].to: "
                                "station 200 is not on the map 'london' (stations 1..199)")


def test_check_json(cli):
    r = cli("check", "--format", "json", str(EX / "broken" / "two-on-one-station.json"))
    d = json.loads(r.output)
    assert r.exit_code == 1 and d["legal"] is False
    assert {"level": "error", "code": "det-collision", "where": "rounds[0].detectives[1].to",
            "message": "Blue moves onto 38, where Red stands"} in d["problems"]
    assert d["status"]["state"] == "detectives-won"


def test_check_unreadable(cli, tmp_path):
    r = cli("check", str(tmp_path / "none.json"))
    assert r.exit_code == 2 and r.stderr.strip() == f"error: {tmp_path / 'none.json'}: no such file"
    p = tmp_path / "bad.json"
    p.write_text("{")
    r = cli("check", str(p))
    assert r.exit_code == 2 and "not valid JSON" in r.stderr and "Traceback" not in r.output


def test_possible_json(cli):
    r = cli("possible", "--format", "json", "--history", str(EX / "in-progress.json"))
    assert r.exit_code == 0
    d = json.loads(r.output)
    assert d["move"] == 11 and d["round"] == 10
    assert d["stations"] == sorted(d["stations"]) and len(d["stations"]) == d["count"]
    assert abs(sum(d["probabilities"].values()) - 1) < 1e-9
    assert set(d["probabilities"]) == {str(s) for s in d["stations"]}
    assert len(d["history"]) == 11 and d["history"][7] == [d["last_reveal"]["station"]]
    assert d["next_reveal"] == 13 and d["moves_to_reveal"] == 2


def test_possible_table_and_csv(cli):
    r = cli("possible", str(EX / "in-progress.json"), "--top", "3")
    lines = r.output.splitlines()
    assert lines[0].startswith("round 10, after Mr. X's move 11; next reveal at move 13 (2 moves away)")
    assert lines[3].split() == ["station", "probability", "routes"]
    assert lines[-1].startswith("... and ")
    csv = cli("possible", "--format", "csv", str(EX / "in-progress.json")).output.splitlines()
    assert csv[0] == "station,probability,routes"


def test_possible_inconsistent_exit_1(cli):
    r = cli("possible", str(EX / "broken" / "contradiction.json"))
    assert r.exit_code == 1
    assert r.stderr.strip() == (
        f"error: {EX / 'broken' / 'contradiction.json'}: rounds[5].mrx[1].to: the record is illegal: the record "
        "contradicts itself at move 8 (round 6): no route fitting the record so far reaches 1 with a bus ticket "
        "[reveal-unreachable; 1 more error] (run 'sy-tools check' for every finding, or add --ignore-illegal to "
        "analyse it anyway)")
    r = cli("possible", str(EX / "broken" / "contradiction.json"), "--ignore-illegal")  # the filter's own words
    assert r.exit_code == 1
    assert r.stderr.strip() == (
        f"error: {EX / 'broken' / 'contradiction.json'}: rounds[5].mrx[1]: the record is inconsistent at "
        "round 6, Mr. X's move 8 (leg 2 of a double move), bus ticket: Mr. X shows himself at 1, which no "
        "route fitting the record reaches")


def test_possible_capture(cli):
    r = cli("possible", str(EX / "capture.json"))
    assert r.exit_code == 0
    assert r.output.strip() == "Mr. X was caught at 155 by Yellow in round 14: the game is over."


def test_possible_jsonl_many(cli):
    files = [EX / "in-progress.json", EX / "broken" / "contradiction.json", EX / "broken" / "not-on-map.json",
             EX / "mrx-wins.json"]
    r = cli("possible", "--format", "jsonl", *map(str, files))
    rows = [json.loads(line) for line in r.output.splitlines()]
    assert [row["file"] for row in rows] == [str(f) for f in files]
    assert "error" in rows[1] and rows[1]["exit_code"] == 1
    assert "error" in rows[2] and rows[2]["exit_code"] == 2
    assert "stations" in rows[3]
    assert r.exit_code == 1


def test_an_interrupted_jsonl_batch_prints_what_it_analysed(cli, monkeypatch):
    """The lines of ``--format jsonl`` go out a few dozen at a time; Ctrl-C still prints the
    records analysed before it."""
    import sy_tools.analysis.batch as batch

    real = batch.possible_many

    def interrupted(*args, **kwargs):
        for i, item in enumerate(real(*args, **kwargs)):
            if i == 3:
                raise KeyboardInterrupt
            yield item

    monkeypatch.setattr(batch, "possible_many", interrupted)
    r = cli("possible", "--format", "jsonl", *[str(EX / "in-progress.json")] * 5)
    assert r.exit_code == 130 and r.stderr.strip() == "error: interrupted"
    assert [json.loads(line)["count"] for line in r.stdout.splitlines()] == [19] * 3


def test_possible_does_not_import_heavy_modules():
    import subprocess
    import sys

    code = ("import sys; from sy_tools.cli import main\n"
            "try:\n    main(['possible', sys.argv[1]])\nexcept SystemExit:\n    pass\n"
            "bad = [m for m in ('matplotlib', 'ortools', 'pandas') if m in sys.modules]\n"
            "print('HEAVY', bad)")
    r = subprocess.run([sys.executable, "-c", code, str(EX / "in-progress.json")], capture_output=True, text=True)
    assert "HEAVY []" in r.stdout, r.stdout + r.stderr


def test_inputs_never_modified(cli, tmp_path):
    before = {p: p.read_bytes() for p in EX.rglob("*.json")}
    for p in before:
        cli("check", str(p))
        cli("possible", str(p), "--history")
    assert all(p.read_bytes() == b for p, b in before.items())


def test_output_errors_name_the_target(cli, tmp_path):
    r = cli("record", "convert", str(EX / "capture.json"), str(tmp_path / "no" / "x.json"))
    assert r.exit_code == 2
    assert r.stderr.strip() == f"error: {tmp_path / 'no' / 'x.json'}: no such folder to write into"
    r = cli("record", "convert", str(EX / "capture.json"), str(tmp_path))
    assert r.exit_code == 2 and "is a folder" in r.stderr


# ---- fuzz through the real CLI: never a traceback, exit codes only 0, 1, 2 ------------------

_near_valid = st.fixed_dictionaries({
    "detectives": st.lists(st.fixed_dictionaries({"name": st.sampled_from(["Red", "Blue", "Green"]),
                                                  "start": st.integers(0, 200)}), min_size=1, max_size=3),
    "mrx": st.fixed_dictionaries({"start_candidates": st.one_of(st.just("any"),
                                                                st.lists(st.integers(1, 199), min_size=1,
                                                                         max_size=4))}),
    "rounds": st.lists(st.fixed_dictionaries({
        "mrx": st.lists(st.fixed_dictionaries({"ticket": st.sampled_from(["taxi", "bus", "underground", "black"]),
                                               "to": st.integers(1, 199)}), min_size=1, max_size=2),
        "detectives": st.lists(st.fixed_dictionaries({"name": st.sampled_from(["Red", "Blue", "Green"]),
                                                      "ticket": st.sampled_from(["taxi", "bus", "underground"]),
                                                      "to": st.integers(1, 199)}), max_size=3),
    }), max_size=4),
})


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=_near_valid)
def test_fuzz_cli_never_tracebacks(cli, tmp_path, doc):
    p = tmp_path / "g.json"
    p.write_text(json.dumps(doc))
    for args in (["check", str(p)], ["possible", "--history", str(p)],
                 ["cordon", "--time-limit", "1", str(p)], ["possible", "--format", "jsonl", str(p), str(p)]):
        r = cli(*args)
        assert r.exit_code in (0, 1, 2), (args, r.output)
        if r.exit_code:
            assert r.stderr.count("\n") <= 2 or args[0] == "check" or "jsonl" in args


def test_possible_round(cli):
    r = cli("possible", "--format", "json", "--round", "3", str(EX / "in-progress.json"))
    d = json.loads(r.output)
    assert r.exit_code == 0 and d["round"] == 3 and d["move"] == 4 and d["last_reveal"]["move"] == 3
    r = cli("possible", "--round", "30", str(EX / "in-progress.json"))
    assert r.exit_code == 2
    assert r.stderr.strip() == (f"error: {EX / 'in-progress.json'}: --round 30 is out of range: the record has "
                                "rounds 0..10")


def test_check_names_places_as_written_in_a_text_record(cli, tmp_path):
    """A text record's problems name the line and round the player wrote, not a JSON path."""
    p = tmp_path / "g.txt"
    p.write_text("# table game\nRed 13: T 14, U 46\nX: T, T\n")  # 14-46: no underground
    r = cli("check", str(p))
    assert r.exit_code == 1
    assert "line 2 (Red, round 2)" in r.output and "rounds[" not in r.output


# ---- issue 22 ------------------------------------------------------------------------------------


def test_possible_and_heatmap_refuse_an_illegal_record_unless_told(cli, tmp_path):
    """A mistyped detective move (27 -> 18, no such hop): check's finding and place, exit 1, as
    advise/solve/cordon/moves; --ignore-illegal analyses the moves as written."""
    p = tmp_path / "g.txt"
    p.write_text((EX / "table.txt").read_text().replace("Blue 26: T 27, T 40", "Blue 26: T 27, T 18"))
    finding = (f"error: {p}: line 7 (Blue, round 2): the record is illegal: Blue moves 27 -> 18 by taxi, but there is "
               "no such connection [det-connection; 1 more error] (run 'sy-tools check' for every finding, or add "
               "--ignore-illegal to analyse it anyway)")
    for args in (["possible", str(p)], ["possible", str(p), "--weights", "uniform", "--format", "json"],
                 ["heatmap", str(p), "-o", str(tmp_path / "x.png")]):
        r = cli(*args)
        assert (r.exit_code, r.stderr.strip(), r.stdout) == (1, finding, ""), args
    assert not (tmp_path / "x.png").exists()
    r = cli("possible", str(p), "--ignore-illegal", "--top", "1")
    assert r.exit_code == 0 and "11 possible stations" in r.output
    # the batch's fast path (game.json, uniform weights) refuses as the general path does
    doc = json.loads((EX / "capture.json").read_text())
    doc["rounds"][-1]["detectives"].append({"name": "Black", "ticket": "bus", "to": 41})
    q = tmp_path / "after.json"
    q.write_text(json.dumps(doc))
    r = cli("possible", str(q), str(EX / "capture.json"), "--weights", "uniform", "--format", "jsonl")
    lines = [json.loads(line) for line in r.output.splitlines()]
    assert r.exit_code == 1 and "[after-end]" in lines[0]["error"] and lines[1]["stations"] == [155]


def test_possible_history_after_the_game(cli):
    r = cli("possible", str(EX / "capture.json"), "--history")
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert lines[0] == "Mr. X was caught at 155 by Yellow in round 14: the game is over."
    assert lines[2] == "history (where he could have been after each move, given the whole record):"
    assert len(lines) == 5 + 16 and lines[-1].split()[:2] == ["16", "1"]


def test_a_forgotten_detective_move_is_blamed_on_its_own_line(cli, tmp_path):
    """`Blue 197:` with no entry yet, and two detectives' '-': each warning names the detective's own
    line and round, not Mr. X's line."""
    p = tmp_path / "g.txt"
    p.write_text("map london\nrules classic\nX: T, T\nRed 13: T 23, T 13\nBlue 197:\n")
    r = cli("check", str(p))
    assert r.exit_code == 0
    assert r.output.splitlines()[0] == (f"{p}: line 5 (Blue, round 1): warning: Blue did not move in round 1 although "
                                        "it could (e.g. taxi to 184) [det-absent]")
    p.write_text("map london\nrules classic\nX: T, T\nRed 13: -, T 23\nBlue 197: -, T 196\n")
    r = cli("check", str(p))
    assert [line.split(": warning")[0] for line in r.output.splitlines()[:2]] == [
        f"{p}: line 4 (Red, round 1)", f"{p}: line 5 (Blue, round 1)"]
