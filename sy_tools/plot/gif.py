"""An animated GIF written a frame at a time, so a long animation needs no more memory than two
frames (Pillow's own writer keeps every frame until the end).

Each frame is quantised and LZW-coded by Pillow, as a GIF of its own, from the box around what
changed since the frame before, the pixels in it that did not change made transparent (they
compress to almost nothing); :class:`GifWriter` takes that image block out of it and writes it
into the animation with its own colour table and delay (the GIF89a format: a header, a loop
extension, then per frame a graphic control extension and an image block)."""

from __future__ import annotations

import io
import struct
from typing import BinaryIO

from PIL import Image, ImageChops

#: Colours per frame: a GIF colour table holds 256, and the last one is kept for "clear".
COLOURS = 255

#: The colour index of a pixel that lets the frame before show through.
CLEAR = 255


class GifWriter:
    """Frames (:meth:`add`) written to ``out`` as they come, looping ``loop`` times (0: for ever);
    :meth:`finish` ends the file.  A frame the same as the one before lengthens that one."""

    def __init__(self, out: BinaryIO, loop: int = 0) -> None:
        self.out = out
        self.loop = loop
        self.size: tuple[int, int] | None = None
        self._before: Image.Image | None = None
        self._pending: tuple[bytes, bool] | None = None  # the last frame's image block (and if it has clear
        # pixels), written once its delay is known
        self._delay = 0  # its delay in milliseconds
        self._own = 0  # the part of that delay its own add() gave

    def add(self, picture: Image.Image, ms: int) -> None:
        """Show ``picture`` (the size of the first) for ``ms`` milliseconds."""
        rgb = picture.convert("RGB")
        if self._before is None:
            self.size = rgb.size
            self.out.write(b"GIF89a" + struct.pack("<HHBBB", *rgb.size, 0x70, 0, 0)  # no global colour table
                           + b"\x21\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", self.loop) + b"\x00")
            block = _image_block(rgb, 0, 0)
        else:
            if rgb.size != self.size:
                raise ValueError(f"every frame of a GIF has the first one's size {self.size}, got {rgb.size}")
            diff = ImageChops.difference(self._before, rgb)
            box = diff.getbbox()
            if box is None:  # nothing changed: the frame before stays longer
                self._delay += ms
                self._own = ms
                return
            r, g, b = diff.crop(box).split()
            same = ImageChops.lighter(ImageChops.lighter(r, g), b).point([255] + [0] * 255)
            block = _image_block(rgb.crop(box), box[0], box[1], same)
        self._before = rgb
        self._write_pending()
        self._pending, self._delay, self._own = block, ms, ms

    def finish(self, last_ms: int | None = None) -> None:
        """Write the last frame (shown ``last_ms`` milliseconds instead of its own, when given)
        and the trailer."""
        if self._pending is None:
            raise ValueError("a GIF needs a frame")
        if last_ms is not None:
            self._delay += last_ms - self._own
        self._write_pending()
        self.out.write(b"\x3b")

    def _write_pending(self) -> None:
        if self._pending is None:
            return
        block, clear = self._pending
        centiseconds = min(0xFFFF, max(0, round(self._delay / 10)))
        # a graphic control extension: disposal 1 (the frame stays under the next one), the delay,
        # and CLEAR as the transparent index when the frame has such pixels
        flags = 0x04 | (0x01 if clear else 0)
        self.out.write(b"\x21\xf9\x04" + struct.pack("<BHB", flags, centiseconds, CLEAR if clear else 0) + b"\x00"
                       + block)
        self._pending = None


def _image_block(part: Image.Image, left: int, top: int, same: Image.Image | None = None) -> tuple[bytes, bool]:
    """``part`` (an RGB picture) as a GIF image block placed at (``left``, ``top``), the pixels
    where the mask ``same`` is set made :data:`CLEAR`: the image descriptor, a local colour
    table and the LZW data, taken from the one-frame GIF Pillow writes; and whether any pixel
    is clear."""
    frame = part.quantize(colors=COLOURS)
    clear = same is not None and same.getbbox() is not None
    if clear:
        colours = (frame.getpalette() or [])[:3 * COLOURS]
        frame.putpalette(colours + [0] * (768 - len(colours)))  # (a table of 256: CLEAR is in it)
        frame.paste(CLEAR, mask=same)
    buf = io.BytesIO()
    frame.save(buf, format="GIF", optimize=False)  # (optimising would renumber the colours, CLEAR too)
    data = buf.getvalue()
    if data[:6] not in (b"GIF87a", b"GIF89a"):  # pragma: no cover - Pillow writes GIFs
        raise ValueError("not a GIF")
    flags = data[10]
    i = 13
    table = b""
    bits = 0
    if flags & 0x80:  # the global colour table: it becomes the frame's own
        bits = flags & 0x07
        table = data[i:i + (3 << (bits + 1))]
        i += len(table)
    while i < len(data):
        kind = data[i]
        if kind == 0x21:  # an extension: its label, then sub-blocks up to an empty one
            i += 2
            while data[i]:
                i += data[i] + 1
            i += 1
        elif kind == 0x2C:
            width, height, own = struct.unpack("<HHB", data[i + 5:i + 10])
            i += 10
            if own & 0x80:  # a local colour table of its own
                bits = own & 0x07
                table = data[i:i + (3 << (bits + 1))]
                i += len(table)
            start = i
            i += 1  # the LZW minimum code size, then sub-blocks up to an empty one
            while data[i]:
                i += data[i] + 1
            i += 1
            descriptor = struct.pack("<HHHHB", left, top, width, height, 0x80 | (own & 0x40) | bits)
            return b"\x2c" + descriptor + table + data[start:i], clear
        else:
            break
    raise ValueError("no image in the GIF")  # pragma: no cover - Pillow writes one
