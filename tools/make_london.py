"""One-off: convert the public London board data (stations.txt + connections.txt) into
data/london.json, adding the start decks from the rulebooks and the via data of the rulebook's
cut-off escape examples.  Kept so the conversion can be
repeated and reviewed; nothing at run or test time reads the raw data.

    python tools/make_london.py ../shared/data/london-board data/london.json
"""

from __future__ import annotations

import sys
from pathlib import Path

from sy_tools.formats.files import atomic_write_text
from sy_tools.formats.map_check import check_raw
from sy_tools.formats.map_load import board_from_raw
from sy_tools.formats.map_text import read_pair
from sy_tools.formats.map_write import to_json_text

CLASSIC = [13, 26, 29, 34, 50, 53, 91, 94, 103, 112, 117, 132, 138, 141, 155, 174, 197, 198]
MRX_2014 = [35, 45, 51, 71, 78, 104, 106, 127, 132, 146, 166, 170, 172]
DETECTIVES_2014 = [13, 26, 29, 34, 50, 53, 91, 94, 103, 112, 117, 123, 138, 141, 155, 174]
#: stations a line passes over on the board (the cut-off escape rule), only where it is certain:
#: the rulebook's own examples (underground 153-140 passes 154; underground 74-46 passes 58, 45)
VIA = {(140, 153, "underground"): [154], (46, 74, "underground"): [58, 45]}


def main(src: str, out: str) -> None:
    raw = read_pair(Path(src))
    bad = [f for f in check_raw(raw) if f.level == "error"]
    if bad:
        sys.exit("\n".join(map(str, bad)))
    board = board_from_raw(raw)
    board = type(board).build(
        "london",
        board.stations,
        board.connections,
        board.coords,
        {"classic": CLASSIC, "2014-mrx": MRX_2014, "2014-detectives": DETECTIVES_2014},
        VIA,
    )
    atomic_write_text(out, to_json_text(board))


if __name__ == "__main__":
    main(*sys.argv[1:3])
