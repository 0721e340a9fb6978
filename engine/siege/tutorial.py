"""The siege tutorial: a short game on the shipped ``ford`` map, played by its own orders and paused
where each rule shows (red crosses the ford, takes a square from blue and breaks a wall)."""

from __future__ import annotations

from functools import cache

from engine.i18n import mark
from engine.ruleset import Ruleset, TutorialPage
from engine.siege.orders import Action
from engine.siege.state import SiegeState, SiegeView

Siege = Ruleset[SiegeState, Action, SiegeView]

SCRIPT = (  # the players' turns in turn, red's first
    "expand E3; expand D3; expand C3",
    "expand E9; expand D9; expand D8",
    "expand C4; expand C5; cross C5>C6",
    "expand D7; expand C7",
    "attack C6>C7; wall C7",
    "wall D7; expand E7",
    "attack C7>D7; attack C7>D7",
)


@cache
def pages(rs: Siege) -> tuple[TutorialPage[SiegeState], ...]:
    states = [rs.setup(2, {"map": "ford"}, seed=1)]
    for number, orders in enumerate(SCRIPT):
        state = states[-1]
        seat = number % 2
        states.append(rs.resolve(state, {seat: rs.parse_orders(state, seat, orders)}).state)
    return (
        TutorialPage(
            mark(
                "**The board.** Two players take turns on a square board; squares touch up, down, left and right "
                "only. The star on E1 is your **capital**, with 3 **tokens** around it; coloured squares are owned, "
                "grey ones neutral. Teal squares are **rivers**, brown ones **mountains** with their level (1 to 3). "
                "Take the enemy capital on F10 to win at once."
            ),
            states[0],
        ),
        TutorialPage(
            mark(
                "**Energy.** Each turn you have **6 EP** for actions, written in order and separated by `;`; what "
                "you leave unspent is lost. `expand E3` (2 EP) puts a new token on an empty land square next to one "
                "of your tokens, not the enemy's. `move C4>C5` (2) steps a token onto an empty square you own; "
                "`deploy C2` (3) puts a new one on an empty land square of your back two rows (rows 1 and 2 for "
                "you). The capital itself never expands, moves or attacks."
            ),
            states[0],
            0,
            SCRIPT[0],
        ),
        TutorialPage(
            mark(
                "**Rivers and mountains.** Nothing is placed on them, but a token steps onto a river with "
                "`cross C5>C6` (2 EP) and onto a mountain of any level with `climb E3>E4` (2), if the square is "
                "neutral or yours: it becomes yours, and the square left stays yours. A token there cannot be "
                "attacked. `dig E4` (2) lowers a mountain under or next to your token (at 0 it is gone); `fill D3` "
                "(2) makes one on your own square, or raises it (up to 3), not on a river nor on or next to a "
                "capital."
            ),
            states[2],
            0,
            SCRIPT[2],
        ),
        TutorialPage(
            mark(
                "**Attack.** `attack C6>C7` (2 EP) sends a token into a neighbouring enemy land square: it moves in, "
                "the enemy token there is destroyed, and the square it left stays yours. Then `wall C7` (3 EP) "
                "guards it. Walls (up to 2) and a `tower` (5 EP, only where there are no walls) stand on a square "
                "with your token, or on your capital. Rivers and mountains cannot be attacked."
            ),
            states[4],
            0,
            SCRIPT[4],
        ),
        TutorialPage(
            mark(
                "**Walls and towers.** An attack pays 2 EP more for each wall on its target and 4 more for a tower, "
                "and then only removes them: the tower, or one wall, and nothing is taken. Here the first "
                "`attack C7>D7` costs 4 EP and breaks blue's wall; the second costs 2 and takes D7. A turn that "
                "costs more than 6 EP, or has an action that is illegal when its turn comes, is refused whole. With "
                "the option *clear all*, one paid attack clears them all and takes the square."
            ),
            states[6],
            0,
            SCRIPT[6],
        ),
        TutorialPage(
            mark(
                "**Territory and the end.** Taking the enemy capital wins at once. Otherwise the game ends when no "
                "neutral square can be taken any more (the board is full), or at the turn limit (200 turns of both "
                "players by default): the larger territory wins — every square you own, rivers and mountains "
                "included — and equal is a draw. The first player moves first, so the second gets **komi**: squares "
                "added to his count, shown beside it. `end` ends your turn early (so does a missed deadline). "
                "`/rules siege` has it all."
            ),
            states[7],
        ),
    )
