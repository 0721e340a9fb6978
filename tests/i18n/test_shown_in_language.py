"""What players read beyond the catalog's sentences: commands quoted by their localised names, the
names of shipped maps and computer levels, computer players, and the rare refusals of the engine
and the game master, in Ukrainian and Chinese; what is stored (ids, English names) never changes."""

from __future__ import annotations

import re

import pytest

from engine import RULESETS, MapError, OptionError
from engine.conquest.board import ConquestMap
from engine.siege.board import SiegeMap
from i18n import joined, level_title, map_title, tr, using
from i18n.commands import localised, register
from service.gameoptions import settle
from service.models import PlayerRow, TimeSettings
from service.ops.ratings import Standing
from service.timing import check_settings

TRANSLATED = ("uk", "zh_Hans")
NAMES = {"game": "гра", "join": "приєднатися", "create": "створити", "conquest": "завоювання", "map": "карта"}
NAMES |= {"rules": "правила", "orders": "накази", "give": "віддати", "text": "текст"}


@pytest.fixture(autouse=True)
def commands():
    """A few of the bot's real commands, as the bot registers its tree (registering adds to what is known)."""
    register(
        {
            "game": [],
            "game join": ["game"],
            "game create": [],
            "game create conquest": ["map"],
            "rules": ["ruleset"],
            "orders": [],
            "orders give": ["text"],
        }
    )


@pytest.mark.parametrize(
    "text, shown",
    [
        ("use `/game join game:12`", "use `/гра приєднатися гра:12`"),
        ("`/game create conquest map:duel`", "`/гра створити завоювання карта:duel`"),
        ("see `/rules conquest`", "see `/правила conquest`"),  # a value, not a subcommand
        ("try /orders give now", "try /накази віддати now"),
        ("/game join text:", "/гра приєднатися text:"),  # not an option of /game join
        ("move C4/C5, ratio 1/2, <t:1:R>, https://x.org/game", "move C4/C5, ratio 1/2, <t:1:R>, https://x.org/game"),
        ("/dance game", "/dance game"),  # no such command
    ],
)
def test_commands_quoted_in_a_text_are_renamed_along_the_command_tree(text, shown):
    assert localised(text, lambda word: NAMES.get(word, word)) == shown


def test_a_catalog_message_quotes_commands_by_the_readers_names():
    message = "{pings} — your turn ({turn}): play it with `/orders send`. Deadline: {deadline}."
    register({"orders send": ["text"]})
    with using("uk"):
        assert "`/накази надіслати`" in tr(message, pings="@a", turn="хід 3", deadline="завтра")
    with using("zh_Hans"):
        assert "`/命令 发送`" in tr(message, pings="@a", turn="第 3 步", deadline="明天")
    assert "`/orders send`" in tr(message, pings="@a", turn="move 3", deadline="tomorrow")
    with using("uk"):  # a placeholder's value is the player's, never renamed
        assert "/orders send" in tr("{player} joined game #{number}.", player="/orders send", number=1)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_shipped_map_and_computer_level_has_a_name_in_the_language(language):
    maps = {name for rs in RULESETS.values() for o in rs.options_schema() if o.kind == "map" for name in o.choices}
    levels = {level.name for rs in RULESETS.values() for level in rs.bot_levels}
    with using(language):
        assert [name for name in sorted(maps) if map_title(name) == name] == []
        assert [name for name in sorted(levels) if level_title(name) == name] == []
        assert map_title("my own") == "my own"
    assert map_title("crown") == "crown" and level_title("Hard") == "Hard"


@pytest.mark.parametrize(
    "language, shown",
    [
        ("en", ["generated medium, 3 players", "generated 10x10", "generated 20x16, mode 2", "generated small"]),
        (
            "uk",
            ["згенерована середня, 3 гравці", "згенерована 10x10", "згенерована 20x16, режим 2", "згенерована мала"],
        ),
        ("zh_Hans", ["随机生成 中 · 3 名玩家", "随机生成 10x10", "随机生成 20x16 · 模式 2", "随机生成 小"]),
    ],
)
def test_generated_maps_are_named_in_the_language(language, shown):
    ids = ["generated-medium-3p", "generated-10x10", "generated-20x16-mode2", "generated-small"]
    with using(language):
        assert [map_title(name) for name in ids] == shown


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_every_rulesets_generated_map_reads_without_english_words(ruleset):
    rs = RULESETS[ruleset]
    name = rs.map_name(rs.setup(rs.max_players))
    assert name.startswith("generated-")  # the stored id is unchanged
    for language in TRANSLATED:
        with using(language):
            assert re.search("[a-wyz]", map_title(name)) is None, map_title(name)  # "x" only in "10x10"


