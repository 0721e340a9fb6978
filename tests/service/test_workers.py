"""Worker processes warm up when they start, so a worker's first board is not its slowest."""

from __future__ import annotations

from render import text
from service.workers import CpuPool


def glyphs_drawn() -> int:
    return text.glyphs.cache_info().currsize


def fonts_read() -> int:
    return text.coverage.cache_info().currsize


def test_a_started_worker_has_drawn_the_opening_boards_before_its_first_job():
    pool = CpuPool(workers=1)
    try:
        pool.start()
        assert pool.call(glyphs_drawn) > 100
        assert pool.call(fonts_read) == 3  # the fallback font's map too, which no opening board needs
    finally:
        pool.close()
