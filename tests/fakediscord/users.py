"""Simulated users: they type slash commands, pick autocomplete entries, press buttons, fill in modals.

Everything is built from what the bot actually synced and showed, and the Discord client's own
rules apply: an unknown command or option, a missing required option, a value outside the declared
range, a button that is not on the message, a command the member lacks permissions for -- each is a
:class:`SimulationError` raised in the test, because no real user could send that interaction.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from .callbacks import ACK_DEADLINE_SECONDS
from .gateway import Gateway
from .limits import FILE_SIZE_DEFAULT
from .models import (
    ALL_PERMISSIONS,
    EPHEMERAL,
    FakeAttachment,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    FakeRole,
    FakeUser,
    Violation,
    new_token,
)
from .world import World

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
SUBCOMMAND, GROUP = 1, 2
APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
MAX_SAFE_INTEGER = 2**53


class SimulationError(AssertionError):
    """The test asked a simulated user for something the Discord client would not let them do."""


class InteractionHandle:
    """A live view of one interaction: the response type, the messages it produced, modal, choices."""

    def __init__(self, world: World, interaction: FakeInteraction):
        self._world = world
        self.interaction = interaction

    def __repr__(self) -> str:
        return (
            f"<InteractionHandle type={self.interaction.type} response_type={self.response_type} "
            f"content={self.content!r} followups={len(self.followups)} rejected={self.rejected}>"
        )

    @property
    def response_type(self) -> int | None:
        return self.interaction.response_type

    @property
    def rejected(self) -> list[str]:
        return self.interaction.rejected

    @property
    def message(self) -> FakeMessage | None:
        """The message ``@original`` refers to: the reply, or for a component the message it was on."""
        return self._world.messages.get(self.interaction.original_id or 0)

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.message.components if self.message else []

    @property
    def attachments(self) -> list[FakeAttachment]:
        return self.message.attachments if self.message else []

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.flags & EPHEMERAL)

    @property
    def followups(self) -> list[FakeMessage]:
        return [self._world.messages[i] for i in self.interaction.followup_ids]

    @property
    def messages(self) -> list[FakeMessage]:
        """Every message this interaction created: its reply (not a component's message) and followups."""
        own = [self.message] if self.message is not None and self.message.interaction_id == self.interaction.id else []
        return own + self.followups

    @property
    def message_ids(self) -> list[int]:
        return [m.id for m in self.messages]

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.interaction.modal

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.interaction.choices or []

    async def wait_for(self, predicate: Callable[[InteractionHandle], bool], timeout: float = 5.0) -> InteractionHandle:
        await self._world.wait_until(lambda: predicate(self), timeout, f"{predicate!r} on {self!r}")
        return self

    async def settled(self, timeout: float = 5.0) -> InteractionHandle:
        """Wait until a deferred reply has been filled in (by an edit or the first followup)."""
        return await self.wait_for(lambda h: h.message is not None and not h.message.loading, timeout)

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[FakeMessage]:
        await self.wait_for(lambda h: len(h.followups) >= count, timeout)
        return self.followups


class Simulator:
    def __init__(self, world: World, gateway: Gateway):
        self.world, self.gateway = world, gateway
        self._timers: list[asyncio.TimerHandle] = []

    def close(self) -> None:
        for timer in self._timers:
            timer.cancel()

    # -- slash commands and autocomplete -----------------------------------------------------------

    async def slash(self, user: FakeUser, channel: FakeChannel, path: str, **options: Any) -> InteractionHandle:
        command, nesting, leaf = self._find_command(user, channel, path)
        resolved: dict[str, dict[str, Any]] = {}
        values = self._options(path, leaf, options, resolved, check_required=True)
        data = self._command_data(command, nesting, values)
        if resolved:
            data["resolved"] = resolved
        return await self._run(APPLICATION_COMMAND, user, channel, data)

    async def autocomplete(
        self, user: FakeUser, channel: FakeChannel, path: str, *, focused: str, value: Any, **options: Any
    ) -> list[dict[str, Any]]:
        command, nesting, leaf = self._find_command(user, channel, path)
        definition = self._option_definitions(path, leaf).get(focused)
        if definition is None or not definition.get("autocomplete"):
            raise SimulationError(f"/{path} option {focused!r} was not synced with autocomplete enabled")
        if focused in options:
            raise SimulationError(f"give the focused option {focused!r} as value=..., not as another option")
        values = self._options(path, leaf, options, {}, check_required=False)
        entry = {"type": definition["type"], "name": focused, "value": value, "focused": True}
        order = [o["name"] for o in leaf.get("options") or []]
        values = sorted([*values, entry], key=lambda o: order.index(o["name"]))
        handle = await self._run(AUTOCOMPLETE, user, channel, self._command_data(command, nesting, values))
        return handle.choices

    def _commands_for(self, channel: FakeChannel) -> list[dict[str, Any]]:
        guild_commands = self.world.guild_commands.get(channel.guild_id or 0, [])
        return [c for c in guild_commands + self.world.global_commands if c.get("type", 1) == 1]

    def _find_command(
        self, user: FakeUser, channel: FakeChannel, path: str
    ) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
        names = path.split()
        synced = self._commands_for(channel)
        command = next((c for c in synced if c["name"] == names[0]), None)
        if command is None:
            raise SimulationError(
                f"the bot never synced a slash command /{names[0]} usable in this channel; "
                f"synced: {sorted('/' + c['name'] for c in synced)}"
            )
        self._check_available(user, channel, command)
        node, nesting = command, []
        for name in names[1:]:
            subs = [o for o in node.get("options") or [] if o.get("type") in (SUBCOMMAND, GROUP)]
            found = next((o for o in subs if o["name"] == name), None)
            if found is None:
                raise SimulationError(f"/{path}: no subcommand {name!r}; available: {[o['name'] for o in subs]}")
            nesting.append(found)
            node = found
        if any(o.get("type") in (SUBCOMMAND, GROUP) for o in node.get("options") or []):
            subs = [o["name"] for o in node["options"]]
            raise SimulationError(f"/{path} cannot be run on its own; choose one of {subs}")
        return command, nesting, node

    def _check_available(self, user: FakeUser, channel: FakeChannel, command: dict[str, Any]) -> None:
        guild = self.world.guild_of(channel)
        contexts = command.get("contexts")
        context = 0 if guild else 1
        if (contexts is not None and context not in contexts) or (
            contexts is None and guild is None and command.get("dm_permission") is False
        ):
            raise SimulationError(f"/{command['name']} is not offered in this kind of channel")
        required = command.get("default_member_permissions")
        if guild is not None and required is not None:
            have, need = guild.permissions_of(user), int(required)
            if (need == 0 and have != ALL_PERMISSIONS) or have & need != need:
                raise SimulationError(f"{user.name} cannot see /{command['name']}: it needs permissions {need}")

    @staticmethod
    def _option_definitions(path: str, leaf: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {o["name"]: o for o in leaf.get("options") or []}

    def _options(
        self,
        path: str,
        leaf: dict[str, Any],
        given: dict[str, Any],
        resolved: dict[str, dict[str, Any]],
        *,
        check_required: bool,
    ) -> list[dict[str, Any]]:
        definitions = self._option_definitions(path, leaf)
        for name in given:
            if name not in definitions:
                raise SimulationError(f"/{path} has no option {name!r}; synced options: {list(definitions)}")
        if check_required:
            missing = [n for n, d in definitions.items() if d.get("required") and n not in given]
            if missing:
                raise SimulationError(f"/{path} requires {missing}")
        return [
            {"type": d["type"], "name": name, "value": self._value(path, d, given[name], resolved)}
            for name, d in definitions.items()
            if name in given
        ]

    def _value(self, path: str, definition: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]) -> Any:
        kind, name = definition["type"], definition["name"]
        where = f"/{path} {name}:"
        if kind == STRING:
            if not isinstance(value, str):
                raise SimulationError(f"{where} expects text, got {value!r}")
            low, high = definition.get("min_length") or 0, definition.get("max_length") or 6000
            if not low <= len(value) <= high:
                raise SimulationError(f"{where} length must be {low}..{high}")
        elif kind in (INTEGER, NUMBER):
            if isinstance(value, bool) or not isinstance(value, int if kind == INTEGER else (int, float)):
                raise SimulationError(f"{where} expects a {'whole ' if kind == INTEGER else ''}number, got {value!r}")
            low, high = definition.get("min_value"), definition.get("max_value")
            low = -MAX_SAFE_INTEGER if low is None else low
            high = MAX_SAFE_INTEGER if high is None else high
            if not low <= value <= high:
                raise SimulationError(f"{where} must be between {low} and {high}")
        elif kind == BOOLEAN:
            if not isinstance(value, bool):
                raise SimulationError(f"{where} expects True/False, got {value!r}")
        elif kind in (USER, ROLE, MENTIONABLE, CHANNEL, ATTACHMENT):
            return self._resolve(where, definition, value, resolved)
        choices = definition.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise SimulationError(f"{where} must be one of {[c['value'] for c in choices]}, got {value!r}")
        return value

    def _resolve(self, where: str, definition: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]) -> str:
        """Entity options travel as ids, with the objects in ``resolved`` (as Discord sends them)."""
        kind = definition["type"]
        if isinstance(value, FakeUser) and kind in (USER, MENTIONABLE):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            for guild in self.world.guilds.values():
                member = guild.members.get(value.id)
                if member is not None:
                    data = member.payload(guild.permissions_of(value))
                    data.pop("user")
                    resolved.setdefault("members", {})[str(value.id)] = data
                    break
            return str(value.id)
        if isinstance(value, FakeRole) and kind in (ROLE, MENTIONABLE):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if isinstance(value, FakeChannel) and kind == CHANNEL:
            types = definition.get("channel_types")
            if types and value.type not in types:
                raise SimulationError(f"{where} accepts channel types {types}, not {value.type}")
            data = value.payload() | {"permissions": str(ALL_PERMISSIONS)}
            resolved.setdefault("channels", {})[str(value.id)] = data
            return str(value.id)
        if isinstance(value, tuple) and kind == ATTACHMENT and len(value) == 2:
            filename, blob = value
            if len(blob) > FILE_SIZE_DEFAULT:
                raise SimulationError(f"{where} file is larger than the upload limit")
            stored = self.world.store_attachment(0, filename, bytes(blob))
            resolved.setdefault("attachments", {})[str(stored.id)] = stored.payload()
            return str(stored.id)
        raise SimulationError(f"{where} cannot take {value!r} (option type {kind})")

    @staticmethod
    def _command_data(
        command: dict[str, Any], nesting: list[dict[str, Any]], values: list[dict[str, Any]]
    ) -> dict[str, Any]:
        options = values
        for node in reversed(nesting):
            options = [{"type": node["type"], "name": node["name"], "options": options}]
        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1, "options": options}
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        return data

    # -- components and modals --------------------------------------------------------------------

    async def click(self, user: FakeUser, message: FakeMessage | int, custom_id: str) -> InteractionHandle:
        current = self._visible_message(user, message)
        component = current.component(custom_id)
        if component is None or component.get("type") != 2:
            raise SimulationError(
                f"message {current.id} has no button {custom_id!r}; "
                f"it has {[c.get('custom_id') for c in current.iter_components() if 'custom_id' in c]}"
            )
        if component.get("disabled"):
            raise SimulationError(f"button {custom_id!r} is disabled")
        channel = self.world.channels[current.channel_id]
        return await self._run(COMPONENT, user, channel, {"custom_id": custom_id, "component_type": 2}, message=current)

    async def select(
        self, user: FakeUser, message: FakeMessage | int, custom_id: str, values: list[Any]
    ) -> InteractionHandle:
        current = self._visible_message(user, message)
        component = current.component(custom_id)
        if component is None or component.get("type") not in (3, 5, 6, 7, 8):
            raise SimulationError(f"message {current.id} has no select menu {custom_id!r}")
        if component.get("disabled"):
            raise SimulationError(f"select menu {custom_id!r} is disabled")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise SimulationError(f"select menu {custom_id!r} takes {low}..{high} values, not {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] == 3:
            allowed = [o["value"] for o in component.get("options") or []]
            unknown = [v for v in values if v not in allowed]
            if unknown:
                raise SimulationError(f"select menu {custom_id!r} offers {allowed}, not {unknown}")
            data["values"] = list(values)
        else:
            resolved: dict[str, dict[str, Any]] = {}
            pseudo = {
                "type": {5: USER, 6: ROLE, 7: MENTIONABLE, 8: CHANNEL}[component["type"]],
                "name": custom_id,
                "channel_types": component.get("channel_types"),
            }
            data["values"] = [self._resolve(f"select {custom_id}:", pseudo, v, resolved) for v in values]
            data["resolved"] = resolved
        channel = self.world.channels[current.channel_id]
        return await self._run(COMPONENT, user, channel, data, message=current)

    async def submit_modal(
        self, user: FakeUser, source: InteractionHandle, custom_id: str, values: dict[str, Any]
    ) -> InteractionHandle:
        opened = source.interaction
        modal = opened.modal
        if modal is None:
            raise SimulationError(f"{source!r} did not open a modal")
        if opened.user.id != user.id:
            raise SimulationError(f"the modal was shown to {opened.user.name}, not {user.name}")
        if modal["custom_id"] != custom_id:
            raise SimulationError(f"the open modal is {modal['custom_id']!r}, not {custom_id!r}")
        components, seen = [], set()
        for item in modal["components"]:
            inner = item.get("components") or ([item["component"]] if "component" in item else [])
            answers = [self._modal_answer(custom_id, c, values) for c in inner if "custom_id" in c]
            seen.update(c["custom_id"] for c in inner if "custom_id" in c)
            if item.get("type") == 1 and answers:
                components.append({"type": 1, "components": answers})
            elif answers:
                components.append({"type": item["type"], "id": item.get("id", 0), "component": answers[0]})
        unknown = set(values) - seen
        if unknown:
            raise SimulationError(f"modal {custom_id!r} has no fields {sorted(unknown)}; it has {sorted(seen)}")
        data = {"custom_id": custom_id, "components": components}
        return await self._run(MODAL_SUBMIT, user, opened.channel, data, message=opened.message)

    @staticmethod
    def _modal_answer(modal_id: str, component: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
        cid = component["custom_id"]
        if component.get("type") == 4:
            text = values.get(cid, "")
            if not isinstance(text, str):
                raise SimulationError(f"modal {modal_id!r} field {cid!r} takes text, not {text!r}")
            if component.get("required", True) and not text:
                raise SimulationError(f"modal {modal_id!r} field {cid!r} is required")
            low, high = component.get("min_length") or 0, component.get("max_length") or 4000
            if text and not low <= len(text) <= high:
                raise SimulationError(f"modal {modal_id!r} field {cid!r} takes {low}..{high} characters")
            return {"type": 4, "custom_id": cid, "value": text}
        chosen = values.get(cid, [])
        return {"type": component["type"], "custom_id": cid, "values": list(chosen)}

    def _visible_message(self, user: FakeUser, message: FakeMessage | int) -> FakeMessage:
        current = self.world.messages.get(message if isinstance(message, int) else message.id)
        if current is None or current.deleted:
            raise SimulationError(f"message {message!r} does not exist (or was deleted)")
        if not self.world.can_see(user, current):
            raise SimulationError(f"{user.name} cannot see message {current.id}")
        return current

    # -- sending -----------------------------------------------------------------------------------

    async def _run(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        message: FakeMessage | None = None,
    ) -> InteractionHandle:
        if not self.gateway.sessions_for(channel.guild_id):
            raise SimulationError(
                "no bot session receives this channel's events (call start_bot first, or start the bot "
                "that holds this guild's shard)"
            )
        interaction = self._start(kind, user, channel, data, message)
        await self.world.wait_until(
            lambda: interaction.acknowledged or interaction.expired or bool(interaction.rejected),
            ACK_DEADLINE_SECONDS + 1.0,
            f"a response to interaction {interaction.id}",
        )
        return InteractionHandle(self.world, interaction)

    def _start(
        self, kind: int, user: FakeUser, channel: FakeChannel, data: dict[str, Any], message: FakeMessage | None
    ) -> FakeInteraction:
        world = self.world
        guild = world.guild_of(channel)
        if guild is not None and user.id not in guild.members:
            raise SimulationError(f"{user.name} is not a member of {guild.name}")
        if not world.can_see_channel(user, channel):
            raise SimulationError(f"{user.name} cannot see channel {channel.name or channel.id}")
        ident = next(world.ids)
        token = new_token(ident)
        payload: dict[str, Any] = {
            "id": str(ident),
            "application_id": str(world.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload() | {"permissions": str(world.permissions_in(user, channel))},
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": FILE_SIZE_DEFAULT,
            "app_permissions": str(world.permissions_in(world.bot_user, channel)),
            "authorizing_integration_owners": {"0": str(guild.id)} if guild else {"1": str(user.id)},
            "context": 0 if guild else 1,
        }
        if guild is not None:
            payload.update(
                guild_id=str(guild.id),
                guild_locale="en-US",
                guild={"id": str(guild.id), "locale": "en-US", "features": []},
                member=guild.members[user.id].payload(guild.permissions_of(user)),
            )
        else:
            payload["user"] = user.payload()
        if message is not None:
            payload["message"] = message.payload()
        loop = asyncio.get_running_loop()
        interaction = FakeInteraction(ident, token, kind, user, channel, guild, payload, loop.time(), message=message)
        world.interactions[ident] = interaction
        self._timers.append(loop.call_later(ACK_DEADLINE_SECONDS, self._expire, interaction))
        self.gateway.dispatch("INTERACTION_CREATE", payload)
        return interaction

    def _expire(self, interaction: FakeInteraction) -> None:
        if interaction.acknowledged:
            return
        interaction.expired = True
        what = {
            APPLICATION_COMMAND: "slash command",
            COMPONENT: "component",
            AUTOCOMPLETE: "autocomplete",
            MODAL_SUBMIT: "modal submit",
        }[interaction.type]
        self.world.violations.append(
            Violation(
                "no_response",
                f"{what} interaction {interaction.id} by {interaction.user.name} was not answered "
                f"within 3 s (the user sees 'The application did not respond')",
            )
        )
        self.world.notify()
