""" "Across servers: a queue may match players from different servers (servers opt in with
`/config matchmaking`). Such a game is mirrored: each participating server gets its own thread for
it" — the queues, the ready check's posts and the mirrored game, against a real database."""

from __future__ import annotations

import pytest

from service.errors import GameError, NotAllowed
from service.models import Actor, Mirror
from service.ops.matchmaking import READY_SECONDS
from service.storage import games as game_rows
from service.storage import matchmaking as rows
from service.storage.matchmaking import LAPSED, OPENED, READY, SHARED, Check, CheckPost, Entry, Queue
from tests.service.conftest import ADMIN, ALICE, BOB, CAROL, CHANNEL, GUILD
from tests.service.test_posts import posts_of

ELSEWHERE, ELSEWHERE_CHANNEL = 300, 301  # another server, and the channel its players queue from
APART, APART_CHANNEL = 400, 401  # a server keeping its queues to itself


async def queue(env, actor, guild, channel, ruleset="siege"):
    return await env.master.matchmaking.join(
        actor, guild_id=guild, channel_id=channel, ruleset=ruleset, speed="daily", seats=2
    )


async def sharing(env, *guilds):
    for guild in guilds:
        await env.master.matchmaking.share(guild, True, ADMIN)


async def both_ready(env) -> Check:
    """Alice of this server and Bob of the other, both sharing, matched and ready: their check."""
    mm = env.master.matchmaking
    await sharing(env, GUILD, ELSEWHERE)
    await queue(env, ALICE, GUILD, CHANNEL)
    check = (await queue(env, BOB, ELSEWHERE, ELSEWHERE_CHANNEL)).check
    await mm.ready(check.id, ALICE)
    return await mm.ready(check.id, BOB)


async def test_players_of_servers_that_share_are_matched_and_their_game_is_mirrored(env):
    mm = env.master.matchmaking
    await sharing(env, GUILD, ELSEWHERE)
    await queue(env, CAROL, APART, APART_CHANNEL)  # a server that does not share: never matched with them
    await queue(env, ALICE, GUILD, CHANNEL)
    check = (await queue(env, BOB, ELSEWHERE, ELSEWHERE_CHANNEL)).check
    assert check is not None and check.queue.guild_id == SHARED
    assert await mm.posts(check.id) == [CheckPost(CHANNEL, GUILD), CheckPost(ELSEWHERE_CHANNEL, ELSEWHERE)]
    assert [c.id for c, _ in await mm.pending_checks(BOB.user_id, ELSEWHERE)] == [check.id]
    assert await mm.pending_checks(BOB.user_id, GUILD) == []  # he queued from the other server
    await mm.ready(check.id, ALICE)
    opened = await mm.ready(check.id, BOB)
    assert opened.status == OPENED
    game = await env.master.games.get_game(opened.game_id)
    assert (game.row.guild_id, game.row.channel_id) == (GUILD, CHANNEL)  # where the longest waiting queued
    [mirror] = await env.master.games.mirrors(game.id)
    assert (mirror.guild_id, mirror.channel_id, mirror.thread_id) == (ELSEWHERE, ELSEWHERE_CHANNEL, None)
    assert [g.id for g in await env.master.lookup.list_games(ELSEWHERE)] == [game.id]
    assert [g.id for g in await env.master.lookup.games_of(BOB.user_id, guild_id=ELSEWHERE)] == [game.id]
    await env.master.lobby.attach_mirror(game.id, ELSEWHERE, thread_id=555, lobby_message_id=554)
    found = await env.master.lookup.game_in_thread(555)
    assert found is not None and found.id == game.id  # his orders from his server's thread reach the game
    meant = await env.master.lookup.game_meant(user_id=BOB.user_id, guild_id=ELSEWHERE, channel_id=1, game_id=game.id)
    assert meant.id == game.id
    with pytest.raises(GameError, match="not in this server"):
        await env.master.lookup.game_meant(user_id=CAROL.user_id, guild_id=APART, channel_id=1, game_id=game.id)
    assert [e.queue.guild_id for e in await mm.entries(CAROL.user_id, APART)] == [APART]


async def test_a_mirrored_game_is_rated_on_each_of_its_servers_boards(env):
    game_id = (await both_ready(env)).game_id
    await env.master.play.surrender(game_id, BOB)
    for board in (GUILD, ELSEWHERE):
        standings = await env.master.ratings.leaderboard("siege", board)
        assert sorted(s.name for s in standings) == ["Alice", "Bob"], board
    assert await env.master.ratings.leaderboard("siege", APART) == []


