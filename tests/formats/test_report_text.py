"""The text and JSON renderings the commands print, as library functions (each command only
prints them): :mod:`sy_tools.formats.report_text`, the results' own ``to_text``, the JSON
helpers of :mod:`sy_tools.formats.output`, and the small file helpers the commands share."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from helpers import REPO

from sy_tools.analysis.possible import possible
from sy_tools.engine.tickets import Ticket
from sy_tools.formats import output, report_text
from sy_tools.formats.record_io import load_record

ROOT = REPO
GAME = str(ROOT / "examples" / "in-progress.json")


def test_station_preview_shortens_unless_all():
    assert report_text.station_preview(range(1, 4), False) == "1 2 3"
    assert report_text.station_preview(range(1, 11), False) == "1 2 3 4 5 6 7 8 ... (+2; --all lists them)"
    assert report_text.station_preview(range(1, 11), True) == " ".join(map(str, range(1, 11)))


def test_count_cell_is_exact_then_rounded():
    assert report_text.count_cell(999_999_999_999) == "999999999999"
    assert report_text.count_cell(10**12) == "1.000e+12"
    assert report_text.count_cell(10**400 * 3) == "3.000e+400"  # (no float overflow)


def test_tickets_left_text_leaves_kinds_a_player_lacks_blank():
    text = report_text.tickets_left_text({"Mr. X": {"taxi": 4, "double": 2}, "Red": {"taxi": 10}})
    lines = text.splitlines()
    assert lines[0] == "tickets left:" and lines[1].split() == ["player", "taxi", "bus", "underground", "black",
                                                                "double"]
    assert lines[3].split() == ["Mr.", "X", "4", "2"] and lines[4].split() == ["Red", "10"]


def test_rules_text_spells_values_as_the_json_does():
    text = report_text.rules_text({"a": True, "b": [1, 2], "c": {"taxi": 4}})
    assert text.splitlines()[2:] == ["a     true", "b     1, 2", "c     taxi 4"]


def test_moment_note():
    assert report_text.moment_note({}) == ""
    assert report_text.moment_note({"when": "round 3", "to_move": "mrx"}) == " (round 3; Mr. X moves next)"
    assert report_text.moment_note({"when": "round 3", "to_move": "Red"}) == " (round 3; Red is to move)"


def test_neighbours_text_marks_the_black_ticket():
    from sy_tools.analysis.legal import Neighbours

    text = Neighbours(1, {Ticket.TAXI: (1, 2), Ticket.BLACK: ()}).to_text()
    assert text == "taxi: 1 2\nblack (Mr. X only; the only ticket for the ferry): -"


def test_legal_moves_text_counts_doubles_unless_all():
    from sy_tools.engine.moves import Move

    single = Move.mrx((Ticket.TAXI, 8))
    double = Move.mrx((Ticket.TAXI, 8), (Ticket.BUS, 9))
    from sy_tools.analysis.legal import LegalMoves

    r = LegalMoves("Mr. X", 1, (single, double), 1, 1, when="round 1, after Mr. X's move 1")
    short = r.to_text()
    assert short.splitlines() == ["Mr. X at 1 (round 1, after Mr. X's move 1): 2 legal moves", "  taxi: 8",
                                  "  double moves: 1, ending on 1 stations (--all lists them)"]
    assert r.to_text(True).splitlines()[-1] == "    2X taxi 8 / bus 9"


def test_the_moves_command_prints_the_library_text(cli):
    from sy_tools.analysis.legal import legal_moves

    r = cli("moves", GAME, "--at", "4")
    assert r.exit_code == 0 and r.output == legal_moves(load_record(GAME), 4).to_text() + "\n"


def _cordon_result(**kw):
    from sy_tools.solvers.cordon_result import CordonResult, CordonStatus, DetectivePlan

    plan = DetectivePlan("Red", (100, 101), ("taxi",), True)
    fields = dict(context={}, moves=2, target=tuple(range(1, 11)), probabilities={5: 0.5}, cordon_size=3,
                  cordon_status=CordonStatus.OPTIMAL, cordon=(1, 2, 3), detectives_available=1, plan=(plan,),
                  feasible=False, open=(4,), sealed_probability=0.25, status=CordonStatus.OPTIMAL, wall_time=0.5)
    return CordonResult(**{**fields, **kw})


def test_cordon_text_shortens_unless_all():
    lines = _cordon_result().to_text().splitlines()
    assert lines[0] == ("Mr. X may be at 10 stations after 1 more move; most likely: 5 (0.50), 1 (0.00), 2 (0.00), "
                        "3 (0.00), 4 (0.00), 6 (0.00), 7 (0.00), 8 (0.00) ... (+2; --all lists them)")
    assert lines[1:3] == ["cordon size: 3 (optimal); 1 detective available", "one minimal cordon: 1 2 3"]
    assert lines[3] == "plan for 2 turns: cannot seal everything"
    assert lines[-3:] == ["open stations (1): 4", "sealed probability: 0.2500", "solver: optimal, 0.50 s"]
    full = _cordon_result(cordon_size=None, plan=(), detectives_available=0).to_text(show_all=True).splitlines()
    assert full[0] == "Mr. X may be at 10 stations after 1 more move: 1 2 3 4 5 6 7 8 9 10"
    assert full[1] == "cordon size: not found within the time limit (optimal)"


def test_the_cordon_command_prints_the_library_text(cli):
    text = cli("cordon", "--around", "83", "--detectives", "Red=100,Blue=114,Green=82", "--moves", "2").output
    assert text.startswith("Mr. X may be at 11 stations after 1 more move; most likely: 83 (0.17)")
    assert "one minimal cordon: " in text and text.rstrip().splitlines()[-1].startswith("solver: ")


def test_possible_text_and_csv_are_the_commands(cli):
    result = possible(load_record(GAME))
    assert cli("possible", GAME, "--top", "3").output == result.to_text(3) + "\n"
    assert cli("possible", GAME, "--format", "csv").output == result.to_csv()
    csv = result.to_csv(2).splitlines()
    assert csv[0] == "station,probability,routes" and len(csv) == 3
    text = possible(load_record(GAME), history=True).to_text()
    assert "history (where he could have been after each move, given the whole record):" in text
    assert "... and" in result.to_text(1) and "... and" not in result.to_text()


def test_map_info_and_validation_text(cli):
    from sy_tools.analysis.mapstats import map_info
    from sy_tools.formats.map_check import validate_map
    from sy_tools.formats.map_load import load_board

    info = map_info(load_board("london"))
    assert cli("map", "info").output == info.to_text() + "\n"
    assert cli("map", "info", "--format", "csv").output == info.to_csv()
    report = validate_map("london", None, None)
    assert cli("validate", "london").output == report.to_text() + "\n"
    assert report.to_text().endswith(": ok: 0 error(s), 0 warning(s)")


def test_json_helpers_match_the_plain_encoder():
    obj = {"a": [1, 2], "é": None, "n": 1.5}
    assert json.loads(output.json_line(obj)) == obj and "\n" not in output.json_line(obj)
    assert output.json_text(obj) == output.dumps(obj)
    assert output.indented("a\nb") == "  a\n  b"


def test_jsonl_line_is_the_batch_render():
    from sy_tools.analysis.batch import jsonl_line

    result = possible(load_record(GAME), "uniform")
    line = jsonl_line(result)
    assert line.endswith("\n") and json.loads(line) == result.to_dict()


def test_output_path_and_record_inputs(tmp_path):
    from sy_tools.formats.files import output_path
    from sy_tools.formats.record import record_map_path
    from sy_tools.formats.record_io import record_input_files

    assert output_path("-") == "/dev/stdout" and output_path("x.json") == "x.json"
    assert record_map_path("london", "a/b.json") == "london"
    assert record_map_path("m.json", "a/b.json") == os.path.join("a", "m.json")
    assert record_map_path("/m.json", "a/b.json") == "/m.json" and record_map_path("m.json", None) == "m.json"
    assert record_input_files(GAME, load_record(GAME)) == [GAME]  # the built-in map has no files
    from sy_tools.formats.map_load import load_board
    from sy_tools.formats.map_write import write_map

    write_map(load_board("london"), tmp_path / "m.json")
    doc = json.loads(Path(GAME).read_text())
    (tmp_path / "g.json").write_text(json.dumps({**doc, "map": "m.json"}))
    game = str(tmp_path / "g.json")
    assert record_input_files(game, load_record(game)) == [game, str(tmp_path / "m.json")]


def test_temp_file_beside_takes_the_old_files_mode(tmp_path):
    from sy_tools.formats.files import temp_file_beside

    target = tmp_path / "out.csv"
    fd, name = temp_file_beside(target, stat.S_IFREG | 0o640)
    os.close(fd)
    assert Path(name).parent == tmp_path and stat.S_IMODE(os.stat(name).st_mode) == 0o640
    fd, name2 = temp_file_beside(target, None)
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.stat(name2).st_mode) == 0o666 & ~umask


def test_type_words_each_mean_one_thing(tmp_path):
    from sy_tools.formats import files, jsonutil

    assert files.file_type_name(os.stat(tmp_path).st_mode) == "a folder"
    assert jsonutil.json_type_name([]) == "a list" and jsonutil.json_type_name(None) == "null"
    assert jsonutil.kind is jsonutil.json_type_name  # (the 0.1 name)


def test_renamed_names_keep_their_old_spelling():
    from sy_tools.analysis import tracker
    from sy_tools.formats import game_fast

    assert game_fast.vouched is game_fast.decode_plain_record and game_fast.Vouched is game_fast.PlainRecord
    assert tracker.final_of is tracker.final_state_of_parts
