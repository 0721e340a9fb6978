"""``FakeDiscord``: start the fake, point the real discord.py at it, run bots, act as users, observe.

    async with FakeDiscord() as fake:
        guild = fake.add_guild("Test Server")
        alice = fake.add_user("alice")
        fake.add_member(guild, alice)
        await fake.start_bot(bot)               # bot built with guild_ready_timeout=0.1
        reply = await fake.slash(alice, guild.channels[0], "echo say", text="hi")
        assert reply.ephemeral and reply.content == "hi"

discord.py is configured through its public class attributes ``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (restored on exit), so only one FakeDiscord
may be active at a time. On a clean exit the fake raises if any violation is left unchecked: a test
that provokes violations on purpose takes them with :meth:`FakeDiscord.take_violations`.

Discord's rate limits are enforced (:mod:`.ratelimits`): per-route buckets whose headers discord.py
obeys, the global limit, and the ban after too many invalid requests. Tests tighten them
(:meth:`FakeDiscord.set_rate_limit`) and read :meth:`FakeDiscord.buckets_exceeded` and
:meth:`FakeDiscord.invalid_requests`; rate limits' 429s are not violations.
"""

from __future__ import annotations

import asyncio
import os
import pathlib
import sys
from collections.abc import Callable
from typing import Any

import discord
import yarl

from .callbacks import InteractionApi
from .gateway import GUILDS_PER_SESSION, Gateway
from .models import (
    BOT_DEFAULT,
    DM,
    EVERYONE_DEFAULT,
    MEMBER_OVERWRITE,
    ROLE_OVERWRITE,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Overwrite,
    RequestRecord,
    Violation,
    permission_value,
)
from .rest import RestApi
from .schema import default_spec_path, load_schema
from .server import FakeServer, Fault
from .users import InteractionHandle, Simulator
from .world import World

ROOT = pathlib.Path(__file__).resolve().parents[2]  # where bot.py is

ChannelRef = FakeChannel | int


