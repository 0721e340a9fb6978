"""Players are told apart by a mark as well as by colour (for colour-blind players): with every seat
drawn in one colour, a board still changes when its holdings change hands, and the change is the
marks, for every board gives every seat's holdings their mark."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from bench.positions import BUSY, played
from engine import RULESETS
from render import board_image, clear_caches, shapes, style
from render.boards import conquest, fortress, gra, ranks, siege
from render.frame import HEADER, MARGIN

ONE_COLOUR = ((90, 140, 200),) * len(style.PLAYER_COLOURS)


def handed_on(state, turn: Callable[[int], int]):
    """``state`` with every seat's holdings handed to seat ``turn(seat)``; nothing else changes."""
    if hasattr(state, "cells"):  # conquest
        cells = {h: replace(c, owner=None if c.owner is None else turn(c.owner)) for h, c in state.cells.items()}
        return replace(state, cells=cells, last_moves=())
    if hasattr(state, "graph"):  # gra
        armies = {
            key: {n: (turn(s), count) for n, (s, count) in getattr(state, key).items()} for key in ("ready", "spawning")
        }
        return replace(state, owners={n: turn(s) for n, s in state.owners.items()}, **armies, last=())
    if hasattr(state, "generals"):  # fortress
        seats = {
            key: {c: turn(s) for c, s in getattr(state, key).items()} for key in ("owners", "fortresses", "generals")
        }
        return replace(state, **seats)
    if hasattr(state, "tokens"):  # siege
        return replace(
            state, **{key: {sq: turn(s) for sq, s in getattr(state, key).items()} for key in ("owners", "tokens")}
        )
    return replace(state, armies={sq: replace(a, seat=turn(a.seat)) for sq, a in state.armies.items()}, last=())


def position(name: str):
    """A position with as many players as the game allows and holdings of each on the board."""
    rules = RULESETS[name]
    return BUSY[name](rules, 0) if name in BUSY else played(rules, 12, 1)[0]


LEGEND_TOP = {
    "conquest": lambda view: conquest.layout(view).legend_top,
    "fortress": lambda view: fortress.layout(view).legend_top,
    "gra": lambda view: gra.layout(view).legend_top,
    "ranks": lambda view: ranks.layout(view.state.board, len(view.state.players)).legend_top,
    "siege": lambda view: siege.layout(view).legend_top,
}


def boards(name: str) -> tuple[Image.Image, Image.Image]:
    """The board (between heading and legend, which name the players) of a busy position, and of the
    same position with each seat's holdings handed on to the next seat."""
    rules, state = RULESETS[name], position(name)
    players = len(state.players)
    clear_caches()  # kept pieces are keyed by seat, not by the shape a test gives it
    images = []
    for each in (handed_on(state, lambda seat: seat), handed_on(state, lambda seat: (seat + 1) % players)):
        view = rules.view(each, None)
        image = board_image(view, names=[f"p{seat}" for seat in range(players)])
        images.append(image.crop((0, MARGIN + HEADER, image.width, LEGEND_TOP[name](view))))
    clear_caches()
    return images[0], images[1]


def changed(one: Image.Image, other: Image.Image) -> int:
    """How many pixels differ."""
    return sum(ImageChops.difference(one, other).convert("L").histogram()[1:])


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_holdings_changing_hands_show_in_one_colour(name, monkeypatch):
    monkeypatch.setattr(style, "PLAYER_COLOURS", ONE_COLOUR)
    before, after = boards(name)
    assert before.size == after.size and changed(before, after) > 100, f"{name}: seats look alike in one colour"


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_what_tells_them_apart_is_the_marks(name, monkeypatch):
    """With one colour and one mark for every seat, the two boards are the same: the difference
    above is the marks, not something else the handing on changed."""
    monkeypatch.setattr(style, "PLAYER_COLOURS", ONE_COLOUR)
    monkeypatch.setattr(shapes, "MARKS", (shapes.MARKS[0],) * len(shapes.MARKS))
    before, after = boards(name)
    assert changed(before, after) == 0


def test_every_seat_has_a_mark_of_its_own():
    assert len(set(shapes.MARKS)) == len(shapes.MARKS) >= max(rules.max_players for rules in RULESETS.values())
    assert len(shapes.MARKS) == len(style.PLAYER_COLOURS)
