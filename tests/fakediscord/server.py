"""The HTTP side of the fake: one aiohttp app on 127.0.0.1 serving REST, the gateway and the "CDN".

Cross-cutting rules live here so no endpoint can forget them: authentication, injected faults,
rate limits (:mod:`.ratelimits`), schema validation of every body, Discord-shaped errors, and the rule
that every 4xx the fake answers, rate limits' 429s aside, is also recorded in ``world.violations``.
"""

from __future__ import annotations

import asyncio
import json
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from . import limits
from .models import FieldError, RequestRecord, Upload, Violation
from .multipart import MalformedForm, media_type, parse_form
from .ratelimits import TOKEN_PATHS, Bucket, RateLimiter, too_many
from .schema import ApiSchema
from .world import World

API_PREFIX = "/api/v10"
BODY = web.RequestKey("fake_body", object)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class ApiError(Exception):
    """An error response in Discord's shape: ``{"code", "message", "errors"?}``."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: list[FieldError] = (),
        kind: str = "rejected",
        detail: str = "",
    ):
        super().__init__(message)
        self.status, self.code, self.message, self.errors, self.kind = status, code, message, list(errors), kind
        self.detail = detail or "; ".join(str(e) for e in self.errors) or message

    def body(self) -> dict[str, Any]:
        """Discord's fields, plus the fake's own explanation (discord.py ignores extra keys)."""
        data: dict[str, Any] = {"message": self.message, "code": self.code, "fakediscord": self.detail}
        if self.errors:
            data["errors"] = _nest(self.errors)
        return data


def invalid_form(errors: list[FieldError], kind: str = "limit") -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body", errors=errors, kind=kind)


def unreadable_body(detail: str) -> ApiError:
    """Discord's answer to a body it cannot read as JSON or as a form."""
    return ApiError(400, 50035, "Invalid Form Body", kind="schema", detail=detail)