class FakeDiscord:
    def __init__(
        self,
        *,
        token: str = "test-token",
        bot_name: str = "FakeBot",
        openapi_path: pathlib.Path | None = None,
        check_on_exit: bool = True,
        check_bodies: bool = True,
        shards: int = 1,
        max_concurrency: int = 1,
        guilds_per_session: int = GUILDS_PER_SESSION,
    ):
        """``shards`` and ``max_concurrency`` are what ``GET /gateway/bot`` recommends and allows; a session
        that would hold more than ``guilds_per_session`` guilds is refused (4011), as Discord does past 2,500."""
        if shards < 1 or max_concurrency < 1 or guilds_per_session < 1:
            raise ValueError("shards, max_concurrency and guilds_per_session are at least 1")
        self.world = World(token=token, bot_name=bot_name)
        self.schema = load_schema(openapi_path or default_spec_path())
        # Benches turn the body check off: it is Discord's work, which never runs on the bot's machine.
        self.server = FakeServer(self.world, self.schema if check_bodies else None)
        self.gateway = Gateway(self.world, guilds_per_session=guilds_per_session)
        self.rest = RestApi(self.server, self.world, self.gateway, shards=shards, max_concurrency=max_concurrency)
        InteractionApi(self.server, self.world)
        self.server.app.router.add_get("/", self.gateway.handle)
        self.users = Simulator(self.world, self.gateway)
        self.check_on_exit = check_on_exit
        self._saved: tuple[str, yarl.URL] | None = None
        self._bots: dict[discord.Client, asyncio.Task[None]] = {}

    async def __aenter__(self) -> FakeDiscord:
        await self.server.start()
        self.world.base_url = f"http://127.0.0.1:{self.server.port}"
        self.gateway.url = f"ws://127.0.0.1:{self.server.port}/"
        self.world.dispatch = self.gateway.dispatch
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway.url)
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        try:
            for bot in list(self._bots):
                await self.stop_bot(bot)
        finally:
            self.users.close()
            await self.gateway.close_all()
            await self.server.stop()
            if self._saved is not None:
                discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
        if self.check_on_exit and exc_type is None and self.violations:
            raise AssertionError("fake Discord recorded violations:\n" + "\n".join(map(str, self.violations)))

    # -- identity and records ----------------------------------------------------------------------

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` (or a bot's ``DISCORD_API_BASE``) must be set to."""
        return f"{self.world.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Where the gateway listens; ``GET /gateway/bot`` answers it too."""
        return self.gateway.url

    def bot_env(self) -> dict[str, str]:
        """The environment a ``python bot.py`` process needs to run against this fake (add the database
        and ``SHARD_COUNT``/``SHARD_IDS``): the bot learns the gateway's address from ``GET /gateway/bot``."""
        return {"DISCORD_TOKEN": self.token, "DISCORD_API_BASE": self.api_base}

    async def bot_process(self, settings: dict[str, str], log: pathlib.Path) -> asyncio.subprocess.Process:
        """``python bot.py`` against this fake, ``settings`` added to its environment (its database,
        ``SHARD_COUNT``/``SHARD_IDS``, ...); its log goes to the file ``log`` (a pipe nobody reads would fill
        up and stop the bot)."""
        with log.open("wb") as out:
            return await asyncio.create_subprocess_exec(
                sys.executable, str(ROOT / "bot.py"), env=os.environ | self.bot_env() | settings, cwd=ROOT, stderr=out
            )

    @property
    def token(self) -> str:
        return self.world.token

    @property
    def bot_user(self) -> FakeUser:
        return self.world.bot_user

    @property
    def application_id(self) -> int:
        return self.world.application_id

    @property
    def violations(self) -> list[Violation]:
        return self.world.violations

    def take_violations(self) -> list[Violation]:
        """Return and forget the violations so far (for tests that provoke them on purpose)."""
        taken, self.world.violations[:] = list(self.world.violations), []
        return taken

    @property
    def requests(self) -> list[RequestRecord]:
        return self.world.requests

    @property
    def unknown_requests(self) -> list[Violation]:
        return [v for v in self.violations if v.kind == "unknown_endpoint"]

    @property
    def gateway_log(self) -> list[str]:
        """Protocol steps; a sharded session's entries carry its shard (``"READY 1/2"``)."""
        return self.gateway.log

    def connected_shards(self) -> list[tuple[int, int] | None]:
        """The shard (``(id, count)``, None when unsharded) of every session with a live connection."""
        return sorted(
            (s.shard for s in self.gateway.sessions.values() if s.connection is not None),
            key=lambda shard: shard or (-1, 0),
        )

    async def wait_for_shards(self, *shards: tuple[int, int], timeout: float = 10.0) -> None:
        """Wait until each of ``shards`` has a connected session, e.g. after starting bot processes."""
        await self.world.wait_until(
            lambda: set(shards) <= set(self.connected_shards()),
            timeout,
            f"sessions on shards {shards} (connected: {self.connected_shards()}; log {self.gateway.log})",
        )

    @property
    def faults_fired(self) -> list[str]:
        return self.server.fired

    def commands(self, guild: FakeGuild | None = None) -> list[dict[str, Any]]:
        """What the bot synced: global commands, or one guild's."""
        return self.world.global_commands if guild is None else self.world.guild_commands.get(guild.id, [])

    # -- the world ---------------------------------------------------------------------------------

    def add_user(self, name: str, *, accepts_dms: bool = True, locale: str = "en-US") -> FakeUser:
        """A person; ``accepts_dms=False`` makes the bot's DMs to them fail with 50007, as closed DMs do;
        ``locale`` is his Discord client's language."""
        return self.world.add_user(name, accepts_dms=accepts_dms, locale=locale)

    def add_guild(
        self,
        name: str = "Test Server",
        *,
        owner: FakeUser | None = None,
        bot_permissions: Any = BOT_DEFAULT,
        everyone_permissions: Any = EVERYONE_DEFAULT,
        channel: str | None = "general",
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """A guild the bot is in, with an @everyone role, the bot's role and (by default) #general;
        ``shard=(id, count)`` picks its id so that it belongs to that shard."""
        if shard is not None and not 0 <= shard[0] < shard[1]:
            raise ValueError(f"shard must be (id, count) with 0 <= id < count, not {shard!r}")
        return self.world.add_guild(
            name,
            owner,
            bot_permissions=permission_value(bot_permissions),
            everyone_permissions=permission_value(everyone_permissions),
            channel=channel,
            shard=shard,
        )

    def add_member(
        self, guild: FakeGuild, user: FakeUser, *, permissions: Any = None, roles: tuple[FakeRole, ...] = ()
    ) -> FakeMember:
        """Make ``user`` a member; ``permissions`` (int or ``discord.Permissions``) adds a role granting them."""
        return self.world.add_member(guild, user, permissions=permissions, roles=roles)

    def add_role(self, guild: FakeGuild, name: str, permissions: Any) -> FakeRole:
        return self.world.add_role(guild, name, permissions)

    def add_text_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        return self.world.add_channel(guild, name)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and ``user``, e.g. to run a slash command in DMs."""
        return self.world.dm_channel(user)

    def channel(self, ref: ChannelRef) -> FakeChannel:
        return ref if isinstance(ref, FakeChannel) else self.world.channels[ref]

    # -- permissions -------------------------------------------------------------------------------

    def permissions_in(self, user: FakeUser, channel: ChannelRef) -> int:
        """What ``user`` may do in ``channel``, overwrites included, as REST enforces it for the bot."""
        return self.world.permissions_in(user, self.channel(channel))

    def bot_role(self, guild: FakeGuild) -> FakeRole:
        """The bot's managed role in ``guild``: its ``bot_permissions``."""
        return self.world.bot_role(guild)

    def set_bot_permissions(self, guild: FakeGuild, permissions: Any) -> None:
        """Change the bot's role in ``guild`` (as a server admin would, mid-game); dispatches GUILD_ROLE_UPDATE."""
        self.world.set_role_permissions(guild, self.world.bot_role(guild), permissions)

    def set_role_permissions(self, guild: FakeGuild, role: FakeRole, permissions: Any) -> None:
        """Change what ``role`` (``guild.everyone`` too) grants; dispatches GUILD_ROLE_UPDATE."""
        self.world.set_role_permissions(guild, role, permissions)

    def set_overwrite(self, channel: ChannelRef, target: FakeRole | FakeUser, *, allow: Any = 0, deny: Any = 0) -> None:
        """Give ``channel`` (a thread: its parent) an overwrite for a role or a member, replacing any
        earlier one for it; dispatches CHANNEL_UPDATE with the channel's new ``permission_overwrites``."""
        kind = ROLE_OVERWRITE if isinstance(target, FakeRole) else MEMBER_OVERWRITE
        overwrite = Overwrite(target.id, kind, permission_value(allow), permission_value(deny))
        self.world.set_overwrite(self.channel(channel), target.id, overwrite)

    def delete_thread(self, thread: ChannelRef) -> None:
        """Delete a thread, as a member who may manage threads does; dispatches THREAD_DELETE."""
        self.world.delete_thread(self.channel(thread))

    def clear_overwrite(self, channel: ChannelRef, target: FakeRole | FakeUser) -> None:
        """Remove ``channel``'s (a thread: its parent's) overwrite for ``target``; dispatches CHANNEL_UPDATE."""
        self.world.set_overwrite(self.channel(channel), target.id, None)

    def set_member_roles(self, guild: FakeGuild, user: FakeUser, roles: list[FakeRole]) -> None:
        """Replace ``user``'s roles in ``guild``; dispatches GUILD_MEMBER_UPDATE (to the bot only with the
        GUILD_MEMBERS intent, unless ``user`` is the bot)."""
        self.world.set_member_roles(guild, user, roles)

    # -- simulated users ---------------------------------------------------------------------------

    async def slash(
        self, user: FakeUser, channel: ChannelRef, path: str, *, settle: bool = True, **options: Any
    ) -> InteractionHandle:
        """Run ``/path`` (``"game create"``) as ``user``; returns once the bot answered, was refused, or 3 s
        passed — and, with ``settle``, once a deferred ("thinking") reply has been filled in, as the user
        would wait for it."""
        handle = await self.users.slash(user, self.channel(channel), path, **options)
        if settle and handle.message is not None and handle.message.loading:
            await handle.settled(timeout=30.0)
        return handle

    async def autocomplete(
        self, user: FakeUser, channel: ChannelRef, path: str, *, focused: str, value: Any, **options: Any
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while ``user`` types ``value`` into option ``focused``."""
        return await self.users.autocomplete(user, self.channel(channel), path, focused=focused, value=value, **options)

    async def click(self, user: FakeUser, message: FakeMessage | int, custom_id: str) -> InteractionHandle:
        return await self.users.click(user, message, custom_id)

    async def select(
        self, user: FakeUser, message: FakeMessage | int, custom_id: str, values: list[Any]
    ) -> InteractionHandle:
        return await self.users.select(user, message, custom_id, values)

    async def submit_modal(
        self, user: FakeUser, source: InteractionHandle, custom_id: str, values: dict[str, Any]
    ) -> InteractionHandle:
        """Fill in and submit the modal that the bot opened in answer to ``source``."""
        return await self.users.submit_modal(user, source, custom_id, values)

    # -- observation -------------------------------------------------------------------------------

    def message(self, message_id: int) -> FakeMessage:
        return self.world.messages[message_id]

    def channel_messages(
        self, channel: ChannelRef, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """Messages in a channel, DM or thread, oldest first."""
        channel_id = self.channel(channel).id
        return [
            m
            for m in self.world.messages.values()
            if m.channel_id == channel_id
            and (include_ephemeral or not m.ephemeral)
            and (include_deleted or not m.deleted)
        ]

    def threads(self, channel: ChannelRef) -> list[FakeChannel]:
        parent = self.channel(channel).id
        return [c for c in self.world.channels.values() if c.is_thread and c.parent_id == parent]

    def dm_messages(self, user: FakeUser) -> list[FakeMessage]:
        dms = [c.id for c in self.world.channels.values() if c.type == DM and c.recipient and c.recipient.id == user.id]
        return [m for m in self.world.messages.values() if m.channel_id in dms and not m.deleted]

    def visible_to(self, user: FakeUser, *, include_deleted: bool = True) -> list[FakeMessage]:
        """Everything ``user`` could ever have seen: public posts, their DMs, their own ephemeral replies.

        Deleted messages are included by default (they were visible until deleted), and each message's
        :meth:`FakeMessage.text` covers its earlier revisions too.
        """
        return [
            m
            for m in self.world.messages.values()
            if self.world.can_see(user, m) and (include_deleted or not m.deleted)
        ]

    async def wait_for_message(self, predicate: Callable[[FakeMessage], bool], timeout: float = 5.0) -> FakeMessage:
        """The first message (existing, new or just edited) for which ``predicate`` is true."""
        return await self.world.wait_for_message(predicate, timeout)

    # -- faults ------------------------------------------------------------------------------------

    def inject_rate_limit(
        self,
        route: str,
        *,
        retry_after: float = 0.2,
        count: int = 1,
        method: str | None = None,
        scope: str = "user",
    ) -> None:
        """The next ``count`` requests whose path contains ``route`` get a per-route 429; ``scope="shared"``
        is a shared resource's limit, which Discord does not count as an invalid request."""
        if scope not in ("user", "shared"):
            raise ValueError("a per-route 429's scope is 'user' or 'shared'")
        self.server.faults.append(Fault("429", route, method, count, retry_after, scope))

    def inject_server_error(self, route: str, *, count: int = 1, status: int = 500, method: str | None = None) -> None:
        """The next ``count`` requests whose path contains ``route`` fail with ``status`` (500, 502, 504...)."""
        if not 500 <= status <= 599:
            raise ValueError("a server error is a 5xx status")
        self.server.faults.append(Fault(str(status), route, method, count, 0.0))

    def inject_hang(self, route: str, *, count: int = 1, method: str | None = None) -> None:
        """The next ``count`` requests whose path contains ``route`` are carried out (a post is posted), but
        their answers never come: as for a bot process that dies before it hears back."""
        self.server.faults.append(Fault("hang", route, method, count, 0.0))

    # -- rate limits -------------------------------------------------------------------------------

    def set_rate_limit(self, route: str, limit: int, per: float) -> None:
        """Let ``route`` (``"POST /channels/{channel_id}/messages"``, as the fake registers it) take ``limit``
        requests per ``per`` seconds for each major parameter (channel, guild, webhook token)."""
        if route not in self.server.routes:
            raise ValueError(f"the fake has no route {route!r}; it has {sorted(self.server.routes)}")
        if limit < 1 or per <= 0:
            raise ValueError("a bucket allows at least 1 request in a positive number of seconds")
        self.server.limits.set_route(route, limit, per)

    def set_global_rate_limit(self, limit: int = 50, per: float = 1.0) -> None:
        """All requests but interaction and webhook ones share ``limit`` requests per ``per`` seconds."""
        if limit < 1 or per <= 0:
            raise ValueError("the global limit allows at least 1 request in a positive number of seconds")
        self.server.limits.set_global(limit, per)

    def set_invalid_request_limit(self, limit: int = 10_000, window: float = 600.0) -> None:
        """From ``limit`` invalid requests (401, 403, 429) within ``window`` seconds on, every request gets
        Cloudflare's ban (an HTML 429 without ``Via``, which discord.py raises as HTTPException)."""
        if limit < 1 or window <= 0:
            raise ValueError("the ban needs at least 1 invalid request in a positive window")
        self.server.limits.invalid_limit, self.server.limits.invalid_window = limit, window

    def invalid_requests(self, window: float = 600.0) -> int:
        """How many 401, 403 and 429 answers (not shared-scope 429s) the fake gave in the last ``window`` s."""
        return self.server.limits.invalid_count(window)

    @property
    def invalid_requests_peak(self) -> int:
        """The most invalid requests ever counted within one ban window (10 minutes by default)."""
        return self.server.limits.invalid_peak

    def buckets_exceeded(self) -> dict[str, int]:
        """How often each bucket (``"POST /channels/{channel_id}/messages:<channel id>"``) refused a request
        with a 429: never, for a client that obeys the rate-limit headers."""
        return dict(self.server.limits.exceeded)

    @property
    def global_rate_limit_hits(self) -> int:
        """Requests refused by the global limit, which discord.py only learns of by a 429."""
        return self.server.limits.global_exceeded

    def forget_nonces(self) -> None:
        """Let Discord's nonce window (a few minutes) pass: a post repeating an earlier nonce is posted again."""
        self.rest.forget_nonces()

    async def disconnect_gateway(
        self,
        resume: bool = True,
        *,
        via: str = "close",
        downtime: float = 0.0,
        wait: bool = True,
        timeout: float = 10.0,
        shard: int | None = None,
        code: int | None = None,
    ) -> None:
        """Drop the bot's gateway connection (that of shard ``shard`` when several are connected).

        ``via="close"`` closes the socket with ``code`` (default 4000 if resumable, else 4009; 4007,
        an invalid sequence, also needs a new IDENTIFY); ``"reconnect"`` sends op 7;
        ``"invalidate"`` sends op 9. Events dispatched meanwhile are replayed on RESUME; ``downtime``
        delays the next HELLO so a test can dispatch into that gap. With ``wait`` this returns once the
        bot has RESUMED (or, without ``resume``, has a new READY).
        """
        start = len(self.gateway.log)
        self.gateway.disconnect(resume=resume, via=via, downtime=downtime, shard_id=shard, code=code)
        if wait:
            await self.wait_for_gateway("RESUMED" if resume else "READY", after=start, timeout=timeout)

    async def wait_for_gateway(self, entry: str, *, after: int = 0, timeout: float = 10.0) -> None:
        """Wait for a ``gateway_log`` entry starting with ``entry`` at index ``after`` or later."""
        await self.world.wait_until(
            lambda: any(e.startswith(entry) for e in self.gateway.log[after:]),
            timeout,
            f"gateway {entry} (log: {self.gateway.log})",
        )

    # -- bots --------------------------------------------------------------------------------------

    async def start_bot(
        self, bot: discord.Client, *, token: str | None = None, timeout: float = 10.0, require_sync: bool = True
    ) -> None:
        """Run ``bot.start(token)`` in a task; return once it is ready and (by default) has synced commands.

        Build the bot with ``guild_ready_timeout=0.1`` (a ``discord.Client`` keyword): otherwise
        ``on_ready`` waits 2 s after the last GUILD_CREATE.
        """
        syncs = self.world.command_syncs
        task = asyncio.create_task(bot.start(token or self.token), name=f"fakediscord bot {bot!r}")
        self._bots[bot] = task
        deadline = asyncio.get_running_loop().time() + timeout
        while not bot.is_ready():
            if task.done():
                del self._bots[bot]
                error = task.exception()
                await bot.close()  # what it opened (its database's thread) would keep the test run from exiting
                raise RuntimeError(f"the bot stopped before it was ready: {error!r}") from error
            if asyncio.get_running_loop().time() > deadline:
                del self._bots[bot]
                task.cancel()
                await bot.close()
                raise TimeoutError(
                    f"the bot was not ready within {timeout} s; gateway log {self.gateway.log}; "
                    f"violations {[str(v) for v in self.violations]}"
                )
            await asyncio.sleep(0.01)
        if require_sync and self.world.command_syncs == syncs:
            raise AssertionError("the bot became ready without syncing its application commands (tree.sync)")

    async def stop_bot(self, bot: discord.Client, *, timeout: float = 10.0) -> None:
        """Close the bot and wait for ``bot.start`` to return; re-raises if the bot crashed."""
        task = self._bots.pop(bot, None)
        await bot.close()
        if task is not None:
            await asyncio.wait_for(task, timeout)
        # its sessions end when the fake sees the sockets close (code 1000)
        await self.world.wait_until(
            lambda: all(not c.ws.closed for c in self.gateway.connections), timeout, "the bot's sockets to close"
        )
