""" "End to end through the fake Discord: upload a map …, see its preview, start … a game on it; a
broken map refused …" — a server's own map, from `/map upload` to a game on it, as its members see it."""

from __future__ import annotations

import asyncio
import json

import pytest

from engine import RULESETS
from tests.e2e.conftest import button, open_tables
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


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
async def test_each_games_own_map_is_uploaded_shown_and_a_game_on_it_played_to_its_end(table, ruleset):
    """ "upload a map for each ruleset, see its preview, start and finish a game on it": the games on a
    grid take the map drawn as text (named as its file is), the others JSON; the game ends when a
    player surrenders after the first turn's orders."""
    fake, channel, rs = table.fake, table.channel, RULESETS[ruleset]
    table.bot.service.master.maps.verdict_games = 2
    assert rs.map_example is not None
    broken = ("b.json", json.dumps({**rs.map_example, "note": "mine"}).encode())
    refused = await answered(
        await fake.slash(table.alice, channel, "map upload", game=ruleset, file=broken, name="bad_name")
    )
    lines = refused.content.splitlines()  # every problem at once, one a line
    assert refused.ephemeral and lines[0].endswith("This map cannot be played:") and len(lines) == 3, lines
    assert "not 'bad_name'" in lines[1] and "'note' is no entry" in lines[2], lines
    if rs.map_grid is not None:
        file = ("Drawn.txt", rs.map_grid.draw(rs.map_example).encode())
    else:
        file = ("map.json", json.dumps({**rs.map_example, "name": "Drawn"}).encode())
    up = await answered(await fake.slash(table.alice, channel, "map upload", game=ruleset, file=file))
    assert "Map **Drawn** is this server's now" in up.content and up.attachments[0].is_png, up.content
    shown = await answered(await fake.slash(table.carol, channel, "map show", name="drawn"))
    assert shown.attachments[0].is_png and shown.attachments[0].description.startswith(f"{rs.title}: Drawn")

    thread = await table.start_game(ruleset, map="Drawn")
    assert next(m for m in fake.channel_messages(thread) if m.content.startswith("Map: **Drawn**")).attachments
    for user in (table.alice, table.bob):  # whoever is to act (both, where orders are simultaneous)
        await answered(await fake.slash(user, thread, "orders pass"))
    asked = await fake.slash(table.alice, thread, "game surrender")
    await fake.click(table.alice, asked.message, button(asked.message, "Surrender"))
    over = await table.post(lambda m: "is over" in m.content)
    assert f"Winner: <@{table.bob.id}>" in over.content and over.attachments[0].is_png, over.content
    [game] = await table.bot.service.master.lookup.list_games(table.guild.id, include_ended=True)
    assert game.row.status == "finished" and game.row.options["map"]["name"] == "Drawn"


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
