"""A computer player's search budget: positions evaluated, not seconds, so a seeded bot plays the
same move on a fast machine and a slow one, and a weak level is simply a small budget."""

from __future__ import annotations


class Budget:
    """Nodes left to search. A search stops taking new candidates once it is spent; the candidate in
    hand is finished, so a turn never comes out half-made (and the count may end below zero)."""

    def __init__(self, nodes: int):
        self.left = nodes

    def spend(self, nodes: int = 1) -> None:
        self.left -= nodes

    @property
    def spent(self) -> bool:
        return self.left <= 0
