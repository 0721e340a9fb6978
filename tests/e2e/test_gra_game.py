"""A gra game through Discord on the small "fork" map: secret picks, moves, a creating phase played
by one player only, a capture that splits the other's land, his choice of the part to keep, and the
end. Every phase is played with the slash commands players use."""

from __future__ import annotations

from tests.e2e.conftest import button, decode_png


def resolved(message, turn: str) -> bool:
    """The post of a resolved turn: "**Move phase 3 of 300.**" (gra names each turn after its phase,
    and numbers move phases as its turn limit counts them)."""
    return message.content.startswith(f"**{turn}.**")


def asked(message, turn: str) -> bool:
    """The ping that asks for a turn's orders: "@alice — creating phase 3: …"."""
    return f"— {turn}:" in message.content


async def test_gra_game_with_a_split_territory(table):
    fake = table.fake
    thread = await table.start_game(ruleset="gra", map="fork", max_players=2)

    # Negotiation: secret picks, previewed privately.
    await fake.slash(table.alice, thread, "orders give", text="pick 2 5")
    shown = await fake.slash(table.alice, thread, "orders show")
    preview = (await shown.settled()).message
    assert preview.ephemeral and "pick 2 5" in preview.content
    decode_png(preview.attachments[0].data)
    assert all("pick 2 5" not in m.text() for m in fake.visible_to(table.bob))
    await fake.slash(table.alice, thread, "orders pass")
    await fake.slash(table.bob, thread, "orders send", text="pick 5 2")
    await table.post(lambda m: resolved(m, "Start pick 1") and "starts on node" in m.content)

    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    state = table.bot.service.master.games.ruleset(game.row).from_dict(game.row.state)
    users = {p.seat: (table.alice if p.user_id == table.alice.id else table.bob) for p in game.players}
    hub = users[state.ready[2][0]]  # whoever starts on node 2 will be cut in two
    raider = users[state.ready[5][0]]

    for user, text in ((hub, "2>3"), (raider, "5>4")):
        sent = await fake.slash(user, thread, "orders send", text=text)
        assert sent.ephemeral and "⚠️" not in sent.content
    await table.post(lambda m: resolved(m, "Move phase 1 of 300"))
    await fake.slash(hub, thread, "orders send", text="3>2")
    await fake.slash(raider, thread, "orders pass")  # his soldier stays on node 4
    await table.post(lambda m: resolved(m, "Move phase 2 of 300"))
    await fake.slash(hub, thread, "orders send", text="2>1")
    await fake.slash(raider, thread, "orders pass")
    await table.post(lambda m: resolved(m, "Move phase 3 of 300"))

    # The creating phase: only the hub player (3 nodes, cap 2) plays it.
    ping = await table.post(lambda m: asked(m, "creating phase 3"))
    assert f"<@{hub.id}>" in ping.content and f"<@{raider.id}>" not in ping.content
    refused = await fake.slash(raider, thread, "orders send", text="create 4")
    assert refused.ephemeral and "not your turn" in refused.content
    await fake.slash(hub, thread, "orders send", text="create 1")
    await table.post(lambda m: resolved(m, "Creating phase 3") and "new soldier" in m.content)

    # The raider takes the empty hub node 2: the hub player's land falls into {1} and {3}.
    await fake.slash(raider, thread, "orders send", text="4>2")
    await fake.slash(hub, thread, "orders pass")
    cut = await table.post(lambda m: resolved(m, "Move phase 4 of 300") and "captured node 2" in m.content)
    decode_png(cut.attachments[0].data)
    ping = await table.post(lambda m: asked(m, "split choice 4"))
    assert f"<@{hub.id}>" in ping.content and "split choice 4" in ping.content and "`keep 17`" in ping.content
    info = await fake.slash(hub, thread, "game info")
    assert "Split choice 4" in str(info.embeds) and "keep the part" in str(info.embeds)
    choices = await fake.autocomplete(hub, thread, "orders send", focused="text", value="keep")
    assert {c["value"] for c in choices} == {"keep 1", "keep 3"}
    wrong = await fake.slash(hub, thread, "orders send", text="keep 2")
    assert wrong.ephemeral and "node 2 is not yours" in wrong.content
    await fake.slash(hub, thread, "orders send", text="keep 1")
    kept = await table.post(lambda m: resolved(m, "Split choice 4") and "cut-off part" in m.content)
    decode_png(kept.attachments[0].data)
    game = await table.bot.service.master.games.get_game(game.id)
    state = table.bot.service.master.games.ruleset(game.row).from_dict(game.row.state)
    hub_seat = next(p.seat for p in game.players if p.user_id == hub.id)
    assert state.territory(hub_seat) == [1] and 3 not in state.owners

    # The raider surrenders: the game is over.
    question = await fake.slash(raider, thread, "game surrender")
    await fake.click(raider, question.message, button(question.message, "Surrender"))
    over = await table.post(lambda m: "is over" in m.content)
    assert f"<@{hub.id}>" in over.content
