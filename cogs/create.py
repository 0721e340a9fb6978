"""``/game create <ruleset>``: one subcommand per ruleset, its options generated from the ruleset's
schema (``Presenter.cards``), so that a new ruleset brings its own menu without a line here.

Discord reads a command's options from its callback's signature; the callbacks here are made per
ruleset with a signature built from the schema, and every value is checked by the game master.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, cast

import discord
from discord import app_commands

from cogs.common import named_choices, service_of
from i18n import map_title, tr
from service.gameoptions import Option
from service.presenter import RulesetCard

Opener = Callable[[discord.Interaction, str, dict[str, Any]], Awaitable[None]]
"""Opens a game: (interaction, ruleset name, the options the user gave)."""

Completer = Callable[[discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]
"""Autocomplete for an option: (interaction, what was typed) -> the choices."""


def creation_group(cards: list[RulesetCard], opener: Opener) -> app_commands.Group:
    group = app_commands.Group(name="create", description="Open a new game in this channel; it gets its own thread")
    for card in cards:
        group.add_command(_command(card, opener))
    return group


def _command(card: RulesetCard, opener: Opener) -> app_commands.Command:
    async def create(*args: Any, **chosen: Any) -> None:
        interaction = args[-1]  # a command inside a cog is also handed the cog first
        await opener(interaction, card.name, {name: value for name, value in chosen.items() if value is not None})

    parameters = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)
    ]
    completions = {}
    for option in card.options:
        parameters.append(
            inspect.Parameter(
                option.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None, annotation=_type(option) | None
            )
        )
        if option.kind == "choice":
            completions[option.name] = _labelled(option)
        elif option.kind == "map":
            completions[option.name] = _map_names(card.name, option.choices)
    cast(Any, create).__signature__ = inspect.Signature(parameters)  # mypy allows no new attribute on a function
    app_commands.describe(**{o.name: o.description for o in card.options})(create)
    if completions:
        app_commands.autocomplete(**completions)(create)
    players = f"{card.min_players}–{card.max_players}" if card.min_players != card.max_players else card.min_players
    return app_commands.Command(
        name=card.name, description=f"{card.title} for {players} players"[:100], callback=create
    )


def _type(option: Option) -> Any:
    if option.kind == "int":
        return app_commands.Range[int, option.minimum, option.maximum]
    if option.kind == "bool":
        return bool
    if option.kind == "choice" and all(isinstance(v, int) and not isinstance(v, bool) for v in option.choices):
        return int
    return str


def _labelled(option: Option) -> Completer:
    """A choice option's values offered by their labels in the reader's language, as he types: not a
    fixed choice list, whose labels would count against Discord's 8,000 characters per command once
    for every ruleset's ``create`` (the game master refuses a value typed outside them)."""
    labels = option.labels or tuple(str(value) for value in option.choices)

    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[Any]]:
        typed = current.strip().lower()
        shown = ((tr(label), value) for label, value in zip(labels, option.choices, strict=True))
        return [
            app_commands.Choice(name=label[:100], value=value)
            for label, value in shown
            if typed in label.lower() or typed in str(value).lower()
        ][:25]

    return complete


def _map_names(ruleset: str, shipped: tuple[str, ...]) -> Completer:
    """The shipped maps and the server's own (/map upload) of the ruleset."""

    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        own = await service_of(interaction).master.maps.names(interaction.guild_id or 0, ruleset)
        return named_choices([*shipped, *own], map_title, current)

    return complete
