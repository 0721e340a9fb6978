"""The fake Discord's data: who exists, what was posted, and who can see it.

REST handlers, the gateway and simulated users all change this one object, so every observation a
test makes (a channel's messages, what a user can see) reflects exactly what the bot did.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from .models import (
    ALL_PERMISSIONS,
    BOT_DEFAULT,
    DM,
    EVERYONE_DEFAULT,
    GUILD_TEXT,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    VIEW_CHANNEL,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Overwrite,
    RequestRecord,
    Snowflakes,
    Upload,
    Violation,
    iso_now,
    permission_value,
    pinged_users,
)

GUILDS_INTENT = 1 << 0
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12

Dispatcher = Callable[[str, dict[str, Any], int], None]


class AttachmentError(ValueError):
    """An ``attachments`` entry names neither a kept attachment nor an uploaded file."""


class World:
    def __init__(self, *, token: str, bot_name: str = "FakeBot"):
        self.ids = Snowflakes()
        self.token = token
        self.bot_user = FakeUser(next(self.ids), bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_syncs = 0
        self.violations: list[Violation] = []
        self.requests: list[RequestRecord] = []
        self.base_url = ""
        self.dispatch: Dispatcher = lambda event, data, intent: None
        self._message_waiters: list[tuple[Callable[[FakeMessage], bool], asyncio.Future[FakeMessage]]] = []
        self._condition_waiters: list[tuple[Callable[[], bool], asyncio.Future[None]]] = []

    # -- people and places -------------------------------------------------------------------------

    def add_user(self, name: str, *, accepts_dms: bool = True, locale: str = "en-US") -> FakeUser:
        user = FakeUser(next(self.ids), name, accepts_dms=accepts_dms, locale=locale)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        owner: FakeUser | None,
        *,
        bot_permissions: int = BOT_DEFAULT,
        everyone_permissions: int = EVERYONE_DEFAULT,
        channel: str | None = "general",
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        guild_id = next(self.ids) if shard is None else self.ids.on_shard(*shard)
        owner = owner or self.add_user(f"{name} owner")
        everyone = FakeRole(guild_id, "@everyone", everyone_permissions)
        bot_role = FakeRole(next(self.ids), self.bot_user.name, bot_permissions, position=1, managed=True)
        guild = FakeGuild(guild_id, name, owner, roles=[everyone, bot_role])
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, [bot_role])
        guild.members[owner.id] = FakeMember(owner)
        self.guilds[guild_id] = guild
        if channel:
            self.add_channel(guild, channel, announce=False)
        self.dispatch("GUILD_CREATE", self.guild_payload(guild), GUILDS_INTENT)
        return guild

    def add_role(self, guild: FakeGuild, name: str, permissions: Any) -> FakeRole:
        role = FakeRole(next(self.ids), name, permission_value(permissions), position=len(guild.roles))
        guild.roles.append(role)
        self.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}, GUILDS_INTENT)
        return role

    def add_member(
        self,
        guild: FakeGuild,
        user: FakeUser,
        *,
        permissions: Any = None,
        roles: list[FakeRole] | tuple[FakeRole, ...] = (),
    ) -> FakeMember:
        member_roles = list(roles)
        if permissions is not None:
            member_roles.append(self.add_role(guild, f"{user.name}'s role", permissions))
        member = FakeMember(user, member_roles)
        guild.members[user.id] = member
        return member

    def add_channel(self, guild: FakeGuild, name: str, *, announce: bool = True) -> FakeChannel:
        channel = FakeChannel(next(self.ids), GUILD_TEXT, name, guild_id=guild.id, position=len(guild.channels))
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        if announce:
            self.dispatch("CHANNEL_CREATE", channel.payload(), GUILDS_INTENT)
        return channel

    def add_thread(
        self, parent: FakeChannel, name: str, *, kind: int, owner: FakeUser, thread_id: int | None = None
    ) -> FakeChannel:
        guild = self.guilds[parent.guild_id or 0]
        thread = FakeChannel(
            thread_id or next(self.ids),
            kind,
            name,
            guild_id=guild.id,
            parent_id=parent.id,
            owner_id=owner.id,
            members={owner.id},
        )
        guild.channels.append(thread)
        self.channels[thread.id] = thread
        payload = thread.payload(self.bot_user) | {"newly_created": True}
        self.dispatch("THREAD_CREATE", payload, GUILDS_INTENT)
        return thread

    def delete_thread(self, thread: FakeChannel) -> None:
        """A member deletes ``thread``: every later call on it is 404 Unknown Channel; dispatches
        THREAD_DELETE (its id, server, parent and type, as Discord sends it)."""
        self.guilds[thread.guild_id or 0].channels.remove(thread)
        del self.channels[thread.id]
        payload = {"id": str(thread.id), "guild_id": str(thread.guild_id), "parent_id": str(thread.parent_id)}
        self.dispatch("THREAD_DELETE", payload | {"type": thread.type}, GUILDS_INTENT)
        self.notify()

    # -- permission changes ------------------------------------------------------------------------

    def set_role_permissions(self, guild: FakeGuild, role: FakeRole, permissions: Any) -> None:
        role.permissions = permission_value(permissions)
        self.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role.payload()}, GUILDS_INTENT)
        self.notify()

    def bot_role(self, guild: FakeGuild) -> FakeRole:
        """The managed role Discord gives a bot when it joins: what its guild permissions come from."""
        return next(r for r in guild.members[self.bot_user.id].roles if r.managed)

    def set_overwrite(self, channel: FakeChannel, target_id: int, overwrite: Overwrite | None) -> None:
        """Set (``None``: remove) the overwrite for ``target_id``; a thread's go to its parent channel,
        which is the one announced changed."""
        holder = self.guilds[channel.guild_id or 0].overwrite_holder(channel)
        if overwrite is None:
            holder.overwrites.pop(target_id, None)
        else:
            holder.overwrites[target_id] = overwrite
        self.dispatch("CHANNEL_UPDATE", holder.payload(), GUILDS_INTENT)
        self.notify()

    def set_member_roles(self, guild: FakeGuild, user: FakeUser, roles: list[FakeRole]) -> None:
        """GUILD_MEMBER_UPDATE needs the GUILD_MEMBERS intent, except for the bot's own member."""
        member = guild.members[user.id]
        member.roles = list(roles)
        intent = 0 if user.id == self.bot_user.id else GUILD_MEMBERS_INTENT
        self.dispatch("GUILD_MEMBER_UPDATE", member.payload() | {"guild_id": str(guild.id)}, intent)
        self.notify()

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The one DM channel between the bot and ``user`` (created on first use, like Discord's)."""
        for channel in self.channels.values():
            if channel.type == DM and channel.recipient is not None and channel.recipient.id == user.id:
                return channel
        channel = FakeChannel(next(self.ids), DM, recipient=user)
        self.channels[channel.id] = channel
        return channel

    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def guild_payload(self, guild: FakeGuild) -> dict[str, Any]:
        """GUILD_CREATE as a bot without privileged intents receives it: only its own member."""
        me = guild.members[self.bot_user.id]
        plain = [c for c in guild.channels if not c.is_thread]
        threads = [c for c in guild.channels if c.is_thread and self.can_see_channel(self.bot_user, c)]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "features": [],
            "roles": [r.payload() for r in guild.roles],
            "emojis": [],
            "stickers": [],
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "application_id": None,
            "description": None,
            "banner": None,
            "vanity_url_code": None,
            "joined_at": me.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "voice_states": [],
            "members": [me.payload()],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "premium_progress_bar_enabled": False,
            "channels": [c.payload() for c in plain],
            "threads": [t.payload(self.bot_user) for t in threads],
        }

    def permissions_in(self, user: FakeUser, channel: FakeChannel) -> int:
        if channel.type == DM:
            return ALL_PERMISSIONS if user.id in (self.bot_user.id, channel.recipient and channel.recipient.id) else 0
        return self.guilds[channel.guild_id or 0].permissions_in(user, channel)

    def can_see_channel(self, user: FakeUser, channel: FakeChannel) -> bool:
        perms = self.permissions_in(user, channel)
        if not perms & VIEW_CHANNEL:
            return False
        if channel.type == PRIVATE_THREAD:
            return user.id in channel.members or bool(perms & MANAGE_THREADS)
        return True

    # -- messages ----------------------------------------------------------------------------------

    def create_message(
        self,
        channel: FakeChannel,
        body: dict[str, Any],
        uploads: list[Upload],
        *,
        interaction: FakeInteraction | None = None,
        flags: int = 0,
        visible_only_to: FakeUser | None = None,
    ) -> FakeMessage:
        message = FakeMessage(
            next(self.ids),
            channel.id,
            self.bot_user,
            content=body.get("content") or "",
            embeds=[],
            components=list(body.get("components") or []),
            flags=flags,
            guild_id=channel.guild_id,
            nonce=body.get("nonce"),
            visible_only_to=visible_only_to,
            pinged=pinged_users(body.get("content") or "", body.get("allowed_mentions")),
        )
        message.attachments = self._attachments(message, body.get("attachments"), uploads, [])
        message.embeds = self._embeds(body.get("embeds") or [], message.attachments)
        if interaction is not None:
            message.webhook_id = self.application_id
            message.interaction_id = interaction.id
            message.type = 20 if interaction.type == 2 else 0
            message.interaction_metadata = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": {"0": str(channel.guild_id)}
                if channel.guild_id
                else {"1": str(interaction.user.id)},
            }
        channel.message_count += 1
        self.messages[message.id] = message
        if not message.ephemeral:
            self.dispatch("MESSAGE_CREATE", self._message_event(message), self._message_intent(channel))
        self.notify(message)
        return message

    def edit_message(
        self, message: FakeMessage, body: dict[str, Any], uploads: list[Upload], *, clear_loading: bool = False
    ) -> FakeMessage:
        message.revisions.append(message.snapshot())
        if "content" in body:
            message.content = body["content"] or ""
        if "components" in body:
            message.components = list(body["components"] or [])
        if "attachments" in body or uploads:
            message.attachments = self._attachments(message, body.get("attachments"), uploads, message.attachments)
        if "embeds" in body:
            message.embeds = self._embeds(body["embeds"] or [], message.attachments)
        if clear_loading:
            message.flags &= ~(1 << 7)
        message.edited_timestamp = iso_now()
        if not message.ephemeral:
            channel = self.channels[message.channel_id]
            self.dispatch("MESSAGE_UPDATE", self._message_event(message), self._message_intent(channel))
        self.notify(message)
        return message

    def delete_message(self, message: FakeMessage) -> None:
        message.deleted = True
        if not message.ephemeral:
            channel = self.channels[message.channel_id]
            data = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id:
                data["guild_id"] = str(message.guild_id)
            self.dispatch("MESSAGE_DELETE", data, self._message_intent(channel))
        self.notify(message)

    def _message_event(self, message: FakeMessage) -> dict[str, Any]:
        data = message.payload()
        if message.guild_id is not None:
            guild = self.guilds[message.guild_id]
            member = guild.members.get(message.author.id)
            if member is not None:
                data["member"] = {k: v for k, v in member.payload().items() if k != "user"}
        return data

    @staticmethod
    def _message_intent(channel: FakeChannel) -> int:
        return DIRECT_MESSAGES_INTENT if channel.type == DM else GUILD_MESSAGES_INTENT

    def _attachments(
        self,
        message: FakeMessage,
        entries: list[dict[str, Any]] | None,
        uploads: list[Upload],
        existing: list[FakeAttachment],
    ) -> list[FakeAttachment]:
        """Discord's rules: listed ids keep old attachments or name new ``files[n]``; unlisted uploads are added."""
        by_index = {u.index: u for u in uploads}
        kept = {a.id: a for a in existing}
        result: list[FakeAttachment] = []
        used: set[int] = set()
        if entries is None:
            result = list(existing)
        else:
            for entry in entries:
                ident = int(entry.get("id", -1))
                if ident in kept:
                    result.append(kept[ident])
                elif ident in by_index:
                    upload = by_index[ident]
                    result.append(
                        self.store_attachment(
                            message.channel_id,
                            entry.get("filename") or upload.filename,
                            upload.data,
                            entry.get("description"),
                        )
                    )
                    used.add(ident)
                else:
                    raise AttachmentError(f"attachment id {entry.get('id')!r} is neither kept nor uploaded")
        for upload in uploads:
            if upload.index not in used:
                result.append(self.store_attachment(message.channel_id, upload.filename, upload.data))
        return result

    def store_attachment(
        self, channel_id: int, filename: str, data: bytes, description: str | None = None
    ) -> FakeAttachment:
        """Put a file on the fake CDN."""
        ident = next(self.ids)
        url = f"{self.base_url}/attachments/{channel_id}/{ident}/{filename}"
        attachment = FakeAttachment(ident, filename, data, url, description)
        self.attachments[ident] = attachment
        return attachment

    @staticmethod
    def _embeds(embeds: list[dict[str, Any]], attachments: list[FakeAttachment]) -> list[dict[str, Any]]:
        """Stored as Discord returns them: typed ``rich``, ``attachment://`` images resolved to the CDN."""
        by_name = {a.filename: a for a in attachments}
        result = []
        for embed in embeds:
            embed = {**embed, "type": embed.get("type") or "rich"}
            for key in ("image", "thumbnail"):
                url = (embed.get(key) or {}).get("url", "")
                if url.startswith("attachment://") and url[13:] in by_name:
                    found = by_name[url[13:]]
                    embed[key] = {"url": found.url, "proxy_url": found.url}
                    if found.png_size():
                        embed[key]["width"], embed[key]["height"] = found.png_size()
            result.append(embed)
        return result

    # -- observation -------------------------------------------------------------------------------

    def can_see(self, user: FakeUser, message: FakeMessage) -> bool:
        if message.visible_only_to is not None:
            return message.visible_only_to.id == user.id
        channel = self.channels[message.channel_id]
        return self.can_see_channel(user, channel)

    def notify(self, message: FakeMessage | None = None) -> None:
        """Wake whoever waits for a message or a condition that this change may satisfy."""
        if message is not None:
            for predicate, future in list(self._message_waiters):
                if not future.done() and predicate(message):
                    future.set_result(message)
        for condition, cond_future in list(self._condition_waiters):
            if not cond_future.done() and condition():
                cond_future.set_result(None)
        self._message_waiters = [w for w in self._message_waiters if not w[1].done()]
        self._condition_waiters = [w for w in self._condition_waiters if not w[1].done()]

    async def wait_for_message(self, predicate: Callable[[FakeMessage], bool], timeout: float) -> FakeMessage:
        for message in self.messages.values():
            if predicate(message):
                return message
        future: asyncio.Future[FakeMessage] = asyncio.get_running_loop().create_future()
        self._message_waiters.append((predicate, future))
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise AssertionError(f"no message matching {predicate!r} within {timeout} s") from None

    async def wait_until(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        if condition():
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._condition_waiters.append((condition, future))
        try:
            await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}") from None
