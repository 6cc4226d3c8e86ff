from __future__ import annotations

import json

import pytest


def test_validate_london(cli):
    r = cli("validate", "london")
    assert r.exit_code == 0
    assert r.output.strip() == "london: ok: 0 error(s), 0 warning(s)"


def test_validate_four_defects_exit_1(cli, tmp_path):
    p = tmp_path / "graph.txt"
    p.write_text("5 4\n1\n2\n3\n4\n5\n1 2 Taxi\n3 3 Taxi\n1 2 Taxi\n2 7 Taxi\n")
    r = cli("validate", str(p))
    assert r.exit_code == 1
    for code, line in (("self-loop", 8), ("duplicate-connection", 9), ("undefined-station", 10),
                       ("isolated-station", 5)):
        assert f"{p}:{line}: error:" in r.output and f"[{code}]" in r.output


def test_validate_json_format(cli, tmp_path):
    p = tmp_path / "m.json"
    p.write_text('{"stations": [{"id": 1}, {"id": 2}], "connections": [{"a": 1, "b": 2, "transport": "taxi", "q": 1}]}')
    r = cli("validate", "--format", "json", str(p))
    assert r.exit_code == 1
    found = json.loads(r.output)
    assert {"level", "code", "message", "location"} <= set(found[0])
    assert found[0]["code"] == "unknown-key" and found[0]["path"] == "connections[0].q"


def test_validate_strict(cli, tmp_path):
    p = tmp_path / "m.json"
    p.write_text('{"stations": [{"id": 1}, {"id": 3}], "connections": [{"a": 1, "b": 3, "transport": "taxi"}]}')
    assert cli("validate", str(p)).exit_code == 0  # id-gap is a warning
    assert cli("validate", "--strict", str(p)).exit_code == 1


def test_validate_unreadable_exit_2(cli, tmp_path):
    r = cli("validate", "london", str(tmp_path / "missing.json"))
    assert r.exit_code == 2
    assert r.stderr.strip() == f"error: {tmp_path / 'missing.json'}: no such file or folder (built-in maps: london)"


def test_map_info(cli):
    r = cli("map", "info", "london", "--format", "json")
    assert r.exit_code == 0
    info = json.loads(r.output)
    assert info["stations"] == 199
    assert info["connections"] == {"taxi": 346, "bus": 99, "underground": 20, "ferry": 3, "total": 468}
    assert info["kinds"]["taxi,bus,underground"] == 14
    table = cli("map", "info").output
    assert "199" in table and "underground" in table
    csv = cli("map", "info", "--format", "csv").output
    assert csv.splitlines()[0] == "section,item,value"


def test_map_convert_and_diff(cli, tmp_path, london):
    out = tmp_path / "g.txt"
    r = cli("map", "convert", "london", str(out))
    assert r.exit_code == 0 and r.stdout.strip() == str(out)
    # the Bristol format has no room for the via data (cut-off escape): said, and the diff shows it
    assert "bristol format cannot hold via data: the 2 connection(s)" in r.stderr
    via = ["via          underground 46-74: passes over 45 58 in london, nothing in " + str(out),
           "via          underground 140-153: passes over 154 in london, nothing in " + str(out)]
    r = cli("map", "diff", "london", str(out))
    assert r.exit_code == 1 and r.output.splitlines() == via
    back = tmp_path / "back.json"
    assert cli("map", "convert", "london", str(back)).stderr == ""
    assert cli("map", "diff", "london", str(back)).exit_code == 0
    # drop taxi 13-14: the diff shows exactly that
    lines = [ln for ln in out.read_text().splitlines() if ln != "13 14 Taxi"]
    lines[0] = "199 467"
    out.write_text("\n".join(lines) + "\n")
    r = cli("map", "diff", "london", str(out))
    assert r.exit_code == 1
    assert r.output.splitlines() == ["taxi         only in london: 13-14"] + via
    d = json.loads(cli("map", "diff", "london", str(out), "--format", "json").output)
    assert d["connections_only_in_a"] == [{"a": 13, "b": 14, "transport": "taxi"}]
    assert d["connections_only_in_b"] == [] and d["stations_only_in_a"] == []


def test_map_convert_refuses_invalid(cli, tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("2 1\n1\n2\n1 1 Taxi\n")
    r = cli("map", "convert", str(p), str(tmp_path / "o.json"))
    assert r.exit_code == 2
    assert "self-loop" not in r.stderr and "to itself" in r.stderr
    assert not (tmp_path / "o.json").exists()


def test_python_dash_m():
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "sy_tools", "validate", "london"], capture_output=True, text=True)
    assert r.returncode == 0 and "ok" in r.stdout


def test_validate_json_unreadable(cli, tmp_path):
    r = cli("validate", "--format", "json", str(tmp_path / "nope.json"))
    assert r.exit_code == 2
    (f,) = json.loads(r.output)
    assert f["code"] == "unreadable" and f["file"] == str(tmp_path / "nope.json")