def test_lists_of_names_are_joined_the_languages_way():
    with using("zh_Hans"), pytest.raises(OptionError, match="：small、medium、large$"):
        settle(RULESETS["conquest"], {"size": "huge"})
    with using("zh_Hans"), pytest.raises(MapError, match="：王冠 \\(crown\\)、"):
        RULESETS["conquest"].setup(2, {"map": "nowhere"})
    with using("uk"), pytest.raises(OptionError, match=": small, medium, large$"):
        settle(RULESETS["conquest"], {"size": "huge"})
    assert joined(["Alice", "Bob"]) == "Alice, Bob"
    with using("zh_Hans"):
        assert joined(["Alice", "Bob"]) == "Alice、Bob" and joined([2, 3]) == "2、3"


def computer(name: str, level: str | None, user_id: int | None = None) -> PlayerRow:
    return PlayerRow(1, user_id, name, 0, 0, None, False, ai_level=level)


def test_computer_players_are_named_in_the_language_and_stored_in_english():
    with using("zh_Hans"):
        assert computer("Computer 2 (Hard)", "Hard").shown_name == "电脑 2（困难）"
        assert computer("Computer 1", "standard").shown_name == "电脑 1"  # a game with one level
        assert computer("Computer 3 (Hard)", None, user_id=7).shown_name == "Computer 3 (Hard)"  # a member's own name
        assert Standing("computer:Extreme", "Computer (Extreme)", 20.0, 3, 1, 9).shown_name == "电脑（极难）"
    with using("uk"):
        assert computer("Computer 2 (Easy)", "Easy").shown_name == "Комп’ютер 2 (Легкий)"
        assert Standing("computer:default", "Computer (default)", 20.0, 3, 1, 9).shown_name == "Комп’ютер"
        assert Standing("user:5", "Olena", 20.0, 3, 1, 9).shown_name == "Olena"
    assert computer("Computer 2 (Hard)", "Hard").shown_name == "Computer 2 (Hard)"


def test_map_errors_are_in_the_language():
    with using("uk"), pytest.raises(MapError, match="^невідома карта 'nowhere'; готові карти: корона \\(crown\\)"):
        RULESETS["conquest"].setup(2, {"map": "nowhere"})
    garrisoned = {"name": "x", "layout": ["n n", "n n"], "garrisons": {"A1": -1}, "starts": {"2": ["A1", "B2"]}}
    with using("zh_Hans"), pytest.raises(MapError, match="^A1 的守军必须是 0 到 10000 之间的整数，而不是 -1$"):
        ConquestMap.from_dict(garrisoned)
    with using("uk"), pytest.raises(MapError, match="^річка 'Z9' — не клітинка поля 10×10$"):
        SiegeMap.from_dict({"size": 10, "rivers": ["Z9"]})


def test_option_and_clock_refusals_are_in_the_language():
    with using("uk"), pytest.raises(OptionError, match="^colour не стосується гри «Завоювання»; є параметри: .*карта"):
        settle(RULESETS["conquest"], {"colour": "red"})  # the options as the reader's Discord names them
    with using("uk"), pytest.raises(OptionError, match="^параметр макс-гравців=7 має бути від 2 до 6$"):
        settle(RULESETS["conquest"], {"max_players": 7})
    with using("zh_Hans"), pytest.raises(OptionError, match="^加时 只能与棋钟一起使用；请用 计时 选项选择一种棋钟$"):
        settle(RULESETS["siege"], {"increment": 2})
    with (
        using("uk"),
        pytest.raises(Exception, match="^час на хід має бути в межах 1 хвилина – 30 днів; задано 5 секунд$"),
    ):
        check_settings(TimeSettings(round_seconds=5))
    with using("zh_Hans"), pytest.raises(OptionError, match="^征服 的玩家人数应为 2 到 6 名，而不是 7 名$"):
        RULESETS["conquest"].setup(7)
