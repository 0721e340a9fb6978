"""Render is a pure, synchronous library: no Discord, no event loop, no database, no hidden state."""

from __future__ import annotations

import hashlib
import os
import pathlib
import subprocess
import sys
import textwrap

from engine import find_ruleset
from render import board_png
from tests.imports import forbidden_imports

ROOT = pathlib.Path(__file__).resolve().parents[2]
FORBIDDEN = {"discord", "asyncio", "aiosqlite", "sqlite3", "apscheduler", "service", "cogs"}


def run(script: str, **env: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **env},
    )
    return result.stdout.strip()


def test_render_modules_import_nothing_forbidden():
    assert forbidden_imports("render", FORBIDDEN) == []


def test_drawing_a_board_loads_no_discord_or_event_loop():
    loaded = run("""
        import sys
        from engine import find_ruleset
        from render import board_png
        rules = find_ruleset("conquest")
        board_png(rules.view(rules.setup(2, {}, seed=1), None), names=["a", "b"])
        print(sorted(m for m in sys.modules if m.split(".")[0] in {"discord", "asyncio", "aiosqlite"}))
    """)
    assert loaded == "[]"


def digest() -> str:
    rules = find_ruleset("conquest")
    state = rules.setup(3, {}, seed=5)
    for _ in range(4):
        orders = {seat: rules.ai_orders(state, seat, 5) for seat in rules.acting_players(state)}
        state = rules.resolve(state, orders).state
    data = board_png(rules.view(state, 1), names=["Алиса", "小明", "Bob"], orders=rules.ai_orders(state, 1, 6))
    return hashlib.sha256(data).hexdigest()


def test_same_bytes_in_every_process():
    """No hash seed, cache or thread state leaks into the image."""
    script = "from tests.render.test_purity import digest; print(digest())"
    assert {run(script, PYTHONHASHSEED="1"), run(script, PYTHONHASHSEED="2")} == {digest()}
