"""The engine stays pure: no Discord, database, images, event loop, wall clock or global random."""

from __future__ import annotations

import ast
import pathlib

ENGINE = pathlib.Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {"discord", "aiosqlite", "sqlite3", "PIL", "asyncio", "time", "datetime", "random", "apscheduler"}


def test_engine_imports_only_pure_modules():
    offenders = []
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []
