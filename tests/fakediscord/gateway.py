"""The Gateway: the websocket over which discord.py learns of guilds and receives interactions.

It follows Discord's session rules closely enough that discord.py's own recovery code runs for real:
every dispatch carries a sequence number and is kept, so a client that RESUMEs after a dropped
connection receives exactly the events it missed, then ``RESUMED``.
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


@dataclass
class Session:
    id: str
    intents: int
    seq: int = 0
    events: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    connection: Connection | None = None
    resumable: bool = True


class Gateway:
    """Serves ``GET /`` as the gateway; ``log`` records the protocol steps tests assert on."""

    def __init__(self, world: World, *, heartbeat_interval_ms: int = 41250):
        self.world = world
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.url = ""
        self.session: Session | None = None
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
            if self.session is not None and self.session.connection is conn:
                self.session.connection = None
            await conn.stop()
        return ws

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
        self._note("IDENTIFY")
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
        self.session = Session(uuid.uuid4().hex, intents, connection=conn)
        world = self.world
        ready = {
            "v": 10,
            "user": world.bot_user.payload() | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g), "unavailable": True} for g in world.guilds],
            "session_id": self.session.id,
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
        if "shard" in data:
            ready["shard"] = data["shard"]
        self.dispatch("READY", ready)
        self._note("READY")
        for guild in world.guilds.values():
            self.dispatch("GUILD_CREATE", world.guild_payload(guild))

    def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        self._note("RESUME")
        session = self.session
        if (
            session is None
            or not session.resumable
            or data.get("session_id") != session.id
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
        session.connection = conn
        self.dispatch("RESUMED", {"_trace": ["fakediscord"]})
        self._note(f"RESUMED replayed={len(missed)}")

    def dispatch(self, event: str, data: dict[str, Any], intent: int = 0) -> None:
        """Send (or keep for a later RESUME) one event, if the session asked for its intent."""
        session = self.session
        if session is None or (intent and not session.intents & intent):
            return
        session.seq += 1
        session.events.append((session.seq, event, data))
        if session.connection is not None:
            session.connection.send({"op": DISPATCH, "s": session.seq, "t": event, "d": data})

    def disconnect(self, *, resume: bool, via: str, downtime: float) -> None:
        """Drop the bot's connection the way Discord does; see ``FakeDiscord.disconnect_gateway``."""
        session = self.session
        if session is None or session.connection is None:
            raise RuntimeError("no bot is connected to the fake gateway")
        conn, session.connection = session.connection, None
        self.hello_delay = downtime
        if via == "close":
            session.resumable = resume
            self._note("CLOSE 4000" if resume else "CLOSE 4009")
            conn.close(4000 if resume else 4009)  # 4009: session timed out, a new IDENTIFY is required
        elif via == "reconnect":
            if not resume:
                raise ValueError("op 7 RECONNECT always asks the client to resume")
            self._note("RECONNECT")
            conn.send({"op": RECONNECT, "d": None, "s": None, "t": None})
        elif via == "invalidate":
            session.resumable = resume
            self._note("INVALID_SESSION")
            conn.send({"op": INVALID_SESSION, "d": resume, "s": None, "t": None})
        else:
            raise ValueError(f"via must be 'close', 'reconnect' or 'invalidate', not {via!r}")

    async def close_all(self) -> None:
        for conn in list(self.connections):
            conn.close(1001)
        for conn in list(self.connections):
            await conn.stop()
