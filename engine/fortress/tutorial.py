"""The fortress tutorial: the shipped ``highlands`` map, played by its own orders and paused where
each rule shows. Builds are taught in mode 2 (both players build, red first), generals in mode 3
(red's general walks, blue's walks, red's two generals build)."""

from __future__ import annotations

from functools import cache

from engine.fortress.orders import Order
from engine.fortress.state import FortressState, FortressView
from engine.i18n import mark
from engine.ruleset import Ruleset, TutorialPage

Fortress = Ruleset[FortressState, Order, FortressView]

BUILDS = (  # mode 2, the players' moves in turn, red's first
    "build C3",
    "build H5",
    "build E5",
    "build F6",
    "build F5",
)
GENERALS = (  # mode 3, the same
    "C5>B4>A4",
    "I6>H6>G6",
    "C5>B4 build; build A4",
)


def _played(rs: Fortress, mode: int, script: tuple[str, ...]) -> list[FortressState]:
    """The position before each move of ``script`` and after the last."""
    states = [rs.setup(2, {"map": "highlands", "mode": mode}, seed=1)]
    for number, orders in enumerate(script):
        state = states[-1]
        seat = number % 2
        states.append(rs.resolve(state, {seat: rs.parse_orders(state, seat, orders)}).state)
    return states


@cache
def pages(rs: Fortress) -> tuple[TutorialPage[FortressState], ...]:
    built = _played(rs, 2, BUILDS)
    led = _played(rs, 3, GENERALS)
    return (
        TutorialPage(
            mark(
                "**The field.** Two players take turns on a field of hexagons, a fixed number of moves each (15 by "
                "default). The star is your **city**: it and the six cells around it are yours from the start, and a "
                "city never changes hands. Brown cells are **mountains**, blue ones **water**: nothing is built on "
                "them, but they can be claimed. The larger territory at the end wins."
            ),
            built[0],
        ),
        TutorialPage(
            mark(
                "**Build.** In modes 1 and 2, each move you build one fortress, on a land cell that is yours or next "
                "to yours, without a fortress and not a city: `build C3` (or just `C3`). The cell and its six "
                "neighbours become yours — here C3 also claims the mountain B3 and the water C2."
            ),
            built[0],
            0,
            BUILDS[0],
        ),
        TutorialPage(
            mark(
                "**Take cells.** A fortress takes its neighbours from the opponent too, even cells under his "
                "fortresses. Blue's fortress on F6 took E6 and F5 from you; `build F5` takes them back, with F6 and "
                "G5, and claims F4. Blue's fortress on F6 stays, but the cell is yours until a fortress next to it "
                "claims it again."
            ),
            built[4],
            0,
            BUILDS[4],
        ),
        TutorialPage(
            mark(
                "**Modes and generals.** Mode 1 (*I'm too young to die*) is a plain field; mode 2 (*Hey, not too "
                "rough!*) adds water and mountains; in mode 3 (*Hurt me plenty*) only **generals** build. Each turn "
                "a new general appears in your city, and he must leave it that turn. A general walks one or two "
                "cells: `C5>B4>A4`. He never enters a mountain, an enemy cell or another general's cell; walking "
                "into water ends his move, and from water his only move is one step onto land."
            ),
            led[0],
            0,
            GENERALS[0],
        ),
        TutorialPage(
            mark(
                "**Build with generals.** Each general may do one thing a turn: walk, build where he stands "
                "(`build A4`), or walk one cell and build there (`C5>B4 build`). Here the new general builds on B4 "
                "and the one on A4 builds where he stands; actions are separated by `;`. A general who builds is "
                "gone."
            ),
            led[2],
            0,
            GENERALS[2],
        ),
        TutorialPage(
            mark(
                "**Territory and the end.** Your territory is every cell you own, water and mountains included; the "
                "legend counts it. The second player makes the last move, which cannot be answered, so the first "
                "player gets **komi**: a few cells added to his count, shown beside it. When both have made all "
                "their moves, the larger count wins; equal is a draw. `pass` skips a move (so does a missed "
                "deadline), and a player with no legal move passes automatically. `/rules fortress` has it all."
            ),
            built[5],
        ),
    )
