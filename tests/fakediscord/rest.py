"""REST endpoints a bot calls with its own token: identity, command sync, channels, messages, threads, DMs.

Each handler checks what Discord checks for that call (the channel exists, the bot may see it and
post there -- channel overwrites included --, the message is its own...) and answers with Discord's
error codes when it may not.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from . import limits
from .gateway import Gateway
from .models import (
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    EMBED_LINKS,
    GUILD_TEXT,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    FakeChannel,
    FakeMessage,
    FieldError,
)
from .server import ApiError, FakeServer, invalid_form, json_response, loop_time
from .world import AttachmentError, World

NONCE_WINDOW_SECONDS = 300.0
SESSION_STARTS_PER_DAY = 1000
KEPT_MESSAGE_FLAGS = (1 << 2) | (1 << 6) | (1 << 12) | (1 << 15)  # suppress embeds, ephemeral, silent, v2


def unknown_channel() -> ApiError:
    return ApiError(404, 10003, "Unknown Channel")


def missing_access() -> ApiError:
    return ApiError(403, 50001, "Missing Access", kind="forbidden", detail="the bot cannot view that channel")


def unknown_message() -> ApiError:
    return ApiError(404, 10008, "Unknown Message")


def missing_permissions(what: str) -> ApiError:
    return ApiError(403, 50013, "Missing Permissions", kind="forbidden", detail=f"the bot lacks {what}")


def check_message_body(body: dict[str, Any], uploads: int, *, creating: bool) -> None:
    """Documented message limits, and Discord's refusal (50006) of a new message with nothing in it."""
    errors = limits.message(body, new_files=uploads)
    if errors:
        raise invalid_form(errors)
    if creating and limits.is_empty(body, uploads):
        raise ApiError(400, 50006, "Cannot send an empty message", kind="limit")


def as_fetched(message: FakeMessage) -> dict[str, Any]:
    """A message as reading it back returns it: Discord keeps no nonce, which only the create response
    and the MESSAGE_CREATE event carry."""
    data = message.payload()
    data.pop("nonce", None)
    return data


def attachment_error(err: AttachmentError) -> ApiError:
    return invalid_form([FieldError(("attachments",), str(err))])


