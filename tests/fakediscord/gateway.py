"""The Gateway: the websocket over which discord.py learns of guilds and receives interactions.

It follows Discord's session rules closely enough that discord.py's own recovery code runs for real:
every dispatch carries a sequence number and is kept, so a client that RESUMEs after a dropped
connection receives exactly the events it missed, then ``RESUMED``.

Sharding follows Discord too: an IDENTIFY may carry ``shard: [id, count]``; each IDENTIFY starts its
own session (own sequence, own RESUME); a guild's events go only to the sessions of shard
``(guild_id >> 22) % count`` and events outside any guild (DMs) to shard 0. A session without
``shard`` receives everything. Identifying a shard that already has a live session starts a second
session beside it, as Discord does: both receive the shard's events (a bot run twice answers twice,
and its second acknowledgement of an interaction is refused). A session ends when its client closes
the socket with 1000 or 1001, or when the fake invalidates it; a dropped one stays resumable.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .world import World

HELLO, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION, HEARTBEAT_ACK, DISPATCH = 10, 1, 2, 6, 7, 9, 11, 0
PRESENCE_UPDATE, VOICE_STATE_UPDATE, REQUEST_GUILD_MEMBERS = 3, 4, 8
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content


class Connection:
    """One websocket; frames go out through a queue so they leave in exactly the order they were made."""

    def __init__(self, ws: web.WebSocketResponse):
        self.ws = ws
        self._queue: asyncio.Queue[str | int] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())

    def send(self, payload: dict[str, Any]) -> None:
        self._queue.put_nowait(json.dumps(payload))

    def close(self, code: int) -> None:
        """Close after the frames already queued have been sent."""
        self._queue.put_nowait(code)

    async def _write(self) -> None:
        while True:
            item = await self._queue.get()
            if isinstance(item, int):
                await self.ws.close(code=item)
                return
            if self.ws.closed:
                return
            try:
                await self.ws.send_str(item)
            except ConnectionError:
                return

    async def stop(self) -> None:
        self._writer.cancel()
        await asyncio.gather(self._writer, return_exceptions=True)


INVALID_SHARD, SHARDING_REQUIRED = 4010, 4011
GUILDS_PER_SESSION = 2500  # Discord refuses a session that would hold more: the bot must shard
CLIENT_CLOSES = (1000, 1001)  # a client closing with these ends its session: it cannot be resumed


def shard_of(guild_id: int, count: int) -> int:
    """Discord's rule for which shard receives a guild's events."""
    return (guild_id >> 22) % count


def event_guild(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to, or None for events outside guilds (DMs)."""
    guild = data.get("id") if event == "GUILD_CREATE" else data.get("guild_id")
    return int(guild) if guild is not None else None


@dataclass
class Session:
    id: str
    intents: int
    shard: tuple[int, int] | None = None
    seq: int = 0
    events: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    connection: Connection | None = None
    resumable: bool = True

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session gets the events of ``guild_id`` (None: a DM, which goes to shard 0)."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else shard_of(guild_id, count))

    @property
    def label(self) -> str:
        """How the log names the session's shard: ``" 1/2"``, or nothing for an unsharded session."""
        return "" if self.shard is None else f" {self.shard[0]}/{self.shard[1]}"


def parse_shard(value: Any) -> tuple[int, int] | None:
    """``[id, count]`` with ``0 <= id < count``, or None when it is not a valid shard."""
    if not isinstance(value, list) or len(value) != 2 or not all(type(v) is int for v in value):
        return None
    shard_id, count = value
    return (shard_id, count) if 0 <= shard_id < count else None


