"""Limits Discord documents and enforces but its OpenAPI schema states loosely or not at all.

Each check returns :class:`FieldError` values; an empty list means the payload is acceptable. The
numbers are Discord's documented ones (message content 2000 characters, not the schema's 4000).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .models import FieldError

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
ATTACHMENTS_MAX = 10
FILE_SIZE_DEFAULT = 10 * 1024 * 1024
REQUEST_FILES_MAX = 25 * 1024 * 1024
ACTION_ROWS_MAX = 5
CHOICES_MAX = 25
COMMANDS_MAX = 100
COMMAND_CHARS_MAX = 8000

_EMBED_TEXT = (("title", 256), ("description", 4096))
_TEXT_INPUT, _ACTION_ROW, _BUTTON, _LABEL = 4, 1, 2, 18
_SELECTS = (3, 5, 6, 7, 8)
_SUBCOMMAND, _GROUP = 1, 2
_LINK_STYLE, _PREMIUM_STYLE = 5, 6


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def message(body: dict[str, Any], *, new_files: int = 0) -> list[FieldError]:
    """A message body (create or edit): content, embeds, components, attachment count."""
    errors: list[FieldError] = []
    if _length(body.get("content")) > CONTENT_MAX:
        errors.append(FieldError(("content",), f"Must be {CONTENT_MAX} or fewer in length."))
    errors += embeds(body.get("embeds") or [])
    errors += components(body.get("components") or [])
    attachments = body.get("attachments")
    count = len(attachments) if isinstance(attachments, list) else new_files
    if count > ATTACHMENTS_MAX:
        errors.append(FieldError(("attachments",), f"Must be {ATTACHMENTS_MAX} or fewer in length."))
    return errors


def is_empty(body: dict[str, Any], new_files: int) -> bool:
    """Discord refuses (50006) a new message with nothing to show."""
    return not (
        body.get("content")
        or body.get("embeds")
        or body.get("components")
        or new_files
        or body.get("sticker_ids")
        or body.get("poll")
    )


def embeds(items: list[dict[str, Any]]) -> list[FieldError]:
    errors: list[FieldError] = []
    if len(items) > EMBEDS_MAX:
        errors.append(FieldError(("embeds",), f"Must be {EMBEDS_MAX} or fewer in length."))
    total = 0
    for i, embed in enumerate(items):
        where: tuple[str | int, ...] = ("embeds", i)
        for key, limit in _EMBED_TEXT:
            total += _length(embed.get(key))
            if _length(embed.get(key)) > limit:
                errors.append(FieldError((*where, key), f"Must be {limit} or fewer in length."))
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors.append(FieldError((*where, "fields"), "Must be 25 or fewer in length."))
        for j, fld in enumerate(fields):
            for key, limit in (("name", 256), ("value", 1024)):
                size = _length(fld.get(key))
                total += size
                if size > limit or size == 0:
                    errors.append(FieldError((*where, "fields", j, key), f"Must be between 1 and {limit} in length."))
        for key, sub, limit in (("footer", "text", 2048), ("author", "name", 256)):
            size = _length((embed.get(key) or {}).get(sub))
            total += size
            if size > limit:
                errors.append(FieldError((*where, key, sub), f"Must be {limit} or fewer in length."))
    if total > EMBED_TOTAL_MAX:
        errors.append(FieldError(("embeds",), f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}"))
    return errors


def components(rows: list[dict[str, Any]]) -> list[FieldError]:
    """Classic message components: action rows of buttons or one select, unique custom ids."""
    errors: list[FieldError] = []
    if len(rows) > ACTION_ROWS_MAX:
        errors.append(FieldError(("components",), f"Must be {ACTION_ROWS_MAX} or fewer in length."))
    seen: set[str] = set()
    for i, row in enumerate(rows):
        if row.get("type") != _ACTION_ROW:
            continue
        children = row.get("components") or []
        kinds = {c.get("type") for c in children}
        if len(children) > 5:
            errors.append(FieldError(("components", i, "components"), "Must be 5 or fewer in length."))
        if kinds & set(_SELECTS) and len(children) > 1:
            errors.append(FieldError(("components", i, "components"), "A select menu must be alone in its row."))
        for j, comp in enumerate(children):
            errors += _component(("components", i, "components", j), comp, seen)
    return errors


def _component(where: tuple[str | int, ...], comp: dict[str, Any], seen: set[str]) -> list[FieldError]:
    errors: list[FieldError] = []
    custom_id = comp.get("custom_id")
    kind = comp.get("type")
    if kind == _BUTTON and comp.get("style") in (_LINK_STYLE, _PREMIUM_STYLE):
        if custom_id is not None:
            errors.append(FieldError((*where, "custom_id"), "A link button cannot have a custom_id."))
        if comp.get("style") == _LINK_STYLE and not comp.get("url"):
            errors.append(FieldError((*where, "url"), "A link button needs a url."))
    elif kind in (_BUTTON, *_SELECTS, _TEXT_INPUT):
        if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
            errors.append(FieldError((*where, "custom_id"), "Must be between 1 and 100 in length."))
        elif custom_id in seen:
            errors.append(FieldError((*where, "custom_id"), "Component custom id cannot be duplicated"))
        else:
            seen.add(custom_id)
    if kind == _BUTTON and _length(comp.get("label")) > 80:
        errors.append(FieldError((*where, "label"), "Must be 80 or fewer in length."))
    if kind == 3:
        options = comp.get("options") or []
        if not 1 <= len(options) <= 25:
            errors.append(FieldError((*where, "options"), "Must be between 1 and 25 in length."))
        for k, option in enumerate(options):
            for key in ("label", "value", "description"):
                if _length(option.get(key)) > 100:
                    errors.append(FieldError((*where, "options", k, key), "Must be 100 or fewer in length."))
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if low is not None and high is not None and not (low <= high <= max(len(options), 1)):
            errors.append(FieldError((*where, "max_values"), "min_values <= max_values <= number of options"))
    return errors


def modal(data: dict[str, Any]) -> list[FieldError]:
    errors: list[FieldError] = []
    if not 1 <= _length(data.get("title")) <= 45:
        errors.append(FieldError(("data", "title"), "Must be between 1 and 45 in length."))
    items = data.get("components") or []
    if not 1 <= len(items) <= 5:
        errors.append(FieldError(("data", "components"), "Must be between 1 and 5 in length."))
    seen: set[str] = set()
    for i, item in enumerate(items):
        inner = item.get("components") or ([item["component"]] if "component" in item else [])
        if item.get("type") == _LABEL and _length(item.get("label")) > 45:
            errors.append(FieldError(("data", "components", i, "label"), "Must be 45 or fewer in length."))
        for comp in inner:
            where = ("data", "components", i, "component")
            errors += _component(where, comp, seen)
            if comp.get("type") == _TEXT_INPUT:
                if _length(comp.get("label")) > 45:
                    errors.append(FieldError((*where, "label"), "Must be 45 or fewer in length."))
                if _length(comp.get("value")) > 4000:
                    errors.append(FieldError((*where, "value"), "Must be 4000 or fewer in length."))
    return errors


def autocomplete(data: dict[str, Any]) -> list[FieldError]:
    choices = data.get("choices") or []
    errors: list[FieldError] = []
    if len(choices) > CHOICES_MAX:
        errors.append(FieldError(("data", "choices"), f"Must be {CHOICES_MAX} or fewer in length."))
    for i, choice in enumerate(choices):
        if not 1 <= _length(choice.get("name")) <= 100:
            errors.append(FieldError(("data", "choices", i, "name"), "Must be between 1 and 100 in length."))
        if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
            errors.append(FieldError(("data", "choices", i, "value"), "Must be 100 or fewer in length."))
    return errors


def _valid_name(name: Any) -> bool:
    """``^[-_'\\p{L}\\p{N}]{1,32}$`` and lowercase, as slash-command names must be."""
    return (
        isinstance(name, str)
        and 1 <= len(name) <= 32
        and name == name.lower()
        and all(ch.isalnum() or ch in "-_'" for ch in name)
    )


LOCALES = frozenset(
    "id da de en-GB en-US es-ES es-419 fr hr it lt hu nl no pl pt-BR ro fi sv-SE vi tr cs el bg ru uk hi th "
    "zh-CN ja zh-TW ko".split()
)


def _localizations(where: tuple[str | int, ...], item: dict[str, Any]) -> list[FieldError]:
    """``name_localizations`` and ``description_localizations``: known locales only, each name valid as
    the name itself must be, each description 1-100 characters."""
    errors: list[FieldError] = []
    for field, valid in (
        ("name_localizations", _valid_name),
        ("description_localizations", lambda text: 1 <= _length(text) <= 100),
    ):
        for locale, text in (item.get(field) or {}).items():
            if locale not in LOCALES:
                errors.append(FieldError((*where, field, locale), f"Invalid Locale provided ({locale!r})."))
            elif not valid(text):
                errors.append(FieldError((*where, field, locale), f"Invalid {field[:-14]} localization {text!r}."))
    return errors


def commands(items: list[dict[str, Any]]) -> list[FieldError]:
    """A whole bulk overwrite: count, unique names, and each command's shape."""
    errors: list[FieldError] = []
    chat = [c for c in items if c.get("type", 1) == 1]
    if len(chat) > COMMANDS_MAX:
        errors.append(FieldError((), f"Must be {COMMANDS_MAX} or fewer slash commands."))
    names = [(c.get("type", 1), c.get("name")) for c in items]
    for i, key in enumerate(names):
        if key in names[:i]:
            errors.append(FieldError((i, "name"), f"Application command names must be unique ({key[1]!r})"))
    for i, command in enumerate(items):
        if command.get("type", 1) != 1:
            continue
        if not _valid_name(command.get("name")):
            errors.append(FieldError((i, "name"), "Invalid slash command name (1-32 lowercase letters, digits, -_')"))
        if not 1 <= _length(command.get("description")) <= 100:
            errors.append(FieldError((i, "description"), "Must be between 1 and 100 in length."))
        errors += _localizations((i,), command)
        errors += _options((i, "options"), command.get("options") or [], depth=0)
        if _characters(command) > COMMAND_CHARS_MAX:
            errors.append(FieldError((i,), f"Command exceeds maximum size ({COMMAND_CHARS_MAX})"))
    return errors


def _options(where: tuple[str | int, ...], options: list[dict[str, Any]], depth: int) -> list[FieldError]:
    errors: list[FieldError] = []
    if len(options) > 25:
        errors.append(FieldError(where, "Must be 25 or fewer in length."))
    kinds = [o.get("type") for o in options]
    nested = [k in (_SUBCOMMAND, _GROUP) for k in kinds]
    if any(nested) and not all(nested):
        errors.append(FieldError(where, "Subcommands and groups cannot be mixed with other options."))
    seen_optional = False
    names: set[str] = set()
    for j, option in enumerate(options):
        at = (*where, j)
        kind = option.get("type")
        if not _valid_name(option.get("name")):
            errors.append(FieldError((*at, "name"), "Invalid option name (1-32 lowercase letters, digits, -_')"))
        if option.get("name") in names:
            errors.append(FieldError((*at, "name"), "Option names must be unique."))
        names.add(option.get("name"))
        if not 1 <= _length(option.get("description")) <= 100:
            errors.append(FieldError((*at, "description"), "Must be between 1 and 100 in length."))
        errors += _localizations(at, option)
        if kind == _GROUP:
            if depth > 0:
                errors.append(FieldError((*at, "type"), "Subcommand groups can only be nested one level."))
            if any(o.get("type") != _SUBCOMMAND for o in option.get("options") or []):
                errors.append(FieldError((*at, "options"), "A subcommand group may contain only subcommands."))
            errors += _options((*at, "options"), option.get("options") or [], depth + 1)
        elif kind == _SUBCOMMAND:
            errors += _options((*at, "options"), option.get("options") or [], 2)
        else:
            if option.get("required"):
                if seen_optional:
                    errors.append(
                        FieldError((*at, "required"), "Required options must be placed before non-required options")
                    )
            else:
                seen_optional = True
            errors += _choices(at, option)
    return errors


def _choices(at: tuple[str | int, ...], option: dict[str, Any]) -> list[FieldError]:
    errors: list[FieldError] = []
    choices = option.get("choices") or []
    if len(choices) > CHOICES_MAX:
        errors.append(FieldError((*at, "choices"), f"Must be {CHOICES_MAX} or fewer in length."))
    if choices and option.get("autocomplete"):
        errors.append(FieldError((*at, "autocomplete"), "Autocomplete cannot be set together with choices."))
    for k, choice in enumerate(choices):
        if not 1 <= _length(choice.get("name")) <= 100:
            errors.append(FieldError((*at, "choices", k, "name"), "Must be between 1 and 100 in length."))
    low, high = option.get("min_value"), option.get("max_value")
    if low is not None and high is not None and low > high:
        errors.append(FieldError((*at, "min_value"), "min_value must not exceed max_value."))
    return errors


def _characters(command: dict[str, Any]) -> int:
    """Discord's per-command size: names, descriptions and choice names/values, all levels."""

    def walk(options: Iterable[dict[str, Any]]) -> int:
        total = 0
        for option in options:
            total += _length(option.get("name")) + _length(option.get("description"))
            for choice in option.get("choices") or []:
                total += _length(choice.get("name")) + len(str(choice.get("value", "")))
            total += walk(option.get("options") or [])
        return total

    return _length(command.get("name")) + _length(command.get("description")) + walk(command.get("options") or [])