async def test_a_server_that_stops_sharing_takes_its_waiting_players_back_keeping_their_places(env):
    mm = env.master.matchmaking
    await sharing(env, GUILD, ELSEWHERE)
    await queue(env, ALICE, GUILD, CHANNEL)
    [shared] = await mm.entries(ALICE.user_id, GUILD)
    assert shared.queue.guild_id == SHARED
    with pytest.raises(NotAllowed, match="server managers"):
        await mm.share(GUILD, False, ALICE)
    assert await mm.shared(GUILD)
    await mm.share(GUILD, False, ADMIN)
    [own] = await mm.entries(ALICE.user_id, GUILD)
    assert own.queue.guild_id == GUILD and own.queued_at == shared.queued_at
    assert (await queue(env, BOB, ELSEWHERE, ELSEWHERE_CHANNEL)).check is None  # no longer matched together
    await mm.share(GUILD, True, ADMIN)  # sharing again: matched at once
    assert [c.queue.guild_id for c, _ in await mm.pending_checks(ALICE.user_id, GUILD)] == [SHARED]


async def test_leaving_is_per_server_and_a_lapse_returns_each_to_the_queue_his_server_has_now(env):
    mm = env.master.matchmaking
    await sharing(env, GUILD, ELSEWHERE)
    await queue(env, ALICE, GUILD, CHANNEL, ruleset="fortress")
    assert await mm.cancel(ALICE, ELSEWHERE) == 0  # he queued from the other server
    check = (await queue(env, BOB, ELSEWHERE, ELSEWHERE_CHANNEL, ruleset="fortress")).check
    await mm.ready(check.id, ALICE)
    await mm.share(GUILD, False, ADMIN)  # while the check waits
    env.clock.advance(READY_SECONDS)
    await mm.sweep()
    assert (await mm.check(check.id))[0].status == LAPSED
    [alice] = await mm.entries(ALICE.user_id, GUILD)
    assert alice.queue.guild_id == GUILD  # answered: his place kept, in his server's own queue now
    [bob] = await mm.entries(BOB.user_id, ELSEWHERE)
    assert bob.queue.guild_id == SHARED and bob.missed == 1
    assert await mm.cancel(Actor(BOB.user_id, "Bob"), ELSEWHERE) == 1


async def test_a_reminder_links_each_player_to_the_thread_of_the_server_he_plays_from(env):
    game = await env.master.games.get_game((await both_ready(env)).game_id)
    await env.master.lobby.attach_thread(game.id, thread_id=550, lobby_message_id=549)
    await env.master.lobby.attach_mirror(game.id, ELSEWHERE, thread_id=555, lobby_message_id=554)
    game = await env.master.games.get_game(game.id)
    payload = {"turn": 1, "user_ids": [ALICE.user_id, BOB.user_id], "deadline_at": None}
    alice, bob = await posts_of(env, game, "reminder", payload)
    assert "<#550>" in alice.text and "<#555>" in bob.text


async def test_a_game_shown_in_part_before_a_stop_is_shown_the_rest_after_it(env):
    """Its card and thread made in the first server, the bot stopped before the other's: the next sweep
    shows it in the other server, and the game starts."""
    mm, shown = env.master.matchmaking, []

    async def show(game):
        if game.row.thread_id is None:
            await env.master.lobby.attach_thread(game.id, thread_id=550, lobby_message_id=549)
            shown.append(game.row.guild_id)
            raise ConnectionError("the bot stopped before the mirror was shown")
        for mirror in await env.master.games.mirrors(game.id):
            if mirror.thread_id is None:
                await env.master.lobby.attach_mirror(game.id, mirror.guild_id, thread_id=555, lobby_message_id=554)
                shown.append(mirror.guild_id)
        return game

    mm.on_open.append(show)
    check = await both_ready(env)
    assert check.status == READY
    await mm.sweep()
    check = (await mm.check(check.id))[0]
    assert check.status == OPENED and shown == [GUILD, ELSEWHERE]
    assert (await env.master.games.get_game(check.game_id)).row.status == "running"


