"""Which top-level modules a package imports, read from its source (nothing is executed)."""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def forbidden_imports(package: str, forbidden: set[str]) -> list[str]:
    """``file: module`` for every absolute import in ``package`` whose top-level name is forbidden."""
    offenders = []
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in forbidden]
    return offenders
