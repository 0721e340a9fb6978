"""What players read in a conquest game: autocomplete that counts the units already ordered, a
refusal that names whose cell it is, and a final standing that says "1 point"."""

from __future__ import annotations

from engine import find_ruleset
from tests.e2e.conftest import button

RS = find_ruleset("conquest")


async def test_autocomplete_and_final_standing(table):
    fake = table.fake
    thread = await table.start_game(ruleset="conquest", size="small", turn_time=86400)
    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    seat = {p.user_id: p.seat for p in game.players}
    state = RS.from_dict(game.row.state)
    home = state.cells_of(seat[table.alice.id])[0]
    first, second = sorted(n for n in home.neighbours() if n in state.cells)[:2]

    head = f"{home.label.lower()}>{first.label.lower()} 4;"
    choices = await fake.autocomplete(table.alice, thread, "orders give", focused="text", value=f"{head} {home.label}")
    values = [c["value"] for c in choices]
    assert f"{head} {home.label}>{second.label} 6" in values  # 10 units, 4 already ordered; typed as typed
    assert not any(value.endswith(" 10") for value in values)

    asked = await fake.slash(table.bob, thread, "game surrender")
    await fake.click(table.bob, asked.message, button(asked.message, "Surrender"))
    over = await table.post(lambda m: "is over" in m.content)
    assert "— 1 point" in over.content and "1 points" not in over.content


async def test_an_order_from_someone_elses_cell_names_its_owner(table):
    fake = table.fake
    thread = await table.start_game(ruleset="conquest", size="small", turn_time=86400)
    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    bob = game.player_of(table.bob.id)
    state = RS.from_dict(game.row.state)
    theirs = state.cells_of(bob.seat)[0]
    target = sorted(n for n in theirs.neighbours() if n in state.cells)[0]
    refused = await fake.slash(table.alice, thread, "orders give", text=f"{theirs.label}>{target.label} 1")
    colour = ("red", "blue")[bob.seat]
    assert f"{theirs.label} belongs to bob ({colour}), not to you" in refused.content
    passed = await fake.slash(table.alice, thread, "orders send", text=f"{theirs.label}>{target.label} 1")
    assert f"belongs to bob ({colour})" in passed.content
