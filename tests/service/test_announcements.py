"""Announcements keep their meaning in the outbox: each kind reads back as it was written, and rows
queued by earlier releases (older payload shapes) still deliver after an upgrade."""

from __future__ import annotations

import json

import pytest

from service.announcements import (
    KINDS,
    BackInReach,
    DrawProposed,
    Extended,
    GameCancelled,
    GameOver,
    GameStarted,
    NamedTurn,
    Paused,
    PlayerRemoved,
    Reminder,
    Replay,
    Resumed,
    RoundResolved,
    SeatTakenOver,
    TurnCall,
    TurnStarted,
    read,
)

CALL = TurnCall(NamedTurn(3, "move phase", 7, 12), (11, 12), 1000.0, (0, 2), secret=False, hint="`keep 17`")
EVENT = {"kind": "captured", "seat": 1, "data": {"node": 4}}
RESULT = {"winners": [0], "draw": False, "ranking": [[0], [1]], "points": {"0": 2}, "reason": "last one standing"}

EXAMPLES = [
    GameStarted(1, CALL),
    RoundResolved(NamedTurn(2, "round", 2), 3, (EVENT,), ((1, 2),), 3, CALL),
    TurnStarted(CALL),
    Reminder(NamedTurn(4, "turn", 4), (11, 12), 2000.0, (2, 0), (False, True), orders_stand=True),
    Reminder(NamedTurn(4, "turn", 4), (11,), None, (0,), (False,), bank_left=(900.0,)),
    PlayerRemoved(1, "time ran out", 5, 12, "Bob", (EVENT,), CALL),
    SeatTakenOver(1, "kicked", 12, "Bob", None, "Computer 1 (Hard)", offered=True, by=11, next_turn=CALL),
    SeatTakenOver(1, "handed over", None, "Computer 1 (Hard)", 13, "Carol"),
    GameOver(RESULT | {"departure": {"seat": 1, "reason": "surrender"}}, 6, board=False),
    Replay(),
    DrawProposed(0, 11, (1,)),
    GameCancelled(11),
    Paused(11),
    Resumed(11),
    Extended(11, 3600, 5000.0),
    BackInReach("send_messages_in_threads,attach_files", 4000.0, 9000.0),
]


def test_every_kind_is_exemplified():
    assert sorted(set(type(a).kind for a in EXAMPLES)) == sorted(KINDS)


@pytest.mark.parametrize("announcement", EXAMPLES, ids=lambda a: type(a).kind)
def test_every_kind_reads_back_as_written(announcement):
    stored = json.loads(json.dumps(announcement.to_payload()))
    assert read(announcement.kind, stored) == announcement


# As the game master wrote them before announcements were typed: each reads, and writes back the same.
CALL_PAYLOAD = {
    "turn": 3,
    "unit": "move phase",
    "number": 7,
    "of": 12,
    "secret": False,
    "hint": "`keep 17`",
    "seats": [0, 2],
    "user_ids": [11, 12],
    "deadline_at": 1000.0,
}
WRITTEN = [
    ("game_started", {"seq": 1, "next_turn": CALL_PAYLOAD}),
    (
        "round_resolved",
        {
            "turn": 2,
            "unit": "round",
            "number": 2,
            "of": None,
            "seq": 3,
            "events": [EVENT],
            "missed": [[1, 2]],
            "missed_limit": 3,
            "next_turn": CALL_PAYLOAD,
        },
    ),
    ("turn_started", CALL_PAYLOAD),
    (
        "reminder",
        {
            "turn": 4,
            "unit": "turn",
            "number": 4,
            "of": None,
            "user_ids": [11, 12],
            "orders": [2, 0],
            "last_chance": [False, True],
            "orders_stand": True,
            "deadline_at": 2000.0,
        },
    ),
    (
        "player_removed",
        {"seat": 1, "user_id": 12, "name": "Bob", "reason": "time ran out", "seq": 5, "events": [EVENT]},
    ),
    (
        "seat_taken_over",
        {
            "seat": 1,
            "reason": "surrender",
            "left": [12, "Bob"],
            "taker": [None, "Computer 1 (Hard)"],
            "offered": False,
            "by": None,
        },
    ),
    ("game_over", {"result": RESULT, "seq": 6, "board": True}),
    ("replay", {}),
    ("draw_proposed", {"seat": 0, "user_id": 11, "declined": []}),
    ("game_cancelled", {"by": 11}),
    ("paused", {"by": 11}),
    ("resumed", {"by": 11}),
    ("extended", {"by": 11, "seconds": 3600, "deadline_at": 5000.0}),
    ("back_in_reach", {"missing": "send_messages_in_threads", "since": 4000.0, "deadline_at": 9000.0}),
]


def test_every_kind_is_in_the_written_shapes():
    assert sorted(kind for kind, _ in WRITTEN) == sorted(KINDS)


@pytest.mark.parametrize(("kind", "payload"), WRITTEN, ids=[kind for kind, _ in WRITTEN])
def test_payloads_queued_before_the_types_read_without_loss(kind, payload):
    assert read(kind, payload).to_payload() == payload


def test_older_payloads_read_with_the_meaning_their_posts_had():
    """Before turns carried the ruleset's count, missed turns, a call's style or a game over's board."""
    old_call = {"turn": 3, "user_ids": [11], "deadline_at": None}
    assert read("turn_started", old_call) == TurnStarted(TurnCall(NamedTurn(3, "turn", 3), (11,), None))
    assert read("round_resolved", {"turn": 2, "seq": 3, "events": []}) == RoundResolved(NamedTurn(2, "turn", 2), 3, ())
    assert read("game_started", {"seq": 1}) == GameStarted(1)
    assert read("reminder", {"turn": 4, "user_ids": [11, 12], "deadline_at": 9.0}) == Reminder(
        NamedTurn(4, "turn", 4), (11, 12), 9.0, orders=(0, 0), last_chance=(False, False), orders_stand=False
    )
    assert read("player_removed", {"seat": 1, "reason": "kicked", "seq": 5}) == PlayerRemoved(1, "kicked", 5)
    assert read("game_over", {"result": RESULT, "seq": 6}) == GameOver(RESULT, 6, board=True)
    assert read("draw_proposed", {"seat": 0}) == DrawProposed(0)
    assert read("extended", {"by": 11}) == Extended(11, None, None)
