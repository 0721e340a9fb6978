"""What the fake Discord stores: users, guilds, channels, messages, and the records tests assert on.

Each object can render itself as the JSON Discord would send, so REST responses and gateway
dispatches share one source of truth.
"""

from __future__ import annotations

import datetime
import functools
import io
import itertools
import operator
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# Permission bits the fake reasons about (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS_MESSAGES = 1 << 12
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1
EVERYONE_DEFAULT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | EMBED_LINKS
    | ATTACH_FILES
    | SEND_MESSAGES_IN_THREADS
    | CREATE_PUBLIC_THREADS
)
BOT_DEFAULT = EVERYONE_DEFAULT | CREATE_PRIVATE_THREADS | MANAGE_THREADS
# What a member who may not send messages (in threads: SEND_MESSAGES_IN_THREADS) implicitly loses too.
NEEDS_SENDING = SEND_TTS_MESSAGES | MENTION_EVERYONE | EMBED_LINKS | ATTACH_FILES

# Permission overwrite targets.
ROLE_OVERWRITE, MEMBER_OVERWRITE = 0, 1

# Channel types.
GUILD_TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def permission_value(permissions: Any) -> int:
    """Accept a plain int or anything with ``.value`` (such as ``discord.Permissions``)."""
    return int(getattr(permissions, "value", permissions))


def iso_now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


class Snowflakes:
    """Increasing, time-based ids, so discord.py's ``created_at`` on them is plausible."""

    def __init__(self) -> None:
        self._last = 0

    def __next__(self) -> int:
        now = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(self._last + 1, now)
        return self._last

    def on_shard(self, shard_id: int, count: int) -> int:
        """The next id whose guild would belong to shard ``shard_id`` of ``count`` (``(id >> 22) % count``):
        its millisecond part is moved forward by less than ``count``."""
        millis = next(self) >> 22
        millis += (shard_id - millis) % count
        self._last = max(self._last, millis << 22)
        return millis << 22


@dataclass(frozen=True)
class FieldError:
    """One reason a request body is invalid: where (keys and indexes) and why."""

    path: tuple[str | int, ...]
    message: str

    def __str__(self) -> str:
        where = ".".join(str(p) for p in self.path) or "<body>"
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class Violation:
    """Something the bot did that real Discord would refuse or punish; tests assert there are none."""

    kind: str
    detail: str
    method: str = ""
    path: str = ""
    status: int = 0
    code: int = 0

    def __str__(self) -> str:
        where = f" {self.method} {self.path}" if self.method else ""
        return f"[{self.kind}]{where} -> {self.status or '-'}/{self.code or '-'}: {self.detail}"


@dataclass(frozen=True)
class RequestRecord:
    """One REST request as the fake saw it, for assertions such as "posted exactly once"."""

    method: str
    path: str
    status: int
    body: Any


@dataclass(frozen=True)
class Upload:
    """One ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False
    accepts_dms: bool = True
    locale: str = "en-US"  # the language of his Discord client, sent with each of his interactions

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }


@dataclass
class FakeMember:
    user: FakeUser
    roles: list[FakeRole] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)

    def payload(self, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": self.user.payload(),
            "roles": [str(r.id) for r in self.roles],
            "joined_at": self.joined_at,
            "nick": None,
            "avatar": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class Overwrite:
    """A channel's permission overwrite for one role (``ROLE_OVERWRITE``) or one member (``MEMBER_OVERWRITE``)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}

    def apply(self, value: int) -> int:
        return (value & ~self.deny) | self.allow


