""" "End to end through the fake Discord: upload a map …, see its preview, start … a game on it; a
broken map refused …" — a server's own map, from `/map upload` to a game on it, as its members see it."""

from __future__ import annotations

import asyncio

from tests.e2e.conftest import open_tables
from tests.service.test_server_maps import renamed


async def answered(handle):
    await handle.settled()
    return handle


async def test_a_server_uploads_a_map_plays_on_it_and_deletes_it(table):
    fake, channel = table.fake, table.channel
    table.bot.service.master.maps.verdict_games = 12
    arena = renamed("conquest", "duel", "Arena")
    up = await answered(
        await fake.slash(table.alice, channel, "map upload", game="conquest", file=("arena.json", arena))
    )
    assert up.ephemeral and "Map **Arena** is this server's now" in up.content, up.content
    assert "Conquest, for 2 players, by <@" in up.content and up.attachments[0].is_png
    assert "fairness not yet measured" in up.content  # usable at once

    broken = await answered(
        await fake.slash(table.alice, channel, "map upload", game="conquest", file=("broken.json", b'{"name": "X",\n'))
    )
    assert broken.ephemeral and "not JSON: line 2" in broken.content, broken.content

    rules = await answered(await fake.slash(table.carol, channel, "rules", ruleset="conquest"))
    [own] = [field for field in rules.embeds[0]["fields"] if field["name"] == "Your own maps"]
    assert "`/map upload game:conquest file:`" in own["value"] and '"name": "Twin peaks"' in own["value"]

    for _ in range(300):  # the computers' games, in the background
        listed = await answered(await fake.slash(table.carol, channel, "map list"))
        if "not yet measured" not in listed.content:
            break
        await asyncio.sleep(0.1)
    assert listed.ephemeral and "**Arena** — Conquest, for 2 players" in listed.content
    assert "fairness: " in listed.content and "games at Medium" in listed.content, listed.content
    shown = await answered(await fake.slash(table.carol, channel, "map show", name="arena"))
    assert shown.attachments[0].is_png and shown.attachments[0].description.startswith("Conquest: Arena")

    offered = await fake.autocomplete(table.alice, channel, "game create conquest", focused="map", value="are")
    assert [choice["value"] for choice in offered] == ["Arena"]
    thread = await table.start_game("conquest", map="Arena")
    started = next(m for m in fake.channel_messages(thread) if m.content.startswith("Map: **Arena**"))
    assert started.attachments[0].is_png

    refused = await answered(await fake.slash(table.bob, channel, "map delete", name="Arena"))
    assert "Only the map's author or a server manager" in refused.content
    gone = await answered(await fake.slash(table.mod, channel, "map delete", name="Arena"))
    assert "Map **Arena** is deleted" in gone.content
    assert "no maps of its own yet" in (await answered(await fake.slash(table.carol, channel, "map list"))).content
    await fake.slash(table.alice, thread, "orders pass")
    await fake.slash(table.bob, thread, "orders pass")
    await table.post(lambda m: m.content.startswith("**Round 1.**"))  # the game plays on its own copy


async def test_a_map_one_server_publishes_another_finds_copies_and_plays(tmp_path, cpu_pool):
    async with open_tables(tmp_path, cpu_pool, shards=2) as (home, away):
        fake = home.fake
        arena = renamed("conquest", "duel", "Arena")
        await answered(
            await fake.slash(home.alice, home.channel, "map upload", game="conquest", file=("a.json", arena))
        )
        published = await answered(await fake.slash(home.alice, home.channel, "map publish", name="Arena"))
        assert "Map **Arena** is published" in published.content

        found = await answered(await fake.slash(away.bob, away.channel, "map find", game="conquest"))
        assert "**Arena** — Conquest, for 2 players" in found.content, found.content
        offered = await fake.autocomplete(away.bob, away.channel, "map copy", focused="map", value="aren")
        [number] = [choice["value"] for choice in offered]
        copied = await answered(await fake.slash(away.bob, away.channel, "map copy", map=number))
        assert "Map **Arena** is this server's now" in copied.content and copied.attachments[0].is_png
        assert "**Arena**" in (await answered(await fake.slash(away.carol, away.channel, "map list"))).content
        nowhere = await answered(await fake.slash(away.bob, away.channel, "map copy", map="#99999"))
        assert "There is no published map #99999" in nowhere.content
        await away.open_lobby("conquest", map="Arena")
