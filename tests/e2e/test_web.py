"""The game on the web, from Discord: with PUBLIC_URL set, round posts and the lobby card carry a
"View on the web" link that opens the game's page on the site (served beside the bot from its
database); /config web off takes the links and the pages away."""

from __future__ import annotations

import socket

import aiohttp
from aiohttp import web

from service.runtime.workers import CpuPool
from service.storage.store import open_store
from tests.e2e.conftest import open_table
from web.site import Site

CONQUEST = {"size": "small", "max_players": 2, "turn_time": 86400}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def web_link(message) -> str | None:
    return next((c["url"] for c in message.iter_components() if c.get("label") == "View on the web"), None)


async def test_posts_and_the_card_link_to_the_games_page_until_the_server_turns_it_off(tmp_path, cpu_pool):
    port = free_port()
    public = f"http://127.0.0.1:{port}"
    async with open_table(tmp_path, cpu_pool, public_url=public) as table:
        db, pool = await open_store(table.database), CpuPool(workers=0)  # the site's own, as its process has
        runner = web.AppRunner(Site(db, pool, public_url=public).app())
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        try:
            fake = table.fake
            thread = await table.start_game("conquest", **CONQUEST)
            for user in (table.alice, table.bob):
                await fake.slash(user, thread, "orders pass")
            post = await fake.wait_for_message(lambda m: m.content.startswith("**Round 1."), 10)
            link = web_link(post)
            assert link is not None and link.startswith(f"{public}/s/{table.guild.id}/g/1-"), post.components
            card = await table.card_showing("Round 2")
            assert web_link(fake.message(card.id)) == link
            async with aiohttp.ClientSession() as visitor:
                async with visitor.get(link) as page:
                    html = await page.text()
                    assert page.status == 200 and "Conquest #1" in html and 'max="1" value="1"' in html
                async with visitor.get(f"{link}/board.png") as board:
                    assert board.status == 200 and board.content_type == "image/png"

            turned = await fake.slash(table.mod, table.channel, "config web", mode="off")
            assert "no pages on the web site" in turned.content and turned.ephemeral
            await fake.wait_for_message(lambda m: m.id == card.id and web_link(m) is None, 10)  # at once
            for user in (table.alice, table.bob):
                await fake.slash(user, thread, "orders pass")
            post = await fake.wait_for_message(lambda m: m.content.startswith("**Round 2."), 10)
            assert web_link(post) is None
            assert web_link(fake.message((await table.card_showing("Round 3")).id)) is None
            async with aiohttp.ClientSession() as visitor:
                async with visitor.get(link) as page:
                    assert page.status == 404

            listed = await fake.slash(table.mod, table.channel, "config web", mode="public")
            assert f"{public}/s/{table.guild.id}" in listed.content
        finally:
            await runner.cleanup()
            await db.close()
            pool.close()