@dataclass
class FakeChannel:
    """A guild text channel, a thread, or a DM channel (``recipient`` set)."""

    id: int
    type: int
    name: str = ""
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: FakeUser | None = None
    position: int = 0
    members: set[int] = field(default_factory=set)  # who belongs to a private thread
    message_count: int = 0
    overwrites: dict[int, Overwrite] = field(default_factory=dict)  # by role or user id; threads have none

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def payload(self, bot_user: FakeUser | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {"id": str(self.id), "type": self.type, "flags": 0, "last_message_id": None}
        if self.type == DM:
            data["recipients"] = [self.recipient.payload()] if self.recipient else []
            return data
        data.update(
            name=self.name,
            guild_id=str(self.guild_id),
            position=self.position,
            nsfw=False,
            permission_overwrites=[o.payload() for o in self.overwrites.values()],
            rate_limit_per_user=0,
            topic=None,
            parent_id=str(self.parent_id) if self.parent_id else None,
        )
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                message_count=self.message_count,
                total_message_sent=self.message_count,
                member_count=max(len(self.members), 1),
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "locked": False,
                    "archive_timestamp": iso_now(),
                    "invitable": self.type == PRIVATE_THREAD,
                },
            )
            if bot_user is not None and bot_user.id in self.members:
                data["member"] = {
                    "id": str(self.id),
                    "user_id": str(bot_user.id),
                    "join_timestamp": iso_now(),
                    "flags": 0,
                }
        return data


@dataclass
class FakeGuild:
    id: int
    name: str
    owner: FakeUser
    roles: list[FakeRole] = field(default_factory=list)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channels: list[FakeChannel] = field(default_factory=list)

    @property
    def everyone(self) -> FakeRole:
        return self.roles[0]

    def permissions_of(self, user: FakeUser) -> int:
        """Guild-level permissions: those of @everyone and the member's roles (all for the owner and
        administrators); :meth:`permissions_in` adds a channel's overwrites."""
        if user.id == self.owner.id:
            return ALL_PERMISSIONS
        member = self.members.get(user.id)
        if member is None:
            return 0
        value = self.everyone.permissions
        for role in member.roles:
            value |= role.permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def overwrite_holder(self, channel: FakeChannel) -> FakeChannel:
        """The channel whose overwrites govern ``channel``: a thread has none of its own, it uses its parent's."""
        if not channel.is_thread:
            return channel
        return next(c for c in self.channels if c.id == channel.parent_id)

    def permissions_in(self, user: FakeUser, channel: FakeChannel) -> int:
        """Discord's "Permission Overwrites" order on top of the guild permissions: the channel's @everyone
        overwrite, then its overwrites of the member's roles together, then the member's own. A thread has
        its parent's overwrites; without VIEW_CHANNEL nothing else applies."""
        base = self.permissions_of(user)
        member = self.members.get(user.id)
        if base & ADMINISTRATOR or member is None:
            return base
        overwrites = self.overwrite_holder(channel).overwrites
        value = overwrites[self.id].apply(base) if self.id in overwrites else base
        role_ids = {role.id for role in member.roles}
        roles = [o for o in overwrites.values() if o.type == ROLE_OVERWRITE and o.id in role_ids]
        value = (value & ~combined(o.deny for o in roles)) | combined(o.allow for o in roles)
        mine = overwrites.get(user.id)
        if mine is not None and mine.type == MEMBER_OVERWRITE:
            value = mine.apply(value)
        return implicit_permissions(value, channel)


def combined(bits: Iterable[int]) -> int:
    return functools.reduce(operator.or_, bits, 0)


def implicit_permissions(value: int, channel: FakeChannel) -> int:
    """What Discord denies implicitly: everything without VIEW_CHANNEL; files, embeds, TTS and @everyone
    mentions without the right to send (SEND_MESSAGES_IN_THREADS in a thread)."""
    if not value & VIEW_CHANNEL:
        return 0
    send = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
    return value if value & send else value & ~NEEDS_SENDING


