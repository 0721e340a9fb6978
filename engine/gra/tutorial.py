"""The gra tutorial: a short game on the shipped ``wheel`` map, played by its own orders, paused
where each phase and rule shows (red is the reader)."""

from __future__ import annotations

from functools import cache

from engine.i18n import mark
from engine.ruleset import Ruleset, TutorialPage

SCRIPT = (  # (red, blue) orders of each turn, given at once ("": no orders, as for a player who waits)
    ("pick 13 19", "pick 8 15"),  # negotiation: red gets 19, blue 15 (8 is next to 19)
    ("19>18 1", "15>16 1"),  # move phases
    ("18>17 1", "16>6 1"),
    ("create 18", "create 6"),  # creating phase: 3 nodes, cap 2
    ("", "6>7 1"),
    ("17>6 1", "6>17 1; 7>18 1"),  # a fight on edge 6-17, a defended node 18
    ("create 17 18", "create 7 7"),  # every soldier spawning: the next move phase is skipped
    ("17>6 1", "7>18 2"),  # 18 taken, 6 taken: both lands fall apart
    ("keep 17", "keep 18"),
    ("6>7 1", ""),
    ("create 7", ""),
    ("", ""),  # the new soldier gets ready
    ("7>18 2", ""),  # 2 against 1.5: Player 2 loses his last node
)


@cache
def pages(rs: Ruleset) -> tuple[TutorialPage, ...]:
    states = [rs.setup(2, {"map": "wheel"}, seed=1)]
    for turn_orders in SCRIPT:
        state = states[-1]
        orders = {seat: rs.parse_orders(state, seat, text) for seat, text in enumerate(turn_orders) if text}
        states.append(rs.resolve(state, orders).state)
    return (
        TutorialPage(
            mark(
                "**Pick your start.** Gra is played on a graph: numbered nodes joined by edges. First everyone "
                "secretly picks as many nodes as there are players, at least 3 edges apart in this game: "
                "`pick 13 19`. The game then gives each player one of his own picks, keeping the starts apart, "
                "with one soldier on it. Your picks are drawn on the board."
            ),
            states[0],
            0,
            SCRIPT[0][0],
        ),
        TutorialPage(
            mark(
                "**Move phase.** You got 19; Player 2 picked 8 and 15, and 8 is next to yours, so he got 15. "
                "Now all players give orders at once, in secret (`/orders give`, then `/orders pass`): each "
                "ready soldier stays or walks one edge. `19>18 1` moves 1 soldier from 19 to 18 (`19>18` moves "
                "them all). Entering a neutral node makes it yours, and it stays yours when you leave, until "
                "someone takes it."
            ),
            states[1],
            0,
            SCRIPT[1][0],
        ),
        TutorialPage(
            mark(
                "**Creating phase.** After a move phase, whoever is under his army cap creates soldiers. The "
                "cap is your nodes ÷ 3 + 1, rounded down (3 nodes → 2), counting all your soldiers: with 3 "
                "nodes and 1 soldier, `create 18` adds one (with room for more, a node may repeat: "
                "`create 18 18`). A new soldier **spawns** through the next move phase: it can't move, has no "
                "strength, and dies if an enemy takes its node."
            ),
            states[3],
            0,
            SCRIPT[3][0],
        ),
        TutorialPage(
            mark(
                "**Fights.** Armies walking opposite ways along one edge fight there first (the star on 6–17): "
                "the bigger wins, losing as many as the smaller had; 1 against 1, both fell. In a node, every "
                "army loses as many soldiers as the smallest has, until one is left (the ring on 18). Soldiers "
                "that were already there defend with +0.5, which settles a last tie: 1 against your 1.5 on "
                "18, both fell and 18 stays yours. 2 would have taken it, with 1 left."
            ),
            states[6],
        ),
        TutorialPage(
            mark(
                "**Split territory.** Player 2 came back with 2 and took 18 (2 against your 1.5: 1 left), "
                "while yours took his empty 6. Both lands fell apart, so each of you keeps one part, named by "
                "any node of it: `keep 17` keeps 6 and 17; 19 turns neutral, and soldiers in a dropped part are "
                "lost. Choose nothing and you keep the largest part."
            ),
            states[8],
            0,
            SCRIPT[8][0],
        ),
        TutorialPage(
            mark(
                "**The end.** Then you took his empty 7, created a second soldier there and attacked 18 with 2 "
                "against 1.5. Player 2 has no nodes left: he is dead, and the last player alive wins. After the "
                "turn limit (300 move phases unless the game sets another) the most nodes win, then the most "
                "soldiers. A missed deadline keeps your soldiers in place and creates nothing; by default 3 in a "
                "row remove you, and a player whose clock runs out is out. You may surrender (your nodes turn "
                "neutral) or agree a draw at any time. `/rules gra` has it all."
            ),
            states[13],
        ),
    )
