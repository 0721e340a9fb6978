"""The bot's layers: the cogs and the web site speak to the game master only. They may catch the
engine's error types, but they never load a state, take a view or parse orders themselves — the
presenter does that."""

from __future__ import annotations

import ast
import graphlib
import re
from types import SimpleNamespace

import pytest

from tests.imports import ROOT, module_graph

ENGINE_CALLS = {"from_dict", "to_dict", "view", "parse_orders", "resolve", "setup", "ai_orders", "suggest_orders"}


def _trees(package: str):
    for path in sorted((ROOT / package).rglob("*.py")):
        yield path.name, ast.parse(path.read_text(encoding="utf-8"))


FRONTS = ("cogs", "web")  # what players see: Discord, and the web site
NOT_THE_ENGINE = {"runner"}  # aiohttp's AppRunner has a setup() of its own


@pytest.mark.parametrize("front", FRONTS)
def test_fronts_import_nothing_from_the_engine_but_its_errors(front):
    offenders = []
    for name, tree in _trees(front):
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                offenders += [
                    f"{name}: import {a.name}" for a in node.names if a.name.split(".")[0] in ("engine", "render")
                ]
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ("engine", "render"):
                offenders += [f"{name}: {node.module}.{a.name}" for a in node.names if not a.name.endswith("Error")]
    assert offenders == []


@pytest.mark.parametrize("front", FRONTS)
def test_fronts_never_call_the_engine(front):
    calls = []
    for name, tree in _trees(front):
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ENGINE_CALLS:
                if getattr(node.func.value, "id", None) not in NOT_THE_ENGINE:
                    calls.append(f"{name}:{node.lineno} .{node.func.attr}()")
    assert calls == []


def test_no_module_imports_itself_in_a_circle():
    """No import cycles among the product's modules, lazy and type-checking imports counted too: a
    cycle ties modules that should be read, tested and changed apart."""
    graph = module_graph(("engine", "render", "service", "cogs", "i18n", "web"))
    assert len(graph) > 100
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as cycle:
        raise AssertionError(f"an import cycle: {' -> '.join(cycle.args[1])}") from None


SHARED = ("bot.py", "cogs", "service", "i18n", "render", "engine", "web")  # where no game is named in code


def _shared_modules():
    for place in SHARED:
        paths = [ROOT / place] if place.endswith(".py") else sorted((ROOT / place).rglob("*.py"))
        for path in paths:
            parts = path.relative_to(ROOT).parts
            own = (parts[0] == "engine" and len(parts) > 2) or parts[:2] == ("render", "boards")
            if not own:
                yield path


def test_no_shared_module_names_a_game_in_its_code():
    """A game is found by name, never listed: outside its own package and board drawing, no string in
    the code (docstrings aside, which may give examples) names a registered ruleset."""
    from engine import RULESETS

    named = []
    for path in _shared_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                words = set(re.findall(r"[a-z]+", node.value.lower()))
                named += [f"{path.relative_to(ROOT)}:{node.lineno} {name}" for name in RULESETS if name in words]
    assert named == []


SQL = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|PRAGMA|WITH)\s|\bON CONFLICT\b")
PRODUCT = ("bot.py", "cogs", "service", "i18n", "render", "engine", "tools")


def _string_parts(tree: ast.AST):
    """Every string constant of a module's code, f-strings' literal parts included."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node
        elif isinstance(node, ast.JoinedStr):
            yield from (part for part in node.values if isinstance(part, ast.Constant))


def test_every_sql_statement_is_in_the_storage_package():
    """What the database is asked lives in ``service.storage`` alone: a schema change, a new store or
    a slow query is looked for in one package."""
    storage = ROOT / "service" / "storage"
    found = []
    for place in PRODUCT:
        paths = [ROOT / place] if place.endswith(".py") else sorted((ROOT / place).rglob("*.py"))
        for path in paths:
            if storage in path.parents:
                continue
            for node in _string_parts(ast.parse(path.read_text(encoding="utf-8"))):
                if SQL.search(node.value):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value.strip()[:40]!r}")
    assert found == []


def test_cogs_hold_the_operations_they_use_not_the_game_master():
    """A cog names the game master only to take an operation from it (``service.master.play``): it
    depends on what it uses, and a test of it can hand it that operation alone."""
    from service import GameMaster
    from service.clock import ManualClock

    operations = set(vars(GameMaster(SimpleNamespace(shared=False), ManualClock())))  # no store is touched
    assert {"play", "lobby"} <= operations
    loose = []
    for name, tree in _trees("cogs"):
        taken = {
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.attr in operations
        }
        loose += [
            f"{name}:{node.lineno}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr == "master" and id(node) not in taken
        ]
    assert loose == []
