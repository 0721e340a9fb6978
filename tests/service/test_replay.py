"""A finished game's replay is queued once, right after its game-over post, in the same transaction;
what it shows is read back from the history: the start, every resolved turn, the final position."""

from __future__ import annotations

import json

import pytest

import service.ops.history
from engine import find_ruleset
from service.errors import GameError
from service.presenter import Presenter
from service.runtime.workers import CpuPool, replay_job
from tests.service.conftest import ALICE, BOB

RS = find_ruleset("conquest")


async def test_the_replay_is_queued_once_after_the_game_over_post(env):
    game = await env.new_game(ALICE, BOB)
    for _ in range(2):
        await env.master.play.submit(game.id, ALICE)
        await env.master.play.submit(game.id, BOB)
    await env.master.play.surrender(game.id, BOB)
    with pytest.raises(GameError):
        await env.master.play.surrender(game.id, ALICE)  # an ended game ends no second time
    await env.restart()
    await env.outbox.flush()
    await env.restart()
    await env.outbox.flush()
    assert env.sink.kinds()[-3:] == ["player_removed", "game_over", "replay"]
    assert env.sink.kinds().count("replay") == 1
    assert await env.count("SELECT count(*) FROM outbox WHERE kind = 'replay' AND delivered_at IS NULL") == 0

    steps = await env.master.history.replay_steps(game.id)
    assert [step.number for step in steps] == [0, 1, 2, None]  # None: the position the surrender left
    assert steps[0].before is None and steps[1].before == steps[0].after
    assert json.loads(steps[-1].after) == (await env.master.games.get_game(game.id)).row.state
    made = replay_job(RS, steps, names=["Alice", "Bob"], finished=True, limit=10**7)
    assert made.captions == ("Start", "Round 1", "Round 2", "Final position")
    chinese = replay_job(RS, steps[:2], names=["Alice", "Bob"], finished=False, limit=10**7, language="zh_Hans")
    assert chinese.captions == ("开始", "第 1 回合")  # a server's language, drawn with the bundled CJK font


async def test_a_replay_shows_the_turns_so_far_evenly_chosen_and_needs_one(env, monkeypatch):
    game = await env.new_game(ALICE, BOB)
    with pytest.raises(GameError, match="no resolved turn yet: there is nothing to replay"):
        await env.master.history.replay_steps(game.id)
    for _ in range(5):
        await env.master.play.submit(game.id, ALICE)
        await env.master.play.submit(game.id, BOB)
    assert [step.number for step in await env.master.history.replay_steps(game.id)] == [0, 1, 2, 3, 4, 5]
    monkeypatch.setattr(service.ops.history, "MAX_FRAMES", 3)
    assert [step.number for step in await env.master.history.replay_steps(game.id)] == [0, 3, 5]

    steps = await env.master.history.replay_steps(game.id)
    made = replay_job(RS, steps, names=["Alice", "Bob"], finished=True, limit=10**7)
    assert made.captions == ("Start", "Round 3", "Round 5 · game over") and made.frames == 3
    pool = CpuPool(workers=0)
    try:
        post = await Presenter(env.master.games, env.master.history, pool).replay(
            await env.master.games.get_game(game.id), limit=10**7
        )
        assert post.text == "🎞️ **Replay of Conquest #1** so far: 3 frames." and post.filename[-4:] in (".gif", "webp")
        with pytest.raises(GameError, match="does not fit in an upload here"):
            await Presenter(env.master.games, env.master.history, pool).replay(
                await env.master.games.get_game(game.id), limit=1000
            )
    finally:
        pool.close()