class RestApi:
    def __init__(self, server: FakeServer, world: World, gateway: Gateway, *, shards: int, max_concurrency: int):
        self.server, self.world, self.gateway = server, world, gateway
        self.shards, self.max_concurrency = shards, max_concurrency
        self._nonces: dict[tuple[int, str], tuple[float, int]] = {}
        for method, path, handler in [
            ("GET", "/users/@me", self.get_me),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_bot_gateway),
            ("GET", "/applications/{app_id}/commands", self.get_commands),
            ("PUT", "/applications/{app_id}/commands", self.put_commands),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("GET", "/channels/{channel_id}/messages", self.list_messages),
            ("POST", "/channels/{channel_id}/messages", self.post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.thread_from_message),
            ("POST", "/channels/{channel_id}/threads", self.thread_without_message),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member),
            ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self.remove_thread_member),
            ("POST", "/users/@me/channels", self.open_dm),
        ]:
            server.route(method, path, handler)

    # -- identity ----------------------------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        return json_response(
            self.world.bot_user.payload() | {"verified": True, "mfa_enabled": False, "locale": "en-US", "email": None}
        )

    async def get_application(self, request: web.Request) -> web.Response:
        world = self.world
        owner = next(iter(world.guilds.values())).owner if world.guilds else world.bot_user
        return json_response(
            {
                "id": str(world.application_id),
                "name": world.bot_user.name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": owner.payload(),
                "team": None,
                "bot": world.bot_user.payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "approximate_guild_count": len(world.guilds),
                "tags": [],
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway.url})

    async def get_bot_gateway(self, request: web.Request) -> web.Response:
        """The gateway, the recommended shard count, and how many sessions may start (per 5 s: max_concurrency)."""
        return json_response(
            {
                "url": self.gateway.url,
                "shards": self.shards,
                "session_start_limit": {
                    "total": SESSION_STARTS_PER_DAY,
                    "remaining": max(0, SESSION_STARTS_PER_DAY - self.gateway.identifies),
                    "reset_after": 86_400_000,
                    "max_concurrency": self.max_concurrency,
                },
            }
        )

    # -- commands ----------------------------------------------------------------------------------

    def _command_scope(self, request: web.Request) -> int | None:
        if request.match_info["app_id"] != str(self.world.application_id):
            raise ApiError(403, 50001, "Missing Access", kind="forbidden", detail="another application's commands")
        guild_id = request.match_info.get("guild_id")
        if guild_id is None:
            return None
        if not guild_id.isdigit() or int(guild_id) not in self.world.guilds:
            raise ApiError(403, 50001, "Missing Access", kind="forbidden", detail="the bot is not in that guild")
        return int(guild_id)

    async def get_commands(self, request: web.Request) -> web.Response:
        guild_id = self._command_scope(request)
        stored = self.world.global_commands if guild_id is None else self.world.guild_commands.get(guild_id, [])
        return json_response(stored)

    async def put_commands(self, request: web.Request) -> web.Response:
        guild_id = self._command_scope(request)
        body = await self.server.body(request)
        items = body.json or []
        errors = limits.commands(items)
        if errors:
            raise invalid_form(errors)
        previous = self.world.global_commands if guild_id is None else self.world.guild_commands.get(guild_id, [])
        ids = {(c["type"], c["name"]): c["id"] for c in previous}
        stored = []
        for item in items:
            kind = item.get("type") or 1
            command = {
                **item,
                "type": kind,
                "application_id": str(self.world.application_id),
                "id": ids.get((kind, item["name"])) or str(next(self.world.ids)),
                "version": str(next(self.world.ids)),
                "description": item.get("description") or "",
                "options": item.get("options") or [],
            }
            if item.get("default_member_permissions") is not None:
                command["default_member_permissions"] = str(item["default_member_permissions"])
            if guild_id is not None:
                command["guild_id"] = str(guild_id)
            stored.append(command)
        if guild_id is None:
            self.world.global_commands = stored
        else:
            self.world.guild_commands[guild_id] = stored
        self.world.command_syncs += 1
        self.world.notify()
        return json_response(stored)

    # -- channels and messages ---------------------------------------------------------------------

    def _channel(self, request: web.Request) -> FakeChannel:
        raw = request.match_info["channel_id"]
        channel = self.world.channels.get(int(raw)) if raw.isdigit() else None
        if channel is None:
            raise unknown_channel()
        if not self.world.can_see_channel(self.world.bot_user, channel):
            raise missing_access()
        return channel

    def _message(self, request: web.Request, channel: FakeChannel) -> FakeMessage:
        raw = request.match_info["message_id"]
        message = self.world.messages.get(int(raw)) if raw.isdigit() else None
        if message is None or message.deleted or message.channel_id != channel.id or message.ephemeral:
            raise unknown_message()
        return message

    def _has(self, channel: FakeChannel, bits: int) -> bool:
        """Whether the bot has all of ``bits`` in ``channel``, its overwrites included."""
        return self.world.permissions_in(self.world.bot_user, channel) & bits == bits

    def _require(self, channel: FakeChannel, bits: int, what: str) -> None:
        if not self._has(channel, bits):
            raise missing_permissions(what)

    def _shown(self, channel: FakeChannel, data: dict[str, Any]) -> dict[str, Any]:
        """Without Embed Links Discord still takes the message but shows none of its embeds, so the fake
        stores it without them (a new message left with nothing else is refused: 50013)."""
        if not data.get("embeds") or self._has(channel, EMBED_LINKS):
            return data
        return data | {"embeds": []}

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._channel(request).payload(self.world.bot_user))

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, READ_MESSAGE_HISTORY, "Read Message History")
        limit = min(int(request.query.get("limit", "50")), 100)
        before = int(request.query.get("before", 0)) or None
        after = int(request.query.get("after", 0))
        found = [
            m
            for m in self.world.messages.values()
            if m.channel_id == channel.id
            and not m.deleted
            and not m.ephemeral
            and (before is None or m.id < before)
            and m.id > after
        ]
        found.sort(key=lambda m: m.id)  # with ``after`` alone: the messages just after it, newest first
        page = found[:limit] if after and before is None else found[-limit:]
        return json_response([as_fetched(m) for m in reversed(page)])

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, READ_MESSAGE_HISTORY, "Read Message History")
        return json_response(as_fetched(self._message(request, channel)))

    async def post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.type == DM:
            recipient = channel.recipient
            if recipient is None or not recipient.accepts_dms or not self._shares_guild(recipient.id):
                raise ApiError(403, 50007, "Cannot send messages to this user", kind="forbidden")
        else:
            send = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
            self._require(channel, send, "permission to send messages here")
        body = await self.server.body(request)
        if body.uploads:
            self._require(channel, ATTACH_FILES, "Attach Files")
        check_message_body(body.json or {}, len(body.uploads), creating=True)
        data = self._shown(channel, body.json or {})
        if limits.is_empty(data, len(body.uploads)):
            raise missing_permissions("Embed Links, and the message has nothing but embeds")
        nonce = data.get("nonce")
        if nonce is not None and data.get("enforce_nonce"):
            key = (self.world.bot_user.id, str(nonce))
            seen = self._nonces.get(key)
            if seen is not None and loop_time() - seen[0] < NONCE_WINDOW_SECONDS:
                return json_response(self.world.messages[seen[1]].payload())
        try:
            message = self.world.create_message(
                channel, data, body.uploads, flags=(data.get("flags") or 0) & KEPT_MESSAGE_FLAGS & ~(1 << 6)
            )
        except AttachmentError as err:
            raise attachment_error(err) from None
        if nonce is not None and data.get("enforce_nonce"):
            self._nonces[(self.world.bot_user.id, str(nonce))] = (loop_time(), message.id)
        return json_response(message.payload())

    def forget_nonces(self) -> None:
        """The nonce window has passed for every post so far: a repeated nonce posts again."""
        self._nonces.clear()

    def _shares_guild(self, user_id: int) -> bool:
        return any(user_id in g.members for g in self.world.guilds.values())

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._message(request, channel)
        if message.author.id != self.world.bot_user.id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user", kind="forbidden")
        body = await self.server.body(request)
        if body.uploads:
            self._require(channel, ATTACH_FILES, "Attach Files")
        check_message_body(body.json or {}, len(body.uploads), creating=False)
        try:
            self.world.edit_message(message, self._shown(channel, body.json or {}), body.uploads)
        except AttachmentError as err:
            raise attachment_error(err) from None
        return json_response(message.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._message(request, channel)
        self.world.delete_message(message)
        return web.Response(status=204)

    # -- threads and DMs ---------------------------------------------------------------------------

    async def thread_from_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.type != GUILD_TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        message = self._message(request, channel)
        self._require(channel, CREATE_PUBLIC_THREADS, "Create Public Threads")
        data = (await self.server.body(request)).json or {}
        if message.id in self.world.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        thread = self.world.add_thread(
            channel, data["name"], kind=PUBLIC_THREAD, owner=self.world.bot_user, thread_id=message.id
        )
        return json_response(thread.payload(self.world.bot_user))

    async def thread_without_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel.type != GUILD_TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        data = (await self.server.body(request)).json or {}
        kind = data.get("type") or PRIVATE_THREAD
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise invalid_form([FieldError(("type",), "Value must be 11 or 12 for a text channel.")])
        needed = CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else CREATE_PUBLIC_THREADS
        self._require(channel, needed, "permission to create this kind of thread")
        thread = self.world.add_thread(channel, data["name"], kind=kind, owner=self.world.bot_user)
        return json_response(thread.payload(self.world.bot_user))

    def _thread_and_user(self, request: web.Request) -> tuple[FakeChannel, int]:
        thread = self._channel(request)
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        raw = request.match_info["user_id"]
        user_id = self.world.bot_user.id if raw == "@me" else int(raw) if raw.isdigit() else 0
        guild = self.world.guild_of(thread)
        if guild is None or user_id not in guild.members:
            raise ApiError(404, 10007, "Unknown Member")
        if (
            user_id != self.world.bot_user.id
            and thread.type == PRIVATE_THREAD
            and self.world.bot_user.id not in thread.members
        ):
            self._require(thread, MANAGE_THREADS, "Manage Threads")
        return thread, user_id

    async def add_thread_member(self, request: web.Request) -> web.Response:
        thread, user_id = self._thread_and_user(request)
        thread.members.add(user_id)
        self.world.notify()
        return web.Response(status=204)

    async def remove_thread_member(self, request: web.Request) -> web.Response:
        thread, user_id = self._thread_and_user(request)
        thread.members.discard(user_id)
        self.world.notify()
        return web.Response(status=204)

    async def open_dm(self, request: web.Request) -> web.Response:
        data = (await self.server.body(request)).json or {}
        recipient = self.world.users.get(int(data.get("recipient_id") or 0))
        if recipient is None or recipient.bot:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        return json_response(self.world.dm_channel(recipient).payload())
