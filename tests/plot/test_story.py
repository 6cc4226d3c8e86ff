"""The story layer streams its frames to the file (issue 44): its memory stays bounded however
long the game, the animation it writes is the frames drawn, and a format it does not write is
refused naming those it does."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import REPO, default_signals
from PIL import Image

from sy_tools.plot.gif import GifWriter

EX = REPO / "examples"

_MEASURE = """
import gc
import sys
sys.path.insert(0, sys.argv[2])
from longgames import long_game
from sy_tools import plot
from sy_tools.formats.game_json import parse_record
from sy_tools.formats.map_load import load_board

PAGE = 4096


def resident():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE // 2**20


rounds = int(sys.argv[1])
rec = parse_record(long_game(load_board("london"), rounds, seed=3))
after = []


def figures():
    for fig in plot.story_figures(rec, size=(4, 3), dpi=250):
        gc.collect()  # (a closed figure's cycles go now, not at some later collection)
        after.append(resident())  # (the frames before this one are written by now)
        yield fig


plot.save_story(figures(), sys.argv[3], 250)
print(" ".join(map(str, after)))
"""


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads the resident size from /proc")
def test_the_story_of_a_long_game_keeps_its_memory_flat(tmp_path):
    """Every frame used to be kept until the GIF was written (about 4 MB a round at the default
    size: a long legal record needed tens of GB).  Now a frame is written as soon as it is drawn:
    over the second half of a 24-round game (1000x750 frames) the resident size stays put, where
    it grew by 8-9 MiB before (about a frame a round).  Measured in a process of its own, the
    garbage collected before each look and malloc told to hand large blocks back at once, so
    the resident size follows what is held."""
    import os

    out = tmp_path / "long.gif"
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "65536"}
    p = subprocess.run([sys.executable, "-c", _MEASURE, "24", str(REPO / "tests"), str(out)], capture_output=True,
                       text=True, timeout=600, env=env, preexec_fn=default_signals)
    assert p.returncode == 0, p.stderr[-2000:]
    sizes = [int(x) for x in p.stdout.split()]
    assert len(sizes) == 24
    grew = max(sizes[12:]) - sizes[12]
    assert grew < 3, f"{grew} MiB more over rounds 13-24: {sizes}"
    with Image.open(out) as im:
        assert im.n_frames == 24 and im.size == (1000, 750)


def _frames(n: int, size: tuple[int, int] = (64, 48)) -> list[Image.Image]:
    """``n`` pictures, each a little different from the one before (a moving square on a
    changing half), but frame 3 the same as frame 2."""
    out = []
    for k in range(n):
        j = 2 if k == 3 else k
        a = np.full((size[1], size[0], 3), 250, np.uint8)
        a[:, : size[0] // 2] = (30 * j % 255, 120, 200)
        a[5 + j: 15 + j, 10 + 3 * j: 20 + 3 * j] = (200, 30, 30)
        out.append(Image.fromarray(a))
    return out


def test_the_animation_is_the_frames_drawn():
    """Decoded again, each frame (the changed box written over the one before, the rest clear)
    is the picture given, up to the colours quantising takes; a frame the same as the one
    before lengthens that one; the last one shows as long as asked."""
    pictures = _frames(6)
    buf = io.BytesIO()
    gif = GifWriter(buf)
    for pic in pictures:
        gif.add(pic, 100)
    gif.finish(700)
    buf.seek(0)
    with Image.open(buf) as im:
        assert im.n_frames == 5 and im.info.get("loop") == 0
        durations = []
        shown = [p for k, p in enumerate(pictures) if k != 3]
        for k in range(im.n_frames):
            im.seek(k)
            durations.append(im.info["duration"])
            got = np.asarray(im.convert("RGB"), dtype=int)
            want = np.asarray(shown[k], dtype=int)
            assert np.abs(got - want).max() <= 8, k
    assert durations == [100, 100, 200, 100, 700]


def test_a_frame_of_another_size_is_refused():
    gif = GifWriter(io.BytesIO())
    gif.add(Image.new("RGB", (10, 10)), 100)
    with pytest.raises(ValueError, match="size"):
        gif.add(Image.new("RGB", (11, 10)), 100)


def test_a_format_the_story_does_not_write_names_those_it_does(cli, tmp_path):
    """``heatmap --layer story -o x.webp`` was refused as an image format, '.png, .svg or .pdf',
    without saying that .gif is what the story writes."""
    r = cli("heatmap", str(EX / "capture.json"), "--layer", "story", "-o", str(tmp_path / "x.webp"))
    assert r.exit_code == 2
    assert r.stderr == (f"error: {tmp_path / 'x.webp'}: unknown story format '.webp': the story is written as .gif "
                        "(an animation, a frame a round), .pdf (a page a round), .png or .svg (its last round)\n")
    assert not (tmp_path / "x.webp").exists()
