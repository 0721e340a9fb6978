"""The game's page in a real browser (Debian's Chromium, which `make test` installs where it can; no
browser is ever downloaded), driven by Playwright, on a phone's screen: a
game played through the fake Discord, opened by the link its round post carries. What a visitor sees:
the board loaded, the slider moved to turn 3 showing turn 3's board and orders, the server's
language, the link back to Discord; axe-core finds no serious or critical accessibility problem."""

from __future__ import annotations

import os
import shutil
import socket

import pytest
from aiohttp import web
from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Browser, async_playwright

from service.runtime.workers import CpuPool
from service.storage.store import open_store
from tests.e2e.conftest import open_table
from web.site import Site

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
async def browser() -> Browser:
    if not shutil.which(CHROMIUM):
        pytest.fail(f"no Chromium at {CHROMIUM}: install Debian's package (apt-get install chromium), or set CHROMIUM")
    async with async_playwright() as driver:
        launched = await driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield launched
        finally:
            await launched.close()


PHONE = {"width": 390, "height": 844}
SERIOUS = ("serious", "critical")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def loaded(page, selector: str) -> bool:
    return await page.eval_on_selector(selector, "image => image.complete && image.naturalWidth > 0")


async def test_a_visitor_slides_to_turn_3_on_a_phone(tmp_path, cpu_pool, browser):
    port = free_port()
    public = f"http://127.0.0.1:{port}"
    async with open_table(tmp_path, cpu_pool, public_url=public) as table:
        db, pool = await open_store(table.database), CpuPool(workers=0)
        runner = web.AppRunner(Site(db, pool, public_url=public).app())
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        try:
            fake = table.fake
            thread = await table.start_game("conquest", size="small", max_players=2, turn_time=86400)
            for number in range(1, 5):
                for user in (table.alice, table.bob):
                    await fake.slash(user, thread, "orders pass")
                post = await fake.wait_for_message(lambda m, n=number: m.content.startswith(f"**Round {n}."), 10)
            link = next(c["url"] for c in post.iter_components() if c.get("label") == "View on the web")
            await fake.slash(table.mod, table.channel, "config language", language="uk")  # the page follows

            page = await (await browser.new_context(viewport=PHONE, locale="uk-UA")).new_page()
            page.set_default_timeout(10_000)
            answer = await page.goto(link)
            assert answer.status == 200
            assert await page.get_attribute("html", "lang") == "uk"
            assert await page.inner_text("h2#players") == "Гравці"
            assert await loaded(page, "#board-now") and await loaded(page, "#turn-board")
            assert (await page.get_attribute("a[href^='https://discord.com/channels/']", "href")).endswith(
                f"/{table.guild.id}/{thread.id}"
            )
            assert await page.input_value("#turn") == "4"

            await page.fill("#turn", "3")  # as a finger drags the slider
            await page.wait_for_function("() => document.querySelector('#turn-board').src.endsWith('/turn/3.png')")
            await page.wait_for_function("() => document.querySelector('#turn-board').naturalWidth > 0")
            assert "раунд 3" in (await page.inner_text("#turn-heading")).lower()
            assert await page.inner_text("#turn-number") == "3"
            assert page.url.endswith("?turn=3")
            orders = await page.inner_text("#turn-orders")
            assert "alice" in orders and "bob" in orders

            await page.click("[data-zoom-step='1'] >> nth=0")
            assert await page.eval_on_selector("#board-now", "image => image.style.width") == "150%"

            results = await Axe().run(page)
            serious = [v["id"] for v in results.response["violations"] if v["impact"] in SERIOUS]
            assert serious == [], results.generate_report()
        finally:
            await runner.cleanup()
            await db.close()
            pool.close()