async def test_a_table_of_three_opens_where_its_first_player_queued_and_is_mirrored_for_the_others(env):
    """The player waiting longest is not always the one a table is matched around (here Bob, whose
    rating window holds both others): the game still opens where the first queued."""
    mm = env.master.matchmaking
    await sharing(env, GUILD, ELSEWHERE)
    now = env.clock.now()
    async with env.db.transaction() as conn:
        for n, (player, guild, channel, rating) in enumerate(
            ((ALICE, GUILD, CHANNEL, 0.0), (BOB, ELSEWHERE, ELSEWHERE_CHANNEL, 4.0), (CAROL, ELSEWHERE, 302, 8.0))
        ):
            queued = Entry(
                player.user_id,
                player.name,
                Queue("conquest", "daily", 3, SHARED),
                guild,
                channel,
                rating,
                now + n,
                now + 1e6,
            )
            await rows.enqueue(conn, queued)
    env.clock.advance(10)
    await mm.match()
    [(check, _)] = await mm.pending_checks(ALICE.user_id, GUILD)
    assert check.channel_id == CHANNEL
    for player in (ALICE, BOB, CAROL):
        opened = await mm.ready(check.id, player)
    game = await env.master.games.get_game(opened.game_id)
    assert (game.row.guild_id, game.row.channel_id) == (GUILD, CHANNEL)
    [mirror] = await env.master.games.mirrors(game.id)
    assert (mirror.guild_id, mirror.channel_id) == (ELSEWHERE, ELSEWHERE_CHANNEL)  # the first of them to queue
    homes = await env.master.lookup.mirrored_homes([game.id])
    assert sorted(user for _, user in homes) == [BOB.user_id, CAROL.user_id]


async def test_a_rematch_is_mirrored_as_its_game_was_each_player_at_home(env):
    game_id = (await both_ready(env)).game_id
    await env.master.play.surrender(game_id, ALICE)
    rematch, new = await env.master.lobby.rematch(game_id, BOB)
    assert new and rematch.row.guild_id == GUILD
    assert [(m.guild_id, m.channel_id) for m in await env.master.games.mirrors(rematch.id)] == [
        (ELSEWHERE, ELSEWHERE_CHANNEL)
    ]
    assert list(await env.master.lookup.mirrored_homes([rematch.id])) == [(rematch.id, BOB.user_id)]
    outsider = Actor(ADMIN.user_id, "Mod", is_admin=True, guild_id=ELSEWHERE)
    with pytest.raises(NotAllowed, match="opened in another server"):
        await env.master.lobby.cancel(rematch.id, outsider)
    assert (
        await env.master.lobby.cancel(rematch.id, Actor(ADMIN.user_id, "Mod", is_admin=True, guild_id=GUILD))
    ).row.status == "cancelled"


async def test_who_joins_from_a_server_the_lobby_is_mirrored_in_plays_from_there(env):
    lobby = env.master.lobby
    game = await lobby.create_game(
        guild_id=GUILD, channel_id=CHANNEL, actor=ALICE, ruleset="conquest", mirrors={Mirror(ELSEWHERE, 301): []}
    )
    await lobby.join(game.id, Actor(BOB.user_id, "Bob", guild_id=ELSEWHERE))
    await lobby.join(game.id, Actor(CAROL.user_id, "Carol", guild_id=GUILD))
    assert list(await env.master.lookup.mirrored_homes([game.id])) == [(game.id, BOB.user_id)]


@pytest.mark.sqlite_only("query plans are SQLite's")
async def test_a_servers_a_channels_and_a_threads_games_are_found_through_indexes(env):
    """With mirrors, "this server's games" are its own and those mirrored in it: each side searched by
    an index, never by reading every open game (thousands, on a busy bot, for every command)."""
    async with env.db.reading() as conn:
        statements = []

        class Recording:
            def execute(self, sql, params=()):
                statements.append((sql, params))
                return conn.execute(sql, params)

        recording = Recording()
        await game_rows.in_server(recording, GUILD, ("lobby", "running"))
        await game_rows.open_in_channel(recording, CHANNEL)
        await game_rows.in_thread(recording, 555)
        await game_rows.open_games_of(recording, ALICE.user_id, GUILD)
        assert len(statements) == 4
        for sql, params in statements:
            [steps] = await conn.fetch_each([("EXPLAIN QUERY PLAN " + sql, params)])
            plan = [step[3] for step in steps]
            assert plan
            assert not any(step.startswith("SCAN") or "(status=?)" in step for step in plan), (sql, plan)
