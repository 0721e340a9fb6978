"""Posts for announcements queued by an earlier release (older payload shapes) read as they did then."""

from __future__ import annotations

from service.models import Announcement
from service.posts import DirectMessage, Post, PostPresenter
from service.presenter import Presenter
from service.runtime.workers import CpuPool
from tests.service.conftest import ALICE, BOB


async def posts_of(env, game, kind: str, payload: dict) -> list[Post]:
    posts = PostPresenter(
        env.master.settings, env.master.history, Presenter(env.master.games, env.master.history, CpuPool(workers=0))
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
