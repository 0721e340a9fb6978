"""Gra maps: nodes with positions and edges, the data format, shipped maps, and the generator.

A map as data (shipped files in ``maps/`` and ``options["map"]`` alike)::

    {"name": "ring", "nodes": [[0.0, 0.0], [1.0, 0.2], ...], "edges": [[1, 2], [2, 3], ...]}

Node ``k`` (counting from 1) is ``nodes[k-1]``; players type node numbers. Positions are in any
unit; the renderer scales them. The graph must be connected.

The generator lays points on a jittered triangular lattice (a triangulation of neighbours, so the
drawing is planar), removes some points and edges for variety, and keeps every node's degree between
2 and 6 and the graph connected; the same seed gives the same map.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engine.errors import MapError
from engine.i18n import tr
from engine.mapfiles import Problems
from engine.maps import ShippedMaps
from engine.rng import Rng, seed_state

REACH = 1e6  # the farthest a node may lie from 0 in either direction (so spans stay finite)
SIZES = {"small": (6, 6), "medium": (9, 8), "large": (12, 11)}  # lattice columns, rows (about 30/60/120 nodes)


@dataclass(frozen=True)
class Graph:
    name: str
    positions: tuple[tuple[float, float], ...]  # node k is positions[k - 1]
    edges: frozenset[tuple[int, int]]  # (a, b) with a < b

    @property
    def nodes(self) -> range:
        return range(1, len(self.positions) + 1)

    @cached_property
    def adjacency(self) -> dict[int, tuple[int, ...]]:
        near: dict[int, list[int]] = {n: [] for n in self.nodes}
        for a, b in self.edges:
            near[a].append(b)
            near[b].append(a)
        return {n: tuple(sorted(v)) for n, v in near.items()}

    def adjacent(self, a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in self.edges

    def distances_from(self, *starts: int) -> dict[int, int]:
        """Edges from each node to the nearest of ``starts``."""
        seen = dict.fromkeys(starts, 0)
        queue = deque(starts)
        while queue:
            node = queue.popleft()
            for near in self.adjacency[node]:
                if near not in seen:
                    seen[near] = seen[node] + 1
                    queue.append(near)
        return seen

    @cached_property
    def distance(self) -> dict[int, dict[int, int]]:
        return {n: self.distances_from(n) for n in self.nodes}

    def components(self, nodes: Iterable[int]) -> list[frozenset[int]]:
        """Connected parts of the subgraph on ``nodes``, largest first, then by lowest node."""
        left = set(nodes)
        parts = []
        while left:
            start = min(left)
            part, queue = {start}, deque([start])
            while queue:
                for near in self.adjacency[queue.popleft()]:
                    if near in left and near not in part:
                        part.add(near)
                        queue.append(near)
            left -= part
            parts.append(frozenset(part))
        return sorted(parts, key=lambda p: (-len(p), min(p)))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "nodes": [[x, y] for x, y in self.positions],
            "edges": [list(e) for e in sorted(self.edges)],
        }

    @classmethod
    def from_dict(cls, data: Any) -> Graph:
        """Validate map data; the MapError lists every bad entry, each by name."""
        if not isinstance(data, Mapping):
            raise MapError(tr("a gra map must be an object with name, nodes and edges"))
        problems = Problems()
        name = data.get("name", "custom")
        if not isinstance(name, str) or not name.strip():
            problems.found.append(tr("map name must be a non-empty text"))
        nodes: Any = data.get("nodes")
        edges: Any = data.get("edges")
        if not isinstance(nodes, list) or not 3 <= len(nodes) <= 400:
            problems.found.append(tr("map nodes must be a list of 3 to 400 [x, y] positions"))
            problems.settle()
        positions = problems.each(enumerate(nodes, 1), _position)
        problems.settle()  # edges are checked against the nodes' numbers
        if not isinstance(edges, list) or not 0 < len(edges) <= len(positions) * (len(positions) - 1) // 2:
            raise MapError(tr("map edges must be a list of [a, b] node pairs, each pair once"))
        pairs = set(problems.each(edges, lambda edge: _pair(edge, len(positions))))
        problems.settle()
        graph = cls(name.strip(), tuple(positions), frozenset(pairs))
        parts = graph.components(graph.nodes)
        if len(parts) > 1:
            raise MapError(tr("every node must be reachable; node {node} is cut off from node 1", node=min(parts[1])))
        return graph


def _position(numbered: tuple[int, Any]) -> tuple[float, float]:
    index, point = numbered
    if (
        not isinstance(point, list)
        or len(point) != 2
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) <= REACH for v in point)
    ):
        raise MapError(
            tr(
                "node {node} must be a position [x, y] within {reach} of 0, not {point!r}",
                node=index,
                reach=f"{REACH:g}",
                point=point,
            )
        )
    return float(point[0]), float(point[1])


def _pair(edge: Any, last: int) -> tuple[int, int]:
    if (
        not isinstance(edge, list)
        or len(edge) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in edge)
        or not all(1 <= v <= last for v in edge)
        or edge[0] == edge[1]
    ):
        raise MapError(tr("edge {edge!r} must join two different nodes numbered 1 to {last}", edge=edge, last=last))
    return min(edge), max(edge)


def generate(size: str, seed: int | str) -> Graph:
    columns, rows = SIZES[size]
    rng = Rng(seed_state(f"gra:{size}:{seed}"))
    points: dict[tuple[int, int], tuple[float, float]] = {}
    for row in range(rows):
        for col in range(columns):
            jitter_x, jitter_y = (rng.below(1000) / 1000 - 0.5) * 0.36, (rng.below(1000) / 1000 - 0.5) * 0.32
            points[col, row] = (round(col + 0.5 * (row % 2) + jitter_x, 3), round(row * 0.87 + jitter_y, 3))
    lattice = set()
    for col, row in points:
        shift = row % 2
        for dc, dr in ((1, 0), (shift - 1, 1), (shift, 1)):
            if (col + dc, row + dr) in points:
                lattice.add(((col, row), (col + dc, row + dr)))
    keep = set(points)
    for cell in rng.shuffled(sorted(points))[: len(points) // 8]:
        trial = keep - {cell}
        if _connected(trial, lattice) and all(_degree(n, trial, lattice) >= 2 for n in trial):
            keep = trial
    edges = {e for e in lattice if e[0] in keep and e[1] in keep}
    for edge in rng.shuffled(sorted(edges)):
        fewer = edges - {edge}
        if rng.chance(1, 3) and all(_degree(n, keep, fewer) >= 2 for n in edge) and _connected(keep, fewer):
            edges = fewer
    order = sorted(keep, key=lambda c: (c[1], c[0]))
    number = {cell: i + 1 for i, cell in enumerate(order)}
    return Graph(
        f"generated-{size}",
        tuple(points[c] for c in order),
        frozenset((min(number[a], number[b]), max(number[a], number[b])) for a, b in edges),
    )


def _degree(node, nodes: set, edges: set) -> int:
    return sum(1 for a, b in edges if (a == node and b in nodes) or (b == node and a in nodes))


def _connected(nodes: set, edges: set) -> bool:
    if not nodes:
        return False
    near: dict = {n: [] for n in nodes}
    for a, b in edges:
        if a in nodes and b in nodes:
            near[a].append(b)
            near[b].append(a)
    start = min(nodes)
    seen, queue = {start}, deque([start])
    while queue:
        for other in near[queue.popleft()]:
            if other not in seen:
                seen.add(other)
                queue.append(other)
    return len(seen) == len(nodes)


SHIPPED = ShippedMaps("engine.gra", Graph.from_dict)
