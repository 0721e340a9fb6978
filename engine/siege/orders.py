"""Siege actions: the value type and the notation players type.

A turn is a list of actions separated by ``;`` (or ``,`` or new lines), applied in that order::

    expand C4        2 EP  a new token on C4, next to one of your tokens
    move C4>C5       2 EP  the token on C4 steps onto your own empty C5
    deploy D1        3 EP  a new token in your back two rows
    attack D5>D6     2 EP + 2 per wall + 4 for a tower: the token on D5 attacks D6
    cross D5>D6      2 EP  onto a river      climb D5>D6   2 EP  onto a mountain
    dig E5 / fill E5 2 EP  lower / raise a mountain
    wall E1          3 EP  tower E1  5 EP
    end              0 EP  end the turn (also: "end turn", "pass")

Case and spaces do not matter; ``C4-C5`` and ``C4 C5`` read as ``C4>C5``. Text in brackets is a
note and is ignored, like the ``(2 EP, 4 left)`` autocomplete writes after an action; a note may not
hold an action (``expand C1 (a; wall A1)`` is refused, not read as ``expand C1``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import OrderSyntaxError
from engine.i18n import joined, tr
from engine.squaregrid import Square

COSTS = {
    "expand": 2,
    "move": 2,
    "deploy": 3,
    "attack": 2,
    "cross": 2,
    "climb": 2,
    "dig": 2,
    "fill": 2,
    "wall": 3,
    "tower": 5,
    "end": 0,
}
FROM_TOKEN = frozenset({"move", "attack", "cross", "climb"})  # written SOURCE>TARGET
EP_PER_TURN = 6
WALL_PRICE, TOWER_PRICE = 2, 4  # what each fortification adds to an attack


@dataclass(frozen=True, slots=True)
class Action:
    kind: str
    target: Square | None = None  # None only for "end"
    source: Square | None = None  # the acting token, for the FROM_TOKEN kinds

    def __str__(self) -> str:
        if self.target is None:
            return self.kind
        where = f"{self.source.label}>{self.target.label}" if self.source else self.target.label
        return f"{self.kind} {where}"

    @property
    def square(self) -> Square:
        """The target, which every action but "end" has."""
        if self.target is None:
            raise ValueError(f"the action {self.kind!r} has no target square")
        return self.target


END = Action("end")
SQUARE = r"[a-z]{1,2}\s*\d{1,3}"
_NOTE = re.compile(r"\([^()]*\)")
_END = re.compile(r"^(?:end(?:\s+turn)?|pass)$")
_ONE = re.compile(rf"^([a-z]+)\s+({SQUARE})$")
_TWO = re.compile(rf"^([a-z]+)\s+({SQUARE})\s*(?:>|-|\s)\s*({SQUARE})$")


def split_lines(text: str) -> list[str]:
    """The typed actions, lower case with single spaces, notes dropped. Notes go first, as the
    autocomplete's own note holds a comma; a note that holds an action is refused (``_check_note``)."""
    for note in _NOTE.findall(text):
        _check_note(note)
    pieces = re.split(r"[;,\n]", _NOTE.sub(" ", text))
    return [" ".join(piece.lower().split()) for piece in pieces if piece.strip()]


def _check_note(note: str) -> None:
    """``expand C1 (a; wall A1)`` is a slip, not a note about expanding: dropped with the note, the
    wall would be lost without a word, so a note with an action among its pieces is an error."""
    for piece in re.split(r"[;,\n]", note[1:-1]):
        try:
            parse_line(piece)
        except OrderSyntaxError:
            continue
        raise OrderSyntaxError(tr("a note in parentheses cannot hold orders: {note!r}", note=note))


def parse_line(line: str) -> Action:
    """One action as typed, checked for shape only (the rules check it against the position)."""
    line = " ".join(line.lower().split())
    if _END.match(line):
        return END
    one, two = _ONE.match(line), _TWO.match(line)
    shaped = one or two
    kind = shaped.group(1) if shaped else line.split(" ")[0]
    if kind not in COSTS or kind == "end":
        names = joined(k for k in COSTS if k != "end")
        raise OrderSyntaxError(tr("{line!r} is not an action; actions: {names}, or end", line=line, names=names))
    if kind in FROM_TOKEN:
        if not two:
            raise OrderSyntaxError(tr("{line!r}: write {kind} FROM>TO, like {kind} C4>C5", line=line, kind=kind))
        return Action(kind, _square(two.group(3), line), _square(two.group(2), line))
    if not one:
        raise OrderSyntaxError(tr("{line!r}: write {kind} SQUARE, like {kind} C4", line=line, kind=kind))
    return Action(kind, _square(one.group(2), line))


def _square(text: str, line: str) -> Square:
    try:
        return Square.from_label(text.replace(" ", ""))
    except ValueError:
        raise OrderSyntaxError(
            tr("{line!r}: {square!r} is not a square label like C4", line=line, square=text.replace(" ", ""))
        ) from None
