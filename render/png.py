"""PNG encoding: boards are flat colours plus anti-aliased text, so a 256-colour palette keeps
them sharp and small enough to post (the largest map stays well under 500 KB)."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

SAVE_OPTIONS: dict[str, Any] = {"format": "PNG", "optimize": True}


def encode(image: Image.Image) -> bytes:
    palette = image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, **SAVE_OPTIONS)
    return out.getvalue()
