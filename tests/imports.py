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


def module_graph(packages: tuple[str, ...]) -> dict[str, set[str]]:
    """For every module of ``packages``, the modules of ``packages`` it imports anywhere in its
    source: at the top, inside functions (lazy) and under ``TYPE_CHECKING`` alike. A module's own
    ancestor packages are left out: Python runs them first whatever the module imports."""
    paths = {}
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            paths[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        named = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                named += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                named += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        graph[module] = set()
        for name in named:
            while name and name not in paths:
                name = name.rpartition(".")[0]
            if name and name != module and not module.startswith(f"{name}."):
                graph[module].add(name)
    return graph
