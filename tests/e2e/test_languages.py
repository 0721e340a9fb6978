"""The bot in three languages: commands synced with their Ukrainian and Chinese names and
descriptions, a reply in the asking user's own language, and a server whose manager chose Chinese
getting Chinese lobby cards, round posts, reminders and boards."""

from __future__ import annotations

import pytest

from i18n import tr, using
from tests.e2e.conftest import button, decode_png
from tests.fakediscord.users import SimulationError

DAY = 86400
CONQUEST = {"size": "small", "max_players": 2, "turn_time": DAY}


def synced(table, name: str) -> dict:
    return next(c for c in table.fake.commands() if c["name"] == name)


def option(command: dict, name: str) -> dict:
    return next(o for o in command["options"] if o["name"] == name)


async def test_commands_are_synced_with_their_translations(table):
    game = synced(table, "game")
    assert game["name_localizations"] == {"uk": "гра", "zh-CN": "游戏"}
    assert game["description_localizations"]["uk"] == "Створюйте ігри, приєднуйтеся й стежте за ними"
    join = option(game, "join")
    assert join["name_localizations"] == {"uk": "приєднатися", "zh-CN": "加入"}
    assert option(join, "game")["description_localizations"]["zh-CN"] == "游戏编号"
    conquest = option(option(game, "create"), "conquest")
    assert conquest["description_localizations"]["uk"] == "Завоювання для 2–6 гравців"
    assert "en-US" not in game.get("name_localizations", {})  # English is the source text

    def clashes(siblings: list[dict]) -> list[str]:
        """Names shown twice at one level in some language (Discord could not tell them apart)."""
        found = []
        for locale in ("uk", "zh-CN"):
            shown = [(c.get("name_localizations") or {}).get(locale, c["name"]) for c in siblings]
            found += [f"{locale}:{name}" for name in set(shown) if shown.count(name) > 1]
        for c in siblings:
            found += clashes(c.get("options") or [])
        return found

    assert clashes(table.fake.commands()) == []


async def test_a_reply_is_in_the_language_of_the_user_who_asked(table):
    table.bob.locale = "uk"
    table.carol.locale = "de"  # a language the bot does not speak: the server's (English)
    ukrainian = await table.fake.slash(table.bob, table.channel, "game list")
    assert (
        ukrainian.ephemeral and ukrainian.content == "Тут немає відкритих ігор. Створіть гру командою `/гра створити`."
    )
    english = await table.fake.slash(table.carol, table.channel, "game list")
    assert english.content == "No open games here. Start one with `/game create`."
    refused = await table.fake.slash(table.bob, table.channel, "game join", game=999)
    assert refused.ephemeral and "⚠️" in refused.content


async def test_only_a_manager_chooses_the_server_language(table):
    with pytest.raises(SimulationError, match="cannot see /config"):
        await table.fake.slash(table.carol, table.channel, "config language", language="uk")
    shown = await table.fake.slash(table.mod, table.channel, "config language")
    assert shown.content == "This server's games are posted in English."
    chosen = await table.fake.slash(table.mod, table.channel, "config language", language="zh_Hans")
    assert chosen.content.startswith("从现在起")
    again = await table.fake.slash(table.mod, table.channel, "config language")  # his client speaks English
    assert again.content == "This server's games are posted in 简体中文."
    table.mod.locale = "de"  # a language the bot does not speak: the server's
    chinese = await table.fake.slash(table.mod, table.channel, "config language")
    assert chinese.content == "本服务器的游戏发布语言：简体中文。"


async def test_a_chinese_server_gets_chinese_posts_and_boards(table):
    fake = table.fake
    await fake.slash(table.mod, table.channel, "config language", language="zh_Hans")
    table.alice.locale = "en-US"
    made = await fake.slash(table.alice, table.channel, "game create conquest", **CONQUEST)
    assert made.content.startswith("Game #1 is open")  # Alice reads English; the channel reads Chinese
    lobby = next(m for m in fake.channel_messages(table.channel) if m.components)
    assert "等待玩家加入" in str(lobby.embeds)
    await fake.click(table.bob, lobby, button(lobby, "加入"))
    await fake.click(table.alice, lobby, button(lobby, "开始"))
    started = await table.post(lambda m: "开始了！" in m.content)
    assert "规则：`/规则 conquest`" in started.content  # the command as a Chinese client names it
    card = fake.message(lobby.id)  # the lobby card, kept up to date, names the map the game generated
    assert {"name": "地图", "value": "随机生成 小 · 2 名玩家", "inline": True} in card.embeds[0]["fields"]
    decode_png(started.attachments[0].data)

    table.bob.locale = "uk"  # his own mistakes are explained in his language, whatever the server's
    bad = await fake.slash(table.bob, table.thread(), "orders give", text="Z99>Z98 2")
    assert bad.ephemeral and "'z99>z98 2': Z99 — не клітинка цієї карти" in bad.content
    await fake.slash(table.alice, table.thread(), "orders pass")
    await fake.slash(table.bob, table.thread(), "orders pass")
    resolved = await table.post(lambda m: m.content.startswith("**第 1 回合。**"))
    image = decode_png(resolved.attachments[0].data)

    service = table.bot.service
    game = (await service.master.lookup.list_games(table.guild.id))[0]
    seq = game.row.turn  # the board after the first round, as the post showed it
    with using("zh_Hans"):
        chinese = (await service.presenter.board(game, seq=seq)).data
    english = (await service.presenter.board(game, seq=seq)).data
    assert resolved.attachments[0].data == chinese != english
    assert image.width == decode_png(english).width
    with using("zh_Hans"):
        assert tr("moved last round") == "上一回合的移动"


