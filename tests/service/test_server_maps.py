""" "`/map upload ruleset: file:` (a JSON file in the ruleset's explicit map format …), `/map list`,
`/map show name:` (preview image and facts), `/map delete` (its author or Manage Server), and `map:`
at `/game create` offering the server's maps beside the shipped ones." """

from __future__ import annotations

import json
import pathlib
from importlib import resources

import pytest

from engine import RULESETS, EngineError
from service.errors import GameError, NotAllowed
from service.models import Actor
from service.ops.lobby import playable_options, shipped_maps
from service.ops.maps import LISTED as MAPS_LISTED
from service.ops.maps import MAX_BYTES, MAX_MAPS
from service.presenter import Presenter
from service.runtime.workers import CpuPool
from tests.service.conftest import ADMIN, ALICE, BOB, GUILD

PNG = b"\x89PNG\r\n\x1a\n"
README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def shipped_file(ruleset: str, name: str) -> bytes:
    return (resources.files(f"engine.{ruleset}") / "maps" / f"{name}.json").read_bytes()


def renamed(ruleset: str, shipped: str, name: str) -> bytes:
    data = json.loads(shipped_file(ruleset, shipped))
    return json.dumps({**data, "name": name}).encode()


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
async def test_every_rulesets_map_format_is_uploaded_shown_and_played(env, ruleset):
    """Each game's own map format: a shipped map's file, renamed, is the server's; a game starts on it."""
    shipped = shipped_maps(RULESETS[ruleset])[0]
    made = await env.master.maps.upload(GUILD, ALICE, ruleset, renamed(ruleset, shipped, "Home ground"), None)
    assert made.name == "Home ground" and made.seats and made.author_id == ALICE.user_id
    assert [m.name for m in await env.master.maps.of_server(GUILD)] == ["Home ground"]
    presenter = Presenter(env.master.games, env.master.history, CpuPool(workers=0))
    assert (await presenter.server_map_preview(made)).data.startswith(PNG)

    lobby, _ = await env.master.lobby.open_game(
        guild_id=GUILD,
        channel_id=7,
        actor=ALICE,
        ruleset=ruleset,
        chosen={"map": "home ground"},
    )
    assert lobby.row.options["map"] == made.data  # a copy: the game keeps it
    # with what the map needs left unset set for it (fortress' first map has water: mode 2)
    assert lobby.row.options == playable_options(RULESETS[ruleset], made.data)
    await env.master.maps.delete(GUILD, "HOME GROUND", ALICE)
    assert await env.master.maps.of_server(GUILD) == []
    for _ in range(min(made.seats) - 1):
        lobby = await env.master.lobby.add_ai(lobby.id, ALICE)
    started = await env.master.lobby.start_game(lobby.id, ALICE)
    assert started.row.status == "running" and presenter.chosen_map(started) == "Home ground"


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
async def test_the_example_rules_and_the_readme_give_is_a_map_the_server_can_keep(env, ruleset):
    """ "documented in /rules and the README with an example per ruleset" """
    example = RULESETS[ruleset].map_example
    text = json.dumps(example, ensure_ascii=False)
    assert text in README.read_text(encoding="utf-8"), f"the README lacks {ruleset}'s example: {text}"
    made = await env.master.maps.upload(GUILD, ALICE, ruleset, text.encode(), None)
    assert made.name == example["name"] and made.seats == (2,)


@pytest.mark.parametrize("ruleset", sorted(name for name, rs in RULESETS.items() if rs.map_grid))
async def test_a_map_drawn_as_text_is_kept_named_as_its_file_is(env, ruleset):
    """ "or for the grid games a text grid, documented in /rules and the README" """
    rs = RULESETS[ruleset]
    assert rs.map_grid is not None and rs.map_example is not None
    drawing = rs.map_grid.draw(rs.map_example)
    assert drawing in README.read_text(encoding="utf-8"), f"the README lacks {ruleset}'s text grid:\n{drawing}"
    made = await env.master.maps.upload(
        GUILD, ALICE, ruleset, drawing.encode(), None, file_name="Drawn_map.txt"
    )  # Discord: spaces as _
    assert made.name == "Drawn map" and made.seats == (2,)
    assert made.data == {**rs.map_grid.read(drawing), "name": "Drawn map"}
    with pytest.raises(GameError) as caught:
        await env.master.maps.upload(GUILD, ALICE, ruleset, b"? . .\n. .\n. . .", None, file_name="my-map!.txt")
    lines = str(caught.value).splitlines()
    assert lines[0] == "This map cannot be played:" and "not 'my-map!'" in lines[1], lines
    assert "- grid row 2 has 2 cells; the others have 3" in lines and any(
        "row 1, column 1: '?'" in line for line in lines
    )


