"""Answering interactions: the callback endpoint and the interaction webhook (followups, @original).

These carry Discord's timing rules: a callback later than 3 s finds the interaction gone (10062), a
second callback is refused (40060), and the token behind followups lives 15 minutes.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from . import limits
from .models import EPHEMERAL, LOADING, FakeInteraction, FakeMessage, FieldError
from .rest import KEPT_MESSAGE_FLAGS, attachment_error, check_message_body, unknown_message
from .server import ApiError, FakeServer, invalid_form, json_response, loop_time
from .world import AttachmentError, World

ACK_DEADLINE_SECONDS = 3.0
TOKEN_LIFETIME_SECONDS = 15 * 60.0

# Which callback types Discord accepts for each interaction type.
ALLOWED_CALLBACKS = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
MESSAGE_CREATING, DEFERRED, DEFERRED_UPDATE, UPDATE, AUTOCOMPLETE, MODAL = 4, 5, 6, 7, 8, 9


class InteractionApi:
    def __init__(self, server: FakeServer, world: World):
        self.server, self.world = server, world
        server.route("POST", "/interactions/{interaction_id}/{token}/callback", self.callback)
        server.route("POST", "/webhooks/{app_id}/{token}", self.followup)
        for method in ("GET", "PATCH", "DELETE"):
            server.route(method, "/webhooks/{app_id}/{token}/messages/{message_id}", self.webhook_message)

    # -- the initial response ----------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        raw_id, token = request.match_info["interaction_id"], request.match_info["token"]
        interaction = self.world.interactions.get(int(raw_id)) if raw_id.isdigit() else None
        if interaction is None or interaction.token != token:
            raise ApiError(404, 10062, "Unknown interaction", kind="unknown_interaction")
        try:
            kind, message = await self._respond(request, interaction)
        except ApiError as err:
            interaction.rejected.append(f"{err.kind}: {err.detail}")
            self.world.notify()
            raise
        interaction.response_type = kind
        self.world.notify(message)
        return json_response(self._callback_response(interaction, kind, message))

    async def _respond(self, request: web.Request, interaction: FakeInteraction) -> tuple[int, FakeMessage | None]:
        elapsed = loop_time() - interaction.created
        if elapsed > ACK_DEADLINE_SECONDS:
            raise ApiError(
                404,
                10062,
                "Unknown interaction",
                kind="late_response",
                detail=f"first response {elapsed:.2f} s after the interaction (limit 3 s)",
            )
        if interaction.acknowledged:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.", kind="double_response")
        body = await self.server.body(request, size_limit=limits.FILE_SIZE_DEFAULT)
        if not isinstance(body.json, dict) or "type" not in body.json:
            raise invalid_form([FieldError(("type",), "This field is required")], kind="schema")
        kind = body.json["type"]
        if kind not in ALLOWED_CALLBACKS[interaction.type] or (
            kind in (DEFERRED_UPDATE, UPDATE) and interaction.message is None
        ):
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                kind="wrong_callback_type",
                detail=f"callback type {kind} is not valid for interaction type {interaction.type}",
            )
        try:
            return kind, self._apply(interaction, kind, body.json.get("data") or {}, body.uploads)
        except AttachmentError as err:
            raise attachment_error(err) from None

    def _apply(
        self, interaction: FakeInteraction, kind: int, data: dict[str, Any], uploads: list
    ) -> FakeMessage | None:
        world = self.world
        if kind == MESSAGE_CREATING:
            check_message_body(data, len(uploads), creating=True)
            flags = (data.get("flags") or 0) & KEPT_MESSAGE_FLAGS
            message = world.create_message(
                interaction.channel,
                data,
                uploads,
                interaction=interaction,
                flags=flags,
                visible_only_to=interaction.user if flags & EPHEMERAL else None,
            )
            interaction.original_id = message.id
            return message
        if kind == DEFERRED:
            ephemeral = (data.get("flags") or 0) & EPHEMERAL
            message = world.create_message(
                interaction.channel,
                {},
                [],
                interaction=interaction,
                flags=LOADING | ephemeral,
                visible_only_to=interaction.user if ephemeral else None,
            )
            interaction.original_id = message.id
            return message
        if kind in (DEFERRED_UPDATE, UPDATE):
            assert interaction.message is not None
            interaction.original_id = interaction.message.id
            if kind == UPDATE:
                check_message_body(data, len(uploads), creating=False)
                return world.edit_message(interaction.message, data, uploads)
            return None
        if kind == AUTOCOMPLETE:
            errors = limits.autocomplete(data)
            if errors:
                raise invalid_form(errors)
            interaction.choices = list(data.get("choices") or [])
            return None
        errors = limits.modal(data)
        if errors:
            raise invalid_form(errors)
        interaction.modal = data
        return None

    @staticmethod
    def _callback_response(interaction: FakeInteraction, kind: int, message: FakeMessage | None) -> dict[str, Any]:
        summary: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type}
        if interaction.guild is not None:
            summary["guild_id"] = str(interaction.guild.id)
        summary["channel_id"] = str(interaction.channel.id)
        result: dict[str, Any] = {"interaction": summary}
        if message is not None:
            summary.update(
                response_message_id=str(message.id),
                response_message_loading=message.loading,
                response_message_ephemeral=message.ephemeral,
            )
            result["resource"] = {"type": kind, "message": message.payload()}
        return result

    # -- the interaction webhook -------------------------------------------------------------------

    def _interaction_for_token(self, request: web.Request) -> FakeInteraction:
        token = request.match_info["token"]
        interaction = next((i for i in self.world.interactions.values() if i.token == token), None)
        if interaction is None or request.match_info["app_id"] != str(self.world.application_id):
            raise ApiError(404, 10015, "Unknown Webhook")
        if loop_time() - interaction.created > TOKEN_LIFETIME_SECONDS:
            raise ApiError(
                401,
                50027,
                "Invalid Webhook Token",
                kind="token_expired",
                detail="interaction tokens are valid for 15 minutes",
            )
        if not interaction.acknowledged:
            raise ApiError(
                404,
                10015,
                "Unknown Webhook",
                kind="followup_before_response",
                detail="followups and edits need an initial response (or deferral) first",
            )
        return interaction

    async def followup(self, request: web.Request) -> web.Response:
        interaction = self._interaction_for_token(request)
        body = await self.server.body(request)
        data = body.json or {}
        check_message_body(data, len(body.uploads), creating=True)
        original = self.world.messages.get(interaction.original_id or 0)
        try:
            if interaction.response_type == DEFERRED and original is not None and original.loading:
                message = self.world.edit_message(original, data, body.uploads, clear_loading=True)
            else:
                flags = (data.get("flags") or 0) & KEPT_MESSAGE_FLAGS
                message = self.world.create_message(
                    interaction.channel,
                    data,
                    body.uploads,
                    interaction=interaction,
                    flags=flags,
                    visible_only_to=interaction.user if flags & EPHEMERAL else None,
                )
                interaction.followup_ids.append(message.id)
        except AttachmentError as err:
            raise attachment_error(err) from None
        self.world.notify(message)
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(message.payload())
        return web.Response(status=204)

    async def webhook_message(self, request: web.Request) -> web.Response:
        interaction = self._interaction_for_token(request)
        raw = request.match_info["message_id"]
        message_id = interaction.original_id if raw == "@original" else int(raw) if raw.isdigit() else None
        if message_id is None or (message_id != interaction.original_id and message_id not in interaction.followup_ids):
            raise unknown_message()
        message = self.world.messages.get(message_id)
        if message is None or message.deleted:
            raise unknown_message()
        if request.method == "GET":
            return json_response(message.payload())
        if request.method == "DELETE":
            self.world.delete_message(message)
            return web.Response(status=204)
        body = await self.server.body(request)
        data = body.json or {}
        check_message_body(data, len(body.uploads), creating=False)
        try:
            self.world.edit_message(message, data, body.uploads, clear_loading=message.loading)
        except AttachmentError as err:
            raise attachment_error(err) from None
        return json_response(message.payload())