async def test_rules_and_tutorial_speak_the_readers_language(table):
    fake = table.fake
    table.bob.locale, table.carol.locale = "uk", "zh-CN"
    rules = await fake.slash(table.bob, table.channel, "rules", ruleset="conquest")
    [embed] = rules.embeds
    assert embed["title"] == "Завоювання (гравців: 2–6)" and "**Накази** (розділяйте `;`)" in embed["description"]
    assert "`C4>C5 3`" in embed["description"]  # order notation stays as it is written
    page = await (await fake.slash(table.carol, table.channel, "tutorial", ruleset="ranks")).settled()
    assert page.content.startswith("**第 1 页，共 5 页**\n**棋盘。**")
    first = decode_png(page.message.attachments[0].data)
    turned = await fake.click(table.carol, page.message, button(page.message, "下一页 ▶"))
    await turned.wait_for(lambda h: "第 2 页" in fake.message(page.message.id).content)
    shown = fake.message(page.message.id)
    assert "**生成。**" in shown.content and decode_png(shown.attachments[0].data).width == first.width


async def test_refusals_maps_and_levels_in_the_readers_language(table):
    """The rare refusals (options that do not go together, a map the game does not ship), the maps'
    and computer levels' names and the commands quoted in replies, in the reader's language; what is
    stored and typed stays the ids."""
    fake = table.fake
    table.bob.locale, table.carol.locale = "uk", "zh-CN"
    await fake.slash(table.mod, table.channel, "config language", language="zh_Hans")
    clash = await fake.slash(table.bob, table.channel, "game create siege", increment=2)
    assert clash.ephemeral and clash.content == (
        "⚠️ прибавка діє лише із шаховим годинником; виберіть його параметром годинник"
    )
    unknown = await fake.slash(table.carol, table.channel, "game create conquest", map="nowhere")
    assert unknown.ephemeral and unknown.content == "⚠️ 未知地图 'nowhere'；内置地图：王冠 (crown)、对决 (duel)"
    offered = await fake.autocomplete(table.carol, table.channel, "game create conquest", focused="map", value="王")
    assert offered == [{"name": "王冠", "value": "crown"}]
    times = await fake.autocomplete(table.bob, table.channel, "game create conquest", focused="turn_time", value="дн")
    assert times == [
        {"name": "2 дні", "value": 2 * DAY},
        {"name": "3 дні", "value": 3 * DAY},
        {"name": "7 днів", "value": 7 * DAY},
    ]
    typed = await fake.slash(table.bob, table.channel, "game create conquest", turn_time=5)  # typed, not picked
    assert typed.ephemeral and "=5 " in typed.content and "1 день" in typed.content, typed.content
    assert await table.bot.service.master.lookup.list_games(table.guild.id) == []  # nothing was opened

    made = await fake.slash(table.bob, table.channel, "game create conquest", map="duel", turn_time=DAY)
    assert made.content.endswith("кнопкою **Приєднатися** або `/гра приєднатися гра:1`.")
    thread = table.thread()
    preview = await table.post(lambda m: bool(m.attachments))  # public: all of it in the server's language
    assert preview.content == "地图：**对决**——本局游戏的初始棋盘。"
    levels = await fake.autocomplete(table.bob, thread, "game add-ai", focused="level", value="")
    assert [(c["name"], c["value"]) for c in levels] == [
        ("Легкий", "Easy"),
        ("Середній", "Medium"),
        ("Складний", "Hard"),
        ("Екстремальний", "Extreme"),
    ]
    added = await fake.slash(table.bob, thread, "game add-ai", level="Hard")
    assert added.content == "Комп’ютер 1 (Складний) приєднується до гри №1."
    lobby = next(m for m in fake.channel_messages(table.channel) if m.components)
    await added.wait_for(lambda h: "🤖" in str(fake.message(lobby.id).embeds))  # the card, redrawn
    card = str(fake.message(lobby.id).embeds)  # what everyone reads: the server's language
    assert "🤖 电脑 1（困难）" in card and "地图: 对决" in card
    info = await fake.slash(table.bob, thread, "game info")
    assert "🤖 Комп’ютер 1 (Складний)" in str(info.embeds) and "карта: дуель" in str(info.embeds)
    game = (await table.bot.service.master.lookup.list_games(table.guild.id))[0]
    assert [(p.name, p.ai_level) for p in game.players if p.is_ai] == [("Computer 1 (Hard)", "Hard")]
    assert game.row.options["map"] == "duel"