def _nest(errors: list[FieldError]) -> dict[str, Any]:
    """Discord's nested error object: ``{"content": {"_errors": [{"code", "message"}]}}``."""
    root: dict[str, Any] = {}
    for error in errors:
        node = root
        for key in error.path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": "BASE_TYPE_INVALID", "message": error.message})
    return root


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """Exactly ``Content-Type: application/json``: with a charset discord.py would read a str."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json", **(headers or {})}
    )


@dataclass
class Body:
    """A parsed request body: the JSON (from ``payload_json`` for multipart) and any uploaded files."""

    json: Any
    uploads: list[Upload]
    multipart: bool


@dataclass
class Fault:
    kind: str  # "429", a 5xx status as text, or "hang" (carried out, never answered)
    route: str
    method: str | None
    remaining: int
    retry_after: float
    scope: str = "user"  # a 429's X-RateLimit-Scope: "user", or "shared" (not counted as invalid)

    def matches(self, method: str, path: str) -> bool:
        return self.remaining > 0 and self.route in path and (self.method is None or self.method == method)


class FakeServer:
    """Owns the aiohttp app and the request pipeline; endpoint modules register their routes on it."""

    def __init__(self, world: World, schema: ApiSchema | None):
        self.world = world
        self.schema = schema
        self.faults: list[Fault] = []
        self.fired: list[str] = []
        self.limits = RateLimiter()
        self.routes: set[str] = set()  # "POST /channels/{channel_id}/messages": each has rate-limit buckets
        self._stopping = asyncio.Event()  # hung requests end with the server
        self.app = web.Application(client_max_size=64 * 1024 * 1024, middlewares=[self._middleware])
        self.app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        self._runner: web.AppRunner | None = None
        self.port = 0

    def route(self, method: str, path: str, handler: Handler) -> None:
        self.app.router.add_route(method, API_PREFIX + path, handler)
        self.routes.add(f"{method} {path}")

    async def start(self) -> None:
        self.app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        self._stopping.set()
        if self._runner is not None:
            await self._runner.cleanup()

    # -- pipeline ----------------------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX):
            return await handler(request)
        path = request.path[len(API_PREFIX) :]
        fault = next((f for f in self.faults if f.matches(request.method, path)), None)
        if fault is not None:
            fault.remaining -= 1
            self.fired.append(f"{fault.kind} {request.method} {path}")
        bucket = self._bucket(request)
        response: web.StreamResponse
        if fault is not None and fault.kind != "hang":
            await request.read()
            response = self._fault_response(fault, bucket)
        else:
            response = await self._limited(request, handler, path, bucket)
        self.limits.count(response)
        self.world.requests.append(RequestRecord(request.method, path, response.status, request.get(BODY)))
        if fault is not None and fault.kind == "hang":
            await self._stopping.wait()  # carried out, and never answered
        return response

    def _bucket(self, request: web.Request) -> Bucket | None:
        """The request's bucket; unknown endpoints have none (the fake answers them 404 and a violation)."""
        resource = request.match_info.route.resource
        route = f"{request.method} {resource.canonical[len(API_PREFIX) :]}" if resource else ""
        return self.limits.bucket(route, request.match_info) if route in self.routes else None

    async def _limited(
        self, request: web.Request, handler: Handler, path: str, bucket: Bucket | None
    ) -> web.StreamResponse:
        """Refused over a limit, else handled; either way the answer tells the bucket's state."""
        refusal = self.limits.refuse(path, bucket)
        if refusal is not None:
            await request.read()
            return refusal
        response = await self._handle(request, handler, path)
        if bucket is not None:
            response.headers.update(bucket.headers(time.monotonic()))
        return response

    async def _handle(self, request: web.Request, handler: Handler, path: str) -> web.StreamResponse:
        try:
            self._authenticate(request, path)
            return await handler(request)
        except ApiError as err:
            self.world.violations.append(Violation(err.kind, err.detail, request.method, path, err.status, err.code))
            return json_response(err.body(), err.status)
        except Exception as exc:  # a bug in the fake: fail the request fast (no 5xx retries) and loudly
            detail = "".join(traceback.format_exception(exc))
            self.world.violations.append(Violation("fake_internal_error", detail, request.method, path, 400))
            return json_response({"message": f"fakediscord internal error: {exc!r}", "code": 0}, 400)

    def _authenticate(self, request: web.Request, path: str) -> None:
        if path.startswith(TOKEN_PATHS):
            return  # authorised by the interaction token in the path
        if request.headers.get("Authorization") != f"Bot {self.world.token}":
            raise ApiError(
                401,
                0,
                "401: Unauthorized",
                kind="unauthorized",
                detail="missing or wrong 'Authorization: Bot <token>' header",
            )

    @staticmethod
    def _fault_response(fault: Fault, bucket: Bucket | None) -> web.Response:
        if fault.kind == "429":
            headers = bucket.headers(time.monotonic()) if bucket is not None else {}
            return too_many(fault.retry_after, headers | {"X-RateLimit-Scope": fault.scope})
        status = int(fault.kind)
        return json_response({"message": f"{status}: Server Error", "code": 0}, status)

    async def _unknown(self, request: web.Request) -> web.Response:
        path = request.path[len(API_PREFIX) :]
        documented = self.schema is not None and self.schema.is_documented_path(path)
        why = "a Discord endpoint the fake does not implement" if documented else "not a Discord v10 endpoint"
        raise ApiError(404, 0, "404: Not Found", kind="unknown_endpoint", detail=why)

    async def _cdn(self, request: web.Request) -> web.Response:
        attachment = self.world.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None or attachment.filename != request.match_info["filename"]:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=attachment.data, headers={"Content-Type": attachment.content_type})

    # -- bodies ------------------------------------------------------------------------------------

    async def body(self, request: web.Request, *, size_limit: int = limits.FILE_SIZE_DEFAULT) -> Body:
        """Parse and validate the body against the operation's schema; raises ``ApiError`` if invalid."""
        uploads: list[Upload] = []
        payload: Any = None
        content_type = request.headers.get("Content-Type", "")
        media = media_type(content_type)
        multipart = media == "multipart/form-data"
        if multipart:
            try:
                parts = parse_form(content_type, await request.read())
            except MalformedForm as err:
                raise unreadable_body(str(err)) from None
            for part in parts:
                if part.name == "payload_json":
                    payload = _parse_json(part.data)
                elif part.name.startswith("files[") and part.name.endswith("]") and part.name[6:-1].isdigit():
                    uploads.append(Upload(int(part.name[6:-1]), part.filename or part.name, part.data))
                else:
                    raise invalid_form([FieldError((part.name,), "Unexpected multipart field")], kind="schema")
        else:
            raw = await request.read()
            if raw:
                if media != "application/json":
                    raise unreadable_body(f"body sent as {media!r}, not application/json")
                payload = _parse_json(raw)
        request[BODY] = payload
        self._check_files(uploads, size_limit)
        if self.schema is not None:
            path = request.path[len(API_PREFIX) :]
            op = self.schema.match(request.method, path)
            if op is not None and payload is not None:
                errors = self.schema.validate(op, payload, multipart=multipart)
                if errors:
                    raise invalid_form(errors, kind="schema")
        return Body(payload, uploads, multipart)

    @staticmethod
    def _check_files(uploads: list[Upload], size_limit: int) -> None:
        if len(uploads) > limits.ATTACHMENTS_MAX:
            raise invalid_form([FieldError(("files",), f"Must be {limits.ATTACHMENTS_MAX} or fewer in length.")])
        for upload in uploads:
            if len(upload.data) > size_limit:
                raise ApiError(
                    413,
                    40005,
                    "Request entity too large",
                    kind="limit",
                    detail=f"{upload.filename} is {len(upload.data)} bytes, over {size_limit}",
                )
        total = sum(len(u.data) for u in uploads)
        if total > limits.REQUEST_FILES_MAX:
            raise ApiError(
                413,
                40005,
                "Request entity too large",
                kind="limit",
                detail=f"{total} bytes of files in one request, over {limits.REQUEST_FILES_MAX}",
            )


def _parse_json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        raise ApiError(400, 50109, "The request body contains invalid JSON.", kind="schema") from None


def loop_time() -> float:
    return asyncio.get_running_loop().time()
