"""How history rows keep what they hold: compact JSON, deflated. A position is mostly the same
labels and numbers again and again, so a conquest state of 9 KB keeps in about 1.4 KB; every past
turn can still be read back exactly. Rows written as plain JSON text read back the same way."""

from __future__ import annotations

import json
import zlib
from typing import Any


def pack(value: Any) -> bytes:
    return zlib.compress(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"), 6)


def unpack(stored: bytes | str) -> Any:
    return json.loads(zlib.decompress(stored) if isinstance(stored, bytes) else stored)