async def test_a_file_that_is_no_map_is_refused_saying_why(env):
    async def refused(content: bytes, name: str | None = "Any") -> str:
        with pytest.raises(GameError) as caught:
            await env.master.maps.upload(GUILD, ALICE, "conquest", content, name)
        return str(caught.value)

    assert "not JSON: line 2, column 1" in await refused(b'{"layout": ["n n"],\n}')
    assert "not UTF-8" in await refused(b"\xff\xfe{}")
    assert "a map is a JSON object" in await refused(b"[1, 2]")
    assert f"at most {MAX_BYTES // 1024} KB" in await refused(b" " * (MAX_BYTES + 1))
    assert "cannot be played:\n- map layout must be a list of rows" in await refused(b'{"layout": 5}')
    assert "1 to 40 letters" in await refused(shipped_file("conquest", "duel"), "**bold**")
    assert "1 to 40 letters" in await refused(shipped_file("conquest", "duel"), "snake_case")  # _ italicises
    assert "shipped map" in await refused(shipped_file("conquest", "duel"), "generated-medium-3p")
    assert "'note' is no entry of a Conquest map (its entries: garrisons, layout, name, starts)" in await refused(
        b'{"layout": ["n n"], "note": "kept in every game"}'
    )
    assert "a number too long" in await refused(b'{"size": ' + b"9" * 5000 + b"}")
    assert "shipped map" in await refused(shipped_file("conquest", "duel"), "Duel")
    with pytest.raises(GameError, match="unknown game"):
        await env.master.maps.upload(GUILD, ALICE, "chess", shipped_file("conquest", "duel"), "Mine")
    assert await env.master.maps.of_server(GUILD) == []  # nothing kept


async def test_a_refusal_lists_every_problem_of_the_file_at_once(env):
    """The name, an entry the format lacks and each wrong cell are named together, one a line; a file
    with more problems than a message holds lists the first ones and counts the rest."""
    broken = {"layout": ["n x n", "q n n"], "starts": {"2": ["A1", "B1"]}, "note": "mine"}
    with pytest.raises(GameError) as caught:
        await env.master.maps.upload(GUILD, ALICE, "conquest", json.dumps(broken).encode(), "my_map")
    assert str(caught.value).splitlines() == [
        "This map cannot be played:",
        "- a map's name is 1 to 40 letters, digits, spaces and - ' . (give one with name:), not 'my_map'",
        "- 'note' is no entry of a Conquest map (its entries: garrisons, layout, name, starts)",
        "- layout row 1, column 2: 'x' is not one of n, b, s, g, .",
        "- layout row 2, column 1: 'q' is not one of n, b, s, g, .",
    ]
    many = {"layout": ["x " * 20], "starts": {"2": ["A1", "B1"]}}
    with pytest.raises(GameError) as caught:
        await env.master.maps.upload(GUILD, ALICE, "conquest", json.dumps(many).encode(), "Many")
    lines = str(caught.value).splitlines()
    assert len(lines) == 1 + MAPS_LISTED + 1 and lines[-1] == f"… and {20 - MAPS_LISTED} more problems"
    long = {"layout": [" ".join(["x" * 250] * 20)], "starts": {"2": ["A1", "B1"]}}  # long problems: fewer fit
    with pytest.raises(GameError) as caught:
        await env.master.maps.upload(GUILD, ALICE, "conquest", json.dumps(long).encode(), "Long")
    said = str(caught.value)
    shown = said.count("\n- ")
    assert len(said) <= 1800 and 1 < shown < MAPS_LISTED and said.endswith(f"… and {20 - shown} more problems")
    assert await env.master.maps.of_server(GUILD) == []


async def test_names_are_the_servers_own_and_only_the_author_or_a_manager_deletes(env):
    duel = shipped_file("conquest", "duel")
    await env.master.maps.upload(GUILD, ALICE, "conquest", duel, "Arena")
    with pytest.raises(GameError, match="already has a map named Arena"):
        await env.master.maps.upload(GUILD, BOB, "conquest", duel, "arena")
    await env.master.maps.upload(GUILD + 1, BOB, "conquest", duel, "arena")  # another server's name
    with pytest.raises(NotAllowed, match="author or a server manager"):
        await env.master.maps.delete(GUILD, "arena", BOB)
    with pytest.raises(GameError, match="no map named Nowhere"):
        await env.master.maps.named(GUILD, "Nowhere")
    await env.master.maps.delete(GUILD, "arena", ADMIN)
    assert await env.master.maps.of_server(GUILD) == []


async def test_a_server_keeps_a_bounded_number_of_maps(env):
    duel = shipped_file("conquest", "duel")
    for n in range(MAX_MAPS):
        await env.master.maps.upload(GUILD, ALICE, "conquest", duel, f"Map {n}")
    with pytest.raises(GameError, match=f"keeps {MAX_MAPS} maps"):
        await env.master.maps.upload(GUILD, ALICE, "conquest", duel, "One more")


