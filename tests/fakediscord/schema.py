"""Request-body validation against Discord's own OpenAPI description.

The fake never carries a copy of the schema: it reads ``openapi.json`` from the shared folder beside
the repository (or ``$DISCORD_OPENAPI_PATH``) so that what is checked is exactly what Discord
publishes. Two deliberate relaxations, both matching what Discord itself accepts:

* ``SnowflakeType`` is string-only in the spec, but discord.py sends some ids as integers
  (attachment indexes, ``recipient_id``), so integers are accepted too.
* Only the JSON body is checked here; documented limits the spec states more loosely (message
  content 4000 vs 2000, for instance) are enforced by :mod:`.limits`.
"""

from __future__ import annotations

import functools
import json
import os
import pathlib
import re
import sys
import warnings
from dataclasses import dataclass
from typing import Any

import jsonschema
import referencing
import referencing.jsonschema

from .models import FieldError

SPEC_URI = "urn:discord-openapi"
ENV_VAR = "DISCORD_OPENAPI_PATH"
_METHODS = ("get", "put", "post", "patch", "delete")


def default_spec_path() -> pathlib.Path:
    """``<repo root>/../shared/discord/openapi.json`` unless the environment says otherwise."""
    override = os.environ.get(ENV_VAR)
    if override:
        return pathlib.Path(override)
    repo_root = pathlib.Path(__file__).resolve().parents[2]
    return repo_root.parent / "shared" / "discord" / "openapi.json"


@dataclass(frozen=True)
class Operation:
    """One documented ``METHOD /path`` of the REST API."""

    method: str
    template: str
    operation_id: str
    pointer: str | None  # JSON pointer to the JSON request-body schema inside the spec, if any
    multipart_pointer: str | None

    def pointer_for(self, multipart: bool) -> str | None:
        return self.multipart_pointer if multipart and self.multipart_pointer else self.pointer


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


class ApiSchema:
    """The documented operations and a validator per request body."""

    def __init__(self, spec: dict[str, Any]):
        spec = json.loads(json.dumps(spec))
        snowflake = spec["components"]["schemas"]["SnowflakeType"]
        spec["components"]["schemas"]["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
        resource = referencing.Resource.from_contents(spec, default_specification=referencing.jsonschema.DRAFT202012)
        self._registry = referencing.Registry().with_resource(SPEC_URI, resource)
        self._spec = spec
        self._routes: list[tuple[re.Pattern[str], int, Operation]] = []
        for template, item in spec["paths"].items():
            regex = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")
            literal_segments = sum(1 for part in template.split("/") if part and not part.startswith("{"))
            for method in _METHODS:
                if method in item:
                    self._routes.append((regex, literal_segments, self._operation(template, method, item[method])))

    @staticmethod
    def _operation(template: str, method: str, op: dict[str, Any]) -> Operation:
        content = (op.get("requestBody") or {}).get("content", {})
        base = f"#/paths/{_escape(template)}/{method}/requestBody/content"
        json_ptr = f"{base}/{_escape('application/json')}/schema" if "application/json" in content else None
        multi_ptr = f"{base}/{_escape('multipart/form-data')}/schema" if "multipart/form-data" in content else None
        return Operation(method.upper(), template, op.get("operationId", ""), json_ptr, multi_ptr)

    def match(self, method: str, path: str) -> Operation | None:
        """The documented operation for a request path (``/channels/1/messages``), literal segments first."""
        candidates = [(lit, op) for regex, lit, op in self._routes if op.method == method.upper() and regex.match(path)]
        if not candidates:
            return None
        return max(candidates, key=lambda c: c[0])[1]

    def is_documented_path(self, path: str) -> bool:
        return any(regex.match(path) for regex, _, _ in self._routes)

    @functools.cache  # noqa: B019 - one schema per run; its validators are reused by every request
    def _validator(self, pointer: str) -> jsonschema.protocols.Validator:
        schema = {"$ref": SPEC_URI + pointer}
        return jsonschema.Draft202012Validator(schema, registry=self._registry)

    def validate(self, operation: Operation, body: Any, *, multipart: bool = False) -> list[FieldError]:
        pointer = operation.pointer_for(multipart)
        if pointer is None:
            return []
        errors = list(self._validator(pointer).iter_errors(body))
        return [self._describe(err) for err in errors]

    @staticmethod
    def _describe(error: jsonschema.ValidationError) -> FieldError:
        best = _most_specific(error)
        message = (
            best.message
            if len(best.message) <= 120
            else (f"{best.validator}={best.validator_value!r} not satisfied by {_summary(best.instance)}")
        )
        return FieldError(tuple(best.absolute_path), message)


def _most_specific(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """Descend through unions into the branch the sender meant.

    Discord's unions are discriminated by a ``type`` field, so a branch whose ``type`` does not match
    was not meant; of the rest, the one that is not the ``null`` alternative and fails in the fewest
    ways is.
    """
    if not error.context:
        return error
    branches: dict[Any, list[jsonschema.ValidationError]] = {}
    for child in error.context:
        branches.setdefault(child.relative_schema_path[0], []).append(child)

    def unlikely(errors: list[jsonschema.ValidationError]) -> tuple[bool, bool, int]:
        wrong_type = any(e.validator in ("enum", "const") and list(e.relative_path)[-1:] == ["type"] for e in errors)
        null_branch = any(e.validator == "type" and e.validator_value == "null" for e in errors)
        return wrong_type, null_branch, len(errors)

    errors = min(branches.values(), key=unlikely)
    return _most_specific(max(errors, key=lambda e: len(e.absolute_path)))


def _summary(instance: Any) -> str:
    if isinstance(instance, str):
        return f"a string of length {len(instance)}"
    if isinstance(instance, list):
        return f"an array of {len(instance)} items"
    if isinstance(instance, dict):
        return "an object"
    return repr(instance)


@functools.lru_cache(maxsize=4)
def load_schema(path: pathlib.Path) -> ApiSchema | None:
    """The schema at ``path``, or ``None`` (with a visible notice, once) when the file is absent."""
    if not path.is_file():
        notice = (
            f"fakediscord: {path} not found (set {ENV_VAR} to point at Discord's openapi.json); "
            "REST request bodies are NOT validated against the official schema in this run"
        )
        warnings.warn(notice, stacklevel=2)
        print(notice, file=sys.stderr)
        return None
    return ApiSchema(json.loads(path.read_text(encoding="utf-8")))
