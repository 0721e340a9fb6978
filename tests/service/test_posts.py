"""Posts for announcements: those queued by an earlier release (older payload shapes) read as they did
then; a short call to play tells each player first what the turn did to him."""

from __future__ import annotations

import json

from service.announcements import NamedTurn, RoundResolved, TurnCall
from service.models import Announcement
from service.posts import DirectMessage, Post, PostPresenter
from service.presenter import Presenter, touches
from service.runtime.workers import CpuPool
from service.storage import history as rows
from service.turns import HistoryRow
from tests.service.conftest import ALICE, BOB, CAROL


async def posts_of(env, game, kind: str, payload: dict) -> list[Post]:
    posts = PostPresenter(
        env.master.settings,
        env.master.history,
        Presenter(env.master.games, env.master.history, CpuPool(workers=0)),
        env.master.lookup,
    )
    return await posts.posts(Announcement(1, game.id, kind, payload), game, shown=str, upload_limit=8 << 20)


async def test_an_old_call_to_play_names_the_service_turn_and_pings_its_players(env):
    game = await env.new_game(ALICE, BOB)
    old = {"turn": 3, "user_ids": [ALICE.user_id, BOB.user_id], "deadline_at": None}
    (post,) = await posts_of(env, game, "turn_started", old)
    assert post.text == (
        "<@1> <@2> — turn 3: give your orders with `/orders give`, check them with `/orders show`, "
        "then `/orders pass`. Deadline: no deadline."
    )
    assert post.pings == (ALICE.user_id, BOB.user_id)


async def test_an_old_reminder_says_no_orders_were_given(env):
    game = await env.new_game(ALICE, BOB)
    old = {"turn": 1, "user_ids": [BOB.user_id], "deadline_at": None}
    (post,) = await posts_of(env, game, "reminder", old)
    assert post.dm == DirectMessage(BOB.user_id, 0)
    assert post.text.endswith(f"no deadline. <#{game.row.channel_id}>\nYou have given no orders yet.")


def battle(winner: int, loser: int) -> list[dict]:
    """``winner`` takes C4 from ``loser``, 5 against 3."""
    parties = [[winner, 5], [loser, 3]]
    return [
        {"kind": "battle", "cell": "C4", "parties": parties, "winner": winner, "tie": False, "units_left": 2},
        {"kind": "captured", "cell": "C4", "seat": winner, "from": loser},
    ]


PRODUCED = {"kind": "production", "by_seat": {"0": 3, "1": 3, "2": 3}}


async def played(env, game, *turns: tuple[tuple[int, ...], list[dict]]) -> int:
    """History rows for resolved turns, each (the seats that played it, its events), after the
    game's last one (the position stays the start); the last row's number."""
    seq = game.row.seq
    state = json.loads(game.row.state_text)
    async with env.db.transaction() as conn:
        for seats, events in turns:
            seq += 1
            orders = {str(seat): "" for seat in seats}
            await rows.append(conn, game.id, seq, [HistoryRow("resolve", seq, {"orders": orders}, events, state)], 0)
    return seq


def round_post(game, seq: int, turn: int = 5) -> dict:
    """A round post whose call to play is the players' ``turn``-th (the fourth on is short)."""
    call = TurnCall(NamedTurn(turn, "round", turn), (ALICE.user_id, BOB.user_id, CAROL.user_id), None, (0, 1, 2))
    return RoundResolved(NamedTurn(turn - 1, "round", turn - 1), seq, (), next_turn=call).to_payload()