@dataclass
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    url: str
    description: str | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def is_png(self) -> bool:
        return self.data.startswith(PNG_MAGIC)

    @property
    def content_type(self) -> str:
        if self.is_png:
            return "image/png"
        return "text/plain; charset=utf-8" if self.filename.endswith(".txt") else "application/octet-stream"

    def png_size(self) -> tuple[int, int] | None:
        if not self.is_png or len(self.data) < 24:
            return None
        return int.from_bytes(self.data[16:20], "big"), int.from_bytes(self.data[20:24], "big")

    def image(self) -> Any:
        """The decoded image (a ``PIL.Image``); fails loudly if the bytes are not a valid picture."""
        from PIL import Image

        image = Image.open(io.BytesIO(self.data))
        image.load()
        return image

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description:
            data["description"] = self.description
        dims = self.png_size()
        if dims:
            data["width"], data["height"] = dims
        return data


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Depth-first over action rows, sections, labels and the components inside them."""
    for comp in components:
        yield comp
        yield from walk_components(comp.get("components") or [])
        if "component" in comp:
            yield from walk_components([comp["component"]])


@dataclass
class Revision:
    """What a message showed before an edit: kept so visibility checks cover everything ever shown."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[FakeAttachment]


@dataclass
class FakeMessage:
    id: int
    channel_id: int
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    guild_id: int | None = None
    type: int = 0
    nonce: str | int | None = None
    webhook_id: int | None = None
    interaction_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    visible_only_to: FakeUser | None = None  # the one user who sees an ephemeral message
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    deleted: bool = False
    revisions: list[Revision] = field(default_factory=list)
    pinged: frozenset[int] = frozenset()  # the users this post notified (when it was created)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def iter_components(self) -> Iterator[dict[str, Any]]:
        """Every component at any depth (rows, buttons, selects...)."""
        return walk_components(self.components)

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.iter_components() if c.get("custom_id") == custom_id), None)

    def text(self, *, with_revisions: bool = True) -> str:
        """Everything a person could read in the message (and, by default, in its earlier versions)."""
        versions = [Revision(self.content, self.embeds, self.components, self.attachments)]
        if with_revisions:
            versions += self.revisions
        parts: list[str] = []
        for version in versions:
            parts.append(version.content)
            for embed in version.embeds:
                parts += [
                    embed.get("title") or "",
                    embed.get("description") or "",
                    (embed.get("footer") or {}).get("text") or "",
                    (embed.get("author") or {}).get("name") or "",
                ]
                for fld in embed.get("fields") or []:
                    parts += [fld.get("name") or "", fld.get("value") or ""]
            for comp in walk_components(version.components):
                parts += [str(comp.get(k) or "") for k in ("label", "placeholder", "content")]
                parts += [o.get("label", "") for o in comp.get("options", [])]
            parts += [a.filename for a in version.attachments]
        return "\n".join(p for p in parts if p)

    def snapshot(self) -> Revision:
        return Revision(self.content, list(self.embeds), list(self.components), list(self.attachments))

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        return data


USER_MENTION = re.compile(r"<@!?(\d+)>")


def pinged_users(content: str, allowed: dict[str, Any] | None) -> frozenset[int]:
    """The users a new message notifies: those its content mentions that ``allowed_mentions`` lets
    through (every one when the body has none, as Discord does)."""
    named = {int(found) for found in USER_MENTION.findall(content)}
    if allowed is None or "users" in (allowed.get("parse") or []):
        return frozenset(named)
    return frozenset(named & {int(user) for user in allowed.get("users") or []})


@dataclass
class FakeInteraction:
    """An interaction a simulated user started, and everything the bot did in reply."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    guild: FakeGuild | None
    payload: dict[str, Any]
    created: float  # loop time
    message: FakeMessage | None = None  # the message whose component was used
    response_type: int | None = None
    original_id: int | None = None  # the message "@original" refers to
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None
    rejected: list[str] = field(default_factory=list)  # why callbacks the bot tried were refused
    expired: bool = False  # 3 s passed without a response

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None


_tokens = itertools.count(1)


def new_token(interaction_id: int) -> str:
    """An opaque token, unique per interaction, like Discord's."""
    return f"aW50ZXJhY3Rpb246{interaction_id}:{next(_tokens)}"
