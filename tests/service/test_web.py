"""The web site (``bot.py web``) on the bots' database: a game's page with its board, players and every
resolved turn; nothing secret in any answer; each server's choice of /config web; a clear 404 or 400
page for every bad address."""

from __future__ import annotations

import contextlib
import html
import json
import re

import pytest
from aiohttp.test_utils import TestClient, TestServer

from service.ops.languages import ServerLanguages
from service.runtime.workers import CpuPool
from service.storage import website as stored_web
from service.website import OFF, PUBLIC, UNLISTED, Signer, game_path
from tests.service.conftest import ADMIN, ALICE, BOB, GUILD
from tests.service.test_ratings import finished
from tests.service.test_turns import own_cell
from web.site import Site

PNG = b"\x89PNG\r\n\x1a\n"
OTHER_GUILD = GUILD + 1


@contextlib.asynccontextmanager
async def visiting(env):
    site = Site(env.db, CpuPool(workers=0), clock=env.clock, public_url="https://games.example")
    async with TestClient(TestServer(site.app())) as client:
        yield site, client


async def address(site: Site, game, guild: int = GUILD) -> str:
    return game_path(await site.website.signer(), guild, game.id)


async def played(env, rounds: int):
    game = await env.new_game(ALICE, BOB)
    for _ in range(rounds):
        await env.played_a_round(game)
    return await env.master.games.get_game(game.id)


async def text(client, path: str, status: int = 200) -> str:
    answer = await client.get(path)
    body = await answer.text()
    assert answer.status == status, (path, answer.status, body[:500])
    return body


async def test_a_game_page_shows_its_board_players_and_each_resolved_turn(env):
    """ "a game (the current board at full resolution …, players and their holdings, clocks, a turn
    slider through every resolved turn with that turn's board, summary and orders …), alt text on
    every board, and links back to the Discord thread." """
    game = await played(env, 3)
    async with visiting(env) as (site, client):
        path = await address(site, game)
        page = await text(client, path)
        assert "<h1>Conquest #1</h1>" in page and "Alice (blue)" in page and "Bob (red)" in page
        assert 'max="3" value="3"' in page and "https://discord.com/channels/100/200" in page
        assert "1 hour per turn" in page and "13 units" in page
        alts = re.findall(r'<img src="([^"]+)" alt="([^"]*)"', page)
        assert len(alts) == 2 and all(alt for _, alt in alts), alts
        for source, _ in alts:
            image = await client.get(source.replace("&amp;", "&"))
            assert image.status == 200 and (await image.read()).startswith(PNG)

        second = json.loads(await text(client, f"{path}/turn/2.json"))
        assert second["number"] == 2 and second["of"] == 3 and "round 2" in second["heading"]
        assert second["orders"] == ["Bob: no orders", "Alice: no orders"]
        past = await env.master.history.past_turn(game.id, 2)
        drawn = await (await client.get(second["board"])).read()
        assert drawn == (await site.presenter.board(game, seq=past.seq)).data  # that turn's board, not today's
        assert "round 2" in await text(client, f"{path}?turn=2")


async def test_no_answer_holds_a_programmed_order_or_a_running_standing_order(env):
    """ "a test walks every page of a game in progress and checks that no programmed order of the
    current turn and no running standing order appears in any response." """
    game = await env.new_game(ALICE, BOB)
    (source, target), (bob_source, bob_target) = own_cell(game, ALICE), own_cell(game, BOB)
    standing, programmed = f"auto {source}>{target}", f"{bob_source}>{bob_target} 3"
    await env.master.play.add_orders(game.id, ALICE, standing)
    await env.played_a_round(game)
    await env.master.play.add_orders(game.id, BOB, programmed)  # this round's, not passed: secret
    async with visiting(env) as (site, client):
        await site.website.set_mode(GUILD, PUBLIC, ADMIN)
        path = await address(site, game)
        answers = []
        for asked in (path, f"{path}?turn=1", f"{path}/turn/1.json", "/", f"/s/{GUILD}", "/seats.css"):
            answers.append(await text(client, asked))
        for name in site.presenter.rulesets:
            answers.append(await text(client, f"/s/{GUILD}/leaderboard/{name}"))
        everything = html.unescape("\n".join(answers))  # "C3>D3" is written "C3&gt;D3" in a page
        for image in (f"{path}/board.png", f"{path}/turn/1.png"):
            assert (await client.get(image)).status == 200
        assert "auto-move still running: secret" in everything  # the past turn's orders, the standing one hidden
        for secret in (standing, f"{source}>{target}", programmed, f"{bob_source}>{bob_target}"):
            assert secret not in everything, secret