class Gateway:
    """Serves ``GET /`` as the gateway; ``log`` records the protocol steps tests assert on."""

    def __init__(
        self, world: World, *, heartbeat_interval_ms: int = 41250, guilds_per_session: int = GUILDS_PER_SESSION
    ):
        self.world = world
        self.guilds_per_session = guilds_per_session
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.url = ""
        self.sessions: dict[str, Session] = {}
        self.identifies = 0
        self.connections: set[Connection] = set()
        self.log: list[str] = []
        self.heartbeats = 0
        self.allowed_privileged_intents = 0
        self.hello_delay = 0.0

    def _note(self, entry: str) -> None:
        self.log.append(entry)
        self.world.notify()

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        conn = Connection(ws)
        self.connections.add(conn)
        try:
            await self._serve(request, conn)
        finally:
            self.connections.discard(conn)
            for session in list(self.sessions.values()):
                if session.connection is conn:
                    session.connection = None
                    if ws.close_code in CLIENT_CLOSES:
                        del self.sessions[session.id]
            self.world.notify()  # whoever waits for a session to end or a socket to close
            await conn.stop()
        return ws

    def sessions_for(self, guild_id: int | None) -> list[Session]:
        """The sessions that receive the events of ``guild_id`` (None: a DM)."""
        return [s for s in self.sessions.values() if s.receives(guild_id)]

    async def _serve(self, request: web.Request, conn: Connection) -> None:
        if request.query.get("v") != "10":
            self._note("CLOSE 4012")
            conn.close(4012)  # Invalid API version
        elif request.query.get("encoding", "json") != "json":
            self._note("CLOSE 4002")
            conn.close(4002)  # the fake speaks JSON only
        else:
            delay, self.hello_delay = self.hello_delay, 0.0
            if delay:
                await asyncio.sleep(delay)
            conn.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None})
        async for msg in conn.ws:
            if msg.type is not WSMsgType.TEXT:
                self._note("CLOSE 4002")
                conn.close(4002)  # Decode error: discord.py never sends binary frames
                continue
            payload = json.loads(msg.data)
            op, data = payload.get("op"), payload.get("d")
            if op == HEARTBEAT:
                self.heartbeats += 1
                conn.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
            elif op == IDENTIFY:
                self._identify(conn, data)
            elif op == RESUME:
                self._resume(conn, data)
            elif op in (PRESENCE_UPDATE, VOICE_STATE_UPDATE, REQUEST_GUILD_MEMBERS):
                self._note(f"OP {op}")
            else:
                self._note("CLOSE 4001")
                conn.close(4001)  # Unknown opcode

    def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        shard = parse_shard(data["shard"]) if "shard" in data else None
        self._note("IDENTIFY" + ("" if shard is None else f" {shard[0]}/{shard[1]}"))
        self.identifies += 1
        if "shard" in data and shard is None:
            self._note(f"CLOSE {INVALID_SHARD}")
            conn.close(INVALID_SHARD)  # Invalid shard
            return
        if data.get("token") != self.world.token:
            self._note("CLOSE 4004")
            conn.close(4004)  # Authentication failed
            return
        intents = data.get("intents")
        if not isinstance(intents, int):
            self._note("CLOSE 4013")
            conn.close(4013)  # Invalid intents
            return
        if intents & PRIVILEGED_INTENTS & ~self.allowed_privileged_intents:
            self._note("CLOSE 4014")
            conn.close(4014)  # Disallowed intents: not enabled for this application
            return
        session = Session(uuid.uuid4().hex, intents, shard, connection=conn)
        world = self.world
        guilds = [g for g in world.guilds.values() if session.receives(g.id)]
        if len(guilds) > self.guilds_per_session:
            self._note(f"CLOSE {SHARDING_REQUIRED}")
            conn.close(SHARDING_REQUIRED)  # Sharding required: too many guilds for one session
            return
        self.sessions[session.id] = session
        ready = {
            "v": 10,
            "user": world.bot_user.payload() | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "resume_gateway_url": self.url,
            "session_type": "normal",
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fakediscord"],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        self._send(session, "READY", ready)
        self._note("READY" + session.label)
        for guild in guilds:
            self._send(session, "GUILD_CREATE", world.guild_payload(guild))

    def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(data.get("session_id"))
        self._note("RESUME" + (session.label if session else ""))
        if (
            session is None
            or not session.resumable
            or data.get("token") != self.world.token
            or not isinstance(data.get("seq"), int)
            or data["seq"] > session.seq
        ):
            self._note("INVALID_SESSION")
            conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        missed = [(s, t, d) for s, t, d in session.events if s > data["seq"]]
        for seq, event, payload in missed:
            conn.send({"op": DISPATCH, "s": seq, "t": event, "d": payload})
        if session.connection is not None and session.connection is not conn:
            session.connection.close(4000)  # the session moves to the new socket; the old one is done
        session.connection = conn
        self._send(session, "RESUMED", {"_trace": ["fakediscord"]})
        self._note(f"RESUMED{session.label} replayed={len(missed)}")

    def dispatch(self, event: str, data: dict[str, Any], intent: int = 0) -> None:
        """Send (or keep for a later RESUME) one event to every session of its guild's shard that asked
        for its intent."""
        guild_id = event_guild(event, data)
        for session in self.sessions_for(guild_id):
            if not intent or session.intents & intent:
                self._send(session, event, data)

    @staticmethod
    def _send(session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        session.events.append((session.seq, event, data))
        if session.connection is not None:
            session.connection.send({"op": DISPATCH, "s": session.seq, "t": event, "d": data})

    def connected(self, shard_id: int | None = None) -> Session:
        """The one connected session (of shard ``shard_id``, when several are connected)."""
        found = [
            s
            for s in self.sessions.values()
            if s.connection is not None and (shard_id is None or (s.shard or (0, 1))[0] == shard_id)
        ]
        if not found:
            raise RuntimeError(
                f"no bot is connected to the fake gateway{'' if shard_id is None else f' on shard {shard_id}'}"
            )
        if len(found) > 1:
            raise RuntimeError(f"{len(found)} sessions are connected: say which shard")
        return found[0]

    def disconnect(
        self, *, resume: bool, via: str, downtime: float, shard_id: int | None = None, code: int | None = None
    ) -> None:
        """Drop a bot's connection the way Discord does; see ``FakeDiscord.disconnect_gateway``."""
        if via not in ("close", "reconnect", "invalidate"):
            raise ValueError(f"via must be 'close', 'reconnect' or 'invalidate', not {via!r}")
        if via == "reconnect" and not resume:
            raise ValueError("op 7 RECONNECT always asks the client to resume")
        session = self.connected(shard_id)
        conn, session.connection = session.connection, None
        assert conn is not None
        self.hello_delay = downtime
        session.resumable = resume
        if not resume:
            del self.sessions[session.id]
        if via == "close":  # 4000 resumable; 4009 session timed out, 4007 invalid seq: a new IDENTIFY
            code = code or (4000 if resume else 4009)
            self._note(f"CLOSE {code}")
            conn.close(code)
        elif via == "reconnect":
            self._note("RECONNECT")
            conn.send({"op": RECONNECT, "d": None, "s": None, "t": None})
        else:
            self._note("INVALID_SESSION")
            conn.send({"op": INVALID_SESSION, "d": resume, "s": None, "t": None})

    async def close_all(self) -> None:
        for conn in list(self.connections):
            conn.close(1001)
        for conn in list(self.connections):
            await conn.stop()