def test_convert_never_overwrites_its_input(cli, tmp_path):
    src = tmp_path / "m.json"
    assert cli("map", "convert", "london", str(src)).exit_code == 0
    before = src.read_bytes()
    r = cli("map", "convert", str(src), str(src))
    assert r.exit_code == 2 and "refusing to overwrite an input file" in r.stderr
    pair = tmp_path / "pair"
    assert cli("map", "convert", "london", str(pair)).exit_code == 0
    r = cli("map", "convert", str(pair), str(pair))
    assert r.exit_code == 2 and "refusing to overwrite" in r.stderr
    assert src.read_bytes() == before
    rec = tmp_path / "g.json"
    rec.write_text('{"detectives": [{"name": "Red", "start": 13}], "rounds": []}')
    r = cli("record", "convert", str(rec), str(rec))
    assert r.exit_code == 2 and "refusing to overwrite" in r.stderr


def test_validate_rules_cutoff(cli, tmp_path):
    """``validate --rules``: under the cut-off escape a map lacking via data for some bus or
    underground connections gets a ``via-incomplete`` warning with the count (counted here from
    the map file itself); classic rules, or complete via data, give none."""
    from pathlib import Path

    import sy_tools

    data = json.loads((Path(sy_tools.__file__).parent.parent / "data" / "london.json").read_text())
    lines = [c for c in data["connections"] if c["transport"] in ("bus", "underground")]
    lacking = sum(1 for c in lines if not c.get("via"))
    assert 0 < lacking < len(lines)
    rules = tmp_path / "cutoff.json"
    rules.write_text('{"preset": "classic", "cutoff_escape": true}')

    assert cli("validate", "london", "--rules", "classic").output.strip() == "london: ok: 0 error(s), 0 warning(s)"
    r = cli("validate", "london", "--rules", str(rules))
    assert r.exit_code == 0 and r.output.splitlines() == [
        f"london: warning: the cut-off escape rule is asked for, but {lacking} of {len(lines)} bus/underground "
        "connections have no via data (a detective on the way never closes them) [via-incomplete]",
        "london: ok: 0 error(s), 1 warning(s)"]
    r = cli("validate", "london", "--rules", str(rules), "--strict", "--format", "json")
    assert r.exit_code == 1 and [(f["level"], f["code"], f["file"]) for f in json.loads(r.output)] == [
        ("error", "via-incomplete", "london")]

    full = tmp_path / "full.json"  # every bus line has via data: nothing to warn about
    full.write_text(json.dumps({"stations": [{"id": i} for i in (1, 2, 3)], "connections": [
        {"a": 1, "b": 2, "transport": "taxi"}, {"a": 2, "b": 3, "transport": "taxi"},
        {"a": 1, "b": 3, "transport": "bus", "via": [2]}]}))
    r = cli("validate", str(full), "--rules", str(rules))
    assert r.exit_code == 0 and r.output.strip() == f"{full}: ok: 0 error(s), 0 warning(s)"

    r = cli("validate", "london", "--rules", "nosuch")
    assert r.exit_code == 2 and r.stderr.strip() == (
        "error: --rules: unknown rules preset 'nosuch' and no such file (presets: classic, 2014)")
    (tmp_path / "typo.json").write_text('{"cutof_escape": true}')
    r = cli("validate", "london", "--rules", str(tmp_path / "typo.json"))
    assert r.exit_code == 2 and r.stderr.startswith(f"error: {tmp_path / 'typo.json'}: rules.cutof_escape: unknown rule")


def test_map_neighbours_takes_the_map_as_the_other_map_commands_do(cli, tmp_path):
    """``map neighbours london 74`` failed ("'london' is not a valid integer") where ``map info
    london`` works; the map comes first (a name or a file), or from --map, never from both."""
    want = cli("map", "neighbours", "74", "--format", "json")
    assert want.exit_code == 0 and json.loads(want.stdout)["station"] == 74
    assert cli("map", "neighbours", "london", "74", "--format", "json").stdout == want.stdout
    assert cli("map", "neighbours", "74", "--map", "london", "--format", "json").stdout == want.stdout
    copy = tmp_path / "copy.json"
    assert cli("map", "convert", "london", str(copy)).exit_code == 0
    assert cli("map", "neighbours", str(copy), "74", "--format", "json").stdout == want.stdout
    r = cli("map", "neighbours", "london", "74", "--map", str(copy))
    assert r.exit_code == 2 and r.stderr.startswith("error: the map is given twice")
    r = cli("map", "neighbours", "london")
    assert r.exit_code == 2 and r.stderr == ("error: expected [MAP] STATION (e.g. 'london 74', or '74' with --map), "
                                             "got only 'london'\n")


@pytest.mark.parametrize("args", [
    ("simulate", "-n", "1"),
    ("play", "--new"),
    ("heatmap", "-o", "x.png"),
    ("map", "neighbours", "1"),
    ("puzzle", "find", "-o", "x.json"),
    ("advise", "--around", "45", "--detectives", "13,26"),
    ("cordon", "--around", "45", "--detectives", "13,26"),
    ("solve", "--around", "45", "--detectives", "13,26"),
])
def test_an_unknown_map_is_refused_naming_the_flag(cli, args, tmp_path, monkeypatch):
    # every command with --map: one line naming the flag, the value and the built-in maps
    monkeypatch.chdir(tmp_path)
    r = cli(*args, "--map", "nowhere")
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == "error: --map: unknown map 'nowhere' and no such file or folder (built-in maps: london)"
    assert list(tmp_path.iterdir()) == []