async def test_another_rulesets_or_servers_map_is_not_found_at_create(env):
    await env.master.maps.upload(GUILD, ALICE, "conquest", shipped_file("conquest", "duel"), "Arena")
    for guild, ruleset in ((GUILD + 1, "conquest"), (GUILD, "siege")):
        with pytest.raises(Exception, match="unknown map 'Arena'; shipped maps: [^;]*$"):
            await env.master.lobby.open_game(
                guild_id=guild, channel_id=7, actor=Actor(9, "Zed"), ruleset=ruleset, chosen={"map": "Arena"}
            )
    with pytest.raises(GameError, match="unknown map 'Aren'; shipped maps: .*duel.*; this server's: Arena$"):
        await env.master.lobby.open_game(
            guild_id=GUILD, channel_id=7, actor=Actor(9, "Zed"), ruleset="conquest", chosen={"map": "Aren"}
        )


async def test_a_published_map_is_found_and_copied_by_another_server(env):
    """ "Sharing: a server may publish a map; other servers can find and copy published maps." """
    arena = await env.master.maps.upload(GUILD, ALICE, "conquest", shipped_file("conquest", "duel"), "Arena")
    assert await env.master.maps.published() == []
    with pytest.raises(GameError, match="no published map"):
        await env.master.maps.copy(GUILD + 1, arena.id, BOB, None)  # not published: not found
    with pytest.raises(NotAllowed, match="author or a server manager can publish"):
        await env.master.maps.publish(GUILD, "arena", BOB, True)
    assert (await env.master.maps.publish(GUILD, "arena", ALICE, True)).published_at is not None
    assert [m.name for m in await env.master.maps.published("conquest")] == ["Arena"]
    assert await env.master.maps.published("siege") == []

    copied = await env.master.maps.copy(GUILD + 1, arena.id, BOB, None)
    assert (copied.guild_id, copied.name, copied.data, copied.author_id) == (
        GUILD + 1,
        "Arena",
        arena.data,
        BOB.user_id,
    )
    with pytest.raises(GameError, match="already has a map named Arena"):
        await env.master.maps.copy(GUILD + 1, arena.id, BOB, None)
    assert (await env.master.maps.copy(GUILD + 1, arena.id, BOB, "Arena two")).name == "Arena two"

    await env.master.maps.publish(GUILD, "arena", ADMIN, False)
    assert await env.master.maps.published() == []
    await env.master.maps.delete(GUILD, "arena", ALICE)
    assert [m.name for m in await env.master.maps.of_server(GUILD + 1)] == ["Arena", "Arena two"]  # copies stay


async def test_a_map_named_in_any_script_is_kept_and_listed_as_named(env):
    for name in ("Долина вітрів", "山谷"):
        await env.master.maps.upload(GUILD, ALICE, "conquest", shipped_file("conquest", "duel"), name)
    listed = await env.master.maps.of_server(GUILD)
    assert sorted(m.name for m in listed) == ["Долина вітрів", "山谷"] and all(m.data["name"] == m.name for m in listed)
    assert sorted(await env.master.maps.names(GUILD, "conquest")) == ["Долина вітрів", "山谷"]


async def test_an_option_the_creator_sets_is_kept_even_where_the_map_needs_another(env):
    """A map with water needs fortress mode 2 or 3: left unset it is set, chosen as 1 it is refused."""
    await env.master.maps.upload(GUILD, ALICE, "fortress", shipped_file("fortress", "lakes"), "Lake shore")
    for name in ("Lake shore", "lakes"):  # the server's map, the shipped one
        with pytest.raises(EngineError, match="use mode 2 or 3"):
            await env.master.lobby.open_game(
                guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="fortress", chosen={"map": name, "mode": 1}
            )
        lobby, _ = await env.master.lobby.open_game(
            guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="fortress", chosen={"map": name, "mode": 3}
        )
        assert lobby.row.options["mode"] == 3
        await env.master.lobby.cancel(lobby.id, ALICE)


async def test_a_lobby_on_a_server_map_says_which_player_counts_it_starts_with(env):
    crown = await env.master.maps.upload(GUILD, ALICE, "conquest", shipped_file("conquest", "crown"), "Crown two")
    lobby, _ = await env.master.lobby.open_game(
        guild_id=GUILD, channel_id=7, actor=ALICE, ruleset="conquest", chosen={"map": "Crown two"}
    )
    presenter = Presenter(env.master.games, env.master.history, CpuPool(workers=0))
    assert presenter.seat_counts(lobby) == crown.seats == (2, 3, 4, 6)
