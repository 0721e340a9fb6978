"""Map files as careless or hostile uploaders write them, for fuzzing ``/map upload``: a game's example
map or one of its shipped maps with a few entries deleted, added, replaced, repeated or swollen
(lone surrogates among the texts), the same drawn as a text grid and mistyped, JSON cut short, bytes that are no text, numbers of thousands of
digits, and nesting deeper than any parser likes."""

from __future__ import annotations

import json
import random
from importlib import resources
from typing import Any

from engine import Ruleset
from service.ops.lobby import shipped_maps

LABELS = ("A1", "B2", "Z26", "AA1", "A0", "a1", "", " ", "J10", "L12", "Q99", "é1", "1A", "C-3", "\ud800", "note")


def seeds(rs: Ruleset) -> list[dict[str, Any]]:
    """The well-formed maps mutations start from: the example and every shipped map."""
    shipped = [
        json.loads((resources.files(type(rs).__module__) / "maps" / f"{name}.json").read_text(encoding="utf-8"))
        for name in shipped_maps(rs)
    ]
    return [dict(rs.map_example or {}), *shipped]


def map_file(rs: Ruleset, rng: random.Random) -> bytes:
    """One file: mostly a mutated map (for a game on a grid, a third of them a mutated drawing),
    sometimes no JSON at all."""
    if rs.map_grid is not None and rng.random() < 0.33:
        return _drawing(rs, rng)
    roll = rng.random()
    if roll < 0.04:
        return rng.randbytes(rng.randrange(0, 200))
    if roll < 0.06:
        return (b"[" * rng.randrange(1000, 100_000)) + b"]"
    if roll < 0.07:  # a number of thousands of digits
        return b'{"name": "Long", "size": ' + b"9" * rng.randrange(4000, 6000) + b"}"
    data: Any = json.loads(json.dumps(rng.choice(seeds(rs))))  # a copy to change
    for _ in range(rng.randrange(1, 5)):
        data = _mutated(data, rng)
    text = json.dumps(data, ensure_ascii=rng.random() < 0.5).encode(errors="surrogatepass")  # as a file may hold them
    if roll < 0.12:
        return text[: rng.randrange(0, max(len(text), 1))]
    return text


def _drawing(rs: Ruleset, rng: random.Random) -> bytes:
    """A map drawn as text, then a few characters or lines changed, repeated, swollen or dropped."""
    assert rs.map_grid is not None
    lines = rs.map_grid.draw(rng.choice(seeds(rs))).split("\n")
    symbols = [symbol for symbol, _ in rs.map_grid.legend] + [" ", "\t", "\r", "x", "é", "\ud800", "{", "0", "9"]
    for _ in range(rng.randrange(0, 6)):
        index = rng.randrange(len(lines))
        line, action = lines[index], rng.random()
        if action < 0.5 and line:
            at = rng.randrange(len(line))
            lines[index] = line[:at] + rng.choice(symbols) + line[at + 1 :]
        elif action < 0.6:
            del lines[index]
            lines = lines or [""]
        elif action < 0.7:
            lines.insert(index, line)
        elif action < 0.75:
            lines[index] = line * rng.randrange(2, 500)
        elif action < 0.8:
            lines.extend([line] * rng.randrange(10, 400))
        else:
            lines[index] = line.replace(" ", "")
    return "\n".join(lines).encode(errors="surrogatepass")


def _mutated(value: Any, rng: random.Random) -> Any:
    """``value`` with one of its entries (or itself) changed."""
    if isinstance(value, dict) and value and rng.random() < 0.75:
        key = rng.choice(list(value))
        if rng.random() < 0.1:  # an entry no map has
            value[rng.choice(LABELS)] = _anything(rng)
        elif rng.random() < 0.15:
            del value[key]
        else:
            value[key] = _mutated(value[key], rng)
        return value
    if isinstance(value, list) and value and rng.random() < 0.75:
        index = rng.randrange(len(value))
        action = rng.random()
        if action < 0.15:
            del value[index]
        elif action < 0.3:
            value.insert(index, value[index])  # a repeated entry
        elif action < 0.35:
            value.extend([value[index]] * rng.randrange(100, 2000))  # swollen
        else:
            value[index] = _mutated(value[index], rng)
        return value
    return _anything(rng)


def _anything(rng: random.Random) -> Any:
    """A JSON value of any kind, often one a map uses in the wrong place."""
    kind = rng.randrange(9)
    if kind == 0:
        return rng.choice(LABELS)
    if kind == 1:
        return rng.choice((0, -1, 1, 2, 3, 7, 26, 27, 10**6, 10**30, -(10**18)))
    if kind == 2:
        return rng.choice((0.5, -0.0, 1e308, float("inf"), float("nan")))
    if kind == 3:
        return rng.choice((None, True, False))
    if kind == 4:
        return [rng.choice(LABELS) for _ in range(rng.randrange(0, 6))]
    if kind == 5:
        return {rng.choice(LABELS): rng.randrange(-2, 5) for _ in range(rng.randrange(0, 4))}
    if kind == 6:
        return [[rng.uniform(-5, 5), rng.uniform(-5, 5)] for _ in range(rng.randrange(0, 5))]
    if kind == 7:
        return " ".join(rng.choice("nbsg.x") for _ in range(rng.randrange(0, 12)))
    return "x" * rng.randrange(0, 300)
