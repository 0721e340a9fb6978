"""What a game supplies as its storage format: its state's own fields, written and read back
validated, and the upgrades that keep games saved by older code loading. The envelope (ruleset name
and format version) is shared."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, Generic

from engine import stored
from engine.contract.values import S
from engine.errors import StateError


class StorageFormat(ABC, Generic[S]):
    """A game's stored form."""

    name: str
    state_version: int = 1
    state_upgrades: Mapping[int, Callable[[Mapping[str, Any]], dict[str, Any]]] = {}  # version v -> v + 1

    def to_dict(self, state: S) -> dict[str, Any]:
        """The state as JSON-safe data, in the envelope that names its ruleset and format version."""
        return {"ruleset": self.name, "version": self.state_version, **self.write_state(state)}

    @abstractmethod
    def write_state(self, state: S) -> dict[str, Any]:
        """The state's own fields as JSON-safe data (``to_dict`` adds the envelope)."""

    @abstractmethod
    def read_state(self, data: Mapping[str, Any]) -> S:
        """The state from data in the current format (envelope included and already checked), every
        field validated: anything inconsistent is a StateError naming the field. Rules for a game's
        *start* (a fair map) are not checked here: play moves a position away from them."""

    def check_envelope(
        self,
        data: Mapping[str, Any],
        upgrades: Mapping[int, Callable[[Mapping[str, Any]], dict[str, Any]]] | None = None,
    ) -> Mapping[str, Any]:
        """Refuse serialized state of another ruleset or an unknown format. ``upgrades[v]`` turns
        version ``v`` data into version ``v + 1``, so games saved by older code keep loading; the
        data comes back in the current format."""
        if not isinstance(data, Mapping):
            raise StateError(f"{self.name} state must be an object, not {type(data).__name__}")
        if data.get("ruleset") != self.name:
            raise StateError(f"state is for ruleset {stored.shown(data.get('ruleset'))}, not {self.name!r}")
        upgrades = upgrades or {}
        while type(version := data.get("version")) is int and version in upgrades:
            try:
                data = {**upgrades[version](data), "version": version + 1}
            except (KeyError, TypeError, ValueError, AttributeError) as err:
                raise StateError(
                    f"{self.name} state version {version} is damaged: {type(err).__name__}: {err}"
                ) from None
        if type(data.get("version")) is not int or data["version"] != self.state_version:
            raise StateError(
                f"{self.name} state version {stored.shown(data.get('version'))} is not {self.state_version}"
            )
        return data