async def test_a_server_chooses_listed_unlisted_or_off(env):
    """ "A server chooses with /config web whether its games are listed publicly or reachable only by
    their unguessable links (signed, not a bare id); off turns the pages of that server off." """
    game = await played(env, 1)
    async with visiting(env) as (site, client):
        path = await address(site, game)
        assert await site.website.mode(GUILD) == UNLISTED  # by default
        await text(client, f"/s/{GUILD}", 404)
        assert "Every game of this server" not in await text(client, path)
        await text(client, f"/s/{GUILD}/leaderboard/conquest", 404)

        await site.website.set_mode(GUILD, PUBLIC, ADMIN)
        assert path in await text(client, f"/s/{GUILD}")
        assert "Every game of this server" in await text(client, path)

        await site.website.set_mode(GUILD, OFF, ADMIN)
        for gone in (path, f"{path}/board.png", f"{path}/turn/1.json", f"/s/{GUILD}"):
            await text(client, gone, 404)
        assert await site.website.game_url(GUILD, game.id) is None  # and posts carry no link
        with pytest.raises(Exception, match="only server managers"):
            await site.website.set_mode(GUILD, PUBLIC, ALICE)


async def test_bad_addresses_get_a_short_page_and_nothing_else(env):
    """ "unknown or tampered game links, another server's game, absurd turn numbers, huge query
    strings — a clear 404/400 page, nothing else." """
    game = await played(env, 2)
    async with visiting(env) as (site, client):
        path = await address(site, game)
        signer = await site.website.signer()
        tampered = path[:-1] + ("A" if path[-1] != "A" else "B")
        elsewhere = game_path(signer, OTHER_GUILD, game.id)  # a genuine signature, for a server not the game's
        unknown = game_path(signer, GUILD, game.id + 100)
        forged = game_path(Signer("not the site's secret"), GUILD, game.id)
        bare = f"/s/{GUILD}/g/{game.id}"
        for missing in (tampered, elsewhere, unknown, forged, bare, "/s/1/g/1-x", "/nowhere", f"{path}/turn/x.png"):
            page = await text(client, missing, 404)
            assert "There is no such page" in page and "Traceback" not in page
        for absurd in ("?turn=0", "?turn=99999", "?turn=-1", "?turn=abc", "/turn/0.json", "/turn/999999999.png"):
            page = await text(client, path + absurd, 400)
            assert "choose 1 to 2" in page or "A turn is a number" in page, page
        page = await text(client, f"{path}?turn=1&x={'y' * 2000}", 400)
        assert "too long" in page
        answer = await client.post(path)
        assert answer.status == 405 and "takes nothing" in await answer.text()
        huge = "9" * 19  # beyond SQL's 64-bit integers
        for beyond in (f"/s/{huge}", f"/s/{huge}/g/1-abc", f"/s/{GUILD}/g/{huge}-abc", "/static/", "/static/x.js"):
            assert "There is no such page" in await text(client, beyond, 404)


async def test_a_game_whose_position_is_damaged_is_not_shown(env):
    game = await played(env, 1)
    async with env.db.transaction() as conn:
        await conn.execute("UPDATE games SET state = ?, version = version + 1 WHERE id = ?", ("{broken", game.id))
    async with visiting(env) as (site, client):
        path = await address(site, game)
        for asked in (path, f"{path}/board.png", f"{path}/turn/1.json", f"{path}/turn/1.png"):
            assert "its stored position is damaged" in await text(client, asked, 404)


async def test_pages_speak_the_servers_language(env):
    game = await played(env, 1)
    await ServerLanguages(env.db, env.clock).set(GUILD, "uk", ADMIN)
    async with visiting(env) as (site, client):
        page = await text(client, await address(site, game))
        assert '<html lang="uk">' in page and "Гравці" in page and "Players" not in page
        home = await text(client, "/")  # no server named: English
        assert '<html lang="en">' in home and "Strategy games played on Discord" in home
        for served in ("/static/site.css", "/static/game.js", "/seats.css"):
            assert (await client.get(served)).status == 200


