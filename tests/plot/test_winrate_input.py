"""``heatmap --layer winrate`` on hostile result files: one line naming the file and the row,
exit 2, never a traceback; a parquet needs ``mrx_start`` (an integer) and ``mrx_won`` (a
boolean)."""

from __future__ import annotations

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


@pytest.mark.parametrize("name,start,won,words", [
    ("null", pa.array([None, 13], pa.int64()), [True, False], "row 0: mrx_start must be a station number, got None"),
    ("nan", [float("nan"), 13.0], [True, False], "row 0: mrx_start must be a station number, got nan"),
    ("text", ["13", "14"], [True, False], "row 0: mrx_start must be a station number, got '13'"),
    ("list", [[13], [14]], [True, False], "row 0: mrx_start must be a station number, got [13]"),
    ("struct", [{"at": 13}, {"at": 14}], [True, False], "row 0: mrx_start must be a station number"),
    ("yes", [13, 14], ["yes", "no"], "row 0: mrx_won must be True or False, got 'yes'"),
    ("five", [13, 14], [5, 0], "row 0: mrx_won must be True or False, got 5"),
    ("missing", [13, 14], None, "not a simulate results file"),
])
def test_bad_parquet_is_one_line(cli, tmp_path, name, start, won, words):
    p = tmp_path / f"{name}.parquet"
    cols = {"mrx_start": start} if won is None else {"mrx_start": start, "mrx_won": won}
    pq.write_table(pa.table(cols), p)
    r = cli("heatmap", "--layer", "winrate", str(p), "-o", str(tmp_path / "out.png"))
    assert r.exit_code == 2 and words in r.stderr, r.stderr
    assert r.stderr.startswith(f"error: {p}") and r.stderr.count("\n") == 1
    assert not (tmp_path / "out.png").exists()


def test_good_parquet_draws(cli, tmp_path):
    p = tmp_path / "ok.parquet"
    pq.write_table(pa.table({"mrx_start": [13, 13, 26], "mrx_won": [True, False, True]}), p)
    r = cli("heatmap", "--layer", "winrate", str(p), "-o", str(tmp_path / "out.png"))
    assert r.exit_code == 0 and (tmp_path / "out.png").stat().st_size > 0


def test_a_huge_csv_cell_is_one_line(cli, tmp_path):
    p = tmp_path / "big.csv"
    p.write_text("mrx_start,winner\n13,mrx\n" + "1" * (1 << 20) + ",mrx\n")
    r = cli("heatmap", "--layer", "winrate", str(p), "-o", str(tmp_path / "out.png"))
    assert r.exit_code == 2 and r.stderr == f"error: {p}: line 3: not a results CSV: field larger than field limit " \
                                           "(131072)\n"
