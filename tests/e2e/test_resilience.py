"""The bot under Discord's bad days: rate limits, server errors and gateway drops lose nothing and
double nothing; a rejected token stops the bot with a clear message."""

from __future__ import annotations

import json
import socket

import pytest

from bot import Config, run_bot
from service.models import Announcement
from tests.e2e.test_conquest_game import CONQUEST
from tests.service.conftest import fill_disk


async def test_rate_limits_and_server_errors_on_round_posts(table):
    thread = await table.start_game(**CONQUEST)
    table.fake.inject_rate_limit(f"/channels/{thread.id}/messages", retry_after=0.2, count=1, method="POST")
    table.fake.inject_server_error(f"/channels/{thread.id}/messages", count=1, status=502, method="POST")
    await table.fake.slash(table.alice, thread, "orders pass")
    await table.fake.slash(table.bob, thread, "orders pass")
    await table.post(lambda m: m.content.startswith("**Round 1.") and m.attachments, timeout=15)
    await table.post(lambda m: "round 2" in m.content and "/orders give" in m.content, timeout=15)
    rounds = [m for m in table.posts() if m.content.startswith("**Round 1.")]
    assert len(rounds) == 1 and len(table.fake.faults_fired) >= 2


async def test_a_turn_call_queued_by_an_older_version_is_posted(table):
    """Older versions queued each turn's call to play as a post of its own; one still undelivered when
    the bot is upgraded is posted, notifying the players it names."""
    await table.start_game(**CONQUEST)
    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    users = [table.alice.id, table.bob.id]
    call = {"turn": 1, "unit": "round", "seats": [0, 1], "user_ids": users, "deadline_at": game.row.deadline_at}
    async with table.bot.service.db.transaction() as conn:
        await conn.execute(
            "INSERT INTO outbox (game_id, kind, payload, created_at, next_attempt) VALUES (?, 'turn_started', ?, ?, ?)",
            (game.id, json.dumps(call), table.clock.now(), table.clock.now()),
        )
    await table.bot.service.outbox.flush()
    posted = await table.post(lambda m: m.content.startswith(f"<@{table.alice.id}> <@{table.bob.id}> — round 1:"))
    assert posted.pinged == set(users) and not posted.attachments


async def test_a_repeated_delivery_is_posted_once(table):
    """After a crash between posting and recording the delivery, the outbox posts again with the same
    nonce; Discord hands back the first message instead of a second one."""
    thread = await table.start_game(**CONQUEST)
    await table.fake.slash(table.alice, thread, "orders pass")
    await table.fake.slash(table.bob, thread, "orders pass")
    await table.post(lambda m: m.content.startswith("**Round 1."))
    async with table.bot.service.db.reading() as conn:
        row = await (await conn.execute("SELECT * FROM outbox WHERE kind = 'round_resolved'")).fetchone()
    again = Announcement(row["id"], row["game_id"], row["kind"], json.loads(row["payload"]))
    await table.bot.service.outbox.sink.deliver(again)
    assert len([m for m in table.posts() if m.content.startswith("**Round 1.")]) == 1


async def test_a_delivery_retried_after_the_nonce_window_is_posted_once(table):
    """A crash between posting and recording two posts, and a restart long after: Discord has forgotten
    the nonces, so the retry finds the post that got through and posts only the one that did not."""
    thread = await table.start_game(**CONQUEST)
    for _ in range(2):
        await table.fake.slash(table.alice, thread, "orders pass")
        await table.fake.slash(table.bob, thread, "orders pass")
    second = await table.post(lambda m: m.content.startswith("**Round 2.") and "round 3" in m.content)
    await table.bot.service.outbox.flush()  # the deliveries under way are recorded
    table.fake.world.delete_message(second)  # this one never reached Discord
    async with table.bot.service.db.transaction() as conn:
        await conn.execute("UPDATE outbox SET delivered_at = NULL WHERE kind = 'round_resolved'")
    table.fake.forget_nonces()
    table.clock.advance(3600)
    await table.restart()
    await table.bot.service.recovery
    live = [m for m in table.posts() if not m.deleted]
    assert len([m for m in live if m.content.startswith("**Round 1.")]) == 1
    assert len([m for m in live if m.content == second.content]) == 1


async def test_gateway_drop_is_resumed_and_commands_keep_working(table):
    thread = await table.start_game(**CONQUEST)
    mark = len(table.fake.gateway_log)
    await table.fake.disconnect_gateway(resume=True)
    await table.fake.wait_for_gateway("RESUMED", after=mark)
    answered = await table.fake.slash(table.alice, thread, "orders pass")
    assert answered.ephemeral and "Waiting for 1 more player" in answered.content


async def test_a_rejected_token_stops_the_bot_with_a_clear_message(table, tmp_path, capsys):
    config = Config(token="not-the-token", database=tmp_path / "other.sqlite3", api_base=table.fake.api_base)
    assert await run_bot(config) == 1
    assert "Discord rejected DISCORD_TOKEN" in capsys.readouterr().err
    table.fake.take_violations()  # the 401 was the point


async def test_discord_out_of_reach_at_start_stops_the_bot_with_a_clear_message(tmp_path, capsys):
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        base = f"http://127.0.0.1:{closed.getsockname()[1]}/api/v10"
    config = Config(token="a-token", database=tmp_path / "alone.sqlite3", api_base=base)
    assert await run_bot(config) == 1
    assert f"cannot reach {base} to log in" in capsys.readouterr().err


async def test_discord_failing_at_start_stops_the_bot_with_a_clear_message(table, tmp_path, capsys):
    table.fake.inject_server_error("/gateway/bot", status=503)
    config = Config(token=table.fake.token, database=tmp_path / "other.sqlite3", api_base=table.fake.api_base)
    assert await run_bot(config) == 1
    assert "Discord failed a request while the bot was starting" in capsys.readouterr().err


@pytest.fixture(autouse=True)
def quiet_retries(caplog):
    caplog.set_level("ERROR", logger="discord")


async def test_a_full_disk_is_told_to_the_player(table):
    """Rounds fill what room the pages have left; the first write that needs more is refused, saying why."""
    thread = await table.start_game(**CONQUEST)
    await fill_disk(table.bot.service.db)
    answers = []
    for _ in range(8):
        for player in (table.alice, table.bob):
            answers.append(await table.fake.slash(player, thread, "orders pass"))
    refused = [a for a in answers if "nothing was saved" in a.content]
    assert refused and refused[0].ephemeral and "the bot's disk is full" in refused[0].content


@pytest.mark.parametrize(
    ("via", "resume", "code"),
    [
        ("close", True, 4000),
        ("close", False, 4007),
        ("close", False, 4009),
        ("reconnect", True, None),
        ("invalidate", True, None),
        ("invalidate", False, None),
    ],
)
async def test_play_goes_on_through_every_way_the_gateway_drops(table, via, resume, code):
    """Issue: "The gateway closing (resume, invalid session, codes 4000/4007/4009) and reconnecting in
    the middle of play: interactions and posts go on"."""
    thread = await table.start_game(**CONQUEST)
    await table.fake.slash(table.alice, thread, "orders pass")
    await table.fake.disconnect_gateway(resume=resume, via=via, code=code)
    answered = await table.fake.slash(table.bob, thread, "orders pass")
    assert answered.ephemeral
    resolved = await table.post(lambda m: m.content.startswith("**Round 1.**"))
    assert resolved.attachments and resolved.pinged == {table.alice.id, table.bob.id}
    shown = await table.fake.slash(table.alice, thread, "game board")
    assert shown.ephemeral and shown.message.attachments