async def test_a_lobby_and_a_finished_game_have_pages_too(env):
    lobby = await env.master.lobby.create_game(guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="siege")
    game = await played(env, 1)
    await env.master.play.surrender(game.id, BOB)
    async with visiting(env) as (site, client):
        waiting = await text(client, await address(site, lobby))
        assert "Waiting for players (1/" in waiting and "board-now" not in waiting
        over = await text(client, await address(site, game))
        assert "Game over" in over and "Winner: Alice" in over and "board-now" in over
        assert "surrendered · 0 cells · 0 units" in over and "1 cell · 11 units" in over  # the final holdings
        for no_turn in ("/turn/1.json", "?turn=1", "/turn/1.png"):
            assert "no resolved turn yet" in await text(client, await address(site, lobby) + no_turn, 400)
        await site.website.set_mode(GUILD, PUBLIC, ADMIN)
        listed = await text(client, f"/s/{GUILD}")
        assert await address(site, lobby) in listed and await address(site, game) in listed


async def test_health_and_metrics_of_the_web_process(env):
    game = await played(env, 1)
    async with visiting(env) as (site, client):
        assert json.loads(await text(client, "/healthz"))["status"] == "ok"
        await text(client, await address(site, game))
        metrics = await text(client, "/metrics")
        assert "territory_database_up 1.0" in metrics
        assert re.search(r'territory_web_requests_total\{route="/s/\{guild[^"]*",status="200"\} 1.0', metrics), metrics


async def test_a_listed_servers_leaderboards_and_a_players_ratings(env):
    """ "leaderboards and a player's stats with the rating chart" """
    await finished(env, ALICE, BOB)
    async with visiting(env) as (site, client):
        await site.website.set_mode(GUILD, PUBLIC, ADMIN)
        board = await text(client, f"/s/{GUILD}/leaderboard/conquest")
        assert f'href="/s/{GUILD}/player/{ALICE.user_id}">Alice</a>' in board
        page = await text(client, f"/s/{GUILD}/player/{ALICE.user_id}")
        assert "Conquest" in page and 'alt="Alice: rating after each rated game"' in page
        chart = await client.get(f"/s/{GUILD}/player/{ALICE.user_id}/chart.png")
        assert chart.status == 200 and (await chart.read()).startswith(PNG)
        await text(client, f"/s/{GUILD}/player/12345", 404)  # nobody rated here
        await text(client, f"/s/{GUILD}/leaderboard/chess", 404)


async def test_a_page_follows_its_game_as_players_pass_and_turns_resolve(env):
    """Pages are kept until their game changes: a pass, a resolved turn."""
    game = await played(env, 1)
    async with visiting(env) as (site, client):
        path = await address(site, game)
        assert "Waiting on: Bob, Alice</p>" in await text(client, path)
        await env.master.play.submit(game.id, ALICE)
        assert "Waiting on: Bob</p>" in await text(client, path)
        before = await (await client.get(f"{path}/board.png")).read()
        kept = site.images.size
        source, target = own_cell(game, BOB)
        await env.master.play.add_orders(game.id, BOB, f"{source}>{target} 1")  # a change the board does not show
        assert await (await client.get(f"{path}/board.png")).read() == before and site.images.size == kept
        await env.master.play.submit(game.id, BOB)
        page = await text(client, path)
        assert 'max="2" value="2"' in page and "Waiting on: Bob, Alice</p>" in page
        assert await (await client.get(f"{path}/board.png")).read() != before  # the board after round 2


async def test_a_turn_resolving_while_its_page_is_made_keeps_its_standing_orders_secret(env):
    """The game is read after the turn it shows: read before, its position would not hold the standing
    order the turn gave, and the order would be shown as if it had stopped."""
    game = await played(env, 1)
    source, target = own_cell(game, ALICE)
    await env.master.play.add_orders(game.id, ALICE, f"auto {source}>{target}")
    async with visiting(env) as (site, client):
        counted = site.master.history.resolved_turns

        async def resolving_meanwhile(game_id):  # the deadline comes just as the page is being made
            site.master.history.resolved_turns = counted
            await env.played_a_round(game)
            return await counted(game_id)

        site.master.history.resolved_turns = resolving_meanwhile
        shown = html.unescape(await text(client, f"{await address(site, game)}/turn/2.json"))
        assert "auto-move still running: secret" in shown and f"{source}>{target}" not in shown


async def test_a_database_that_does_not_answer_is_a_503_page(env, monkeypatch):
    game = await played(env, 1)

    async def unreachable(conn, guild_id, game_id):
        raise ConnectionError("the database cannot be reached")

    async with visiting(env) as (site, client):
        path = await address(site, game)
        monkeypatch.setattr(stored_web, "server_and_game", unreachable)
        assert "cannot be read right now" in await text(client, path, 503)
        monkeypatch.undo()
        await text(client, path)
