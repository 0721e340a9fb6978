"""The ranks tutorial: a short game on the shipped ``duel`` map, played by its own orders, paused
where each rule shows (red plays, blue passes)."""

from __future__ import annotations

from functools import cache

from engine.i18n import mark
from engine.ruleset import Ruleset, TutorialPage

SCRIPT = (  # red's turns; blue passes after each
    "spawn C3",
    "C3>C4",
    "C4>C5",
    "C5>C6",
    "C6>B6; up B6",
)


@cache
def pages(rs: Ruleset) -> tuple[TutorialPage, ...]:
    states = [rs.setup(2, {"map": "duel"}, seed=1)]
    for orders in SCRIPT:
        state = states[-1]
        state = rs.resolve(state, {0: rs.parse_orders(state, 0, orders)}).state
        state = rs.resolve(state, {1: rs.parse_orders(state, 1, "pass")}).state
        states.append(state)
    return (
        TutorialPage(
            mark(
                "**The board.** Pink cells are **cities**; touching pink cells are one city. Outlined cells "
                "are **tracks**, where green **NPC** pawns wait. The crown is your **capital**: after every "
                "turn, a player without an army on his capital is out. The last player left wins."
            ),
            states[0],
        ),
        TutorialPage(
            mark(
                "**Spawn.** A turn is a spawn *or* moves. `spawn` puts a pawn in every city you control (you "
                "have an army in it and nobody else does); `spawn C3` picks the cell. Your order is drawn "
                "on the board."
            ),
            states[0],
            0,
            SCRIPT[0],
        ),
        TutorialPage(
            mark(
                "**Move.** Any of your armies, each once, in the order written: `C3>C4; D2>E3`. A pawn steps "
                "up, down, left or right; an archer diagonally; a knight jumps like a chess knight; a tank "
                "steps for 1 exp, or `blast`s the 8 cells around it."
            ),
            states[1],
            0,
            SCRIPT[1],
        ),
        TutorialPage(
            mark(
                "**Capture and rank up.** Moving onto any army (even your own) or an NPC eliminates it and "
                "earns exp: 1 for a pawn, archer or NPC, 2 for a knight or tank. After the moves, each exp "
                "raises an army a rank — pawn → archer → knight — with `up B6`; three ranks at once "
                "(`up B6 3`) make a pawn a tank."
            ),
            states[4],
            0,
            SCRIPT[4],
        ),
        TutorialPage(
            mark(
                "**Then the NPCs** step onto a neighbouring track cell that holds a player's army and eliminate "
                "it — so cross tracks with care. Then every capital is checked. `pass` skips the spawn or move; "
                "after the turn limit the most armies, then the most exp, win. `/rules ranks` has it all."
            ),
            states[5],
        ),
    )
