"""The plug-in shape: a game kept in its own folders (``tests/plugin/tug/`` and ``tests/*/tug/``),
found by ``discover`` and handed to the bot at run time, is served like a shipped one — its own
create options, rules, events, turn name, board images drawn in the worker processes, and a
computer player searched there too."""

from __future__ import annotations

import pathlib
import re
import subprocess

import pytest

from engine import RULESETS
from engine.registry import discover
from tests.e2e.conftest import button, decode_png, open_table

HOUR = 3600
ROOT = pathlib.Path(__file__).resolve().parents[3]
NAMED = re.compile(r"\btug\b", re.IGNORECASE)


@pytest.fixture
async def tug_table(tmp_path, cpu_pool):
    async with open_table(tmp_path, cpu_pool, {**RULESETS, **discover("tests.plugin")}) as setup:
        yield setup


def outside_its_folders() -> list[pathlib.Path]:
    """The project's files (those git keeps, and new ones it would keep) outside any folder named tug."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return [ROOT / name for name in listed if "tug" not in pathlib.PurePosixPath(name).parts[:-1]]


def test_nothing_outside_its_own_folders_names_the_test_game():
    files = outside_its_folders()
    assert ROOT / "README.md" in files and ROOT / "engine" / "registry.py" in files
    naming = [
        path for path in files if path.is_file() and NAMED.search(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert naming == []


def test_discovery_finds_the_test_game_in_its_own_package_only():
    assert list(discover("tests.plugin")) == ["tug"] and "tug" not in RULESETS


async def test_a_game_only_a_test_knows_is_played_to_the_end(tug_table):
    table, fake = tug_table, tug_table.fake

    # Its menu: the create options come from its schema, with their kinds, ranges and labels.
    [game_command] = [c for c in fake.commands() if c["name"] == "game"]
    create = next(o for o in game_command["options"] if o["name"] == "create")
    tug = {o["name"]: o for o in next(o for o in create["options"] if o["name"] == "tug")["options"]}
    assert tug["goal"]["type"] == 4 and (tug["goal"]["min_value"], tug["goal"]["max_value"]) == (3, 20)
    assert tug["style"]["autocomplete"] and tug["doubled"]["type"] == 5
    styles = await fake.autocomplete(table.alice, table.channel, "game create tug", focused="style", value="")
    assert [c["name"] for c in styles] == ["Bars", "Dots"]
    assert tug["max_players"]["max_value"] == 3 and "size" not in tug
    rules = await fake.slash(table.alice, table.channel, "rules", ruleset="tug")
    assert rules.ephemeral and "pull 3" in str(rules.embeds)
    offered = await fake.autocomplete(table.alice, table.channel, "rules", focused="ruleset", value="tu")
    assert [c["value"] for c in offered] == ["tug"]

    # Its tutorial: real positions drawn by its own renderer, paged with buttons.
    none = await fake.slash(table.alice, table.channel, "tutorial", ruleset="chess")  # every shipped game has one
    assert "'chess' has no tutorial yet" in (await none.settled()).content
    offered = await fake.autocomplete(table.alice, table.channel, "tutorial", focused="ruleset", value="tu")
    assert [c["value"] for c in offered] == ["tug"]
    first = await (await fake.slash(table.alice, table.channel, "tutorial", ruleset="tug")).settled()
    assert first.ephemeral and first.content.startswith("**Page 1 of 2**\nEach turn, everyone pulls")
    decode_png(first.message.attachments[0].data)
    turned = await fake.click(table.alice, first.message, button(first.message, "Next ▶"))
    await turned.wait_for(lambda h: "Page 2 of 2" in fake.message(first.message.id).content)
    page_two = fake.message(first.message.id)
    assert "first to the goal wins" in page_two.content and len(page_two.attachments) == 1
    assert [c.get("disabled", False) for c in page_two.iter_components() if c.get("label")] == [False, True]

    lobby = await table.open_lobby("tug", goal=8, style="dots", doubled=True, turn_time=HOUR)
    thread = table.thread()
    await fake.click(table.bob, lobby, button(lobby, "Join"))
    offered = await fake.autocomplete(table.alice, thread, "game add-ai", focused="level", value="")
    assert [c["value"] for c in offered] == ["weak", "strong"]
    refused = await fake.slash(table.alice, thread, "game add-ai", level="grandmaster")
    assert refused.ephemeral and "levels: weak, strong" in refused.content
    added = await fake.slash(table.alice, thread, "game add-ai", level="strong")
    assert added.ephemeral and "Computer 1 (strong) joined game #1" in added.content
    info = await fake.slash(table.alice, thread, "game info")
    assert "goal: 8" in str(info.embeds) and "style: Dots" in str(info.embeds) and "doubled: True" in str(info.embeds)
    await fake.click(table.alice, lobby, button(lobby, "Start"))
    started = await table.post(lambda m: "has started" in m.content)
    decode_png(started.attachments[0].data)
    await table.post(lambda m: "pull 1: give your orders" in m.content)

    # Pull 1: secret pulls, a refused one, autocomplete from the game's own suggestions.
    offered = await fake.autocomplete(table.alice, thread, "orders give", focused="text", value="pu")
    assert [c["value"] for c in offered] == ["pull 1", "pull 2", "pull 3"]
    refused = await fake.slash(table.alice, thread, "orders give", text="pull 5")
    assert refused.ephemeral and "pull 1 to 3" in refused.content
    given = await fake.slash(table.alice, thread, "orders give", text="pull 3")
    assert given.ephemeral and "Game #1, pull 1 — your orders" in given.content
    preview = await fake.slash(table.alice, thread, "orders show")
    decode_png(preview.message.attachments[0].data)
    assert all("pull 3" not in m.text() for m in fake.visible_to(table.bob))
    await fake.slash(table.alice, thread, "orders pass")
    await fake.slash(table.bob, thread, "orders send", text="pull 1")
    first = await table.post(lambda m: m.content.startswith("**Pull 1.**"))
    assert "pulled 6 and has 6" in first.content and "pulled 1 and has 1" not in first.content  # doubled
    assert "pulled 2 and has 2" in first.content
    decode_png(first.attachments[0].data)

    # Pull 2: Bob misses the deadline; Alice and the computer both reach the goal and share the win.
    await fake.slash(table.alice, thread, "orders send", text="pull 3")
    await table.tick(HOUR)
    second = await table.post(lambda m: m.content.startswith("**Pull 2.**"))
    assert "The goal is reached by" in second.content
    over = await table.post(lambda m: "is over" in m.content)
    assert "Draw between" in over.content and f"<@{table.alice.id}>" in over.content
    assert not over.attachments and second.attachments  # the final position is posted once
    final = await fake.slash(table.alice, thread, "game board")
    assert "final position" in final.content
    decode_png(final.message.attachments[0].data)
