"""Replays: a finished game's thread gets the whole game animated, once (also when its delivery is
retried after a crash), after its final board, and
`/game replay` shows a running or finished game so far; nothing to replay and strangers are told why."""

from __future__ import annotations

import io

from PIL import Image

from tests.e2e.test_ratings import surrendered_by
from tests.e2e.test_standing import CONQUEST


def decode_replay(data: bytes, frames: int) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format in ("GIF", "WEBP") and image.is_animated and image.n_frames == frames
    assert 320 <= image.width <= 640 and image.height > 400
    return image


def last_frame(image: Image.Image) -> bytes:
    image.seek(image.n_frames - 1)
    return image.convert("RGB").tobytes()


async def test_replay_on_demand_and_once_at_the_end(table):
    fake = table.fake
    thread = await table.start_game(**CONQUEST)
    early = await fake.slash(table.alice, thread, "game replay")
    assert early.ephemeral and "game #1 has no resolved turn yet: there is nothing to replay" in early.content

    for number in (1, 2):
        await fake.slash(table.alice, thread, "orders pass")
        await fake.slash(table.bob, thread, "orders pass")
        await table.post(lambda m, n=number: m.content.startswith(f"**Round {n}.**"))
    shown = await (await fake.slash(table.carol, thread, "game replay")).settled()  # anyone may watch
    assert shown.ephemeral and "**Replay of Conquest #1** so far: 3 frames." in shown.content
    so_far = decode_replay(shown.message.attachments[0].data, frames=3)  # the start and two rounds
    elsewhere = await fake.slash(table.carol, table.channel, "game replay")
    assert elsewhere.ephemeral and "you have no open game here" in elsewhere.content
    other = fake.add_guild("Elsewhere")
    dave = fake.add_user("dave")
    fake.add_member(other, dave)
    outside = await fake.slash(dave, other.channels[0], "game replay", game=1)
    assert outside.ephemeral and "game #1 is not in this server" in outside.content and not outside.message.attachments

    await surrendered_by(table, thread, table.bob)
    posted = await table.post(lambda m: "Replay of Conquest #1" in m.content and not m.ephemeral)
    assert "start to finish: 4 frames" in posted.content  # and the position Bob's surrender left
    texts = [m.content for m in table.posts()]
    assert next(i for i, t in enumerate(texts) if "is over" in t) < texts.index(posted.content)
    [attachment] = posted.attachments
    assert attachment.filename.endswith((".gif", ".webp")) and attachment.size <= 10 * 1024 * 1024
    assert attachment.description == "Conquest #1, animated: 4 boards, Start to Final position"  # its alt text
    replay = decode_replay(attachment.data, frames=4)
    assert replay.size == so_far.size and last_frame(replay) != last_frame(so_far)

    again = await (await fake.slash(table.alice, thread, "game replay")).settled()
    assert attachment.data == again.message.attachments[0].data  # the same file, on demand
    # A crash between posting the replay and recording it, and a restart after Discord forgot the nonce:
    # the retry finds the replay already in the thread.
    async with table.bot.service.db.transaction() as conn:
        await conn.execute("UPDATE outbox SET delivered_at = NULL WHERE kind = 'replay'")
    table.fake.forget_nonces()
    table.clock.advance(3600)
    await table.restart()
    await table.bot.service.recovery
    assert await table.bot.service.outbox.pending_count() == 0
    assert [m.id for m in table.posts() if "Replay of" in m.content] == [posted.id]
