"""The conquest tutorial: a short game on the shipped ``duel`` map, played by its own orders, paused
where each rule shows (red is the reader; blue walks up to meet him)."""

from __future__ import annotations

from functools import cache

from engine.i18n import mark
from engine.ruleset import Ruleset, TutorialPage

SCRIPT = (  # (red, blue) orders of each round, given at once
    ("B2>C1 4; B2>C2 6", "H7>H6 10"),
    ("C2>D2 7; auto B2>C2; auto C1>C2", "H6>I5 11"),
    ("D2>E2 8; auto C2>D2", "I5>H4 12"),
    ("E2>F1 6; D2>E2 6", "H4>H3 13"),
    ("E2>F2 8; D2>E2 5", "H3>G2 14"),
    ("F1>G1 8; F2>G1 5", "G2>G1 5; G2>F2 4"),  # three parties at G1, a tie at F2
    ("D2>D3 4; auto D2>E2; stop B2", "G2>F2 6"),
)


@cache
def pages(rs: Ruleset) -> tuple[TutorialPage, ...]:
    states = [rs.setup(2, {"map": "duel"}, seed=1)]
    for round_orders in SCRIPT:
        state = states[-1]
        orders = {seat: rs.parse_orders(state, seat, text) for seat, text in enumerate(round_orders)}
        states.append(rs.resolve(state, orders).state)
    return (
        TutorialPage(
            mark(
                "**The board.** Every cell you own makes new units each round: normal +1, bronze +2, silver +5, "
                "gold +10. You are red and start on B2 with 10 units; Player 2 starts on H7. Grey cells are "
                "neutral: a number on one is its **garrison**, which never moves or grows but fights whoever "
                "comes in."
            ),
            states[0],
        ),
        TutorialPage(
            mark(
                "**Moving units.** Each round everybody writes orders in secret, then all units move at once. "
                "`B2>C1 4` sends 4 units from B2 to its neighbour C1; one cell may send several, up to the "
                "units it holds at the start of the round, and `B2>C2` alone sends them all. A cell you empty "
                "stays yours unless an enemy walks in. Your orders are drawn on the board."
            ),
            states[0],
            0,
            SCRIPT[0][0],
        ),
        TutorialPage(
            mark(
                "**Battles.** The arrows are round 6's moves. In every cell with more than one party (players and the garrison), only "
                "the two largest fight and the others' units are simply lost. The larger keeps the difference: "
                "at G1 your 13 beat Player 2's 5, and the garrison's 3 were lost. A tie loses everything: at F2 "
                "his 4 met the 4 you left there, and F2 is neutral and empty. Units passing each other on an "
                "edge do not fight. Then every owned cell produces: G1 shows 8 + 2."
            ),
            states[6],
        ),
        TutorialPage(
            mark(
                "**Auto-moves.** `auto D2>E2` is a standing order: every round, whatever D2 has left after its "
                "fixed moves (here `D2>D3 4`) goes on to E2, until `stop D2` cancels it or you lose D2. The "
                "double arrows are yours from rounds 2 and 3: B2 and C1 feed C2, C2 feeds D2, so new units "
                "walk to the front by themselves. `stop B2` (the ×) ends B2's: its units stay home from now on."
            ),
            states[6],
            0,
            SCRIPT[6][0],
        ),
        TutorialPage(
            mark(
                "**Passing and deadlines.** Give orders with `/orders give`, see them on your own board with "
                "`/orders show`, change them with `/orders replace` or `/orders clear`. `/orders pass` makes "
                "them final; the round resolves as soon as everyone has passed, as round 7 just did: D2 sent 4 "
                "to D3 and the other 6 on to E2. At the deadline, orders you "
                "did not pass are dropped (unless the game keeps them), but your auto-moves still run; by "
                "default 3 missed rounds in a row remove you."
            ),
            states[7],
        ),
        TutorialPage(
            mark(
                "**The end.** A player left without cells is out; the last one left wins. At the round limit "
                "(150 rounds unless the game sets another) the most cells win, then the most units: with 8 "
                "cells to 7, you would win now. Points: "
                "one per player ranked below you, plus one per round survived. You may surrender (your cells "
                "turn neutral and keep their units) or agree a draw at any time. `/rules conquest` has it all."
            ),
            states[7],
        ),
    )