async def test_a_short_call_tells_each_player_first_what_the_turn_did_to_him(env):
    """Issue: "After a player's first turns, a short call; what changed for him since his last turn
    first ("you lost C4 to Bob, 5 against 3")"."""
    game = await env.new_game(ALICE, BOB, CAROL)
    alice, bob = (game.player_of(actor.user_id).seat for actor in (ALICE, BOB))
    seq = await played(env, game, ((0, 1, 2), [*battle(bob, alice), PRODUCED]))
    (post,) = await posts_of(env, game, "round_resolved", round_post(game, seq))
    call = post.text.split("\n")[-3:]
    b, a = (f"{name} ({('red', 'blue', 'green')[seat]})" for name, seat in (("Bob", bob), ("Alice", alice)))
    mine = f"Battle at C4: {b} 5 vs {a} 3 — {b} wins with 2. · {b} captured C4 from {a}."
    assert call == [
        f"<@{ALICE.user_id}>, for you: {mine}",
        f"<@{BOB.user_id}>, for you: {mine}",
        "<@1> <@2> <@3> — round 5: your orders, please. Deadline: no deadline.",
    ]  # Carol's production is everybody's: nothing for her alone
    (first,) = await posts_of(env, game, "round_resolved", round_post(game, seq, turn=2))
    assert "for you" not in first.text  # a long call says how to play instead


async def test_where_players_take_turns_a_player_is_told_what_the_others_did_since_his_move(env):
    game = await env.new_game(ALICE, BOB, CAROL)
    first, second = battle(1, 0), battle(2, 0)
    seq = await played(env, game, ((0,), battle(0, 2)), ((1,), first), ((2,), second))
    since = await env.master.history.since_turns_of(game.id, seq, range(3), 6)
    assert [since[seat] for seat in range(3)] == [first + second, second, second]  # the newest: its own player too
    assert (await env.master.history.since_turns_of(game.id, seq, [0], 1))[0] == second  # no further back than asked


def test_an_event_touches_the_seats_it_names_and_the_armies_it_takes():
    moved = {"kind": "moved", "seat": 2, "captured": {"cell": "B2", "seat": 0, "rank": "pawn"}}
    assert [touches(moved, seat) for seat in range(3)] == [True, False, True]
    assert [touches(battle(1, 0)[0], seat) for seat in range(3)] == [True, True, False]
    assert not any(touches(PRODUCED, seat) for seat in range(3))


async def test_the_end_of_a_game_pings_everyone_who_played_it(env):
    """Issue: "The game-over, draw and cancel posts ping every player of the game"."""
    game = await env.master.play.surrender((await env.new_game(ALICE, BOB)).id, ALICE)
    payload = {"seq": game.row.seq, "result": game.row.result, "board": False}
    (over,) = await posts_of(env, game, "game_over", payload)
    assert set(over.pings) == {ALICE.user_id, BOB.user_id}  # the one who left too
    assert all(f"<@{user}>" in over.text for user in over.pings)  # Discord notifies only those named


async def test_a_cancelled_game_pings_its_players_but_who_cancelled_it(env):
    game = await env.new_game(ALICE, BOB, CAROL)
    (cancelled,) = await posts_of(env, game, "game_cancelled", {"by": ALICE.user_id})
    assert cancelled.pings == (BOB.user_id, CAROL.user_id)
    assert cancelled.text.endswith(f"\n<@{BOB.user_id}> <@{CAROL.user_id}>")


async def test_a_draw_offer_pings_the_players_asked_to_agree(env):
    game = await env.new_game(ALICE, BOB, CAROL)
    seat = {p.user_id: p.seat for p in game.players}
    (offer,) = await posts_of(env, game, "draw_proposed", {"seat": seat[BOB.user_id], "user_id": BOB.user_id})
    assert set(offer.pings) == {ALICE.user_id, CAROL.user_id}
    assert all(f"<@{user}>" in offer.text for user in offer.pings)


async def test_a_time_banks_warning_says_how_much_is_left_and_what_happens_when_it_is_gone(env):
    game = await env.new_game(ALICE, BOB)
    payload = {"turn": 2, "user_ids": [BOB.user_id], "deadline_at": None, "orders": [0], "bank_left": [900.0]}
    (post,) = await posts_of(env, game, "reminder", payload)
    assert post.dm == DirectMessage(BOB.user_id, 0)
    assert "your time bank is down to 15 minutes, and it keeps running until you pass" in post.text
    assert "When it is empty you are out of the game." in post.text and "deadline" not in post.text
