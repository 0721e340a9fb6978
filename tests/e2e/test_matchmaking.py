""" "End to end through the fake Discord: … a queue that opens a game after a ready check" — two
players queue by /play, the check pings them with Ready buttons, a stranger's press is refused, and
once both are ready the game opens with its card and thread; a check nobody answers lapses."""

from __future__ import annotations

from tests.e2e.conftest import button
from tests.fakediscord.models import CREATE_PUBLIC_THREADS

HOUR = 3600


async def test_a_queue_opens_a_game_after_its_ready_check(table):
    fake, channel = table.fake, table.channel
    alone = await fake.slash(table.alice, channel, "play queue", ruleset="siege", speed="daily")
    assert alone.ephemeral and "You are in the queue (1 waiting)" in alone.content, alone.content
    found = await fake.slash(table.bob, channel, "play queue", ruleset="siege", speed="daily")
    assert "A game is found" in found.content, found.content
    check = await fake.wait_for_message(lambda m: "**A game is found**" in m.content and m.components)
    assert check.pinged == {table.alice.id, table.bob.id}
    stranger = await fake.click(table.carol, check, button(check, "Ready"))
    await stranger.settled()
    assert "not yours" in " ".join(m.content for m in stranger.messages), stranger.messages
    first = await fake.click(table.alice, check, button(check, "Ready"))
    await first.settled()
    assert "Waiting for 1 more player" in " ".join(m.content for m in first.messages)
    assert f"✅ <@{table.alice.id}>" in fake.message(check.id).content
    second = await fake.click(table.bob, check, button(check, "Ready"))
    await second.settled()
    assert "has started" in " ".join(m.content for m in second.messages)
    started = await fake.wait_for_message(lambda m: m.id == check.id and "has started" in m.content)
    assert not started.components  # the buttons go with the check
    thread = fake.threads(channel)[-1]
    await fake.wait_for_message(lambda m: m.channel_id == thread.id and "has started" in m.content)
    status = await fake.slash(table.alice, channel, "play status")
    assert "You are in no queue here" in status.content


async def test_a_check_not_answered_lapses_and_cancel_leaves_the_queue(table):
    """Alice answers, Bob does not: after the hour the check lapses, Alice keeps her place and Bob goes
    to the end; they are matched again, and Bob's "Not now" ends that check and his place (Alice keeps
    hers)."""
    fake, channel = table.fake, table.channel
    await fake.slash(table.alice, channel, "play queue", ruleset="fortress", speed="fast")
    await fake.slash(table.bob, channel, "play queue", ruleset="fortress", speed="fast")
    first = await fake.wait_for_message(lambda m: "**A game is found**" in m.content and m.components)
    await (await fake.click(table.alice, first, button(first, "Ready"))).settled()
    await table.tick(HOUR + 60)
    lapsed = await fake.wait_for_message(lambda m: m.id == first.id and "not everyone answered" in m.content)
    assert not lapsed.components
    again = await fake.wait_for_message(lambda m: m.id != first.id and "**A game is found**" in m.content)
    declined = await fake.click(table.bob, again, button(again, "Not now"))
    await declined.settled()
    assert "out of that queue" in " ".join(m.content for m in declined.messages)
    await fake.wait_for_message(lambda m: m.id == again.id and "someone cannot play now" in m.content)
    status = await fake.slash(table.alice, channel, "play status")
    assert "Fortress, fast" in status.content, status.content
    assert "no queue" in (await fake.slash(table.bob, channel, "play status")).content
    left = await fake.slash(table.alice, channel, "play cancel")
    assert "out of this server's queues" in left.content
    none = await fake.slash(table.alice, channel, "play cancel")
    assert "no queue" in none.content


async def test_queueing_where_the_game_could_not_open_is_refused_at_once(table):
    """A channel where the bot cannot make a game's thread: said when the player queues, not after
    everyone has pressed Ready."""
    fake, channel = table.fake, table.channel
    fake.set_overwrite(channel, fake.bot_role(table.guild), deny=CREATE_PUBLIC_THREADS)
    refused = await fake.slash(table.alice, channel, "play queue", ruleset="siege")
    assert "I cannot host a game in this channel" in refused.content, refused.content
    assert "no queue" in (await fake.slash(table.alice, channel, "play status")).content
